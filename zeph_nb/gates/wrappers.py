"""The gates: each a small wrapper around the next handler, holding only what it needs. Their order is fixed in
``chain.py`` (``build_chain``), not here.

A gate either refuses (raises a ToolError, which the output gate turns into the value the model reads) or passes
the call on and returns what came back. Gates after the context gate read the call's frozen ``Prepared``
(validated arguments, a command line parsed once, its subjects); what a gate learns goes into the call's
append-only ``Trace``, which the recorder (``recording.py``) turns into the outcome and the audit row.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.gates.approval import ApprovalRequest, AutoApprove
from zeph_nb.gates.call import GateCall, Handler, Prepared, Trace, rewritten
from zeph_nb.gates.events import ApprovalAnswered, ApprovalRequested, ToolCallStarted, tool_kind
from zeph_nb.gates.policy import PolicyDecision
from zeph_nb.gates.policy.containment import web_host
from zeph_nb.store.store import utc_now
from zeph_nb.tools.base import ToolCall, ToolDef, ToolExecutor, ToolOutput

if TYPE_CHECKING:
    from zeph_nb.config import RetrySettings
    from zeph_nb.gates.approval.desk import ApprovalDesk
    from zeph_nb.gates.cache import ResultCache
    from zeph_nb.gates.events import GateEvent
    from zeph_nb.gates.policy.grants import PermissionGrants
    from zeph_nb.gates.policy.permissions import Permissions
    from zeph_nb.gates.policy.quota import Quota
    from zeph_nb.output.pipeline import OutputPipeline

__all__ = [
    "ApprovalGate",
    "AskedWith",
    "BlocklistGate",
    "CacheGate",
    "ExecutorGate",
    "OutputGate",
    "PolicyGate",
    "QuotaGate",
    "RetryGate",
    "backoff",
]

log = logging.getLogger("zeph_nb.gates")


def backoff(settings: RetrySettings, retry: int) -> float:
    """Seconds before retry number ``retry`` (0-based): base * 2^n capped at max, times a jitter in [0.5, 1).
    The one formula for tools (the retry gate) and for the model (the agent loop)."""
    ceiling = min(settings.max_ms, settings.base_ms * 2**retry) / 1000
    return float(ceiling * (0.5 + random.random() / 2))  # noqa: S311 - jitter, not cryptography


def refuse(
    trace: Trace, gate: str, decision: PolicyDecision | None, category: ToolErrorCategory, message: str
) -> ToolError:
    """The ToolError a gate raises to refuse, with who refused (and, when no gate decided yet, why) traced."""
    trace.note(blocked_by=gate)
    if decision is not None and trace.decision is None:
        trace.note(decision=decision)
    return ToolError(category, message)


def _ctx(gc: GateCall) -> Prepared:
    assert gc.ctx is not None, "a gate after the context gate ran before it: the order in build_chain is wrong"
    return gc.ctx


class OutputGate:
    """Turns refusals and failures into the value the model reads, then filters, redacts and overflows it."""

    def __init__(self, inner: Handler, pipeline: OutputPipeline) -> None:
        self.inner, self.pipeline = inner, pipeline

    async def handle(self, gc: GateCall) -> ToolOutput:
        try:
            output = await self.inner.handle(gc)
        except ToolError as e:
            output = ToolOutput.from_error(gc.call, e)
        except Exception as e:  # a bug in a tool must not take the run down; the model and the log see it
            log.exception("zeph-nb: tool %s failed unexpectedly", gc.call.tool_id)
            error = ToolError(ToolErrorCategory.PERMANENT_FAILURE, f"internal error in {gc.call.tool_id}: {e!r}")
            output = ToolOutput.from_error(gc.call, error)
        if output.error is not None and gc.trace.attempts > 1:  # the retry gate ran it again: the model is told
            output = dataclasses.replace(output, error=dataclasses.replace(output.error, retried=True))
        gc.trace.note(processed=self.pipeline.process(gc.call, output, gc.tool))
        gc.trace.clock["processed"] = time.perf_counter()
        return output


class QuotaGate:
    def __init__(self, inner: Handler, quota: Quota) -> None:
        self.inner, self.quota = inner, quota

    async def handle(self, gc: GateCall) -> ToolOutput:
        quota = self.quota
        if not quota.take():
            raise refuse(
                gc.trace,
                "quota",
                PolicyDecision("deny", "gates.quota.max_tool_calls_per_session", f"quota of {quota.limit} calls used"),
                ToolErrorCategory.POLICY_BLOCKED,
                f"quota_blocked: this conversation has used all {quota.limit} tool calls it may make "
                "(gates.quota.max_tool_calls_per_session); the call did not run. Answer with what you have.",
            )
        return await self.inner.handle(gc)


class BlocklistGate:
    """The unconditional blocklist: no rule, grant, trust level or approver can let these through."""

    def __init__(self, inner: Handler) -> None:
        self.inner = inner

    async def handle(self, gc: GateCall) -> ToolOutput:
        analysis = _ctx(gc).analysis
        if analysis is not None and analysis.verdict == "block":
            reasons = "; ".join(r.removeprefix("blocked: ") for r in analysis.block_reasons)
            raise refuse(
                gc.trace,
                "blocklist",
                PolicyDecision("deny", "blocklist", reasons),
                ToolErrorCategory.POLICY_BLOCKED,
                f"blocked: {reasons}. This command is never run, whatever the permission rules say.",
            )
        return await self.inner.handle(gc)


class PolicyGate:
    """Permission and authorization rules, grants, trust level, anomaly blocks and tool dependencies, and what
    containment adds (``permissions``: the conversation's, ``gates/policy/permissions.py``). ``confirms`` is the
    executor's own say for a call that is not a command line."""

    def __init__(self, inner: Handler, permissions: Permissions, confirms: Callable[[ToolCall], bool]) -> None:
        self.inner, self.permissions, self.confirms = inner, permissions, confirms

    async def handle(self, gc: GateCall) -> ToolOutput:
        ctx = _ctx(gc)
        tool = ctx.tool
        hidden = self.permissions.hidden_reason(tool.name)
        if hidden is not None:
            raise refuse(gc.trace, "policy", PolicyDecision("deny", hidden[0], hidden[1]),
                         ToolErrorCategory.POLICY_BLOCKED, f"{tool.name} is not available: {hidden[1]}")  # fmt: skip
        # A command line's parse says whether it wants confirmation; asking the executor would parse it again.
        wants = ctx.analysis.verdict != "allow" if ctx.analysis is not None else self.confirms(ctx.call)
        if not wants and ctx.analysis is not None and tool.own_confirmation:
            wants = self.confirms(ctx.call)
        decision = self.permissions.decide_call(ctx, wants_confirmation=wants)
        gc.trace.clock["decided"] = time.perf_counter()
        gc.trace.note(decision=decision)
        if ctx.scope is not None:
            gc.trace.note(scope=ctx.scope, opened=tuple(str(folder) for folder in ctx.scope.opened))
        if decision.action == "deny":
            message = f"{decision.reason}. Do not retry this call; choose another way or ask the user."
            raise refuse(gc.trace, "policy", decision, ToolErrorCategory.POLICY_BLOCKED, message)
        return await self.inner.handle(gc)


@dataclass(frozen=True)
class AskedWith:
    """What an approval request shows besides the call itself: the call's parameters with secrets masked, a
    write's diff, the conversation it belongs to."""

    redact: Callable[[Mapping[str, Any]], dict[str, Any]]
    preview: Callable[[ToolDef, Mapping[str, Any]], str]
    conversation: Callable[[], str]


class ApprovalGate:
    """For an *ask*: waits for the conversation's approver (``desk``), at most ``timeout`` seconds, and tells
    ``events`` it asked and what came back. A yes to a web call lets its host be reached again
    (``approved_hosts``); "Always allow" becomes a grant (``grants``)."""

    def __init__(
        self,
        inner: Handler,
        desk: ApprovalDesk,
        *,
        timeout: float,
        events: Callable[[GateEvent], None],
        grants: PermissionGrants,
        approved_hosts: set[str],
        shown: AskedWith,
    ) -> None:
        self.inner, self.desk, self.timeout, self.events = inner, desk, timeout, events
        self.grants, self.approved_hosts, self.shown = grants, approved_hosts, shown

    async def handle(self, gc: GateCall) -> ToolOutput:
        ctx, decision = _ctx(gc), gc.trace.decision
        if decision is None or decision.action != "ask":
            if decision is not None:
                self.events(ToolCallStarted(gc.call, decision, tool_kind=tool_kind(ctx.tool)))
            return await self.inner.handle(gc)
        request = ApprovalRequest(
            call_id=gc.call.call_id,
            tool=ctx.tool.name,
            params=self.shown.redact(gc.call.params),
            subjects=ctx.subjects.values,
            rule=decision.rule,
            reason=decision.reason,
            reasons=decision.reasons,
            asking=(decision.asking or ctx.subjects.values) if decision.grantable else (),
            extras=(
                *decision.extras,
                *(note for note in (gc.trace.verdict, gc.trace.utility, rewritten(gc.call)) if note),
            ),
            remedy=decision.remedy,
            preview=self.shown.preview(ctx.tool, gc.call.params),
            verb=ctx.tool.verb,
            kind=ctx.tool.subject_kind,
            explained=ctx.tool.explain(ctx.subjects.values) if ctx.tool.explain is not None else "",
            conversation_id=self.shown.conversation(),
            # Set before waiting starts, so by the time wait_for gives up the wall clock is past it too.
            expires_at=utc_now() + timedelta(seconds=self.timeout),
        )
        if decision.managed and isinstance(self.desk.answering, AutoApprove):
            # A managed ask is the organisation's: a person answers it, never an approver that says yes to all.
            raise refuse(
                gc.trace,
                "approval",
                None,
                ToolErrorCategory.CONFIRMATION_REQUIRED,
                f"{request.summary} asks because {decision.managed}: a person must answer it, and AutoApprove "
                "may not; it did not run",
            )
        self.events(ApprovalRequested(request))
        asked = time.perf_counter()
        try:
            answer = await self.desk.ask(request, self.timeout)
        finally:  # a person's thinking time is not the call's duration: two clocks (also when stopped while asking)
            gc.trace.note(waited_ms=(time.perf_counter() - asked) * 1000)
        gc.trace.note(approved_by=answer.by, answered_via=_answered_via(self.desk.answering, answer.by))
        self.events(ApprovalAnswered(request, answer))
        if not answer.approved:
            note = f" ({answer.note})" if answer.note else ""
            raise refuse(
                gc.trace,
                "approval",
                None,
                ToolErrorCategory.CONFIRMATION_REQUIRED,
                f"{request.summary} needs approval ({decision.reason}) and was not approved by {answer.by}{note}; "
                "it did not run",
            )
        if ctx.tool.subject_kind == "url":
            self.approved_hosts.update(web_host(url) for url in ctx.subjects.values)
        if answer.remember and decision.managed:
            log.warning("zeph-nb: %s answered Always allow to %s; approved once, not kept: %s", answer.by,
                        request.summary, decision.managed)  # fmt: skip
        elif answer.remember and not decision.grantable:
            log.info("zeph-nb: %s answered Always allow to %s; approved once (never kept)", answer.by, request.summary)
        elif answer.remember:
            grants = self.grants.grant(
                ctx.tool.name,
                request.asking,
                by=answer.by,
                reason=f"Always allow for {request.summary}",
                patterns=decision.grant_patterns,
            )
            log.info("zeph-nb: %s granted %s", answer.by, ", ".join(g.pattern for g in grants))
        self.events(ToolCallStarted(gc.call, decision, answer.by, tool_kind(ctx.tool)))
        return await self.inner.handle(gc)


class CacheGate:
    def __init__(self, inner: Handler, cache: ResultCache | None) -> None:
        self.inner, self.cache = inner, cache

    async def handle(self, gc: GateCall) -> ToolOutput:
        tool, cache = _ctx(gc).tool, self.cache
        if cache is not None and tool.cacheable:
            hit = cache.get(tool, gc.call.params)
            if hit is not None:
                gc.trace.note(cached=True)
                return ToolOutput(hit.tool_name, hit.summary, hit.raw, gc.call.call_id, hit.error, hit.exit_code,
                                  hit.truncated)  # fmt: skip
        try:
            output = await self.inner.handle(gc)
        finally:
            if cache is not None and tool.mutates and gc.trace.attempts:
                cache.invalidate_workspace()  # it ran, so files may have changed, whatever it returned
        if cache is not None:
            cache.put(tool, gc.call.params, output)
        return output


class RetryGate:
    """RateLimited, ServerError, NetworkError and Timeout again, with exponential backoff and jitter.

    Tools that may change things are not retried: a second run could apply a side effect twice. A
    ``retry_after`` (seconds) in the error's details is honoured when it fits in the budget.
    """

    def __init__(
        self, inner: Handler, settings: RetrySettings, *, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    ) -> None:
        self.inner, self.settings, self.sleep = inner, settings, sleep

    def delay(self, retry: int) -> float:
        return backoff(self.settings, retry)

    async def handle(self, gc: GateCall) -> ToolOutput:
        tool = _ctx(gc).tool
        deadline = time.monotonic() + self.settings.budget_secs
        retry = 0
        while True:
            try:
                return await self.inner.handle(gc)
            except ToolError as e:
                if not e.category.is_retryable or tool.mutates or retry >= self.settings.max_attempts:
                    raise
                pause = self.delay(retry)
                hinted = e.details.get("retry_after")
                if isinstance(hinted, int | float) and hinted > 0:
                    pause = max(pause, float(hinted))
                if time.monotonic() + pause > deadline:
                    raise
                log.info("zeph-nb: %s failed (%s); retry %d in %.2fs", tool.name, e.category.label, retry + 1, pause)
                retry += 1
                await self.sleep(pause)


class ExecutorGate:
    """The end of the chain: the composite executor runs the prepared call (``Prepared.call`` carries the validated
    arguments, a command line's parse and its scope), so it works out none of them again."""

    def __init__(self, executor: ToolExecutor) -> None:
        self.executor = executor

    async def handle(self, gc: GateCall) -> ToolOutput:
        ctx = _ctx(gc)
        gc.trace.ran()
        # Only the gates say which folders a call opens; whatever the call came with is replaced (a copy only when
        # it differs: dataclasses.replace costs ~3 us).
        call = ctx.call
        if call.opened_paths != gc.trace.opened:
            call = dataclasses.replace(call, opened_paths=gc.trace.opened)
        clock = gc.trace.clock
        clock.setdefault("executing", time.perf_counter())  # the first run: a retry's sleeps count as executing
        try:
            output = await self.executor.execute(call)
        finally:
            clock["executed"] = time.perf_counter()
        if output is None:  # the registry knew the tool, but no executor took it: a wiring bug, said plainly
            raise ToolError(ToolErrorCategory.TOOL_NOT_FOUND, f"no executor runs {gc.call.tool_id!r}")
        return output


def _answered_via(approver: Any, by: str) -> str:
    """What answered an ask, for the audit row's claim source: a person (the notebook's buttons, a terminal prompt),
    the team's reviewers (the inbox, the hub), nobody in time, or an approver object a program set (AutoApprove,
    DenyAll, its own). By class name: importing the notebook's approver here would import the widgets."""
    if by == "timeout":
        return "timeout"
    kind = type(approver).__name__
    if kind in ("WidgetApprover", "ConsoleApprover"):
        return "person"
    if kind == "InboxApprover":
        return "reviewer"
    return "approver"
