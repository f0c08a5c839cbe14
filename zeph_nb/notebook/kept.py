"""``%zeph jobs keep | resume | forget``: scheduled tasks the person keeps across kernels.

A task the model scheduled ends with the kernel. The person may keep one (``%zeph jobs keep t1``): its schedule is
written to the store (``store/kept_tasks.py``). In a later kernel nothing starts by itself: ``%zeph jobs`` lists
the kept tasks of this user and project folder as "kept, not running", and one runs again only when the person
says ``%zeph jobs resume ID``, under that kernel's settings, rules and approver, as if its model had scheduled it
then. ``%zeph jobs forget ID`` drops it. No tool does any of this: a model cannot keep what it scheduled.

A kept deferred task whose time passed while no kernel ran is not run by ``resume`` alone: it says when the task
was due and waits for ``resume ID --now``. The prompt was written for that time ("check whether the 3 am run
finished"), and a magic cannot ask a question a notebook run top to bottom (nbclient, papermill) could answer;
a second word the person types can. Once its one run has started, a deferred task is forgotten.

The prompt is text a model wrote: listed ``repr``-quoted and redacted, shown escaped in HTML.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import os
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, NoReturn

from zeph_nb.errors import ZephError
from zeph_nb.notebook.scheduled import ScheduledView, shown_prompt
from zeph_nb.output.sanitize import visible
from zeph_nb.security.secrets import redact
from zeph_nb.tools.scheduler import FIRING, ScheduledTask, SchedulingRefused, kernel_scheduler

if TYPE_CHECKING:
    from zeph_nb.agent.loop import Agent
    from zeph_nb.config import Settings
    from zeph_nb.store.kept_tasks import KeptTask, KeptTasks

__all__ = ["Resumed", "describe_kept", "jobs_command"]

USAGE = "%zeph jobs [keep TASK | resume KEPT [--now] | forget KEPT]"


class JobsError(ZephError):
    """A mistake on the ``%zeph jobs`` line, said in one line (argparse would print usage and exit)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise JobsError(f"{message} ({USAGE})")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="%zeph jobs", add_help=False, exit_on_error=False, allow_abbrev=False)
    sub = parser.add_subparsers(dest="action", parser_class=_Parser, required=True)
    keep = sub.add_parser("keep", add_help=False, exit_on_error=False, allow_abbrev=False)
    keep.add_argument("task", help="the kernel's task id (t1)")
    resume = sub.add_parser("resume", add_help=False, exit_on_error=False, allow_abbrev=False)
    resume.add_argument("kept", help="the kept task's id (k…), or a unique start of it")
    resume.add_argument("--now", action="store_true", help="the first run at once (an overdue deferred task)")
    forget = sub.add_parser("forget", add_help=False, exit_on_error=False, allow_abbrev=False)
    forget.add_argument("kept")
    return parser


def parse(args: list[str]) -> argparse.Namespace:
    """The ``%zeph jobs`` words, or ``JobsError`` saying what is wrong."""
    try:
        return _parser().parse_args(args)
    except argparse.ArgumentError as e:
        raise JobsError(f"{e} ({USAGE})") from None


def project_of(agent: Agent | None) -> str:
    """The folder kept tasks belong to: the session agent's working directory (before one: the kernel's)."""
    return os.path.realpath(agent.workdir if agent is not None else os.getcwd())


def describe_kept(rows: KeptTasks, settings: Settings, project: str) -> list[str]:
    """``%zeph jobs``' lines for this user's kept tasks of ``project`` (none: an empty list)."""
    kept = rows.live(settings.user, project)
    if not kept:
        return []
    here = {task.kept_id: task for task in kernel_scheduler().tasks.values() if task.kept_id and task.live}
    off = "" if settings.scheduler.enabled else "; [scheduler] enabled is false here, so none can be resumed"
    lines = [f"kept tasks of {settings.user} in {project} (nothing starts by itself: %zeph jobs resume ID starts "
             f"one, %zeph jobs forget ID drops one{off}):"]  # fmt: skip
    for task in kept:
        running = here.get(task.id)
        state = f"kept, running here as {running.id}" if running is not None else "kept, not running"
        when = _kept_schedule(task)
        last = f"  last resumed {_utc(task.last_resumed)} ({task.last_resumed_where})" if task.last_resumed else ""
        # The whole prompt, not the first 60 characters a kernel's task list shows: this is what a resume runs,
        # and words past the cut are where a prompt that came from something hostile would put its request.
        lines.append(f"{task.id}  {state:<26}  {when:<40}  kept {_utc(task.kept_at)}{last}  "
                     f"{shown_prompt(task.prompt, width=None)}")  # fmt: skip
    return lines


def jobs_command(args: list[str], *, agent: Agent | None, make_agent: Callable[[], Agent], widgets: bool,
                 inside_run: bool) -> Any:  # fmt: skip
    """``%zeph jobs keep|resume|forget …``: prints what happened; returns what a resume shows (or None).
    ``make_agent`` gives the session's agent (built with the cell defaults when there is none yet);
    ``inside_run`` is true when the magic runs within an agent's run (its run_python), which may do none of this."""
    options = parse(args)
    if inside_run or FIRING.get() is not None:
        raise JobsError(f"{options.action} is for the person, in a cell of their own: a run (its run_python, a thread "
                        "started off the kernel's main thread, or a scheduled run) may not keep, resume or forget "
                        "tasks")  # fmt: skip
    from zeph_nb.config import Settings
    from zeph_nb.store.kept_tasks import KeptTasks
    from zeph_nb.store.store import Store

    if options.action == "resume":
        return _resume(options, make_agent, widgets)
    settings = agent.settings if agent is not None else Settings.load()
    store = agent.store if agent is not None else Store(settings)
    try:
        rows = KeptTasks(store)
        if options.action == "keep":
            print(_keep(options.task, rows, settings, project_of(agent)))
        else:
            print(_forget(options.kept, rows, settings, project_of(agent)))
    finally:
        if agent is None:  # a store of its own, before the first run: its rows are copied in now
            store.close()
    return None


# -- keep ------------------------------------------------------------------------------------------------------


def _keep(task_id: str, rows: KeptTasks, settings: Settings, project: str) -> str:
    from zeph_nb.store.kept_tasks import KeptTaskRow, new_kept_id

    scheduler = kernel_scheduler()
    task = scheduler.tasks.get(task_id)
    if task is None:
        known = ", ".join(scheduler.tasks) or "none"
        raise JobsError(f"no task {task_id!r} in this kernel (tasks: {known}); %zeph jobs lists them")
    if task.kept_id is not None:
        return f"task {task.id} is already kept as {task.kept_id}"
    if task.kind == "deferred" and task.runs:
        raise JobsError(f"task {task.id} has made its one run (a deferred task runs once): nothing is left to keep")
    if task.max_runs is not None and task.runs >= task.max_runs:
        raise JobsError(f"task {task.id} has made all its {task.max_runs} runs: nothing is left to keep")
    kept_id = new_kept_id()
    folder = task.project or project
    due = None
    if task.kind == "deferred":  # when its run is due: a resumed task's is not its delay after it was made
        first = task.first_after if task.first_after is not None else task.interval_secs
        due = datetime.fromtimestamp(task.next_at if task.next_at is not None else task.created_at + first, UTC)
    rows.add(KeptTaskRow(
        id=kept_id, event="kept", user_name=settings.user, project=folder, prompt=task.prompt,
        kind=task.kind, interval_secs=task.interval_secs, max_runs=task.max_runs, runs=task.runs,
        due_at=due.replace(tzinfo=None).isoformat() if due is not None else None, scheduled_by=task.scheduled_by,
        task_id=task.id,
    ))  # fmt: skip
    task.kept_id = kept_id
    going = "it goes on here until cancelled" if task.live else f"it is {task.state} here"
    return (f"kept task {task.id} as {kept_id} ({task.schedule}): {shown_prompt(task.prompt)}; {going}. A later "
            f"kernel in {folder} lists it as kept, not running; %zeph jobs resume {kept_id} starts it there, "
            f"%zeph jobs forget {kept_id} drops it")  # fmt: skip


# -- forget ----------------------------------------------------------------------------------------------------


def _forget(prefix: str, rows: KeptTasks, settings: Settings, project: str) -> str:
    from zeph_nb.store.kept_tasks import KeptTaskRow

    kept = _find(prefix, rows, settings, project)
    rows.add(KeptTaskRow(id=kept.id, event="forgotten", user_name=settings.user, project=kept.project,
                         note="forgotten by the person (%zeph jobs forget)"))  # fmt: skip
    running = [task for task in kernel_scheduler().tasks.values() if task.kept_id == kept.id]
    for task in running:
        task.kept_id = None
    here = [task.id for task in running if task.live]
    still = f"; task {', '.join(here)} goes on in this kernel until cancelled (%zeph cancel ID)" if here else ""
    return f"forgot kept task {kept.id}: {shown_prompt(kept.prompt)}{still}"


def _find(prefix: str, rows: KeptTasks, settings: Settings, project: str) -> KeptTask:
    kept = rows.live(settings.user, project)
    found = [task for task in kept if task.id.startswith(prefix)]
    if not found:
        known = ", ".join(task.id for task in kept) or "none"
        raise JobsError(f"no kept task of {settings.user} in {project} has an id starting {prefix!r} "
                        f"(kept here: {known})")  # fmt: skip
    if len(found) > 1:
        raise JobsError(f"{prefix!r} starts {len(found)} ids ({', '.join(t.id for t in found)}); type more of it")
    return found[0]


# -- resume ----------------------------------------------------------------------------------------------------


def _resume(options: argparse.Namespace, make_agent: Callable[[], Agent], widgets: bool) -> Any:
    from zeph_nb.store.kept_tasks import KeptTaskRow, KeptTasks

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        raise JobsError("resume needs the notebook kernel's running event loop, where scheduled tasks live; this "
                        "IPython has none (a terminal IPython): resume in a Jupyter kernel") from None  # fmt: skip
    agent = make_agent()
    settings = agent.settings
    if not settings.scheduler.enabled:
        managed = settings.managed
        if managed is not None and managed.manages("scheduler.enabled"):
            raise JobsError(f"{managed.says('scheduler.enabled')}: no scheduled task runs in this kernel, kept or not")
        raise JobsError(
            "[scheduler] enabled is false in these settings, so no scheduled task runs here; set it "
            "(a [scheduler] table with enabled = true in zeph.toml or your config) and resume again"
        )
    rows = KeptTasks(agent.store)
    project = project_of(agent)
    kept = _find(options.kept, rows, settings, project)
    scheduler = kernel_scheduler()
    for task in scheduler.tasks.values():
        if task.kept_id == kept.id and (task.live or task.running):
            raise JobsError(f"kept task {kept.id} is already running here as {task.id} ({task.state})")
    first_after, overdue, note = _first_run(kept, now=options.now)
    if overdue:  # and the person did not say --now
        assert kept.due_at is not None
        print(f"kept task {kept.id} was due at {_utc(kept.due_at)} ({_ago(kept.due_at)} ago), while no kernel ran "
              f"it, and has not run: {shown_prompt(kept.prompt)}. Its prompt was written for then; %zeph jobs resume "
              f"{kept.id} --now runs it now, %zeph jobs forget {kept.id} drops it")  # fmt: skip
        return None
    max_runs = None
    if kept.max_runs is not None:
        max_runs = kept.max_runs - kept.runs
    shown = Resumed(kept) if widgets else None
    view = _view(agent, shown) if shown is not None else None
    if shown is not None:
        shown.view = view
    launch = _launch_for(agent, view)
    if kept.kind == "deferred":
        launch = _forgotten_when_run(launch, rows, kept)
    config = settings.scheduler
    try:
        task = scheduler.schedule(
            kept.prompt, launch, kind="deferred" if kept.kind == "deferred" else "periodic",
            interval_secs=kept.interval_secs, max_runs=max_runs, min_interval_secs=config.min_interval_secs,
            max_tasks=config.max_tasks, scheduled_by=kept.scheduled_by, project=kept.project, kept_id=kept.id,
            first_after=first_after,
        )  # fmt: skip
    except SchedulingRefused as e:
        raise JobsError(f"kept task {kept.id} was not resumed: {e}") from None
    rows.add(KeptTaskRow(id=kept.id, event="resumed", user_name=settings.user, project=kept.project,
                         task_id=task.id, note=note))  # fmt: skip
    if view is not None:
        view.adopt(task)
    first = "its first run starts now" if first_after == 0 else f"first run at {_clock(task.next_at)} (local time)"
    print(
        f"resumed kept task {kept.id} as task {task.id} ({task.schedule}; {first}) under this kernel's settings, "
        f"rules and approver: {shown_prompt(kept.prompt)}. %zeph cancel {task.id} stops it here; it stays kept "
        f"({'until its run starts' if kept.kind == 'deferred' else '%zeph jobs forget ' + kept.id + ' drops it'})"
    )
    return shown


def _first_run(kept: KeptTask, *, now: bool) -> tuple[float | None, bool, str | None]:
    """Seconds until the resumed task's first run (None: one period, as when it was scheduled), whether it is an
    overdue deferred task to ask ``--now`` for first, and what the resumed row notes about it."""
    late = kept.due_at is not None and _left(kept.due_at) <= 0
    if now:
        after = f", {_ago(kept.due_at)} after it was due" if kept.due_at is not None and late else ""
        return 0.0, False, f"first run at once (--now){after}"
    if kept.kind != "deferred" or kept.due_at is None:
        return None, False, None
    if late:
        return None, True, None
    return _left(kept.due_at), False, None


def _launch_for(agent: Agent, view: ScheduledView | None) -> Any:
    """What each firing does: a run of an agent like the session's, its runs shown under ``view``."""
    from zeph_nb.agent.scheduled import launcher

    before = agent.scheduled_view
    agent.scheduled_view = view  # launcher() fixes the view and the approver now
    try:
        return launcher(agent)
    finally:
        agent.scheduled_view = before


def _forgotten_when_run(launch: Any, rows: KeptTasks, kept: KeptTask) -> Any:
    """A kept deferred task's launch that forgets it as its one run starts: no later kernel lists a task that ran."""
    from zeph_nb.store.kept_tasks import KeptTaskRow

    async def once(task: ScheduledTask) -> Any:
        rows.add(KeptTaskRow(id=kept.id, event="forgotten", user_name=kept.user_name, project=kept.project,
                             task_id=task.id, note="its one run started (a deferred task runs once)"))  # fmt: skip
        return await launch(task)

    return once


def _view(agent: Agent, shown: Resumed) -> ScheduledView:
    from zeph_nb.notebook.approver import WidgetApprover

    # The session asks with buttons: each run's asks in its transcript.
    return ScheduledView.for_agent(shown, agent, buttons=isinstance(agent.approver, WidgetApprover))


class Resumed:
    """What ``%zeph jobs resume`` shows: a line naming the kept task, then each run's transcript as it comes."""

    def __init__(self, kept: KeptTask) -> None:
        import ipywidgets as w

        from zeph_nb.notebook.cards import STYLE

        self.kept = kept
        self.view: ScheduledView | None = None  # its task's runs, once resumed
        # Written out as the approval card writes it: a bidi override or tag characters would show the person
        # other text than the runs are asked (output/sanitize.py, visible).
        prompt = html.escape(visible(redact(kept.prompt)))
        line = (f'<div class="zeph-extra">&#8634; kept task <b>{html.escape(kept.id)}</b>, kept '
                f"{html.escape(_utc(kept.kept_at))}: <code>{prompt}</code></div>")  # fmt: skip
        self.widget = w.VBox([w.HTML(STYLE), w.HTML(line)])
        self.widget.add_class("zeph-run")

    def snapshot(self) -> str:
        """The widget as static HTML (escaped text only), for a saved notebook."""
        from zeph_nb.notebook.cards import STYLE
        from zeph_nb.notebook.transcript import _static

        return f'<div class="zeph-snapshot">{STYLE}{_static(self.widget)}</div>'

    def _ipython_display_(self) -> None:
        """The live widget while its task lives; then a static snapshot in its place, as a run's transcript is
        (``Run``): a saved notebook keeps what the runs did, not a widget no later kernel knows."""
        import contextvars

        from IPython.display import display, update_display

        bundle = self.widget._repr_mimebundle_()
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        data["text/plain"] = f"[zeph: kept task {self.kept.id} resumed; its runs show in a live widget in Jupyter]"
        display_id = f"zeph-kept-{id(self)}"
        display(data, raw=True, display_id=display_id)

        def freeze() -> None:
            snapshot = {"text/html": self.snapshot(), "text/plain": repr(self)}
            contextvars.Context().run(update_display, snapshot, raw=True, display_id=display_id)

        if self.view is not None and self.view.live():
            self.view.when_settled(freeze)
        else:
            freeze()

    def __repr__(self) -> str:
        return f"<zeph kept task {self.kept.id}, resumed: {shown_prompt(self.kept.prompt)}>"


# -- time ------------------------------------------------------------------------------------------------------


def _left(due_utc: datetime) -> float:
    from zeph_nb.store.records import utc_now

    return (due_utc - utc_now()).total_seconds()


def _ago(due_utc: datetime) -> str:
    seconds = max(0, round(-_left(due_utc)))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes} min"
    return f"{minutes} min {secs} s" if minutes else f"{secs} s"


def _utc(when: datetime | None) -> str:
    return when.strftime("%Y-%m-%d %H:%M UTC") if when is not None else "-"


def _clock(when: float | None) -> str:
    import time

    return time.strftime("%H:%M:%S", time.localtime(when)) if when is not None else "-"


def _kept_schedule(task: KeptTask) -> str:
    if task.kind == "periodic":
        most = f", {task.max_runs - task.runs} more runs at most" if task.max_runs is not None else ""
        return f"every {task.interval_secs:g} s{most}"
    late = " (overdue: resume --now)" if task.due_at is not None and _left(task.due_at) <= 0 else ""
    return f"once, due {_utc(task.due_at)}{late}"
