"""The team's review page (zeph_nb.hub) as the team's log grows, and how long a reviewer's answer takes to arrive.

A throwaway cluster (tests/pg_cluster.py) set up with ``zeph-nb team-db setup``, filled with tool calls of 8 users
and inbox requests, then:

1. What one page load asks the database (waiting requests, recent ones, the newest 500 calls, the filter choices)
   at 1k, 10k and 100k calls, next to the plainest read of the same 500 rows (``SELECT … ORDER BY ts DESC LIMIT
   500`` on one connection): the curve says whether a page stays fast as the log grows.
2. A reviewer's answer: from the desk recording it to the waiting run's decision, over 10 requests, next to the
   same wait on the local inbox (a person answering on the user's own dashboard); both poll every 0.5 s.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

USERS = 8


def _fill(pg: Any, calls: int) -> None:
    """``calls`` tool calls spread over USERS owners (inserted as the database owner, owner named)."""
    pg.sql(
        "INSERT INTO tool_calls (owner, ts, tool, call_id, status, params, decision, sandbox, duration_ms, spool, seq) "
        f"SELECT 'user' || (i % {USERS}), TIMESTAMP '2026-11-01' + i * INTERVAL '1 second', "
        "CASE WHEN i % 5 = 0 THEN 'write' ELSE 'bash' END, 'c' || i, "
        "CASE WHEN i % 50 = 0 THEN 'denied' ELSE 'ok' END, '{\"command\": \"pytest -q\"}', "
        "CASE WHEN i % 50 = 0 THEN 'deny' WHEN i % 20 = 0 THEN 'ask' ELSE 'allow' END, 'bwrap', 12.5, "
        f"'bench-{calls}', i FROM generate_series(1, {calls}) AS i"
    )


def _time(work: Any, rounds: int = 7) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def page_curve(pg: Any, desk: Any) -> None:
    import psycopg

    from zeph_nb.hub.desk import CallFilter

    print("\n1. One page load of the review page as the log grows (median of 7; baseline: the plain 500-row read)")
    print(f"{'calls':>8} {'page ms':>9} {'calls ms':>9} {'choices ms':>11} {'baseline ms':>12} {'page/baseline':>14}")
    total = 0
    for calls in (1_000, 10_000, 100_000):
        _fill(pg, calls - total)
        total = calls
        pg.sql("ANALYZE tool_calls")

        def page() -> None:
            desk.page(CallFilter(), only_owner=None)

        def baseline() -> None:
            with psycopg.connect(pg.url_as("zeph_hub_service")) as con:
                con.execute("SELECT * FROM tool_calls ORDER BY ts DESC LIMIT 500").fetchall()

        page_ms, base_ms = _time(page) * 1000, _time(baseline) * 1000
        calls_ms = _time(lambda: desk.calls(CallFilter(), only_owner=None)) * 1000
        choices_ms = _time(lambda: desk.choices(only_owner=None)) * 1000
        print(f"{calls:>8,} {page_ms:>9.1f} {calls_ms:>9.1f} {choices_ms:>11.1f} {base_ms:>12.1f} "
              f"{page_ms / base_ms:>13.1f}x")  # fmt: skip


def answer_latency(pg: Any, desk: Any, home: Path, public_key: str) -> None:
    from zeph_nb.config import Settings
    from zeph_nb.gates.approval import ApprovalRequest
    from zeph_nb.gates.approval.inbox import InboxApprover
    from zeph_nb.store.store import Store

    def approver(reviewers: bool) -> InboxApprover:
        decided = 'decided_by = "reviewers"\n' if reviewers else ""
        text = (f'[store]\naudit_url = "{pg.url_as("user1")}"\nship_interval_ms = 200\n'
                f'[gates.approval]\nreview_key = "{public_key}"\n{decided}')  # fmt: skip
        settings = Settings.from_toml(text).model_copy(update={"home": home / str(reviewers), "user": "user1"})
        return InboxApprover(settings, store=Store(settings), poll_interval=0.5)

    async def one(inbox: InboxApprover, reviewers: bool, i: int) -> float:
        request = ApprovalRequest(call_id=f"r{i}", tool="bash", params={"command": f"make {i}"},
                                  subjects=[f"make {i}"], rule="r", reason="asks")  # fmt: skip
        waiting = asyncio.create_task(inbox.decide(request))
        while True:  # until the request is there to answer: in the team database, or in the local inbox
            found = desk.requests(owner="user1") if reviewers else inbox.inbox.pending()
            if found:
                break
            await asyncio.sleep(0.02)
        started = time.perf_counter()
        if reviewers:
            desk.answer(found[0], "approve", reviewer="rita", note=None)
        else:
            inbox.inbox.answer(found[0].id, "approve", by="user1")
        await waiting
        return time.perf_counter() - started

    print("\n2. From an answer to the waiting run's decision (10 requests each, polled every 0.5 s)")
    for reviewers, label in ((False, "the user's own dashboard (baseline)"), (True, "a reviewer on the hub")):
        inbox = approver(reviewers)
        waits = [asyncio.run(one(inbox, reviewers, i)) for i in range(10)]
        waits.sort()
        print(f"  {label:<38} median {statistics.median(waits) * 1000:6.0f} ms   max {waits[-1] * 1000:6.0f} ms")
        inbox.inbox.store.close()


def main() -> None:
    from tests.pg_cluster import bindir, cluster
    from zeph_nb.cli import main as cli
    from zeph_nb.hub.desk import ReviewDesk
    from zeph_nb.security.review_signature import ReviewSigner, generate_key

    print("\n== the review page (zeph_nb.hub) and reviewers' answers ==")
    if bindir() is None:
        print("PostgreSQL is not installed (apt-get install postgresql); skipped")
        return
    with tempfile.TemporaryDirectory() as folder, cluster() as pg:
        home = Path(folder)
        assert cli(["team-db", "setup", "--url", pg.url]) == 0
        pg.sql("CREATE ROLE zeph_hub_service LOGIN")
        assert cli(["team-db", "grant", "zeph_hub_service", "--hub", "--url", pg.url]) == 0
        for i in range(USERS):
            pg.sql(f"CREATE ROLE user{i} LOGIN")
            assert cli(["team-db", "grant", f"user{i}", "--url", pg.url]) == 0
        public = generate_key(home / "review.key")
        desk = ReviewDesk(pg.url_as("zeph_hub_service"), ReviewSigner(home / "review.key"))
        answer_latency(pg, desk, home, public)
        page_curve(pg, desk)


if __name__ == "__main__":
    main()
