"""What the file tools do to an entry once the sandbox has walked to it: everything by ``dir_fd`` and name.

Nothing here takes a path to hand to ``open()``: the caller walked the path with ``Sandbox.entry`` and holds the
directory it checked, so a link swapped in meanwhile changes nothing (see ``security/beneath.py``). Writes stay
atomic: a temporary sibling in the same directory, fsync, rename over the name.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import stat
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import BinaryIO

from zeph_nb.errors import SandboxViolation, ToolError, ToolErrorCategory
from zeph_nb.security.beneath import Entry
from zeph_nb.security.paths import Sandbox
from zeph_nb.tools.files.fsutil import current_umask

__all__ = [
    "bounded_lines",
    "copy_file_at",
    "copy_tree_at",
    "lines_at",
    "open_exactly",
    "open_regular",
    "staging_dir_at",
    "walk_tree_at",
    "write_at",
]

MAX_READ_BYTES = 8 * 1024 * 1024
# What grep reads past the start of the last line it confirms (``lines_at``): room for the line itself.
_LINE_SLACK = 4096
_COPY_CHUNK = 1024 * 1024


def check_opened(sandbox: Sandbox, fd: int, given: str) -> None:
    """Check what was actually opened, as a second lock after the walk: the kernel names an open file in
    /proc/self/fd, and that name must be inside the sandbox and readable (it would not be if a directory on the way
    had been moved out from under the walk)."""
    try:
        opened = Path(os.readlink(f"/proc/self/fd/{fd}"))
    except OSError:
        return  # no /proc (not Linux): the walk is all there is
    if not sandbox.contains(opened):
        raise SandboxViolation(f"{given!r} changed while it was being opened and now leads outside the sandbox")
    sandbox.check_readable(opened, given)


def open_exactly(sandbox: Sandbox, path: str) -> int | None:
    """A descriptor of the regular file at ``path`` (absolute, links expanded) when the kernel says that is exactly
    where the file it opened is, and that path is inside the sandbox and readable by its rules; None otherwise,
    and never an error: then the caller walks the path with ``Sandbox.entry`` as before, which refuses, or
    follows links, and says why. A fast way in for the common case, never a different answer.

    Why it is as strict as the walk: the walk's guarantee is that the file read was, when opened, at a canonical
    path that passed the checks. /proc names an open file by its canonical path as the kernel knows it; when that
    name is ``path`` and passes the same checks (``check_opened`` after a walk reads the same name), the same
    holds. A link anywhere on the way, a move meanwhile, an unlinked file (/proc adds " (deleted)"), no /proc:
    the names differ and the walk decides. What it saves is the walk in Python, a descriptor and an lstat per
    folder: ~0.1 ms a file, most of grep's cost at a thousand matches, much of a small ``read``'s."""
    if not path.startswith("/") or path.endswith(" (deleted)"):
        return None
    try:
        # O_NONBLOCK so that a FIFO put there does not block the open. It "has no effect for regular files"
        # (open(2)), so unlike open_regular this does not clear it again: two system calls a file.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except (OSError, ValueError):  # a final link (ELOOP), gone, not permitted, a NUL in the name
        return None
    try:
        if os.readlink(f"/proc/self/fd/{fd}") == path and stat.S_ISREG(os.fstat(fd).st_mode) and sandbox.may_read(path):
            return fd
    except OSError:
        pass  # no /proc (not Linux)
    except BaseException:
        os.close(fd)
        raise
    os.close(fd)
    return None


def open_regular(entry: Entry, shown: str) -> BinaryIO:
    """``entry`` opened for reading; refuses directories and anything that is not a regular file (a FIFO would
    block the cell forever, hence O_NONBLOCK on the open)."""
    fd = entry.open(os.O_RDONLY | os.O_NONBLOCK)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISREG(mode):
            os.set_blocking(fd, True)
            return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    os.close(fd)
    if stat.S_ISDIR(mode):
        raise ToolError(ToolErrorCategory.INVALID_PARAMETERS, f"{shown} is a directory; use list_directory")
    raise ToolError(
        ToolErrorCategory.INVALID_PARAMETERS, f"{shown} is not a regular file (a pipe, socket or device); not read"
    )


def write_at(entry: Entry, data: bytes, mode: int | None = None) -> None:
    """Replace ``entry`` with ``data`` all at once; it keeps its permission bits (or gets what ``open()`` would give
    a new file). Readers see the old file or the new one, never half of it; a failure leaves no temporary file."""
    if mode is None:
        existing = entry.lstat()
        mode = stat.S_IMODE(existing.st_mode) if existing is not None else 0o666 & ~current_umask()
    temporary = _temporary_name(entry.name)
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600,
                 dir_fd=entry.dir_fd)  # fmt: skip
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
            os.fchmod(handle.fileno(), mode)
        os.replace(temporary, entry.name, src_dir_fd=entry.dir_fd, dst_dir_fd=entry.dir_fd)
    except BaseException:
        _unlink_quietly(temporary, entry.dir_fd)
        raise


def copy_file_at(source: BinaryIO, destination: Entry) -> None:
    """Copy the open regular file ``source`` to ``destination`` (which must not exist), with its mode and times."""
    st = os.fstat(source.fileno())
    temporary = _temporary_name(destination.name)
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600,
                 dir_fd=destination.dir_fd)  # fmt: skip
    try:
        with os.fdopen(fd, "wb") as handle:
            shutil.copyfileobj(source, handle, _COPY_CHUNK)
            os.fchmod(handle.fileno(), stat.S_IMODE(st.st_mode))
            os.utime(handle.fileno(), ns=(st.st_atime_ns, st.st_mtime_ns))
        os.replace(temporary, destination.name, src_dir_fd=destination.dir_fd, dst_dir_fd=destination.dir_fd)
    except BaseException:
        _unlink_quietly(temporary, destination.dir_fd)
        raise


def staging_dir_at(destination: Entry) -> str:
    """A new empty directory beside ``destination`` to build a copy in; its name."""
    name = _temporary_name(destination.name)
    os.mkdir(name, 0o700, dir_fd=destination.dir_fd)
    return name


def copy_tree_at(
    source_fd: int,
    target_fd: int,
    source: Path,
    final: Path,
    counts: dict[str, int],
    skipped: list[tuple[Path, str]],
    link_allowed: Callable[[str, Path], bool],
) -> None:
    """Copy the directory open as ``source_fd`` (at ``source``) into the empty one open as ``target_fd`` (which will
    become ``final``). Links are copied as links when ``link_allowed(target, where_the_copy_will_be)``; content never
    comes in through a link, because every entry is opened with O_NOFOLLOW in its directory."""
    with os.scandir(source_fd) as scan:
        entries = sorted(scan, key=lambda e: e.name)
    for entry in entries:
        mode = entry.stat(follow_symlinks=False).st_mode
        if stat.S_ISLNK(mode):
            link = os.readlink(entry.name, dir_fd=source_fd)
            if link_allowed(link, final / entry.name):
                os.symlink(link, entry.name, dir_fd=target_fd)
                counts["links"] += 1
            else:
                skipped.append((source / entry.name, "link leaving the sandbox"))
        elif stat.S_ISDIR(mode):
            os.mkdir(entry.name, 0o700, dir_fd=target_fd)
            child_source = os.open(entry.name, _DIR_READ, dir_fd=source_fd)
            try:
                child_target = os.open(entry.name, _DIR_READ, dir_fd=target_fd)
                try:
                    copy_tree_at(child_source, child_target, source / entry.name, final / entry.name, counts,
                                 skipped, link_allowed)  # fmt: skip
                    os.fchmod(child_target, stat.S_IMODE(mode))
                finally:
                    os.close(child_target)
            finally:
                os.close(child_source)
            counts["dirs"] += 1
        elif stat.S_ISREG(mode):
            fd = os.open(entry.name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=source_fd)
            with os.fdopen(fd, "rb") as handle:
                if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped for a pipe since the scan
                    skipped.append((source / entry.name, "special file"))
                    continue
                os.set_blocking(fd, True)
                copy_file_at(handle, Entry(target_fd, entry.name, final / entry.name))
            counts["files"] += 1
        else:
            skipped.append((source / entry.name, "special file"))


def walk_tree_at(dir_fd: int, name: str, path: Path) -> Iterator[Path]:
    """Every path under the directory ``name`` in ``dir_fd`` (at ``path``), links not followed: ``os.fwalk`` holds
    each directory open while it lists it."""
    for dirpath, dirnames, filenames, _ in os.fwalk(name, dir_fd=dir_fd, follow_symlinks=False):
        base = path / os.path.relpath(dirpath, name)
        for child in dirnames + filenames:
            yield base / child


def bounded_lines(handle: BinaryIO, cap: int) -> Iterator[tuple[bytes, bool]]:
    """The lines of a file, each at most ``cap`` bytes: (line, whether it was cut). A line longer than that (a 1 GiB
    file with no newline) is read in ``cap``-sized pieces and only its first piece kept, so memory stays bounded."""
    while True:
        line = handle.readline(cap)
        if not line:
            return
        if len(line) < cap or line.endswith(b"\n"):
            yield line, False
            continue
        while True:  # skip the rest of this line
            more = handle.readline(cap)
            if not more or more.endswith(b"\n"):
                break
        yield line, True


def lines_at(fd: int, numbers: set[int], starts: Mapping[int, int] | None = None) -> dict[int, bytes]:
    """Lines ``numbers`` (1-based) of the regular file open as ``fd`` (at its start), without their newline, as
    ``bounded_lines`` reads them (a line longer than ``MAX_READ_BYTES`` is its first ``MAX_READ_BYTES`` bytes);
    numbers past the end are left out. ``starts``, when given, says where each of them begins (its first byte's
    offset, as ripgrep reports it): a hint that spares the split, never a different answer (``_lines_starting``).

    grep reads each matched line again this way. A file smaller than the cap has no line to cut, so it is read
    whole, in one read(2) of one byte more than its size, and split in C: walking it with ``readline`` cost about
    0.1 ms a file in Python (most of grep's cost at a thousand matches), and each system call costs here. A file
    that grew meanwhile, or a large one, is read line by line as before, so memory stays bounded. A short read
    (a file cut meanwhile) only leaves lines out: grep shows a match only when its text is found here."""
    if not numbers:
        return {}
    if starts is not None and starts.keys() == numbers:
        # Only as far as the last line wanted and a little more (lines are rarely longer): a smaller first read
        # costs less, and no fstat is needed.
        want = max(starts.values()) + _LINE_SLACK
        if want <= MAX_READ_BYTES:
            data = os.pread(fd, want, 0)
            confirmed = _lines_starting(data, starts, whole=len(data) < want)
            if confirmed is not None:
                return confirmed
    last = max(numbers)
    size = os.fstat(fd).st_size
    data = os.read(fd, size + 1) if size < MAX_READ_BYTES else b""
    if size >= MAX_READ_BYTES or len(data) > size:
        os.lseek(fd, 0, os.SEEK_SET)
        found: dict[int, bytes] = {}
        with open(fd, "rb", closefd=False) as handle:
            for number, (raw, _) in enumerate(bounded_lines(handle, MAX_READ_BYTES), start=1):
                if number in numbers:
                    found[number] = raw.rstrip(b"\n")
                if number >= last:
                    break
        return found
    # The whole file: split no further than the last line wanted. The piece after the final newline is a line only
    # when it is not empty (a file ending in a newline has no line after it).
    pieces = data.split(b"\n", last)
    count = len(pieces) if pieces[-1] else len(pieces) - 1
    return {number: pieces[number - 1] for number in numbers if number <= count}


def _lines_starting(data: bytes, starts: Mapping[int, int], *, whole: bool) -> dict[int, bytes] | None:
    """The lines that ``lines_at`` would give for ``starts``' numbers, read from ``data`` (the file's first bytes;
    all of it when ``whole``), when each begins where ``starts`` says and ends inside ``data``; None as soon as one
    does not (then ``lines_at`` reads the whole file and splits it, as without the hint).

    A line numbered n begins at offset o when o is 0 or follows a newline, and n - 1 newlines come before it; it is
    a line (not the empty piece after a final newline) when o is before the end. Then it is exactly the split's
    piece n - 1, and no line before it can be long enough for ``bounded_lines`` to cut (they all fit in ``data``).
    Counting newlines up to the offsets costs half what splitting up to the last line did (``count`` makes no
    objects), and grep's confirmation reads every matched file's lines this way."""
    end = len(data)
    found: dict[int, bytes] = {}
    newlines = at = 0
    for number, start in sorted(starts.items(), key=_by_start) if len(starts) > 1 else starts.items():
        if not 0 <= start < end or (start and data[start - 1] != 0x0A):
            return None
        newlines += data.count(b"\n", at, start)
        at = start
        if newlines != number - 1:
            return None
        stop = data.find(b"\n", start)
        if stop < 0 and not whole:
            return None  # the line goes on past what was read
        found[number] = data[start:stop] if stop >= 0 else data[start:]
    return found


def _by_start(item: tuple[int, int]) -> int:
    return item[1]


_DIR_READ = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def _temporary_name(name: str) -> str:
    # Short enough for any name up to NAME_MAX: the name's first 40 characters, then a random part.
    return f".{name[:40]}.{secrets.token_hex(6)}.zeph-tmp"


def _unlink_quietly(name: str, dir_fd: int) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(name, dir_fd=dir_fd)
