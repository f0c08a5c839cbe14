"""The kernel's scheduled tasks: timers on the event loop that start a new agent run with a prompt, later.

One ``Scheduler`` per kernel process (``kernel_scheduler()``): the limit ``[scheduler] max_tasks`` counts every task
alive in the kernel, whichever agent scheduled it. A task's timer is an asyncio task on the loop that was running
when it was scheduled (in a notebook, the kernel's); what happens when it fires is the ``Launch`` given with it
(``agent/scheduled.py`` makes one that starts a new run of an agent like the scheduling one). Nothing is written
to disk here: the tasks end with the kernel, unless the person keeps one (``%zeph jobs keep``, which writes it to
the store; a later kernel starts it again only when the person says ``%zeph jobs resume``).

A task never overlaps itself: a periodic firing while the previous run of the same task still goes is skipped and
counted (``skipped``), not queued, so a slow run cannot pile up runs behind it.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import itertools
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["FIRING", "Launch", "RunReport", "ScheduledTask", "Scheduler", "SchedulingRefused", "kernel_scheduler"]

# The id of the task whose run goes on in this context (set around a task's run): such a run schedules nothing.
FIRING: contextvars.ContextVar[str | None] = contextvars.ContextVar("zeph_scheduled_task", default=None)

# How many finished runs a task keeps (status and text), for %zeph jobs and for whoever awaits them.
KEPT_REPORTS = 20


@dataclass(frozen=True)
class RunReport:
    """How one run of a task ended: its stop reason (``completed``, ``cancelled``, ``error: …``) and its final text."""

    status: str
    text: str = ""
    conversation: str | None = None
    ended_at: float = field(default_factory=time.time)


# What a task does when it fires: start a run and report how it ended (raising is reported as an error).
Launch = Callable[["ScheduledTask"], Awaitable[RunReport]]


class SchedulingRefused(Exception):
    """A schedule the limits refuse; the message says which limit and what to do."""


@dataclass(eq=False)
class ScheduledTask:
    """One scheduled prompt: ``periodic`` (every ``interval_secs``, at most ``max_runs`` runs when given) or
    ``deferred`` (once, ``interval_secs`` after it was scheduled)."""

    id: str
    prompt: str
    kind: Literal["periodic", "deferred"]
    interval_secs: float
    max_runs: int | None = None
    scheduled_by: str | None = None  # the conversation that scheduled it
    project: str | None = None  # the canonical working directory of the agent that scheduled it
    kept_id: str | None = None  # the person kept it across kernels (%zeph jobs keep), or resumed it, as this id
    first_after: float | None = None  # seconds until its first firing, when not interval_secs (a resumed task)
    created_at: float = field(default_factory=time.time)
    next_at: float | None = None  # wall-clock time of the next firing; None when none is due
    runs: int = 0  # runs started
    finished: int = 0  # runs ended (their reports: the last KEPT_REPORTS)
    skipped: int = 0  # firings skipped because the previous run still went
    reports: list[RunReport] = field(default_factory=list)
    cancelled: bool = False
    over: bool = False  # its timer has ended (set before on_end is called, from within the timer)
    lost: bool = False  # its timer was cancelled by its event loop's end, not by cancel()
    timer: asyncio.Task[None] | None = field(default=None, repr=False)
    current: asyncio.Task[RunReport] | None = field(default=None, repr=False)
    # What stops the run in progress (the agent's stop), set by the launch while it runs.
    stop_run: Callable[[], object] | None = field(default=None, repr=False)
    # Called once when the task is no longer live (done or cancelled, its last run ended): the notebook freezes
    # the transcript that shows it.
    on_end: list[Callable[[ScheduledTask], None]] = field(default_factory=list, repr=False)
    _changed: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    @property
    def running(self) -> bool:
        return self.current is not None and not self.current.done()

    @property
    def state(self) -> str:
        """``cancelled``, ``running``, ``scheduled`` (a firing is due), ``lost`` (its event loop ended first: a
        script's ``asyncio.run``, ``agent.run_sync``), or ``done``."""
        if self.cancelled:
            return "cancelled"
        if self.lost:
            return "lost"
        if self.running:
            return "running"
        if not self.over and self.timer is not None and not self.timer.done():
            return "scheduled"
        return "done"

    @property
    def live(self) -> bool:
        return self.state in ("running", "scheduled")

    @property
    def last_status(self) -> str:
        return self.reports[-1].status if self.reports else ""

    @property
    def schedule(self) -> str:
        """The schedule in words: ``every 600 s`` (``, 3 runs at most``) or ``once, after 90 s``."""
        if self.kind == "periodic":
            most = f", {self.max_runs} runs at most" if self.max_runs else ""
            return f"every {self.interval_secs:g} s{most}"
        return f"once, after {self.interval_secs:g} s"

    async def wait(self, runs: int = 1, timeout: float | None = None) -> RunReport:
        """The latest report once ``runs`` runs of this task have finished (raises TimeoutError after ``timeout``
        seconds, and ``LookupError`` when the task ended without running that often)."""

        async def reached() -> RunReport:
            while self.finished < runs:
                if not self.live and not self.running:
                    raise LookupError(f"task {self.id} is {self.state} after {self.finished} run(s)")
                self._changed.clear()
                await self._changed.wait()
            return self.reports[-1]

        return await asyncio.wait_for(reached(), timeout)

    def _note(self) -> None:
        self._changed.set()


class Scheduler:
    """The tasks of one kernel, alive and ended (``%zeph jobs`` lists them all)."""

    def __init__(self) -> None:
        self.tasks: dict[str, ScheduledTask] = {}
        self._ids = itertools.count(1)

    def live(self) -> list[ScheduledTask]:
        return [task for task in self.tasks.values() if task.live]

    def schedule(
        self,
        prompt: str,
        launch: Launch,
        *,
        kind: Literal["periodic", "deferred"],
        interval_secs: float,
        min_interval_secs: float,
        max_tasks: int,
        max_runs: int | None = None,
        scheduled_by: str | None = None,
        project: str | None = None,
        kept_id: str | None = None,
        first_after: float | None = None,
    ) -> ScheduledTask:
        """A new task whose timer runs on the running event loop; ``SchedulingRefused`` when a limit says no.
        ``first_after`` (a task the person resumed) sets when it first fires: the rest of a kept deferred task's
        delay, or at once; the limits apply to ``interval_secs`` as ever."""
        what = "period" if kind == "periodic" else "delay"
        if interval_secs < min_interval_secs:
            raise SchedulingRefused(
                f"a {what} of {interval_secs:g} s is shorter than the minimum, {min_interval_secs:g} s "
                "([scheduler] min_interval_secs); choose a longer one"
            )
        alive = self.live()
        if len(alive) >= max_tasks:
            ids = ", ".join(task.id for task in alive)
            raise SchedulingRefused(
                f"{len(alive)} tasks are already scheduled in this kernel ({ids}), the most [scheduler] max_tasks "
                "allows; cancel one first (cancel_task, or the person's %zeph cancel ID)"
            )
        loop = asyncio.get_running_loop()
        task = ScheduledTask(f"t{next(self._ids)}", prompt, kind, interval_secs, max_runs=max_runs,
                             scheduled_by=scheduled_by, project=project, kept_id=kept_id,
                             first_after=first_after)  # fmt: skip
        task.next_at = task.created_at + (first_after if first_after is not None else interval_secs)
        self.tasks[task.id] = task
        task.timer = loop.create_task(self._drive(task, launch), name=f"zeph scheduled task {task.id}")
        return task

    def cancel(self, task_id: str, *, stop_run: bool = True) -> ScheduledTask | None:
        """Cancel the task: no more firings, and its run in progress is stopped (unless ``stop_run`` is false: the
        run itself cancels its task, and finishes). None when no task has that id."""
        task = self.tasks.get(task_id)
        if task is None:
            return None
        if task.live:
            task.cancelled = True
            task.next_at = None
            if task.timer is not None:
                task.timer.cancel()
            if task.running and stop_run:
                if task.stop_run is not None:
                    task.stop_run()  # the agent's own stop: a tool in progress is killed, the run ends "cancelled"
                else:
                    assert task.current is not None
                    task.current.cancel()
            task._note()
        return task

    def cancel_all(self) -> None:
        for task in list(self.tasks.values()):
            self.cancel(task.id)

    async def _drive(self, task: ScheduledTask, launch: Launch) -> None:
        loop = asyncio.get_running_loop()
        # The loop's clock: a changed wall clock moves no firing.
        due = loop.time() + (task.first_after if task.first_after is not None else task.interval_secs)
        try:
            while True:
                await asyncio.sleep(max(0.0, due - loop.time()))
                if task.running:
                    task.skipped += 1  # never two runs of one task at once
                else:
                    task.runs += 1
                    task.current = loop.create_task(self._fire(task, launch), name=f"zeph run of task {task.id}")
                if task.kind == "deferred" or (task.max_runs is not None and task.runs >= task.max_runs):
                    break
                due += task.interval_secs
                task.next_at = time.time() + max(0.0, due - loop.time())
            task.next_at = None
            if task.current is not None:
                with contextlib.suppress(BaseException):  # its outcome is in its report
                    await asyncio.shield(task.current)
        except asyncio.CancelledError:
            # Not by cancel(): the loop is closing (asyncio.run ends by cancelling what is left). In a notebook the
            # kernel's loop outlives every cell; a script's or run_sync's ends with the run that scheduled it.
            task.lost = not task.cancelled
            task.next_at = None
            if task.current is not None and not task.current.done():  # stopped by cancel(): let it end first
                with contextlib.suppress(BaseException):
                    await asyncio.wait({task.current}, timeout=30)
            raise
        finally:
            task.over = True
            task._note()
            for callback in task.on_end:
                with contextlib.suppress(Exception):  # a view that fails to redraw must not stop the others
                    callback(task)

    async def _fire(self, task: ScheduledTask, launch: Launch) -> RunReport:
        FIRING.set(task.id)  # this task's own context: the run it starts sees it
        try:
            report = await launch(task)
        except asyncio.CancelledError:
            task.finished += 1
            task.reports[:] = [*task.reports, RunReport("cancelled")][-KEPT_REPORTS:]
            task._note()
            raise
        except Exception as e:  # the launch's bug or a setting the run refused: a status, the scheduler goes on
            report = RunReport(f"error: {type(e).__name__}: {e}")
        finally:
            task.stop_run = None
        task.finished += 1
        task.reports[:] = [*task.reports, report][-KEPT_REPORTS:]
        task._note()
        return report


_KERNEL: Scheduler | None = None


def kernel_scheduler() -> Scheduler:
    """This process's scheduler (in a notebook: the kernel's)."""
    global _KERNEL
    if _KERNEL is None:
        _KERNEL = Scheduler()
    return _KERNEL
