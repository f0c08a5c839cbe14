"""The declarative policy (``[gates.policy]``, the reference agent's policy enforcer): allow/deny rules over a
call's tool name, paths and arguments, checked before the permission and authorization rules.

Deny wins: when any deny rule matches, the call is refused, whatever the order of the rules. Else an allow rule
that matches lets the call on to the other rules (which may still ask or refuse); else ``default_effect`` decides.
A deny rule with paths needs one of the call's paths to match; an allow rule with paths needs all of them (a copy
out of an allowed tree into a forbidden one is not allowed by its source alone). Tool names are compared
case-insensitively after trimming, and paths after lexical normalisation (``/tmp/../etc/passwd`` is ``/etc/passwd``),
without touching the disk; a rule's glob that passes through a link is also matched where the link leads (read once,
when the rules are compiled). Deciding is pure: values in, a ``PolicyVerdict`` out.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from wcmatch import glob

from zeph_nb.config.policy import PolicyRule, PolicySettings, anchored, names_tool
from zeph_nb.tools.base import ToolDef

__all__ = ["CompiledRule", "DeclarativePolicy", "PolicyVerdict", "call_paths"]

_PATH_FLAGS = glob.GLOBSTAR | glob.IGNORECASE | glob.DOTGLOB | glob.BRACE


@dataclass(frozen=True)
class PolicyVerdict:
    """``allow`` or ``deny``, and the trace of why (for the audit row, never for the model)."""

    effect: str
    trace: str


@dataclass(frozen=True)
class CompiledRule:
    """One rule with its path globs anchored and its regex compiled."""

    number: int
    rule: PolicyRule
    paths: tuple[str, ...]
    args_match: re.Pattern[str] | None

    def applies_to(self, tool: str | ToolDef) -> bool:
        if isinstance(tool, str):
            return names_tool(self.rule.tool, tool)
        return names_tool(self.rule.tool, tool.name, *tool.aliases)

    def matches(self, paths: Sequence[str], arguments: str) -> bool:
        if self.args_match is not None and not self.args_match.search(arguments):
            return False
        if not self.paths:
            return True
        hits = [any(glob.globmatch(path, pattern, flags=_PATH_FLAGS) for pattern in self.paths) for path in paths]
        return bool(hits) and (all(hits) if self.rule.effect == "allow" else any(hits))

    def describe(self) -> str:
        where = f" paths {list(self.rule.paths)}" if self.rule.paths else ""
        args = f" args_match {self.rule.args_match!r}" if self.rule.args_match else ""
        return f"gates.policy.rules[{self.number}] ({self.rule.effect} {self.rule.tool}{where}{args})"


class DeclarativePolicy:
    """The rules of one ``[gates.policy]`` table; relative path globs are anchored at ``workdir``."""

    def __init__(self, config: PolicySettings, workdir: Path) -> None:
        self.enabled = config.enabled
        self.default_effect = config.default_effect
        self.workdir = workdir
        self.rules = [
            CompiledRule(i, rule, tuple(a for p in rule.paths for a in anchored(p, workdir)),
                         re.compile(rule.args_match) if rule.args_match else None)
            for i, rule in enumerate(config.rules)
        ]  # fmt: skip

    def decide(self, tool: str | ToolDef, paths: Sequence[str], arguments: str) -> PolicyVerdict:
        """The effect for a call of ``tool`` naming ``paths`` (absolute), with ``arguments`` as JSON."""
        mine = [rule for rule in self.rules if rule.applies_to(tool)]
        normal = [os.path.normpath(path) for path in paths]
        matched = [rule for rule in mine if rule.matches(normal, arguments)]
        for rule in matched:
            if rule.rule.effect == "deny":
                return PolicyVerdict("deny", f"denied by {rule.describe()}")
        if matched:
            return PolicyVerdict("allow", f"allowed by {matched[0].describe()}")
        return PolicyVerdict(self.default_effect, f"gates.policy default_effect = {self.default_effect!r} (no rule "
                                                  f"matched {_name(tool)})")  # fmt: skip

    def path_denials(self, tool: str | ToolDef, *, besides_read: bool = False) -> list[CompiledRule]:
        """The deny rules of ``tool`` that name paths whatever the arguments (an ``args_match`` rule is left to
        ``decide``); ``besides_read``: only those that do not deny ``read`` too (the file tools' sandbox already
        hides what those name from a folder's walk)."""
        return [r for r in self.rules if r.rule.effect == "deny" and r.paths and r.args_match is None
                and r.applies_to(tool) and not (besides_read and r.applies_to("read"))]  # fmt: skip

    @staticmethod
    def denies(rules: Sequence[CompiledRule], path: str) -> str | None:
        """The trace of the first of ``rules`` whose paths match ``path``, or None."""
        normal = [os.path.normpath(path)]
        return next((f"denied by {rule.describe()}" for rule in rules if rule.matches(normal, "")), None)

    def refuses_always(self, tool: str | ToolDef) -> bool:
        """True when every call of ``tool`` is denied: a deny with no paths or args_match, or no allow for it and
        a default of deny. The model is not offered such a tool."""
        if not self.enabled:
            return False
        mine = [rule for rule in self.rules if rule.applies_to(tool)]
        if any(r.rule.effect == "deny" and not r.paths and r.args_match is None for r in mine):
            return True
        return self.default_effect == "deny" and not any(r.rule.effect == "allow" for r in mine)


def _name(tool: str | ToolDef) -> str:
    return tool if isinstance(tool, str) else tool.name


def call_paths(subject_kind: str, values: Sequence[str], written: Sequence[str], workdir: Path) -> list[str]:
    """The absolute paths a call names: a file tool's canonical paths, or the path arguments and redirect targets
    of a command line (``written``, made absolute against ``workdir``)."""
    if subject_kind == "path":
        return list(values)
    if subject_kind != "command":
        return []
    return [os.path.normpath(os.path.join(workdir, os.path.expanduser(word))) for word in written]
