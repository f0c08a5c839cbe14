"""Events of a run, for any front-end: the notebook transcript, a terminal, a log. The loop knows no notebooks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from zeph_nb.agent.result import RunResult, StopReason
from zeph_nb.gates.call import CallOutcome
from zeph_nb.gates.events import ApprovalAnswered, ApprovalRequested, ToolCallStarted

__all__ = [
    "AgentEvent",
    "ApprovalAnswered",
    "ApprovalRequested",
    "IterationStarted",
    "Retrying",
    "StopReason",
    "Stopped",
    "StreamAbandoned",
    "TextDelta",
    "ToolCallFinished",
    "ToolCallStarted",
    "ToolsOffered",
]


@dataclass(frozen=True)
class TextDelta:
    text: str
    kind: Literal["text_delta"] = "text_delta"


@dataclass(frozen=True)
class IterationStarted:
    iteration: int  # 1-based: the request that starts it may lead to a round of tool calls
    kind: Literal["iteration_started"] = "iteration_started"


@dataclass(frozen=True)
class Retrying:
    """The model request failed in a way that may pass (overloaded, rate limited, a stalled stream) and is tried
    again in ``seconds``; sent once a second while waiting, so a front-end can count down."""

    seconds: int
    reason: str  # "overloaded", "rate limited", "no reply for 60 s", …
    attempt: int  # the try that comes next, 2-based
    kind: Literal["retrying"] = "retrying"


@dataclass(frozen=True)
class StreamAbandoned:
    """A try had streamed ``text`` when it failed (``reason``: "no reply for 60 s", "overloaded") and is tried
    again: that text is no part of the answer, which the next try streams from its start. Sent once, before the
    countdown's first ``Retrying``."""

    text: str
    reason: str
    kind: Literal["stream_abandoned"] = "stream_abandoned"


@dataclass(frozen=True)
class ToolCallFinished:
    outcome: CallOutcome  # status, decision, category, filter stats, sizes, duration
    kind: Literal["tool_call_finished"] = "tool_call_finished"

    @property
    def tool_kind(self) -> str:
        """shell, file, web, mcp, kernel or native (``gates.events.tool_kind``)."""
        return self.outcome.tool_kind


@dataclass(frozen=True)
class ToolsOffered:
    """``[agent.tool_filter]`` chose the next request's tools (sent only while the filter is on)."""

    offered: tuple[str, ...]
    total: int  # how many it chose from
    note: str | None = None  # why every tool is offered after all (the prompt could not be embedded)
    kind: Literal["tools_offered"] = "tools_offered"


@dataclass(frozen=True)
class Stopped:
    reason: StopReason
    result: RunResult
    kind: Literal["stopped"] = "stopped"


AgentEvent = (
    TextDelta
    | IterationStarted
    | Retrying
    | StreamAbandoned
    | ToolCallStarted
    | ApprovalRequested
    | ApprovalAnswered
    | ToolCallFinished
    | ToolsOffered
    | Stopped
)
