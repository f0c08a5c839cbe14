"""The ``file_changes`` table and its blobs: what each run's calls changed on disk, for ``%zeph undo``.

Rows go through the spool like every other table. File contents do not: they are bytes, and the store's
redaction (right for text shown to people) would change a file that holds a credential, so undo would put back
something else. They are kept beside the database in ``blobs/``, one file per sha256 (so a file snapshotted
many times is kept once), readable only by their owner, and checked against their name when read back.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

from zeph_nb.store.records import FileChangeRow
from zeph_nb.store.store import Store

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Blobs", "FileChangeRow", "FileChanges"]


class Blobs:
    """Content-addressed file contents under ``folder`` (``ab/abcdef…``)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _path(self, sha256: str) -> Path:
        if len(sha256) != 64 or any(c not in "0123456789abcdef" for c in sha256):
            raise ValueError(f"not a sha256: {sha256!r}")
        return self.folder / sha256[:2] / sha256

    def has(self, sha256: str) -> bool:
        try:
            return self._path(sha256).is_file()
        except ValueError:
            return False

    def put(self, data: bytes) -> str:
        """Keep ``data`` (once); returns its sha256."""
        digest = hashlib.sha256(data).hexdigest()
        path = self._path(digest)
        if path.is_file():
            return digest
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, staged = tempfile.mkstemp(dir=path.parent, prefix=".blob.")
        try:
            # No fsync: one per file made the first snapshot of a 2,000-file folder take 1.7 s. A blob a machine
            # crash leaves short fails its hash check when read, and undo says that file cannot be restored.
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(staged, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(staged)
            raise
        return digest

    def get(self, sha256: str) -> bytes | None:
        """The bytes kept under ``sha256``, or None when missing or not what the name says (damaged)."""
        try:
            data = self._path(sha256).read_bytes()
        except (OSError, ValueError):
            return None
        return data if hashlib.sha256(data).hexdigest() == sha256 else None


class FileChanges:
    """The one writer and reader of ``file_changes``."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.blobs = Blobs(store.path.parent / "blobs")

    def record(self, rows: Sequence[FileChangeRow]) -> None:
        for row in rows:
            self.store.append("file_changes", asdict(row))

    def runs(self, limit: int = 10, *, pid: int | None = None) -> pd.DataFrame:
        """The latest runs that changed files (or tried to where undo cannot follow), newest first; with ``pid``,
        only those of that process (one kernel: one notebook)."""
        where, values = ("WHERE pid = ? ", [pid]) if pid is not None else ("", [])
        return self.store.query(
            "SELECT run_id, min(ts) AS started, max(ts) AS ended, any_value(conversation_id) AS conversation_id, "
            "count(DISTINCT path) AS paths, count(DISTINCT call_id) AS calls, any_value(workdir) AS workdir, "
            "any_value(pid) AS pid, string_agg(DISTINCT note, '; ') AS notes FROM file_changes "
            f"{where}GROUP BY run_id ORDER BY max(ts) DESC, max(seq) DESC LIMIT {int(limit)}",
            values,
        )

    def of_run(self, run_id: str) -> pd.DataFrame:
        """A run's rows in the order they were written."""
        return self.store.query("SELECT * FROM file_changes WHERE run_id = ? ORDER BY ts, seq", [run_id])

    def run_ids(self, prefix: str) -> list[str]:
        """The runs whose id starts with ``prefix`` (a person types the first few characters)."""
        frame = self.store.query(
            "SELECT DISTINCT run_id FROM file_changes WHERE starts_with(run_id, ?) ORDER BY run_id", [prefix]
        )
        return [str(value) for value in frame["run_id"]]
