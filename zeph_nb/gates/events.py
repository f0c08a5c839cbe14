"""What the gates tell a front-end while a call is in flight (the agent adds its own events around these)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from zeph_nb.gates.approval import ApprovalDecision, ApprovalRequest
from zeph_nb.gates.policy import PolicyDecision
from zeph_nb.tools.base import ToolCall, ToolDef

__all__ = ["ApprovalAnswered", "ApprovalRequested", "GateEvent", "ToolCallStarted", "tool_kind"]

_WEB = frozenset({"fetch_enabled", "web_scrape_enabled", "web_search_enabled"})


def tool_kind(tool: ToolDef | None) -> str:
    """What kind of tool ``tool`` is, as the seed's events say it: shell (commands, panes), file, web, mcp (a
    server's), kernel, or native (the rest: diagnostics, time, functions, memory …); empty for an unknown tool."""
    if tool is None:
        return ""
    if tool.origin is not None:
        return "mcp"
    if tool.runs_commands or tool.enabled_by == "shell_enabled":
        return "shell"
    if tool.enabled_by == "file_enabled":
        return "file"
    if tool.enabled_by in _WEB:
        return "web"
    if tool.enabled_by == "kernel_enabled":
        return "kernel"
    return "native"


@dataclass(frozen=True)
class ToolCallStarted:
    """The call passed every gate and is about to run (``approved_by`` is set when a person said yes)."""

    call: ToolCall
    decision: PolicyDecision
    approved_by: str | None = None
    tool_kind: str = ""  # tool_kind(): shell, file, web, mcp, kernel or native (``kind`` is the event's)
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
