"""Transactional shell execution: snapshot the files a command may change, restore them if it fails.

Opt-in with ``[tools.shell] transactional = true``. Before a command that writes, every regular file matched by
``transaction_scope`` (globs under the working directory; empty means everything but VCS folders) is copied into
memory with its mode. When the command's exit code is in ``auto_rollback_exit_codes`` (empty: any non-zero) and
``auto_rollback`` is on, each changed or deleted file is written back atomically and files the command created
inside the scope are removed. A snapshot over ``max_snapshot_bytes`` fails; with ``snapshot_required`` that
failure stops the command from running at all (fail closed).
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from wcmatch import glob

from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.tools.files.fsutil import atomic_write, make_dirs

__all__ = ["Rollback", "Snapshot", "SnapshotFailed"]

_FLAGS = glob.GLOBSTAR | glob.DOTGLOB | glob.BRACE | glob.NODIR
_EXCLUDE = ["**/.git/**", ".git/**", "**/.hg/**", "**/.svn/**"]


class SnapshotFailed(ToolError):
    """The files in scope could not be snapshotted; with ``snapshot_required`` the command does not run."""

    def __init__(self, message: str) -> None:
        super().__init__(ToolErrorCategory.PERMANENT_FAILURE, f"snapshot failed: {message}")


@dataclass(frozen=True)
class Rollback:
    """What a rollback did, for the audit row and the model."""

    restored: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()

    def describe(self) -> str:
        return f"rolled back: restored {len(self.restored)} files, removed {len(self.removed)} new files"


@dataclass
class Snapshot:
    root: Path
    scope: tuple[str, ...]
    files: dict[str, tuple[bytes, int]] = field(default_factory=dict)
    # Symbolic links as they were (name -> target), and other entries that are neither (FIFOs, sockets): they
    # existed before the command, so a rollback puts the links back and never removes either as "new files".
    links: dict[str, str] = field(default_factory=dict)
    others: set[str] = field(default_factory=set)

    @property
    def size(self) -> int:
        return sum(len(data) for data, _ in self.files.values())

    @classmethod
    def take(cls, root: Path, scope: Sequence[str], max_bytes: int = 0) -> Snapshot:
        snapshot = cls(root, tuple(scope) or ("**",))
        total = 0
        try:
            for name in snapshot._matching():
                path = root / name
                info = path.lstat()
                if stat.S_ISLNK(info.st_mode):
                    snapshot.links[name] = os.readlink(path)
                    continue
                if not stat.S_ISREG(info.st_mode):
                    snapshot.others.add(name)
                    continue
                total += info.st_size
                if max_bytes and total > max_bytes:
                    raise SnapshotFailed(
                        f"the files in transaction_scope hold more than max_snapshot_bytes = {max_bytes} bytes; "
                        "narrow transaction_scope or raise the cap"
                    )
                snapshot.files[name] = (path.read_bytes(), stat.S_IMODE(info.st_mode))
        except OSError as e:
            raise SnapshotFailed(f"{e.filename}: {e.strerror}") from None
        return snapshot

    def restore(self) -> Rollback:
        """Put every snapshotted file back byte for byte; remove files created since, within the scope."""
        restored: list[str] = []
        for name, (data, mode) in sorted(self.files.items()):
            path = self.root / name
            try:
                current = path.read_bytes() if path.is_file() and not path.is_symlink() else None
                same_mode = current is not None and stat.S_IMODE(path.stat().st_mode) == mode
            except OSError:
                current, same_mode = None, False
            if current == data and same_mode:
                continue
            if path.is_symlink() or (path.exists() and not path.is_dir() and not path.is_file()):
                path.unlink()
            elif path.is_dir():
                shutil.rmtree(path)  # the command put a directory where the file was
            make_dirs(path.parent)
            atomic_write(path, data, mode=mode)
            restored.append(name)
        for name, target in sorted(self.links.items()):
            path = self.root / name
            try:
                if os.readlink(path) == target:
                    continue  # the link is as it was
            except OSError:
                pass
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            elif path.is_symlink() or path.exists():
                path.unlink()
            make_dirs(path.parent)
            os.symlink(target, path)
            restored.append(name)
        removed = []
        for name in self._matching():
            if name not in self.files and name not in self.links and name not in self.others:
                path = self.root / name
                if path.is_file() or path.is_symlink():
                    path.unlink()
                    removed.append(name)
        return Rollback(tuple(restored), tuple(removed))

    def _matching(self) -> list[str]:
        names = glob.glob(list(self.scope), root_dir=os.fspath(self.root), flags=_FLAGS, exclude=_EXCLUDE)
        return sorted(set(names))
