"""A long agent run: does the time per tool call stay flat as the conversation grows?

One run of 1,000 tool calls with the offline scripted model, the whole gate chain and the audit store in a fresh
home, calling a small user function (its result differs every call, so no doom-loop stop). The time per call is
the gap between two model requests. Printed as a curve: the median per 100-call bucket, as a ratio to the first
bucket of the same run (the baseline), then the last/first ratio over several runs (min/median/max). Target of
issue 45: last 100 within 1.2x of the first 100.
"""

from __future__ import annotations

import asyncio
import itertools
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import zeph_nb
from zeph_nb.config import Settings

CALLS = 1000
BUCKET = 100
ROUNDS = 3


def _run(calls: int) -> list[float]:
    """Seconds between consecutive model requests, one per tool call."""
    stamps: list[float] = []

    def turn(i: int) -> Callable[[Sequence[Any]], list[dict[str, Any]]]:
        def reply(_messages: Sequence[Any]) -> list[dict[str, Any]]:
            stamps.append(time.perf_counter())
            return [{"tool": "tick", "params": {"i": i}}]

        return reply

    def tick(i: int) -> str:
        """Say which call this is."""
        return f"call {i}: " + "x" * 200

    with tempfile.TemporaryDirectory(prefix="zeph-longrun-") as tmp:
        home = Path(tmp)
        (home / "work").mkdir()
        settings = Settings.from_toml(f"[agent]\nmax_tool_iterations = {calls}\n").model_copy(
            update={"home": home / "zeph", "user_home": home}
        )
        provider = zeph_nb.ScriptedProvider([turn(i) for i in range(calls)] + ["done"])
        agent = zeph_nb.Agent(settings, provider, workdir=home / "work", tools=[tick])
        result = asyncio.run(agent.run("go"))
        agent.store.close()  # its rows flushed before the home goes away
        assert len(stamps) == calls, (result.stop_reason, result.detail, len(stamps))
    return [b - a for a, b in itertools.pairwise(stamps)]


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    calls = int(args[0]) if args else CALLS
    print(f"\n== a long run: time per tool call over {calls} calls (scripted model, whole chain, audit store) ==")
    curves = [_run(calls) for _ in range(ROUNDS)]
    buckets = range(0, calls - 1, BUCKET)
    print(f"  {'calls':>11}  " + "  ".join(f"run {r + 1}: ms/call (x first)" for r in range(ROUNDS)))
    for start in buckets:
        cells = []
        for gaps in curves:
            first = statistics.median(gaps[:BUCKET])
            here = statistics.median(gaps[start : start + BUCKET])
            cells.append(f"{here * 1000:10.2f} ({here / first:4.2f}x)     ")
        print(f"  {start + 1:>5}-{min(start + BUCKET, calls):<5}  " + "  ".join(cells))
    ratios = sorted(statistics.median(g[-BUCKET:]) / statistics.median(g[:BUCKET]) for g in curves)
    print(
        f"  last {BUCKET} / first {BUCKET} calls: min {ratios[0]:.2f}x  median {statistics.median(ratios):.2f}x  "
        f"max {ratios[-1]:.2f}x   (target <= 1.2x)"
    )


if __name__ == "__main__":
    main()
