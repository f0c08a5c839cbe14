"""The request-size estimate kept as a running total: the same number as counting the whole text, each round.

Sizing the whole conversation from scratch every round made a 1,000-call run quadratic (bench/longrun_bench.py);
these tests hold the running total to the from-scratch count through every way the conversation changes.
"""

from __future__ import annotations

import json
import random

from zeph_nb.agent.compaction import SUMMARY_HEAD
from zeph_nb.agent.conversation import FAILED, Conversation, estimate_request
from zeph_nb.agent.messages import Block, Message, ModelRequest, RunningSize, TextBlock, ToolResultBlock, ToolUseBlock
from zeph_nb.output.sanitize import estimate_tokens


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
    return ModelRequest("You are a careful agent.", list(conversation.messages), [], schemas, 1024)  # type: ignore[arg-type]


def random_blocks(rng: random.Random, role: str) -> list[Block]:
    if role == "assistant":
        blocks: list[Block] = [TextBlock("é" * rng.randrange(0, 50))]
        blocks += [ToolUseBlock(f"t{rng.random()}", "bash", {"command": "x" * rng.randrange(90)}) for _ in range(2)]
        return blocks
    return [ToolResultBlock(f"t{rng.random()}", "out " * rng.randrange(200), rng.random() < 0.1)]


def test_the_running_total_equals_a_recount_through_every_kind_of_change() -> None:
    rng = random.Random(45)
    conversation = Conversation()
    kinds = ["prompt", "round", "round", "round", "settle", "stop", "compact", "clear", "drop_tail"]
    seen = set()
    for _ in range(1500):
        kind = rng.choice(kinds)
        seen.add(kind)
        messages = conversation.messages
        if kind == "prompt":  # joins the last turn's tool results, or starts a turn
            mark = conversation.add_prompt("please " * rng.randrange(20))
            if rng.random() < 0.3:
                conversation.settle(mark, rng.choice(sorted(FAILED)))
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
        request = request_of(conversation)
        assert estimate_request(request, conversation.sizes) == from_scratch(request), kind
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
