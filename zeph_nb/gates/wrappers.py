"""The gates: each a small wrapper around the next handler. Their order is fixed in ``chain.py``, not here.

A gate either refuses (raises a ToolError, which the output gate turns into the value the model reads) or
passes the call on and returns what came back.
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
from zeph_nb.gates.call import GateCall, Handler
from zeph_nb.gates.containment import web_host
from zeph_nb.gates.events import ApprovalAnswered, ApprovalRequested, ToolCallStarted
from zeph_nb.gates.policy import PolicyDecision
from zeph_nb.gates.preview import change_preview
from zeph_nb.security.secrets import compile_extra, redact_params
from zeph_nb.store.store import utc_now
from zeph_nb.tools.base import ToolExecutor, ToolOutput, validate_params

if TYPE_CHECKING:
    from zeph_nb.config import RetrySettings
    from zeph_nb.gates.chain import Session
    from zeph_nb.output.pipeline import OutputPipeline

__all__ = [
    "ApprovalGate",
    "BlocklistGate",
    "CacheGate",
    "ExecutorGate",
    "KnownToolGate",
    "OutputGate",
    "PolicyGate",
    "QuotaGate",
    "RetryGate",
    "ValidationGate",
    "backoff",
]

log = logging.getLogger("zeph_nb.gates")


def backoff(settings: RetrySettings, retry: int) -> float:
    """Seconds before retry number ``retry`` (0-based): base * 2^n capped at max, times a jitter in [0.5, 1).
    The one formula for tools (the retry gate) and for the model (the agent loop)."""
    ceiling = min(settings.max_ms, settings.base_ms * 2**retry) / 1000
    return float(ceiling * (0.5 + random.random() / 2))  # noqa: S311 - jitter, not cryptography


class _Gate:
    def __init__(self, inner: Handler, session: Session) -> None:
        self.inner = inner
        self.session = session


def _refuse(gc: GateCall, gate: str, decision: PolicyDecision, category: ToolErrorCategory, message: str) -> ToolError:
    gc.blocked_by = gate
    gc.decision = decision
    return ToolError(category, message)


class OutputGate(_Gate):
    """Turns refusals and failures into the value the model reads, then filters, redacts and overflows it."""

    def __init__(self, inner: Handler, session: Session, pipeline: OutputPipeline) -> None:
        super().__init__(inner, session)
        self.pipeline = pipeline

    async def handle(self, gc: GateCall) -> ToolOutput:
        try:
            output = await self.inner.handle(gc)
        except ToolError as e:
            output = ToolOutput.from_error(gc.call, e)
        except Exception as e:  # a bug in a tool must not take the run down; the model and the log see it
            log.exception("zeph-nb: tool %s failed unexpectedly", gc.call.tool_id)
            error = ToolError(ToolErrorCategory.PERMANENT_FAILURE, f"internal error in {gc.call.tool_id}: {e!r}")
            output = ToolOutput.from_error(gc.call, error)
        gc.processed = self.pipeline.process(gc.call, output)
        return output


class QuotaGate(_Gate):
    async def handle(self, gc: GateCall) -> ToolOutput:
        quota = self.session.quota
        if not quota.take():
            raise _refuse(
                gc,
                "quota",
                PolicyDecision("deny", "tools.max_tool_calls_per_session", f"quota of {quota.limit} calls used"),
                ToolErrorCategory.POLICY_BLOCKED,
                f"quota_blocked: this conversation has used all {quota.limit} tool calls it may make "
                "(tools.max_tool_calls_per_session); the call did not run. Answer with what you have.",
            )
        return await self.inner.handle(gc)


class KnownToolGate(_Gate):
    async def handle(self, gc: GateCall) -> ToolOutput:
        tool = self.session.tools.get(gc.call.tool_id)
        if tool is None:
            names = ", ".join(self.session.visible_names()) or "none"
            raise ToolError(
                ToolErrorCategory.TOOL_NOT_FOUND, f"unknown tool {gc.call.tool_id!r}; available tools: {names}"
            )
        gc.tool = tool
        return await self.inner.handle(gc)


class ValidationGate(_Gate):
    async def handle(self, gc: GateCall) -> ToolOutput:
        assert gc.tool is not None  # KnownToolGate runs first
        gc.args = validate_params(gc.tool, gc.call.params)
        return await self.inner.handle(gc)


class BlocklistGate(_Gate):
    """The unconditional blocklist: no rule, grant, trust level or approver can let these through."""

    async def handle(self, gc: GateCall) -> ToolOutput:
        tool = gc.tool
        assert tool is not None
        if tool.subject_kind == "command" and tool.subject:
            command = gc.call.params.get(tool.subject[0])
            gc.analysis = self.session.classifier.analyze(str(command))
            if gc.analysis.verdict == "block":
                reasons = "; ".join(r.removeprefix("blocked: ") for r in gc.analysis.block_reasons)
                raise _refuse(
                    gc,
                    "blocklist",
                    PolicyDecision("deny", "blocklist", reasons),
                    ToolErrorCategory.POLICY_BLOCKED,
                    f"blocked: {reasons}. This command is never run, whatever the permission rules say.",
                )
        return await self.inner.handle(gc)


class PolicyGate(_Gate):
    """Permission and authorization rules, grants, trust level, anomaly blocks and tool dependencies."""

    def __init__(self, inner: Handler, session: Session, executor: ToolExecutor) -> None:
        super().__init__(inner, session)
        self.executor = executor

    async def handle(self, gc: GateCall) -> ToolOutput:
        tool = gc.tool
        assert tool is not None
        session = self.session
        hidden = session.hidden_reason(tool.name)
        if hidden is not None:
            raise _refuse(gc, "policy", PolicyDecision("deny", hidden[0], hidden[1]), ToolErrorCategory.POLICY_BLOCKED,
                          f"{tool.name} is not available: {hidden[1]}")  # fmt: skip
        gc.subjects = session.subjects(tool, gc.call.params, gc.analysis)
        # A command line was analysed by the blocklist gate already; asking the executor would parse it again.
        if gc.analysis is not None:
            wants = gc.analysis.verdict != "allow"
        else:
            wants = self.executor.requires_confirmation(gc.call)
        decision = session.decide_call(tool, gc, wants_confirmation=wants)
        gc.decision = decision
        if decision.action == "deny":
            message = f"{decision.reason}. Do not retry this call; choose another way or ask the user."
            raise _refuse(gc, "policy", decision, ToolErrorCategory.POLICY_BLOCKED, message)
        return await self.inner.handle(gc)


class ApprovalGate(_Gate):
    """For an *ask*: waits for the approver, at most ``approval_timeout_secs``; remembers "Always allow"."""

    def __init__(self, inner: Handler, session: Session, timeout: float) -> None:
        super().__init__(inner, session)
        self.timeout = timeout

    async def handle(self, gc: GateCall) -> ToolOutput:
        decision = gc.decision
        if decision is None or decision.action != "ask":
            if decision is not None:
                self.session.notify(ToolCallStarted(gc.call, decision))
            return await self.inner.handle(gc)
        assert gc.tool is not None and gc.subjects is not None
        request = ApprovalRequest(
            call_id=gc.call.call_id,
            tool=gc.tool.name,
            params=redact_params(
                gc.call.params, compile_extra(self.session.settings.tools.filters.security.extra_patterns)
            ),
            subjects=gc.subjects.values,
            rule=decision.rule,
            reason=decision.reason,
            asking=(decision.asking or gc.subjects.values) if decision.grantable else (),
            extras=decision.extras,
            remedy=decision.remedy,
            preview=change_preview(gc.tool.name, gc.call.params, self.session.preview_sandbox),
            conversation_id=self.session.conversation_id,
            # Set before waiting starts, so by the time wait_for gives up the wall clock is past it too.
            expires_at=utc_now() + timedelta(seconds=self.timeout),
        )
        self.session.notify(ApprovalRequested(request))
        asked = time.perf_counter()
        try:
            answer = await self._ask(request)
        finally:  # a person's thinking time is not the call's duration: two clocks (also when stopped while asking)
            gc.waited_ms = (time.perf_counter() - asked) * 1000
        gc.approved_by = answer.by
        self.session.notify(ApprovalAnswered(request, answer))
        if not answer.approved:
            note = f" ({answer.note})" if answer.note else ""
            raise _refuse(
                gc,
                "approval",
                decision,
                ToolErrorCategory.CONFIRMATION_REQUIRED,
                f"{request.summary} needs approval ({decision.reason}) and was not approved by {answer.by}{note}; "
                "it did not run",
            )
        if gc.tool.subject_kind == "url":
            self.session.approved_hosts.update(web_host(url) for url in gc.subjects.values)
        if answer.remember and not decision.grantable:
            log.info("zeph-nb: %s answered Always allow to %s; approved once (never kept)", answer.by, request.summary)
        elif answer.remember:
            grants = self.session.grants.grant(
                gc.tool.name,
                request.asking,
                by=answer.by,
                reason=f"Always allow for {request.summary}",
                patterns=decision.grant_patterns,
            )
            log.info("zeph-nb: %s granted %s", answer.by, ", ".join(g.pattern for g in grants))
        self.session.notify(ToolCallStarted(gc.call, decision, answer.by))
        return await self.inner.handle(gc)

    async def _ask(self, request: ApprovalRequest) -> ApprovalDecision:
        self.session.pending[request.call_id] = request
        try:
            return await asyncio.wait_for(self.session.approver.decide(request), self.timeout)
        except TimeoutError:
            return ApprovalDecision.deny(
                "timeout", f"nobody answered within {self.timeout:g}s (tools.approval_timeout_secs)"
            )
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise  # the run itself is being stopped: the audit gate records it as cancelled
            # The approver gave up (its prompt was closed, the kernel is shutting down): the call is cancelled.
            raise ToolError(ToolErrorCategory.CANCELLED, f"the approval of {request.summary} was cancelled") from None
        finally:
            self.session.pending.pop(request.call_id, None)


class CacheGate(_Gate):
    async def handle(self, gc: GateCall) -> ToolOutput:
        tool = gc.tool
        assert tool is not None
        cache = self.session.cache
        if cache is not None and tool.cacheable:
            hit = cache.get(tool, gc.call.params)
            if hit is not None:
                gc.cached = True
                return ToolOutput(hit.tool_name, hit.summary, hit.raw, gc.call.call_id, hit.error, hit.exit_code,
                                  hit.truncated)  # fmt: skip
        try:
            output = await self.inner.handle(gc)
        finally:
            if cache is not None and tool.mutates and gc.attempts:
                cache.invalidate_workspace()  # it ran, so files may have changed, whatever it returned
        if cache is not None:
            cache.put(tool, gc.call.params, output)
        return output


class RetryGate(_Gate):
    """RateLimited, ServerError, NetworkError and Timeout again, with exponential backoff and jitter.

    Tools that may change things are not retried: a second run could apply a side effect twice. A
    ``retry_after`` (seconds) in the error's details is honoured when it fits in the budget.
    """

    def __init__(
        self,
        inner: Handler,
        session: Session,
        settings: RetrySettings,
        *,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        super().__init__(inner, session)
        self.settings = settings
        self.sleep = sleep

    def delay(self, retry: int) -> float:
        return backoff(self.settings, retry)

    async def handle(self, gc: GateCall) -> ToolOutput:
        assert gc.tool is not None
        deadline = time.monotonic() + self.settings.budget_secs
        retry = 0
        while True:
            try:
                return await self.inner.handle(gc)
            except ToolError as e:
                if not e.category.is_retryable or gc.tool.mutates or retry >= self.settings.max_attempts:
                    raise
                pause = self.delay(retry)
                hinted = e.details.get("retry_after")
                if isinstance(hinted, int | float) and hinted > 0:
                    pause = max(pause, float(hinted))
                if time.monotonic() + pause > deadline:
                    raise
                log.info("zeph-nb: %s failed (%s); retry %d in %.2fs", gc.tool.name, e.category.label, retry + 1, pause)
                retry += 1
                await self.sleep(pause)


class ExecutorGate:
    """The end of the chain: the composite executor runs the tool."""

    def __init__(self, executor: ToolExecutor) -> None:
        self.executor = executor

    async def handle(self, gc: GateCall) -> ToolOutput:
        gc.attempts += 1
        # Only the gates say which folders a call opens; whatever the call came with is replaced.
        call = dataclasses.replace(gc.call, opened_paths=gc.opened) if gc.call.opened_paths != gc.opened else gc.call
        output = await self.executor.execute(call)
        if output is None:  # the registry knew the tool, but no executor took it: a wiring bug, said plainly
            raise ToolError(ToolErrorCategory.TOOL_NOT_FOUND, f"no executor runs {gc.call.tool_id!r}")
        return output
