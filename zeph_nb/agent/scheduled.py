"""What a scheduled task does when it fires: a new run of an agent like the one whose run scheduled it.

Same settings, provider, working directory, store and tools (a person's functions, the kernel tools), and the
approver that run had when it scheduled the task: an ask goes where that run's asks went. Nobody may be watching
when a task fires (3 am): an ask then waits ``[gates.approval] timeout_secs`` and is denied, and the model reads
the denial, like any other. Each firing is a new conversation (the task's own agent is cleared before it), so one
run's history never steers the next; its audit rows carry that conversation's id.

The notebook sets ``Agent.scheduled_view`` to show each firing in its own transcript, under the cell that scheduled
the task, with its own approval buttons (``RunView``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from zeph_nb.tools.scheduler import Launch, RunReport, ScheduledTask, SchedulerExecutor

if TYPE_CHECKING:
    from zeph_nb.agent.events import AgentEvent
    from zeph_nb.config import Settings
    from zeph_nb.gates.approval import Approver
    from zeph_nb.tools.base import ToolExecutor

__all__ = ["RunView", "Viewer", "launcher", "scheduler_tools"]


@dataclass
class RunView:
    """Where one firing's run is shown: its events, and (for buttons in its own transcript) the approver it asks."""

    on_event: Callable[[AgentEvent], None] | None = None
    approver: Approver | None = None
    ended: Callable[[RunReport], None] | None = None


# Made for each firing of a task; the notebook's puts a new transcript under the scheduling cell.
Viewer = Callable[[ScheduledTask], RunView]


class Scheduling(Protocol):
    """What of the ``Agent`` a launch reads (named here, not imported: the agent's module imports this one)."""

    settings: Settings
    provider: Any
    workdir: Any
    given_tools: tuple[Any, ...]
    given_executor: Any
    scheduled_view: Viewer | None

    @property
    def approver(self) -> Approver: ...

    @property
    def store(self) -> Any: ...

    @property
    def conversation_id(self) -> str: ...


def scheduler_tools(agent: Scheduling) -> list[ToolExecutor]:
    """The scheduler tools for ``agent`` when ``[scheduler] enabled``, else none."""
    if not agent.settings.scheduler.enabled:
        return []

    def adopt(task: ScheduledTask) -> None:
        view: Any = agent.scheduled_view
        if hasattr(view, "adopt"):  # the notebook's: shows the task under the run that scheduled it
            view.adopt(task)

    def transient() -> str | None:
        if getattr(agent, "loop_ends_with_run", False):
            return ("this run was started with run_sync, whose event loop ends with the run, so the task could never "
                    "fire; tell the person to schedule from a notebook's %%zeph cell (or await agent.run(...) on a "
                    "loop that lives on)")  # fmt: skip
        return None

    def project() -> str:
        return str(os.path.realpath(agent.workdir))

    return [SchedulerExecutor(agent.settings, lambda: launcher(agent), conversation=lambda: agent.conversation_id,
                              on_scheduled=adopt, transient=transient, project=project)]  # fmt: skip


def launcher(agent: Scheduling) -> Launch:
    """What a task scheduled now does when it fires, fixed now: the approver and the view are the current run's."""
    approver = agent.approver
    view: Viewer | None = agent.scheduled_view
    made: list[Any] = []  # the task's own agent (of the scheduling agent's class), built at its first firing

    async def launch(task: ScheduledTask) -> RunReport:
        shown = view(task) if view is not None else RunView()
        if not made:
            make: Any = type(agent)
            made.append(make(agent.settings, agent.provider, shown.approver or approver, agent.workdir,
                             store=agent.store, executor=agent.given_executor,
                             tools=agent.given_tools))  # fmt: skip
        else:
            made[0].clear()  # a new conversation for each run
            made[0].approver = shown.approver or approver
        runner = made[0]
        task.stop_run = runner.stop
        try:
            result: Any = await runner.run(task.prompt, on_event=shown.on_event)
        except Exception as e:
            report = RunReport(f"error: {type(e).__name__}: {e}", conversation=runner.conversation_id)
        else:
            report = RunReport(result.stop_reason, result.text or "", runner.conversation_id)
        if shown.ended is not None:
            shown.ended(report)
        return report

    return launch
