"""What is at a path: absent, a regular file (content hash, mode), a symbolic link (its target) or a directory (its
mode); a ``Capture`` of several paths, whole trees walked without following links, into a ``Snapshot``; and
``changed_paths`` between two snapshots. ``restore.py`` puts changed paths back to a snapshot's states.

A file's content goes to a ``BlobSink`` (content-addressed, so an unchanged file is kept once however often it is
captured: the store's blobs for ``%zeph undo``, memory for a shell transaction) unless the byte budget is spent:
then only its size and mtime are noted, which still tells whether it changed, and it cannot be restored. A file
whose content is not kept is hashed a chunk at a time, never held whole (a sparse file can be gigabytes). Nothing
here follows a symbolic link or opens anything but a regular file (a FIFO would block, a device could be endless).
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal, Protocol

__all__ = ["BlobSink", "Capture", "PathState", "Snapshot", "changed_paths"]

Kind = Literal["absent", "file", "symlink", "dir", "other"]
_CHUNK = 1 << 20


class BlobSink(Protocol):
    """Where file contents are kept, by their sha256 (the store's blobs, or a transaction's memory)."""

    def has(self, sha256: str) -> bool: ...

    def put(self, data: bytes) -> str: ...


@dataclass(frozen=True)
class PathState:
    """One path's state. ``sha256`` is None for a file that was not read (over the budget): ``size`` and
    ``mtime_ns`` identify it then. ``kept``: its content is in the blob store, so undo can put it back."""

    kind: Kind
    mode: int | None = None
    sha256: str | None = None
    size: int | None = None
    mtime_ns: int | None = None
    target: str | None = None
    kept: bool = False

    def same_as(self, other: PathState) -> bool:
        """Whether ``other`` is the same thing (content, link target, mode), ignoring whether it was kept."""
        if self.kind != other.kind or self.mode != other.mode or self.target != other.target:
            return False
        if self.kind != "file":
            return True
        if self.sha256 is not None and other.sha256 is not None:
            return self.sha256 == other.sha256
        return (self.size, self.mtime_ns) == (other.size, other.mtime_ns)

    def to_json(self) -> str:
        return json.dumps({k: v for k, v in asdict(self).items() if v not in (None, False)}, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> PathState:
        data: dict[str, Any] = json.loads(text)
        return cls(**data)

    def describe(self) -> str:
        if self.kind == "file":
            return f"file of {self.size} bytes, mode {self.mode:o}" if self.mode is not None else "file"
        if self.kind == "symlink":
            return f"link to {self.target}"
        return {"absent": "nothing", "dir": "folder", "other": "special file"}[self.kind]


ABSENT = PathState("absent")


@dataclass
class Snapshot:
    """The states of the paths under some roots, and why any file's content was not kept."""

    states: dict[str, PathState] = field(default_factory=dict)
    not_kept: list[str] = field(default_factory=list)  # files over the byte budget
    complete: bool = True  # False: the walk stopped at max_files; changes under it cannot be told
    reason: str = ""


class Capture:
    """Takes snapshots for one call: ``budget`` bytes of content at most (0: no cap), ``max_files`` entries at most
    per walk (0: no cap). ``hashes`` is shared across calls: a file whose inode, size and times are unchanged is
    not read again when its content is already kept. ``include``: when given, only the paths it accepts are
    noted (the folders it refuses are still walked, for what under them it accepts). ``reads``: when given, a
    regular file is read (hashed) only if it accepts the file's path and size; the others are noted by size and mtime,
    as when the budget is spent (a rollback need not read a file the command created: it only deletes it)."""

    def __init__(
        self, sink: BlobSink | None, *, budget: int = 0, max_files: int = 0, exclude: Iterable[str] = (),
        hashes: dict[tuple[int, ...], str] | None = None, kept: set[str] | None = None,
        secret: Callable[[str], bool] | None = None, include: Callable[[str], bool] | None = None,
        reads: Callable[[str, int], bool] | None = None,
    ) -> None:  # fmt: skip
        self.sink = sink
        self.budget = budget
        self.max_files = max_files
        self.exclude = frozenset(exclude)
        self.hashes = hashes if hashes is not None else {}
        self.kept = kept if kept is not None else set()  # blobs known to be in the sink (no stat to ask again)
        self.read = 0
        self.secret = secret  # paths whose content is not kept (what zeph may not read): hashed, never copied
        self.include = include
        self.reads = reads

    def take(self, roots: Iterable[str], *, keep: bool = True) -> Snapshot:
        """The state of each root and, for a directory root, of everything under it (not following links)."""
        snapshot = Snapshot()
        for root in roots:
            self._walk(root, snapshot, keep)
        return snapshot

    def state(self, path: str, *, keep: bool = False, snapshot: Snapshot | None = None, read: bool = True) -> PathState:
        """``path``'s state; a regular file's content is hashed (and kept, with ``keep``) unless ``read`` is False
        or ``reads`` refuses it."""
        try:
            info = os.lstat(path)
        except (FileNotFoundError, NotADirectoryError):
            return ABSENT
        except OSError as e:
            if e.errno in (errno.ENAMETOOLONG, errno.ELOOP):  # no file can have this name: the tool says so itself
                return ABSENT
            raise
        mode = stat.S_IMODE(info.st_mode)
        if stat.S_ISLNK(info.st_mode):
            return PathState("symlink", target=os.readlink(path))
        if stat.S_ISDIR(info.st_mode):
            return PathState("dir", mode=mode)
        if not stat.S_ISREG(info.st_mode):
            return PathState("other", mode=mode)
        key = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
        known = self.hashes.get(key)
        base = PathState("file", mode=mode, size=info.st_size, mtime_ns=info.st_mtime_ns)
        if known is not None and (not keep or known in self.kept or (self.sink is not None and self.sink.has(known))):
            if keep:
                self.kept.add(known)
            return _with(base, sha256=known, kept=keep)
        if not read or (self.reads is not None and not self.reads(path, info.st_size)):
            return base
        if self.budget and self.read + info.st_size > self.budget:
            if keep and snapshot is not None:
                snapshot.not_kept.append(path)
            return base
        secret = keep and self.secret is not None and self.secret(path)
        kept = keep and self.sink is not None and not secret
        if kept and self.sink is not None:
            data = _read_regular(path, info)  # whole, to be kept: the budget bounds it
            if data is None:  # replaced between lstat and open: say nothing about its content
                return base
            self.read += len(data)
            digest = self.sink.put(data)  # named by its sha256: hashing it here too cost as much as reading it
            self.kept.add(digest)
        else:
            hashed = _hash_regular(path, info)  # a chunk at a time: nothing is kept, so nothing is held
            if hashed is None:
                return base
            digest, size = hashed
            self.read += size
        self.hashes[key] = digest
        if secret and snapshot is not None:
            snapshot.not_kept.append(path)
        return _with(base, sha256=digest, kept=kept)

    def _walk(self, root: str, snapshot: Snapshot, keep: bool) -> None:
        pending = [root]
        while pending:  # a loop, not recursion: a hostile tree can be deeper than Python's recursion limit
            path = pending.pop()
            if self.max_files and len(snapshot.states) >= self.max_files:
                snapshot.complete = False
                snapshot.reason = f"more than {self.max_files} entries under {root}"
                return
            if self.include is None or self.include(path):
                state = self.state(path, keep=keep, snapshot=snapshot)
                snapshot.states[path] = state
                if state.kind != "dir":
                    continue
            elif not _is_folder(path):
                continue
            try:
                names = sorted(os.listdir(path), reverse=True)
            except OSError:
                continue
            pending.extend(os.path.join(path, name) for name in names if name not in self.exclude)


def changed_paths(before: Snapshot, after: Snapshot) -> list[tuple[str, PathState, PathState]]:
    """(path, before, after) for each path whose state differs, shallowest first."""
    changes = []
    for path in sorted(set(before.states) | set(after.states), key=lambda p: (p.count(os.sep), p)):
        old, new = before.states.get(path, ABSENT), after.states.get(path, ABSENT)
        if not old.same_as(new):
            changes.append((path, old, new))
    return changes


def _is_folder(path: str) -> bool:
    """A real folder, not a link to one (the walk never follows links)."""
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def _with(state: PathState, **changes: Any) -> PathState:
    return replace(state, **changes)  # not asdict: its deep copy was a sixth of a snapshot's time


def _open_regular(path: str, info: os.stat_result) -> int | None:
    """A descriptor on ``path`` when it is still the regular file ``info`` describes (never through a link)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        opened = os.fstat(fd)
    except BaseException:
        os.close(fd)
        raise
    if not stat.S_ISREG(opened.st_mode) or opened.st_ino != info.st_ino:
        os.close(fd)
        return None
    return fd


def _read_regular(path: str, info: os.stat_result) -> bytes | None:
    fd = _open_regular(path, info)
    if fd is None:
        return None
    try:
        chunks = []
        while chunk := os.read(fd, _CHUNK):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _hash_regular(path: str, info: os.stat_result) -> tuple[str, int] | None:
    """The sha256 of ``path``'s content and how many bytes that was, reading one chunk at a time."""
    fd = _open_regular(path, info)
    if fd is None:
        return None
    digest = hashlib.sha256()
    size = 0
    try:
        while chunk := os.read(fd, _CHUNK):
            digest.update(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    return digest.hexdigest(), size
