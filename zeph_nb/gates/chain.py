"""The gate chain: the one executor the agent uses, and the one place the order of the gates is written.

A call passes, in this order::

    quota → known tool? → arguments valid? → blocklist (unconditional) → permission / authorization rules
    (with grants, trust level, anomaly blocks, dependencies) → approval → result cache → executor, with retry
    around it → output (filters, secret redaction, overflow) → audit

Each gate wraps the next, so the list is written from the outside in: the audit gate is outermost because it
must see every call, refused ones included; the output gate sits inside it because refusals, too, are values
the model reads; retry sits right around the executor so the quota and the cache count a retried call once.
"""

from __future__ import annotations

import asyncio
import logging
import os
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from zeph_nb.config import Settings
from zeph_nb.errors import ConfigError, ToolError, ToolErrorCategory
from zeph_nb.gates.approval import ApprovalRequest, Approver, DenyAll
from zeph_nb.gates.cache import ResultCache
from zeph_nb.gates.call import CallContext, CallOutcome, GateCall, Handler
from zeph_nb.gates.events import GateEvent
from zeph_nb.gates.policy import PermissionPolicy, PolicyDecision
from zeph_nb.gates.policy.containment import contain_command, contain_paths, contain_search, contain_web
from zeph_nb.gates.policy.dependencies import DependencyGraph
from zeph_nb.gates.policy.grants import Grant, PermissionGrants
from zeph_nb.gates.policy.quota import Quota
from zeph_nb.gates.policy.subjects import canonical_workdir, subjects_of
from zeph_nb.gates.policy.trust import AnomalyDetector, TrustState, default_decision
from zeph_nb.gates.recording import AuditGate
from zeph_nb.gates.wrappers import (
    ApprovalGate,
    BlocklistGate,
    CacheGate,
    ContextGate,
    ExecutorGate,
    OutputGate,
    PolicyGate,
    QuotaGate,
    RetryGate,
)
from zeph_nb.output.pipeline import OutputPipeline
from zeph_nb.security.shell_classifier import ShellClassifier
from zeph_nb.store.audit_log import AuditLog
from zeph_nb.store.store import Store
from zeph_nb.tools.base import ToolCall, ToolDef, ToolExecutor, validate_params
from zeph_nb.tools.builtin import builtin_executor
from zeph_nb.tools.composite import CompositeExecutor
from zeph_nb.tools.containment import CommandScope, protected_paths, scope_of
from zeph_nb.tools.files.executor import file_sandbox
from zeph_nb.tools.overflow import OverflowExecutor
from zeph_nb.tools.toolsets import installed_toolsets

__all__ = ["GateChain", "Session", "ToolInfo", "ToolsView", "build_chain"]

log = logging.getLogger("zeph_nb.gates")


@dataclass(frozen=True)
class ToolInfo:
    """One tool the model may call, as ``%zeph tools`` lists it."""

    name: str
    summary: str  # the first sentence of its description
    rules: int  # how many permission rules name it


@dataclass(frozen=True)
class ToolsView:
    """What the model may call right now, what it may not, and the Always-allow grants in force: a front-end's
    view of the chain (``Agent.describe_tools()``), so none needs to reach into the session."""

    visible: tuple[ToolInfo, ...]
    hidden: tuple[str, ...]  # denied by a blanket rule, blocked by the trust level, or waiting on a dependency
    grants: tuple[Grant, ...]


class Session:
    """What the gates share for one conversation: quota, cache, trust, completed tools, pending approvals."""

    def __init__(
        self,
        settings: Settings,
        *,
        tools: Mapping[str, ToolDef],
        workdir: str | os.PathLike[str] | None,
        store: Store | None,
        conversation_id: str,
    ) -> None:
        config = settings.tools
        self.settings = settings
        self.tools: dict[str, ToolDef] = dict(tools) if config.enabled else {}
        self.workdir = canonical_workdir(workdir)
        self.policy = PermissionPolicy(settings, workdir=self.workdir)
        self.protected = protected_paths(settings, self.workdir)
        # What an approval card may read to show a write's diff: the file tools' own sandbox and read rules.
        self.preview_sandbox = file_sandbox(settings, Path(self.workdir))
        self.grants = PermissionGrants(store)
        self.classifier = ShellClassifier(settings)
        self.conversation_id = conversation_id
        self.quota = Quota(config.max_tool_calls_per_session)
        self.cache = ResultCache(config.result_cache.ttl_secs) if config.result_cache.enabled else None
        self.trust = TrustState(config.trust_level)
        self.anomaly = AnomalyDetector(config.anomaly, self.trust)
        deps = config.dependencies
        self.dependencies = DependencyGraph(deps.rules, always_on=deps.always_on) if deps.enabled else None
        self.completed: set[str] = set()
        # Hosts a person let the web tools reach in this conversation (one approval per host, not per URL).
        self.approved_hosts: set[str] = set()
        self.pending: dict[str, ApprovalRequest] = {}
        self.listeners: list[Callable[[GateEvent], None]] = []
        # Who answers an ask. A front-end may swap it between runs (the widget approver when a notebook shows
        # buttons, the console approver in a terminal).
        self.approver: Approver = DenyAll()

    def notify(self, event: GateEvent) -> None:
        """Tell every listener (a front-end, the agent's event stream); a failing listener never fails a call."""
        for listener in list(self.listeners):
            try:
                listener(event)
            except Exception:
                log.exception("zeph-nb: an event listener failed on %s", event.kind)

    # -- what the model may see --------------------------------------------------------------------------

    def hidden_reason(self, tool: str) -> tuple[str, str] | None:
        """(rule, reason) when ``tool`` is hidden and refused right now, else None."""
        if tool in self.trust.blocked:
            return "trust", self.trust.blocked[tool]
        if self.policy.hides(tool):
            rule = next(r for r in self.policy.rules_for(tool) if r.is_blanket)
            return rule.describe(), f"denied by {rule.describe()}"
        if self.dependencies is not None:
            unmet = self.dependencies.unmet(tool, self.completed)
            if unmet:
                names = [t for t in self.tools if t not in self.trust.blocked and not self.policy.hides(t)]
                _, lifted = self.dependencies.visible(names, self.completed)
                if not lifted:
                    return "tools.dependencies", f"requires {', '.join(unmet)} to have completed first"
        return None

    def visible_names(self) -> list[str]:
        names = [t for t in self.tools if t not in self.trust.blocked and not self.policy.hides(t)]
        if self.dependencies is not None:
            names, _ = self.dependencies.visible(names, self.completed)
        return names

    # -- deciding ----------------------------------------------------------------------------------------

    def context(self, call: ToolCall) -> CallContext:
        """The call's context, built once: the tool (unknown: TOOL_NOT_FOUND), its arguments validated, a command
        line parsed (the only parse of it on the way to the executor), and its subjects."""
        tool = self.tools.get(call.tool_id)
        if tool is None:
            names = ", ".join(self.visible_names()) or "none"
            raise ToolError(
                ToolErrorCategory.TOOL_NOT_FOUND, f"unknown tool {call.tool_id!r}; available tools: {names}"
            )
        args = validate_params(tool, call.params)
        analysis = None
        if tool.subject_kind == "command" and tool.subject:
            analysis = self.classifier.analyze(str(call.params.get(tool.subject[0])))
        subjects = subjects_of(tool, call.params, workdir=self.workdir, analysis=analysis)
        return CallContext(call, tool, args, subjects, analysis)

    def decide(self, ctx: CallContext, *, wants_confirmation: bool) -> PolicyDecision:
        """What the rules say (with grants and the trust level's default) for the call ``ctx`` describes."""
        analysis = ctx.analysis
        default = default_decision(ctx.tool, self.trust.level, wants_confirmation=wants_confirmation,
                                   analysis=analysis)  # fmt: skip
        return self.policy.decide(
            ctx.tool,
            ctx.subjects,
            default=default,
            grants=self.grants.rules,
            trust=self.trust.level,
            riders=analysis.riders if analysis is not None else None,
            line_riders=analysis.line_riders if analysis is not None else (),
        )

    def decide_call(self, ctx: CallContext, *, wants_confirmation: bool) -> tuple[PolicyDecision, CommandScope | None]:
        """The rules' decision (``decide``), then what containment adds for what the call would get: a command's
        network, environment and outside paths (its scope comes back too), a file tool's protected paths, a web
        tool's new host."""
        decision = self.decide(ctx, wants_confirmation=wants_confirmation)
        tool, subjects = ctx.tool, ctx.subjects
        scope = None
        if tool.subject_kind == "command":
            scope = scope_of(self.settings, ctx.args, ctx.analysis, self.workdir)
            decision = contain_command(decision, scope, ctx.analysis, self.grants.rules)
        elif tool.subject_kind == "path":
            decision = contain_paths(decision, tool, subjects.values, self.protected)
        elif tool.subject_kind == "url" and tool.network:
            decision = contain_web(decision, tool, subjects.values, self.settings, self.approved_hosts,
                                   self.grants.rules)  # fmt: skip
        elif tool.name == "web_search":
            decision = contain_search(decision, str(ctx.call.params.get("query", "")))
        return decision, scope

    # -- after a call ------------------------------------------------------------------------------------

    def observe(self, gc: GateCall) -> None:
        """Feed a finished call to the anomaly detector and the dependency graph."""
        outcome = gc.outcome
        if outcome is None or gc.trace.attempts == 0 or outcome.status == "cancelled":
            return  # refused or cancelled calls say nothing about the tool
        failed = outcome.category is not None
        self.anomaly.record(gc.call.tool_id, failed)
        if not failed:
            self.completed.add(gc.call.tool_id)

    def reset(self, conversation_id: str) -> None:
        self.conversation_id = conversation_id
        self.quota.reset()
        if self.cache is not None:
            self.cache.clear()
        self.completed.clear()
        self.approved_hosts.clear()
        self.anomaly.reset()
        self.trust.blocked.clear()


class GateChain:
    """The executor the agent uses: ``execute(call)`` always returns a ``CallOutcome``, never raises a ToolError."""

    def __init__(
        self,
        session: Session,
        head: Handler,
        *,
        executor: ToolExecutor,
        pipeline: OutputPipeline,
        store: Store,
        overflow: OverflowExecutor | None,
    ) -> None:
        self.session = session
        self.head = head
        self.executor = executor
        self.pipeline = pipeline
        self.store = store
        self._overflow = overflow

    @property
    def conversation_id(self) -> str:
        return self.session.conversation_id

    def tool_definitions(self) -> list[ToolDef]:
        """The tools the model may call this turn (refused ones hidden, preferred ones first)."""
        return [self.session.tools[name] for name in self.session.visible_names()]

    async def execute(self, call: ToolCall) -> CallOutcome:
        gc = GateCall(call)
        await self.head.handle(gc)
        assert gc.outcome is not None  # the audit gate always sets it
        return gc.outcome

    def start_run(self) -> None:
        """A new run of the conversation: files may have changed since the last one, so cached reads go."""
        if self.session.cache is not None:
            self.session.cache.invalidate_workspace()

    def new_conversation(self, conversation_id: str | None = None) -> str:
        """Start over: new id, quota, cache, completed tools and anomaly windows; returns the new id."""
        new_id = conversation_id or uuid.uuid4().hex
        self.session.reset(new_id)
        self.pipeline.conversation_id = new_id
        if self._overflow is not None:
            self._overflow.conversation_id = new_id
        return new_id

    @property
    def pending_approvals(self) -> list[ApprovalRequest]:
        return list(self.session.pending.values())

    def describe_tools(self) -> ToolsView:
        session = self.session
        visible = self.tool_definitions()
        shown = {tool.name for tool in visible}
        infos = tuple(ToolInfo(tool.name, tool.description.split(".")[0], len(session.policy.rules_for(tool)))
                      for tool in visible)  # fmt: skip
        hidden = tuple(name for name in session.tools if name not in shown)
        return ToolsView(infos, hidden, tuple(session.grants.active()))


def build_chain(
    settings: Settings | None = None,
    *,
    workdir: str | os.PathLike[str] | None = None,
    approver: Approver | None = None,
    store: Store | None = None,
    executor: ToolExecutor | None = None,
    tools: Sequence[ToolExecutor] = (),
    conversation_id: str | None = None,
    env: Mapping[str, str] | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> GateChain:
    """Build the executor the agent uses.

    The model's tools: the built-in families and those installed packages offer (``tools/toolsets.py``), plus
    ``tools`` (more toolsets, added to them), plus ``read_overflow``. ``executor`` replaces the built-in and
    installed ones (``tools`` and ``read_overflow`` are still added). Two toolsets defining one tool name is a
    ConfigError. ``approver`` defaults to ``DenyAll`` (nothing that needs approval runs unless someone can approve
    it); ``store`` to the store under the zeph home.
    """
    settings = settings or Settings.load()
    if workdir is not None and not os.path.isdir(workdir):
        raise ConfigError(f"the working directory {os.fspath(workdir)!r} is not a directory; create it or pass another")
    store = store if store is not None else Store(settings)
    conversation_id = conversation_id or uuid.uuid4().hex
    if executor is None:
        toolsets = [builtin_executor(settings, workdir=workdir, env=env), *installed_toolsets(settings, workdir)]
    else:
        toolsets = [executor]
    toolsets += tools
    overflow: OverflowExecutor | None = None
    if not any(t.name == "read_overflow" for toolset in toolsets for t in toolset.tool_definitions()):
        overflow = OverflowExecutor(store, conversation_id)
        toolsets.append(overflow)
    executor = toolsets[0] if len(toolsets) == 1 else CompositeExecutor(toolsets)
    by_name = {tool.name: tool for tool in executor.tool_definitions()}
    session = Session(settings, tools=by_name, workdir=workdir, store=store, conversation_id=conversation_id)
    session.approver = approver or DenyAll()
    pipeline = OutputPipeline(settings, store, conversation_id)

    # The order, outermost first: a call meets these top to bottom, then the executor.
    gates: list[Callable[[Handler], Handler]] = [
        lambda inner: AuditGate(
            inner, AuditLog(store), observe=session.observe, conversation=lambda: session.conversation_id
        ),
        lambda inner: OutputGate(inner, pipeline),
        lambda inner: QuotaGate(inner, session.quota),
        lambda inner: ContextGate(inner, session.context),
        lambda inner: BlocklistGate(inner),
        lambda inner: PolicyGate(inner, session, executor.requires_confirmation),
        lambda inner: ApprovalGate(inner, session, settings.tools.approval_timeout_secs),
        lambda inner: CacheGate(inner, session.cache),
        lambda inner: RetryGate(inner, settings.tools.retry, sleep=sleep),
    ]
    head: Handler = ExecutorGate(executor, session.classifier.key)
    for wrap in reversed(gates):
        head = wrap(head)
    return GateChain(session, head, executor=executor, pipeline=pipeline, store=store, overflow=overflow)
