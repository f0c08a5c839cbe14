"""The declarative policy's gate (``[gates.policy]``): after the blocklist, before the permission and
authorization rules, so a policy deny is final — no rule, grant, trust level or person can let the call through.

The model reads only that the policy refused the call; which rule did goes to the audit row (the reference agent
keeps its rule trace from the model too, so a rule set cannot be probed call by call).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence

from zeph_nb.errors import ToolErrorCategory
from zeph_nb.gates.call import GateCall, Handler
from zeph_nb.gates.policy.declarative import CompiledRule, DeclarativePolicy, call_paths
from zeph_nb.gates.policy.rules import PolicyDecision
from zeph_nb.gates.wrappers import refuse
from zeph_nb.tools.base import ToolOutput

__all__ = ["PolicyEnforcerGate"]

# A tool that acts on everything under a folder (``ToolDef.walks``) touches a path a deny rule names inside it,
# though the call names only the folder (delete_path of data/ removes data/keep/, which a rule may protect). One
# that only reads is refused only for rules that do not deny read as well: those join the file tools' deny_read,
# which hides what they name from the walk while the rest of the folder is searched as asked.
MAX_WALKED = 20_000  # entries checked under a folder; a larger tree is refused rather than half checked


def denied_inside(rules: Sequence[CompiledRule], folders: Sequence[str]) -> str | None:
    """The trace of one of ``rules`` matching something under one of ``folders`` (links are not followed: the
    tools act on a link, not its target), or None. Touches the disk, so it runs in a thread."""
    seen = 0
    for folder in folders:
        if not os.path.isdir(folder) or os.path.islink(folder):
            continue
        for top, dirs, files in os.walk(folder):
            for name in (*dirs, *files):
                seen += 1
                if seen > MAX_WALKED:
                    return f"over {MAX_WALKED} entries under {folder} to check against gates.policy's deny rules"
                if (trace := DeclarativePolicy.denies(rules, os.path.join(top, name))) is not None:
                    return trace
    return None


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
        verdict = self.policy.decide(ctx.tool, paths, ctx.subjects.arguments)
        trace = verdict.trace if verdict.effect == "deny" else None
        tree = bool(ctx.tool.walks)
        rules = self.policy.path_denials(ctx.tool, besides_read=ctx.tool.walks == "reads") if tree else []
        if trace is None and rules:
            # A destination must not exist yet (copy_path, move_path): only the other paths can hold anything.
            named = zip(ctx.tool.subject, paths, strict=False)
            folders = [path for name, path in named if name != "destination"] if len(paths) > 1 else paths
            trace = await asyncio.to_thread(denied_inside, rules, folders)
        if trace is not None:
            decision = PolicyDecision("deny", "gates.policy", trace)
            message = ("the tool policy ([gates.policy]) does not allow this call; it did not run. Do not retry it; "
                       "choose another way or ask the user.")  # fmt: skip
            raise refuse(gc.trace, "gates.policy", decision, ToolErrorCategory.POLICY_BLOCKED, message)
        return await self.inner.handle(gc)
