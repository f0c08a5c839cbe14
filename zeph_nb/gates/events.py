"""What the gates tell a front-end while a call is in flight (the agent adds its own events around these)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from zeph_nb.gates.approval import ApprovalDecision, ApprovalRequest
from zeph_nb.gates.policy import PolicyDecision
from zeph_nb.tools.base import ToolCall

__all__ = ["ApprovalAnswered", "ApprovalRequested", "GateEvent", "ToolCallStarted"]


@dataclass(frozen=True)
class ToolCallStarted:
    """The call passed every gate and is about to run (``approved_by`` is set when a person said yes)."""

    call: ToolCall
    decision: PolicyDecision
    approved_by: str | None = None
    kind: Literal["tool_call_started"] = "tool_call_started"


@dataclass(frozen=True)
class ApprovalRequested:
    request: ApprovalRequest
    kind: Literal["approval_requested"] = "approval_requested"


@dataclass(frozen=True)
class ApprovalAnswered:
    request: ApprovalRequest
    decision: ApprovalDecision
    kind: Literal["approval_answered"] = "approval_answered"


GateEvent = ToolCallStarted | ApprovalRequested | ApprovalAnswered
