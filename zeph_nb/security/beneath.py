"""Walking a path one directory file descriptor at a time, so the object checked is the object used.

``Sandbox.resolve`` answers "where does this path point?" by reading links; if the file tools then handed the same
path to ``open()``, the kernel would walk it a second time, and a command running at the same time could swap a
component for a link in between (a check-then-use race: ``read`` of ``race.txt`` returning ``/etc/shadow``, a
``write`` into ``dir/`` landing outside after ``dir`` became a link). Here every component is opened relative to its
parent's descriptor with ``O_NOFOLLOW`` (``openat`` semantics); a link is read with ``readlinkat`` from the same
directory and its target walked the same way. The canonical path is built alongside the descriptors, so when the walk
ends the caller holds the directory that really contains the entry, and the path it checks is that directory's path.
Whatever is swapped afterwards cannot redirect a descriptor already held: the tools then open, create, rename and
unlink names *in that directory* (``dir_fd=``), never by path.

A swap *during* the walk makes an ``O_NOFOLLOW`` open fail (``ELOOP``/``ENOTDIR``); the walk starts again a few
times and then gives up with an error that says the path kept changing.
"""

from __future__ import annotations

import contextlib
import errno
import os
import posixpath
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from zeph_nb.errors import ToolError, ToolErrorCategory

__all__ = ["Entry", "open_dir", "walk"]

MAX_SYMLINK_HOPS = 40  # as Linux (ELOOP), which also ends link cycles
_RETRIES = 5
# O_PATH (Linux) opens a directory to walk through without needing read permission on it; elsewhere O_RDONLY.
_DIR_FLAGS = getattr(os, "O_PATH", os.O_RDONLY) | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class _Changed(Exception):
    """A component changed kind between being looked at and being opened: walk again."""


@dataclass
class Entry:
    """The last component of a walked path: ``name`` inside the directory open as ``dir_fd``; ``path`` is where
    that is (canonical, links expanded). ``name`` is ``"."`` when the path is ``/``. The walk's caller owns
    ``dir_fd`` until the ``walk`` block ends."""

    dir_fd: int
    name: str
    path: Path

    def lstat(self) -> os.stat_result | None:
        """The entry itself (a link is not followed), or None when nothing has that name."""
        try:
            return os.stat(self.name, dir_fd=self.dir_fd, follow_symlinks=False)
        except FileNotFoundError:
            return None

    def exists(self) -> bool:
        return self.lstat() is not None

    def is_dir(self) -> bool:
        st = self.lstat()
        return st is not None and stat.S_ISDIR(st.st_mode)

    def require(self) -> os.stat_result:
        """The entry's lstat; FileNotFoundError naming its full path when there is none."""
        st = self.lstat()
        if st is None:
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), os.fspath(self.path))
        return st

    def open(self, flags: int, mode: int = 0o666) -> int:
        """``openat(dir_fd, name, flags | O_NOFOLLOW)``: a link swapped in after the walk fails with ELOOP."""
        return os.open(self.name, flags | os.O_NOFOLLOW | os.O_CLOEXEC, mode, dir_fd=self.dir_fd)


@contextmanager
def walk(
    path: str | os.PathLike[str],
    base: str | os.PathLike[str],
    *,
    follow_final: bool = True,
    make_parents: Callable[[Path], None] | None = None,
) -> Iterator[Entry]:
    """Walk ``path`` (relative ones start at ``base``) and yield its last component as an ``Entry``.

    Links on the way are followed; the final one too unless ``follow_final`` is False (``delete_path`` removes the
    link itself). A missing final component is fine (``write`` creates it); a missing directory on the way is
    created when ``make_parents`` is given: it is called with the directory's canonical path first and raises to
    refuse (the sandbox check), so nothing is created outside the sandbox. The directory descriptor is closed when
    the block ends.
    """
    text = os.fspath(path)
    start = text if posixpath.isabs(text) else posixpath.join(os.fspath(base), text)
    for _ in range(_RETRIES):
        try:
            fd, name, current = _walk_once(start, follow_final, make_parents)
        except _Changed:
            continue
        try:
            yield Entry(fd, name, Path(posixpath.join(current, name)) if name != "." else Path(current))
        finally:
            os.close(fd)
        return
    raise ToolError(
        ToolErrorCategory.PERMANENT_FAILURE,
        f"{text!r} kept changing while it was being opened (a command is moving or relinking it); try again when "
        "it has finished",
    )


def open_dir(entry: Entry) -> int:
    """A readable descriptor of the directory ``entry`` names (for scandir); NotADirectoryError when it is not one."""
    return entry.open(os.O_RDONLY | os.O_DIRECTORY)


def _walk_once(start: str, follow_final: bool, make_parents: Callable[[Path], None] | None) -> tuple[int, str, str]:
    pending = list(reversed(PurePosixPath(start).parts[1:]))
    fd = os.open("/", _DIR_FLAGS)
    current = "/"
    hops = 0
    try:
        while pending:
            part = pending.pop()
            if part == "..":
                fd = _replace(fd, os.open("..", _DIR_FLAGS, dir_fd=fd))
                current = posixpath.dirname(current)
                continue
            is_final = not pending
            if is_final and not follow_final:
                return fd, part, current
            try:
                st = os.stat(part, dir_fd=fd, follow_symlinks=False)
            except FileNotFoundError:
                if is_final:
                    return fd, part, current
                if make_parents is None:
                    if _cancels_out(pending):  # `missing/..`: the name is gone again, as canonicalize() reads it
                        continue
                    raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), start) from None
                make_parents(Path(posixpath.join(current, part)))
                with contextlib.suppress(FileExistsError):  # made meanwhile by someone else: open what is there
                    os.mkdir(part, dir_fd=fd)
                st = os.stat(part, dir_fd=fd, follow_symlinks=False)
            if stat.S_ISLNK(st.st_mode):
                hops += 1
                if hops > MAX_SYMLINK_HOPS:
                    raise ToolError(
                        ToolErrorCategory.INVALID_PARAMETERS,
                        f"too many levels of symbolic links in {start!r} (a link cycle?)",
                    )
                try:
                    target = os.readlink(part, dir_fd=fd)
                except OSError as e:
                    raise _Changed from e  # no longer a link
                if posixpath.isabs(target):
                    fd = _replace(fd, os.open("/", _DIR_FLAGS))
                    current = "/"
                pending.extend(reversed(PurePosixPath(target).parts[1 if posixpath.isabs(target) else 0 :]))
                continue
            if is_final:
                return fd, part, current
            try:
                fd = _replace(fd, os.open(part, _DIR_FLAGS, dir_fd=fd))
            except OSError as e:
                if e.errno in (errno.ELOOP, errno.ENOTDIR) and stat.S_ISDIR(st.st_mode):
                    raise _Changed from e  # was a directory a moment ago: swapped for a link or a file
                raise
            current = posixpath.join(current, part)
        return fd, ".", current
    except BaseException:
        os.close(fd)
        raise


def _cancels_out(pending: list[str]) -> bool:
    """Whether the ``..`` coming next climb out of a missing directory again; takes what it reads from
    ``pending``."""
    depth = 1
    while pending and depth > 0:
        depth += -1 if pending.pop() == ".." else 1
    return depth == 0


def _replace(old: int, new: int) -> int:
    os.close(old)
    return new
