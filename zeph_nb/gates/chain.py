"""The gate chain: the one executor the agent uses, and the one place the order of the gates is written.

A call passes, in this order::

    quota → known tool? → arguments valid? → blocklist (unconditional) → tool policy ([gates.policy]; its deny
    is final) → permission / authorization rules (with grants, trust level, anomaly blocks, dependencies) →
    utility score (skips or warns) → adversarial policy check → approval → result cache → executor, with retry
    around it → output (filters, secret redaction, overflow) → audit

Each gate wraps the next, so the list is written from the outside in: the audit gate is outermost because it
must see every call, refused ones included; the output gate sits inside it because refusals, too, are values
the model reads; retry sits right around the executor so the quota and the cache count a retried call once.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zeph_nb.config import Settings
from zeph_nb.errors import ConfigError
from zeph_nb.gates.adversarial import AdversarialGate, Judge
from zeph_nb.gates.approval import ApprovalRequest, Approver, DenyAll
from zeph_nb.gates.approval.desk import ApprovalDesk
from zeph_nb.gates.approval.preview import change_preview
from zeph_nb.gates.cache import ResultCache
from zeph_nb.gates.call import CallOutcome, GateCall, Handler, Prepared
from zeph_nb.gates.enforcer import PolicyEnforcerGate
from zeph_nb.gates.events import GateEvent
from zeph_nb.gates.policy.grants import Grant
from zeph_nb.gates.policy.permissions import Permissions
from zeph_nb.gates.policy.quota import Quota
from zeph_nb.gates.policy.subjects import canonical_workdir
from zeph_nb.gates.prepare import PrepareGate, Preparer
from zeph_nb.gates.recording import AuditGate
from zeph_nb.gates.undo import Snapshotter, UndoGate
from zeph_nb.gates.utility import UtilityGate, UtilityScorer
from zeph_nb.gates.wrappers import (
    ApprovalGate,
    AskedWith,
    BlocklistGate,
    CacheGate,
    ExecutorGate,
    OutputGate,
    PolicyGate,
    QuotaGate,
    RetryGate,
)
from zeph_nb.output.pipeline import OutputPipeline
from zeph_nb.security.secrets import compile_extra, redact_params
from zeph_nb.store.audit_log import AuditLog
from zeph_nb.store.snapshots import FileChanges
from zeph_nb.store.store import Store
from zeph_nb.tools.base import ToolCall, ToolDef, ToolExecutor
from zeph_nb.tools.builtin import builtin_executor
from zeph_nb.tools.composite import CompositeExecutor
from zeph_nb.tools.containment import shell_classifier
from zeph_nb.tools.files.executor import file_sandbox
from zeph_nb.tools.function_toolset import FunctionToolset
from zeph_nb.tools.overflow import READ_OVERFLOW, OverflowExecutor
from zeph_nb.tools.toolsets import installed_toolsets, toolsets_from, turned_off

if TYPE_CHECKING:
    from zeph_nb.tools.memory import Embedder

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
    """One conversation's state, which the chain owns and hands to each gate piece by piece: its tools, how a
    call's context is built, the permissions, the quota, the result cache, the approval desk and who listens."""

    def __init__(
        self,
        settings: Settings,
        *,
        tools: Mapping[str, ToolDef],
        workdir: str | os.PathLike[str] | None,
        store: Store | None,
        conversation_id: str,
        turned_off: Mapping[str, str] | None = None,
    ) -> None:
        gates = settings.gates
        self.settings = settings
        self.tools: dict[str, ToolDef] = dict(tools) if settings.tools.enabled else {}
        self.workdir = canonical_workdir(workdir)
        self.permissions = Permissions(settings, list(self.tools), workdir=self.workdir, store=store)
        self.permissions.defs = self.tools
        # What an approval card may read to show a write's diff: the file tools' own sandbox and read rules.
        self.preview_sandbox = file_sandbox(settings, Path(self.workdir))
        self.classifier = shell_classifier(settings)
        self.preparer = Preparer(settings, tools=self.tools, classifier=self.classifier, workdir=self.workdir,
                                 turned_off=dict(turned_off or {}), visible=self.permissions.visible_names)  # fmt: skip
        self.conversation_id = conversation_id
        self.run_id = new_run_id()  # one %%zeph cell's run; calls made outside a run share the session's first
        self.quota = Quota(gates.quota.max_tool_calls_per_session)
        self.cache = ResultCache(gates.cache.ttl_secs) if gates.cache.enabled else None
        self.desk = ApprovalDesk(reviewers=_team_reviewers(settings, store)
                                 if gates.approval.decided_by == "reviewers" else None)  # fmt: skip
        self.utility = UtilityScorer(settings)
        self.listeners: list[Callable[[GateEvent], None]] = []
        self._secret_patterns = compile_extra(settings.output.filters.security.extra_patterns)

    def set_tools(self, tools: Mapping[str, ToolDef]) -> None:
        """The tools the model may call from now on (in the order it sees them); none when ``[tools] enabled``
        is false."""
        self.tools = dict(tools) if self.settings.tools.enabled else {}
        self.permissions.tools = tuple(self.tools)
        self.permissions.defs = self.tools
        self.preparer.tools = self.tools

    def notify(self, event: GateEvent) -> None:
        """Tell every listener (a front-end, the agent's event stream); a failing listener never fails a call."""
        for listener in list(self.listeners):
            try:
                listener(event)
            except Exception:
                log.exception("zeph-nb: an event listener failed on %s", event.kind)

    def asked_with(self) -> AskedWith:
        """What the approval gate shows with a request: masked parameters, a write's diff, this conversation."""
        return AskedWith(
            # What a person approves is what runs: a "secret" that could be code is not hidden there.
            redact=lambda params: redact_params(params, self._secret_patterns, review=True),
            preview=lambda tool, params: change_preview(tool, params, self.preview_sandbox),
            conversation=lambda: self.conversation_id,
        )

    def prepare(self, call: ToolCall) -> Prepared:
        """``call`` prepared once, as the chain's first gates do (``gates/prepare.py``)."""
        return self.preparer.prepare(call)

    def observe(self, gc: GateCall) -> None:
        """Feed a finished call to the anomaly detector and the dependency graph."""
        outcome = gc.outcome
        if outcome is None or gc.trace.attempts == 0 or outcome.status == "cancelled":
            return  # refused or cancelled calls say nothing about the tool
        self.permissions.observe(gc.call.tool_id, failed=outcome.category is not None)

    def reset(self, conversation_id: str) -> None:
        self.conversation_id = conversation_id
        self.quota.reset()
        if self.cache is not None:
            self.cache.clear()
        self.permissions.reset()


def _team_reviewers(settings: Settings, store: Store | None) -> Callable[[], Approver]:
    def make() -> Approver:
        from zeph_nb.gates.approval.inbox import InboxApprover

        return InboxApprover(settings, store=store)

    return make


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

    @property
    def workdir(self) -> Path:
        """The working directory the tools run in, resolved."""
        return self.session.workdir

    @property
    def approver(self) -> Approver:
        """Who answers this conversation's asks; a front-end sets its own before a run."""
        return self.session.desk.approver

    @approver.setter
    def approver(self, approver: Approver) -> None:
        self.session.desk.approver = approver

    @property
    def answering(self) -> Approver:
        """Who actually answers asks: ``approver``, or the team's reviewers when the managed settings say they
        decide (then the approver a front-end set is not asked)."""
        return self.session.desk.answering

    def subscribe(self, listener: Callable[[GateEvent], None]) -> Callable[[], None]:
        """Tell ``listener`` what the gates do (asks, answers, calls that start); returns what unsubscribes it."""
        self.session.listeners.append(listener)
        return lambda: self.session.listeners.remove(listener)

    def tool(self, name: str) -> ToolDef | None:
        """The definition of the tool called ``name``, hidden or not; None for a name no toolset defines."""
        return self.session.tools.get(name)

    def tool_definitions(self) -> list[ToolDef]:
        """The tools the model may call this turn (refused ones hidden, preferred ones first)."""
        return [self.session.tools[name] for name in self.session.permissions.visible_names()]

    async def execute(self, call: ToolCall) -> CallOutcome:
        gc = GateCall(call)
        await self.head.handle(gc)
        assert gc.outcome is not None  # the audit gate always sets it
        return gc.outcome

    def refresh_tools(self) -> None:
        """Read the toolsets' definitions again: a toolset may offer other tools now (the ``%%zeph`` agent's
        functions, redefined in a cell). A name two toolsets now define is a ConfigError; the set in force stays."""
        if isinstance(self.executor, CompositeExecutor):
            self.executor.check_names()
        self.session.set_tools({tool.name: tool for tool in self.executor.tool_definitions()})

    async def prepare(self) -> None:
        """Let the toolsets that start something (MCP servers) do it, before a run reads the tool list."""
        pending: list[ToolExecutor] = [self.executor]
        while pending:  # composites nest (the built-in families are one inside the chain's)
            executor = pending.pop()
            if isinstance(executor, CompositeExecutor):
                pending.extend(executor.executors)
            elif (prepare := getattr(executor, "prepare", None)) is not None:
                await prepare()
        # The store's first read imports pandas (~0.2 s). It happens here, before the run, not inside the first
        # call's recorded duration, where the policy reads the grants (a first write measured 300 ms, then 30).
        await asyncio.to_thread(self.session.permissions.grants.active)

    def start_run(self) -> str:
        """A new run of the conversation, with a new id (what ``%zeph undo`` names): the tools are read again,
        and files may have changed since the last one, so cached reads go."""
        self.refresh_tools()
        if self.session.cache is not None:
            self.session.cache.invalidate_workspace()
        self.session.run_id = new_run_id()
        self.session.utility.new_run()
        return self.session.run_id

    def note_context(self, share: float) -> None:
        """How much of ``[agent] context_budget_tokens`` the conversation uses now (the utility score's cost)."""
        self.session.utility.context_share = share

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
        return list(self.session.desk.pending.values())

    def describe_tools(self) -> ToolsView:
        session = self.session
        visible = self.tool_definitions()
        shown = {tool.name for tool in visible}
        permissions = session.permissions
        infos = tuple(ToolInfo(tool.name, first_sentence(tool.description), len(permissions.policy.rules_for(tool)))
                      for tool in visible)  # fmt: skip
        hidden = tuple(name for name in session.tools if name not in shown)
        return ToolsView(infos, hidden, tuple(permissions.grants.active()))


def new_run_id() -> str:
    """Twelve hex digits: short enough to type after ``%zeph undo``, unique enough for one person's runs."""
    return uuid.uuid4().hex[:12]


def first_sentence(text: str, limit: int = 100) -> str:
    """A description's first sentence (ended by . ! or ? and a space, so "e.g." or a version stays whole), cut at
    a word when longer than ``limit``."""
    sentence = re.split(r"(?<=[.!?])(?<!e\.g\.)(?<!i\.e\.)\s", text.strip(), maxsplit=1)[0].rstrip(".")
    if len(sentence) <= limit:
        return sentence
    return sentence[:limit].rsplit(" ", 1)[0] + "…"


def build_chain(
    settings: Settings | None = None,
    *,
    workdir: str | os.PathLike[str] | None = None,
    approver: Approver | None = None,
    store: Store | None = None,
    executor: ToolExecutor | None = None,
    tools: Sequence[ToolExecutor | Callable[..., Any]] = (),
    conversation_id: str | None = None,
    env: Mapping[str, str] | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    judge: Judge | None = None,
    embedder: Embedder | None = None,
    code_embedder: Embedder | None = None,
) -> GateChain:
    """Build the executor the agent uses.

    The model's tools: the built-in families and those installed packages offer (``tools/toolsets.py``), plus
    ``tools`` (more toolsets, and Python functions: ``toolsets_from``), plus ``read_overflow``. ``executor``
    replaces the built-in and installed ones (``tools`` and ``read_overflow`` are still added). Two toolsets
    defining one tool name is a ConfigError. ``approver`` defaults to ``DenyAll`` (nothing that needs approval
    runs unless someone can approve it); ``store`` to the store under the zeph home. ``judge`` is the second model
    of ``[gates.adversarial]`` (the agent makes it from the named provider); ``embedder`` embeds the memory tools'
    notes (from ``[memory] embedding_provider``, likewise), ``code_embedder`` search_code's definitions
    (``[index] embedding_provider``).
    """
    settings = settings or Settings.load()
    if workdir is not None and not os.path.isdir(workdir):
        raise ConfigError(f"the working directory {os.fspath(workdir)!r} is not a directory; create it or pass another")
    store = store if store is not None else Store(settings)
    conversation_id = conversation_id or uuid.uuid4().hex
    if executor is None:
        # The memory tools keep notes in the store this chain audits to, with the id of the run (session, below).
        builtins = builtin_executor(settings, workdir=workdir, env=env, store=store, run=lambda: session.run_id,
                                    embedder=embedder, code_embedder=code_embedder)  # fmt: skip
        toolsets = [builtins, *installed_toolsets(settings, workdir)]
    else:
        toolsets = [executor]
    toolsets += toolsets_from(tools, settings)
    overflow: OverflowExecutor | None = None
    # Not added when a toolset brings its own (an executor that has it already); a person's function of that name
    # does not count: it is refused below, as any function taking a built-in's name, never put in its place.
    if not any(t.name == READ_OVERFLOW.name for toolset in toolsets if not isinstance(toolset, FunctionToolset)
               for t in toolset.tool_definitions()):  # fmt: skip
        overflow = OverflowExecutor(store, conversation_id)
        toolsets.append(overflow)
    # One registry of every tool offered (a name two toolsets take raises here); those the settings turn off by
    # their ``enabled_by`` flag or ``[tools] disabled`` are hidden, and a call to one names the setting.
    offered = CompositeExecutor(toolsets).check_names()
    hidden = turned_off(settings, offered)
    executor = toolsets[0] if len(toolsets) == 1 and not hidden else CompositeExecutor(toolsets, hidden=hidden)
    by_name = {tool.name: tool for tool in executor.tool_definitions()}
    session = Session(settings, tools=by_name, workdir=workdir, store=store, conversation_id=conversation_id,
                      turned_off=hidden)  # fmt: skip
    session.desk.approver = approver or DenyAll()
    pipeline = OutputPipeline(settings, store, conversation_id)
    # Always there: with [undo] off it still tells provenance what each call wrote (gates/undo.py).
    snapshotter = Snapshotter(settings, session.workdir, FileChanges(store), run=lambda: session.run_id,
                              conversation=lambda: session.conversation_id)  # fmt: skip

    # The order, outermost first: a call meets these top to bottom, then the executor.
    gates: list[Callable[[Handler], Handler]] = [
        lambda inner: AuditGate(
            inner,
            AuditLog(store, copy_to=settings.audit.destination),
            observe=session.observe,
            conversation=lambda: session.conversation_id,
            run=lambda: session.run_id,
            trust=session.permissions.trust.level_for,
        ),
        lambda inner: OutputGate(inner, pipeline),
        lambda inner: QuotaGate(inner, session.quota),
        lambda inner: PrepareGate(inner, session.preparer),
        lambda inner: BlocklistGate(inner),
        lambda inner: PolicyEnforcerGate(inner, session.permissions.declarative),
        lambda inner: PolicyGate(inner, session.permissions, executor.requires_confirmation),
        lambda inner: UtilityGate(inner, session.utility),
        lambda inner: AdversarialGate(inner, settings.gates.adversarial, judge),
        lambda inner: ApprovalGate(
            inner,
            session.desk,
            timeout=settings.gates.approval.timeout_secs,
            events=session.notify,
            grants=session.permissions.grants,
            approved_hosts=session.permissions.approved_hosts,
            shown=session.asked_with(),
        ),
        lambda inner: CacheGate(inner, session.cache),
        lambda inner: RetryGate(inner, settings.gates.retry, sleep=sleep),
        lambda inner: UndoGate(inner, snapshotter),
    ]
    head: Handler = ExecutorGate(executor)
    for wrap in reversed(gates):
        head = wrap(head)
    return GateChain(session, head, executor=executor, pipeline=pipeline, store=store, overflow=overflow)
