"""Agent: the loop that asks a model, runs the tools it asks for through the gate chain, and stops for a reason.

One run: the prompt joins the conversation; then, until the model answers without tools or a limit stops it,
send the conversation and the visible tools, stream the reply, run its tool calls (read-only ones side by side,
ones that change things one at a time, in the order asked), and send the results back. Every limit is a
distinct stop reason (see ``events.StopReason``). The conversation is kept across runs until ``clear()``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import uuid
from collections import deque
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zeph_nb.agent import tafc
from zeph_nb.agent.assist import Assist
from zeph_nb.agent.conversation import Conversation, Mark, estimate_request, fingerprint, without_thinking
from zeph_nb.agent.events import (
    AgentEvent,
    IterationStarted,
    Stopped,
    TextDelta,
    ToolCallFinished,
    ToolsOffered,
)
from zeph_nb.agent.messages import (
    Block,
    Message,
    ModelRequest,
    ModelResponse,
    Provider,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from zeph_nb.agent.model_calls import call_model
from zeph_nb.agent.requests import build_request, tool_filter_from_settings
from zeph_nb.agent.result import RunResult
from zeph_nb.agent.scheduled import Viewer, scheduler_tools
from zeph_nb.config import Settings
from zeph_nb.errors import ModelError, ZephError
from zeph_nb.gates.call import CallOutcome
from zeph_nb.gates.chain import build_chain
from zeph_nb.store.conversations import Conversations
from zeph_nb.tools.base import ToolCall

if TYPE_CHECKING:
    from zeph_nb.gates.approval import ApprovalRequest, Approver
    from zeph_nb.gates.chain import ToolsView
    from zeph_nb.gates.events import GateEvent
    from zeph_nb.store.store import Store
    from zeph_nb.tools.base import ToolExecutor

__all__ = ["Agent", "RunResult"]

# Stop before the next request would pass this share of [agent] context_budget_tokens.
BUDGET_SHARE = 0.8

_DONE: Any = object()  # what stream() finds in its queue when the run ended


class Agent:
    """An agent with one conversation. ``await agent.run(prompt)`` or ``agent.run_sync(prompt)``."""

    def __init__(
        self,
        settings: Settings | None = None,
        provider: Provider | None = None,
        approver: Approver | None = None,
        workdir: str | os.PathLike[str] | None = None,
        *,
        store: Store | None = None,
        executor: ToolExecutor | None = None,
        tools: Sequence[ToolExecutor | Callable[..., Any]] = (),
    ) -> None:
        from zeph_nb.agent.providers import judge_from_settings, provider_from_settings
        from zeph_nb.agent.providers.embeddings import index_embedder, memory_embedder

        # Settings a program built (from_toml, Settings()) still run under the organisation's managed settings.
        self.settings = settings.with_managed() if settings is not None else Settings.load()
        self.provider: Provider = provider or provider_from_settings(self.settings)
        # A scheduled task's runs get the same tools (agent/scheduled.py); the notebook shows them (scheduled_view).
        self.given_tools = tuple(tools)
        self.given_executor = executor
        self.scheduled_view: Viewer | None = None
        self.loop_ends_with_run = False  # set while run_sync runs: the scheduler tools refuse then
        tools = [*tools, *scheduler_tools(self)]
        self.chain = build_chain(self.settings, workdir=workdir, approver=approver, store=store, executor=executor,
                                 tools=tools, judge=judge_from_settings(self.settings),
                                 embedder=memory_embedder(self.settings),
                                 code_embedder=index_embedder(self.settings))  # fmt: skip
        self.workdir = Path(self.chain.workdir)
        self.tool_filter = tool_filter_from_settings(self.settings)
        self.assist = Assist(self.settings, self.chain)  # helper models ([gates.retry], [agent]) and reply checks
        self.conversation = Conversation()
        self._task: asyncio.Task[Any] | None = None
        self._stopping = False
        self._titled = False

    # -- the conversation ----------------------------------------------------------------------------------

    @property
    def messages(self) -> list[Message]:
        """The conversation's messages, as the next request sends them."""
        return self.conversation.messages

    @property
    def conversation_id(self) -> str:
        return self.chain.conversation_id

    @property
    def approver(self) -> Approver:
        return self.chain.approver

    @approver.setter
    def approver(self, approver: Approver) -> None:
        self.chain.approver = approver

    @property
    def store(self) -> Store:
        """Where this agent's calls are audited (the inbox and the dashboard read the same one)."""
        return self.chain.store

    @property
    def pending_approvals(self) -> list[ApprovalRequest]:
        """The calls waiting for a person's answer, oldest first."""
        return self.chain.pending_approvals

    def describe_tools(self) -> ToolsView:
        """What the model may call now, what is hidden from it, and the Always-allow grants in force."""
        return self.chain.describe_tools()

    @property
    def running(self) -> bool:
        return self._task is not None

    def clear(self, *, forget: bool = False) -> str:
        """Start a new conversation: history, quota, cache and completed tools reset; returns the new id. With
        ``forget``, the old conversation's stored outputs (what read_overflow reads) are deleted; its audit rows
        stay, the record of what happened."""
        if self.running:
            raise ZephError("a run is in progress: stop it first (agent.stop())")
        if forget:
            self.chain.store.delete_conversation(self.conversation_id)
        self.conversation = Conversation()
        self._titled = False
        return self.chain.new_conversation()

    def stop(self) -> bool:
        """Stop the running run: a tool in progress is killed, and the run ends with stop reason ``cancelled``."""
        if self._task is None or self._task.done():
            return False
        self._stopping = True
        self._task.cancel()
        return True

    # -- running -------------------------------------------------------------------------------------------

    async def run(
        self,
        prompt: str,
        *,
        on_event: Callable[[AgentEvent], None] | None = None,
        max_iterations: int | None = None,
    ) -> RunResult:
        """Run until the model answers without tools or a limit stops it. ``on_event`` sees every event;
        ``max_iterations`` overrides ``[agent] max_tool_iterations`` for this run."""
        if not isinstance(prompt, str) or not prompt.strip():
            raise ZephError("the prompt is empty: say what the agent should do")
        if self.running:
            raise ZephError("a run is already in progress in this agent: await it, or call agent.stop()")
        self._task = asyncio.current_task()
        self._stopping = False

        def emit(event: AgentEvent | GateEvent) -> None:
            if on_event is not None:
                on_event(event)

        unsubscribe = self.chain.subscribe(emit)
        try:
            return await self._run(prompt, emit, max_iterations or self.settings.agent.max_tool_iterations)
        finally:
            unsubscribe()
            self._task = None

    async def stream(self, prompt: str) -> AsyncIterator[AgentEvent]:
        """The run's events as they happen; the last one is ``Stopped`` carrying the ``RunResult``."""
        queue: asyncio.Queue[AgentEvent | GateEvent | BaseException] = asyncio.Queue()
        task = asyncio.create_task(self.run(prompt, on_event=queue.put_nowait))
        task.add_done_callback(lambda t: queue.put_nowait(t.exception() or _DONE) if not t.cancelled() else None)
        try:
            while True:
                item = await queue.get()
                if isinstance(item, BaseException):
                    raise item
                if item is _DONE:
                    return
                yield item
        finally:
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    def run_sync(
        self,
        prompt: str,
        *,
        on_event: Callable[[AgentEvent], None] | None = None,
        max_iterations: int | None = None,
    ) -> RunResult:
        """``run`` for code without an event loop. Inside one (a notebook cell) it runs on a private loop in a
        worker thread and blocks until done; prefer ``await agent.run(...)`` there."""
        run = self.run(prompt, on_event=on_event, max_iterations=max_iterations)
        self.loop_ends_with_run = True  # its loop is asyncio.run's: a task scheduled on it could never fire
        try:
            try:
                asyncio.get_running_loop()
            except RuntimeError:
                return asyncio.run(run)
            with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="zeph-run") as pool:
                return pool.submit(asyncio.run, run).result()
        finally:
            self.loop_ends_with_run = False

    # -- the loop ------------------------------------------------------------------------------------------

    async def _run(self, prompt: str, emit: Callable[[Any], None], max_iterations: int) -> RunResult:
        await self.chain.prepare()  # MCP servers start (or start again) here, so their tools are in the list
        run_id = self.chain.start_run()
        if self.tool_filter is not None:
            await self.tool_filter.begin(prompt)
        before = self._add_prompt(prompt)
        result = RunResult("", "completed", conversation_id=self.conversation_id, run_id=run_id)
        try:
            return await self._loop(before, result, emit, max_iterations)
        except BaseException:
            self.conversation.settle(before, "error")
            raise

    async def _loop(
        self, before: Mark, result: RunResult, emit: Callable[[Any], None], max_iterations: int
    ) -> RunResult:
        settings = self.settings
        outputs: deque[str] = deque(maxlen=settings.agent.doom_loop_threshold)
        reformat_used: set[str] = set()
        try:
            while True:
                if result.iterations >= max_iterations:
                    result.stop_reason = "max_iterations"
                    result.detail = (
                        f"stopped after {result.iterations} rounds of tool calls ([agent] max_tool_iterations = "
                        f"{max_iterations}); run again to continue"
                    )
                    break
                request = await self._request(emit)
                budget = settings.agent.context_budget_tokens
                estimate = estimate_request(request, self.conversation.sizes)
                self.chain.note_context(estimate / budget if budget else 0.0)
                if budget and estimate > BUDGET_SHARE * budget:
                    if (compacted := await self.assist.compact(self.conversation, before)) is not None:
                        before = compacted  # the earlier runs are a summary now: ask again
                        continue
                    result.stop_reason = "context_budget"
                    result.detail = (
                        f"the conversation is about {estimate} tokens, over {BUDGET_SHARE:.0%} of [agent] "
                        f"context_budget_tokens = {budget}; clear it (agent.clear()) or raise the budget"
                    )
                    break
                emit(IterationStarted(result.iterations + 1))
                response = await self._complete(request, emit)
                result.usage.add(response.usage)
                content = [without_thinking(block) for block in response.content]
                self.messages.append(Message("assistant", content))
                reply = "".join(b.text for b in content if isinstance(b, TextBlock))
                if reply.strip():
                    result.text = reply
                uses = [b for b in content if isinstance(b, ToolUseBlock)]
                if not uses:
                    if response.stop_reason == "max_tokens":
                        result.stop_reason = "max_tokens"
                        result.detail = f"the reply was cut at [llm] max_tokens = {settings.llm.max_tokens}"
                    break
                result.iterations += 1
                originals = {b.id: b for b in response.content if isinstance(b, ToolUseBlock)}
                results = await self._run_tools(uses, originals, emit, reformat_used, result)
                self.messages.append(Message("user", list(results)))
                if any(o.blocked_by == "quota" for o in result.tool_calls[-len(uses) :]):
                    result.stop_reason = "quota"
                    result.detail = (
                        f"the conversation used its {settings.gates.quota.max_tool_calls_per_session} tool calls "
                        "([gates.quota] max_tool_calls_per_session); clear it to start a new count"
                    )
                    break
                outputs.append(fingerprint(results))
                if len(outputs) == outputs.maxlen and len(set(outputs)) == 1:
                    result.stop_reason = "doom_loop"
                    result.detail = (
                        f"{outputs.maxlen} rounds in a row produced identical tool output ([agent] doom_loop_threshold)"
                    )
                    break
        except ModelError as e:
            result.stop_reason = "model_error"
            result.detail = f"the model could not be asked: {e}"
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if not self._stopping or task is None:
                raise
            task.uncancel()  # our own Stop: end the run normally, with its reason
            self.conversation.close_open_calls()
            result.stop_reason = "cancelled"
            result.detail = "stopped by the user"
        self.conversation.settle(before, result.stop_reason, result.detail)
        result.conversation_id = self.conversation_id
        result.warnings = self.assist.warnings(result, self.messages)
        emit(Stopped(result.stop_reason, result))
        return result

    def _add_prompt(self, prompt: str) -> Mark:
        if not self._titled:
            self._titled = True
            Conversations(self.chain.store).start(self.conversation_id, prompt)
        if not getattr(self.provider, "unconfigured", False):
            # Runs made while no model was configured are no history for a real one: Claude read the offline
            # "No model is configured…" as its own earlier answer (a key set mid-session keeps the conversation).
            from zeph_nb.agent.providers.scripted import NO_MODEL_REPLY

            self.conversation.forget_replies(NO_MODEL_REPLY)
        return self.conversation.add_prompt(prompt)

    async def _request(self, emit: Callable[[Any], None]) -> ModelRequest:
        tools = self.chain.tool_definitions()
        if self.tool_filter is not None:
            permissions = self.chain.session.permissions
            deps = permissions.dependencies
            boost = (lambda name: deps.boost(name, permissions.completed)) if deps is not None else (lambda _: 0.0)
            chosen = await self.tool_filter.select(tools, self.conversation.used_tools(), boost)
            emit(ToolsOffered(tuple(chosen.names), chosen.total, chosen.note))
            offered = set(chosen.names)
            tools = [tool for tool in tools if tool.name in offered]
        return build_request(self.settings, self.workdir, self.messages, tools)

    async def _complete(self, request: ModelRequest, emit: Callable[[Any], None]) -> ModelResponse:
        """One model request that never hangs and does not give up early (``model_calls.call_model``)."""

        async def on_text(text: str) -> None:
            emit(TextDelta(text))

        return await call_model(self.provider, request, on_text, emit, self.settings.llm)

    async def _run_tools(
        self,
        uses: Sequence[ToolUseBlock],
        originals: dict[str, ToolUseBlock],
        emit: Callable[[Any], None],
        reformat_used: set[str],
        result: RunResult,
    ) -> list[Block]:
        results: dict[str, ToolResultBlock] = {}
        # Read-only calls next to each other run side by side; a call that changes things runs alone, so the
        # order the model asked for holds wherever it could matter.
        groups: list[list[ToolUseBlock]] = []
        joinable = False
        for use in uses:
            tool = self.chain.tool(use.name)
            if tool is not None and tool.mutates:
                groups.append([use])
                joinable = False
            elif joinable:
                groups[-1].append(use)
            else:
                groups.append([use])
                joinable = True
        for real in groups:
            outcomes = await asyncio.gather(*(self._run_one(use, originals[use.id], emit) for use in real))
            for use, outcome in zip(real, outcomes, strict=True):
                if outcome is None:  # held only thinking
                    note = f"[skipped] this {use.name} call held only {tafc.THINK_FIELD}; send it with its parameters"
                    results[use.id] = ToolResultBlock(use.id, note, True)
                    continue
                result.tool_calls.append(outcome)
                text = outcome.text
                if outcome.category is not None and outcome.category.needs_parameter_reformat:
                    if use.name not in reformat_used:
                        reformat_used.add(use.name)
                        text += "\n\nSend this call once more, with parameters that match the schema."
                    else:
                        text += (
                            f"\n\nThe corrected call was rejected too. Do not call {use.name} again with guessed "
                            "parameters: say what is missing, or take another approach."
                        )
                results[use.id] = ToolResultBlock(use.id, text, outcome.is_error)
        return [results[use.id] for use in uses]

    async def _run_one(
        self, use: ToolUseBlock, original: ToolUseBlock, emit: Callable[[Any], None]
    ) -> CallOutcome | None:
        params, only_thinking = tafc.strip(original.input)
        if only_thinking:
            return None
        call = ToolCall(use.name, params, call_id=use.id or uuid.uuid4().hex, caller_id=self.conversation_id)
        outcome = await self.assist.execute(call, emit)
        emit(ToolCallFinished(outcome))
        return outcome
