"""The agent loop with the scripted model and real tools: stop reasons, reformat, TAFC, concurrency, cancel."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from pydantic import Field

from zeph_nb import audit
from zeph_nb.agent import Agent, RunResult, ScriptedProvider
from zeph_nb.agent.messages import Message, ModelRequest, ModelResponse, TextSink
from zeph_nb.agent.tafc import THINK_FIELD, complexity
from zeph_nb.config import Settings
from zeph_nb.errors import ModelError, ToolErrorCategory, ZephError
from zeph_nb.gates import AutoApprove, ScriptedApprover
from zeph_nb.store import Store
from zeph_nb.tools.base import SingleToolExecutor, ToolArgs, ToolCall, ToolDef, ToolOutput
from zeph_nb.tools.builtin import builtin_executor
from zeph_nb.tools.composite import CompositeExecutor


def make(
    turns: Sequence[Any], workdir: Path, store: Store, toml: str = "", *, approver: object = None, executor: Any = None
) -> Agent:
    settings = Settings.from_toml(toml).model_copy(update={"home": store.home})
    return Agent(settings, ScriptedProvider(turns), approver or AutoApprove(), workdir, store=store,  # type: ignore[arg-type]
                 executor=executor)  # fmt: skip


def bash(command: str) -> list[dict[str, Any]]:
    return [{"tool": "bash", "params": {"command": command}}]


async def test_a_full_run_from_prompt_to_audit_rows(tmp_path: Path, store: Store) -> None:
    agent = make(
        [bash("printf 'one\\ntwo\\n' > list.txt"), [{"tool": "read", "params": {"path": "list.txt"}}], "Two lines."],
        tmp_path, store, approver=ScriptedApprover(["approve"]),
    )  # fmt: skip
    kinds: list[str] = []
    result = await agent.run("Write a list and read it back", on_event=lambda e: kinds.append(e.kind))
    assert (result.stop_reason, result.text, result.iterations) == ("completed", "Two lines.", 2)
    assert [(o.tool, o.status) for o in result.tool_calls] == [("bash", "ok"), ("read", "ok")]
    assert result.usage.input_tokens > 0 and result.conversation_id == agent.conversation_id
    assert kinds[0] == "iteration_started" and kinds[-1] == "stopped" and "tool_call_finished" in kinds
    rows = store.query(
        "SELECT tool, status, decision, call_id FROM tool_calls WHERE conversation_id = ? ORDER BY ts",
        [agent.conversation_id],
    )
    assert list(rows["tool"]) == ["bash", "read"]
    assert list(rows["call_id"]) == [o.call.call_id for o in result.tool_calls]
    titles = store.query("SELECT title FROM conversations WHERE id = ?", [agent.conversation_id])
    assert list(titles["title"]) == ["Write a list and read it back"]


async def test_history_is_kept_across_runs_until_cleared(tmp_path: Path, store: Store) -> None:
    provider = ScriptedProvider(["First answer.", "Second answer.", "Fresh start."])
    agent = Agent(Settings().model_copy(update={"home": store.home}), provider, workdir=tmp_path, store=store)
    await agent.run("one")
    await agent.run("two")
    assert [m.text for m in provider.requests[1].messages] == ["one", "First answer.", "two"]
    old = agent.conversation_id
    assert agent.clear() != old
    await agent.run("three")
    assert [m.text for m in provider.requests[2].messages] == ["three"]


async def test_runs_without_a_model_are_no_history_for_a_real_one(tmp_path: Path, store: Store) -> None:
    # Without a key the offline model answers "No model is configured…"; once a key is set the conversation goes
    # on, and that exchange went along: Claude read it as its own earlier answer.
    settings = Settings.load(env={"ZEPH_AGENT_MAX_TOOL_ITERATIONS": "1", "ZEPH_HOME": str(store.home)})
    real = ScriptedProvider([[{"tool": "time", "params": {}}], "Second answer.", "Back."])
    agent = Agent(settings, real, AutoApprove(), tmp_path, store=store)
    assert (await agent.run("one")).stop_reason == "max_iterations"  # ends on the tool's result: a user turn
    agent.provider = ScriptedProvider()  # the key removed: offline
    await agent.run("two")  # joins the tool result's turn
    await agent.run("three")  # a turn of its own
    assert [m.role for m in agent.messages] == ["user", "assistant", "user", "assistant", "user", "assistant"]
    agent.provider = real
    await agent.run("four")
    sent = real.requests[-1].messages
    assert [m.role for m in sent] == ["user", "assistant", "user"]
    assert [type(b).__name__ for b in sent[-1].content] == ["ToolResultBlock", "TextBlock"]
    assert sent[-1].text == "four" and "No model is configured" not in str(sent)
    await agent.run("five")
    assert [m.text for m in real.requests[-1].messages][-3:] == ["four", "Second answer.", "five"]
    # Messages in the middle were taken out: the running size still agrees with a recount.
    assert agent.conversation.sizes.chars(agent.messages) == sum(m.chars for m in agent.messages)


async def test_max_iterations_from_the_environment(tmp_path: Path, store: Store) -> None:
    settings = Settings.load(env={"ZEPH_AGENT_MAX_TOOL_ITERATIONS": "2", "ZEPH_HOME": str(store.home)})
    turns = [bash(f"echo {i}") for i in range(5)]
    agent = Agent(settings, ScriptedProvider(turns), AutoApprove(), tmp_path, store=store)
    result = await agent.run("count")
    assert (result.stop_reason, result.iterations, len(result.tool_calls)) == ("max_iterations", 2, 2)
    assert "max_tool_iterations = 2" in result.detail


async def test_a_doom_loop_stops_after_three_identical_rounds(tmp_path: Path, store: Store) -> None:
    result = await make([bash("echo same")] * 6, tmp_path, store).run("loop")
    assert (result.stop_reason, result.iterations) == ("doom_loop", 3)


async def test_different_outputs_are_not_a_doom_loop(tmp_path: Path, store: Store) -> None:
    turns = [bash("echo a"), bash("echo b"), bash("echo a"), "done"]
    assert (await make(turns, tmp_path, store).run("vary")).stop_reason == "completed"


async def test_the_context_budget_stops_before_it_is_passed(tmp_path: Path, store: Store) -> None:
    big = "x" * 20_000
    agent = make([bash(f"echo {big}"), "never sent"], tmp_path, store,
                 "[agent]\ncontext_budget_tokens = 12000\n[llm]\nmax_tokens = 100")  # fmt: skip
    result = await agent.run("go")
    assert result.stop_reason == "context_budget" and "context_budget_tokens = 12000" in result.detail
    provider = agent.provider
    assert isinstance(provider, ScriptedProvider) and len(provider.requests) == 1


async def test_the_quota_stops_the_run(tmp_path: Path, store: Store) -> None:
    turns = [bash("echo 1") + bash("echo 2") + bash("echo 3"), "unreached"]
    result = await make(turns, tmp_path, store, "[gates.quota]\nmax_tool_calls_per_session = 2").run("go")
    assert result.stop_reason == "quota"
    assert [o.blocked_by for o in result.tool_calls] == [None, None, "quota"]


async def test_max_tokens_is_its_own_stop_reason(tmp_path: Path, store: Store) -> None:
    class Cut(ScriptedProvider):
        async def complete(self, request: ModelRequest, on_text: TextSink) -> ModelResponse:
            response = await super().complete(request, on_text)
            response.stop_reason = "max_tokens"
            return response

    agent = Agent(Settings().model_copy(update={"home": store.home}), Cut(["A long answ"]), workdir=tmp_path,
                  store=store)  # fmt: skip
    assert (await agent.run("go")).stop_reason == "max_tokens"


async def test_model_errors_are_retried_then_reported(tmp_path: Path, store: Store) -> None:
    failures = [ModelError(ToolErrorCategory.RATE_LIMITED, "slow down", retry_after=0.01)]

    class Flaky(ScriptedProvider):
        async def complete(self, request: ModelRequest, on_text: TextSink) -> ModelResponse:
            if failures:
                raise failures.pop(0)
            return await super().complete(request, on_text)

    settings = Settings.from_toml("[gates.retry]\nbase_ms = 1").model_copy(update={"home": store.home})
    assert (await Agent(settings, Flaky(["fine"]), workdir=tmp_path, store=store).run("go")).text == "fine"
    failures.append(ModelError(ToolErrorCategory.INVALID_PARAMETERS, "bad request"))
    result = await Agent(settings, Flaky(["unreached"]), workdir=tmp_path, store=store).run("go")
    assert result.stop_reason == "model_error" and "bad request" in result.detail


async def test_quality_failures_get_exactly_one_reformat_attempt(tmp_path: Path, store: Store) -> None:
    turns = [
        [{"tool": "write", "params": {"path": "a.txt"}}],  # content missing
        [{"tool": "write", "params": {"path": "a.txt", "contents": "x"}}],  # wrong name
        "I cannot write it.",
    ]
    agent = make(turns, tmp_path, store)
    result = await agent.run("write a.txt")
    provider = agent.provider
    assert isinstance(provider, ScriptedProvider)
    first = provider.requests[1].messages[-1].content[0]
    second = provider.requests[2].messages[-1].content[0]
    assert "Send this call once more" in first.content  # type: ignore[union-attr]
    assert "rejected too" in second.content and "Send this call once more" not in second.content  # type: ignore[union-attr]
    assert [o.category for o in result.tool_calls] == [ToolErrorCategory.INVALID_PARAMETERS] * 2


async def test_refusals_and_infrastructure_errors_never_ask_for_a_reformat(tmp_path: Path, store: Store) -> None:
    toml = '[gates.permissions]\nbash = [{pattern = "rm *", action = "deny"}]'
    agent = make([bash("rm -rf x"), [{"tool": "read", "params": {"path": "missing.txt"}}], "ok"], tmp_path, store,
                 toml)  # fmt: skip
    await agent.run("go")
    provider = agent.provider
    assert isinstance(provider, ScriptedProvider)
    for request in provider.requests[1:]:
        assert "once more" not in request.messages[-1].content[0].content  # type: ignore[union-attr]


class PlanArgs(ToolArgs):
    steps: list[dict[str, list[str]]]
    mode: str = Field(json_schema_extra={"enum": [f"m{i}" for i in range(12)]})
    owner: str
    target: str
    priority: int
    deadline: str


class Planner(SingleToolExecutor):
    """A tool complex enough for TAFC; it records the arguments it really received."""

    tool = ToolDef("plan", "Make a plan.", PlanArgs)

    def __init__(self) -> None:
        self.seen: list[dict[str, Any]] = []

    async def run(self, args: Any, call: ToolCall) -> ToolOutput:
        self.seen.append(dict(call.params))
        return ToolOutput("plan", "planned", call_id=call.call_id)


async def test_tafc_thinking_is_offered_then_stripped_never_run_nor_logged(tmp_path: Path, store: Store) -> None:
    planner = Planner()
    params = {"steps": [{"a": ["b"]}], "mode": "m1", "owner": "o", "target": "t", "priority": 1, "deadline": "d"}
    turns = [
        [{"tool": "plan", "params": {THINK_FIELD: "secret musing", f"{THINK_FIELD}_2": "more musing", **params}}],
        [{"tool": "plan", "params": {THINK_FIELD: "only thinking", f"{THINK_FIELD}ing": "and more"}}],
        "planned",
    ]
    executor = CompositeExecutor([builtin_executor(Settings(), workdir=tmp_path), planner])
    agent = make(turns, tmp_path, store, "[agent.tafc]\nenabled = true\ncomplexity_threshold = 0.6",
                 executor=executor)  # fmt: skip
    assert complexity(Planner.tool.input_schema) >= 0.6
    result = await agent.run("plan it")
    provider = agent.provider
    assert isinstance(provider, ScriptedProvider)
    schema = next(s for s in provider.requests[0].tool_schemas if s["name"] == "plan")["input_schema"]
    assert next(iter(schema["properties"])) == THINK_FIELD
    bash_schema = next(s for s in provider.requests[0].tool_schemas if s["name"] == "bash")["input_schema"]
    assert THINK_FIELD not in bash_schema["properties"]  # simple tools are left alone
    assert planner.seen == [params]  # stripped before the call was built; the thinking-only call never ran
    assert len(result.tool_calls) == 1
    skipped = provider.requests[2].messages[-1].content[0]
    assert "held only" in skipped.content  # type: ignore[union-attr]
    logged = store.query("SELECT params FROM tool_calls")["params"]
    assert all("musing" not in p for p in logged)
    assert all("musing" not in str(m.content) for m in agent.messages)


class Rendezvous(SingleToolExecutor):
    """A read-only tool whose two calls can only both finish if they run at the same time."""

    tool = ToolDef("meet", "Wait for a partner call.", ToolArgs)

    def __init__(self) -> None:
        self.barrier = asyncio.Barrier(2)

    async def run(self, args: Any, call: ToolCall) -> ToolOutput:
        await asyncio.wait_for(self.barrier.wait(), timeout=10)
        return ToolOutput("meet", "met", call_id=call.call_id)


async def test_independent_calls_run_concurrently_and_writes_keep_their_order(tmp_path: Path, store: Store) -> None:
    meet = Rendezvous()
    executor = CompositeExecutor([builtin_executor(Settings(), workdir=tmp_path), meet])
    turns = [
        [{"tool": "meet"}, {"tool": "meet"}, *bash("echo 1 >> order.txt"), *bash("echo 2 >> order.txt")],
        "done",
    ]
    result = await make(turns, tmp_path, store, executor=executor).run("go")
    assert [o.status for o in result.tool_calls] == ["ok"] * 4
    assert (tmp_path / "order.txt").read_text() == "1\n2\n"


async def test_stop_mid_tool_kills_the_process_and_the_audit_row_says_cancelled(
    tmp_path: Path, store: Store, processes: Any
) -> None:
    # A detached grandchild too: in the OS sandbox it dies with the namespace; without one, with the group.
    marker = f"61.{os.getpid()}"
    agent = make(
        [bash(f"sleep 3{marker} & echo started > pid.txt; exec sleep 6{marker}"), "unreached"], tmp_path, store
    )
    started = asyncio.Event()

    def watch(event: Any) -> None:
        if event.kind == "tool_call_started":
            started.set()

    run = asyncio.create_task(agent.run("sleep", on_event=watch))
    await started.wait()
    pid_file = tmp_path / "pid.txt"
    deadline = time.monotonic() + 10
    while not pid_file.exists() or not pid_file.read_text().strip():
        assert time.monotonic() < deadline
        await asyncio.sleep(0.02)
    assert processes.running(marker)
    assert agent.stop()
    result: RunResult = await run
    assert result.stop_reason == "cancelled"
    assert await processes.gone(marker)
    rows = store.query("SELECT status, error_category FROM tool_calls WHERE conversation_id = ?",
                       [agent.conversation_id])  # fmt: skip
    assert list(rows.itertuples(index=False, name=None)) == [("cancelled", "cancelled")]
    # The conversation stays valid: the tool use got a result, and the turn is closed so the next prompt is new.
    assert agent.messages[-2].role == "user" and agent.messages[-2].content[0].is_error  # type: ignore[union-attr]
    assert agent.messages[-1].role == "assistant" and "ended before it was finished (cancelled" in str(
        agent.messages[-1].content[0].text  # type: ignore[union-attr]
    )
    assert not agent.running


async def test_the_event_stream_ends_with_the_result(tmp_path: Path, store: Store) -> None:
    toml = '[gates.permissions]\nbash = [{pattern = "echo *", action = "ask"}]'
    agent = make([bash("echo hi"), "bye"], tmp_path, store, toml, approver=ScriptedApprover(["approve"]))
    kinds = []
    last = None
    async for event in agent.stream("hello"):
        kinds.append(event.kind)
        last = event
    assert kinds[:4] == ["iteration_started", "approval_requested", "approval_answered", "tool_call_started"]
    assert kinds[-1] == "stopped" and last is not None and last.result.text == "bye"  # type: ignore[union-attr]
    assert "text_delta" in kinds


async def test_run_sync_works_inside_a_running_loop_and_refuses_overlaps(tmp_path: Path, store: Store) -> None:
    agent = make(["one", "two"], tmp_path, store)
    assert agent.run_sync("first").text == "one"  # from inside this test's event loop: a private loop in a thread
    with pytest.raises(ZephError, match="empty"):
        await agent.run("  ")
    slow = make([bash("sleep 0.5"), "done"], tmp_path, store)
    task = asyncio.create_task(slow.run("a"))
    await asyncio.sleep(0.05)
    with pytest.raises(ZephError, match="already in progress"):
        await slow.run("b")
    await task


def test_run_sync_without_a_loop(tmp_path: Path, store: Store) -> None:
    agent = make(["hello"], tmp_path, store)
    assert agent.run_sync("hi").text == "hello"
    assert agent.run_sync("again").text == "(The scripted model has no more turns.)"


def test_without_a_model_the_scripted_stand_in_says_so(tmp_path: Path, isolated_env: Path) -> None:
    agent = Agent(Settings.load(env={"ZEPH_HOME": str(isolated_env)}), workdir=tmp_path)
    result = agent.run_sync("hello")
    assert "No model is configured" in result.text and "ANTHROPIC_API_KEY" in result.text
    agent.chain.store.close()
    assert len(audit.frame(settings=Settings.load(env={"ZEPH_HOME": str(isolated_env)}))) == 0


def test_callable_turns_see_the_conversation(tmp_path: Path, store: Store) -> None:
    def answer(messages: Sequence[Message]) -> str:
        return f"you said {messages[-1].text!r}"

    assert make([answer], tmp_path, store).run_sync("ping").text == "you said 'ping'"


class _Failing(ScriptedProvider):
    """Answers from its script, except when the next turn is an exception (raised) or "STOP" (Stop is pressed)."""

    agent: Agent

    async def complete(self, request: ModelRequest, on_text: TextSink) -> ModelResponse:
        self.requests.append(request)
        turn = self.turns[0] if self.turns else None
        if isinstance(turn, BaseException):
            self.turns.pop(0)
            raise turn
        if turn == "STOP":  # the person presses Stop while the model is thinking
            self.turns.pop(0)
            assert self.agent.stop()
            await asyncio.sleep(30)
        self.requests.pop()
        return await super().complete(request, on_text)


def _texts(request: ModelRequest) -> list[str]:
    return [getattr(block, "text", "") for message in request.messages for block in message.content]


@pytest.mark.parametrize("failure", ["model_error", "refused_key", "context_budget", "stop"])
async def test_a_run_that_failed_before_the_model_answered_leaves_no_trace(
    tmp_path: Path, store: Store, failure: str
) -> None:
    turns: list[Any] = ["First answer."]
    if failure == "model_error":
        turns.append(ModelError(ToolErrorCategory.INVALID_PARAMETERS, "bad request"))
    elif failure == "refused_key":
        turns.append(ModelError(ToolErrorCategory.PERMANENT_FAILURE, "invalid x-api-key"))
    elif failure == "stop":
        turns.append("STOP")
    turns.append("Files: a.txt")
    provider = _Failing(turns)
    settings = Settings().model_copy(update={"home": store.home})
    agent = provider.agent = Agent(settings, provider, AutoApprove(), tmp_path, store=store)  # type: ignore[arg-type]
    assert (await agent.run("Say hello.")).text == "First answer."
    if failure == "context_budget":
        huge = "x " * 40_000
        agent.settings = Settings.from_toml("[agent]\ncontext_budget_tokens = 12000").model_copy(
            update={"home": store.home}
        )
        result = await agent.run(f"Remove the scratch directory. {huge}")
        agent.settings = settings
    else:
        result = await agent.run("Remove the scratch directory.")
    assert result.stop_reason == ("cancelled" if failure == "stop" else failure.replace("refused_key", "model_error"))
    await agent.run("Just tell me which files are in data/.")
    last = provider.requests[-1]
    assert not any("scratch" in text for text in _texts(last)), _texts(last)
    assert [m.role for m in last.messages] == ["user", "assistant", "user"]


async def test_a_run_that_failed_after_an_answer_is_closed_not_repeated(tmp_path: Path, store: Store) -> None:
    provider = _Failing([bash("echo 1"), ModelError(ToolErrorCategory.INVALID_PARAMETERS, "bad request"), "Done."])
    settings = Settings().model_copy(update={"home": store.home})
    agent = Agent(settings, provider, AutoApprove(), tmp_path, store=store)  # type: ignore[arg-type]
    assert (await agent.run("Remove the scratch directory.")).stop_reason == "model_error"
    await agent.run("Just tell me which files are in data/.")
    roles = [m.role for m in provider.requests[-1].messages]
    # prompt, tool use, tool result, the closing note, the new prompt: a turn of its own
    assert roles == ["user", "assistant", "user", "assistant", "user"]
    assert _texts(provider.requests[-1])[-1] == "Just tell me which files are in data/."


async def test_the_system_prompt_says_to_act_through_tool_calls(tmp_path: Path, store: Store) -> None:
    # Seed parity: a model that writes ```bash blocks believes it acted; the prompt says such text never runs.
    agent = make(["ok"], tmp_path, store)
    await agent.run("hello")
    provider = agent.provider
    assert isinstance(provider, ScriptedProvider)
    system = provider.requests[0].system
    assert "call a tool" in system and "fenced block" in system and "never runs" in system
    assert str(tmp_path) in system


async def test_clear_forget_deletes_the_old_conversations_stored_outputs(tmp_path: Path, store: Store) -> None:
    call = [{"tool": "bash", "params": {"command": "seq 1 20000"}}]
    toml = '[output.overflow]\nthreshold = 1000\n[gates.permissions]\nbash = [{pattern = "*", action = "allow"}]'
    agent = make([call, "done", call, "done"], tmp_path, store, toml)
    kept = (agent.conversation_id, (await agent.run("count")).tool_calls[0].overflow_id)
    agent.clear()  # a plain clear keeps them, for [output.overflow] retention_days
    gone = (agent.conversation_id, (await agent.run("count again")).tool_calls[0].overflow_id)
    agent.clear(forget=True)
    assert kept[1] is not None and store.get_overflow(kept[1], kept[0]) is not None
    assert gone[1] is not None and store.get_overflow(gone[1], gone[0]) is None
    assert store.query("SELECT count(*) AS n FROM tool_calls")["n"][0] == 2  # the audit rows stay
