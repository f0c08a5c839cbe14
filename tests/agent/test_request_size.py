"""The request-size estimate kept as a running total: the same number as counting the whole text, each round.

Sizing the whole conversation from scratch every round made a 1,000-call run quadratic (bench/longrun_bench.py);
these tests hold the running total to the from-scratch count through every way the conversation changes.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

from zeph_nb import Agent, ScriptedProvider
from zeph_nb.agent.compaction import SUMMARY_HEAD
from zeph_nb.agent.conversation import FAILED, Conversation, estimate_request
from zeph_nb.agent.loop import BUDGET_SHARE
from zeph_nb.agent.messages import Block, Message, ModelRequest, RunningSize, TextBlock, ToolResultBlock, ToolUseBlock
from zeph_nb.agent.requests import used_tools
from zeph_nb.config import Settings
from zeph_nb.errors import ModelError, ToolErrorCategory
from zeph_nb.output.sanitize import estimate_tokens, tokens_for_chars


def from_scratch(request: ModelRequest) -> int:
    """The estimate as it was defined before the running total: the request's whole text, built and measured."""
    text = request.system + json.dumps(list(request.tool_schemas))
    for message in request.messages:
        for block in message.content:
            if isinstance(block, TextBlock):
                text += block.text
            elif isinstance(block, ToolUseBlock):
                text += block.name + json.dumps(block.input, default=str)
            else:
                text += block.content
    return estimate_tokens(text) + request.max_tokens


def request_of(conversation: Conversation) -> ModelRequest:
    schemas = [{"name": "bash", "input_schema": {"type": "object"}}]
    return ModelRequest("You are a careful agent.", list(conversation.messages), [], schemas, 1024)


TOOLS = [f"tool_{i}" for i in range(40)]


def random_blocks(rng: random.Random, role: str) -> list[Block]:
    if role == "assistant":
        blocks: list[Block] = [TextBlock("é" * rng.randrange(0, 50))]
        blocks += [
            ToolUseBlock(f"t{rng.random()}", rng.choice(TOOLS), {"command": "x" * rng.randrange(90)}) for _ in range(2)
        ]
        return blocks
    return [ToolResultBlock(f"t{rng.random()}", "out " * rng.randrange(200), rng.random() < 0.1)]


def test_the_running_totals_equal_a_recount_through_every_kind_of_change() -> None:
    rng = random.Random(45)
    conversation = Conversation()
    kinds = ["prompt", "round", "round", "round", "settle", "stop", "compact", "clear", "drop_tail"]
    seen = set()

    def counted_as_from_scratch(kind: str) -> None:
        request = request_of(conversation)
        assert estimate_request(request, conversation.sizes) == from_scratch(request), kind
        assert conversation.used_tools() == used_tools(conversation.messages), kind

    for _ in range(1500):
        kind = rng.choice(kinds)
        seen.add(kind)
        messages = conversation.messages
        if kind == "prompt":  # joins the last turn's tool results, or starts a turn
            mark = conversation.add_prompt("please " * rng.randrange(20))
            if rng.random() < 0.5:
                counted_as_from_scratch("prompt")  # as the loop does before asking the model
            if rng.random() < 0.3:  # the model failed: the prompt is taken back out, and nothing counted after
                conversation.settle(mark, rng.choice(sorted(FAILED)))
                continue
        elif kind == "round":
            messages.append(Message("assistant", random_blocks(rng, "assistant")))
            messages.append(Message("user", random_blocks(rng, "user")))
        elif kind == "settle" and messages:
            conversation.settle(conversation.add_prompt("x"), "model_error")  # the prompt taken back out
        elif kind == "stop":
            messages.append(Message("assistant", random_blocks(rng, "assistant")))
            conversation.close_open_calls()
        elif kind == "compact" and len(messages) >= 2:
            # What compaction does: a new list whose first two messages are a summary, the rest kept. With exactly
            # two summarised, the length does not change: the total must still start over.
            cut = rng.choice([2, min(len(messages), 4)])
            conversation.messages = [
                Message("user", [TextBlock(f"{SUMMARY_HEAD}\n" + "s" * rng.randrange(300))]),
                Message("assistant", [TextBlock("Understood; I continue from this summary.")]),
                *messages[cut:],
            ]
        elif kind == "clear":
            conversation.messages.clear()
        elif kind == "drop_tail" and messages:
            del messages[rng.randrange(len(messages)) :]
        counted_as_from_scratch(kind)
    assert seen == set(kinds)


class Counted(Message):
    visits = 0

    @property
    def chars(self) -> int:
        Counted.visits += 1
        return super().chars


def test_each_message_is_measured_once_however_many_rounds_follow() -> None:
    sizes = RunningSize()
    messages: list[Message] = []
    Counted.visits = 0
    for i in range(1000):
        messages.append(Counted("user", [ToolResultBlock(str(i), "output line\n" * 5)]))
        sizes.chars(messages)
    assert Counted.visits == 1000  # not 1000 * 1001 / 2, as re-sizing every round did
    assert sizes.chars(messages) == sum(Message(m.role, m.content).chars for m in messages)


# -- through a real agent: the loop's own estimate, read where it leaves it (the utility score's context share) --


class Checked:
    """Scripted turns that first record the loop's estimate of each request beside a from-scratch count; the
    loop's own is read where it leaves it (the utility score's context share, times the budget)."""

    def __init__(self, budget: int = 1_000_000) -> None:  # the default never stops a run
        self.budget = budget
        self.agent: Agent | None = None
        self.seen: list[tuple[int, int]] = []

    def turn(self, reply: Any) -> Any:
        def answer(_messages: Any) -> Any:
            assert self.agent is not None
            request = self.agent.provider.requests[-1]  # type: ignore[attr-defined]
            loop_estimate = round(self.agent.chain.session.utility.context_share * self.budget)
            self.seen.append((loop_estimate, from_scratch(request)))
            if isinstance(reply, BaseException):
                raise reply
            return reply

        return answer

    def agent_for(self, home: Path, turns: list[Any], toml: str = "") -> Agent:
        settings = Settings.from_toml(f"[agent]\ncontext_budget_tokens = {self.budget}\n{toml}").model_copy(
            update={"home": home / "zeph", "user_home": home}
        )
        (home / "work").mkdir(parents=True, exist_ok=True)
        self.agent = Agent(settings, ScriptedProvider(turns), workdir=home / "work")
        return self.agent


TIME_CALL = [{"tool": "time", "params": {"format": "epoch_ns"}}]


def test_a_prompt_taken_back_and_another_joining_the_same_turn_is_counted_afresh(tmp_path: Path) -> None:
    # A run stopped after tool results; the next prompt joins that user turn, the model fails before answering
    # (the prompt is taken back out), and a third prompt joins the same turn: as many blocks as the second had,
    # but another text. The total kept the second prompt's size.
    check = Checked()
    failure = ModelError(ToolErrorCategory.PERMANENT_FAILURE, "no")
    turns = [check.turn(TIME_CALL), check.turn(failure), check.turn("done")]
    agent = check.agent_for(tmp_path, turns, "max_tool_iterations = 1\n")
    try:
        assert asyncio.run(agent.run("first")).stop_reason == "max_iterations"
        assert asyncio.run(agent.run("x")).stop_reason == "model_error"
        assert asyncio.run(agent.run("a much longer prompt " * 200)).stop_reason == "completed"
    finally:
        agent.store.close()
    assert len(check.seen) == 3
    assert [mine for mine, _ in check.seen] == [scratch for _, scratch in check.seen]


def test_compaction_in_the_loop_keeps_the_estimate_equal_to_a_recount(tmp_path: Path) -> None:
    # Real compaction (a scripted helper model summarises): the list is replaced, its first message a summary.
    prompt = "please look at this file again " * 100  # about 1,100 tokens: three runs' prompts pass the budget
    probe = Checked()
    agent = probe.agent_for(tmp_path / "probe", [probe.turn("done")])
    try:
        asyncio.run(agent.run(prompt))
    finally:
        agent.store.close()
    one_run = probe.seen[0][1]  # the fixed part (system, tools, reply room) and one prompt
    check = Checked(budget=round((one_run + 1.5 * tokens_for_chars(len(prompt))) / BUDGET_SHARE))
    runs = 6
    agent = check.agent_for(tmp_path / "run", [check.turn(TIME_CALL), check.turn("done")] * runs * 2)
    helper = ScriptedProvider(["The user asked to look at a file; the time was read."] * runs)
    agent.assist.compressor = helper
    try:
        for i in range(runs):
            result = asyncio.run(agent.run(f"{i}: {prompt}"))
            assert result.stop_reason == "completed", result.detail
    finally:
        agent.store.close()
    assert len(helper.requests) >= 2  # compacted more than once, each time a new list
    assert agent.messages[0].text.startswith(SUMMARY_HEAD)
    assert len(check.seen) == 2 * runs  # a request over the budget is compacted before it is sent
    assert [mine for mine, _ in check.seen] == [scratch for _, scratch in check.seen]
