"""Store: the audit log, overflow and conversations in one DuckDB file under ZEPH_HOME, written through spools.

Writers (every kernel) append rows to their own spool, which is durable at once, and a background flusher
copies them into the database in short transactions, retrying while another process holds the file. Readers
(another notebook, the server extension, a pandas session) attach the file read-only for the length of one
query and add the rows still in spools, so they always see every acknowledged row. Neither side ever waits on
the other for long: the hot path touches only the spool, and each database transaction lasts milliseconds.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import hashlib
import os
import random
import re
import tempfile
import threading
import time
import uuid
import warnings
import weakref
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import asdict
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zeph_nb.config import Settings
from zeph_nb.errors import ZephError
from zeph_nb.security.mac import RowSigner
from zeph_nb.security.secrets import compile_extra, redact_row
from zeph_nb.store.reading import frame_of, read_with_spools
from zeph_nb.store.records import OverflowRow, utc_now
from zeph_nb.store.schema import COLUMNS, migrate
from zeph_nb.store.spool import Spool, SpoolRecord, adopt, read_records, spool_files
from zeph_nb.store.team import TeamShipper, forget, fully_shipped, mark_unshipped

if TYPE_CHECKING:
    import duckdb
    import pandas as pd

__all__ = ["OverflowUnreadable", "Store", "StoreBusy", "utc_now"]

_OVERFLOW_ID = "overflow:"
# A reader's "I am waiting for the file" marker counts for this long; older ones are from readers long gone.
# A "waiting for the lock" marker counts for this long; older ones are from processes long gone.
INTENT_SECS = 5.0
# The longest one side defers to the other side's waiting processes before it tries the lock itself.
TURN_SECS = 0.25


class StoreBusy(ZephError):
    """The database stayed locked by another process for longer than ``[store] lock_timeout_secs``."""


class OverflowUnreadable(ZephError):
    """A stored output's file is missing, or is not the text its row's digest names (changed on disk)."""


_BLOB_ID = re.compile(r"overflow:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})")


def _blob_name(overflow_id: str) -> str:
    """The file name of an overflow's text: the uuid of its id, nothing else (no separator, no dots)."""
    match = _BLOB_ID.fullmatch(overflow_id)
    if match is None:
        raise OverflowUnreadable(f"{overflow_id!r} is not an overflow id this store made")
    return match.group(1)


# DuckDB refuses, within one process, a read-only connection to a file that a read-write one has open ("a
# different configuration than existing connections") — and that is not a lock error another try would fix. So
# every Store on the same file in this process (the kernel's writer, each audit.sql reader) takes turns here;
# other processes are kept apart by DuckDB's own file lock.
_PROCESS_LOCKS: dict[str, threading.RLock] = {}
_PROCESS_LOCKS_GUARD = threading.Lock()


def _process_lock(path: Path) -> threading.RLock:
    key = os.path.realpath(path)
    with _PROCESS_LOCKS_GUARD:
        return _PROCESS_LOCKS.setdefault(key, threading.RLock())


def _is_lock_error(error: Exception) -> bool:
    text = str(error).lower()
    return "lock" in text and ("conflicting" in text or "could not set" in text)


class Store:
    """One process's handle on the shared store. Cheap to create; opens nothing until first used."""

    def __init__(self, settings: Settings | None = None, *, flusher: bool = True) -> None:
        settings = settings or Settings.load()
        config = settings.store
        self.home = settings.home
        self.path = Path(config.path).expanduser() if config.path else self.home / "zeph.duckdb"
        self.spool_dir = self.path.parent / "spool"
        self.readers_dir = self.path.parent / "readers"
        self.blobs_dir = self.path.parent / "blobs"  # overflow texts, one file each (put_overflow)
        self.durable = config.durable
        self.flush_interval = config.flush_interval_ms / 1000
        self.lock_timeout = config.lock_timeout_secs
        self.retention = timedelta(days=settings.output.overflow.retention_days)
        # A team's PostgreSQL (store/team.py) is a second reader of the same spools; each row says who wrote it.
        self.team: TeamShipper | None = None
        origin = None
        if config.audit_url:
            self.team = TeamShipper(config.audit_url, self.spool_dir, own=self._own_spool,
                                    interval=config.ship_interval_ms / 1000, redact=self._for_the_team)  # fmt: skip
            origin = {"u": settings.user, "s": settings.server_name}
        self.spool = Spool(self.spool_dir, durable=config.durable, origin=origin,
                           on_open=mark_unshipped if self.team else None)  # fmt: skip
        # The person's own credential formats ([output.filters.security] extra_patterns) are redacted here too.
        self.secret_patterns = compile_extra(settings.output.filters.security.extra_patterns)
        # Signs the rows that change decisions (grants, inbox answers); the key lives beside the database.
        self.signer = RowSigner(self.path.parent)
        self._db_lock = _process_lock(self.path)
        self._dirty = threading.Event()
        self._stop = threading.Event()
        self._cleaned = False
        self._thread: threading.Thread | None = None
        self._use_flusher = flusher
        self.last_flush_error: Exception | None = None
        self._exit_hook = False
        self._at_exit: functools.partial[None] | None = None  # this store's exit hook, once it wrote
        self._exit_order = threading.Lock()  # the hook's place among exit hooks: see _load_engines
        self._exiting = False
        self._ordered = False

    # -- writing -------------------------------------------------------------------------------------------

    def append(self, table: str, row: dict[str, Any]) -> None:
        """Durably add one row to ``table`` (one of ``COLUMNS``: tool_calls, overflow, approvals, …)."""
        if table not in COLUMNS:
            raise ValueError(f"unknown table {table!r}; one of {', '.join(COLUMNS)}")
        if not COLUMNS[table].keys() >= row.keys():  # no set built for a row that is right
            unknown = set(row) - set(COLUMNS[table])
            raise ValueError(f"unknown columns for {table}: {', '.join(sorted(unknown))}")
        if not self._exit_hook:
            # Only a store that wrote has anything to flush at exit; readers (one per audit.sql call) register
            # nothing, or a dashboard polling for hours would grow the atexit list without end. DuckDB is not
            # imported here (~0.2 s, with pandas ~0.6 s, of a new kernel's first run): a thread of its own imports
            # both in the background, then registers this hook again, after DuckDB's, so it runs first (_load_engines).
            self._at_exit = functools.partial(_close_at_exit, weakref.ref(self))
            atexit.register(self._at_exit)
            if self._use_flusher:
                # Not a daemon: an interpreter that exits meanwhile waits for it before it runs exit hooks, so this
                # hook is back in its place when they run, however short the script.
                threading.Thread(target=self._load_engines, name="zeph-store-imports", daemon=False).start()
            # pandas imports concurrent.futures.thread, which registers a threading exit hook; once the
            # interpreter is shutting down that fails, so a flush at exit (before any other) could not import
            # pandas. Loading that one module now (milliseconds) keeps the exit flush working.
            import concurrent.futures.thread  # noqa: F401

            self._exit_hook = True
        # The one choke point for everything stored: no table keeps a credential-shaped value (a deny reason
        # quoting the command, an inbox subject, a conversation's title), whatever wrote it.
        # The inbox's requests are what a person approves: there a "secret" that could be code stays visible.
        self.spool.append(table, redact_row(row, self.secret_patterns, review=table == "approvals"))
        self._dirty.set()
        if self._use_flusher and self._thread is None:
            self._start_flusher()
        if self._use_flusher and self.team is not None:
            self.team.nudge()

    def _for_the_team(self, table: str, row: dict[str, Any]) -> dict[str, Any]:
        """A row as the team's reviewers read it. The inbox's requests keep, locally, what a person must see to
        approve (a "secret" that could be code); in a log every reviewer reads, kept for good, they are redacted
        like every other row. (Their MAC is of the local form, which is what this kernel checks.)"""
        return redact_row(row, self.secret_patterns) if table == "approvals" else row

    def _own_spool(self) -> Path | None:
        return self.spool.path if self.spool.is_open else None

    def append_signed(self, table: str, row: dict[str, Any], signed: Sequence[str]) -> None:
        """``append`` for a row that carries a MAC of ``signed``: redacted first, so the MAC is of what is kept."""
        clean = redact_row(row, self.secret_patterns, review=table == "approvals")
        self.append(table, {**clean, "mac": self.signer.sign(table, clean, signed)})

    def put_overflow(
        self, conversation_id: str, content: str, *, tool: str | None = None, call_id: str | None = None,
        max_bytes: int = 0,
    ) -> str:  # fmt: skip
        """Store a large output; returns its opaque id (``overflow:<uuid>``).

        The text goes to a file of its own, ``blobs/<uuid>``, and the row names its digest: in DuckDB's row groups
        every flush after it grew with the outputs stored before (8.5 s and 2.3 GB for one 15 MB row after 103)."""
        data = content.encode("utf-8", "backslashreplace")  # a lone surrogate is written out, as the spool does
        truncated = bool(max_bytes) and len(data) > max_bytes
        if truncated:
            content = data[:max_bytes].decode("utf-8", errors="ignore")
        else:
            content = data.decode("utf-8")
        overflow_id = f"{_OVERFLOW_ID}{uuid.uuid4()}"
        # Redacted here, as append would: the one choke point's rule holds for the file as for the row.
        kept = redact_row({"content": content}, self.secret_patterns)["content"].encode("utf-8")
        self._write_blob(_blob_name(overflow_id), kept)
        row = OverflowRow(id=overflow_id, conversation_id=conversation_id, tool=tool, call_id=call_id,
                          content=None, bytes=len(data), truncated=truncated,
                          blob=hashlib.sha256(kept).hexdigest())  # fmt: skip
        self.append("overflow", asdict(row))
        return overflow_id

    def _write_blob(self, name: str, data: bytes) -> None:
        """``blobs/<name>``, whole or not at all: written to a temporary file beside it, then renamed; 0600."""
        self.blobs_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(prefix=".new-", dir=self.blobs_dir)  # mode 0600, a name no one guesses
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                if self.durable:
                    handle.flush()
                    os.fdatasync(handle.fileno())
            os.replace(temporary, self.blobs_dir / name)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise

    def get_overflow(self, overflow_id: str, conversation_id: str) -> str | None:
        """The stored text, or None when there is no such id in this conversation (another's is not visible).
        ``OverflowUnreadable`` when its file is gone or is not what was stored."""
        frame = self.query(
            "SELECT id, content, blob FROM overflow WHERE id = ? AND conversation_id = ? LIMIT 1",
            [overflow_id, conversation_id],
        )
        if frame.empty:
            return None
        found_id, content, digest = frame.iloc[0, 0], frame.iloc[0, 1], frame.iloc[0, 2]
        if not isinstance(digest, str):  # a row from before blobs: its text is inline
            return str(content)
        # The file's name comes from the row's own id, which this store made (uuid4) and checks again here; never
        # from what a model or a tool wrote. O_NOFOLLOW: a link put in its place is refused, not followed.
        path = self.blobs_dir / _blob_name(str(found_id))
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
            with os.fdopen(fd, "rb") as handle:
                data = handle.read()
        except OSError as e:
            raise OverflowUnreadable(
                f"the stored output {overflow_id} is missing from {self.blobs_dir} ({e.strerror}): its file was "
                "removed outside zeph-nb"
            ) from None
        if hashlib.sha256(data).hexdigest() != digest:
            raise OverflowUnreadable(
                f"the stored output {overflow_id} was changed after it was stored (its file {path} does not match "
                "the digest its row records): it is not shown"
            )
        return data.decode("utf-8", errors="replace")

    def delete_conversation(self, conversation_id: str) -> None:
        """Remove a conversation's overflow (its audit rows stay: the log is the record of what happened)."""
        self.flush()
        with self._db_lock:
            con = self._connect(read_only=False)
            try:
                migrate(con)
                gone = con.execute(
                    "DELETE FROM overflow WHERE conversation_id = ? RETURNING id, blob", [conversation_id]
                ).fetchall()
            finally:
                con.close()
        self._remove_blobs(gone)

    def delete_where(self, table: str, condition: str, params: list[Any]) -> int:
        """Delete the rows of ``table`` that match ``condition`` (SQL over its columns, ``?`` for ``params``) from
        the file, once this process's spool is copied in; returns how many went. Rows still in another live
        kernel's spool are not reached: a table whose deletions must hold for them too records them as rows."""
        if table not in COLUMNS:
            raise ValueError(f"unknown table {table!r}; one of {', '.join(COLUMNS)}")
        self.flush()
        with self._db_lock:
            con = self._connect(read_only=False)
            try:
                migrate(con)
                gone = con.execute(f"DELETE FROM {table} WHERE {condition} RETURNING 1", params).fetchall()
            finally:
                con.close()
        return len(gone)

    def _remove_blobs(self, rows: Sequence[tuple[Any, Any]]) -> None:
        """The files of deleted overflow rows (id, blob digest): after the rows, so no row names a missing file."""
        for overflow_id, digest in rows:
            if digest is not None and _BLOB_ID.match(str(overflow_id)):
                (self.blobs_dir / _blob_name(str(overflow_id))).unlink(missing_ok=True)

    # -- flushing ------------------------------------------------------------------------------------------

    def flush(self) -> int:
        """Copy every spooled row (this process's and orphaned spools') into the database; returns rows copied."""
        with self._db_lock:
            own = self.spool.path if self.spool.is_open else None
            others = [p for p in spool_files(self.spool_dir) if p != own]
            with contextlib.ExitStack() as stack:
                orphans = [p for p in others if stack.enter_context(adopt(p))]
                targets = ([own] if own else []) + orphans
                if not targets and self._cleaned:
                    return 0
                copied = self._copy(targets)
                for orphan in orphans:  # fully copied and recorded, so their journals are done…
                    if fully_shipped(orphan):  # …unless a team's database still waits for some of it
                        orphan.unlink(missing_ok=True)
                        forget(orphan)
            return copied

    def _load_engines(self) -> None:
        """Import pandas and DuckDB (~0.6 s in a new process; never paid while holding the database's lock), then
        make sure this store's exit hook runs before DuckDB's. DuckDB registers an exit hook of its own when first
        imported, and once that has run it refuses a flush from a pandas frame ("the Python interpreter is shutting
        down"); exit hooks run last-in first-out, so ours is registered again after it. At exit (our hook already
        running) nothing moves: a DuckDB imported by the hook itself registers too late to run first. Either import
        failing is left to the flush that needs it, which says why."""
        try:
            import duckdb  # noqa: F401
            import pandas  # noqa: F401
        except ImportError:
            return

        with self._exit_order:
            if self._at_exit is not None and not self._ordered and not self._exiting:
                atexit.unregister(self._at_exit)
                atexit.register(self._at_exit)
                self._ordered = True

    def _copy(self, spools: list[Path]) -> int:
        self._load_engines()
        con = self._connect(read_only=False)
        copied = 0
        try:
            con.execute("BEGIN TRANSACTION")
            migrate(con)
            expired: list[tuple[Any, Any]] = []
            if not self._cleaned:
                expired = con.execute(
                    "DELETE FROM overflow WHERE created_at < ? RETURNING id, blob", [utc_now() - self.retention]
                ).fetchall()
            for path in spools:
                # fetchall, not fetchone: DuckDB 2 refuses the next statement while a result is unconsumed.
                rows = con.execute("SELECT offset_bytes FROM spool_progress WHERE spool = ?", [path.name]).fetchall()
                records, end = read_records(path, int(rows[0][0]) if rows else 0)
                copied += _insert(con, records)
                con.execute("INSERT OR REPLACE INTO spool_progress VALUES (?, ?, ?)", [path.name, end, utc_now()])
            con.execute("COMMIT")
            self._cleaned = True
            self._remove_blobs(expired)
        except BaseException:
            with contextlib.suppress(Exception):
                con.execute("ROLLBACK")
            raise
        finally:
            con.close()
        return copied

    # -- taking turns at the file lock ------------------------------------------------------------------------
    #
    # DuckDB's lock is exclusive between a writer and anyone else, and it is not fair: whoever retries at the
    # right moment wins. A flusher that keeps winning starves readers; a reader polling without pause starves
    # flushers (whose spools then grow, making every read slower). So each side leaves a marker file while it
    # waits, and before each attempt defers to the other side's markers for at most TURN_SECS.

    def _waiting(self, kind: str, before: float) -> bool:
        """Whether a process of ``kind`` started waiting before ``before`` (first come, first served)."""
        now = time.time()
        try:
            entries = list((self.path.parent / kind).iterdir())
        except FileNotFoundError:
            return False
        waiting = False
        for entry in entries:
            with contextlib.suppress(FileNotFoundError):
                since = entry.stat().st_mtime
                if now - since < INTENT_SECS and since < before:
                    waiting = True
                elif now - since > 60:  # left by a process that was killed while waiting
                    entry.unlink(missing_ok=True)
        return waiting

    @contextlib.contextmanager
    def _intent(self, kind: str) -> Iterator[None]:
        folder = self.path.parent / kind
        folder.mkdir(parents=True, exist_ok=True)
        marker = folder / f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        marker.touch()
        try:
            yield
        finally:
            marker.unlink(missing_ok=True)

    def _take_turn(self, action: Any, *, mine: str, theirs: str, max_delay: float) -> Any:
        """``action`` (which takes the lock) once the other side had its turn, retrying while the lock is held."""
        arrived = time.time()
        with self._intent(mine):
            turn_ends = time.monotonic() + TURN_SECS
            while time.monotonic() < turn_ends and self._waiting(theirs, before=arrived):
                time.sleep(0.005)
            return self._retry(action, max_delay=max_delay)

    def _start_flusher(self) -> None:
        self._thread = threading.Thread(target=self._flush_loop, name="zeph-store-flusher", daemon=True)
        self._thread.start()

    def _flush_loop(self) -> None:
        while not self._stop.is_set():
            self._dirty.wait(timeout=5.0)  # also wakes now and then to adopt spools of killed processes
            if self._stop.is_set():
                break
            self._stop.wait(self.flush_interval)  # gather a batch: one transaction per interval, not per row
            self._dirty.clear()
            try:
                self.flush()
                self.last_flush_error = None
            except Exception as e:  # rows stay safe in the spool; try again next round
                if self.last_flush_error is None or type(e) is not type(self.last_flush_error):
                    warnings.warn(f"zeph-nb: audit rows are waiting in the spool: {e}", stacklevel=1)
                self.last_flush_error = e
                self._dirty.set()

    def close(self) -> None:
        """Stop the flusher, copy what is left, and remove this process's spool once it is all in the database."""
        self._stop.set()
        self._dirty.set()
        if self._thread is not None:
            self._thread.join(timeout=self.lock_timeout)
        if self.team is not None:
            self.team.close()
        if not self.spool.is_open:
            return
        try:
            self.flush()
        except Exception as e:
            warnings.warn(f"zeph-nb: rows left in {self.spool.path} will be flushed by the next session: {e}",
                          stacklevel=2)  # fmt: skip
            self.spool.close(remove=False)
            return
        path = self.spool.path
        if fully_shipped(path):
            self.spool.close(remove=True)
            forget(path)
        else:  # the team's database is down: the next kernel on this home adopts the spool and ships the rest
            self.spool.close(remove=False)

    # -- reading -------------------------------------------------------------------------------------------

    def query(self, sql: str, params: list[Any] | None = None) -> pd.DataFrame:
        """Run SQL over ``tool_calls``, ``overflow``, ``conversations``, ``permission_rules`` and ``approvals``:
        the database's rows plus those still in spools. The file is opened read-only for this one query."""

        return self.query_many([(sql, params)])[0]

    def query_many(self, statements: Sequence[tuple[str, list[Any] | None]]) -> list[pd.DataFrame]:
        """Several queries over one read-only opening of the file and one read of the spools, so they see the
        same rows. Opening is most of a small query's cost (~45 ms), so a caller with several (the dashboard's
        refresh) pays it once."""
        with self._db_lock:
            return self._query(statements)

    def _query(self, statements: Sequence[tuple[str, list[Any] | None]]) -> list[pd.DataFrame]:
        def connect() -> duckdb.DuckDBPyConnection:
            import duckdb

            con: duckdb.DuckDBPyConnection = self._take_turn(
                lambda: duckdb.connect(str(self.path), read_only=True), mine="readers", theirs="writers", max_delay=0.01
            )
            return con

        return read_with_spools(self.path, connect, self.spool_dir, statements)

    def _connect(self, *, read_only: bool) -> duckdb.DuckDBPyConnection:
        import duckdb

        self.path.parent.mkdir(parents=True, exist_ok=True)

        def attempt() -> duckdb.DuckDBPyConnection:
            return duckdb.connect(str(self.path), read_only=read_only)

        mine, theirs = ("readers", "writers") if read_only else ("writers", "readers")
        connection: duckdb.DuckDBPyConnection = self._take_turn(attempt, mine=mine, theirs=theirs, max_delay=0.02)
        return connection

    def _retry(self, action: Any, max_delay: float = 0.01) -> Any:
        """Run ``action`` until the database lock is free, backing off with jitter up to ``lock_timeout``."""
        deadline = time.monotonic() + self.lock_timeout
        delay = 0.002
        while True:
            try:
                return action()
            except Exception as e:
                if not _is_lock_error(e):
                    raise
                if time.monotonic() > deadline:
                    raise StoreBusy(
                        f"the audit database {self.path} stayed locked for {self.lock_timeout:g}s ({e}); "
                        "another process is holding it open — close long-running connections to it, or raise "
                        "[store] lock_timeout_secs"
                    ) from None
                time.sleep(delay * random.uniform(0.5, 1.5))  # noqa: S311 - jitter, not cryptography
                delay = min(delay * 2, max_delay)


def _insert(con: duckdb.DuckDBPyConnection, records: list[SpoolRecord]) -> int:
    by_table: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        if record.table in COLUMNS:
            by_table[record.table].append(record.row)
    for table, rows in by_table.items():
        _insert_rows(con, table, table, rows)
    return len(records)


def _insert_rows(con: duckdb.DuckDBPyConnection, target: str, table: str, rows: list[dict[str, Any]]) -> None:
    """One INSERT … SELECT from a frame: row-at-a-time inserts cost ~1.2 ms each, a frame 100k rows in ~0.3 s."""
    con.register("zeph_rows", frame_of(table, rows))
    try:
        con.execute(f"INSERT INTO {target} BY NAME SELECT * FROM zeph_rows")
    finally:
        con.unregister("zeph_rows")


def _close_at_exit(ref: weakref.ref[Store]) -> None:
    store = ref()
    if store is not None:
        with store._exit_order:  # from now on the flusher leaves this hook where it is (_load_engines)
            store._exiting = True
        with contextlib.suppress(Exception):
            store.close()
