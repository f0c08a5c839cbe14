"""The team's audit log in PostgreSQL: which client way to write and read, and what shipping costs under load.

A throwaway cluster (tests/pg_cluster.py: Debian's server, initdb in a temp folder, a Unix socket) is set up with
``zeph-nb team-db setup``. Four measurements, each against a baseline in the same run:

1. Writing a batch of spooled rows: psycopg 3 ``executemany`` of ``INSERT … ON CONFLICT DO NOTHING`` (pipelined)
   against COPY into a temporary table and one ``INSERT … SELECT … ON CONFLICT DO NOTHING``, as batches grow.
2. Reading rows into pandas: a psycopg cursor into ``DataFrame.from_records`` against ``pandas.read_sql`` through
   SQLAlchemy and through ADBC, each when installed (neither is a dependency; the figures say why).
3. 8 writer processes x 2,000 recorded calls each, every kernel shipping to one database as its own role: rows/s,
   p95 lag from the call to its row in PostgreSQL, rows lost; next to the same 8 x 2,000 into local DuckDB only.
4. A backlog of 10k, 50k and 200k rows shipped by a kernel back online, next to the local flush of the same rows.
"""

from __future__ import annotations

import multiprocessing
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

WRITERS = 8
CALLS = 2000


def _rows(n: int, tag: str) -> list[Any]:
    from zeph_nb.store.spool import SpoolRecord

    return [
        SpoolRecord(
            "tool_calls",
            {
                "ts": "2026-11-28 10:00:00",
                "tool": "bash",
                "call_id": f"{tag}{i}",
                "status": "ok",
                "params": f'{{"command": "pytest -q tests/test_{i}.py"}}',
                "decision": "allow",
                "duration_ms": 12.5,
                "exit_code": 0,
                "raw_bytes": 4000,
                "filtered_bytes": 300,
                "spool": f"bench-{tag}",
                "seq": i + 1,
            },
            {"u": "bench", "s": ""},
        )
        for i in range(n)
    ]


def _executemany(con: Any, records: list[Any]) -> None:
    from zeph_nb.store.schema import COLUMNS

    columns = [*COLUMNS["tool_calls"], "hub_user", "server_name"]
    marks = ", ".join(["%s"] * len(columns))
    statement = f"INSERT INTO tool_calls ({', '.join(columns)}) VALUES ({marks})"  # noqa: S608 - our own columns
    with con.transaction(), con.cursor() as cursor:
        cursor.executemany(
            statement + " ON CONFLICT (owner, spool, seq) DO NOTHING",
            [[r.row.get(c) for c in COLUMNS["tool_calls"]] + ["bench", ""] for r in records],
        )


def _copy(con: Any, records: list[Any]) -> None:
    from zeph_nb.store.team import insert_rows

    with con.transaction():
        insert_rows(con, "tool_calls", records)


def _best(action: Callable[[], None], repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def writing(url: str) -> None:
    import psycopg

    print("team audit, 1. writing a batch of spooled rows (rows/s, best of 3; new rows each time)")
    with psycopg.connect(url) as con:
        counter = iter(range(10**6))
        for size in (100, 1_000, 10_000):
            many = _best(lambda n=size: _executemany(con, _rows(n, f"m{n}-{next(counter)}-")))
            copy = _best(lambda n=size: _copy(con, _rows(n, f"c{n}-{next(counter)}-")))
            again = _best(lambda n=size: _copy(con, _rows(n, f"c{n}-0-")))  # all already there: a re-ship
            print(f"  {size:>6} rows  executemany {size / many:>9,.0f}/s   COPY+insert {size / copy:>9,.0f}/s "
                  f"({many / copy:.1f}x)   re-shipping them {size / again:>9,.0f}/s")  # fmt: skip


def reading(url: str) -> None:
    import pandas as pd
    import psycopg

    from zeph_nb.store.team import team_query

    print("team audit, 2. reading rows into pandas (ms, best of 3)")
    with psycopg.connect(url) as con, con.transaction():
        have = con.execute("SELECT count(*) FROM tool_calls").fetchone()[0]  # type: ignore[index]
        if have < 100_000:
            con.execute(
                "INSERT INTO tool_calls (ts, tool, call_id, status, duration_ms, spool, seq) "
                "SELECT now() - make_interval(secs => i), 'bash', 'r' || i, 'ok', i % 97, 'read-bench', i "
                "FROM generate_series(1, %s) AS i",
                [100_000 - have],
            )
    engines: dict[str, Callable[[str], pd.DataFrame]] = {"psycopg cursor": lambda q: team_query(url, q)}
    try:
        import sqlalchemy

        engine = sqlalchemy.create_engine("postgresql+psycopg://", creator=lambda: psycopg.connect(url))
        engines["read_sql via SQLAlchemy"] = lambda q: pd.read_sql(q, engine)
    except ImportError:
        print("  (SQLAlchemy not installed: not measured)")
    try:
        import adbc_driver_postgresql.dbapi as adbc

        uri = "postgresql:///zeph?" + "&".join(
            f"{k}={v}" for k, v in (part.split("=", 1) for part in url.split()) if k in ("host", "user")
        )
        engines["read_sql via ADBC"] = lambda q: _adbc_read(adbc, uri, q)
    except ImportError:
        print("  (adbc-driver-postgresql and pyarrow not installed: not measured)")
    for limit in (1_000, 10_000, 100_000):
        query = f"SELECT * FROM tool_calls ORDER BY ts DESC LIMIT {limit}"  # noqa: S608 - a number
        figures = {name: _best(lambda read=read, q=query: read(q)) for name, read in engines.items()}  # type: ignore[misc]
        base = figures["psycopg cursor"]
        print(
            f"  {limit:>7} rows  " + "   ".join(f"{n} {t * 1000:,.0f} ms ({t / base:.2f}x)" for n, t in figures.items())
        )


def _adbc_read(adbc: Any, uri: str, query: str) -> Any:
    import pandas as pd

    with adbc.connect(uri) as con:
        return pd.read_sql(query, con)


def _writer(home: str, url: str | None, calls: int, ready: Any, results: Any) -> None:
    from zeph_nb.config import Settings
    from zeph_nb.store import AuditLog, AuditRecord, Store

    toml = f'[store]\naudit_url = "{url}"\n' if url else ""
    store = Store(Settings.from_toml(toml).model_copy(update={"home": Path(home)}))
    log = AuditLog(store)
    ready.wait()  # every process imported and ready: they start together
    start = time.time()
    for i in range(calls):
        params = {"command": f"pytest -q tests/test_{i}.py"}
        log.record(AuditRecord(tool="bash", params=params, call_id=f"c{i}", decision="allow", exit_code=0,
                               duration_ms=12.3, raw_bytes=4000, filtered_bytes=300))  # fmt: skip
    store.close()  # the last rows are flushed and shipped before the process ends
    results.put((start, time.time()))


def _run_writers(root: Path, urls: list[str | None]) -> tuple[float, float]:
    context = multiprocessing.get_context("spawn")
    ready = context.Barrier(len(urls))
    results = context.Queue()
    processes = [
        context.Process(target=_writer, args=(str(root / f"home{i}"), url, CALLS, ready, results))
        for i, url in enumerate(urls)
    ]
    for process in processes:
        process.start()
    spans = [results.get(timeout=600) for _ in processes]
    for process in processes:
        process.join(timeout=60)
    return min(s for s, _ in spans), max(e for _, e in spans)


def shipping(cluster: Any) -> None:
    print(f"team audit, 3. {WRITERS} writer processes x {CALLS:,} recorded calls, each kernel its own home and role")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        start, end = _run_writers(root / "local", [None] * WRITERS)
        local = WRITERS * CALLS / (end - start)
        print(f"  local DuckDB only:   {local:>8,.0f} rows/s (spool + flush, until the last process closed)")
        for i in range(WRITERS):
            cluster.sql(f"CREATE ROLE writer{i} LOGIN IN ROLE zeph_writer")
        cluster.sql("DELETE FROM tool_calls WHERE owner LIKE 'writer%'")
        start, end = _run_writers(root / "team", [cluster.url_as(f"writer{i}") for i in range(WRITERS)])
        (count, distinct, last, p50, p95), *_ = cluster.sql(
            "SELECT count(*), count(DISTINCT (owner, spool, seq)), extract(epoch FROM max(shipped_at)), "
            "percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM shipped_at - ts)), "
            "percentile_cont(0.95) WITHIN GROUP (ORDER BY extract(epoch FROM shipped_at - ts)) "
            "FROM tool_calls WHERE owner LIKE 'writer%'"
        )
        lost = WRITERS * CALLS - int(distinct)  # type: ignore[call-overload]
        rate = int(count) / (max(end, float(last)) - start)  # type: ignore[arg-type, call-overload]
        print(f"  shipped to PostgreSQL: {rate:>6,.0f} rows/s ({rate / local:.2f}x local), lag call->row "
              f"p50 {float(p50):.2f} s p95 {float(p95):.2f} s, {count} rows, {lost} lost, "  # type: ignore[arg-type]
              f"{int(count) - int(distinct)} duplicated")  # type: ignore[call-overload]  # fmt: skip


def backlog(cluster: Any) -> None:
    """How draining a backlog (a kernel that was offline) grows with it: it should stay linear, a step at a time."""
    import resource

    from zeph_nb.config import Settings
    from zeph_nb.store import Store

    print("team audit, 4. a kernel back online ships its backlog (rows/s; local DuckDB flush of the same rows)")
    cluster.sql("CREATE ROLE backlog LOGIN IN ROLE zeph_writer")
    for rows in (10_000, 50_000, 200_000):
        with tempfile.TemporaryDirectory() as tmp:
            toml = f'[store]\naudit_url = "{cluster.url_as("backlog")}"\ndurable = false'
            store = Store(Settings.from_toml(toml).model_copy(update={"home": Path(tmp)}), flusher=False)
            for i in range(rows):
                store.append("tool_calls", {"tool": "bash", "call_id": f"b{i}", "params": '{"command": "make"}'})
            assert store.team is not None
            start = time.perf_counter()
            shipped = store.team.ship()
            ship = time.perf_counter() - start
            after_ship = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            start = time.perf_counter()
            store.flush()
            local = time.perf_counter() - start
            after_flush = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            store.close()
            ratio = ship / local
            print(f"  {rows:>7,} rows waiting: shipped {shipped / ship:>8,.0f} rows/s, local flush "
                  f"{rows / local:>8,.0f} rows/s ({ratio:.2f}x its time); peak RSS after shipping "
                  f"{after_ship:,.0f} MiB, after the flush {after_flush:,.0f} MiB")  # fmt: skip


def main() -> None:
    from tests.pg_cluster import bindir, cluster
    from zeph_nb.cli import main as cli

    if bindir() is None:
        print("team audit: PostgreSQL is not installed (apt-get install postgresql); skipped")
        return
    with cluster() as server:
        cli(["team-db", "setup", "--url", server.url])
        server.sql("CREATE ROLE bench LOGIN IN ROLE zeph_writer")
        writing(server.url_as("bench"))
        reading(server.url)
        shipping(server)
        backlog(server)


if __name__ == "__main__":
    main()
