"""The conversation an agent keeps across runs: the messages sent to the model, kept well-formed whatever happens.

Roles alternate (a prompt after tool results joins that user turn); a Stop mid-tool gives every open tool use a
result; a run that failed before the model answered takes its prompt back out, and one that failed after an
answer closes its turn (``settle``), so the next request never carries a stale request along.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from zeph_nb.agent import tafc
from zeph_nb.agent.messages import (
    Block,
    Message,
    ModelRequest,
    RunningSize,
    RunningToolNames,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from zeph_nb.output.sanitize import tokens_for_chars

__all__ = ["Conversation", "Mark", "estimate_request", "fingerprint", "without_thinking"]

# Stop reasons of a run that failed (rather than paused to be continued): see Conversation.settle.
FAILED = frozenset({"model_error", "cancelled", "context_budget", "error"})


@dataclass(frozen=True)
class Mark:
    """Where the conversation stood before a prompt was added: its length, and (when the prompt joined the last
    user turn) how many blocks that turn had."""

    messages: int
    blocks: int | None


@dataclass
class Conversation:
    messages: list[Message] = field(default_factory=list)
    # The request size, kept as a running total across rounds (see RunningSize).
    sizes: RunningSize = field(default_factory=RunningSize, repr=False, compare=False)
    # The tools it has called, kept the same way (the tool filter asks every round).
    tools_used: RunningToolNames = field(default_factory=RunningToolNames, repr=False, compare=False)

    def used_tools(self) -> set[str]:
        """The tools the conversation has called (``requests.used_tools``), each message read once."""
        return self.tools_used.names(self.messages)

    def add_prompt(self, prompt: str) -> Mark:
        last = self.messages[-1] if self.messages else None
        if last is not None and last.role == "user":
            # The previous run stopped right after tool results: one user turn holds both, keeping roles alternate.
            mark = Mark(len(self.messages), len(last.content))
            last.content.append(TextBlock(prompt))
        else:
            mark = Mark(len(self.messages), None)
            self.messages.append(Message("user", [TextBlock(prompt)]))
        return mark

    def settle(self, before: Mark, stop_reason: str, detail: str = "") -> None:
        """Keep the conversation well-formed after a run that failed, so the next request does not carry it along.

        No answer from the model at all (a model error, a refused key, Stop or the context budget before it
        replied): the prompt is taken back out, as if never sent. An answer, then a failure: the turn is closed
        with a note in the assistant's place, so the next prompt starts a turn of its own instead of being merged
        into the old one (and read as more of the same request). Runs that stop to be continued (max_iterations,
        quota, doom_loop, max_tokens) are left as they are: "run again to continue" means exactly that.
        """
        if stop_reason not in FAILED:
            return
        answered = any(m.role == "assistant" for m in self.messages[before.messages :])
        if not answered:
            del self.messages[before.messages :]
            if before.blocks is not None:  # the prompt had joined the previous turn's tool results
                del self.messages[-1].content[before.blocks :]
            return
        if self.messages and self.messages[-1].role == "user":
            reason = f"{stop_reason}: {detail}" if detail else stop_reason
            self.messages.append(
                Message("assistant", [TextBlock(f"[this run ended before it was finished ({reason})]")])
            )

    def forget_replies(self, reply: str) -> int:
        """Take out every exchange answered with exactly ``reply`` (the offline model's "No model is configured…"):
        the answer and the prompt before it, which joined a turn of tool results or made one of its own. Turns left
        side by side by a removal are joined, so roles still alternate. Returns how many exchanges went."""
        if not any(m.role == "assistant" and m.text == reply for m in self.messages):
            return 0
        kept: list[Message] = []
        gone = 0
        for message in self.messages:
            offline = message.role == "assistant" and message.text == reply
            if offline and kept and kept[-1].role == "user" and all(isinstance(b, TextBlock) for b in message.content):
                blocks = list(kept.pop().content)
                while blocks and isinstance(blocks[-1], TextBlock):  # the prompt, after any tool results it joined
                    blocks.pop()
                if blocks:
                    kept.append(Message("user", blocks))
                gone += 1
            elif kept and kept[-1].role == message.role:
                kept[-1] = Message(message.role, [*kept[-1].content, *message.content])
            else:
                kept.append(message)
        self.messages[:] = kept
        # A message in the middle changed: the running tallies start over rather than trust what they saw.
        self.sizes = RunningSize()
        self.tools_used = RunningToolNames()
        return gone

    def close_open_calls(self) -> None:
        """After a Stop mid-tool: every tool use the model made gets a result, so the conversation stays valid."""
        if not self.messages or self.messages[-1].role != "assistant":
            return
        uses = self.messages[-1].tool_uses
        if uses:
            cancelled: list[Block] = [
                ToolResultBlock(use.id, "[tool_error]\ncategory: cancelled\nerror: the user stopped the run", True)
                for use in uses
            ]
            self.messages.append(Message("user", cancelled))


def estimate_request(request: ModelRequest, sizes: RunningSize | None = None) -> int:
    """About how many tokens ``request`` costs, its reply's room included (chars/4 under-counts; see sanitize).

    The same count as ``estimate_tokens`` of the whole request's text, from the blocks' lengths rather than by
    building that text; ``sizes``, kept from round to round, counts only the messages added since the last round.
    """
    chars = len(request.system) + len(json.dumps(list(request.tool_schemas)))
    chars += (sizes or RunningSize()).chars(request.messages)
    return tokens_for_chars(chars) + request.max_tokens


def without_thinking(block: Block) -> Block:
    """Tool uses as kept in the conversation: the TAFC think field is dropped, never stored or logged."""
    if isinstance(block, ToolUseBlock):
        params, _ = tafc.strip(block.input)
        return ToolUseBlock(block.id, block.name, params)
    return block


def fingerprint(results: Sequence[Block]) -> str:
    """One digest of a round's tool results: the same digest round after round is a doom loop."""
    parts = [f"{b.is_error}:{b.content}" for b in results if isinstance(b, ToolResultBlock)]
    return hashlib.sha256("\0".join(parts).encode("utf-8", "replace")).hexdigest()
