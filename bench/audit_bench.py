"""The store: what an audit row costs on the hot path, and an aggregate over a million rows.

Baselines in the same run: for the hot path, the bare durable append the spool is built on (one write and
one fdatasync of the same bytes); for the query, the same SQL on a direct DuckDB connection to the file.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

from zeph_nb.config import Settings
from zeph_nb.store import AuditLog, AuditRecord, Store

N_CALLS = 2000
N_ROWS = 1_000_000
QUERY = (
    "SELECT tool, count(*) AS calls, avg(duration_ms) AS ms, sum(tokens_saved) AS saved FROM tool_calls GROUP BY tool"
)


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[int(len(ordered) * 0.95)]


def main() -> None:
    import duckdb

    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        store = Store(Settings().model_copy(update={"home": home}), flusher=False)
        log = AuditLog(store)
        ours = []
        for i in range(N_CALLS):
            record = AuditRecord(
                tool="bash",
                params={"command": f"pytest -q tests/test_{i}.py"},
                call_id=f"c{i}",
                decision="allow",
                exit_code=0,
                duration_ms=12.3,
                raw_bytes=4000,
                filtered_bytes=300,
            )
            start = time.perf_counter()
            log.record(record)
            ours.append(time.perf_counter() - start)
        line = store.spool.path.read_bytes().splitlines()[0] + b"\n"
        fd = os.open(home / "baseline", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        base = []
        for _ in range(N_CALLS):
            start = time.perf_counter()
            os.write(fd, line)
            os.fdatasync(fd)
            base.append(time.perf_counter() - start)
        os.close(fd)
        (p50, p95), (b50, _) = _percentiles(ours), _percentiles(base)
        print(f"audit: {N_CALLS} rows recorded durably (redaction, JSON, write, fdatasync)")
        print(f"  per call  p50 {p50 * 1000:.3f} ms  p95 {p95 * 1000:.3f} ms")
        print(f"  baseline write+fdatasync p50 {b50 * 1000:.3f} ms -> {p50 / b50:.2f}x  (target p50 <= 1 ms)")

        start = time.perf_counter()
        store.flush()
        print(f"  flush of {N_CALLS} spooled rows into DuckDB: {(time.perf_counter() - start) * 1000:.0f} ms")

        con = duckdb.connect(str(store.path))
        con.execute(
            f"INSERT INTO tool_calls (ts, tool, call_id, duration_ms, tokens_saved, status) "
            f"SELECT now()::TIMESTAMP - to_seconds(i), ['bash','read','grep','write','edit'][i % 5 + 1], 'r' || i, "
            f"(i % 97)::DOUBLE, i % 50, 'ok' FROM range({N_ROWS - N_CALLS}) t(i)"
        )
        con.close()
        direct = []
        for _ in range(5):
            con = duckdb.connect(str(store.path), read_only=True)
            start = time.perf_counter()
            con.execute(QUERY).df()
            direct.append(time.perf_counter() - start)
            con.close()
        via = []
        for _ in range(5):
            start = time.perf_counter()
            store.query(QUERY)
            via.append(time.perf_counter() - start)
        d, v = statistics.median(direct), statistics.median(via)
        print(f"  aggregate over {N_ROWS:,} rows: zeph_nb.audit {v * 1000:.0f} ms, direct DuckDB {d * 1000:.0f} ms "
              f"-> {v / d:.2f}x  (target <= 200 ms; includes attaching the file and merging spools)")  # fmt: skip
