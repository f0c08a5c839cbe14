"""The transcript as plain text, for IPython in a terminal or a front-end without the widget manager."""

from __future__ import annotations

import sys
from typing import Any, TextIO

from zeph_nb.security.secrets import redact

__all__ = ["PlainTranscript"]


class PlainTranscript:
    """Everything written is redacted (it ends up in the saved notebook); the model's text is written a whole line at
    a time, so a credential split across two streamed pieces is still seen whole."""

    def __init__(self, out: TextIO | None = None) -> None:
        self.out = out or sys.stdout
        self._in_text = False
        self._pending = ""
        self._retry_shown = 0

    def _write(self, text: str) -> None:
        self.out.write(redact(text))
        self.out.flush()

    def _line(self, text: str) -> None:
        if self._pending:
            self._write(self._pending)
            self._pending = ""
        if self._in_text:
            self.out.write("\n")
            self._in_text = False
        self._write(text + "\n")

    def handle(self, event: Any) -> None:
        kind = getattr(event, "kind", "")
        if kind == "text_delta":
            lines, newline, self._pending = (self._pending + event.text).rpartition("\n")
            if newline:
                self._write(lines + newline)
            self._in_text = True
        elif kind == "retrying":
            if event.attempt != self._retry_shown:  # once per try, not once a second
                self._retry_shown = event.attempt
                self._line(f"  retrying in {event.seconds} s ({event.reason}), try {event.attempt}")
        elif kind == "tool_call_started":
            params = event.call.params
            shown = params.get("command") or params.get("path") if isinstance(params, dict) else None
            self._line(f"▶ {event.call.tool_id}: {shown or params}")
        elif kind == "tool_call_finished":
            outcome = event.outcome
            extra = f" exit {outcome.exit_code}" if outcome.exit_code is not None else ""
            error = f" ({outcome.category.label})" if outcome.category is not None else ""
            waited = f" (waited {outcome.waited_ms / 1000:.1f} s for approval)" if outcome.waited_ms else ""
            self._line(f"  {outcome.status}{extra}{error}, {outcome.duration_ms / 1000:.1f} s{waited}")
            for stat in outcome.filter_stats:
                self._line(f"  {stat}")
        elif kind == "stopped":
            result = event.result
            self._line(f"[{result.stop_reason}{': ' + result.detail if result.detail else ''}]")
