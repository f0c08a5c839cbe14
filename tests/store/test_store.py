"""The store with real DuckDB files and several real processes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from zeph_nb import audit
from zeph_nb.config import Settings
from zeph_nb.store import Store, StoreBusy
from zeph_nb.store.schema import COLUMNS, MIGRATIONS
from zeph_nb.store.store import _process_lock, utc_now


def settings_for(home: Path, **store: object) -> Settings:
    table = "".join(f"{k} = {json.dumps(v)}\n" for k, v in store.items())
    return Settings.from_toml(f"[store]\n{table}").model_copy(update={"home": home})


def row(i: int, tool: str = "bash", **extra: object) -> dict[str, object]:
    return {"ts": utc_now().isoformat(), "tool": tool, "call_id": f"c{i}", "exit_code": 0, **extra}


_SPAWNED: list[subprocess.Popen[str]] = []


@pytest.fixture(autouse=True)
def _no_orphans() -> Iterator[None]:
    """Whatever a test spawned is gone when it ends, passed or failed."""
    yield
    while _SPAWNED:
        process = _SPAWNED.pop()
        if process.poll() is None:
            process.kill()
            process.wait()


def spawn(code: str, home: Path, **env_vars: str) -> subprocess.Popen[str]:
    """A real process running ``code`` with ``home`` as its zeph home (and ``env_vars`` set)."""
    env = {**os.environ, "ZEPH_HOME": str(home), "PYTHONUNBUFFERED": "1", **env_vars}
    process = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=env,
        cwd=home,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    _SPAWNED.append(process)
    return process


def test_rows_are_readable_before_and_after_the_flush(tmp_path: Path) -> None:
    store = Store(settings_for(tmp_path), flusher=False)
    store.append("tool_calls", row(1))
    store.append("tool_calls", row(2, tool="read", exit_code=None))
    assert list(store.query("SELECT call_id FROM tool_calls ORDER BY seq")["call_id"]) == ["c1", "c2"]
    assert store.flush() == 2
    assert store.flush() == 0  # exactly once
    store.append("tool_calls", row(3))
    frame = store.query("SELECT call_id, exit_code FROM tool_calls ORDER BY seq")
    assert list(frame["call_id"]) == ["c1", "c2", "c3"]
    store.close()
    assert list((tmp_path / "spool").iterdir()) == []  # all in the database, journal removed
    assert Store(settings_for(tmp_path), flusher=False).query("SELECT count(*) AS n FROM tool_calls")["n"][0] == 3


def test_migrations_are_recorded(tmp_path: Path) -> None:
    store = Store(settings_for(tmp_path), flusher=False)
    store.append("tool_calls", row(1))
    store.flush()
    import duckdb

    con = duckdb.connect(str(tmp_path / "zeph.duckdb"), read_only=True)
    assert con.execute("SELECT version, name FROM schema_migrations").fetchall() == [
        (1, "m001_initial"),
        (2, "m002_gates"),
        (3, "m003_approvals"),
        (4, "m004_containment"),
        (5, "m005_waited_ms"),
        (6, "m006_approval_why"),
        (7, "m007_filter_confidence"),
        (8, "m008_undo"),
        (9, "m009_mcp_origin"),
        (10, "m010_runs_on_use"),
        (11, "m011_overflow_blobs"),
        (12, "m012_memories"),
        (13, "m013_rollback"),
        (14, "m014_seed_audit_fields"),
        (15, "m015_kept_tasks"),
    ]
    # The migrations, applied in order, build exactly the tables COLUMNS describes.
    for table, columns in COLUMNS.items():
        assert [r[0] for r in con.execute(f"DESCRIBE {table}").fetchall()] == list(columns)
    con.close()


def test_a_database_of_an_older_version_is_migrated_and_keeps_its_rows(tmp_path: Path) -> None:
    import duckdb

    con = duckdb.connect(str(tmp_path / "zeph.duckdb"))
    con.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name VARCHAR, applied_at TIMESTAMP)")
    con.execute(MIGRATIONS[0][2])
    con.execute("INSERT INTO schema_migrations VALUES (1, 'm001_initial', now()::TIMESTAMP)")
    con.execute("INSERT INTO tool_calls (call_id, tool) VALUES ('old', 'read')")
    con.close()
    store = Store(settings_for(tmp_path), flusher=False)
    store.append("tool_calls", {**row(1), "cached": True, "attempts": 2})
    store.flush()
    frame = store.query("SELECT call_id, cached, attempts FROM tool_calls ORDER BY call_id")
    assert list(frame["call_id"]) == ["c1", "old"]
    assert bool(frame["cached"].iloc[0]) and int(frame["attempts"].iloc[0]) == 2


def test_a_reader_of_a_database_without_a_newer_table_sees_it_empty(tmp_path: Path) -> None:
    """A file last written by an older version has no approvals table until a writer migrates it; readers (the
    dashboard) must not fail on it meanwhile."""
    import duckdb

    con = duckdb.connect(str(tmp_path / "zeph.duckdb"))
    con.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name VARCHAR, applied_at TIMESTAMP)")
    for version, name, sql in MIGRATIONS[:2]:
        con.execute(sql)
        con.execute("INSERT INTO schema_migrations VALUES (?, ?, now()::TIMESTAMP)", [version, name])
    con.close()
    store = Store(settings_for(tmp_path), flusher=False)
    assert store.query("SELECT count(*) AS n FROM approvals")["n"][0] == 0
    store.append("approvals", {"id": "a", "event": "requested"})
    assert list(store.query("SELECT id FROM approvals")["id"]) == ["a"]  # from the spool, before any flush
    store.flush()
    store.spool.close(remove=True)
    assert list(Store(settings_for(tmp_path), flusher=False).query("SELECT id FROM approvals")["id"]) == ["a"]


def test_unknown_tables_and_columns_are_refused(tmp_path: Path) -> None:
    store = Store(settings_for(tmp_path), flusher=False)
    with pytest.raises(ValueError, match="unknown table"):
        store.append("users", {})
    with pytest.raises(ValueError, match="unknown columns for tool_calls: colour"):
        store.append("tool_calls", {"colour": "red"})


def test_background_flusher(tmp_path: Path) -> None:
    store = Store(settings_for(tmp_path, flush_interval_ms=20))
    for i in range(50):
        store.append("tool_calls", row(i))
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if (tmp_path / "zeph.duckdb").exists() and _flushed(tmp_path) == 50:
            break
        time.sleep(0.05)
    assert _flushed(tmp_path) == 50
    store.close()


def _flushed(home: Path) -> int:
    """Rows in the database file itself (not the spools). Takes the store's in-process lock, as every reader in
    a writing process must: DuckDB refuses a flusher's connection while this one is open."""
    import duckdb

    with _process_lock(home / "zeph.duckdb"):
        try:
            con = duckdb.connect(str(home / "zeph.duckdb"), read_only=True)
        except duckdb.Error:
            return -1
        try:
            return int(con.execute("SELECT count(*) FROM tool_calls").fetchall()[0][0])
        except duckdb.Error:
            return -1
        finally:
            con.close()


def test_overflow_is_scoped_to_its_conversation_and_expires(tmp_path: Path) -> None:
    store = Store(settings_for(tmp_path), flusher=False)
    big = "line\n" * 20_000
    oid = store.put_overflow("conv-a", big, tool="bash", call_id="c1")
    assert oid.startswith("overflow:") and len(oid) == len("overflow:") + 36
    assert store.get_overflow(oid, "conv-a") == big
    assert store.get_overflow(oid, "conv-b") is None
    capped = store.put_overflow("conv-a", "é" * 100, max_bytes=51)
    assert store.get_overflow(capped, "conv-a") == "é" * 25  # cut on a character boundary
    store.flush()
    assert store.get_overflow(oid, "conv-a") == big
    store.delete_conversation("conv-a")
    assert store.get_overflow(oid, "conv-a") is None


def test_retention_removes_old_overflow_at_start(tmp_path: Path) -> None:
    first = Store(settings_for(tmp_path), flusher=False)
    old = first.put_overflow("c", "old")
    new = first.put_overflow("c", "new")
    first.flush()
    import duckdb

    con = duckdb.connect(str(tmp_path / "zeph.duckdb"))
    con.execute("UPDATE overflow SET created_at = ? WHERE id = ?", [utc_now() - timedelta(days=8), old])
    con.close()
    second = Store(settings_for(tmp_path), flusher=False)
    second.append("tool_calls", row(1))
    second.flush()  # the first flush of a process cleans up
    assert second.get_overflow(old, "c") is None
    assert second.get_overflow(new, "c") == "new"


def test_a_killed_writer_loses_no_acknowledged_row(tmp_path: Path) -> None:
    writer = spawn(
        """
        import itertools
        from zeph_nb.config import Settings
        from zeph_nb.store import Store
        store = Store(Settings.load(), flusher=False)   # never flushes: every row stays in its spool
        for i in itertools.count():
            store.append("tool_calls", {"ts": "2026-11-22T10:00:00", "tool": "bash", "call_id": str(i)})
            print(i, flush=True)
        """,
        tmp_path,
    )
    assert writer.stdout is not None
    acknowledged = -1
    for line in writer.stdout:
        acknowledged = int(line)
        if acknowledged >= 200:
            break
    writer.send_signal(signal.SIGKILL)
    writer.wait()
    reader = Store(settings_for(tmp_path), flusher=False)
    seen = set(reader.query("SELECT call_id FROM tool_calls")["call_id"].astype(int))
    assert set(range(acknowledged + 1)) <= seen
    reader.flush()  # adopts the dead writer's spool
    assert list((tmp_path / "spool").iterdir()) == []
    assert set(range(acknowledged + 1)) <= set(reader.query("SELECT call_id FROM tool_calls")["call_id"].astype(int))


def test_four_writers_and_a_polling_reader(tmp_path: Path) -> None:
    writers = [
        spawn(
            f"""
            import time
            from zeph_nb.config import Settings
            from zeph_nb.store import Store
            store = Store(Settings.load())
            end = time.monotonic() + 2.5
            n = 0
            # ~400 rows/s per kernel: far above any agent's call rate, while leaving the 2 cores some air.
            while time.monotonic() < end:
                store.append("tool_calls", {{"ts": "2026-11-22T10:00:00", "tool": "w{w}", "call_id": str(n)}})
                n += 1
                time.sleep(0.002)
            store.close()
            open(f"done-{w}", "w").close()
            print(n)
            """,
            tmp_path,
            ZEPH_STORE_FLUSH_INTERVAL_MS="20",
        )
        for w in range(4)
    ]
    reader = spawn(
        """
        import json, os, time
        from zeph_nb import audit
        counts = []
        # Poll for as long as the writers write (each leaves a done-<n> file here), then once more.
        deadline = time.monotonic() + 60  # never outlive a failed test
        while not all(os.path.exists(f"done-{w}") for w in range(4)) and time.monotonic() < deadline:
            counts.append(int(audit.sql("SELECT count(*) AS n FROM tool_calls")["n"][0]))
        counts.append(int(audit.sql("SELECT count(*) AS n FROM tool_calls")["n"][0]))
        print(json.dumps(counts))
        """,
        tmp_path,
    )
    written = []
    for process in writers:
        out, err = process.communicate(timeout=60)
        assert process.returncode == 0, err
        written.append(int(out))
    out, err = reader.communicate(timeout=60)
    assert reader.returncode == 0, err  # no lock error ever reached the reader
    counts = json.loads(out)
    assert len(counts) >= 3 and counts == sorted(counts)  # rows only ever appear, never vanish mid-flush
    assert counts[-1] == sum(written)  # the last poll, after every writer closed, sees every row
    total = sum(written)
    settings = settings_for(tmp_path)
    frame = audit.sql(
        "SELECT tool, count(*) AS n, count(DISTINCT call_id) AS d FROM tool_calls GROUP BY tool", settings=settings
    )
    assert dict(zip(frame["tool"], frame["n"], strict=True)) == {f"w{w}": written[w] for w in range(4)}
    assert list(frame["n"]) == list(frame["d"])  # no duplicates
    assert _flushed(tmp_path) == total  # and every row reached the database itself
    assert list((tmp_path / "spool").iterdir()) == []


def test_a_database_held_too_long_is_a_clear_error(tmp_path: Path) -> None:
    store = Store(settings_for(tmp_path, lock_timeout_secs=0.3), flusher=False)
    store.append("tool_calls", row(1))
    store.flush()
    holder = spawn(
        f"""
        import duckdb, time
        con = duckdb.connect({str(tmp_path / "zeph.duckdb")!r})
        print("holding", flush=True)
        time.sleep(3)
        """,
        tmp_path,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
    store.append("tool_calls", row(2))
    with pytest.raises(StoreBusy, match="stayed locked"):
        store.flush()
    with pytest.raises(StoreBusy, match="lock_timeout_secs"):
        store.query("SELECT 1")
    holder.kill()
    holder.wait()
    assert store.flush() == 1  # the row waited safely in the spool


def test_audit_frame_filters(tmp_path: Path) -> None:
    store = Store(settings_for(tmp_path), flusher=False)
    store.append("tool_calls", row(1, decision="allow", conversation_id="a", ts="2026-11-01T10:00:00"))
    store.append("tool_calls", row(2, tool="read", decision="deny", conversation_id="a", ts="2026-11-02T10:00:00"))
    store.append(
        "tool_calls", row(3, decision="ask", approved_by="alice", conversation_id="b", ts="2026-11-03T10:00:00")
    )
    settings = settings_for(tmp_path)
    assert list(audit.frame(settings=settings)["call_id"]) == ["c3", "c2", "c1"]
    assert list(audit.frame(tool="bash", settings=settings)["call_id"]) == ["c3", "c1"]
    assert list(audit.frame(conversation="a", decision="deny", settings=settings)["call_id"]) == ["c2"]
    assert list(audit.frame(since="2026-11-02", settings=settings)["call_id"]) == ["c3", "c2"]
    assert list(audit.frame(until="2026-11-02", limit=None, settings=settings)["call_id"]) == ["c1"]
    assert list(audit.frame(approved_by="alice", settings=settings)["call_id"]) == ["c3"]
    with pytest.raises(TypeError, match="no audit filter 'colour'"):
        audit.frame(colour="red", settings=settings)


def test_readers_register_no_exit_hook(tmp_path: Path) -> None:
    import atexit

    before = atexit._ncallbacks()  # type: ignore[attr-defined]  # CPython's count of registered callbacks
    for _ in range(20):
        audit.sql("SELECT count(*) FROM tool_calls", settings=settings_for(tmp_path))
    assert atexit._ncallbacks() == before  # type: ignore[attr-defined]
    writer = Store(settings_for(tmp_path), flusher=False)
    writer.append("tool_calls", row(1))
    writer.append("tool_calls", row(2))
    assert atexit._ncallbacks() == before + 1  # type: ignore[attr-defined]
    writer.close()


def test_a_reader_in_the_writing_process_waits_for_the_flush_instead_of_failing(tmp_path: Path) -> None:
    """DuckDB refuses a read-only connection while the same process holds a read-write one; a kernel that
    flushes its audit rows and queries them (``zeph_nb.audit.frame``) must never see that error."""
    import threading

    writer = Store(settings_for(tmp_path, durable=False), flusher=False)
    writer.append("tool_calls", row(0))
    writer.flush()
    stop = threading.Event()
    errors: list[BaseException] = []

    def flush_forever() -> None:
        i = 1
        while not stop.is_set():
            writer.append("tool_calls", row(i))
            try:
                writer.flush()
            except BaseException as e:  # reported by the assertion below
                errors.append(e)
                return
            i += 1

    thread = threading.Thread(target=flush_forever)
    thread.start()
    try:
        reader = Store(settings_for(tmp_path), flusher=False)
        counts = [int(reader.query("SELECT count(*) AS n FROM tool_calls")["n"][0]) for _ in range(30)]
    finally:
        stop.set()
        thread.join()
    assert not errors
    assert counts == sorted(counts) and counts[0] >= 1  # every read saw a consistent, growing log


def test_a_short_script_flushes_its_rows_at_exit_without_warnings(tmp_path: Path) -> None:
    """A process that writes one row and exits before any background flush: the exit hook copies it in."""
    code = textwrap.dedent(
        f"""
        from zeph_nb.config import Settings
        from zeph_nb.store import Store
        settings = Settings().model_copy(update={{"home": __import__("pathlib").Path({str(tmp_path)!r})}})
        Store(settings).append("tool_calls", {{"tool": "bash", "call_id": "quick"}})
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert done.stderr == ""
    assert list((tmp_path / "spool").iterdir()) == []
    assert list(Store(settings_for(tmp_path), flusher=False).query("SELECT call_id FROM tool_calls")["call_id"]) == [
        "quick"
    ]


def test_a_script_whose_flusher_already_ran_exits_without_warnings(tmp_path: Path) -> None:
    """The background flush (or a query) imports DuckDB after the store registered its exit hook; DuckDB's own
    exit hooks then ran first and refused the exit flush ("the Python interpreter is shutting down"), a warning
    at the end of a script that had run an agent for a while."""
    code = textwrap.dedent(
        """
        import sys, time
        from pathlib import Path
        from zeph_nb.config import Settings
        from zeph_nb.store import Store
        settings = Settings.from_toml("[store]\\nflush_interval_ms = 20")
        store = Store(settings.model_copy(update={"home": Path(sys.argv[1])}))
        assert "duckdb" not in sys.modules  # else the order this test is about is not the one a script has
        store.append("tool_calls", {"tool": "bash", "call_id": "first"})
        time.sleep(0.3)  # the background flush (every 20 ms) copies the first row in, importing DuckDB
        assert store.query("SELECT count(*) AS n FROM tool_calls")["n"][0] == 1  # DuckDB is imported by now
        store.append("tool_calls", {"tool": "bash", "call_id": "second"})
        """
    )
    command = [sys.executable, "-c", code, str(tmp_path)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=True)
    assert done.stderr == ""
    rows = Store(settings_for(tmp_path), flusher=False).query("SELECT call_id FROM tool_calls ORDER BY call_id")
    assert list(rows["call_id"]) == ["first", "second"]
