"""The values that travel through the gate chain: a call in flight, and the outcome the agent gets back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from zeph_nb.errors import ToolErrorCategory
from zeph_nb.tools.base import ToolArgs, ToolCall, ToolDef, ToolOutput

if TYPE_CHECKING:
    from zeph_nb.gates.policy import PolicyDecision, Subjects
    from zeph_nb.output.pipeline import ProcessedOutput
    from zeph_nb.security.shell_classifier import ShellAnalysis
    from zeph_nb.tools.containment import CommandScope

__all__ = ["CallOutcome", "GateCall", "Handler"]


@dataclass
class GateCall:
    """One call on its way through the gates; each gate fills in what it learned."""

    call: ToolCall
    tool: ToolDef | None = None
    args: ToolArgs | None = None
    analysis: ShellAnalysis | None = None
    opened: tuple[str, ...] = ()  # folders outside the allowed paths this call may write, once cleared
    subjects: Subjects | None = None
    scope: CommandScope | None = None  # commands: what the call gets (sandbox, network, environment)
    decision: PolicyDecision | None = None
    approved_by: str | None = None
    waited_ms: float = 0.0  # time spent waiting for a person's answer (not part of duration_ms)
    blocked_by: str | None = None  # the gate that refused it: quota, blocklist, policy, approval
    cached: bool = False
    attempts: int = 0  # times the tool actually ran
    processed: ProcessedOutput | None = None
    outcome: CallOutcome | None = None


class Handler(Protocol):
    """A gate, or the executor at the end of the chain."""

    async def handle(self, gc: GateCall) -> ToolOutput: ...


@dataclass(frozen=True)
class CallOutcome:
    """What happened to one call, for the agent loop, the front-end and ``RunResult.tool_calls``.

    ``text`` is what the model reads (filtered, redacted, cut with an overflow id); ``output`` is the tool's own
    result with the raw envelope. ``status`` is ok, error, denied or cancelled.
    """

    call: ToolCall
    output: ToolOutput
    text: str
    status: str
    decision: str | None
    matched_rule: str | None
    reason: str | None
    approved_by: str | None
    category: ToolErrorCategory | None
    exit_code: int | None
    duration_ms: float  # checks and execution; the wait for an approval is waited_ms
    raw_chars: int
    model_chars: int
    overflow_id: str | None = None
    filter_stats: tuple[str, ...] = ()
    tokens_saved: int = 0
    cached: bool = False
    attempts: int = 0
    blocked_by: str | None = None
    waited_ms: float = 0.0

    @property
    def tool(self) -> str:
        return self.call.tool_id

    @property
    def is_error(self) -> bool:
        return self.category is not None
