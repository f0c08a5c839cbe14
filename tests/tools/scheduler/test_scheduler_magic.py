"""The scheduler in a real IPython InteractiveShell: a %%zeph cell schedules a deferred task, its run appears as a
transcript under the scheduling one, which stays live until the task has ended; ``%zeph jobs`` and ``%zeph cancel``."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from IPython.core.interactiveshell import InteractiveShell

import zeph_nb
from zeph_nb.notebook.magics import Run, ZephMagics
from zeph_nb.tools.scheduler import Scheduler, tasks

WAIT = 30.0


@pytest.fixture
def shell(isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[InteractiveShell, ZephMagics]]:
    (Path.cwd() / "zeph.toml").write_text("[scheduler]\nenabled = true\nmin_interval_secs = 0.2\n")
    monkeypatch.setattr(tasks, "_KERNEL", Scheduler())
    ip = InteractiveShell.instance()
    magics = ZephMagics(ip)
    ip.register_magics(magics)
    yield ip, magics
    tasks.kernel_scheduler().cancel_all()
    if magics.agent is not None:
        magics.agent.chain.store.close()


def say(ip: InteractiveShell, line: str, capsys: pytest.CaptureFixture[str]) -> str:
    ip.run_line_magic("zeph", line)
    return capsys.readouterr().out


def call(tool: str, **params: Any) -> list[dict[str, Any]]:
    return [{"tool": tool, "params": params}]


async def test_a_cell_schedules_a_run_that_shows_under_it_and_jobs_lists_it(
    shell: tuple[InteractiveShell, ZephMagics], capsys: pytest.CaptureFixture[str]
) -> None:
    ip, _ = shell
    hostile = "<img src=x onerror=alert(1)> report\x1b[2J"
    ip.user_ns["model"] = zeph_nb.ScriptedProvider([
        call("schedule_deferred", prompt=hostile, delay_secs=0.5),
        "Scheduled.",
        call("time", format="iso"),
        "Reported.",
    ])  # fmt: skip
    run = ip.run_cell_magic("zeph", "--provider model", "report later")
    assert isinstance(run, Run)
    # Scheduling asks by default: the buttons are the scheduling run's own.
    for _ in range(500):
        waiting = [c for c in run.transcript.cards.values() if c.buttons and not c.buttons["approve"].disabled]
        if waiting:
            break
        await asyncio.sleep(0.01)
    (card,) = waiting
    assert "&lt;img src=x onerror=alert(1)&gt;" in card.ask_box.children[0].value  # escaped, never markup
    card.buttons["approve"].click()
    result = await run
    assert result.text == "Scheduled."
    run._ipython_display_()  # what the notebook shows; the freeze waits for the task
    assert run.scheduled is not None and run.scheduled._settled  # still a live widget: its task's run is to come
    task = tasks.kernel_scheduler().tasks["t1"]
    listing = say(ip, "jobs", capsys)
    assert "t1  scheduled  once, after 0.5 s" in listing and "next " in listing
    # Kept without its control characters (a terminal escape), and listed as a quoted string.
    assert "'<img src=x onerror=alert(1)> report[2J'" in listing and "\x1b" not in listing
    report = await task.wait(1, timeout=WAIT)
    assert report.text == "Reported."
    # The firing's transcript is a child of the scheduling run's widget, with the task's prompt escaped.
    snapshot = run.transcript.snapshot()
    assert "scheduled task <b>t1</b>" in snapshot and "&lt;img src=x" in snapshot and "<img src=x" not in snapshot
    assert "Reported." in snapshot
    for _ in range(3000):  # the task ends just after its run's report: then the transcript is frozen
        if not run.scheduled._settled:
            break
        await asyncio.sleep(0.01)
    assert not run.scheduled._settled and task.state == "done"
    assert "t1  done" in say(ip, "jobs", capsys) and "last: completed" in say(ip, "jobs", capsys)


async def test_zeph_cancel_stops_a_periodic_task(
    shell: tuple[InteractiveShell, ZephMagics], capsys: pytest.CaptureFixture[str]
) -> None:
    ip, _ = shell
    ip.user_ns["model"] = zeph_nb.ScriptedProvider([call("schedule_periodic", prompt="poll", every_secs=600),
                                                    "Polling."])  # fmt: skip
    run = ip.run_cell_magic("zeph", "--provider model --approve auto", "poll every ten minutes")
    await run
    assert "t1  scheduled  every 600 s" in say(ip, "jobs", capsys)
    assert "cancelled task t1 (every 600 s) after 0 run(s): 'poll'" in say(ip, "cancel t1", capsys)
    assert "already cancelled" in say(ip, "cancel t1", capsys)
    assert "no task 't7'" in say(ip, "cancel t7", capsys)
    assert "name one task" in say(ip, "cancel", capsys)
    assert "t1  cancelled" in say(ip, "jobs", capsys)


async def test_a_scheduled_runs_ask_has_buttons_in_its_own_transcript(
    shell: tuple[InteractiveShell, ZephMagics],
) -> None:
    ip, _ = shell
    (Path.cwd() / "zeph.toml").write_text(
        '[scheduler]\nenabled = true\nmin_interval_secs = 0.2\n[gates.permissions]\n'
        'schedule_deferred = [{pattern = "*", action = "allow"}]\ntime = [{pattern = "*", action = "ask"}]\n'
    )  # fmt: skip
    ip.user_ns["model"] = zeph_nb.ScriptedProvider([
        call("schedule_deferred", prompt="what time is it?", delay_secs=0.2),
        "Scheduled.",
        call("time", format="iso"),
        "Read the clock.",
    ])  # fmt: skip
    run = ip.run_cell_magic("zeph", "--provider model", "later")
    await run
    assert run.scheduled is not None
    for _ in range(3000):
        shown = run.scheduled.runs
        waiting = [c for t in shown for c in t.cards.values() if c.buttons and not c.buttons["approve"].disabled]
        if waiting:
            break
        await asyncio.sleep(0.01)
    (card,) = waiting
    # Not in the scheduling run's own cards: a later cell's transcript is not where this ask waits either.
    assert not any(c.buttons and not c.buttons["approve"].disabled for c in run.transcript.cards.values())
    assert shown[0].widget in run.transcript.widget.children  # under the scheduling run's transcript
    card.buttons["approve"].click()
    report = await tasks.kernel_scheduler().tasks["t1"].wait(1, timeout=WAIT)
    assert report.text == "Read the clock." and "done" in card.title.value
