"""The gates: each a small wrapper around the next handler, holding only what it needs. Their order is fixed in
``chain.py`` (``build_chain``), not here.

A gate either refuses (raises a ToolError, which the output gate turns into the value the model reads) or passes
the call on and returns what came back. Gates after the context gate read the call's frozen ``CallContext``
(validated arguments, a command line parsed once, its subjects); what a gate learns goes into the call's
append-only ``Trace``, which the recorder (``recording.py``) turns into the outcome and the audit row.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import TYPE_CHECKING

from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.gates.approval import ApprovalDecision, ApprovalRequest
from zeph_nb.gates.approval.preview import change_preview
from zeph_nb.gates.call import CallContext, GateCall, Handler, Trace
from zeph_nb.gates.events import ApprovalAnswered, ApprovalRequested, ToolCallStarted
from zeph_nb.gates.policy import PolicyDecision
from zeph_nb.gates.policy.containment import web_host
from zeph_nb.security.secrets import compile_extra, redact_params
from zeph_nb.store.store import utc_now
from zeph_nb.tools.base import ToolCall, ToolExecutor, ToolOutput

if TYPE_CHECKING:
    from zeph_nb.config import RetrySettings
    from zeph_nb.gates.cache import ResultCache
    from zeph_nb.gates.chain import Session
    from zeph_nb.gates.policy.quota import Quota
    from zeph_nb.output.pipeline import OutputPipeline

__all__ = [
    "ApprovalGate",
    "BlocklistGate",
    "CacheGate",
    "ContextGate",
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


def _ctx(gc: GateCall) -> CallContext:
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
        gc.trace.note(processed=self.pipeline.process(gc.call, output))
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
                PolicyDecision("deny", "tools.max_tool_calls_per_session", f"quota of {quota.limit} calls used"),
                ToolErrorCategory.POLICY_BLOCKED,
                f"quota_blocked: this conversation has used all {quota.limit} tool calls it may make "
                "(tools.max_tool_calls_per_session); the call did not run. Answer with what you have.",
            )
        return await self.inner.handle(gc)


class ContextGate:
    """Builds the call's context once: the tool it names (unknown: TOOL_NOT_FOUND), its arguments validated, a
    command line parsed, its subjects read (``Session.context``)."""

    def __init__(self, inner: Handler, build: Callable[[ToolCall], CallContext]) -> None:
        self.inner, self.build = inner, build

    async def handle(self, gc: GateCall) -> ToolOutput:
        gc.ctx = self.build(gc.call)
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
    """Permission and authorization rules, grants, trust level, anomaly blocks and tool dependencies (``session``
    holds the conversation's rules, grants and trust), and what containment adds."""

    def __init__(self, inner: Handler, session: Session, confirms: Callable[[ToolCall], bool]) -> None:
        self.inner, self.session, self.confirms = inner, session, confirms

    async def handle(self, gc: GateCall) -> ToolOutput:
        ctx = _ctx(gc)
        tool = ctx.tool
        hidden = self.session.hidden_reason(tool.name)
        if hidden is not None:
            raise refuse(gc.trace, "policy", PolicyDecision("deny", hidden[0], hidden[1]),
                         ToolErrorCategory.POLICY_BLOCKED, f"{tool.name} is not available: {hidden[1]}")  # fmt: skip
        # A command line's parse says whether it wants confirmation; asking the executor would parse it again.
        wants = ctx.analysis.verdict != "allow" if ctx.analysis is not None else self.confirms(ctx.call)
        decision, scope = self.session.decide_call(ctx, wants_confirmation=wants)
        gc.trace.note(decision=decision)
        if scope is not None:
            gc.trace.note(scope=scope, opened=tuple(str(folder) for folder in scope.opened))
        if decision.action == "deny":
            message = f"{decision.reason}. Do not retry this call; choose another way or ask the user."
            raise refuse(gc.trace, "policy", decision, ToolErrorCategory.POLICY_BLOCKED, message)
        return await self.inner.handle(gc)


class ApprovalGate:
    """For an *ask*: waits for the conversation's approver, at most ``approval_timeout_secs``; remembers "Always
    allow". ``session`` is the conversation: its approver (a front-end swaps it), pending requests, listeners,
    grants and the hosts a person let the web tools reach."""

    def __init__(self, inner: Handler, session: Session, timeout: float) -> None:
        self.inner, self.session, self.timeout = inner, session, timeout

    async def handle(self, gc: GateCall) -> ToolOutput:
        ctx, decision = _ctx(gc), gc.trace.decision
        if decision is None or decision.action != "ask":
            if decision is not None:
                self.session.notify(ToolCallStarted(gc.call, decision))
            return await self.inner.handle(gc)
        session = self.session
        request = ApprovalRequest(
            call_id=gc.call.call_id,
            tool=ctx.tool.name,
            params=redact_params(gc.call.params, compile_extra(session.settings.tools.filters.security.extra_patterns)),
            subjects=ctx.subjects.values,
            rule=decision.rule,
            reason=decision.reason,
            reasons=decision.reasons,
            asking=(decision.asking or ctx.subjects.values) if decision.grantable else (),
            extras=decision.extras,
            remedy=decision.remedy,
            preview=change_preview(ctx.tool.name, gc.call.params, session.preview_sandbox),
            conversation_id=session.conversation_id,
            # Set before waiting starts, so by the time wait_for gives up the wall clock is past it too.
            expires_at=utc_now() + timedelta(seconds=self.timeout),
        )
        session.notify(ApprovalRequested(request))
        asked = time.perf_counter()
        try:
            answer = await self._ask(request)
        finally:  # a person's thinking time is not the call's duration: two clocks (also when stopped while asking)
            gc.trace.note(waited_ms=(time.perf_counter() - asked) * 1000)
        gc.trace.note(approved_by=answer.by)
        session.notify(ApprovalAnswered(request, answer))
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
            session.approved_hosts.update(web_host(url) for url in ctx.subjects.values)
        if answer.remember and not decision.grantable:
            log.info("zeph-nb: %s answered Always allow to %s; approved once (never kept)", answer.by, request.summary)
        elif answer.remember:
            grants = session.grants.grant(
                ctx.tool.name,
                request.asking,
                by=answer.by,
                reason=f"Always allow for {request.summary}",
                patterns=decision.grant_patterns,
            )
            log.info("zeph-nb: %s granted %s", answer.by, ", ".join(g.pattern for g in grants))
        session.notify(ToolCallStarted(gc.call, decision, answer.by))
        return await self.inner.handle(gc)

    async def _ask(self, request: ApprovalRequest) -> ApprovalDecision:
        session = self.session
        session.pending[request.call_id] = request
        try:
            return await asyncio.wait_for(session.approver.decide(request), self.timeout)
        except TimeoutError:
            return ApprovalDecision.deny(
                "timeout", f"nobody answered within {self.timeout:g}s (tools.approval_timeout_secs)"
            )
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise  # the run itself is being stopped: the recorder logs it as cancelled
            # The approver gave up (its prompt was closed, the kernel is shutting down): the call is cancelled.
            raise ToolError(ToolErrorCategory.CANCELLED, f"the approval of {request.summary} was cancelled") from None
        finally:
            session.pending.pop(request.call_id, None)


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
    """The end of the chain: the composite executor runs the tool, given what the gates already worked out (the
    validated arguments, a command line's parse) so it does neither again. ``parser_key`` is the key of the
    classifier that made the parse."""

    def __init__(self, executor: ToolExecutor, parser_key: str) -> None:
        self.executor, self.parser_key = executor, parser_key

    async def handle(self, gc: GateCall) -> ToolOutput:
        ctx = _ctx(gc)
        gc.trace.ran()
        analysis = (self.parser_key, ctx.analysis) if ctx.analysis is not None else None
        # Only the gates say which folders a call opens; whatever the call came with is replaced.
        call = dataclasses.replace(gc.call, opened_paths=gc.trace.opened, args=ctx.args, analysis=analysis)
        output = await self.executor.execute(call)
        if output is None:  # the registry knew the tool, but no executor took it: a wiring bug, said plainly
            raise ToolError(ToolErrorCategory.TOOL_NOT_FOUND, f"no executor runs {gc.call.tool_id!r}")
        return output
