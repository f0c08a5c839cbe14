"""What in the writable trees a command must not change, found by walking them before it runs: git repositories (and
what git runs or obeys in them), policy files, Python environments. ``os_sandbox.bwrap_argv`` binds them read-only;
``HostGuard`` and the pane watcher look again afterwards for what appeared.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

__all__ = [
    "AFTER_SCAN_FOLDERS",
    "ENVIRONMENT_MARKERS",
    "GIT_READ_ONLY",
    "GIT_SCAN_FOLDERS",
    "POLICY_FILE_NAMES",
    "TreeScan",
    "git_dir_layout",
    "git_repositories",
    "git_sensitive",
    "holding_most",
    "module_git_dirs",
    "protected_in_trees",
    "scan_tree",
]

# How many folders of a writable tree the walk before each command visits, looking for git repositories and
# policy files to keep read-only (about 5 ms for 2,000 folders); the check after the command sees more.
GIT_SCAN_FOLDERS = 2000
AFTER_SCAN_FOLDERS = 20000
POLICY_FILE_NAMES = frozenset({"zeph.toml", "filters.toml"})
# What makes a folder a Python environment: a virtualenv's pyvenv.cfg, a conda environment's conda-meta/.
ENVIRONMENT_MARKERS = frozenset({"pyvenv.cfg", "conda-meta"})
# Inside a .git directory: what git runs (hooks) or obeys (config, and the files that point it at another config).
GIT_READ_ONLY = ("hooks", "config", "config.worktree", "commondir", "info")


@dataclass(frozen=True)
class TreeScan:
    """What one walk of a writable tree found: every ``.git`` (directory, pointer file or link), every policy file
    (``zeph.toml``, ``filters.toml`` — a kernel started in that folder would read it), every Python environment (a
    folder holding ``pyvenv.cfg`` or ``conda-meta/``: a ``.pth`` file written there runs in every Python started
    from it), and whether the walk saw the whole tree."""

    repositories: tuple[Path, ...]
    policy_files: tuple[Path, ...]
    complete: bool
    environments: tuple[Path, ...] = ()


def scan_tree(root: Path, budget: int = GIT_SCAN_FOLDERS) -> TreeScan:
    """Walk ``root`` breadth first, dot-folders included (a repository in ``.deps/lib`` is one too), never into a
    ``.git``; each folder is asked for its ``.git``, policy files and environment markers directly, so no
    number of files hides one. A folder laid out as a git directory itself (``HEAD``, ``objects/``, ``refs/``: a
    bare repository, which git run in or below it uses with its config) is a repository too. At most ``budget``
    folders: the working directory's own entries are always seen first."""
    repos: list[Path] = []
    policy: list[Path] = []
    environments: list[Path] = []
    pending = deque([root])
    while pending:
        if budget <= 0:
            return TreeScan(tuple(repos), tuple(policy), False, tuple(environments))
        budget -= 1
        folder = pending.popleft()
        children: list[Path] = []
        names: set[str] = set()
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    names.add(entry.name)
                    if entry.name == ".git":
                        repos.append(Path(entry.path))
                    elif entry.name in POLICY_FILE_NAMES:
                        policy.append(Path(entry.path))
                    elif _is_folder(entry):
                        children.append(Path(entry.path))
        except OSError:
            continue
        if names & ENVIRONMENT_MARKERS:
            environments.append(folder)
        if names >= _GIT_DIR_NAMES and git_dir_layout(folder):
            repos.append(folder)  # and walked into all the same: a folder made to look like one hides nothing
        pending.extend(children)
    return TreeScan(tuple(repos), tuple(policy), True, tuple(environments))


_GIT_DIR_NAMES = frozenset({"HEAD", "objects", "refs"})


def git_dir_layout(folder: Path) -> bool:
    """Whether git takes ``folder`` for a git directory (as it does a bare repository it is run in or below):
    a ``HEAD``, an ``objects/`` and a ``refs/``."""
    return os.path.lexists(folder / "HEAD") and (folder / "objects").is_dir() and (folder / "refs").is_dir()


# Repositories, policy files and environments once found under a root stay known (while they exist), so a later
# command that creates enough folders to use up the scan's budget cannot make an existing one disappear from the
# protected list.
_KNOWN: dict[Path, dict[Path, Literal["repository", "policy", "environment"]]] = {}


# One call's trees are walked twice before its command runs — by the undo gate (the environments provenance skips)
# and by the shell's guard (what the sandbox keeps read-only), milliseconds apart — and once after it. A walk of the
# same roots made less than this long ago is that walk (the one after a command counts: it saw at least as much);
# anything that appears in between is what the check after the command looks for anyway, as when it appears while
# the command runs. Short, so a call that waited for a person walks again.
SHARED_WALK_SECS = 0.25
_recent: dict[tuple[Path, ...], tuple[float, int, TreeScan]] = {}


def protected_in_trees(roots: Sequence[Path], budget: int = GIT_SCAN_FOLDERS, *, fresh: bool = False) -> TreeScan:
    """``scan_tree`` over ``roots``, plus whatever an earlier scan of them found that still exists; a walk of the
    same roots with at least this ``budget`` made in the last ``SHARED_WALK_SECS`` is reused, not repeated, unless
    ``fresh`` (the look after a command: it must see what the command did)."""
    key = tuple(dict.fromkeys(roots))
    now = time.monotonic()
    recent = _recent.get(key)
    if not fresh and recent is not None and now - recent[0] < SHARED_WALK_SECS and recent[1] >= budget:
        # Less what is gone since: a policy file the guard set aside after the walk must not count as one that was
        # there before the next command (a command that wrote it again would keep it).
        scan = recent[2]
        return dataclasses.replace(
            scan,
            repositories=tuple(p for p in scan.repositories if os.path.lexists(p)),
            policy_files=tuple(p for p in scan.policy_files if os.path.lexists(p)),
            environments=tuple(p for p in scan.environments if os.path.lexists(p)),
        )
    scan = _protected_in_trees(key, budget)
    if len(_recent) > 16:
        _recent.clear()
    _recent[key] = (now, budget, scan)
    return scan


def _protected_in_trees(roots: Sequence[Path], budget: int) -> TreeScan:
    repos: list[Path] = []
    policy: list[Path] = []
    environments: list[Path] = []
    complete = True
    for root in dict.fromkeys(roots):
        # The first look at a tree in this process sees as much as the check after a command does, so what is
        # there already is known; later looks add to it, bounded.
        scan = scan_tree(root, budget if root in _KNOWN else max(budget, AFTER_SCAN_FOLDERS))
        complete = complete and scan.complete
        known = _KNOWN.setdefault(root, {})
        known.update({**dict.fromkeys(scan.repositories, "repository"), **dict.fromkeys(scan.policy_files, "policy"),
                      **dict.fromkeys(scan.environments, "environment")})  # fmt: skip
        for path in [path for path in known if not os.path.lexists(path)]:
            del known[path]
        seen = {*scan.repositories, *scan.policy_files, *scan.environments}
        older = sorted(path for path in known if path not in seen)
        repos += [*scan.repositories, *(p for p in older if known[p] == "repository")]
        policy += [*scan.policy_files, *(p for p in older if known[p] == "policy")]
        environments += [*scan.environments, *(p for p in older if known[p] == "environment" and _is_environment(p))]
    return TreeScan(tuple(dict.fromkeys(repos)), tuple(dict.fromkeys(policy)), complete,
                    tuple(dict.fromkeys(environments)))  # fmt: skip


def _is_environment(folder: Path) -> bool:
    return any(os.path.lexists(folder / marker) for marker in ENVIRONMENT_MARKERS)


def git_repositories(roots: Sequence[Path]) -> list[Path]:
    """Every ``.git`` the sandbox protects under ``roots``."""
    return list(protected_in_trees(roots).repositories)


def _is_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def module_git_dirs(repo: Path) -> list[Path]:
    """The git dirs of a repository's submodules (``.git/modules/…``, names with slashes and nested ones too)."""
    found: list[Path] = []
    pending = [repo / "modules"]
    while pending and len(found) < GIT_SCAN_FOLDERS:
        folder = pending.pop()
        try:
            entries = [Path(e.path) for e in os.scandir(folder) if _is_folder(e)]
        except OSError:
            continue
        for entry in entries:
            if (entry / "HEAD").exists():  # a submodule's git dir; its own submodules live below it
                found.append(entry)
                pending.append(entry / "modules")
            else:
                pending.append(entry)  # a submodule named with slashes: modules/libs/foo
    return found


def git_sensitive(repo: Path) -> list[Path]:
    """What git on the host runs or obeys in a repository: in its own git dir, in each submodule's (nested in
    ``modules/``, at any depth) and in each linked worktree's admin dir (``worktrees/<name>/``). Existing ones are
    bound read-only; absent ones, if a command creates them, are removed after it."""
    found = [repo / name for name in GIT_READ_ONLY]
    for module in module_git_dirs(repo):
        found += [module / name for name in GIT_READ_ONLY]
    try:
        worktrees = [Path(e.path) for e in os.scandir(repo / "worktrees") if _is_folder(e)]
    except OSError:
        worktrees = []
    for admin in worktrees:
        found += [admin / name for name in ("commondir", "config.worktree", "gitdir", "hooks", "config")]
    return found


def holding_most(paths: Sequence[Path]) -> tuple[Path, int] | None:
    """The deepest folder holding at least half of ``paths``, and how many: where to look when a command (a
    model's, perhaps) filled a working directory with them (messages name it, not thousands of paths). None when
    there are none."""
    if not paths:
        return None
    counts: dict[Path, int] = {}
    for path in paths:
        for folder in path.parents:
            counts[folder] = counts.get(folder, 0) + 1
    half = (len(paths) + 1) // 2
    folder = max((f for f, n in counts.items() if n >= half), key=lambda f: len(f.parts))
    return folder, counts[folder]
