"""The values that travel through the gate chain: a call in flight, and the outcome the agent gets back."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from zeph_nb.errors import ToolErrorCategory
from zeph_nb.tools.base import ToolArgs, ToolCall, ToolDef, ToolOutput

if TYPE_CHECKING:
    from zeph_nb.gates.policy import PolicyDecision, Subjects
    from zeph_nb.output.pipeline import ProcessedOutput
    from zeph_nb.shell import ShellAnalysis
    from zeph_nb.tools.scope import CommandScope

__all__ = ["CallOutcome", "GateCall", "Handler", "Prepared", "RunsOnUse", "Trace", "rewritten"]


@dataclass(frozen=True)
class RunsOnUse:
    """A file a call created or changed that another tool runs when the person uses it: what runs it, and the
    change as a unified diff (agent-written text: escaped and redacted wherever it is shown)."""

    path: str
    why: str
    diff: str


@dataclass(frozen=True)
class Prepared:
    """A call once it is known to be well-formed, prepared once (``gates/prepare.py``) and never changed: the tool,
    the validated arguments, a command line parsed, what the call touches and, for a command, what it gets (its
    scope). Every gate reads it; the executor runs it as it is, without parsing or scoping it again."""

    call: ToolCall
    tool: ToolDef
    args: ToolArgs
    subjects: Subjects
    analysis: ShellAnalysis | None = None  # a command line's parse, for every gate (and never parsed again)
    scope: CommandScope | None = None  # a command's sandbox, network and environment (and never scoped again)


_WRITTEN_ONCE = ("decision", "verdict", "utility", "scope", "opened", "approved_by", "answered_via", "waited_ms",
                 "blocked_by", "cached", "processed")  # fmt: skip


@dataclass
class Trace:
    """What the gates learned about one call, for the recorder that turns it into the outcome and the audit row.

    Append-only: each fact is written once, by the gate that learned it (``note``), and a second write is a bug
    that raises; only ``attempts`` counts up, once per time the tool ran (``ran``).
    """

    decision: PolicyDecision | None = None
    verdict: str | None = None  # the adversarial policy check's: "policy check (m): DENY, why" (audit, card)
    utility: str | None = None  # the utility gate's warning: the call still runs (model, card, audit)
    scope: CommandScope | None = None  # commands: what the call gets (sandbox, network, environment)
    opened: tuple[str, ...] = ()  # folders outside the allowed paths this call may write, once cleared
    approved_by: str | None = None
    answered_via: str | None = None  # what answered an ask: person, reviewer, approver, timeout (audit claim_source)
    waited_ms: float = 0.0  # time spent waiting for a person's answer (not part of duration_ms)
    blocked_by: str | None = None  # the gate that refused it: quota, blocklist, policy, approval
    cached: bool = False
    processed: ProcessedOutput | None = None
    attempts: int = 0  # times the tool actually ran
    # Files the call created or changed that other tools run when the person uses them (security/runs_on_use.py)
    runs_on_use: tuple[RunsOnUse, ...] = ()
    # time.perf_counter() when the call passed each point the audit row's phases are cut at (recording.py): prepared,
    # decided, executing (first run), executed (last run), processed. A point a refused call never reached is absent.
    clock: dict[str, float] = field(default_factory=dict)

    def note(self, **facts: Any) -> None:
        for name, value in facts.items():
            if name not in _WRITTEN_ONCE:
                raise AttributeError(f"the gate trace has no fact {name!r}")
            if getattr(self, name) != getattr(_EMPTY, name):
                raise RuntimeError(f"the gate trace's {name} was written already; each fact is written once")
            setattr(self, name, value)

    def ran(self) -> None:
        self.attempts += 1

    def wrote(self, found: tuple[RunsOnUse, ...]) -> None:
        """Files another tool runs on use, written by this run of the tool (a retry adds its own)."""
        self.runs_on_use = (*self.runs_on_use, *found)


_EMPTY = Trace()


@dataclass
class GateCall:
    """One call on its way through the gates: the call as the model sent it, its context once built, the trace."""

    call: ToolCall
    tool: ToolDef | None = None  # the tool it names, once known (before its arguments are validated)
    ctx: Prepared | None = None
    trace: Trace = field(default_factory=Trace)
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
    # full: the filter understood the output; partial: cut by position or understood in part; fallback: not
    # understood (passed whole, or only repetition folded). None when no filter ran (not a shell call).
    filter_confidence: str | None = None
    tokens_saved: int = 0
    cached: bool = False
    attempts: int = 0
    blocked_by: str | None = None
    waited_ms: float = 0.0
    runs_on_use: tuple[RunsOnUse, ...] = ()  # files written that other tools run on use: told, never blocked
    tool_kind: str = ""  # events.tool_kind: shell, file, web, mcp, kernel, native; empty for an unknown tool

    @property
    def tool(self) -> str:
        return self.call.tool_id

    @property
    def is_error(self) -> bool:
        return self.category is not None

    @property
    def rollback(self) -> dict[str, Any] | None:
        """What a transactional command's failing exit put back ({restored, removed[, not_restored]}), if any."""
        raw = self.output.raw
        found = raw.get("rollback") if isinstance(raw, dict) else None
        return found if isinstance(found, dict) else None


def rewritten(call: ToolCall) -> str | None:
    """What the card and the audit row say of a call whose parameters a helper model wrote."""
    if call.rewritten_by is None:
        return None
    return f"parameters rewritten by the helper model {call.rewritten_by!r} after the model's own were refused"
