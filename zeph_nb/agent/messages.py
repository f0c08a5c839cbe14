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
    "RunningToolNames",
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


class _RunningTally:
    """Work over a message list that grows at its end, done once per message as it is first seen.

    Doing it over the whole conversation every request made a 1,000-call run quadratic (10 ms a call at the end
    instead of 1.3). Each call takes in only the messages appended since the last one. It starts over when the
    list is not the one it saw plus more: shorter, another message where its first or last seen one was
    (compaction swaps the first for a summary, maybe keeping the length), or the last one's blocks not the ones
    it saw (a prompt joining a turn; ``settle`` taking one back, then another prompt joining in its place: as
    many blocks, another text). That covers every way the agent edits its conversation; code that rewrites a
    message in the middle in place is not seen.
    """

    def __init__(self) -> None:
        self._seen = 0  # how many leading messages are taken in
        self._first: Message | None = None
        self._last: Message | None = None
        self._last_blocks: list[Block] = []  # held, not their ids: a freed block's id can come back

    def _catch_up(self, messages: Sequence[Message]) -> None:
        n = self._seen
        if n and (
            len(messages) < n
            or messages[0] is not self._first
            or messages[n - 1] is not self._last
            or not _same_blocks(messages[n - 1].content, self._last_blocks)
        ):
            n = 0
            self._start_over()
        for message in messages[n:]:
            self._take(message)
        self._seen = len(messages)
        self._first, self._last = (messages[0], messages[-1]) if messages else (None, None)
        self._last_blocks = list(messages[-1].content) if messages else []

    def _start_over(self) -> None:
        raise NotImplementedError

    def _take(self, message: Message) -> None:
        raise NotImplementedError


def _same_blocks(blocks: Sequence[Block], seen: Sequence[Block]) -> bool:
    return len(blocks) == len(seen) and all(a is b for a, b in zip(blocks, seen, strict=True))


class RunningSize(_RunningTally):
    """The characters of a message list (``Message.chars``), as a running total: each message measured once."""

    def __init__(self) -> None:
        super().__init__()
        self._total = 0

    def chars(self, messages: Sequence[Message]) -> int:
        self._catch_up(messages)
        return self._total

    def _start_over(self) -> None:
        self._total = 0

    def _take(self, message: Message) -> None:
        self._total += message.chars


class RunningToolNames(_RunningTally):
    """The names of the tools a message list has called (``requests.used_tools``), each message read once: the
    tool filter asks every request, and reading the whole conversation each time grew with its length."""

    def __init__(self) -> None:
        super().__init__()
        self._names: set[str] = set()

    def names(self, messages: Sequence[Message]) -> set[str]:
        self._catch_up(messages)
        return set(self._names)  # a copy: the caller may keep or change it

    def _start_over(self) -> None:
        self._names = set()

    def _take(self, message: Message) -> None:
        self._names.update(block.name for block in message.content if isinstance(block, ToolUseBlock))


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
