"""Changing a command's leftovers from outside the sandbox without being pointed elsewhere by a link it swapped in.

What the host guard removes, rewrites or renames lives in folders a running command can change. Checked by path
and then acted on by path, a command that swaps a component for a link in between (``sub`` → ``~``, ``.git/hooks``
→ ``~/.ssh``) would have the guard — which runs as the person, outside every sandbox — delete or truncate the
person's own files. So every path here is walked from ``/`` one component at a time with ``O_NOFOLLOW`` (the guard's
paths are canonical: a link anywhere on the way means something was swapped, and nothing is done), and the last
component is then removed, renamed or rewritten *in the folder held open*, by name.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import uuid
from collections.abc import Iterator
from pathlib import Path

__all__ = ["held_folder", "read_text", "remove", "rename", "replace_text"]

_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


@contextlib.contextmanager
def held_folder(folder: Path) -> Iterator[int]:
    """``folder`` open, reached through no link; OSError (ELOOP, ENOTDIR, ENOENT) when a component is one or is
    gone."""
    fd = os.open("/", _FOLDER)
    try:
        for part in folder.parts[1:]:
            child = os.open(part, _FOLDER, dir_fd=fd)
            os.close(fd)
            fd = child
        yield fd
    finally:
        os.close(fd)


def remove(path: Path) -> None:
    """Remove the entry at ``path`` (a file, a link itself, or a folder and all under it, never through a link)."""
    with held_folder(path.parent) as parent:
        st = os.stat(path.name, dir_fd=parent, follow_symlinks=False)
        if stat.S_ISDIR(st.st_mode):
            shutil.rmtree(path.name, dir_fd=parent)
        else:
            os.unlink(path.name, dir_fd=parent)


def rename(path: Path, name: str) -> None:
    """Rename the entry at ``path`` to ``name`` in the same folder."""
    with held_folder(path.parent) as parent:
        os.rename(path.name, name, src_dir_fd=parent, dst_dir_fd=parent)


def read_text(folder: int, name: str) -> str | None:
    """The regular file ``name`` in the open ``folder``; None when it is not one (a link, a folder, nothing)."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=folder)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            return None
        return handle.read().decode("utf-8", errors="replace")


def replace_text(folder: int, name: str, text: str, mode: int = 0o644) -> None:
    """Put ``text`` at ``name`` in the open ``folder``: a new file renamed over the old entry, so a link there is
    replaced, never written through."""
    temporary = f".{name}.zeph-{uuid.uuid4().hex[:8]}"
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode, dir_fd=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8"))
        os.replace(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary, dir_fd=folder)
        raise
