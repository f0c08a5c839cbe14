"""A long agent run: does the time per tool call stay flat as the conversation grows?

One run of 1,000 tool calls with the offline scripted model, the whole gate chain and the audit store in a fresh
home, each call the built-in ``time`` tool (a cheap tool; ``epoch_ns``, so every result differs and no doom-loop
stop). The time per call is the gap between two model requests: the loop's own work (sizing the request, building
it, the scripted model), the chain and the tool. Measured as wall time and as the process's CPU time (all its
threads: the store's flusher too), because the machine is shared: a neighbour's burst stretches wall time, hardly
this process's CPU time.

Baseline: the first 100 calls of the same run (one-time imports are paid before it, by a short warm-up run and by
importing the store's engines, so they do not flatter the curve). Printed as a curve, the median per 100-call
bucket and its ratio to the first bucket, then the last/first ratio over rounds (min/median/max). Two
configurations: the defaults (context budget on), and the tool filter on (``[agent.tool_filter]``, against the
embeddings server on loopback), which asks what the conversation has called every round. Target of issue 45: last
100 within 1.2x of the first 100.
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
from bench.embedding_server import serve_embeddings
from zeph_nb.config import Settings

CALLS = 1000
BUCKET = 100
ROUNDS = 5  # the machine is shared: a neighbour's burst of a second or two lifts one bucket of one round
TARGET = 1.2
WARM_UP = 30

FILTER = """
[[llm.providers]]
name = "embed"
kind = "openai"
base_url = "{url}"
embedding_model = "hashing-512"

[agent.tool_filter]
enabled = true
provider = "embed"
"""


def _run(calls: int, extra_toml: str = "") -> tuple[list[float], list[float]]:
    """Seconds between consecutive model requests, one per tool call: (wall, process CPU)."""
    wall: list[float] = []
    cpu: list[float] = []

    def reply(_messages: Sequence[Any]) -> list[dict[str, Any]]:
        wall.append(time.perf_counter())
        cpu.append(time.process_time())
        return [{"tool": "time", "params": {"format": "epoch_ns"}}]

    turns: list[Callable[[Sequence[Any]], list[dict[str, Any]]]] = [reply] * calls
    with tempfile.TemporaryDirectory(prefix="zeph-longrun-") as tmp:
        home = Path(tmp)
        (home / "work").mkdir()
        settings = Settings.from_toml(f"[agent]\nmax_tool_iterations = {calls}\n{extra_toml}").model_copy(
            update={"home": home / "zeph", "user_home": home}
        )
        provider = zeph_nb.ScriptedProvider(turns)
        agent = zeph_nb.Agent(settings, provider, workdir=home / "work")
        result = asyncio.run(agent.run("What time is it? Ask again and again."))
        agent.store.close()  # its rows flushed before the home goes away
        # max_tool_iterations ends the run after the last call (it is at most 1,000): every call ran and passed.
        assert len(wall) == calls, (result.stop_reason, result.detail, len(wall))
        assert all(outcome.status == "ok" for outcome in result.tool_calls), result.tool_calls[-1]
    return [b - a for a, b in itertools.pairwise(wall)], [b - a for a, b in itertools.pairwise(cpu)]


def _ratio(gaps: list[float]) -> float:
    return statistics.median(gaps[-BUCKET:]) / statistics.median(gaps[:BUCKET])


def _curve(label: str, curves: list[list[float]], calls: int) -> None:
    print(f"  {label}: median ms per call in each bucket (x the run's first {BUCKET} calls)")
    print(f"  {'calls':>11}  " + "".join(f"{f'round {r + 1}':>20}" for r in range(len(curves))))
    for start in range(0, calls - 1, BUCKET):
        cells = []
        for gaps in curves:
            first = statistics.median(gaps[:BUCKET])
            here = statistics.median(gaps[start : start + BUCKET])
            cells.append(f"{here * 1000:11.2f} ({here / first:4.2f}x)")
        print(f"  {start + 1:>5}-{min(start + BUCKET, calls):<5}  " + "".join(cells))


def _summary(label: str, curves: list[list[float]]) -> str:
    ratios = sorted(map(_ratio, curves))
    verdict = "holds" if statistics.median(ratios) <= TARGET else "NOT met"
    return (
        f"  {label:<34} min {ratios[0]:.2f}x  median {statistics.median(ratios):.2f}x  max {ratios[-1]:.2f}x"
        f"   (target <= {TARGET}x: {verdict})"
    )


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    calls = int(args[0]) if args else CALLS
    rounds = int(args[1]) if len(args) > 1 else ROUNDS
    print(f"\n== a long run: time per tool call over {calls} calls (scripted model, `time`, whole chain, audit) ==")
    print(f"  baseline: the first {BUCKET} calls of the same run; {rounds} rounds, each a fresh home and agent")
    # Imports and first-use caches paid here, not by the first bucket: a short run, and the store's engines (a
    # new process imports pandas and DuckDB on a thread of its own, which competes with the first runs).
    import duckdb  # noqa: F401
    import pandas  # noqa: F401

    _run(WARM_UP)
    results: dict[str, tuple[list[list[float]], list[list[float]]]] = {}
    with serve_embeddings() as server:
        configurations = {"defaults": "", "tool filter on": FILTER.format(url=server.url)}
        _run(WARM_UP, configurations["tool filter on"])
        for _ in range(rounds):  # the configurations take turns, so a burst does not land on one of them only
            for label, toml in configurations.items():
                wall, cpu = _run(calls, toml)
                walls_cpus = results.setdefault(label, ([], []))
                walls_cpus[0].append(wall)
                walls_cpus[1].append(cpu)
    walls, cpus = results["defaults"]
    _curve("defaults, CPU time", cpus, calls)
    _curve("defaults, wall time", walls, calls)
    print(f"  last {BUCKET} / first {BUCKET} calls, over {rounds} rounds:")
    for label, (walls, cpus) in results.items():
        print(_summary(f"{label}, CPU time", cpus))
        print(_summary(f"{label}, wall time", walls))


if __name__ == "__main__":
    main()
