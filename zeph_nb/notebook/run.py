"""``Run``: what a ``%%zeph`` cell returns while its agent works in the background — it displays as the live
transcript, can be awaited for the ``RunResult`` (``result = await _``) and stopped."""

from __future__ import annotations

import asyncio
import contextvars
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from zeph_nb.agent.loop import Agent
    from zeph_nb.agent.result import RunResult
    from zeph_nb.notebook.scheduled import ScheduledView
    from zeph_nb.notebook.transcript import Transcript

__all__ = ["Run"]


class Run:
    """A ``%%zeph`` run in progress: displays as its transcript, ``await run`` gives the ``RunResult``."""

    def __init__(self, task: asyncio.Task[RunResult], transcript: Transcript, agent: Agent) -> None:
        self.task = task
        self.transcript = transcript
        self.agent = agent
        self.scheduled: ScheduledView | None = None  # the tasks it scheduled show their runs under its transcript
        self._frozen: tuple[dict[str, str], str] | None = None  # the snapshot sent when the run ended, its display id

    def __await__(self) -> Any:
        result = yield from self.task.__await__()
        self._frozen_again()
        return result

    @property
    def done(self) -> bool:
        return self.task.done()

    @property
    def result(self) -> RunResult | None:
        """The result once finished (None while running)."""
        return self.task.result() if self.task.done() and not self.task.cancelled() else None

    def stop(self) -> bool:
        return self.agent.stop()

    def _ipython_display_(self) -> None:
        from IPython.display import display, update_display

        # The live widget while the run goes on. When it ends, the same output becomes a static HTML snapshot of
        # the transcript: a saved notebook keeps that, and reopening it after a kernel restart shows what the agent
        # did instead of "Error displaying widget: model not found".
        bundle = self.transcript.widget._repr_mimebundle_()
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        data["text/plain"] = f"[zeph transcript: {self.transcript.prompt[:80]!r}; a live widget in Jupyter]"
        display_id = f"zeph-{id(self)}"
        display(data, raw=True, display_id=display_id)

        def freeze(_task: asyncio.Task[RunResult]) -> None:
            if self.scheduled is not None and self.scheduled.live():  # their runs still come: stay a live widget
                self.scheduled.when_settled(lambda: freeze(_task))
                return
            snapshot = {"text/html": self.transcript.snapshot(), "text/plain": self._plain()}
            # Sent as a child of the request the kernel runs now (an empty context has no parent header of its
            # own, so ipykernel uses its latest), not of the %%zeph cell that ended long ago: JupyterLab routes
            # the update by display id either way, and nbclient (make notebooks, the tests) applies it only when
            # it belongs to the cell it is waiting on, e.g. the one that awaits the run.
            contextvars.Context().run(update_display, snapshot, raw=True, display_id=display_id)
            self._frozen = (snapshot, display_id)

        if self.task.done():
            freeze(self.task)
        else:
            self.task.add_done_callback(freeze)

    def _frozen_again(self) -> None:
        """The snapshot sent again from the cell that awaits the run. A run that ended between two cells sent it as
        a child of the cell before, which nbclient had finished with: it applied none of it, and the saved notebook
        (make notebooks, a notebook run by nbclient or papermill) kept the live widget's placeholder. JupyterLab
        routes both by display id: the same snapshot again."""
        if self._frozen is None:
            return
        from IPython.display import update_display

        snapshot, display_id = self._frozen
        update_display(snapshot, raw=True, display_id=display_id)

    def _plain(self) -> str:
        from zeph_nb.security.secrets import redact

        failed = self.task.done() and not self.task.cancelled() and self.task.exception() is not None
        result = None if failed else self.result  # a run that raised has no result: .result would raise again
        state = result.stop_reason if result is not None else ("error" if failed else "stopped")
        text = f"\n{redact(result.text)}" if result is not None and result.text else ""
        return f"[zeph run: {self.transcript.prompt[:80]!r}, {state}, {len(self.transcript.cards)} tool calls]{text}"

    def __repr__(self) -> str:
        state = "done" if self.done else "running"
        return f"<zeph run, {state}: {self.transcript.prompt[:60]!r}>"
