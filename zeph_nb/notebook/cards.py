"""What the transcript draws: its stylesheet, and one card per tool call (its status, output and, while it
waits, the approval prompt or where the answer is given).

Everything a card shows is escaped and redacted here, because a widget's HTML is kept in the saved notebook and
rendered as the person's own page.
"""

from __future__ import annotations

import html
import json
import re
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from zeph_nb.gates.policy import GRANTED
from zeph_nb.output.sanitize import visible
from zeph_nb.security.secrets import redact
from zeph_nb.tools.base import call_summary

if TYPE_CHECKING:
    import ipywidgets

    from zeph_nb.gates.approval import ApprovalRequest
    from zeph_nb.gates.call import CallOutcome

__all__ = ["STYLE", "ToolCard", "call_summary", "clock", "elapsed", "pane_snapshot", "python_html"]


def clock() -> float:
    """The widgets' clock (monotonic seconds); tests move it by hand without touching the event loop's."""
    return time.monotonic()


def elapsed(seconds: float) -> str:
    """``7 s``, ``2 min 05 s``, ``1 h 02 min``: how long a run or a wait has lasted, for a glance."""
    whole = int(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60:02d} s"
    return f"{whole // 3600} h {whole % 3600 // 60:02d} min"


# Rendered once per transcript; class names are prefixed so nothing else on the page is touched.
STYLE = """
<style>
.zeph-run { border: 1px solid #d0d7de; border-radius: 8px; padding: 10px 12px; background: #fff;
  font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial, sans-serif; max-width: 980px; }
.zeph-head { font-size: 13px; color: #57606a; }
.zeph-head b { color: #24292f; }
.zeph-dot { display: inline-block; width: 8px; height: 8px; border-radius: 4px; margin-right: 6px; }
.zeph-live { animation: zeph-pulse 1.2s ease-in-out infinite; }
@keyframes zeph-pulse { 50% { opacity: 0.25; } }
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
.zeph-warn { color: #9a3412; font-weight: 600; }
.zeph-ask { font-size: 13px; margin: 4px 0; }
.zeph-ask a { color: var(--jp-content-link-color, #0969da); text-decoration: underline; }
.zeph-extra { color: #9a3412; background: #fff7ed; border-left: 3px solid #ea580c; padding: 2px 6px; margin: 3px 0;
  font-weight: 600; }
.zeph-ask pre, .zeph-pre, .zeph-code pre { background: #fff; border: 1px solid #d8dee4; border-radius: 4px;
  padding: 6px 8px; margin: 4px 0; white-space: pre-wrap; word-break: break-word; font-size: 12px;
  max-height: 360px; overflow: auto; }
.zeph-term { background: #0d1117; color: #e6edf3; border-radius: 4px; padding: 6px 8px; margin: 4px 0;
  font-size: 12px; white-space: pre; overflow: auto; max-height: 360px; }
.zeph-who { font-size: 12px; color: #57606a; margin-top: 2px; }
.zeph-rule { font-size: 11px; color: #57606a; margin-top: 2px; }
.zeph-rule summary { cursor: pointer; }
</style>
"""

_BADGES: dict[str, tuple[str, str]] = {
    "waiting": ("#bf8700", "waiting for you"),
    "running": ("#0969da", "running"),
    "done": ("#1a7f37", "done"),
    "background": ("#6e7781", "still running"),  # left running in a tmux pane on purpose (wait=false or a wait)
    "failed": ("#cf222e", "failed"),
    "denied": ("#9a6700", "denied"),
    "cancelled": ("#6e7781", "cancelled"),
}


def _pre(text: str, limit: int = 20_000) -> str:
    """``text`` for a card's panel, its head and tail when it is long: the end of what a model read holds the
    filter's note and the overflow id, and a command's last lines are often its verdict."""
    text = redact(text)
    if len(text) > limit:
        head, tail = text[: limit * 3 // 5], text[-(limit * 2 // 5) :]
        text = f"{head}\n… ({len(text) - len(head) - len(tail):,} characters not shown here) …\n{tail}"
    return f'<pre class="zeph-pre">{html.escape(text)}</pre>'


def _raw_text(raw: Mapping[str, object], summary: str) -> str:
    """A call's raw result as a person reads it: each text it printed as it was printed, under its name
    (``── stdout ──``), the rest as ``name: value``. As JSON, a log was one line of ``\\n`` escapes."""
    if not raw:
        return summary
    fields, texts = [], []
    for key, value in raw.items():
        if isinstance(value, str) and ("\n" in value or len(value) > 200):
            texts.append(f"── {key} ──\n{value}")
        else:
            fields.append(f"{key}: {json.dumps(value, ensure_ascii=False, default=str)}")
    return "\n".join([*fields, *texts])


def _summary(tool: str, params: Any) -> str:
    """The one line a person needs: the command, the path, the URL — else the arguments. Redacted: what a widget
    shows is kept in the saved notebook."""
    return redact(call_summary(params))


class ToolCard:
    """One tool call: what it is, its status, its output, and — while it waits — the approval buttons."""

    def __init__(self, tool: str, params: Any) -> None:
        import ipywidgets as w

        self.tool = tool
        self.params = params
        self.status = "running"
        self.started = clock()
        self.asked = self.started  # when it started waiting for a person
        self.title = w.HTML()
        self.stats = w.HTML()
        self.ask_box = w.VBox([])
        self.details = w.Accordion(children=[])
        self.widget = w.VBox([self.title, self.ask_box, self.stats, self.details])
        self.widget.add_class("zeph-card")
        self.buttons: dict[str, ipywidgets.Button] = {}
        self.answered_elsewhere = False  # waiting for someone other than the person here (a team reviewer)
        self._render_title()

    def _render_title(self, meta: str = "") -> None:
        color, label = _BADGES[self.status]
        if self.status == "waiting" and self.answered_elsewhere:
            label = "waiting for a reviewer"  # the team's reviewers decide: the person here cannot answer it
        line = visible(_summary(self.tool, self.params)).replace("\n", " ⏎ ")
        if len(line) > 160:  # cut before escaping: a cut through "&#x27;" showed the half entity
            line = line[:157] + "…"
        line = html.escape(line)
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
        self.asked = clock()
        self._render_title()
        command = request.summary.split(": ", 1)[-1]
        what = html.escape(visible(command))
        lines = command.count("\n") + 1
        longer = f"[{lines} lines, {len(command)} characters in all: scroll to read every one]"
        if lines > 6 or len(command) > 400:  # longer than the box shows at once: say so, so nothing is missed
            what += f"\n{longer}"
        # What the call gets beyond the sandbox (network, the kernel's environment, no sandbox at all) stands out.
        extras = "".join(f'<div class="zeph-extra">&#9888; {html.escape(line)}</div>' for line in request.extras)
        change = f"<b>What changes:</b>{_diff_html(request.preview)}" if request.preview else ""
        shown = f"<pre>{what}</pre>"
        code = request.subjects[0] if request.kind == "code" and request.subjects else None
        if code is not None:
            shown = python_html(code)  # what it does is easier to read in colour
            if code.count("\n") > 14 or len(code) > 1200:  # the box scrolls: say so above it, so nothing is missed
                shown = f'<div class="zeph-extra">{html.escape(longer)}</div>{shown}'
        prompt = w.HTML(
            f'<div class="zeph-ask"><b>Needs your approval.</b> {html.escape(request.verb or "This will run:")}'
            f"{shown}{extras}{change}"
            f"<b>Why it asks:</b> {_code_spans(html.escape(request.why))}"
            # The rules' own words, for whoever tunes the configuration (and what the audit log keeps): folded,
            # so the person deciding reads the reason once, in plain words.
            f'<details class="zeph-rule"><summary>the rule\'s words</summary>{html.escape(request.reason)}</details>'
            "</div>"
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

    def attach(self, widget: ipywidgets.Widget) -> None:
        """Something the tool shows beside its output: run_python's figures, a proposed cell."""
        self.widget.children = (*self.widget.children, widget)

    def waiting(self, request: ApprovalRequest, where: str | None, link: str | None = None) -> None:
        """The call waits for an approver that is not this cell's buttons (the dashboard's inbox, a script):
        say so, and where the answer is given. Buttons shown later (the widget approver) replace this."""
        import ipywidgets as w

        # "in the approval inbox …": the person answers it there; "by a team reviewer …": someone else does.
        self.answered_elsewhere = bool(where and where.startswith("by "))
        self.status = "waiting"
        self.asked = clock()
        self._render_title()
        until = f" Denied if nobody answers by {request.expires_at:%H:%M:%S} UTC." if request.expires_at else ""
        lead = "It waits to be answered" if self.answered_elsewhere else "Answer it"
        place = f" {lead} {html.escape(where)}." if where else ""
        if where and link:  # a path on this page's own server (notebook/server.py): opens beside the notebook
            words = html.escape(where.split(" (", 1)[0])
            href = html.escape(link, quote=True)
            place = f' {lead} <a href="{href}" target="_blank" rel="noopener noreferrer">{words}</a>.'
        self.ask_box.children = (
            w.HTML(f'<div class="zeph-ask"><b>Waiting for approval.</b> {_code_spans(html.escape(request.why))}{place}'
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

    def tick(self) -> None:
        """Once a second from the transcript's clock: how long it has waited for a person, or run."""
        if self.status == "waiting":
            self._render_title(f"waiting {elapsed(clock() - self.asked)}")
        elif self.status == "running":
            self._render_title(elapsed(clock() - self.started))

    def running(self) -> None:
        self.status = "running"
        self.started = clock()
        self._render_title()

    def finished(self, outcome: CallOutcome) -> None:
        import ipywidgets as w

        pane = outcome.output.raw.get("pane") if isinstance(outcome.output.raw, dict) else None
        if outcome.status == "ok" and pane and outcome.output.raw.get("running"):
            self.status = "background"
        elif outcome.status == "ok":
            self.status = "done"
        elif outcome.status in ("denied", "cancelled"):
            self.status = outcome.status
        else:
            self.status = "failed"
        meta = [f"{outcome.duration_ms / 1000:.1f} s"] if outcome.attempts else []
        if outcome.waited_ms:  # the person's thinking time, apart from what the call took
            meta.append(f"waited {outcome.waited_ms / 1000:.1f} s for approval")
        if outcome.exit_code is not None and outcome.exit_code >= 0:  # -1: it never ran
            meta.append(f"exit {outcome.exit_code}")
        if self.status == "background":
            meta.append(f"in pane {pane}")
        if outcome.cached:
            meta.append("from cache")
        rollback = outcome.rollback
        if rollback is not None:
            meta.append("rolled back")
        if outcome.attempts > 1:
            meta.append(f"{outcome.attempts} tries")
        self._render_title(" · ".join(meta))
        lines = []
        if outcome.status == "denied":
            # Who said no is on the card already; say which rule was involved, not the whole error again. A call
            # refused before anyone was asked (a managed ask AutoApprove may not answer) has no "Denied by" line:
            # the refusal's own sentence says why.
            why = outcome.reason or (outcome.category.label if outcome.category else "")
            if outcome.decision == "ask" and outcome.approved_by is None and not outcome.waited_ms:
                why = redact(outcome.output.summary)[:400]
            lines.append(f'<div class="zeph-stats">{html.escape(why)}</div>')
        elif outcome.category is not None:
            lines.append(f'<div class="zeph-error">{html.escape(outcome.category.label)}: '
                         f"{html.escape(redact(outcome.output.summary)[:300])}</div>")  # fmt: skip
        elif outcome.decision == "allow" and (outcome.reason or "").startswith(GRANTED):
            # Nobody was asked this time: the card says which earlier answer let it through.
            lines.append(f'<div class="zeph-stats">{html.escape(outcome.reason or "")}</div>')
        if rollback is not None:  # what the failing exit put back: said on the card, not only in the output
            restored, removed = len(rollback.get("restored", ())), len(rollback.get("removed", ()))
            said = (f"rolled back: restored {restored} file{'s' * (restored != 1)}, removed {removed} new "
                    f"file{'s' * (removed != 1)}")  # fmt: skip
            if rollback.get("not_restored"):
                said += "; not put back: " + "; ".join(map(str, rollback["not_restored"]))
            lines.append(f'<div class="zeph-stats">{html.escape(redact(said))}</div>')
        for stat in outcome.filter_stats:
            lines.append(f'<div class="zeph-stats">{html.escape(stat)}</div>')
        if outcome.overflow_id:
            lines.append(f'<div class="zeph-stats">full output stored as {html.escape(outcome.overflow_id)}</div>')
        snapshot = pane_snapshot(outcome)
        if snapshot is not None:  # what the pane shows, as a terminal shows it: the person sees what the model read
            lines.append(f'<pre class="zeph-term">{html.escape(redact(snapshot))}</pre>')
        self.stats.value = "".join(lines)
        # What the model read is whole up to past the default overflow threshold's head and tail (40,000 characters
        # and the note between them): the note and the overflow id must be on the card.
        model = _pre(outcome.text, limit=60_000)
        self.details.children = [w.HTML(model), w.HTML(_pre(_raw_text(outcome.output.raw, outcome.output.summary)))]
        self.details.set_title(0, "What the model saw")
        self.details.set_title(1, "Raw output")
        self.details.selected_index = None


PANE_TOOLS = ("capture-pane", "send-keys")
SNAPSHOT_LINES = 30


def pane_snapshot(outcome: CallOutcome) -> str | None:
    """The last lines a pane showed, from a capture-pane or send-keys that succeeded; None for other calls."""
    if outcome.call.tool_id not in PANE_TOOLS or outcome.status != "ok":
        return None
    lines = outcome.output.summary.splitlines()[1:]  # below the status line (send-keys: "sent …" and the status)
    if outcome.call.tool_id == "send-keys":
        lines = lines[1:]
    return "\n".join(lines[-SNAPSHOT_LINES:]) if lines else None


def _code_spans(escaped: str) -> str:
    """`name` in already escaped text as <code>name</code>: the explanations quote tools and rules that way."""
    return re.sub(r"`([^`<>]{1,200})`", r"<code>\1</code>", escaped)


def python_html(code: str) -> str:
    """Python code to approve: secrets that are only data redacted (never what could run), every invisible
    character written out, coloured by pygments (which escapes it)."""
    from pygments import highlight  # type: ignore[import-untyped]  # IPython's own dependency, untyped
    from pygments.formatters import HtmlFormatter  # type: ignore[import-untyped]
    from pygments.lexers import PythonLexer  # type: ignore[import-untyped]

    formatter = HtmlFormatter(noclasses=True, nobackground=True, cssclass="zeph-code")
    return str(highlight(visible(redact(code, review=True)), PythonLexer(), formatter))


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
