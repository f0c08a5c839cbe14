"""The declarative policy's gate (``[tools.policy]``): after the blocklist, before the permission and
authorization rules, so a policy deny is final — no rule, grant, trust level or person can let the call through.

The model reads only that the policy refused the call; which rule did goes to the audit row (the reference agent
keeps its rule trace from the model too, so a rule set cannot be probed call by call).
"""

from __future__ import annotations

from zeph_nb.errors import ToolErrorCategory
from zeph_nb.gates.call import GateCall, Handler
from zeph_nb.gates.policy.declarative import DeclarativePolicy, call_paths
from zeph_nb.gates.policy.rules import PolicyDecision
from zeph_nb.gates.wrappers import refuse
from zeph_nb.tools.base import ToolOutput

__all__ = ["PolicyEnforcerGate"]


class PolicyEnforcerGate:
    """Refuses what ``policy`` denies; passes everything on when the policy is off."""

    def __init__(self, inner: Handler, policy: DeclarativePolicy) -> None:
        self.inner, self.policy = inner, policy

    async def handle(self, gc: GateCall) -> ToolOutput:
        ctx = gc.ctx
        if not self.policy.enabled or ctx is None:
            return await self.inner.handle(gc)
        written = [use.word for use in ctx.analysis.paths] if ctx.analysis is not None else []
        paths = call_paths(ctx.tool.subject_kind, ctx.subjects.values, written, self.policy.workdir)
        verdict = self.policy.decide(ctx.tool.name, paths, ctx.subjects.arguments)
        if verdict.effect == "deny":
            decision = PolicyDecision("deny", "tools.policy", verdict.trace)
            message = ("the tool policy ([tools.policy]) does not allow this call; it did not run. Do not retry it; "
                       "choose another way or ask the user.")  # fmt: skip
            raise refuse(gc.trace, "tools.policy", decision, ToolErrorCategory.POLICY_BLOCKED, message)
        return await self.inner.handle(gc)
