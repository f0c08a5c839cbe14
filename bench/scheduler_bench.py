"""The scheduler: what a task's run costs beyond the run itself, and how late a firing is.

Baseline in the same process: the same scripted run (one tool call, one reply) started directly with
``await agent.run``. A task's first firing builds the task's own agent (its gate chain and tools); later firings
reuse it with a new conversation. Lateness is the time from when a firing was due (the loop's clock) to when its
run started, on an idle loop and on a loop kept busy by another task's runs.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import zeph_nb
from zeph_nb.tools.scheduler import RunReport, ScheduledTask, Scheduler, tasks

RUNS = 20
TURNS = [[{"tool": "time", "params": {"format": "iso"}}], "done"]


def _agent(home: str) -> zeph_nb.Agent:
    settings = zeph_nb.Settings.from_toml("[scheduler]\nenabled = true\nmin_interval_secs = 0.05\nmax_tasks = 5\n")
    settings = settings.model_copy(update={"home": Path(home)})
    return zeph_nb.Agent(settings, zeph_nb.ScriptedProvider([]), zeph_nb.AutoApprove())


async def _direct(agent: zeph_nb.Agent) -> list[float]:
    took = []
    for _ in range(RUNS):
        agent.provider.turns = list(TURNS)  # type: ignore[attr-defined]
        agent.clear()
        start = time.perf_counter()
        await agent.run("what time is it?")
        took.append((time.perf_counter() - start) * 1000)
    return took


async def _scheduled(agent: zeph_nb.Agent) -> tuple[float, list[float]]:
    """(the first firing's ms, the later firings' ms), each from the run's start to its report."""
    from zeph_nb.agent.scheduled import launcher

    launch = launcher(agent)
    took = []
    task = ScheduledTask("b1", "what time is it?", "periodic", 1.0)
    for _ in range(RUNS + 1):
        agent.provider.turns = list(TURNS)  # type: ignore[attr-defined]
        start = time.perf_counter()
        await launch(task)
        took.append((time.perf_counter() - start) * 1000)
    return took[0], took[1:]


async def _lateness(busy: bool) -> list[float]:
    scheduler = Scheduler()
    late: list[float] = []
    due: dict[int, float] = {}
    loop = asyncio.get_running_loop()

    async def note(task: ScheduledTask) -> RunReport:
        late.append((loop.time() - due[task.runs]) * 1000)
        return RunReport("completed")

    async def spin(task: ScheduledTask) -> RunReport:  # another task whose runs hold the loop 20 ms at a time
        for _ in range(5):
            time.sleep(0.004)
            await asyncio.sleep(0)
        return RunReport("completed")

    if busy:
        scheduler.schedule("spin", spin, kind="periodic", interval_secs=0.03, min_interval_secs=0.01, max_tasks=5)
    start = loop.time()
    task = scheduler.schedule("note", note, kind="periodic", interval_secs=0.1, min_interval_secs=0.01, max_tasks=5,
                              max_runs=RUNS)  # fmt: skip
    for i in range(1, RUNS + 1):
        due[i] = start + 0.1 * i
    await task.wait(RUNS, timeout=60)
    scheduler.cancel_all()
    return late


def _median(samples: list[float]) -> float:
    return statistics.median(samples)


async def _main() -> None:
    with tempfile.TemporaryDirectory() as home:
        os.environ["ZEPH_HOME"] = home
        tasks._KERNEL = Scheduler()
        agent = _agent(home)
        direct = await _direct(agent)
        first, later = await _scheduled(agent)
        idle, busy = await _lateness(False), await _lateness(True)
        agent.store.close()
    base = _median(direct)
    rows: list[tuple[str, Any, Any]] = [
        ("direct agent.run (baseline)", f"{base:.1f}", "1.00"),
        ("a task's first firing (builds its agent)", f"{first:.1f}", f"{first / base:.2f}"),
        ("a task's later firings (median)", f"{_median(later):.1f}", f"{_median(later) / base:.2f}"),
    ]
    print("| run | ms | ratio to baseline |\n|---|---:|---:|")
    for row in rows:
        print(f"| {row[0]} | {row[1]} | {row[2]} |")
    print()
    print("| firing lateness, 20 firings every 100 ms | median ms | max ms |\n|---|---:|---:|")
    print(f"| idle loop | {_median(idle):.2f} | {max(idle):.2f} |")
    print(f"| loop busy with another task (20 ms slices) | {_median(busy):.2f} | {max(busy):.2f} |")


def main() -> None:
    asyncio.run(_main())


if __name__ == "__main__":
    main()
