"""The conversation as the loop keeps it, independent of any provider's wire format.

Content blocks follow the shape native tool-use APIs share: text, a tool use (id, name, input) in an assistant
message, and a tool result (the id it answers, the text, whether it is an error) in the next user message.
Providers translate these to and from their own formats.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from zeph_nb.agent.result import Usage  # the reply carries its tokens; RunResult sums them
from zeph_nb.tools.base import ToolDef

__all__ = [
    "Block",
    "Message",
    "ModelRequest",
    "ModelResponse",
    "Provider",
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


@dataclass(frozen=True)
class ToolUseBlock:
    id: str
    name: str
    input: Any  # normally a dict; a model may send something malformed, which validation then reports
    type: Literal["tool_use"] = "tool_use"


@dataclass(frozen=True)
class ToolResultBlock:
    tool_use_id: str
    content: str
    is_error: bool = False
    type: Literal["tool_result"] = "tool_result"


Block = TextBlock | ToolUseBlock | ToolResultBlock


@dataclass
class Message:
    role: Literal["user", "assistant"]
    content: list[Block]

    @property
    def text(self) -> str:
        return "".join(block.text for block in self.content if isinstance(block, TextBlock))

    @property
    def tool_uses(self) -> list[ToolUseBlock]:
        return [block for block in self.content if isinstance(block, ToolUseBlock)]


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
