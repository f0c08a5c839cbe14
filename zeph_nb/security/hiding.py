"""Which mounts hide the protected paths inside the OS sandbox (``os_sandbox.bwrap_argv``): an empty read-only
tmpfs over a folder, /dev/null over a file, as few as hide the same. Each mount costs bubblewrap 0.8 a read of the
whole mount table, so what hides nothing more (a link, a path in a hidden folder or in a folder the sandbox replaces,
what the command's user could never read) gets none, and a folder whose every entry is hidden is hidden whole. What
follows from the lists alone is worked out once per set of them; what the file system says, every time."""

from __future__ import annotations

import functools
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["hiding"]


def hiding(
    hidden: Sequence[Path], writable: Sequence[Path], bound: Sequence[Path], replaced: Sequence[Path]
) -> list[tuple[str, bool]]:
    """The mounts that hide ``hidden`` — (path, is a folder): an empty read-only tmpfs over a folder, /dev/null over
    a file — as few as hide the same. Each mount costs bubblewrap a read of the whole mount table (about 0.2 ms,
    measured: bench/sandbox_bench.py), so none is made that hides nothing more:

    * a link is skipped: its canonical target is in the list too;
    * a path that holds a writable root would hide the work itself; the file tools still refuse it, the sandbox
      leaves it;
    * a path in a folder the sandbox replaces with one of its own (/tmp, /run, the other calls' private folders),
      when no bind brings back it or a folder above or below it: inside, that path is the private folder's, where
      the host's is not (the tmux and ssh sockets under the real /tmp);
    * a path inside a hidden folder: the folder's tmpfs hides it (bwrap could not make the inner mount point in a
      read-only tmpfs anyway: the command would fail);
    * several hidden entries that are all a folder holds become one tmpfs over the folder, when no command may
      write in that folder (it is in no writable root) and nothing is bound inside it: what was readable there —
      nothing but empty stand-ins — stays so, and the stand-ins' names are hidden too."""
    plan = _hiding_plan(tuple(map(str, hidden)), tuple(map(str, writable)), tuple(map(str, bound)),
                        tuple(map(str, replaced)))  # fmt: skip
    # What the file system says now, every time: only what follows from the lists alone is worked out once.
    modes: dict[str, int] = {}
    listed: set[str] = set()  # the candidates whose folder was listed whole: absent from ``modes`` means absent
    for folder, names in plan.listed.items():
        # A folder holding many candidates (a home's dot-entries) is listed once; a failed lstat per absent name
        # costs ~1.5 us (it raises), a listing ~0.3 us an entry. A folder that cannot be listed (search permission
        # without read, 0711) or an entry gone meanwhile: its candidates are looked up one by one, as before.
        # The entry's kind from the listing itself (d_type: no lstat, unless the file system does not say).
        seen: dict[str, int] = {}
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    if entry.name in names:
                        seen[entry.path] = (
                            stat.S_IFLNK if entry.is_symlink()
                            else stat.S_IFDIR if entry.is_dir(follow_symlinks=False)
                            else stat.S_IFREG
                        )  # fmt: skip
        except OSError:
            continue
        modes.update(seen)
        listed.update(plan.listed_paths[folder])
    found: dict[str, bool] = {}
    for path in plan.candidates:
        mode = modes.get(path)
        if mode is None and path not in listed:
            # Most candidates are absent: ``access`` says so without raising (an lstat that fails costs ~3x more).
            if not os.access(path, os.F_OK, effective_ids=_EFFECTIVE, follow_symlinks=False):
                continue
            try:
                mode = os.lstat(path).st_mode
            except OSError:
                continue
        if mode is not None and not stat.S_ISLNK(mode) and not _out_of_reach(path, stat.S_ISDIR(mode)):
            found[path] = stat.S_ISDIR(mode)
    _whole_folders(found, plan)
    folders = {path for path, is_dir in found.items() if is_dir}
    return [(path, is_dir) for path, is_dir in found.items() if not any(above in folders for above in plan.above[path])]


def _out_of_reach(path: str, is_dir: bool) -> bool:
    """Whether the command could not read ``path`` even unhidden: not its owner's (an owner may give itself the
    right back with chmod) and, to this user, unreadable (a folder: neither listed nor entered). The sandbox runs as
    the same user with no capabilities and no new privileges, so it reads no more than the user does: an ordinary
    user's layout needs no mount for /etc/shadow or the SSH host keys (7 mounts fewer on Debian, each a read of
    the mount table). As root, ``access`` says yes to nearly everything: nothing is judged out of reach, all is
    hidden as before."""
    if _ROOT:
        return False
    try:
        if os.lstat(path).st_uid == os.geteuid():
            return False
    except OSError:
        return False
    if os.access(path, os.R_OK, effective_ids=_EFFECTIVE, follow_symlinks=False):
        return False
    return not is_dir or not os.access(path, os.X_OK, effective_ids=_EFFECTIVE, follow_symlinks=False)


_ROOT = os.geteuid() == 0


@dataclass(frozen=True)
class _HidingPlan:
    """What ``hiding`` works out from its lists alone (the settings, the writable roots, what is bound), once per
    set of them: measured 0.5 ms a command when worked out each time for ~140 hidden paths, 0.15 ms with it."""

    candidates: tuple[str, ...]  # hidden paths that may need a mount, in order: see hiding's first three points
    above: dict[str, tuple[str, ...]]  # each candidate's (and hidden folder's) folders, up to "/"
    wholes: dict[str, frozenset[str]]  # folder -> the hidden names in it, for folders that may be hidden whole
    listed: dict[str, frozenset[str]]  # folders listed rather than each candidate in them looked up
    listed_paths: dict[str, tuple[str, ...]]  # the candidates of each listed folder, as paths


@functools.lru_cache(maxsize=16)
def _hiding_plan(hidden: tuple[str, ...], roots: tuple[str, ...], binds: tuple[str, ...],
                 replaced: tuple[str, ...]) -> _HidingPlan:  # fmt: skip
    # On strings (os.path, ``inside``): ~160 hidden paths a command, pathlib's parents and hashes cost 1 ms.
    candidates = []
    for path in dict.fromkeys(hidden):
        if any(root != path and _within(root, path) for root in roots):
            continue
        if any(path != folder and _within(path, folder) for folder in replaced) and not any(
            _within(path, other) or _within(other, path) for other in binds
        ):
            continue
        candidates.append(path)
    above: dict[str, tuple[str, ...]] = {}
    for path in [*candidates, *{os.path.dirname(path) for path in hidden}]:
        folders: list[str] = []
        folder = os.path.dirname(path)
        while True:
            folders.append(folder)
            if folder == "/" or not folder:
                break
            folder = os.path.dirname(folder)
        above[path] = tuple(folders)
    names: dict[str, set[str]] = {}
    for folder, name in map(os.path.split, hidden):
        names.setdefault(folder, set()).add(name)
    wholes = {
        folder: frozenset(entries)
        for folder, entries in names.items()
        if folder != "/"
        and folder not in replaced
        and not any(_within(folder, root) for root in roots)
        and not any(_within(other, folder) for other in binds)
    }
    by_folder: dict[str, set[str]] = {}
    for path in candidates:
        by_folder.setdefault(os.path.dirname(path), set()).add(os.path.basename(path))
    listed = {folder: frozenset(inner) for folder, inner in by_folder.items() if len(inner) >= _LIST_FROM}
    listed_paths = {folder: tuple(os.path.join(folder, name) for name in inner) for folder, inner in listed.items()}
    return _HidingPlan(tuple(candidates), above, wholes, listed, listed_paths)


# ``access`` judged with the ids ``lstat`` uses (they differ only in a set-uid program).
_EFFECTIVE = os.access in os.supports_effective_ids

# From how many candidates in one folder it is listed instead (a listing of a home of ~100 entries costs what ~15
# lookups of absent names do).
_LIST_FROM = 8


def _within(path: str, root: str) -> bool:
    """``inside`` on strings."""
    return path == root or path.startswith(root if root.endswith("/") else root + "/")


# Whether a folder held only hidden entries, as last listed, by what it was then (an entry added, removed or renamed
# changes its mtime). Stale only within a tick of the coarse clock the times come from, and safe either way: a
# folder wrongly thought whole hides an entry more; one wrongly thought not whole has its hidden entries hidden one
# by one (each is looked up afresh).
_WHOLE: dict[str, tuple[tuple[int, int, int, int], frozenset[str], bool]] = {}


def _whole_folders(found: dict[str, bool], plan: _HidingPlan) -> None:
    """``found`` with the entries of a folder whose every entry is hidden replaced by the folder (see ``hiding``)."""
    members: dict[str, list[str]] = {}
    for path in found:
        members.setdefault(os.path.dirname(path), []).append(path)
    for folder, inner in members.items():
        listed = plan.wholes.get(folder)
        if len(inner) < 2 or listed is None:
            continue
        try:
            info = os.lstat(folder)
            if not stat.S_ISDIR(info.st_mode):
                continue
            seen = (info.st_dev, info.st_ino, info.st_mtime_ns, info.st_ctime_ns)
            known = _WHOLE.get(folder)
            if known is not None and known[0] == seen and known[1] == listed:
                whole = known[2]
            else:
                with os.scandir(folder) as entries:  # stops at the first entry that is not hidden (/etc: at once)
                    whole = all(entry.name in listed for entry in entries)
                _WHOLE[folder] = (seen, listed, whole)
        except OSError:
            continue
        if not whole:
            continue
        for path in inner:
            del found[path]
        found[folder] = True
