"""The live transcript of a run: the model's text as Markdown, one card per tool call, approval buttons, Stop.

It is a view of the agent's events (``handle(event)``) and holds no logic of the run. Everything is an
ipywidgets widget, updated from the run's task on the kernel's event loop; nothing is printed, because output
printed by a background task lands in whichever cell happens to be executing.
"""

from __future__ import annotations

import asyncio
import base64
import html
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from zeph_nb.agent.events import (
    AgentEvent,
    ApprovalAnswered,
    ApprovalRequested,
    IterationStarted,
    Retrying,
    Stopped,
    StreamAbandoned,
    TextDelta,
    ToolCallFinished,
    ToolCallStarted,
    ToolsOffered,
)
from zeph_nb.notebook import cards
from zeph_nb.notebook.cards import STYLE, ToolCard, call_summary, elapsed
from zeph_nb.notebook.render import markdown_html
from zeph_nb.notebook.written import after_run_html, forget_earlier_refusals
from zeph_nb.security.secrets import redact

if TYPE_CHECKING:
    import ipywidgets

__all__ = ["ToolCard", "Transcript", "call_summary"]


# How long the model may send nothing before the header says so (a reply often takes a few seconds to start).
STALL_SHOWN_AFTER = 5.0


class Transcript:
    """The widget a ``%%zeph`` cell shows for one run."""

    RENDER_EVERY = 0.1  # seconds between Markdown re-renders while text streams in

    def __init__(
        self,
        prompt: str,
        *,
        on_stop: Callable[[], Any],
        model: str = "",
        approver_where: str | None = None,
        approver_link: str | None = None,
        warning: str | None = None,
        offline: bool = False,
        idle_timeout: float | None = None,
    ) -> None:
        import ipywidgets as w

        forget_earlier_refusals()  # the footer tells this run's refusals only
        self.prompt = prompt
        self.model = model
        self.approver_where = approver_where  # where an approver other than the buttons takes its answers
        self.approver_link = approver_link  # that place as a URL path on the page's own server, when known
        self.offline = offline  # the stand-in model, because none is configured: a run "completes" doing nothing
        # [llm] idle_timeout_secs: while the model is asked and sends nothing, the header says how long is left.
        self.idle_timeout = idle_timeout
        self._asked_at: float | None = None  # the model is being asked, and has sent nothing since then
        self.cards: dict[str, ToolCard] = {}
        self.calls = 0
        self.iteration = 0
        self.offered = ""  # "12 of 57 tools" while [agent.tool_filter] chooses
        self.started = cards.clock()
        self.status = w.HTML()
        self.stop_button = w.Button(description="Stop", icon="stop", button_style="warning",
                                    layout=w.Layout(width="90px", margin="0 0 0 auto"))  # fmt: skip
        self.stop_button.on_click(lambda _button: on_stop())
        # Said once, at the top of every run, when commands are not contained here (no bubblewrap, not Linux).
        banner = [w.HTML(f'<div class="zeph-extra">&#9888; {html.escape(warning)}</div>')] if warning else []
        self.body = w.VBox([])
        self.widget = w.VBox([w.HTML(STYLE), w.HBox([self.status, self.stop_button]), *banner, self.body])
        self.widget.add_class("zeph-run")
        self._text: ipywidgets.Output | None = None
        self._buffer = ""
        self._rendered_at = 0.0
        self._rendered_len = 0  # how much of the buffer the last render showed
        self._state = ("#0969da", "running")
        self._detail = ""  # what the header adds after the counts (a retry's countdown, why a run stopped)
        self._ended: float | None = None  # when the run stopped: the clock stands still from then on
        self._clock: asyncio.Task[None] | None = None
        self._render_status()

    def start_clock(self, loop: asyncio.AbstractEventLoop) -> None:
        """Redraw the elapsed times once a second until the run stops: the header's, and a waiting or running
        card's. A long wait for approval or a slow command is never a still picture that looks hung."""
        self._clock = loop.create_task(self._tick())

    async def _tick(self) -> None:
        while self._ended is None:
            await asyncio.sleep(1)
            if self._text is not None and self._rendered_len != len(self._buffer):
                # Text that came within RENDER_EVERY of the last render waits for the next piece: when the stream
                # stalls there is none, and the last words stayed unseen until the retry.
                self._flush_text()
            self._draw()
            for card in self.cards.values():
                card.tick()

    def stop_clock(self) -> None:
        if self._ended is None:
            self._ended = cards.clock()
        if self._clock is not None:
            self._clock.cancel()

    # -- events --------------------------------------------------------------------------------------------

    def handle(self, event: AgentEvent) -> None:
        """Take one agent event (see ``zeph_nb.agent.events``)."""
        match event:
            case TextDelta(text=text):
                self._asked_at = cards.clock()
                self._add_text(text)
            case IterationStarted(iteration=iteration):
                self._flush_text(final=True)
                self.iteration = iteration
                self._asked_at = cards.clock()
                self._render_status()
            case StreamAbandoned(text=text, reason=reason):
                self._abandon(text, reason)
            case ToolsOffered(offered=offered, total=total, note=note):
                self.offered = f"{len(offered)} of {total} tools offered" if note is None else "every tool offered"
                self._render_status(note or "")
            case Retrying(seconds=seconds, reason=reason, attempt=attempt):  # a countdown, one event a second
                self._asked_at = cards.clock() + seconds  # the next try starts when the countdown ends
                self._render_status(f"retrying in {seconds} s ({reason}), try {attempt}")
            case ApprovalRequested(request=request):
                self._asked_at = None
                self._flush_text(final=True)
                self._state = ("#9a6700", "waiting for approval")  # not "running": nothing runs until an answer
                self._render_status()
                self.card(request.call_id, request.tool, request.params).waiting(
                    request, self.approver_where, self.approver_link
                )
            case ApprovalAnswered(request=request, decision=decision):
                card = self.card(request.call_id, request.tool, request.params)
                card.answered(decision.approved, decision.by, decision.remember)
                self._state = ("#0969da", "running")
                self._render_status()
            case ToolCallStarted(call=call):
                self._asked_at = None
                self._flush_text(final=True)
                self.card(call.call_id, call.tool_id, call.params).running()
            case ToolCallFinished(outcome=outcome):
                self.calls += 1
                self.card(outcome.call.call_id, outcome.tool, outcome.call.params).finished(outcome)
                self._render_status()
            case Stopped(result=result):
                self.stopped(result)

    def card(self, call_id: str, tool: str, params: Any) -> ToolCard:
        card = self.cards.get(call_id)
        if card is None:
            card = self.cards[call_id] = ToolCard(tool, params)
            self.body.children = (*self.body.children, card.widget)
        return card

    def stopped(self, result: Any) -> None:
        import ipywidgets as w

        self.stop_clock()
        self._flush_text(final=True)
        self.stop_button.disabled = True
        self.stop_button.layout.display = "none"
        for card in self.cards.values():
            if card.status in ("running", "waiting"):
                card.cancelled()
        colors = {"completed": "#1a7f37", "cancelled": "#6e7781", "model_error": "#cf222e"}
        self._state = (colors.get(result.stop_reason, "#9a6700"), result.stop_reason.replace("_", " "))
        if self.offline and result.stop_reason == "completed":  # the stand-in answered: nothing was done
            self._state = ("#9a6700", "no model configured")
        self._render_status(result.detail or "")
        # Hallucination detection's findings, under the reply they are about. The header is one line and
        # leaves out a completed run's detail, so warnings put there never showed after a normal answer.
        warned = [f'<div class="zeph-extra">&#9888; possible hallucination: {html.escape(redact(warning))}</div>'
                  for warning in getattr(result, "warnings", ())]  # fmt: skip
        later = after_run_html(result)  # what runs later outside the sandbox: files written, imports refused
        if warned or later:
            self.body.children = (*self.body.children, w.HTML("".join(warned) + later))

    def failed(self, error: BaseException) -> None:
        """The run raised (bad configuration, a bug): say so in the transcript, where the person is looking."""
        import ipywidgets as w

        self.stop_clock()
        self.stop_button.disabled = True
        self.stop_button.layout.display = "none"
        self._state = ("#cf222e", "error")
        self._render_status()
        self.body.children = (*self.body.children,
                              w.HTML(f'<div class="zeph-error">{html.escape(type(error).__name__)}: '
                                     f"{html.escape(redact(str(error)))}</div>"))  # fmt: skip

    def snapshot(self) -> str:
        """The transcript as static HTML, for the saved notebook: what every widget shows now, the accordions as
        <details>, no buttons. Made only of the HTML the widgets already hold, which is escaped, redacted and (for
        the model's text) sanitized, so nothing new needs trusting."""
        return f'<div class="zeph-snapshot">{STYLE}{_static(self.widget)}</div>'

    # -- rendering -----------------------------------------------------------------------------------------

    def _render_status(self, detail: str = "") -> None:
        self._detail = detail
        self._draw()

    def _draw(self) -> None:
        color, label = self._state
        live = " zeph-live" if self._ended is None else ""  # the dot pulses while the run goes on
        parts = [f'<span class="zeph-dot{live}" style="background:{color}"></span><b>{html.escape(label)}</b>']
        if self.model:
            parts.append(html.escape(self.model))
        if self.iteration:
            parts.append(f"round {self.iteration}")
        parts.append(f"{self.calls} tool call{'s' if self.calls != 1 else ''}")
        if self.offered:
            parts.append(self.offered)
        parts.append(elapsed((self._ended or cards.clock()) - self.started))
        if self._detail.startswith("retrying in ") and self._asked_at is not None and cards.clock() >= self._asked_at:
            self._detail = ""  # the countdown is over: the next try is under way
        if self._detail and label != "completed":
            parts.append(html.escape(redact(self._detail)))
        elif self._ended is None and self._asked_at is not None and self.idle_timeout:
            quiet = cards.clock() - self._asked_at
            if quiet >= STALL_SHOWN_AFTER:  # a stream that stalls: how long until it is given up and tried again
                left = max(0, round(self.idle_timeout - quiet))
                parts.append(f"no reply for {quiet:.0f} s, tried again in {left} s ([llm] idle_timeout_secs)")
        # Quoted from the model's reply: escaped like everything else it wrote.
        self.status.value = '<div class="zeph-head">' + " · ".join(parts) + "</div>"

    def _abandon(self, text: str, reason: str) -> None:
        """The try that streamed ``text`` failed and is tried again: its text is folded away, struck through,
        and the retry's text starts a block of its own (it was glued to the cut-off words before)."""
        import ipywidgets as w

        if self._text is None:
            self._text = w.Output()
            self.body.children = (*self.body.children, self._text)
        partial = markdown_html(redact(text))  # sanitized like any text of the model's
        folded = (f'<details class="zeph-abandoned"><summary>{html.escape(reason)}: tried again; this reply was '
                  f'cut off and is not part of the answer</summary><div style="text-decoration: line-through; '
                  f'opacity: 0.6">{partial}</div></details>')  # fmt: skip
        self._text.outputs = (
            {"output_type": "display_data", "data": {"text/html": folded, "text/plain": f"[{reason}: tried again]"},
             "metadata": {}},
        )  # fmt: skip
        self._text = None
        self._buffer = ""

    def _add_text(self, text: str) -> None:
        import ipywidgets as w

        if self._text is None:
            self._text = w.Output()
            self._buffer = ""
            self.body.children = (*self.body.children, self._text)
        self._buffer += text
        if time.monotonic() - self._rendered_at >= self.RENDER_EVERY:
            self._flush_text()

    def _flush_text(self, *, final: bool = False) -> None:
        if self._text is None:
            return
        # Replacing the outputs re-renders the Markdown in the browser; no cell needs to be executing. The model may
        # repeat a credential it saw or was given: what is shown (and saved with the notebook) is redacted.
        # Markdown is turned into sanitized HTML here: a text/markdown output would be rendered as trusted, and the
        # model's words may be an attacker's (render.py).
        shown = redact(self._buffer)
        self._text.outputs = (
            {"output_type": "display_data", "data": {"text/html": markdown_html(shown), "text/plain": shown},
             "metadata": {}},
        )  # fmt: skip
        self._rendered_at = time.monotonic()
        self._rendered_len = len(self._buffer)
        if final:
            self._text = None


def _static(widget: Any) -> str:
    """One widget (and its children) as the HTML it shows."""
    import ipywidgets as w

    if isinstance(widget, w.Button):
        return ""
    if hasattr(widget, "static_html"):  # a proposed cell (notebook/proposal.py)
        return str(widget.static_html())
    if isinstance(widget, w.Image):  # a figure run_python drew: the bytes themselves, never a URL to load
        data = base64.b64encode(bytes(widget.value)).decode()
        return f'<img src="data:image/{html.escape(widget.format)};base64,{data}" style="max-width:100%">'
    if isinstance(widget, w.HTML):
        return "" if widget.value == STYLE else str(widget.value)
    if isinstance(widget, w.Output):
        return "".join(str(o.get("data", {}).get("text/html", "")) for o in widget.outputs)
    if isinstance(widget, w.Accordion):
        return "".join(
            f"<details><summary>{html.escape(str(title or ''))}</summary>{_static(child)}</details>"
            for title, child in zip(widget.titles, widget.children, strict=False)
        )
    if isinstance(widget, w.Box):
        inner = "".join(_static(child) for child in widget.children)
        classes = " ".join(c for c in widget._dom_classes if c.startswith("zeph-"))
        return f'<div class="{html.escape(classes)}">{inner}</div>' if classes else inner
    return ""
