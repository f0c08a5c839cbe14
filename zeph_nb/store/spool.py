"""Spools: each process's own append-only journal of rows on their way into the shared database.

Why: DuckDB lets one process hold a database file read-write and then no other process may even read it, so no
kernel keeps the shared file open. A row is durable once its line is in the spool (one ``write`` plus
``fdatasync``, about 0.25 ms here); a flusher copies spooled rows into the database in short transactions.

A spool file is locked (``flock``) by the process that writes it for as long as it lives. A lock that can be
taken means the writer is gone (killed, crashed), and any flusher may adopt the file and finish copying it.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Spool", "SpoolRecord", "adopt", "read_records"]

SUFFIX = ".jsonl"


@dataclass(frozen=True)
class SpoolRecord:
    table: str
    row: dict[str, Any]
    # Who wrote it ({"u": user, "s": server name}), when the writer said: read by the team shipper, so a row an
    # adopting process ships still names the kernel that made it.
    origin: dict[str, str] | None = None


class Spool:
    """The current process's spool in ``directory``. Thread-safe; a forked child gets a spool of its own."""

    def __init__(
        self,
        directory: Path,
        *,
        durable: bool = True,
        origin: dict[str, str] | None = None,
        on_open: Callable[[Path], None] | None = None,
    ) -> None:
        self.directory = directory
        self.durable = durable
        self.origin = origin
        self.on_open = on_open  # runs once the file exists, before its first row
        self._lock = threading.Lock()
        self._pid = -1
        self._fd = -1
        self._seq = 0
        self.name = ""
        self.path = directory

    def _open(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        self._pid = os.getpid()
        self.name = f"{socket.gethostname()}-{self._pid}-{uuid.uuid4().hex[:8]}{SUFFIX}"
        self.path = self.directory / self.name
        # Locked before it is visible: another process's flusher adopts any unlocked *.jsonl it finds (its writer
        # is gone), and between open and flock it would have taken this one. The lock moves with the rename.
        staging = self.directory / (self.name + ".new")
        self._fd = os.open(staging, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o600)
        fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.rename(staging, self.path)
        self._seq = 0
        if self.on_open is not None:
            self.on_open(self.path)

    def append(self, table: str, row: dict[str, Any]) -> int:
        """Write one row; when this returns the row survives the process being killed. Returns its sequence."""
        with self._lock:
            if self._pid != os.getpid():  # first use, or a fork: never share a journal with another process
                self._open()
            self._seq += 1
            envelope: dict[str, Any] = {"t": table, "r": {**row, "spool": self.name, "seq": self._seq}}
            if self.origin:
                envelope["o"] = self.origin
            line = json.dumps(
                envelope,
                separators=(",", ":"),
                ensure_ascii=False,
                default=str,
            )
            try:
                data = (line + "\n").encode("utf-8")
            except UnicodeEncodeError:  # a lone surrogate: the model's JSON can carry "\ud800", UTF-8 cannot
                line = json.dumps(_spell_surrogates(envelope), separators=(",", ":"), ensure_ascii=False, default=str)
                data = (line + "\n").encode("utf-8")
            written = 0
            while written < len(data):
                written += os.write(self._fd, data[written:])
            if self.durable:
                os.fdatasync(self._fd)
            return self._seq

    @property
    def is_open(self) -> bool:
        return self._fd >= 0 and self._pid == os.getpid()

    def size(self) -> int:
        return self.path.stat().st_size if self.is_open else 0

    def close(self, *, remove: bool) -> None:
        with self._lock:
            if not self.is_open:
                return
            if remove:
                self.path.unlink(missing_ok=True)
            os.close(self._fd)  # releases the flock
            self._fd = -1


def _spell_surrogates(value: Any) -> Any:
    """``value`` with each lone surrogate written out as text (``\\ud800``): the row is kept, not refused, and no
    reader downstream (DuckDB, PostgreSQL) meets a character it cannot store."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value.encode("utf-8", "backslashreplace").decode("utf-8")
        return value
    if isinstance(value, dict):
        return {key: _spell_surrogates(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_spell_surrogates(item) for item in value]
    return value


def read_records(path: Path, offset: int) -> tuple[list[SpoolRecord], int]:
    """Complete lines from byte ``offset`` on, and the offset after the last one.

    A line still being written has no newline yet and is left for next time; a line that is not valid JSON
    (a torn write from a machine crash) is skipped rather than blocking every line after it.
    """
    try:
        with open(path, "rb") as handle:
            handle.seek(offset)
            data = handle.read()
    except FileNotFoundError:
        return [], offset
    end = data.rfind(b"\n")
    if end < 0:
        return [], offset
    records = []
    for line in data[: end + 1].splitlines():
        try:
            item = json.loads(line)
            records.append(SpoolRecord(item["t"], item["r"], item.get("o")))
        except (ValueError, KeyError, TypeError):
            continue
    return records, offset + end + 1


@contextmanager
def adopt(path: Path) -> Iterator[bool]:
    """Hold the lock of another process's spool if its writer is gone; yields whether it was taken."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        yield False
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False  # its writer is alive
            return
        yield True
    finally:
        os.close(fd)


def spool_files(directory: Path) -> list[Path]:
    try:
        return sorted(p for p in directory.iterdir() if p.name.endswith(SUFFIX))
    except FileNotFoundError:
        return []
