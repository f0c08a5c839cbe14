"""From a tool's output to what the model reads: filters, secret redaction, overflow.

Order matters: the raw output (a command's with its terminal escapes stripped) is scanned for secrets first (so a
credential a filter drops still produces the warning), then filters run (they need the original lines), then
secrets are redacted in what is left, and so is every value found in the whole output wherever it appears (so
neither the model, nor the overflow store, nor the audit log ever holds them), then text over the overflow
threshold goes to the store and the model gets its head and tail with the ``overflow:<uuid>`` id to read the rest.

Only shell output is filtered: a file read or a fetched page must reach the model as it is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from zeph_nb.config import Settings
from zeph_nb.output.sanitize import CHARS_PER_TOKEN, without_escapes
from zeph_nb.security.secrets import compile_extra, redact, scan_secrets
from zeph_nb.tools.base import ToolCall, ToolDef, ToolOutput

if TYPE_CHECKING:
    # A type here only: the filter engine (its rule models, strategies, summarizers: ~35 ms) is imported by
    # the first output that is filtered (output/loading.py), not by every new Agent's chain.
    from zeph_nb.output.engine import FilteredOutput
    from zeph_nb.store.store import Store

__all__ = ["OutputPipeline", "ProcessedOutput"]


@dataclass(frozen=True)
class ProcessedOutput:
    text: str  # what the model reads
    filtered: FilteredOutput | None = None
    overflow_id: str | None = None
    secret_kinds: tuple[str, ...] = ()
    raw_chars: int = 0
    stats: list[str] = field(default_factory=list)

    @property
    def tokens_saved(self) -> int:
        """What the filter saved against the output as the command printed it (``raw_chars``): the terminal
        escapes the pipeline strips before the filter reads it are saved tokens too."""
        if self.filtered is None:
            return 0
        return max(0, round((self.raw_chars - self.filtered.filtered_chars) / CHARS_PER_TOKEN))


class OutputPipeline:
    """Processes outputs for one conversation; ``store`` is where overflow goes (None: cut without keeping)."""

    def __init__(self, settings: Settings, store: Store | None, conversation_id: str) -> None:
        self.settings = settings
        self.store = store
        self.conversation_id = conversation_id

    def process(self, call: ToolCall, output: ToolOutput, tool: ToolDef | None = None) -> ProcessedOutput:
        """What the model reads of ``output``: filtered when ``tool`` says its output is (``ToolDef.filtered``: a
        command's log, keyed by its command line), redacted, and cut with an overflow id when long."""
        filtering = tool is not None and tool.filtered
        text = raw = output.text_for_model
        raw_chars = len(text)
        filtered = None
        stats: list[str] = []
        config = self.settings.output
        scan = config.filters.security
        extra = compile_extra(scan.extra_patterns)
        if filtering:
            # What the scan reads and the overflow keeps of a command's output, filtered or not: a colour code inside
            # a token (`ghp_Zx8Q\x1b[0m…`) hid it from the scan, and read_overflow gave it back whole. Only escapes
            # go: a line drawn over with \r is still in the copy the removal note names.
            text = raw = without_escapes(raw)
        raw_findings = scan_secrets(text, extra) if scan.enabled else []
        if output.error is None and filtering and config.summarize and config.filters.enabled:
            from zeph_nb.output.loading import filter_output

            assert tool is not None
            command = str(call.params.get(tool.subject[0], "")) if tool.subject else ""
            filtered = filter_output(command, text, output.exit_code, self.settings)
            text = filtered.text
            line = filtered.stats_line("shell")
            if line:  # how far the filter understood the output, for the person reading the card
                stats.append(f"{line} ({filtered.rule or 'no rule'}, {filtered.confidence.label})")
        if filtered is not None and scan.enabled:
            # What is left is scanned again (a filter moves lines), with every value the whole output named: a
            # line kept or put back may repeat a secret that only a dropped line named (`TOKEN=X` ... `X refused`).
            known = {raw[f.start : f.end]: f.kind for f in raw_findings}
            findings = scan_secrets(text, extra, known)
        else:
            findings = raw_findings
        kinds = tuple(sorted({finding.kind for finding in [*raw_findings, *findings]}))
        if findings:
            text = redact(text, findings)
        dropped = len(raw_findings) - len(findings)
        if findings or raw_findings:
            where = f", {dropped} of them in lines the filter left out" if dropped > 0 else ""
            text += (
                f"\n[{max(len(findings), len(raw_findings))} secret-looking value(s) ({', '.join(kinds)}) were in "
                f"this output{where}; they are redacted: do not try to print or use them]"
            )
        whole_id = None
        if filtered is not None and filtered.changed:
            # Never hide silently: the model is told what went, and can bring the whole output back.
            note, whole_id = self._removal_note(call, filtered, redact(raw, raw_findings) if raw_findings else raw)
            text += "\n" + note
        overflow_id = None
        threshold = config.overflow.threshold
        if len(text) > threshold:
            text, overflow_id = self._overflow(call, text, threshold)
        # The audit row's and the card's overflow id is where the whole output is: the one the removal note names
        # when the filter changed it (the head-and-tail cut's copy is of the filtered text).
        return ProcessedOutput(text, filtered, whole_id or overflow_id, kinds, raw_chars, stats)

    def _removal_note(self, call: ToolCall, filtered: FilteredOutput, raw: str) -> tuple[str, str | None]:
        """One line: how many lines which filter removed, and the overflow id the whole output (secrets
        redacted) is kept under; and that id."""
        what = f"the {filtered.rule} filter" if filtered.rule else "the filter"
        removed = (
            f"[{'' if filtered.counted else 'at least '}{filtered.lines_removed:,} of {filtered.raw_lines:,} lines "
            f"removed by {what}"
            if filtered.lines_removed
            else f"[lines rewritten by {what}"  # it dropped nothing, but what the model read is not the output
        )
        if self.store is None:
            return removed + "]", None
        whole_id = self._keep(call, raw)
        return f"{removed}; the whole output is {whole_id}: call read_overflow with that id to read it]", whole_id

    def _keep(self, call: ToolCall, text: str) -> str:
        """Store ``text`` as this call's overflow; its id."""
        assert self.store is not None
        return self.store.put_overflow(
            self.conversation_id,
            text,
            tool=call.tool_id,
            call_id=call.call_id,
            max_bytes=self.settings.output.overflow.max_overflow_bytes,
        )

    def _overflow(self, call: ToolCall, text: str, threshold: int) -> tuple[str, str | None]:
        overflow_id = self._keep(call, text) if self.store is not None else None
        # Head and tail: how a command starts and how it ends are both usually informative.
        head, tail = text[: threshold * 2 // 5], text[-(threshold * 2 // 5) :]
        if overflow_id is not None:
            note = (
                f"\n... [{len(text) - len(head) - len(tail)} characters not shown; the full output is stored as "
                f"{overflow_id}: call read_overflow with that id to read it] ...\n"
            )
        else:
            note = f"\n... [{len(text) - len(head) - len(tail)} characters not shown] ...\n"
        return head + note + tail, overflow_id
