"""The outermost gate: it records every call, whatever became of it, as one audit row and one ``CallOutcome``
(with the anomaly detector's sample), even when a gate inside refused it or the run was stopped mid-call."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.gates.call import CallOutcome, GateCall, Handler, RunsOnUse, rewritten
from zeph_nb.gates.events import tool_kind
from zeph_nb.gates.policy.rules import GRANTED
from zeph_nb.security.secrets import redact, scan_secrets
from zeph_nb.tools.base import ToolOutput

if TYPE_CHECKING:
    from zeph_nb.store.audit_log import AuditLog

__all__ = ["KILLED", "NOT_RUN", "AuditGate"]

# The exit code recorded for a shell call with no exit status: its command never ran (or was stopped). Exit
# statuses are 0-255 and a signalled process shows as minus its signal (-9), never -1.
NOT_RUN = -1
KILLED = 128 + 9

log = logging.getLogger("zeph_nb.gates")


class AuditGate:
    """Outermost: times the call, builds its outcome and writes the audit row — also when the run is cancelled."""

    def __init__(
        self,
        inner: Handler,
        audit: AuditLog | None,
        *,
        observe: Callable[[GateCall], None],
        conversation: Callable[[], str],
        run: Callable[[], str] | None = None,
        trust: Callable[[str], str] | None = None,
    ) -> None:
        self.inner, self.audit = inner, audit
        self.trust = trust  # the trust level in force for a tool now (with its anomaly block), for the audit row
        self.observe = observe  # the anomaly detector's and the dependency graph's sample of a finished call
        self.conversation = conversation  # the conversation's id now (a new conversation changes it)
        self.run = run  # the run's id now (each Agent.run starts a new one)

    async def handle(self, gc: GateCall) -> ToolOutput:
        started = time.perf_counter()
        try:
            output = await self.inner.handle(gc)
        except asyncio.CancelledError:
            error = ToolError(ToolErrorCategory.CANCELLED, "the run was stopped while this call was in progress")
            self._finish(gc, ToolOutput.from_error(gc.call, error), started, cancelled=True)
            raise
        self._finish(gc, output, started)
        return output

    def _finish(self, gc: GateCall, output: ToolOutput, started: float, *, cancelled: bool = False) -> None:
        from zeph_nb.store.audit_log import AuditRecord

        trace = gc.trace
        finished = time.perf_counter()
        duration_ms = max(0.0, (finished - started) * 1000 - trace.waited_ms)
        category = output.error.category if output.error is not None else None
        decision = trace.decision
        if cancelled or category is ToolErrorCategory.CANCELLED:
            status = "cancelled"
        elif (
            category in (ToolErrorCategory.POLICY_BLOCKED, ToolErrorCategory.CONFIRMATION_REQUIRED)
            and trace.attempts == 0
        ):
            status = "denied"
        elif category is not None:
            status = "error"
        else:
            status = "ok"
        processed = trace.processed
        text = processed.text if processed is not None else output.text_for_model
        if trace.utility and trace.blocked_by != "utility":  # a warning: the model reads it with the result (a
            # call the utility gate skipped says it in its error; the note goes to the audit row's reason)
            text += f"\n[utility warning] {trace.utility}"
        exit_code = output.exit_code
        if exit_code is None and _runs_commands(gc) and not output.raw.get("running"):
            # A shell call has an exit code in the log (seed 003), unless its command still runs in a pane: one
            # killed at its timeout (its output envelope is there) gets KILLED, as a shell reports SIGKILL; one with
            # no exit status at all (refused, denied, not approved, invalid, stopped) gets NOT_RUN, which no
            # process returns.
            exit_code = KILLED if "stdout" in output.raw else NOT_RUN
        filtered = processed.filtered if processed is not None else None
        kept = output
        if processed is not None and processed.overflow_id is not None:
            kept = _slimmed(output, processed.overflow_id)  # the whole is on disk: memory keeps its ends
        gc.outcome = CallOutcome(
            call=gc.call,
            output=kept,
            text=text,
            status=status,
            decision=decision.action if decision is not None else None,
            matched_rule=decision.rule if decision is not None else None,
            reason=_reason(decision, trace.verdict, trace.utility, rewritten(gc.call)),
            approved_by=trace.approved_by,
            category=category,
            exit_code=exit_code,
            duration_ms=duration_ms,
            raw_chars=processed.raw_chars if processed is not None else len(output.text_for_model),
            model_chars=len(text),
            overflow_id=processed.overflow_id if processed is not None else None,
            filter_stats=tuple(processed.stats) if processed is not None else (),
            filter_confidence=filtered.confidence.label if filtered is not None else None,
            tokens_saved=processed.tokens_saved if processed is not None else 0,
            cached=trace.cached,
            attempts=trace.attempts,
            blocked_by=trace.blocked_by,
            waited_ms=trace.waited_ms,
            runs_on_use=trace.runs_on_use,
            tool_kind=tool_kind(gc.tool),
        )
        # Before observe: the anomaly detector's sample of this very call may block the tool after it was decided.
        trust = self.trust(gc.call.tool_id) if self.audit is not None and self.trust is not None else None
        self.observe(gc)
        if self.audit is None:
            return
        outcome = gc.outcome
        origin = gc.ctx.tool.origin if gc.ctx is not None else None
        self.audit.record(
            AuditRecord(
                tool=gc.call.tool_id,
                params=dict(gc.call.params) if isinstance(gc.call.params, dict) else {"params": gc.call.params},
                call_id=gc.call.call_id,
                conversation_id=self.conversation(),
                run_id=self.run() if self.run is not None else None,
                caller_id=gc.call.caller_id,
                status=status,
                decision=outcome.decision,
                matched_rule=outcome.matched_rule,
                reason=outcome.reason,
                approved_by=outcome.approved_by,
                exit_code=outcome.exit_code,
                truncated=output.truncated,
                error_category=category.label if category is not None else None,
                duration_ms=duration_ms,
                waited_ms=trace.waited_ms if trace.waited_ms else None,
                raw_bytes=outcome.raw_chars,
                filtered_bytes=outcome.model_chars,
                tokens_saved=outcome.tokens_saved,
                overflow_id=outcome.overflow_id,
                filter_rule=filtered.rule if filtered is not None else None,
                filter_confidence=outcome.filter_confidence,
                cached=trace.cached,
                attempts=trace.attempts,
                sandbox=_sandbox_label(gc, output),
                network_hosts=_network_hosts(output),
                mcp_server=origin[0] if origin is not None else None,
                mcp_tool=origin[1] if origin is not None else None,
                runs_on_use=_runs_on_use(trace.runs_on_use),
                rollback=json.dumps(outcome.rollback) if outcome.rollback is not None else None,
                trust_level=trust,
                result_text=_result_text(text, outcome.overflow_id),
                claim_source=_claim_source(trace),
                phases=_phases(trace, started, finished),
            )
        )


# The most of what the model read that a row keeps: enough for an auditor to read what it was told, small enough that
# the log stays a log (the whole output is in the overflow table, named in the row).
RESULT_TEXT_CHARS = 2_000


def _result_text(text: str, overflow_id: str | None) -> str:
    """The model's text, cut to RESULT_TEXT_CHARS with a note of how long it was and where the whole is. It is
    redacted once, with the rest of the row, by the store's choke point (a secret cut in two is the pipeline's
    redaction already applied to the whole text, so no piece of one is left to leak)."""
    if len(text) <= RESULT_TEXT_CHARS:
        return text
    where = f"; the whole output is {overflow_id}" if overflow_id else ""
    return f"{text[:RESULT_TEXT_CHARS]}\n… [{len(text):,} characters in all{where}]"


# What a refusal before any decision names as the gate that refused, for claim_source.
_GATES = {"blocklist": "blocklist", "policy": "policy"}


def _claim_source(trace: Any) -> str | None:
    """Where the call's authority came from, in the fixed words ToolCallRow.claim_source lists."""
    if trace.answered_via is not None:  # an ask: whoever answered it decided (approved_by names them)
        return str(trace.answered_via)
    decision = trace.decision
    if decision is None:
        return _GATES.get(trace.blocked_by, "gate") if trace.blocked_by is not None else None
    rule = decision.rule
    if decision.managed:
        return "managed"
    if rule == "blocklist":
        return "blocklist"
    if rule == "gates.policy":
        return "policy"
    if rule == "trust":
        return "trust"
    if rule.startswith("default (trust level"):
        return "default"
    if rule == "shell classifier" or rule.endswith(" executor"):
        return "classifier"
    if decision.reason.startswith(GRANTED):
        return "grant"
    return "config"


# The points the gates mark on the trace's clock, in the order a call passes them, each ending the phase named.
_POINTS = (("prepared", "prepare"), ("decided", "decide"), ("executing", "checks"), ("executed", "execute"),
           ("processed", "output"))  # fmt: skip


def _phases(trace: Any, started: float, finished: float) -> str:
    """Milliseconds of each phase the call went through (ToolCallRow.phases), as a JSON object. Written by hand: the
    names are this module's own words and the values numbers, and it runs on every call (json.dumps of the rounded
    values cost three times as much)."""
    clock, parts, last = trace.clock, [], started
    waited = trace.waited_ms
    for point, name in _POINTS:
        at = clock.get(point)
        if at is None:
            continue
        ms = (at - last) * 1000
        # The wait for a person happened between the decision and the run (or the refusal, when not approved).
        if waited and (name == "checks" or (name == "output" and "executing" not in clock)):
            ms -= waited
            parts.append(f'"wait": {waited:.3f}')
        parts.append(f'"{name}": {max(ms, 0.0):.3f}')
        last = at
    parts.append(f'"record": {(finished - last) * 1000:.3f}')
    return "{" + ", ".join(parts) + "}"


def _reason(decision: Any, *notes: str | None) -> str | None:
    """The rules' reason, then the adversarial policy check's verdict and the utility warning when there are any
    (seed 003: into the audit row)."""
    parts = [decision.reason if decision is not None else None, *notes]
    return "; ".join(part for part in parts if part) or None


def _runs_commands(gc: GateCall) -> bool:
    """Whether the call is a shell call (bash, here or on a remote backend), known even when it failed validation."""
    return gc.tool is not None and gc.tool.runs_commands


def _sandbox_label(gc: GateCall, output: ToolOutput) -> str | None:
    """bwrap, none or unsandboxed for a command that ran (or was about to); None for other tools."""
    label = output.raw.get("sandbox") if isinstance(output.raw, dict) else None
    if isinstance(label, str):
        return label
    scope = gc.trace.scope
    return scope.label if scope is not None and gc.trace.attempts else None


def _network_hosts(output: ToolOutput) -> str | None:
    network = output.raw.get("network") if isinstance(output.raw, dict) else None
    if not isinstance(network, dict):
        return None
    return json.dumps(network.get("reached", []))


def _runs_on_use(found: tuple[RunsOnUse, ...]) -> str | None:
    if not found:
        return None
    return redact(json.dumps([{"path": f.path, "why": f.why} for f in found], ensure_ascii=False))


# What a call's outcome keeps of a long text once the whole is stored: each end (a card shows 12,000 characters of
# the head and 8,000 of the tail). Every past call's outcome stays in RunResult.tool_calls: with the whole kept, 20
# calls of 15 MB held 1.2 GB.
_KEEP = 20_000
# Context read around each end to find the secrets in it: a named value's name, a key's PEM header before it.
_MARGIN = 65_536


def _slimmed(output: ToolOutput, overflow_id: str) -> ToolOutput:
    """``output`` with each long text cut to its two ends, secrets there redacted (an end must never begin or stop
    inside a secret: a piece of one is no longer recognised downstream), and where the whole is."""

    def cut(value: str) -> str:
        if len(value) <= 3 * _KEEP:
            return value
        head, tail = value[: _KEEP + _MARGIN], value[-(_KEEP + _MARGIN) :]
        found_head, found_tail = scan_secrets(head), scan_secrets(tail)
        end, start = _KEEP, len(tail) - _KEEP
        for finding in found_head:
            if finding.start < end < finding.end:
                end = finding.start
        for finding in found_tail:
            if finding.start < start < finding.end:
                start = finding.end
        kept_head = redact(head[:end], [f for f in found_head if f.end <= end])
        kept_tail = redact(tail[start:], [dataclasses.replace(f, start=f.start - start, end=f.end - start)
                                          for f in found_tail if f.start >= start])  # fmt: skip
        left_out = len(value) - end - (len(tail) - start)
        return (f"{kept_head}\n… [{left_out:,} characters not kept in memory; the whole output, secrets redacted, is "
                f"{overflow_id}: read_overflow reads it] …\n{kept_tail}")  # fmt: skip

    raw = {key: cut(value) if isinstance(value, str) else value for key, value in output.raw.items()}
    return dataclasses.replace(output, summary=cut(output.summary), raw=raw)
