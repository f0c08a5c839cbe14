"""Scheduled tasks in a notebook: each firing's transcript under the cell that scheduled the task, ``%zeph jobs``'
table of tasks and ``%zeph cancel ID``.

A firing happens while the kernel is idle or busy with another cell, long after the scheduling cell returned. Output
printed then lands in no cell that shows it (JupyterLab drops output for a finished request), so each firing's
transcript is a widget added to the scheduling run's own transcript widget, which stays live until its tasks have
ended; then it is frozen into static HTML as any run's is (``Run``). A firing's asks get buttons in its own
transcript (a ``WidgetApprover`` of its own); with no one at the page, ``[gates.approval] timeout_secs`` denies
them.

Everything the model wrote (the prompt) is shown as text: escaped in HTML, ``repr``-quoted on the console.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from zeph_nb.agent.scheduled import RunView
from zeph_nb.output.sanitize import visible
from zeph_nb.security.secrets import redact
from zeph_nb.tools.scheduler import RunReport, ScheduledTask, kernel_scheduler

if TYPE_CHECKING:
    from zeph_nb.agent.loop import Agent
    from zeph_nb.notebook.transcript import Transcript


class Shows(Protocol):
    """Where a ``ScheduledView`` adds its lines and its tasks' transcripts: a run's transcript, or the widget
    ``%zeph jobs resume`` shows."""

    @property
    def widget(self) -> Any: ...


__all__ = ["ScheduledView", "cancel_command", "describe_tasks", "shown_prompt"]

PROMPT_SHOWN = 60


def shown_prompt(prompt: str, width: int | None = PROMPT_SHOWN) -> str:
    """The prompt on one line of a console: redacted, its control characters escaped (``repr``), cut at ``width``
    (None: whole)."""
    text = redact(prompt)
    text = text if width is None or len(text) <= width else text[: width - 3] + "..."
    return repr(text)


def describe_tasks() -> list[str]:
    """``%zeph jobs``' lines for the kernel's scheduled tasks (none: an empty list)."""
    tasks = list(kernel_scheduler().tasks.values())
    if not tasks:
        return []
    lines = ["scheduled tasks (they end with the kernel unless kept: %zeph jobs keep ID; %zeph cancel ID stops one):"]
    for task in tasks:
        when = f"next {_clock(task.next_at)}" if task.next_at is not None and task.live else "next -"
        skipped = f" ({task.skipped} skipped)" if task.skipped else ""
        last = redact(task.last_status) or "-"
        kept = f"  kept as {task.kept_id}" if task.kept_id else ""
        lines.append(f"{task.id:>4}  {task.state:<9}  {task.schedule:<26}  {when:<13}  runs {task.runs}{skipped}  "
                     f"last: {last:<10}  {shown_prompt(task.prompt)}{kept}")  # fmt: skip
    return lines


def cancel_command(args: list[str]) -> str:
    """``%zeph cancel ID``: what happened, in one line."""
    scheduler = kernel_scheduler()
    if len(args) != 1:
        known = ", ".join(task.id for task in scheduler.live()) or "none is live"
        return f"%zeph cancel ID: name one task (live: {known}); %zeph jobs lists them"
    task = scheduler.tasks.get(args[0])
    if task is None:
        return f"no task {args[0]!r} in this kernel; %zeph jobs lists them"
    if not task.live:
        return f"task {task.id} is already {task.state}"
    scheduler.cancel(task.id)
    return f"cancelled task {task.id} ({task.schedule}) after {task.runs} run(s): {shown_prompt(task.prompt)}"


class ScheduledView:
    """The notebook's ``Agent.scheduled_view`` for one ``%%zeph`` run: the tasks it schedules show their runs under
    its transcript. ``approve_here`` makes, for a firing's transcript, an approver whose buttons are there (None:
    the scheduling run's approver answers)."""

    def __init__(self, transcript: Shows, *, model: str, approve_here: Callable[[Transcript], Any] | None,
                 idle_timeout: float | None) -> None:  # fmt: skip
        self.transcript = transcript
        self.model = model
        self.approve_here = approve_here
        self.idle_timeout = idle_timeout
        self.tasks: list[ScheduledTask] = []
        self.runs: list[Transcript] = []  # each firing's transcript, in order
        self._settled: list[Callable[[], None]] = []

    @classmethod
    def for_agent(cls, transcript: Shows, agent: Agent, *, buttons: bool) -> ScheduledView:
        """The view for ``agent``'s runs under ``transcript``. ``buttons``: the session asks with buttons, so each
        firing's asks get buttons in its own transcript (else the agent's approver answers them)."""
        from zeph_nb.notebook.views import model_name

        approve_here = None
        if buttons:
            from zeph_nb.notebook.approver import WidgetApprover

            def approve_here(shown: Transcript) -> WidgetApprover:
                approver = WidgetApprover(agent.settings.user)
                approver.transcript = shown
                return approver

        return cls(transcript, model=model_name(agent), approve_here=approve_here,
                   idle_timeout=agent.settings.llm.idle_timeout_secs)  # fmt: skip

    # -- what Run reads: hold the transcript live while its tasks are --------------------------------------------

    def live(self) -> bool:
        return any(task.live or task.running for task in self.tasks)

    def when_settled(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` once every task adopted has ended (the run's freeze waits for that)."""
        self._settled.append(callback)

    # -- what the scheduler calls ---------------------------------------------------------------------------------

    def adopt(self, task: ScheduledTask) -> None:
        """``task`` was scheduled by this run: say so under its transcript; freeze it once the task has ended."""
        import ipywidgets as w

        self.tasks.append(task)
        line = (f'<div class="zeph-extra">&#9201; scheduled task <b>{html.escape(task.id)}</b>, '
                f"{html.escape(task.schedule)}: <code>{html.escape(visible(redact(task.prompt)))}</code> &mdash; "
                "its runs appear below; %zeph jobs lists it, %zeph cancel "
                f"{html.escape(task.id)} stops it</div>")  # fmt: skip
        self.transcript.widget.children = (*self.transcript.widget.children, w.HTML(line))
        task.on_end.append(self._ended)

    def __call__(self, task: ScheduledTask) -> RunView:
        """A firing of ``task``: a new transcript under the scheduling one, its asks answered there."""
        import asyncio

        from zeph_nb.notebook.transcript import Transcript

        def stop() -> None:
            if task.stop_run is not None:
                task.stop_run()

        shown = Transcript(f"[{task.id}, run {task.runs}] {task.prompt}", on_stop=stop, model=self.model,
                           idle_timeout=self.idle_timeout)  # fmt: skip
        self.transcript.widget.children = (*self.transcript.widget.children, shown.widget)
        self.runs.append(shown)
        shown.start_clock(asyncio.get_running_loop())

        def ended(report: RunReport) -> None:
            shown.stop_clock()

        approver = self.approve_here(shown) if self.approve_here is not None else None
        return RunView(on_event=shown.handle, approver=approver, ended=ended)

    def _ended(self, task: ScheduledTask) -> None:
        if self.live():
            return
        callbacks, self._settled = self._settled, []
        for callback in callbacks:
            callback()


def _clock(when: float | None) -> str:
    import time

    return time.strftime("%H:%M:%S", time.localtime(when)) if when is not None else "-"
