"""Git repositories that a sandboxed command creates: nothing in them may run on the host later.

The sandbox keeps the hooks and config of existing repositories read-only. A command may still ``git init`` (or
write a ``.git`` by hand) in the working directory, and the person's next ``git status`` there — outside the
sandbox — would obey that repository's config (``core.fsmonitor``, ``core.pager``, ``alias.x = !cmd``, filter
drivers …) and run its hooks. So after each command, a repository that was not there before keeps only the config
keys ``git init`` and ``git clone`` write, and no hooks but git's own ``*.sample`` files; what was removed is said.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

__all__ = ["SAFE_KEYS", "neutralize_repository"]

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


def neutralize_repository(git_dir: Path) -> list[str]:
    """Strip a new repository of what would run on the host; returns what was removed (empty: nothing)."""
    removed: list[str] = []
    for name in ("config", "config.worktree"):
        config = git_dir / name
        if config.is_symlink():
            config.unlink()
            removed.append(f".git/{name} (a link)")
        elif config.is_file():
            text = config.read_text(encoding="utf-8", errors="replace")
            cleaned, dropped = _filter_config(text)
            if dropped:
                config.write_text(cleaned, encoding="utf-8")
                removed += [f"config key {key}" for key in dropped]
    for name in ("commondir", "gitdir"):
        if os.path.lexists(git_dir / name):
            (git_dir / name).unlink()
            removed.append(f".git/{name}")
    hooks = git_dir / "hooks"
    if hooks.is_symlink():
        hooks.unlink()
        removed.append(".git/hooks (a link)")
    elif hooks.is_dir():
        removed += [f"hook {hook.name}" for hook in _remove_hooks(hooks.iterdir())]
    return removed


def _remove_hooks(entries: Iterable[Path]) -> list[Path]:
    gone = []
    for hook in entries:
        if hook.name.endswith(".sample") and hook.is_file() and not hook.is_symlink():
            continue
        if hook.is_dir() and not hook.is_symlink():
            import shutil

            shutil.rmtree(hook)
        else:
            hook.unlink()
        gone.append(hook)
    return gone
