"""``%zeph undo [RUN_ID] [--yes] [--list]``: show what undoing a run would restore and delete, ask, then do it.

The question is asked with two buttons under the plan (widgets on and a running loop, as for approvals), on the
console otherwise, and not at all with ``--yes``. A click plans again before acting, so a file changed between
showing the plan and the click is refused, not overwritten.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shlex
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from zeph_nb.agent.loop import Agent
    from zeph_nb.store.store import Store
    from zeph_nb.undo.runs import RunUndo

__all__ = ["undo_command"]

USAGE = "%zeph undo [RUN_ID] [--yes] [--list]"


def _kernel_note(store: Store, run_id: str | None) -> None:
    """Say so when the run changed the kernel itself (run_python): undo puts files back, never variables."""
    if run_id is None:
        return
    ran = store.query("SELECT count(*) AS n FROM tool_calls WHERE run_id = ? AND tool = 'run_python' AND status = 'ok'",
                      [run_id])["n"][0]  # fmt: skip
    if ran:
        print(f"(run {run_id} also ran code in this kernel {ran} time{'s' if ran > 1 else ''} (run_python): "
              "what it did to your variables is not undone; undo covers files only)")  # fmt: skip


def _arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="%zeph undo", add_help=False, exit_on_error=False)
    parser.add_argument("run_id", nargs="?")
    parser.add_argument("--yes", "-y", action="store_true")
    parser.add_argument("--list", action="store_true")
    return parser


def undo_command(agent: Agent | None, args: list[str], *, widgets: bool) -> Any:
    """What ``%zeph undo …`` runs for the session's ``agent`` (None: none yet, the settings' store is read); returns
    a DataFrame for ``--list``, else None (it prints). ``widgets``: ask with buttons when a loop runs."""
    from zeph_nb.config import Settings
    from zeph_nb.errors import ZephError
    from zeph_nb.store.store import Store

    try:
        options = _arguments().parse_args(shlex.split(" ".join(args)))
    except (argparse.ArgumentError, SystemExit, ValueError) as e:
        print(f"%zeph undo: {e}. Usage: {USAGE}")
        return None
    store = agent.store if agent is not None else Store(Settings.load())
    user = agent.settings.user if agent is not None else Settings.load().user
    if options.list:
        from zeph_nb.store.snapshots import FileChanges

        runs = FileChanges(store).runs(limit=20)
        runs.insert(1, "here", runs["pid"] == os.getpid())  # this kernel's runs; the others are other notebooks'
        return runs.drop(columns=["pid"])
    if agent is not None and agent.running:
        print("%zeph undo: a run is still going; stop it (%zeph stop) before undoing anything.")
        return None
    from zeph_nb.undo.runs import describe_plan, prepare_undo

    latest = agent.chain.session.run_id if agent is not None else None
    try:
        undo = prepare_undo(store, options.run_id, pid=None if options.run_id else os.getpid())
    except ZephError as e:
        print(f"%zeph undo: {e}")
        _kernel_note(store, latest)
        return None
    if options.run_id is None and latest is not None and latest != undo.plan.run_id:
        print(f"(the last run, {latest}, changed no files; this is this kernel's latest run that did)")
        _kernel_note(store, latest)
    print("\n".join(describe_plan(undo)))
    _kernel_note(store, undo.plan.run_id)
    if undo.empty:
        return None
    conversation = agent.conversation_id if agent is not None else None

    def carry_out(out: Callable[[str], None]) -> None:
        _carry_out(store, undo, user, conversation, out)

    if options.yes:
        carry_out(print)
    elif widgets and _running_loop():
        _ask_with_buttons(undo, carry_out)
    elif _ask_on_console():
        carry_out(print)
    else:
        print("nothing undone")
    return None


def _carry_out(store: Store, shown: RunUndo, user: str, conversation: str | None, out: Callable[[str], None]) -> None:
    """Plan again (files may have changed since the plan was shown) and do what is still as it was shown."""
    from zeph_nb.undo.runs import describe_report, prepare_undo, shown_path

    fresh = prepare_undo(store, shown.plan.run_id)
    agreed = {(step.path, step.action) for step in shown.plan.steps}
    moved = [step for step in fresh.plan.steps if (step.path, step.action) not in agreed]
    fresh.plan.steps = [step for step in fresh.plan.steps if (step.path, step.action) in agreed]
    fresh.plan.refused += [(step.path, "changed after the plan was shown") for step in moved]
    report = fresh.apply(store, by=user, conversation_id=conversation)
    for line in describe_report(fresh, report):
        out(line)
    for path, why in fresh.plan.refused:
        out(f"  {shown_path(path, fresh.plan.workdir)}: {why}")


def _ask_with_buttons(undo: RunUndo, carry_out: Callable[[Callable[[str], None]], None]) -> None:
    import ipywidgets as widgets
    from IPython.display import display

    yes = widgets.Button(
        description="Undo these changes", button_style="warning", icon="undo", layout=widgets.Layout(width="auto")
    )  # the default width cuts the words off
    no = widgets.Button(description="Cancel")
    output = widgets.Output()

    def said(_: Any, *, go: bool) -> None:
        yes.disabled = no.disabled = True
        with output:
            if go:
                carry_out(print)
            else:
                print("nothing undone")

    yes.on_click(lambda b: said(b, go=True))
    no.on_click(lambda b: said(b, go=False))
    display(widgets.VBox([widgets.HBox([yes, no]), output]))


def _ask_on_console() -> bool:
    try:
        answer = input("Undo these changes? [y/N] ")
    except EOFError:  # no console to ask on (a headless kernel): say how to confirm instead
        print("no answer could be read; run %zeph undo --yes to confirm")
        return False
    return answer.strip().lower() in ("y", "yes")


def _running_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True
