"""Filesystem primitives shared by the tools: atomic writes and mkdir -p that never recurses."""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["atomic_write", "current_umask", "make_dirs", "staging_file"]


def make_dirs(path: Path) -> None:
    """``mkdir -p`` without recursion: pathlib's and os.makedirs recurse once per missing level, and a hostile
    ``a/a/a/…`` path a thousand levels deep would end in RecursionError instead of a clear error."""
    missing: list[Path] = []
    current = path
    while not current.is_dir():
        missing.append(current)
        if current.parent == current:
            break
        current = current.parent
    for folder in reversed(missing):
        try:
            folder.mkdir()
        except FileExistsError:
            if not folder.is_dir():
                raise


@contextmanager
def staging_file(destination: Path) -> Iterator[Path]:
    """A temporary sibling of ``destination``, renamed over it when the block succeeds and removed when not."""
    fd, name = tempfile.mkstemp(prefix=f".{destination.name}.", suffix=".zeph-tmp", dir=destination.parent)
    os.close(fd)
    staged = Path(name)
    try:
        yield staged
        os.replace(staged, destination)
    except BaseException:
        staged.unlink(missing_ok=True)
        raise


def atomic_write(path: Path, data: bytes, mode: int | None = None) -> None:
    """Replace ``path`` with ``data`` all at once: readers see the old file or the new one, never half of it.

    The file keeps its permission bits (or gets ``mode``, or what ``open()`` would give a new file).
    """
    try:
        mode = stat.S_IMODE(path.stat().st_mode) if mode is None else mode
    except FileNotFoundError:
        # mkstemp makes 0600 files; a new file should get what open() would have given it.
        mode = 0o666 & ~current_umask()
    with staging_file(path) as staged:
        with open(staged, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(staged, mode)


def current_umask() -> int:
    """The process umask, read without setting it (os.umask would race with other threads creating files)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return 0o022
