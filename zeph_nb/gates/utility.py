"""The utility gate (``[gates.utility]``, after the reference agent's utility-guided dispatch): a score for each
call before it runs. Under the threshold, the seed's way (``mode = "skip"``, the default), the call does not run:
the model reads why (policy_blocked: a gate refused it, not a failure) and what to do, before anyone is asked about
it. With ``mode = "warn"`` the call runs, and the warning goes to the model (with the result), the approval card,
the audit row's reason and the transcript. The threshold defaults to the seed's 0.0, so only a call whose cost and
repeat outweigh what it brings scores under it.

score = gain_weight * gain - cost_weight * cost - redundancy_weight * repeat + uncertainty_bonus * exploration

- gain: what the tool tends to bring, its ``utility`` trait (the reference's values: 0.75 for diagnostics and the
  file tools that change one thing, 0.65 for searches, 0.6 for bash, 0.55 for read and write, 0.5 for any other);
- cost: the share of ``[agent] context_budget_tokens`` the conversation already uses (the agent says it each
  round; 0 with no budget);
- repeat: 1 when the same tool was called with the same arguments earlier in the run, else 0;
- exploration: 1 at a run's first call, falling by a tenth per call, 0 from the tenth.

A run is what the reference calls a turn: one ``%%zeph`` cell, one request of the person.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from zeph_nb.config import Settings
from zeph_nb.errors import ToolErrorCategory
from zeph_nb.gates.call import GateCall, Handler
from zeph_nb.gates.policy import PolicyDecision
from zeph_nb.gates.wrappers import refuse
from zeph_nb.tools.base import ToolDef, ToolOutput

__all__ = ["UtilityGate", "UtilityScorer", "gain_of"]


def gain_of(tool: ToolDef) -> float:
    """What a successful call of ``tool`` is worth to the task (its ``utility`` trait)."""
    return tool.utility


@dataclass
class UtilityScorer:
    """The scores of one conversation's calls; ``new_run`` starts the count and the memory of calls again."""

    settings: Settings
    context_share: float = 0.0  # of the context budget, as the agent last measured it
    calls: int = 0
    seen: set[str] = field(default_factory=set)

    def new_run(self) -> None:
        self.calls = 0
        self.seen.clear()

    def warning(self, tool: ToolDef, arguments: object) -> str | None:
        """Score one call (and remember it); a warning when the score is under the threshold, else None."""
        config = self.settings.gates.utility
        if not config.enabled or tool.name in config.exempt_tools:
            return None
        key = tool.name + "\0" + json.dumps(arguments, sort_keys=True, default=str)
        repeat = 1.0 if key in self.seen else 0.0
        self.seen.add(key)
        exploration = max(0.0, 1.0 - self.calls / 10)
        self.calls += 1
        cost = min(1.0, max(0.0, self.context_share))
        gain = gain_of(tool)
        score = (config.gain_weight * gain - config.cost_weight * cost - config.redundancy_weight * repeat
                 + config.uncertainty_bonus * exploration)  # fmt: skip
        if score >= config.threshold:
            return None
        why = [f"gain {gain:.2f}"]
        if repeat:
            why.append("it repeats a call made earlier in this run with the same arguments")
        if cost:
            why.append(f"the conversation uses {cost:.0%} of the context budget")
        return f"utility {score:.2f} is under {config.threshold:g} ({'; '.join(why)})"


class UtilityGate:
    """Skips a low-utility call (``mode = "skip"``) or notes its warning in the trace and passes it on."""

    def __init__(self, inner: Handler, scorer: UtilityScorer) -> None:
        self.inner, self.scorer = inner, scorer

    async def handle(self, gc: GateCall) -> ToolOutput:
        if gc.ctx is not None:
            low = self.scorer.warning(gc.ctx.tool, gc.call.params)
            if low is not None and self.scorer.settings.gates.utility.mode == "skip":
                gc.trace.note(utility=low)  # the audit row's reason says it, whichever gate decided before
                message = (f"skipped: {low}, so the call did not run (gates.utility). Answer with what you have, or "
                           "call something that brings new information instead of repeating a call")  # fmt: skip
                raise refuse(gc.trace, "utility", PolicyDecision("deny", "gates.utility", low),
                             ToolErrorCategory.POLICY_BLOCKED, message)  # fmt: skip
            if low is not None:
                gc.trace.note(utility=f"{low}: consider answering with what you have")
        return await self.inner.handle(gc)
