"""``schedule_periodic``, ``schedule_deferred`` and ``cancel_task``: the model asks for a new agent run later.

What the model schedules is a prompt, written by a model that may have read something hostile: scheduling asks
the person by default (``requires_confirmation``; a rule can allow it), the prompt is shown as text wherever it is
shown, and each run it starts goes through the same gates, policy and approver as the run that scheduled it. A run
a task started may cancel tasks but schedule none: one approved task cannot breed others. ``cancel_task`` does not
ask: stopping a task only ever does less.

None of the three is cacheable (``ToolDef.cacheable`` is false, and ``mutates`` keeps them out of the cache and of
the retry gate): each call changes the kernel's set of tasks.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from typing import Any, Literal

from pydantic import Field

from zeph_nb.config import Settings
from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.tools.base import BuiltinArgs, ToolCall, ToolDef, ToolOutput, checked_args
from zeph_nb.tools.scheduler.tasks import (
    FIRING,
    Launch,
    ScheduledTask,
    Scheduler,
    SchedulingRefused,
    kernel_scheduler,
)

__all__ = ["CANCEL_TASK", "SCHEDULE_DEFERRED", "SCHEDULE_PERIODIC", "SchedulerExecutor", "describe"]

MAX_PROMPT = 4000
# Control characters (but tab and newline) leave a prompt before it is kept, as the seed's sanitize_task_prompt
# does: terminal escapes in %zeph jobs, NULs in the audit row, invisible text in the next run's request.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class SchedulePeriodicArgs(BuiltinArgs):
    prompt: str = Field(
        min_length=1, max_length=MAX_PROMPT,
        description="the request each run starts with, complete by itself: each run is a new conversation",
    )  # fmt: skip
    every_secs: float = Field(gt=0, description="seconds between runs (the settings set a minimum)")
    max_runs: int | None = Field(None, ge=1, description="stop after this many runs (default: until cancelled)")


class ScheduleDeferredArgs(BuiltinArgs):
    prompt: str = Field(
        min_length=1, max_length=MAX_PROMPT,
        description="the request the run starts with, complete by itself: the run is a new conversation",
    )  # fmt: skip
    delay_secs: float = Field(gt=0, description="seconds from now until the run (the settings set a minimum)")


class CancelTaskArgs(BuiltinArgs):
    task_id: str = Field(min_length=1, max_length=20, description="the task's id, as scheduling it said (t1, t2, ...)")


def _why(kind: str) -> Callable[[Sequence[str]], str]:
    def explain(subjects: Sequence[str]) -> str:
        return (f"the model asks for a new agent run {kind}, outside any cell, with the prompt below; it runs with "
                "this session's settings and rules, and asks you as this run does (unanswered asks are denied after "
                "[gates.approval] timeout_secs). %zeph jobs lists it, %zeph cancel ID stops it")  # fmt: skip

    return explain


SCHEDULE_PERIODIC = ToolDef(
    "schedule_periodic",
    "Start a new agent run with this prompt every every_secs seconds, in the background of this kernel, until "
    "cancelled (cancel_task) or max_runs runs; e.g. check a training run every ten minutes. Each run is a new "
    "conversation with the same tools and rules; a run still going when the next is due makes that one skipped. "
    "Returns the task's id. Tasks end with the kernel. Asks the person first.",
    SchedulePeriodicArgs,
    subject=("prompt",),
    mutates=True,
    verb="This will schedule runs with the prompt:",
    explain=_why("periodically"),
    utility=0.4,
)
SCHEDULE_DEFERRED = ToolDef(
    "schedule_deferred",
    "Start a new agent run with this prompt once, delay_secs seconds from now, in the background of this kernel "
    "(a new conversation with the same tools and rules). Returns the task's id; cancel_task cancels it. Asks the "
    "person first.",
    ScheduleDeferredArgs,
    subject=("prompt",),
    mutates=True,
    verb="This will schedule a run with the prompt:",
    explain=_why("later"),
    utility=0.4,
)
CANCEL_TASK = ToolDef(
    "cancel_task",
    "Cancel a task scheduled with schedule_periodic or schedule_deferred: no more runs, and its run in progress "
    "is stopped.",
    CancelTaskArgs,
    subject=("task_id",),
    mutates=True,
    utility=0.3,
)


class SchedulerExecutor:
    """The three scheduler tools over the kernel's ``Scheduler``. ``launch`` makes, when a task is scheduled, what
    its firings do (the agent gives one that starts a run like the current one); ``conversation`` names the
    scheduling conversation; ``on_scheduled`` hears of each new task (the notebook shows it under the run);
    ``transient`` says why the running event loop ends with the run (``run_sync``), when it does: scheduling is then
    refused, for the task could never fire; ``project`` names the scheduling agent's folder."""

    def __init__(
        self,
        settings: Settings,
        launch: Callable[[], Launch],
        *,
        scheduler: Scheduler | None = None,
        conversation: Callable[[], str | None] | None = None,
        on_scheduled: Callable[[ScheduledTask], None] | None = None,
        transient: Callable[[], str | None] | None = None,
        project: Callable[[], str | None] | None = None,
    ) -> None:
        self.settings = settings
        self.launch = launch
        self.scheduler = scheduler if scheduler is not None else kernel_scheduler()
        self.conversation = conversation
        self.on_scheduled = on_scheduled
        self.transient = transient  # why the running loop will not outlive this run, when it will not
        self.project = project  # the scheduling agent's folder, which a kept task is kept under

    def tool_definitions(self) -> Sequence[ToolDef]:
        return (SCHEDULE_PERIODIC, SCHEDULE_DEFERRED, CANCEL_TASK)

    def requires_confirmation(self, call: ToolCall) -> bool:
        return call.tool_id in (SCHEDULE_PERIODIC.name, SCHEDULE_DEFERRED.name)

    async def execute(self, call: ToolCall) -> ToolOutput | None:
        if call.tool_id == SCHEDULE_PERIODIC.name:
            periodic: Any = checked_args(SCHEDULE_PERIODIC, call)
            return self._schedule(call, periodic.prompt, "periodic", periodic.every_secs, periodic.max_runs)
        if call.tool_id == SCHEDULE_DEFERRED.name:
            deferred: Any = checked_args(SCHEDULE_DEFERRED, call)
            return self._schedule(call, deferred.prompt, "deferred", deferred.delay_secs, None)
        if call.tool_id == CANCEL_TASK.name:
            cancel: Any = checked_args(CANCEL_TASK, call)
            return self._cancel(call, cancel.task_id)
        return None

    def _schedule(self, call: ToolCall, prompt: str, kind: Literal["periodic", "deferred"], interval: float,
                  max_runs: int | None) -> ToolOutput:  # fmt: skip
        firing = FIRING.get()
        if firing is not None:
            raise ToolError(ToolErrorCategory.POLICY_BLOCKED,
                            f"{call.tool_id}: this run was started by scheduled task {firing}, and a scheduled run "
                            "schedules no further tasks; only a run the person started can")  # fmt: skip
        why = self.transient() if self.transient is not None else None
        if why is not None:
            raise ToolError(ToolErrorCategory.POLICY_BLOCKED, f"{call.tool_id}: {why}")
        config = self.settings.scheduler
        prompt = _CONTROL.sub("", prompt)
        if not prompt.strip():
            raise ToolError(ToolErrorCategory.INVALID_PARAMETERS, f"{call.tool_id}: the prompt is empty")
        try:
            task = self.scheduler.schedule(
                prompt, self.launch(), kind=kind, interval_secs=interval, max_runs=max_runs,
                min_interval_secs=config.min_interval_secs, max_tasks=config.max_tasks,
                scheduled_by=self.conversation() if self.conversation is not None else None,
                project=self.project() if self.project is not None else None,
            )  # fmt: skip
        except SchedulingRefused as e:
            raise ToolError(ToolErrorCategory.POLICY_BLOCKED, f"{call.tool_id}: {e}") from None
        if self.on_scheduled is not None:
            self.on_scheduled(task)
        first = _clock(task.next_at)
        text = (f"scheduled task {task.id}: {task.schedule}; first run at {first} (local time). Each run is a new "
                "agent run with the prompt; the person sees it in %zeph jobs. Cancel it with "
                f"cancel_task(task_id='{task.id}'). It ends with the kernel.")  # fmt: skip
        return ToolOutput(call.tool_id, text, raw=describe(task), call_id=call.call_id)

    def _cancel(self, call: ToolCall, task_id: str) -> ToolOutput:
        task = self.scheduler.tasks.get(task_id)
        if task is None:
            known = ", ".join(self.scheduler.tasks) or "none"
            raise ToolError(ToolErrorCategory.INVALID_PARAMETERS,
                            f"cancel_task: no task {task_id!r} in this kernel (tasks: {known})")  # fmt: skip
        was = task.state
        self.scheduler.cancel(task_id, stop_run=FIRING.get() != task_id)  # its own run ends as it chooses
        said = (f"task {task_id} was already {was}; nothing to cancel" if was in ("done", "cancelled")
                else f"cancelled task {task_id} ({task.schedule}) after {task.runs} run(s)")  # fmt: skip
        return ToolOutput(call.tool_id, said, raw=describe(task), call_id=call.call_id)


def describe(task: ScheduledTask) -> dict[str, Any]:
    """A task as the audit row's raw output and ``%zeph jobs`` read it."""
    return {
        "id": task.id,
        "kind": task.kind,
        "schedule": task.schedule,
        "interval_secs": task.interval_secs,
        "max_runs": task.max_runs,
        "state": task.state,
        "next_at": _clock(task.next_at) if task.next_at is not None else None,
        "runs": task.runs,
        "skipped": task.skipped,
        "last_status": task.last_status,
    }


def _clock(when: float | None) -> str:
    return time.strftime("%H:%M:%S", time.localtime(when)) if when is not None else "-"
