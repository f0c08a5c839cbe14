"""The source files one search_code call looks at, and their bytes, under the file tools' sandbox.

Listed the way people expect of a project: ``rg --files`` (the ripgrep wheel's binary, as grep uses), which
honours ``.gitignore``, ``.ignore`` and hidden names, also outside a git repository; without ripgrep, a walk that
leaves out hidden folders and the usual build and environment folders (and says it did not read ``.gitignore``).
Every file is read through the sandbox as ``read`` reads it (``open_exactly``, else a walk by descriptors and the
same checks), so a link out of the working directory, a ``deny_read`` file or a protected path is never read,
whatever the listing said.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

from zeph_nb.security.paths import Sandbox
from zeph_nb.tools.files.grep import find_ripgrep
from zeph_nb.tools.files.ops import check_opened, open_exactly, open_regular

__all__ = ["list_files", "read_source"]

# Never worth parsing, and huge where they exist; the rg listing leaves them out when .gitignore names them.
_SKIPPED_DIRS = frozenset({".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".tox",
                           ".mypy_cache", ".ruff_cache", ".pytest_cache", "target", "dist", "build"})  # fmt: skip


def list_files(root: Path) -> tuple[Iterator[Path], bool]:
    """The files under ``root`` (a folder or one file), in path order, and whether ignore files were honoured."""
    if root.is_file():
        return iter([root]), True
    rg = find_ripgrep()
    if rg is None:
        return _walk(root), False
    return _ripgrep_files(rg, root), True


def _ripgrep_files(rg: str, root: Path) -> Iterator[Path]:
    args = [rg, "--files", "--null", "--no-require-git", "--no-messages", "--sort=path", "--", str(root)]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdout is not None
    try:
        pending = b""
        while chunk := proc.stdout.read(65536):
            *names, pending = (pending + chunk).split(b"\x00")
            for name in names:
                yield Path(os.fsdecode(name))
        if pending:
            yield Path(os.fsdecode(pending))
    finally:  # a caller that stopped early (max_files, the time budget) ends rg
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        proc.stdout.close()


def _walk(root: Path) -> Iterator[Path]:
    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in _SKIPPED_DIRS)
        found.extend(Path(dirpath, name) for name in filenames if not name.startswith("."))
    found.sort(key=os.fsencode)
    return iter(found)


def read_source(sandbox: Sandbox, path: Path, max_bytes: int) -> bytes | None:
    """The bytes of the regular file ``path`` when the sandbox lets ``read`` read it and it is at most
    ``max_bytes`` long; None when it is larger. Raises ToolError (a refusal) or OSError otherwise."""
    fd = open_exactly(sandbox, os.fspath(path))
    if fd is not None:
        try:
            return _bounded(fd, max_bytes)
        finally:
            os.close(fd)
    with sandbox.entry(path) as entry:
        name = os.fspath(path)
        sandbox.check_readable(entry.path, name)
        with open_regular(entry, name) as handle:
            check_opened(sandbox, handle.fileno(), name)
            return _bounded(handle.fileno(), max_bytes)


def _bounded(fd: int, max_bytes: int) -> bytes | None:
    if os.fstat(fd).st_size > max_bytes:
        return None
    data = os.pread(fd, max_bytes + 1, 0)
    return None if len(data) > max_bytes else data
