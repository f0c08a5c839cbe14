"""Authenticated rows: the decisions kept in the store (grants, inbox answers) carry an HMAC that only zeph-nb can make.

The store's spool is plain JSON lines, and any process running as the person could append to it. A forged
"Always allow ``*``" grant or an "approve" answer in the inbox would change what later calls may do, so rows that
change decisions are signed with a key kept beside the store (``zeph.key``, mode 0600) — a place no tool can read
(the file tools refuse it, the OS sandbox hides it). Readers drop rows whose MAC does not check and say so.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import logging
import os
import secrets
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

__all__ = ["KEY_NAME", "RowSigner"]

log = logging.getLogger("zeph_nb.security")

KEY_NAME = "zeph.key"
KEY_BYTES = 32


def _text(value: Any) -> str | None:
    """One form for a value whether it was just written (a datetime, an ISO string) or read back (a pandas
    Timestamp, NaT, NaN)."""
    if value is None or value != value or str(value) == "NaT":
        return None
    if hasattr(value, "isoformat"):
        return str(value.isoformat())
    text = str(value)
    return text.replace(" ", "T", 1) if _looks_like_time(text) else text


def _looks_like_time(text: str) -> bool:
    return len(text) >= 19 and text[4] == "-" and text[7] == "-" and text[10] in " T" and text[13] == ":"


def _canonical(table: str, fields: Mapping[str, Any], names: Iterable[str]) -> bytes:
    values = [table, *((name, _text(fields.get(name))) for name in names)]
    return json.dumps(values, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


class RowSigner:
    """Signs and checks rows with the key in ``directory``; the key is made on first use."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / KEY_NAME
        self._key: bytes | None = None
        self._lock = threading.Lock()
        self._warned: set[str] = set()

    def _load(self) -> bytes:
        with self._lock:
            if self._key is None:
                self._key = self._read_or_create()
            return self._key

    def _read_or_create(self) -> bytes:
        with contextlib.suppress(FileNotFoundError):
            return self._read()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        staging = self.path.with_name(f".{KEY_NAME}.{os.getpid()}.{secrets.token_hex(4)}")
        fd = os.open(staging, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, secrets.token_bytes(KEY_BYTES))
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(staging, self.path)  # fails if another process made the key first: then use theirs
        except FileExistsError:
            pass
        finally:
            staging.unlink(missing_ok=True)
        return self._read()

    def _read(self) -> bytes:
        key = self.path.read_bytes()
        if len(key) != KEY_BYTES:
            raise OSError(f"{self.path} is not a zeph-nb key ({len(key)} bytes); delete it to make a new one")
        return key

    def sign(self, table: str, fields: Mapping[str, Any], names: Iterable[str]) -> str:
        """The MAC of ``fields[names]`` in ``table``, as hex."""
        return hmac.new(self._load(), _canonical(table, fields, names), hashlib.sha256).hexdigest()

    def verify(self, table: str, fields: Mapping[str, Any], names: Iterable[str], mac: object) -> bool:
        """Whether ``mac`` is this key's MAC of the row; a missing key verifies nothing."""
        if not isinstance(mac, str) or not mac:
            return False
        try:
            expected = self.sign(table, fields, names)
        except OSError:
            return False
        return hmac.compare_digest(expected, mac)

    def warn_once(self, what: str, row_id: str) -> None:
        """Log (once per row) that a row was ignored because its MAC did not check."""
        if row_id in self._warned:
            return
        self._warned.add(row_id)
        log.warning(
            "zeph-nb: ignored %s %s: it is not signed with this store's key (written by something other than "
            "zeph-nb, or by an older version); nothing it says is applied",
            what,
            row_id,
        )
