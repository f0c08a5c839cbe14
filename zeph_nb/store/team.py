"""The team's audit log: spooled rows shipped to PostgreSQL in the background, and read back as pandas frames.

The spool is the one durable write a tool call waits for (store/spool.py). Two consumers copy from it: the local
DuckDB flusher (the kernel's own cache, so ``%zeph audit`` works offline) and this shipper. Each remembers how far
it got; a spool file is deleted only once both are past its end.

Shipping is at least once and stored once. Rows are copied with COPY into a session-temporary table and inserted
``ON CONFLICT (owner, spool, seq) DO NOTHING`` in one transaction; only after the commit does the shipper write
its local mark (``<spool>.shipped``, the offset reached). A crash or a dropped connection between the two ships
those rows again, and the database keeps the first copy. While the database is unreachable the rows wait in the
spool, and the shipper tries again each round, so a kernel never waits on the team's database.

Credentials never pass through here: ``audit_url`` names the host and database, and libpq finds the password in
``~/.pgpass``, a service file or ``PGPASSWORD`` (the sandbox hides all three from the agent's commands).
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
import warnings
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zeph_nb.errors import ZephError
from zeph_nb.store.schema import COLUMNS
from zeph_nb.store.spool import SpoolRecord, adopt, spool_files
from zeph_nb.store.team_schema import SHIPPED, latest_version, schema_version

if TYPE_CHECKING:
    import pandas as pd
    import psycopg

__all__ = ["MARK", "TeamShipper", "TeamUnavailable", "fully_shipped", "mark_unshipped", "team_query"]

MARK = ".shipped"
# libpq's own wait for a connection; a database that takes longer is treated as down this round.
CONNECT_TIMEOUT_SECS = 3
# A statement the server works on for longer is cancelled by the server itself.
STATEMENT_TIMEOUT_MS = 30_000
# A server that stops answering altogether (a partition, a hung host) cannot cancel anything: TCP keepalives and
# a limit on unacknowledged data make the kernel's side of the socket fail instead, within about 30 s.
TCP_OPTIONS = {"keepalives": 1, "keepalives_idle": 10, "keepalives_interval": 5, "keepalives_count": 3,
               "tcp_user_timeout": 30_000}  # fmt: skip
# Rows copied per transaction: a large spool (a long-offline kernel) is shipped in steps, each one committed, and
# read a step at a time, so a backlog costs memory for one step, not for all of it.
BATCH_ROWS = 5_000
BATCH_BYTES = 16 * 1024 * 1024
# How long a kernel's exit waits for the last round; rows not shipped by then wait in the spool for the next.
CLOSE_SECS = 8.0


class TeamUnavailable(ZephError):
    """The team's PostgreSQL could not be reached or refused the rows; they wait in the spool."""


# -- the local marks: how far each spool file has been shipped ------------------------------------------------


def _mark_of(spool: Path) -> Path:
    return spool.with_name(spool.name + MARK)


def shipped_offset(spool: Path) -> int:
    try:
        return int(_mark_of(spool).read_text(encoding="ascii").strip() or 0)
    except (FileNotFoundError, ValueError):
        return 0


def mark_unshipped(spool: Path) -> None:
    """Say, before the first row is written, that this spool is owed to the team: then no flusher — even one in a
    process with no ``audit_url`` — deletes it before the shipper is past its end."""
    _write_mark(spool, 0)


def _write_mark(spool: Path, offset: int) -> None:
    mark = _mark_of(spool)
    temporary = mark.with_name(f".{mark.name}.{os.getpid()}")
    temporary.write_text(str(offset), encoding="ascii")
    temporary.replace(mark)


def fully_shipped(spool: Path) -> bool:
    """Whether a spool file may be deleted as far as the team is concerned (no mark: it was never owed)."""
    mark = _mark_of(spool)
    if not mark.exists():
        return True
    try:
        return shipped_offset(spool) >= spool.stat().st_size
    except FileNotFoundError:
        return True


def forget(spool: Path) -> None:
    _mark_of(spool).unlink(missing_ok=True)


# -- values PostgreSQL accepts -------------------------------------------------------------------------------


def _text(value: str) -> str:
    # PostgreSQL text holds neither NUL nor lone surrogates, and a model can put either in a command line: a row
    # that could never be inserted would block every row behind it, so they are spelled out instead.
    if "\x00" in value:
        value = value.replace("\x00", "\\x00")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        value = value.encode("utf-8", "backslashreplace").decode("utf-8")
    return value


def _value(value: Any) -> Any:
    if isinstance(value, str):
        return _text(value)
    if isinstance(value, dict | list):
        return _text(json.dumps(value, ensure_ascii=False, default=str))
    return value


# -- shipping ------------------------------------------------------------------------------------------------


class TeamShipper:
    """Ships one zeph home's spools to ``url``. ``own`` gives this process's open spool (or None)."""

    def __init__(
        self,
        url: str,
        spool_dir: Path,
        *,
        own: Callable[[], Path | None],
        interval: float = 1.0,
        connect: Callable[[], psycopg.Connection[Any]] | None = None,
        redact: Callable[[str, dict[str, Any]], dict[str, Any]] | None = None,
    ) -> None:
        self.url = url
        self.spool_dir = spool_dir
        self.own = own
        self.redact = redact or (lambda table, row: row)
        self.interval = interval
        self._connect_to = connect or self._default_connect
        self._con: psycopg.Connection[Any] | None = None
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.last_error: Exception | None = None
        self.shipped_rows = 0
        self._checked_schema = False

    # -- the background loop ---------------------------------------------------------------------------------

    def nudge(self) -> None:
        """A row was spooled: ship it within ``interval``. Starts the loop on first use."""
        self._wake.set()
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="zeph-team-shipper", daemon=True)
            self._thread.start()

    def _loop(self) -> None:
        backoff = self.interval
        while not self._stop.is_set():
            # While rows wait for a database that is down, wake on a timer too: nothing else will nudge.
            self._wake.wait(timeout=backoff if self.last_error else 5.0)
            if self._stop.is_set():
                break
            self._stop.wait(self.interval)  # gather a batch: one transaction per interval, not per row
            self._wake.clear()
            try:
                self.ship()
                backoff = self.interval
            except Exception:  # rows stay in the spool; the next round tries again
                backoff = min(max(backoff * 2, self.interval), 30.0)
                self._wake.set()

    def close(self, *, timeout: float = CLOSE_SECS) -> None:
        """Stop the loop and ship what is left, within ``timeout``: what is not shipped by then stays in the spool
        for the next kernel on this home. Never waits longer, whatever the database does."""
        self._stop.set()
        self._wake.set()
        deadline = time.monotonic() + timeout
        if self._thread is not None:
            self._thread.join(timeout=timeout)
            if self._thread.is_alive():  # stuck in a round with a database that stopped answering
                warnings.warn("zeph-nb: the team audit database is not answering; unshipped rows stay in the spool "
                              "and the next kernel ships them", stacklevel=2)  # fmt: skip
                return
        if not self._lock.acquire(timeout=max(0.0, deadline - time.monotonic())):
            return
        try:
            if self.last_error is None:  # a database that was down a moment ago gets no second connect timeout
                with contextlib.suppress(Exception):
                    self._ship_locked()
            if self._con is not None:
                with contextlib.suppress(Exception):
                    self._con.close()
                self._con = None
        finally:
            self._lock.release()

    def describe(self) -> str:
        """One line for ``%zeph status``: where rows go and whether any are waiting."""
        own = self.own()
        behind = max(0, own.stat().st_size - shipped_offset(own)) if own is not None and own.exists() else 0
        state = f"{self.shipped_rows} rows shipped by this kernel"
        if self.last_error is not None:
            return f"{self.url}: {state}; rows WAITING in the spool ({self.last_error})"
        return f"{self.url}: {state}" + (f", {behind:,} bytes of rows on their way" if behind else ", up to date")

    # -- one round -------------------------------------------------------------------------------------------

    def ship(self) -> int:
        """Ship every spooled row not yet in the team database (this process's spool and those of processes that
        are gone); returns rows sent. Raises TeamUnavailable, with the rows still spooled, when it cannot."""
        with self._lock:
            return self._ship_locked()

    def _ship_locked(self) -> int:
        try:
            sent = self._ship_all()
        except TeamUnavailable as e:
            self._failed(e)
            raise
        except Exception as e:  # psycopg's errors: connection refused, server gone mid-COPY, …
            fix = _login_fix(e)
            if fix is not None:  # it answers, and will not take this kernel's rows until someone acts
                error = TeamUnavailable(f"the team audit database refuses this kernel ({_first_line(e)}): {fix}; "
                                        "rows wait in the spool and are shipped once it is done")  # fmt: skip
            else:
                error = TeamUnavailable(f"the team audit database is unavailable ({_first_line(e)}); rows wait "
                                        "in the spool and are shipped when it is back")  # fmt: skip
            self._failed(error)
            raise error from e
        if self.last_error is not None:
            warnings.warn("zeph-nb: the team audit database is back; waiting rows were shipped", stacklevel=3)
        self.last_error = None
        return sent

    def _failed(self, error: Exception) -> None:
        if self._con is not None:
            with contextlib.suppress(Exception):
                self._con.close()
            self._con = None
        if self.last_error is None or str(self.last_error) != str(error):
            warnings.warn(f"zeph-nb: {error}", stacklevel=3)
        self.last_error = error

    def _ship_all(self) -> int:
        own = self.own()
        others = [p for p in spool_files(self.spool_dir) if p != own and _mark_of(p).exists()]
        sent = 0
        with contextlib.ExitStack() as stack:
            orphans = [p for p in others if stack.enter_context(adopt(p))]
            for path in ([own] if own is not None else []) + orphans:
                sent += self._ship_file(path)
        self.shipped_rows += sent
        return sent

    def _ship_file(self, path: Path) -> int:
        sent = 0
        while True:
            offset = shipped_offset(path)
            records, end = read_step(path, offset)
            if end == offset:
                return sent
            self._insert(path, records)
            _write_mark(path, end)  # after the commit: a crash before this ships the rows again, stored once
            sent += len(records)

    def _connection(self) -> psycopg.Connection[Any]:
        if self._con is None or self._con.closed:
            self._con = self._connect_to()
            self._checked_schema = False
        if not self._checked_schema:
            have, need = schema_version(self._con), latest_version()
            self._con.rollback()
            if have < need:
                raise TeamUnavailable(
                    f"the team audit database has schema version {have} and this zeph-nb needs {need}; "
                    "ask its administrator to run `zeph-nb team-db setup` (rows wait in the spool until then)"
                )
            self._checked_schema = True
        return self._con

    def _default_connect(self) -> psycopg.Connection[Any]:
        import psycopg

        return psycopg.connect(
            self.url,
            connect_timeout=CONNECT_TIMEOUT_SECS,
            application_name="zeph-nb shipper",
            options=f"-c statement_timeout={STATEMENT_TIMEOUT_MS}",
            **TCP_OPTIONS,  # type: ignore[arg-type]
        )

    def _insert(self, path: Path, records: Sequence[SpoolRecord]) -> None:
        import psycopg

        by_table: dict[str, list[SpoolRecord]] = defaultdict(list)
        for record in records:
            if record.table in SHIPPED:
                by_table[record.table].append(SpoolRecord(record.table, self.redact(record.table, record.row),
                                                          record.origin))  # fmt: skip
        if not by_table:
            return
        con = self._connection()
        try:
            with con.transaction():
                for table, rows in by_table.items():
                    insert_rows(con, table, rows)
        except (psycopg.DataError, psycopg.IntegrityError):
            # A row the database refuses (a value DuckDB took and PostgreSQL will not) must not hold back every
            # row after it: ship row by row, and keep each refused one beside the spool, with why.
            for table, rows in by_table.items():
                for record in rows:
                    try:
                        with con.transaction():
                            insert_rows(con, table, [record])
                    except (psycopg.DataError, psycopg.IntegrityError) as refused:
                        _set_aside(path, record, refused)


def insert_rows(con: psycopg.Connection[Any], table: str, records: Sequence[SpoolRecord]) -> None:
    """COPY ``records`` into a temporary table, then insert those not already there (bench/team_bench.py measured
    COPY against executemany: see bench/RESULTS.md and the docs' Teams page)."""
    columns = [*COLUMNS[table], "hub_user", "server_name"]
    listed = ", ".join(columns)
    staging = f"zeph_ship_{table}"
    con.execute(f"CREATE TEMP TABLE IF NOT EXISTS {staging} (LIKE {table} INCLUDING DEFAULTS) ON COMMIT DELETE ROWS")
    with con.cursor().copy(f"COPY {staging} ({listed}) FROM STDIN") as copy:
        for record in records:
            origin = record.origin or {}
            copy.write_row([_value(record.row.get(name)) for name in COLUMNS[table]]
                           + [_value(origin.get("u")), _value(origin.get("s"))])  # fmt: skip
    con.execute(
        f"INSERT INTO {table} ({listed}) SELECT {listed} FROM {staging} ON CONFLICT (owner, spool, seq) DO NOTHING"
    )


def read_step(path: Path, offset: int) -> tuple[list[SpoolRecord], int]:
    """Up to BATCH_ROWS complete records (and about BATCH_BYTES) from ``offset``, read as a stream, and the offset
    just after them. A line still being written (no newline yet) waits for the next round; a torn line is skipped,
    as the local flusher skips it."""
    records: list[SpoolRecord] = []
    position = offset
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below; a spool deleted meanwhile has nothing to ship
    except FileNotFoundError:
        return [], offset
    with handle:
        handle.seek(offset)
        for line in handle:
            if not line.endswith(b"\n"):
                break
            position += len(line)
            with contextlib.suppress(ValueError, KeyError, TypeError):
                item = json.loads(line)
                records.append(SpoolRecord(item["t"], item["r"], item.get("o")))
            if len(records) >= BATCH_ROWS or position - offset >= BATCH_BYTES:
                break
    return records, position


def _set_aside(spool: Path, record: SpoolRecord, error: BaseException) -> None:
    """Keep a row the team's database refused in ``<spool>.rejected`` (it is in the local log too) and say so."""
    line = json.dumps({"t": record.table, "r": record.row, "o": record.origin, "error": _first_line(error)},
                      ensure_ascii=False, default=str)  # fmt: skip
    rejected = spool.with_name(spool.name + ".rejected")
    with open(rejected, "a", encoding="utf-8") as handle:
        handle.write(line + "\n")
    why = _first_line(error)
    warnings.warn(f"zeph-nb: the team audit database refused a {record.table} row ({why}); it is kept in "
                  f"{rejected} and in the local log; the rows after it were shipped", stacklevel=2)  # fmt: skip


def _login_fix(error: BaseException) -> str | None:
    """What to do when the database answers but refuses who this kernel logs in as (None: it is just down)."""
    import re

    text = str(error)
    missing = re.search(r'role "([^"]+)" does not exist', text)
    if missing:
        return (f"there is no database role {missing.group(1)!r}: the administrator creates it (CREATE ROLE "
                f"{missing.group(1)} LOGIN) and runs `zeph-nb team-db grant {missing.group(1)}`; on a hub each "
                "server's PGUSER is its hub user (deploy/jupyterhub_config.py)")  # fmt: skip
    if "password authentication failed" in text or "no password supplied" in text:
        return "the login needs a password: put it in ~/.pgpass (mode 0600) or a service file, never in audit_url"
    if type(error).__name__ == "InsufficientPrivilege" or "permission denied for" in text:
        return ("this login role may not write the team's tables: the administrator runs `zeph-nb team-db grant "
                "<role>` for it")  # fmt: skip
    return None


def _first_line(error: BaseException) -> str:
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0]


# -- reading -------------------------------------------------------------------------------------------------


def team_query(url: str, sql: str, params: Sequence[Any] | None = None) -> pd.DataFrame:
    """Run PostgreSQL SQL on the team database as the connecting role: row-level security decides which rows it
    sees (its own, or every user's for a reviewer). Placeholders are ``%s``."""
    import pandas as pd
    import psycopg

    started = time.monotonic()
    try:
        with psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT_SECS, application_name="zeph-nb audit",
                             **TCP_OPTIONS) as con:  # type: ignore[arg-type]  # fmt: skip
            con.read_only = True
            # One statement only (a prepared one: "COMMIT; INSERT …" is refused), in a transaction that is rolled
            # back whatever it did: reading is all this is for.
            with con.transaction(force_rollback=True):
                cursor = con.execute(sql.encode(), list(params or []), prepare=True)
                names = [column.name for column in cursor.description or []]
                return pd.DataFrame.from_records(cursor.fetchall(), columns=names)
    except psycopg.OperationalError as e:
        raise TeamUnavailable(
            f"cannot reach the team audit database after {time.monotonic() - started:.1f}s ({_first_line(e)}); "
            "read this kernel's own rows with settings whose [store] audit_url is unset, or try again"
        ) from None
