"""One conversation's permissions: the rules, the Always-allow grants, the trust level and its anomaly blocks, the
tool dependencies, and the hosts a person let the web tools reach. What the policy gate asks (``decide_call``) and
what the model is shown (``visible_names``) are read here; what a finished call teaches (``observe``) is kept here.

The policy gate holds this and nothing else of the conversation; the approval gate holds only the grants and the
approved hosts (``gates/wrappers.py``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

from zeph_nb.config import Settings
from zeph_nb.gates.call import Prepared
from zeph_nb.gates.policy.containment import (
    computed_command_under_managed_deny,
    confirm_every_command,
    contain_command,
    contain_kernel,
    contain_paths,
    contain_remote,
    contain_search,
    contain_web,
    kernel_under_managed_sandbox,
)
from zeph_nb.gates.policy.declarative import DeclarativePolicy
from zeph_nb.gates.policy.dependencies import DependencyGraph
from zeph_nb.gates.policy.grants import PermissionGrants
from zeph_nb.gates.policy.rules import PermissionPolicy, PolicyDecision
from zeph_nb.gates.policy.trust import AnomalyDetector, TrustState, default_decision
from zeph_nb.store.store import Store
from zeph_nb.tools.base import ToolDef
from zeph_nb.tools.containment import protected_paths

__all__ = ["Permissions"]


def remote_target(settings: Settings) -> str | None:
    """Where commands run when it is not this machine (``ssh alice@gpu``, ``container web``), else None."""
    execution = settings.tools.execution
    if execution.backend == "ssh":
        return f"ssh {execution.ssh}"
    if execution.backend == "container":
        return f"container {execution.container}"
    return None


class Permissions:
    """The permission state of one conversation over the tools named ``tools`` (in the order the model sees them)."""

    def __init__(self, settings: Settings, tools: Sequence[str], *, workdir: Path, store: Store | None) -> None:
        config = settings.gates
        self.settings = settings
        self.tools = tuple(tools)
        self.defs: dict[str, ToolDef] = {}  # the tools' definitions, when known: rules by capability need them
        self.workdir = workdir
        self.policy = PermissionPolicy(settings, workdir=workdir)
        self.declarative = DeclarativePolicy(settings.gates.policy, workdir)  # its gate runs before the rules
        self.protected = protected_paths(settings, workdir)
        self.grants = PermissionGrants(store)
        self.trust = TrustState(config.trust.level)
        self.anomaly = AnomalyDetector(config.anomaly, self.trust)
        deps = config.dependencies
        self.dependencies = (
            DependencyGraph(
                deps.rules,
                always_on=deps.always_on,
                boost_per_dep=deps.boost_per_dep,
                max_total_boost=deps.max_total_boost,
            )
            if deps.enabled
            else None
        )
        self.completed: set[str] = set()
        # Hosts a person let the web tools reach in this conversation (one approval per host, not per URL).
        self.approved_hosts: set[str] = set()

    # -- what the model may see --------------------------------------------------------------------------

    def hidden_reason(self, tool: str) -> tuple[str, str] | None:
        """(rule, reason) when ``tool`` is hidden and refused right now, else None."""
        if tool in self.trust.blocked:
            return "trust", self.trust.blocked[tool]
        known = self.defs.get(tool, tool)
        if self.declarative.refuses_always(known):
            return "gates.policy", "the tool policy ([gates.policy]) refuses every call of it"
        if self.policy.hides(known):
            rule = next(r for r in self.policy.rules_for(known) if r.is_blanket)
            return rule.describe(), f"denied by {rule.describe()}"
        if self.dependencies is not None:
            unmet = self.dependencies.unmet(tool, self.completed)
            if unmet:
                _, lifted = self.dependencies.visible(self._unblocked(), self.completed)
                if not lifted:
                    return "gates.dependencies", f"requires {', '.join(unmet)} to have completed first"
        return None

    def visible_names(self) -> list[str]:
        names = self._unblocked()
        if self.dependencies is not None:
            names, _ = self.dependencies.visible(names, self.completed)
        return names

    def _unblocked(self) -> list[str]:
        return [t for t in self.tools if t not in self.trust.blocked and not self.policy.hides(self.defs.get(t, t))
                and not self.declarative.refuses_always(self.defs.get(t, t))]  # fmt: skip

    # -- deciding ----------------------------------------------------------------------------------------

    def decide(self, ctx: Prepared, *, wants_confirmation: bool) -> PolicyDecision:
        """What the rules say (with grants and the trust level's default) for the call ``ctx`` describes."""
        analysis = ctx.analysis
        default = default_decision(ctx.tool, self.trust.level, wants_confirmation=wants_confirmation,
                                   analysis=analysis)  # fmt: skip
        return self.policy.decide(
            ctx.tool,
            ctx.subjects,
            default=default,
            grants=() if ctx.tool.in_kernel else self.grants.rules,
            trust=self.trust.level,
            riders=analysis.riders if analysis is not None else None,
            line_riders=analysis.line_riders if analysis is not None else (),
        )

    def decide_call(self, ctx: Prepared, *, wants_confirmation: bool) -> PolicyDecision:
        """The rules' decision (``decide``), then what containment adds for what the call would get: a command's
        network, environment and outside paths (its prepared scope), a file tool's protected paths, a web tool's
        new host."""
        decision = self.decide(ctx, wants_confirmation=wants_confirmation)
        tool, subjects = ctx.tool, ctx.subjects
        if ctx.scope is not None:
            decision = contain_command(decision, ctx.scope, ctx.analysis, self.grants.rules)
            if self.settings.gates.approval.shell_confirm:
                decision = confirm_every_command(decision)
            denying = self._managed_denies(tool.name)
            if denying is not None and ctx.analysis is not None:
                decision = computed_command_under_managed_deny(decision, ctx.analysis, denying)
        elif tool.subject_kind == "path":
            decision = contain_paths(decision, tool, subjects.values, self.protected)
        elif tool.subject_kind == "url" and tool.network:
            decision = contain_web(decision, tool, subjects.values, self.settings, self.approved_hosts,
                                   self.grants.rules)  # fmt: skip
        elif tool.network:  # text sent to the one endpoint the configuration names (web_search's query)
            decision = contain_search(decision, " ".join(subjects.values))
        if tool.in_kernel:
            decision = contain_kernel(decision)
            managed = self.settings.managed
            if managed is not None and managed.values.get("tools.shell.sandbox") == "bwrap":
                decision = kernel_under_managed_sandbox(decision, managed.says("tools.shell.sandbox"))
        where = remote_target(self.settings)
        if where is not None and tool.mutates and tool.remote:
            decision = contain_remote(decision, where)
            managed = self.settings.managed
            if managed is not None and managed.values.get("tools.shell.sandbox") == "bwrap":
                # The organisation requires the OS sandbox for every command; another machine is outside it, so
                # no rule, grant or approver may run one there (pinning the backend key too is not needed).
                decision = dataclasses.replace(
                    decision,
                    action="deny",
                    by_rule=True,
                    grantable=False,
                    managed=managed.says("tools.shell.sandbox"),
                    reason=f"{managed.says('tools.shell.sandbox')}: nothing runs outside it, and {where} is",
                )
        return decision

    def _managed_denies(self, tool: str) -> str | None:
        """The managed rule list that denies commands of ``tool`` (a line naming it), or None when it denies none."""
        managed = self.settings.managed
        if managed is None:
            return None
        from wcmatch import fnmatch

        permissions = managed.values.get("gates.permissions") or {}
        for name, rules in permissions.items():
            if fnmatch.fnmatch(tool, name) and any(rule.get("action") == "deny" for rule in rules or ()):
                return f"the deny rules of gates.permissions.{name} (managed by {managed.path})"
        for rule in managed.values.get("gates.policy.rules") or ():
            names = ("bash", "shell") if tool == "bash" else (tool,)
            if rule.get("effect") == "deny" and any(fnmatch.fnmatch(n, rule.get("tool", "*")) for n in names):
                return f"the deny rules of gates.policy.rules (managed by {managed.path})"
        return None

    # -- after a call ------------------------------------------------------------------------------------

    def observe(self, tool: str, *, failed: bool) -> None:
        """A call of ``tool`` ran and ``failed`` or not: the anomaly detector counts it, a success meets
        the dependencies of the tools that wait on it."""
        self.anomaly.record(tool, failed)
        if not failed:
            self.completed.add(tool)

    def reset(self) -> None:
        """A new conversation: nothing completed, no host approved, no anomaly window or block (grants stay)."""
        self.completed.clear()
        self.approved_hosts.clear()
        self.anomaly.reset()
        self.trust.blocked.clear()
