"""Recursive inotify watches over folder trees: what appears, is written or is renamed in them, as it happens.

inotify watches one folder at a time, so every folder of the trees gets a watch, and a folder that appears (created,
or renamed into a watched one) gets its watches the moment its event is read; what was put inside it before that
is found by listing it, and reported as if it had just appeared. So ``mkdir -p a/b/c && git init a/b/c`` is seen
however fast it runs, and so is a tree prepared elsewhere and renamed in.

What inotify cannot promise is said, never hidden: the kernel's queue can overflow (``overflowed``), and the
per-user number of watches can run out (``incomplete``). Either way the caller falls back to walking the trees.
Inside a git directory the object store, refs and logs are not watched: many folders, and nothing in them runs.
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import os
import select
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["Change", "TreeWatch"]

Kind = Literal["created", "written", "moved", "removed"]


class _Flag:
    """inotify's event bits (``<sys/inotify.h>``, the kernel's ABI); plain ints: an ``IntFlag``'s ``&`` cost most
    of the time spent on each event."""

    MODIFY = 0x2
    ATTRIB = 0x4
    CLOSE_WRITE = 0x8
    MOVED_FROM = 0x40
    MOVED_TO = 0x80
    CREATE = 0x100
    DELETE = 0x200
    DELETE_SELF = 0x400
    MOVE_SELF = 0x800
    Q_OVERFLOW = 0x4000
    IGNORED = 0x8000
    ONLYDIR = 0x01000000
    DONT_FOLLOW = 0x02000000
    EXCL_UNLINK = 0x04000000
    ISDIR = 0x40000000


# A git dir's config is watched by its inode too: a hard link from the working tree would take writes that no
# folder's watch reports (they are reported where the name used lives), and the link itself changes only its
# inode (IN_ATTRIB, link count).
_GIT_FILES = frozenset({"config", "config.worktree"})
_FILE_MASK = _Flag.MODIFY | _Flag.CLOSE_WRITE | _Flag.ATTRIB | _Flag.DONT_FOLLOW
_DIR_MASK = (
    _Flag.CREATE | _Flag.MOVED_TO | _Flag.MOVED_FROM | _Flag.CLOSE_WRITE | _Flag.MODIFY | _Flag.DELETE
    | _Flag.DELETE_SELF | _Flag.MOVE_SELF | _Flag.ONLYDIR | _Flag.DONT_FOLLOW | _Flag.EXCL_UNLINK
)  # fmt: skip
# Folders of a git directory that hold data git reads as data, never runs: not watched.
_GIT_DATA = frozenset({"objects", "refs", "logs", "lfs", "rr-cache", "packed-refs"})
_READ_BYTES = 1 << 20


@dataclass(frozen=True)
class Change:
    """One thing that happened at ``path``: created (or found in a folder that just appeared), written, renamed
    into place (``moved``), or removed."""

    path: str
    kind: Kind
    is_dir: bool


class TreeWatch:
    """inotify watches on every folder of some trees. ``add(root)``, then ``read()`` the changes; ``fileno()`` for
    ``select``. Not thread-safe: one thread owns it."""

    def __init__(self, max_watches: int = 100_000) -> None:
        """Raises OSError where there is no inotify (not Linux, or no inotify instance left for this user)."""
        try:
            self._lib: Any = importlib.import_module("inotify_simple")
        except ImportError as e:
            raise OSError(errno.ENOSYS, f"inotify is not available here ({e})") from None
        self._inotify: Any = self._lib.INotify(nonblocking=True)
        self.max_watches = max_watches
        self._paths: dict[int, str] = {}  # watch descriptor -> folder
        self._files: dict[int, str] = {}  # watch descriptor -> a git dir's config, watched by its inode
        self._moved: dict[int, str] = {}  # rename cookie -> the folder's old path
        self.roots: list[str] = []
        self.incomplete = False  # some folder has no watch (the limit was reached): walk to be sure
        self.overflowed = False  # the kernel dropped events since the last look; the caller resets it
        self.excluded: set[str] = set()  # folders never watched (nothing there concerns the caller)

    def fileno(self) -> int:
        return int(self._inotify.fileno())

    def close(self) -> None:
        self._inotify.close()

    @property
    def watches(self) -> int:
        return len(self._paths)

    def add(self, root: str) -> list[Change]:
        """Watch ``root`` and every folder under it; returns what is in it (as ``created``), so a caller looks at
        what was there before the watches were."""
        if root not in self.roots:
            self.roots.append(root)
        return list(self._watch_tree(root))

    def remove(self, root: str) -> None:
        """Stop watching ``root`` (and the folders under it that no other root holds)."""
        if root in self.roots:
            self.roots.remove(root)
        for wd, path in list(self._paths.items()):
            if _under(path, root) and not any(_under(path, other) for other in self.roots):
                self._paths.pop(wd, None)
                with contextlib.suppress(OSError):
                    self._inotify.rm_watch(wd)

    def rewatch(self) -> list[Change]:
        """Walk every root again (after an overflow): watches for folders missed (nothing is reported: the caller
        walks for what matters itself)."""
        changes: list[Change] = []
        for root in list(self.roots):
            changes += self._watch_tree(root, report=False)
        return changes

    def read(self, timeout: float | None = 0) -> list[Change]:
        """The changes since the last read, waiting up to ``timeout`` seconds for the first (None: no limit)."""
        if timeout != 0:
            ready, _, _ = select.select([self.fileno()], [], [], timeout)
            if not ready:
                return []
        changes: list[Change] = []
        while True:
            try:
                data = os.read(self.fileno(), _READ_BYTES)
            except BlockingIOError:
                break
            for event in self._lib.parse_events(data):
                changes += self._changes_of(event.wd, event.mask, event.cookie, event.name)
            if len(data) < _READ_BYTES // 2:
                break
        return changes

    # -- internals ---------------------------------------------------------------------------------------------

    def _changes_of(self, wd: int, mask: int, cookie: int, name: str) -> list[Change]:
        if mask & _Flag.Q_OVERFLOW:
            self.overflowed = True
            return []
        if mask & _Flag.IGNORED:  # the folder is gone (or unmounted): its descriptor may be reused
            self._paths.pop(wd, None)
            return []
        if wd in self._files:  # the config file itself, whichever of its names was used
            if mask & _Flag.IGNORED:
                self._files.pop(wd, None)
                return []
            return [Change(self._files[wd], "written", False)]
        folder = self._paths.get(wd)
        if folder is None or not name:
            return []
        path = os.path.join(folder, name)
        is_dir = bool(mask & _Flag.ISDIR)
        if not is_dir and mask & (_Flag.CREATE | _Flag.MOVED_TO):
            self._watch_file(path)
        if mask & _Flag.MOVED_FROM:
            if is_dir:
                if len(self._moved) > 1000:  # renamed out of every watched tree: never matched
                    self._moved.clear()
                self._moved[cookie] = path
            return [Change(path, "removed", is_dir)]
        if mask & _Flag.DELETE:
            return [Change(path, "removed", is_dir)]
        if mask & (_Flag.CREATE | _Flag.MOVED_TO):
            kind: Kind = "moved" if mask & _Flag.MOVED_TO else "created"
            changes = [Change(path, kind, is_dir)]
            if is_dir:
                old = self._moved.pop(cookie, None) if mask & _Flag.MOVED_TO else None
                if old is not None:
                    self._rename(old, path)
                if not _skipped(path):
                    changes += self._watch_tree(path)
            return changes
        if mask & (_Flag.CLOSE_WRITE | _Flag.MODIFY) and not is_dir:
            return [Change(path, "written", False)]
        return []

    def _rename(self, old: str, new: str) -> None:
        """A watched folder was renamed: its watches (and those below it) now report under the new path."""
        for wd, path in list(self._paths.items()):
            if path == old or path.startswith(old + os.sep):
                self._paths[wd] = new + path[len(old) :]

    def _watch_tree(self, root: str, *, report: bool = True) -> Iterator[Change]:
        """Add a watch to ``root`` and each folder under it before listing it, so nothing made meanwhile is
        missed; yields every entry found (``report``)."""
        pending = [root]
        while pending:
            folder = pending.pop()
            if folder in self.excluded or not self._add_watch(folder):
                continue
            for entry in _entries(folder):
                is_dir = _is_folder(entry)
                if not is_dir:
                    self._watch_file(entry.path)
                if report:
                    yield Change(entry.path, "created", is_dir)
                if is_dir and not _skipped(entry.path):
                    pending.append(entry.path)

    def _watch_file(self, path: str) -> None:
        """A git dir's config gets a watch on its inode (the one now at that name; an older one's is dropped)."""
        folder, name = os.path.split(path)
        if name not in _GIT_FILES or ".git" not in folder.split(os.sep):
            return
        try:
            wd = self._inotify.add_watch(path, _FILE_MASK)
        except OSError:
            return
        for old, watched in list(self._files.items()):
            if watched == path and old != wd:
                self._files.pop(old)
                with contextlib.suppress(OSError):
                    self._inotify.rm_watch(old)
        self._files[wd] = path

    def _add_watch(self, folder: str) -> bool:
        if len(self._paths) >= self.max_watches:
            self.incomplete = True
            return False
        try:
            wd = self._inotify.add_watch(folder, _DIR_MASK)
        except OSError as e:
            if e.errno == errno.ENOSPC:  # fs.inotify.max_user_watches
                self.incomplete = True
            return False
        self._paths[wd] = folder
        return True


def _entries(folder: str) -> Iterable[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as entries:
            return list(entries)
    except OSError:
        return []


def _is_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _skipped(path: str) -> bool:
    """Data folders inside a git directory: ``.git/objects``, ``.git/modules/x/refs`` …"""
    parent, name = os.path.split(path)
    return name in _GIT_DATA and f"{os.sep}.git{os.sep}" in parent + os.sep


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)
