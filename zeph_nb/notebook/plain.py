"""The transcript as plain text, for IPython in a terminal or a front-end without the widget manager."""

from __future__ import annotations

import sys
from typing import TextIO

from zeph_nb.agent.events import (
    AgentEvent,
    ApprovalRequested,
    Retrying,
    Stopped,
    StreamAbandoned,
    TextDelta,
    ToolCallFinished,
    ToolCallStarted,
    ToolsOffered,
)
from zeph_nb.notebook.cards import pane_snapshot
from zeph_nb.notebook.written import after_run_lines, forget_earlier_refusals
from zeph_nb.security.secrets import redact

__all__ = ["PlainTranscript"]


class PlainTranscript:
    """Everything written is redacted (it ends up in the saved notebook); the model's text is written a whole line at
    a time, so a credential split across two streamed pieces is still seen whole."""

    def __init__(self, out: TextIO | None = None, warning: str | None = None) -> None:
        forget_earlier_refusals()  # the footer tells this run's refusals only
        self.out = out or sys.stdout
        if warning:  # e.g. that commands are not sandboxed here, why, and the fix: before anything else
            self._write(f"⚠ {warning}\n")
        self._in_text = False
        self._pending = ""
        self._retry_shown = 0
        self._offered_shown: tuple[str, ...] = ()

    def _write(self, text: str) -> None:
        self.out.write(redact(text))
        self.out.flush()

    def _end_text(self) -> None:
        """Finish the model's text written so far, on a line of its own."""
        if self._pending:
            self._write(self._pending)
            self._pending = ""
        if self._in_text:
            self.out.write("\n")
            self._in_text = False

    def _line(self, text: str) -> None:
        self._end_text()
        self._write(text + "\n")

    def handle(self, event: AgentEvent) -> None:
        match event:
            case TextDelta(text=text):
                lines, newline, self._pending = (self._pending + text).rpartition("\n")
                if newline:
                    self._write(lines + newline)
                self._in_text = True
            case StreamAbandoned(reason=reason):
                # What was written of the cut-off reply stays on the terminal; say it is void before the retry's.
                self._pending = ""
                self._line(f"  [{reason}: the reply above was cut off, is not part of the answer, and is asked again]")
            case Retrying(seconds=seconds, reason=reason, attempt=attempt):
                if attempt != self._retry_shown:  # once per try, not once a second
                    self._retry_shown = attempt
                    self._line(f"  retrying in {seconds} s ({reason}), try {attempt}")
            case ToolsOffered(offered=offered, total=total, note=note):
                if offered != self._offered_shown:  # once per change, not once a round
                    self._offered_shown = offered
                    self._line(
                        f"  {note}" if note else f"  offered {len(offered)} of {total} tools: {', '.join(offered)}"
                    )
            case ToolCallStarted(call=call):
                params = call.params
                shown = params.get("command") or params.get("path") if isinstance(params, dict) else None
                self._line(f"▶ {call.tool_id}: {shown or params}")
            case ToolCallFinished(outcome=outcome):
                ran = outcome.exit_code is not None and outcome.exit_code >= 0  # -1: the command never ran
                extra = f" exit {outcome.exit_code}" if ran else ""
                error = f" ({outcome.category.label})" if outcome.category is not None else ""
                waited = f" (waited {outcome.waited_ms / 1000:.1f} s for approval)" if outcome.waited_ms else ""
                self._line(f"  {outcome.status}{extra}{error}, {outcome.duration_ms / 1000:.1f} s{waited}")
                if outcome.rollback is not None:
                    self._line(f"  rolled back: restored {len(outcome.rollback.get('restored', ()))}, removed "
                               f"{len(outcome.rollback.get('removed', ()))} new")  # fmt: skip
                for stat in outcome.filter_stats:
                    self._line(f"  {stat}")
                snapshot = pane_snapshot(outcome)
                if snapshot is not None:  # a pane's screen, indented as a block
                    for line in snapshot.splitlines():
                        self._line(f"  │ {line}")
            case Stopped(result=result):
                self._line(f"[{result.stop_reason}{': ' + result.detail if result.detail else ''}]")
                for warning in result.warnings:
                    self._line(f"[warning: {warning}]")
                for line in after_run_lines(result):
                    self._line(line)
            case ApprovalRequested():
                # The console approver asks next, on its own: the model's words that led to the call come first.
                self._end_text()
            case _:  # iterations and answers: the console approver says them itself
                pass
