"""The conversation as the loop keeps it, independent of any provider's wire format.

Content blocks follow the shape native tool-use APIs share: text, a tool use (id, name, input) in an assistant
message, and a tool result (the id it answers, the text, whether it is an error) in the next user message.
Providers translate these to and from their own formats.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal, Protocol

from zeph_nb.agent.result import Usage  # the reply carries its tokens; RunResult sums them
from zeph_nb.tools.base import ToolDef

__all__ = [
    "Block",
    "Message",
    "ModelRequest",
    "ModelResponse",
    "Provider",
    "RunningSize",
    "TextBlock",
    "TextSink",
    "ToolResultBlock",
    "ToolUseBlock",
    "Usage",
]


@dataclass(frozen=True)
class TextBlock:
    text: str
    type: Literal["text"] = "text"

    @cached_property
    def chars(self) -> int:
        """How many characters the block weighs in a request's size estimate (see ``Message.chars``)."""
        return len(self.text)


@dataclass(frozen=True)
class ToolUseBlock:
    id: str
    name: str
    input: Any  # normally a dict; a model may send something malformed, which validation then reports
    type: Literal["tool_use"] = "tool_use"

    @cached_property
    def chars(self) -> int:
        return len(self.name) + len(json.dumps(self.input, default=str))


@dataclass(frozen=True)
class ToolResultBlock:
    tool_use_id: str
    content: str
    is_error: bool = False
    type: Literal["tool_result"] = "tool_result"

    @cached_property
    def chars(self) -> int:
        return len(self.content)


Block = TextBlock | ToolUseBlock | ToolResultBlock


@dataclass
class Message:
    role: Literal["user", "assistant"]
    content: list[Block]

    @property
    def text(self) -> str:
        return "".join(block.text for block in self.content if isinstance(block, TextBlock))

    @property
    def chars(self) -> int:
        """The characters of every block; blocks are frozen and count themselves once."""
        return sum(block.chars for block in self.content)

    @property
    def tool_uses(self) -> list[ToolUseBlock]:
        return [block for block in self.content if isinstance(block, ToolUseBlock)]


class RunningSize:
    """The characters of a message list that grows at its end, counted once per message: a running total.

    Sizing every request from scratch re-read the whole conversation each round, which made a 1,000-call run
    quadratic (10 ms a call at the end instead of 1.3). ``chars`` adds only the messages appended since its last
    call. It starts over when the list is not the one it counted plus more: shorter, another message where its
    first or last counted one was (compaction swaps the first for a summary, maybe keeping the length), or the
    last one's blocks changed in number (a prompt joining a turn, ``settle`` taking one back). That covers every
    way the agent edits its conversation; code that rewrites a message in the middle in place is not seen.
    """

    def __init__(self) -> None:
        self._counted = 0  # how many leading messages ``_total`` holds
        self._total = 0
        self._first: Message | None = None
        self._last: Message | None = None
        self._last_blocks = 0

    def chars(self, messages: Sequence[Message]) -> int:
        n = self._counted
        if n and (
            len(messages) < n
            or messages[0] is not self._first
            or messages[n - 1] is not self._last
            or len(messages[n - 1].content) != self._last_blocks
        ):
            n, self._total = 0, 0
        for message in messages[n:]:
            self._total += message.chars
        self._counted = len(messages)
        self._first, self._last = (messages[0], messages[-1]) if messages else (None, None)
        self._last_blocks = len(messages[-1].content) if messages else 0
        return self._total


@dataclass(frozen=True)
class ModelRequest:
    system: str
    messages: Sequence[Message]
    tools: Sequence[ToolDef]
    tool_schemas: Sequence[dict[str, Any]] = ()  # name, description, input_schema (TAFC-augmented)
    max_tokens: int = 4096


@dataclass
class ModelResponse:
    content: list[Block]
    stop_reason: str | None = None  # the provider's own: end_turn, tool_use, max_tokens, …
    usage: Usage = field(default_factory=Usage)
    model: str | None = None


# Receives the reply's text as it streams in.
TextSink = Callable[[str], Awaitable[None]]


class Provider(Protocol):
    """A model. ``complete`` sends one request and returns the whole reply, streaming its text to ``on_text``.

    Failures are raised as ``ModelError`` (retryable or not, by category) or ``ConfigError`` (bad credentials).
    """

    name: str

    async def complete(self, request: ModelRequest, on_text: TextSink) -> ModelResponse: ...
