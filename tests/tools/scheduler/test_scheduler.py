"""The scheduler tools with real parts: a real asyncio loop, real agents on the offline ScriptedProvider, the real
store's audit rows. Waiting is for events (a run's report), with a timeout; no test asserts a duration."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import zeph_nb
from zeph_nb.errors import ToolErrorCategory
from zeph_nb.gates.approval import AutoApprove
from zeph_nb.tools.scheduler import (
    CANCEL_TASK,
    SCHEDULE_DEFERRED,
    SCHEDULE_PERIODIC,
    RunReport,
    ScheduledTask,
    Scheduler,
    SchedulingRefused,
    tasks,
)

# A test-only minimum: the default (60 s) keeps a model from running the kernel every second.
FAST = "[scheduler]\nenabled = true\nmin_interval_secs = 0.2\nmax_tasks = 2\n"
WAIT = 30.0  # seconds an event may take on a busy machine before the test fails


@pytest.fixture
def kernel(isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Scheduler]:
    """A fresh kernel scheduler; every task it holds is cancelled afterwards (none outlives its test)."""
    fresh = Scheduler()
    monkeypatch.setattr(tasks, "_KERNEL", fresh)
    yield fresh
    fresh.cancel_all()


def agent(turns: list[Any], *, toml: str = FAST, approver: Any = None) -> zeph_nb.Agent:
    settings = zeph_nb.Settings.from_toml(toml)
    return zeph_nb.Agent(settings, zeph_nb.ScriptedProvider(turns), approver=approver or AutoApprove())


def call(tool: str, **params: Any) -> list[dict[str, Any]]:
    return [{"tool": tool, "params": params}]


def test_the_tools_are_never_cached_and_scheduling_asks_by_default() -> None:
    for tool in (SCHEDULE_PERIODIC, SCHEDULE_DEFERRED, CANCEL_TASK):
        assert not tool.cacheable and tool.mutates  # mutates: out of the result cache and the retry gate
    from zeph_nb.tools.base import ToolCall
    from zeph_nb.tools.scheduler import SchedulerExecutor

    executor = SchedulerExecutor(zeph_nb.Settings(), lambda: _never)
    assert executor.requires_confirmation(ToolCall("schedule_periodic", {}))
    assert executor.requires_confirmation(ToolCall("schedule_deferred", {}))
    assert not executor.requires_confirmation(ToolCall("cancel_task", {}))


async def _never(task: ScheduledTask) -> RunReport:
    raise AssertionError("not fired")


def test_off_by_default_and_offered_when_enabled(kernel: Scheduler) -> None:
    def offered(toml: str) -> set[str]:
        made = agent(["ok"], toml=toml)
        names = {tool.name for tool in made.describe_tools().visible}
        made.store.close()
        return names & {"schedule_periodic", "schedule_deferred", "cancel_task"}

    assert offered("") == set()
    assert offered(FAST) == {"schedule_periodic", "schedule_deferred", "cancel_task"}


async def test_a_deferred_task_fires_a_new_run_and_both_runs_are_audited(kernel: Scheduler) -> None:
    scheduler = agent([
        call("schedule_deferred", prompt="What time is it? <b>now</b>", delay_secs=0.5),
        "Scheduled.",
        call("time", format="iso"),  # the scheduled run's turns
        "It is late.",
    ])  # fmt: skip
    result = await scheduler.run("check the time in a moment")
    assert result.stop_reason == "completed" and result.tool_calls[0].status == "ok"
    (task,) = kernel.tasks.values()
    assert task.kind == "deferred" and task.prompt == "What time is it? <b>now</b>"
    assert task.scheduled_by == scheduler.conversation_id
    report = await task.wait(1, timeout=WAIT)
    assert report.status == "completed" and report.text == "It is late."
    assert task.state == "done" and task.runs == 1 and task.next_at is None
    assert report.conversation and report.conversation != scheduler.conversation_id  # a new conversation
    scheduler.store.flush()
    parent = zeph_nb.audit.frame(conversation=scheduler.conversation_id)
    child = zeph_nb.audit.frame(conversation=report.conversation)
    assert list(parent["tool"]) == ["schedule_deferred"] and list(parent["status"]) == ["ok"]
    assert list(child["tool"]) == ["time"] and list(child["status"]) == ["ok"]


async def test_scheduling_asks_and_a_headless_deny_schedules_nothing(kernel: Scheduler) -> None:
    denied = agent([call("schedule_periodic", prompt="ping", every_secs=1), "Could not."],
                   approver=zeph_nb.DenyAll())  # fmt: skip
    result = await denied.run("ping every second")
    assert result.tool_calls[0].category == ToolErrorCategory.CONFIRMATION_REQUIRED
    assert result.tool_calls[0].decision == "ask"
    assert kernel.tasks == {}


async def test_the_limits_refuse_with_a_reason(kernel: Scheduler) -> None:
    run = agent([
        call("schedule_periodic", prompt="too often", every_secs=0.01),
        call("schedule_periodic", prompt="one", every_secs=60),
        call("schedule_deferred", prompt="two", delay_secs=60),
        call("schedule_deferred", prompt="three", delay_secs=60),
        "Done.",
    ])  # fmt: skip
    result = await run.run("schedule things")
    errors = [c.text for c in result.tool_calls]
    assert "shorter than the minimum, 0.2 s ([scheduler] min_interval_secs)" in errors[0]
    assert [c.status for c in result.tool_calls[1:3]] == ["ok", "ok"]
    assert "2 tasks are already scheduled in this kernel (t1, t2)" in errors[3] and "max_tasks" in errors[3]
    assert sorted(t.prompt for t in kernel.live()) == ["one", "two"]


async def test_a_scheduled_run_may_cancel_but_not_schedule(kernel: Scheduler) -> None:
    run = agent([
        call("schedule_periodic", prompt="watch", every_secs=0.3),
        "Watching.",
        # the first scheduled run: tries to breed a task, then cancels its own
        call("schedule_deferred", prompt="more", delay_secs=1),
        call("cancel_task", task_id="t1"),
        "Stopped watching.",
    ])  # fmt: skip
    await run.run("watch it")
    task = kernel.tasks["t1"]
    report = await task.wait(1, timeout=WAIT)
    assert task.state == "cancelled" and list(kernel.tasks) == ["t1"]
    assert report.status == "completed" and report.text == "Stopped watching."  # its own run goes on to its end
    run.store.flush()
    rows = zeph_nb.audit.frame(conversation=report.conversation)
    by_tool = dict(zip(rows["tool"], rows["error_category"], strict=True))
    assert by_tool["schedule_deferred"] == "policy_blocked"


async def test_a_firing_while_the_last_run_goes_is_skipped_and_counted() -> None:
    scheduler = Scheduler()
    release = asyncio.Event()
    started: list[int] = []

    async def slow(task: ScheduledTask) -> RunReport:
        started.append(task.runs)
        await release.wait()
        return RunReport("completed", f"run {task.runs}")

    task = scheduler.schedule("slow", slow, kind="periodic", interval_secs=0.05, min_interval_secs=0.01,
                              max_tasks=1)  # fmt: skip
    while task.skipped < 3:  # the first run holds; later firings find it still going
        await asyncio.sleep(0.05)
    assert started == [1] and task.runs == 1 and task.state == "running"
    release.set()
    report = await task.wait(1, timeout=WAIT)
    assert report.text == "run 1"
    scheduler.cancel(task.id)
    assert task.state == "cancelled" and not task.live


async def test_cancel_stops_the_run_in_progress_and_frees_a_place() -> None:
    scheduler = Scheduler()
    stopped = asyncio.Event()

    async def hang(task: ScheduledTask) -> RunReport:
        task.stop_run = stopped.set
        await stopped.wait()
        return RunReport("cancelled")

    task = scheduler.schedule("hang", hang, kind="deferred", interval_secs=0.05, min_interval_secs=0.01,
                              max_tasks=1)  # fmt: skip
    with pytest.raises(SchedulingRefused, match="max_tasks"):
        scheduler.schedule("another", hang, kind="deferred", interval_secs=1, min_interval_secs=0.01, max_tasks=1)
    while not task.running:
        await asyncio.sleep(0.02)
    assert scheduler.cancel(task.id) is task and stopped.is_set()
    report = await task.wait(1, timeout=WAIT)
    assert report.status == "cancelled" and task.state == "cancelled"
    again = scheduler.schedule("another", hang, kind="deferred", interval_secs=60, min_interval_secs=0.01,
                               max_tasks=1)  # fmt: skip
    assert again.id == "t2"
    scheduler.cancel(again.id)
    assert scheduler.cancel("t9") is None


def test_run_sync_refuses_to_schedule_and_a_task_whose_loop_ends_is_lost(kernel: Scheduler) -> None:
    # run_sync runs on a loop of its own that ends with the run: a task scheduled there could never fire.
    run = agent([call("schedule_deferred", prompt="later", delay_secs=60), "Could not."])
    refused = run.run_sync("later, please").tool_calls[0]
    assert refused.category == ToolErrorCategory.POLICY_BLOCKED and "run_sync" in refused.text
    assert kernel.tasks == {} and not run.loop_ends_with_run

    # A script's own asyncio.run ends the same way, unseen: the task says "lost", not "done" after 0 runs.
    async def script() -> None:
        await run.run("later, please")

    run.provider.turns = [call("schedule_deferred", prompt="later", delay_secs=60), "Scheduled."]  # type: ignore[attr-defined]
    asyncio.run(script())
    task = kernel.tasks["t1"]
    assert task.state == "lost" and not task.live and task.runs == 0 and task.next_at is None


@pytest.mark.parametrize("key", ["tick_interval_secs = 60", "daemon = {}", "tasks = []"])
def test_the_seed_keys_that_do_not_apply_are_refused_with_why(key: str) -> None:
    from zeph_nb.errors import ConfigError

    with pytest.raises(ConfigError, match=r"\[scheduler\] \w+ does not apply to zeph-nb: .+; remove it"):
        zeph_nb.Settings.from_toml(f"[scheduler]\n{key}\n")


async def test_a_rule_of_the_person_lets_scheduling_run_without_asking(kernel: Scheduler) -> None:
    allow = FAST + '[gates.permissions]\nschedule_deferred = [{pattern = "*", action = "allow"}]\n'
    run = agent([call("schedule_deferred", prompt="later", delay_secs=60), "Scheduled."], toml=allow,
                approver=zeph_nb.DenyAll())  # fmt: skip
    scheduled = (await run.run("later, please")).tool_calls[0]
    assert scheduled.status == "ok" and scheduled.decision == "allow"
    assert [task.prompt for task in kernel.live()] == ["later"]


class Nobody:
    """The person is away (a task firing at 3 am): an ask is never answered."""

    async def decide(self, request: Any) -> Any:
        await asyncio.Event().wait()


async def test_an_ask_of_a_scheduled_run_nobody_answers_is_denied_after_the_timeout(kernel: Scheduler) -> None:
    toml = FAST + ('[gates.approval]\ntimeout_secs = 0.3\n[gates.permissions]\n'
                   'schedule_deferred = [{pattern = "*", action = "allow"}]\n'
                   'time = [{pattern = "*", action = "ask"}]\n')  # fmt: skip
    run = agent([
        call("schedule_deferred", prompt="what time is it?", delay_secs=0.2),
        "Scheduled.",
        call("time"),  # the scheduled run: asks, and nobody is there
        "Nobody approved reading the clock.",
    ], toml=toml, approver=Nobody())  # fmt: skip
    await run.run("later")
    report = await kernel.tasks["t1"].wait(1, timeout=WAIT)
    assert report.status == "completed" and report.text == "Nobody approved reading the clock."
    run.store.flush()
    rows = zeph_nb.audit.frame(conversation=report.conversation)
    assert list(rows["tool"]) == ["time"] and list(rows["approved_by"]) == ["timeout"]
    assert list(rows["decision"]) == ["ask"] and list(rows["status"]) == ["denied"]
