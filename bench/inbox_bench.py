"""The approval inbox and the dashboard: how long an answer takes to reach a waiting run, and what one dashboard
refresh costs over a large log.

Baselines in the same run: for the answer, the notebook's own path — a future the button's click resolves from
another thread, which is as fast as an answer can reach an awaiting task; for the refresh, the same aggregate on
a direct DuckDB connection to the file (what a reader pays without seeing the writers' spools).
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import threading
import time
from datetime import timedelta
from pathlib import Path

from zeph_nb.config import Settings
from zeph_nb.gates.approval import ApprovalDecision, ApprovalRequest
from zeph_nb.gates.approval.inbox import Inbox, InboxApprover
from zeph_nb.store import Store
from zeph_nb.store.store import utc_now

ROUNDS = 20
N_ROWS = 100_000
REQUEST = ApprovalRequest("c", "bash", {"command": "make deploy"}, ("make deploy",), "rule", "why")


async def _inbox_latency(settings: Settings, poll: float) -> list[float]:
    """Seconds from the answer being recorded (in another Store, as the server does) to decide() returning."""
    store, server = Store(settings), Store(settings)
    approver, inbox = InboxApprover(settings, store=store, poll_interval=poll), Inbox(server)
    samples = []
    for _ in range(ROUNDS):
        answered_at: list[float] = []

        def answer(answered_at: list[float] = answered_at) -> None:
            while not (pending := inbox.pending()):
                time.sleep(0.005)
            inbox.answer(pending[0].id, "approve", by="bench")
            answered_at.append(time.perf_counter())

        helper = threading.Thread(target=answer)
        helper.start()
        request = ApprovalRequest(**{**REQUEST.__dict__, "expires_at": utc_now() + timedelta(minutes=1)})
        await approver.decide(request)
        returned = time.perf_counter()
        helper.join()
        samples.append(returned - answered_at[0])
    store.close()
    server.close()
    return samples


async def _future_latency() -> list[float]:
    loop = asyncio.get_running_loop()
    samples = []
    for _ in range(ROUNDS):
        future: asyncio.Future[ApprovalDecision] = loop.create_future()
        clicked: list[float] = []

        def click(f: asyncio.Future[ApprovalDecision] = future, at: list[float] = clicked) -> None:
            at.append(time.perf_counter())
            loop.call_soon_threadsafe(f.set_result, ApprovalDecision.approve("bench"))

        threading.Timer(0.01, click).start()
        await future
        samples.append(time.perf_counter() - clicked[0])
    return samples


def _refresh_cost(settings: Settings) -> tuple[float, float, float]:
    """One dashboard refresh's six reads (rows, total, two aggregates, pending, recent) each on its own, then
    batched over one opening of the store; and one aggregate on a direct DuckDB connection."""
    import duckdb

    from zeph_nb import audit

    store = Store(settings, flusher=False)
    store.append("tool_calls", {"tool": "bash", "call_id": "seed", "ts": utc_now().isoformat()})
    store.flush()  # creates and migrates the file
    con = duckdb.connect(str(store.path))
    con.execute(
        "INSERT INTO tool_calls (ts, tool, call_id, duration_ms, tokens_saved, status, error_category) "
        "SELECT now()::TIMESTAMP - to_seconds(i), ['bash','read','grep','write','edit'][i % 5 + 1], 'r' || i, "
        "(i % 97)::DOUBLE, i % 50, CASE WHEN i % 13 = 0 THEN 'error' ELSE 'ok' END, "
        "CASE WHEN i % 13 = 0 THEN 'permanent_failure' END FROM range(?) t(i)",
        [N_ROWS],
    )
    con.close()
    inbox = Inbox(store)
    for _ in range(5):
        inbox.post(REQUEST, requester="bench", expires_at=utc_now() + timedelta(minutes=5))
    aggregate = (
        "SELECT tool, count(*) AS calls, count(*) FILTER (WHERE status = 'error') AS errors, sum(duration_ms) AS ms "
        "FROM tool_calls GROUP BY tool"
    )
    categories = "SELECT error_category, count(*) FROM tool_calls GROUP BY ALL"
    separate, batched, direct = [], [], []
    for _ in range(5):
        start = time.perf_counter()
        audit.frame(limit=50, settings=settings)
        audit.count(settings=settings)
        audit.sql(aggregate, settings=settings)
        audit.sql(categories, settings=settings)
        inbox.pending()
        inbox.recent(20)
        separate.append(time.perf_counter() - start)
        start = time.perf_counter()  # what api/dashboard does: the same six reads over one opening
        frames = Store(settings, flusher=False).query_many(
            [audit.frame_query(limit=50), ("SELECT count(*) FROM tool_calls", []), (aggregate, []), (categories, []),
             inbox.pending_query(), inbox.recent_query(20)]
        )  # fmt: skip
        inbox.items(frames[4], pending_only=True)
        inbox.items(frames[5])
        batched.append(time.perf_counter() - start)
        con = duckdb.connect(str(store.path), read_only=True)
        start = time.perf_counter()
        con.execute(aggregate).fetchall()
        direct.append(time.perf_counter() - start)
        con.close()
    store.spool.close(remove=False)
    return statistics.median(separate), statistics.median(batched), statistics.median(direct)


async def _measure() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings().model_copy(update={"home": Path(tmp) / "home"})
        base = statistics.median(await _future_latency())
        print(f"answer reaches the waiting run: a resolved future (the notebook's buttons) p50 {base * 1e3:.2f} ms")
        for poll in (0.5, 0.1):
            samples = sorted(await _inbox_latency(settings, poll))
            p50, worst = statistics.median(samples), samples[-1]
            print(f"  through the inbox, poll {poll:g} s: p50 {p50 * 1e3:.0f} ms, max {worst * 1e3:.0f} ms "
                  f"({p50 / base:.0f}x the future; bounded by the poll interval plus one store read)")  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings().model_copy(update={"home": Path(tmp) / "home"})
        separate, batched, direct = _refresh_cost(settings)
        print(f"one dashboard refresh over {N_ROWS:,} rows: 6 reads each opening the store {separate * 1e3:.0f} ms; "
              f"batched (api/dashboard) {batched * 1e3:.0f} ms; one direct aggregate {direct * 1e3:.1f} ms "
              f"({batched / direct:.0f}x)")  # fmt: skip


def main() -> None:
    print("== approval inbox and dashboard ==")
    asyncio.run(_measure())


if __name__ == "__main__":
    main()
