"""The live transcript of a run: the model's text as Markdown, one card per tool call, approval buttons, Stop.

It is a view of the agent's events (``handle(event)``) and holds no logic of the run. Everything is an
ipywidgets widget, updated from the run's task on the kernel's event loop; nothing is printed, because output
printed by a background task lands in whichever cell happens to be executing.
"""

from __future__ import annotations

import html
import json
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from zeph_nb.notebook.render import markdown_html
from zeph_nb.output.sanitize import visible
from zeph_nb.security.secrets import redact

if TYPE_CHECKING:
    import ipywidgets

    from zeph_nb.gates.approval import ApprovalRequest
    from zeph_nb.gates.call import CallOutcome

__all__ = ["ToolCard", "Transcript"]

# Rendered once per transcript; class names are prefixed so nothing else on the page is touched.
STYLE = """
<style>
.zeph-run { border: 1px solid #d0d7de; border-radius: 8px; padding: 10px 12px; background: #fff;
  font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial, sans-serif; max-width: 980px; }
.zeph-head { font-size: 13px; color: #57606a; }
.zeph-head b { color: #24292f; }
.zeph-dot { display: inline-block; width: 8px; height: 8px; border-radius: 4px; margin-right: 6px; }
.zeph-card { border: 1px solid #d8dee4; border-left: 4px solid #8c959f; border-radius: 6px; margin: 6px 0;
  padding: 6px 10px; background: #f6f8fa; }
.zeph-card.zeph-running { border-left-color: #0969da; }
.zeph-card.zeph-done { border-left-color: #1a7f37; }
.zeph-card.zeph-failed { border-left-color: #cf222e; }
.zeph-card.zeph-denied { border-left-color: #9a6700; }
.zeph-card.zeph-waiting { border-left-color: #bf8700; background: #fff8c5; }
.zeph-title { font-size: 13px; line-height: 1.5; }
.zeph-title code { background: #eaeef2; padding: 1px 5px; border-radius: 4px; font-size: 12px; }
.zeph-tool { font-weight: 600; color: #24292f; margin-right: 6px; }
.zeph-badge { display: inline-block; font-size: 11px; font-weight: 600; padding: 0 7px; border-radius: 10px;
  margin-left: 8px; color: #fff; }
.zeph-meta { font-size: 12px; color: #57606a; margin-left: 8px; }
.zeph-stats { font-size: 12px; color: #57606a; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
.zeph-error { font-size: 12px; color: #cf222e; }
.zeph-ask { font-size: 13px; margin: 4px 0; }
.zeph-extra { color: #9a3412; background: #fff7ed; border-left: 3px solid #ea580c; padding: 2px 6px; margin: 3px 0;
  font-weight: 600; }
.zeph-ask pre, .zeph-pre { background: #fff; border: 1px solid #d8dee4; border-radius: 4px; padding: 6px 8px;
  margin: 4px 0; white-space: pre-wrap; word-break: break-word; font-size: 12px; max-height: 360px; overflow: auto; }
.zeph-who { font-size: 12px; color: #57606a; margin-top: 2px; }
</style>
"""

_BADGES: dict[str, tuple[str, str]] = {
    "waiting": ("#bf8700", "waiting for you"),
    "running": ("#0969da", "running"),
    "done": ("#1a7f37", "done"),
    "failed": ("#cf222e", "failed"),
    "denied": ("#9a6700", "denied"),
    "cancelled": ("#6e7781", "cancelled"),
}


def _pre(text: str, limit: int = 20_000) -> str:
    text = redact(text)
    shown = text if len(text) <= limit else text[:limit] + f"\n… ({len(text) - limit} more characters)"
    return f'<pre class="zeph-pre">{html.escape(shown)}</pre>'


def _summary(tool: str, params: Any) -> str:
    """The one line a person needs: the command, the path, the URL — else the arguments. Redacted: what a widget
    shows is kept in the saved notebook."""
    return redact(call_summary(params))


def call_summary(params: Any) -> str:
    """The argument a call is about (command, path, URL, source → destination, pattern, query), else them all."""
    if isinstance(params, Mapping):
        for key in ("command", "path", "url", "source", "pattern", "query"):
            value = params.get(key)
            if isinstance(value, str):
                extra = f" → {params['destination']}" if key == "source" and "destination" in params else ""
                return value + extra
        return json.dumps(params, ensure_ascii=False, default=str)
    return repr(params)


class ToolCard:
    """One tool call: what it is, its status, its output, and — while it waits — the approval buttons."""

    def __init__(self, tool: str, params: Any) -> None:
        import ipywidgets as w

        self.tool = tool
        self.params = params
        self.status = "running"
        self.started = time.monotonic()
        self.title = w.HTML()
        self.stats = w.HTML()
        self.ask_box = w.VBox([])
        self.details = w.Accordion(children=[])
        self.widget = w.VBox([self.title, self.ask_box, self.stats, self.details])
        self.widget.add_class("zeph-card")
        self.buttons: dict[str, ipywidgets.Button] = {}
        self._render_title()

    def _render_title(self, meta: str = "") -> None:
        color, label = _BADGES[self.status]
        line = html.escape(visible(_summary(self.tool, self.params)).replace("\n", " ⏎ "))
        if len(line) > 160:
            line = line[:157] + "…"
        self.title.value = (
            f'<div class="zeph-title"><span class="zeph-tool">{html.escape(self.tool)}</span><code>{line}</code>'
            f'<span class="zeph-badge" style="background:{color}">{label}</span>'
            f'<span class="zeph-meta">{meta}</span></div>'
        )
        for state in _BADGES:
            self.widget.remove_class(f"zeph-{state}")
        self.widget.add_class(f"zeph-{self.status}")

    def ask(self, request: ApprovalRequest, answer: Callable[[str], None]) -> None:
        """Show the approval prompt; ``answer`` gets "approve", "deny" or "always" once, from the first click."""
        import ipywidgets as w

        self.status = "waiting"
        self._render_title()
        command = request.summary.split(": ", 1)[-1]
        what = html.escape(visible(command))
        lines = command.count("\n") + 1
        if lines > 6 or len(command) > 400:  # longer than the box shows at once: say so, so nothing is missed
            what += f"\n[{lines} lines, {len(command)} characters in all: scroll to read every one]"
        # What the call gets beyond the sandbox (network, the kernel's environment, no sandbox at all) stands out.
        extras = "".join(f'<div class="zeph-extra">&#9888; {html.escape(line)}</div>' for line in request.extras)
        change = f"<b>What changes:</b>{_diff_html(request.preview)}" if request.preview else ""
        prompt = w.HTML(
            f'<div class="zeph-ask"><b>Needs your approval.</b> This will run:<pre>{what}</pre>{extras}{change}'
            f"<b>Why it asks:</b> {html.escape(request.reason)}</div>"
        )
        grant = ", ".join(request.asking) or what
        self.buttons = {
            "approve": w.Button(description="Approve", button_style="success", icon="check"),
            "deny": w.Button(description="Deny", button_style="danger", icon="times"),
        }
        if request.asking:  # nothing to keep for a command outside the sandbox: it asks every time
            also = " — with the access above, each time" if request.extras else ""
            self.buttons["always"] = w.Button(
                description="Always allow", icon="unlock", tooltip=f"Allow from now on: {grant}{also}"
            )
        for choice, button in self.buttons.items():
            button.on_click(lambda _button, choice=choice: answer(choice))
        self.ask_box.children = (prompt, w.HBox(list(self.buttons.values())))

    def waiting(self, request: ApprovalRequest, where: str | None) -> None:
        """The call waits for an approver that is not this cell's buttons (the dashboard's inbox, a script):
        say so, and where the answer is given. Buttons shown later (the widget approver) replace this."""
        import ipywidgets as w

        self.status = "waiting"
        self._render_title()
        until = f" Denied if nobody answers by {request.expires_at:%H:%M:%S} UTC." if request.expires_at else ""
        place = f" Answer it {html.escape(where)}." if where else ""
        self.ask_box.children = (
            w.HTML(f'<div class="zeph-ask"><b>Waiting for approval.</b> {html.escape(request.reason)}.{place}'
                   f"{until}</div>"),
        )  # fmt: skip

    def answered(self, approved: bool, by: str, remember: bool = False) -> None:
        """Close the prompt to one line saying who decided (by click, by %zeph approve, by the inbox, by timeout)."""
        import ipywidgets as w

        for button in self.buttons.values():
            button.disabled = True
        if self.buttons or self.ask_box.children:
            verdict = "Always allowed" if remember else ("Approved" if approved else "Denied")
            self.ask_box.children = (w.HTML(f'<div class="zeph-who">{verdict} by <b>{html.escape(by)}</b></div>'),)
        self.status = "running" if approved else "denied"
        self._render_title()

    def cancelled(self) -> None:
        """The run stopped while this call was running or waiting."""
        for button in self.buttons.values():
            button.disabled = True
        self.status = "cancelled"
        self._render_title()

    def running(self) -> None:
        self.status = "running"
        self.started = time.monotonic()
        self._render_title()

    def finished(self, outcome: CallOutcome) -> None:
        import ipywidgets as w

        if outcome.status == "ok":
            self.status = "done"
        elif outcome.status in ("denied", "cancelled"):
            self.status = outcome.status
        else:
            self.status = "failed"
        meta = [f"{outcome.duration_ms / 1000:.1f} s"] if outcome.attempts else []
        if outcome.waited_ms:  # the person's thinking time, apart from what the call took
            meta.append(f"waited {outcome.waited_ms / 1000:.1f} s for approval")
        if outcome.exit_code is not None:
            meta.append(f"exit {outcome.exit_code}")
        if outcome.cached:
            meta.append("from cache")
        if outcome.attempts > 1:
            meta.append(f"{outcome.attempts} tries")
        self._render_title(" · ".join(meta))
        lines = []
        if outcome.status == "denied":
            # Who said no is on the card already; say which rule was involved, not the whole error again.
            why = outcome.reason or (outcome.category.label if outcome.category else "")
            lines.append(f'<div class="zeph-stats">{html.escape(why)}</div>')
        elif outcome.category is not None:
            lines.append(f'<div class="zeph-error">{html.escape(outcome.category.label)}: '
                         f"{html.escape(redact(outcome.output.summary)[:300])}</div>")  # fmt: skip
        for stat in outcome.filter_stats:
            lines.append(f'<div class="zeph-stats">{html.escape(stat)}</div>')
        if outcome.overflow_id:
            lines.append(f'<div class="zeph-stats">full output stored as {html.escape(outcome.overflow_id)}</div>')
        self.stats.value = "".join(lines)
        raw = outcome.output.raw
        raw_text = json.dumps(dict(raw), indent=2, ensure_ascii=False, default=str) if raw else outcome.output.summary
        self.details.children = [w.HTML(_pre(outcome.text)), w.HTML(_pre(raw_text))]
        self.details.set_title(0, "What the model saw")
        self.details.set_title(1, "Raw output")
        self.details.selected_index = None


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
        warning: str | None = None,
        offline: bool = False,
    ) -> None:
        import ipywidgets as w

        self.prompt = prompt
        self.model = model
        self.approver_where = approver_where  # where an approver other than the buttons takes its answers
        self.offline = offline  # the stand-in model, because none is configured: a run "completes" doing nothing
        self.cards: dict[str, ToolCard] = {}
        self.calls = 0
        self.iteration = 0
        self.started = time.monotonic()
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
        self._state = ("#0969da", "running")
        self._render_status()

    # -- events --------------------------------------------------------------------------------------------

    def handle(self, event: Any) -> None:
        """Take one agent event (see ``zeph_nb.agent.events``)."""
        kind = getattr(event, "kind", "")
        if kind == "text_delta":
            self._add_text(event.text)
        elif kind == "iteration_started":
            self._flush_text(final=True)
            self.iteration = event.iteration
            self._render_status()
        elif kind == "retrying":  # a countdown, one event a second, until the model is asked again
            self._render_status(f"retrying in {event.seconds} s ({event.reason}), try {event.attempt}")
        elif kind == "approval_requested":
            self._flush_text(final=True)
            self._state = ("#9a6700", "waiting for approval")  # not "running": nothing runs until someone answers
            self._render_status()
            self.card(event.request.call_id, event.request.tool, event.request.params).waiting(
                event.request, self.approver_where
            )
        elif kind == "approval_answered":
            decision = event.decision
            card = self.card(event.request.call_id, event.request.tool, event.request.params)
            card.answered(decision.approved, decision.by, decision.remember)
            self._state = ("#0969da", "running")
            self._render_status()
        elif kind == "tool_call_started":
            self._flush_text(final=True)
            card = self.card(event.call.call_id, event.call.tool_id, event.call.params)
            card.running()
        elif kind == "tool_call_finished":
            self.calls += 1
            outcome = event.outcome
            self.card(outcome.call.call_id, outcome.tool, outcome.call.params).finished(outcome)
            self._render_status()
        elif kind == "stopped":
            self.stopped(event.result)

    def card(self, call_id: str, tool: str, params: Any) -> ToolCard:
        card = self.cards.get(call_id)
        if card is None:
            card = self.cards[call_id] = ToolCard(tool, params)
            self.body.children = (*self.body.children, card.widget)
        return card

    def stopped(self, result: Any) -> None:
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
        self._render_status(result.detail)

    def failed(self, error: BaseException) -> None:
        """The run raised (bad configuration, a bug): say so in the transcript, where the person is looking."""
        import ipywidgets as w

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
        color, label = self._state
        parts = [f'<span class="zeph-dot" style="background:{color}"></span><b>{html.escape(label)}</b>']
        if self.model:
            parts.append(html.escape(self.model))
        if self.iteration:
            parts.append(f"round {self.iteration}")
        parts.append(f"{self.calls} tool call{'s' if self.calls != 1 else ''}")
        if detail and label != "completed":
            parts.append(html.escape(redact(detail)))
        self.status.value = '<div class="zeph-head">' + " · ".join(parts) + "</div>"

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
        if final:
            self._text = None


def _diff_html(diff: str) -> str:
    """A unified diff, escaped, its added and removed lines coloured."""
    lines = []
    for line in diff.splitlines():
        escaped = html.escape(visible(line))
        if line.startswith("+") and not line.startswith("+++"):
            lines.append(f'<span style="color:#1a7f37">{escaped}</span>')
        elif line.startswith("-") and not line.startswith("---"):
            lines.append(f'<span style="color:#cf222e">{escaped}</span>')
        else:
            lines.append(escaped)
    return '<pre class="zeph-diff">' + "\n".join(lines) + "</pre>"


def _static(widget: Any) -> str:
    """One widget (and its children) as the HTML it shows."""
    import ipywidgets as w

    if isinstance(widget, w.Button):
        return ""
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
