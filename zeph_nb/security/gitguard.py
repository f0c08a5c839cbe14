"""Git repositories that a sandboxed command creates: nothing in them may run on the host later.

The sandbox keeps the hooks and config of existing repositories read-only. A command may still ``git init`` (or
write a ``.git`` by hand) in the working directory, and the person's next ``git status`` there — outside the
sandbox — would obey that repository's config (``core.fsmonitor``, ``core.pager``, ``alias.x = !cmd``, filter
drivers …) and run its hooks. So after each command, a repository that was not there before keeps only the config
keys ``git init`` and ``git clone`` write, and no hooks but git's own ``*.sample`` files; what was removed is said.
"""

from __future__ import annotations

import fnmatch
import os
import re
import shutil
import stat
from pathlib import Path

from zeph_nb.security.no_links import held_folder, read_text, replace_text

__all__ = ["SAFE_KEYS", "neutralize_repository", "runs_when_used"]

# section.key globs (lower case; a subsection is written as *) that git writes itself on init or clone.
SAFE_KEYS = (
    "core.repositoryformatversion",
    "core.filemode",
    "core.bare",
    "core.logallrefupdates",
    "core.ignorecase",
    "core.precomposeunicode",
    "core.symlinks",
    "init.defaultbranch",
    "extensions.objectformat",
    "remote.*.url",
    "remote.*.fetch",
    "branch.*.remote",
    "branch.*.merge",
    "user.name",
    "user.email",
)
# Config keys (section.key globs, lower case) whose value git runs as a command, or that point git at other
# config, hooks or a work tree: never written by a tool that sets up a repository the ordinary way. Not what is
# stripped (that is everything outside SAFE_KEYS); what says a command planted something to run.
RUNNING_KEYS = (
    "core.fsmonitor", "core.hookspath", "core.pager", "core.editor", "core.sshcommand", "core.gitproxy",
    "core.askpass", "core.worktree", "alias.*", "pager.*", "include.path", "includeif.*.path", "filter.*.*",
    "diff.external", "diff.*.textconv", "diff.*.command", "merge.*.driver", "credential.helper",
    "credential.*.helper", "sequence.editor", "gpg.program", "gpg.*.program", "uploadpack.packobjectshook",
    "difftool.*.cmd", "mergetool.*.cmd", "remote.*.uploadpack", "remote.*.receivepack", "web.browser",
    "browser.*.cmd", "man.*.cmd", "sendemail.sendmailcmd", "sendemail.*.sendmailcmd",
)  # fmt: skip
_SECTION = re.compile(r'^\s*\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]\s*$')
_KEY = re.compile(r"^\s*([A-Za-z][A-Za-z0-9-]*)\s*(?:=.*)?$")


def _safe(section: str, subsection: str | None, key: str) -> bool:
    name = f"{section.lower()}.{'*.' if subsection is not None else ''}{key.lower()}"
    return name in SAFE_KEYS


def _filter_config(text: str) -> tuple[str, list[str]]:
    """The config with unsafe keys removed, and the dotted names removed."""
    kept: list[str] = []
    removed: list[str] = []
    section: tuple[str, str | None] | None = None
    header: str | None = None
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", ";")):
            continue
        match = _SECTION.match(line)
        if match:
            section, header = (match.group(1), match.group(2)), line
            continue
        key = _KEY.match(line)
        if section is None or key is None or line.rstrip().endswith("\\"):
            removed.append(stripped[:60])  # not a line git init writes: continuation, key outside a section …
            continue
        if _safe(section[0], section[1], key.group(1)):
            if header is not None:
                kept.append(header)
                header = None
            kept.append(line)
        else:
            sub = f".{section[1]}" if section[1] is not None else ""
            removed.append(f"{section[0]}{sub}.{key.group(1)}")
    return ("\n".join(kept) + "\n" if kept else ""), removed


def runs_when_used(removed: str) -> bool:
    """Whether one of ``neutralize_repository``'s answers was something git would run or obey later: a hook, a
    pointer or link, or a key in ``RUNNING_KEYS`` (``submodule.x.url`` from a clone is not)."""
    if not removed.startswith("config key "):
        return True
    parts = removed.removeprefix("config key ").lower().split(".")
    if len(parts) < 2:
        return True  # not a key git writes at all
    name = f"{parts[0]}.*.{parts[-1]}" if len(parts) > 2 else f"{parts[0]}.{parts[-1]}"
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in RUNNING_KEYS)


def neutralize_repository(git_dir: Path) -> list[str]:
    """Strip a new repository of what would run on the host; returns what was removed (empty: nothing).

    Acted on through the git dir held open, reached through no link (``no_links``): a command running meanwhile
    that swaps ``.git``, a folder above it or ``.git/hooks`` for a link gets nothing done elsewhere (OSError), and
    a FIFO in place of ``config`` is not read (it would block)."""
    with held_folder(git_dir) as folder:
        return _neutralize(folder)


def _neutralize(folder: int) -> list[str]:
    removed: list[str] = []
    for name in ("config", "config.worktree"):
        kind = _kind(folder, name)
        if kind == "link" or kind == "other":
            os.unlink(name, dir_fd=folder)
            removed.append(f".git/{name} ({'a link' if kind == 'link' else 'not a file'})")
        elif kind == "file":
            text = read_text(folder, name)
            cleaned, dropped = _filter_config(text or "")
            # A config with another name (a hard link from the working tree) would take writes through that name,
            # which no watch on the git dir sees: it is replaced by a file of its own.
            linked = os.stat(name, dir_fd=folder, follow_symlinks=False).st_nlink > 1
            if dropped or linked:
                replace_text(folder, name, cleaned if dropped else (text or ""))
                removed += [f"config key {key}" for key in dropped]
                if linked:
                    removed.append(f".git/{name}'s other name (a hard link)")
    for name in ("commondir", "gitdir"):
        kind = _kind(folder, name)
        if kind == "folder":
            shutil.rmtree(name, dir_fd=folder)
        elif kind is not None:
            os.unlink(name, dir_fd=folder)
        if kind is not None:
            removed.append(f".git/{name}")
    kind = _kind(folder, "hooks")
    if kind == "folder":
        hooks = os.open("hooks", os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=folder)
        try:
            removed += [f"hook {name}" for name in _remove_hooks(hooks)]
        finally:
            os.close(hooks)
    elif kind is not None:
        os.unlink("hooks", dir_fd=folder)
        removed.append(".git/hooks (a link)" if kind == "link" else ".git/hooks (not a folder)")
    return removed


def _kind(folder: int, name: str) -> str | None:
    try:
        mode = os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(mode):
        return "link"
    if stat.S_ISDIR(mode):
        return "folder"
    return "file" if stat.S_ISREG(mode) else "other"


def _remove_hooks(hooks: int) -> list[str]:
    """Every hook but git's own ``*.sample`` files (regular files), removed by name in the held folder."""
    gone = []
    for name in sorted(os.listdir(hooks)):
        kind = _kind(hooks, name)
        if kind is None or (kind == "file" and name.endswith(".sample")):
            continue
        if kind == "folder":
            shutil.rmtree(name, dir_fd=hooks)
        else:
            os.unlink(name, dir_fd=hooks)
        gone.append(name)
    return gone
