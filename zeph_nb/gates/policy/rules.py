"""PermissionPolicy: whether one call runs silently, waits for a person, or is refused — and which rule said so.

Rules come from three places, asked in this order, first match wins:

1. ``[gates.permissions.<tool>]`` — ordered ``{pattern, action}`` globs, case-insensitive, matched against the
   tool's *subject*: each simple command of a bash command line, the canonical path(s) of a file tool, the URL
   of a web tool. (``[tools.shell] blocked_commands`` and ``confirm_patterns`` name commands; the shell
   classifier applies them to command words, before and beside these rules.)
2. ``[gates.authorization]`` rules (when enabled): ``effect`` for a tool glob, optionally only when
   ``args_match`` finds the arguments' JSON or ``paths`` globs match the call's paths.
3. "Always allow" grants a person gave earlier; they turn an *ask* into an allow, never a deny into anything.

A command line is allowed only when every one of its simple commands is: ``allow "cargo *"`` lets
``cargo test`` run but asks about ``cargo test; rm -rf build``, and a deny on any segment denies the whole line.
A risky option the classifier found in a command (a *rider*: ``git -c …``, ``GIT_PAGER=… git``, ``sed …e``)
is covered by an allow rule only when the rule's pattern spells it out (``allow "git -c color.ui=* *"``); else
that command asks.
When nothing matches: a tool with configured rules asks; a tool without any falls back to the trust level
(see ``trust.py``). Pure: values in, a ``PolicyDecision`` out; the gates do the I/O.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from wcmatch import fnmatch, glob

from zeph_nb.config import ManagedSettings, Settings
from zeph_nb.shell import Rider
from zeph_nb.tools.base import ToolDef
from zeph_nb.tools.shell.path_scope import PATH_GRANT

__all__ = [
    "Action",
    "PermissionPolicy",
    "PolicyDecision",
    "Rule",
    "Subjects",
    "TrustLevel",
    "capabilities_of",
    "code_matches",
    "exact_pattern",
]

Action = Literal["allow", "ask", "deny"]
TrustLevel = Literal["untrusted", "provisional", "trusted"]
_RANK: dict[str, int] = {"allow": 0, "ask": 1, "deny": 2}

_TEXT_FLAGS = fnmatch.IGNORECASE | fnmatch.DOTMATCH | fnmatch.BRACE
_PATH_FLAGS = glob.GLOBSTAR | glob.IGNORECASE | glob.DOTGLOB | glob.BRACE
BLANKET = frozenset({"*", "**"})


def capabilities_of(tool: ToolDef) -> frozenset[str]:
    """What a tool can do, as ``[gates.authorization.rules] capabilities`` name it: ``mutates`` or ``read_only``,
    ``network``, ``shell`` (runs command lines), ``files`` (works on paths), ``kernel`` (runs in the kernel)."""
    found = {"mutates" if tool.mutates else "read_only"}
    if tool.network:
        found.add("network")
    if tool.subject_kind == "command":
        found.add("shell")
    if tool.subject_kind == "path":
        found.add("files")
    if tool.in_kernel:
        found.add("kernel")
    return frozenset(found)


# In a pattern for code, * stands for a name or an attribute path and nothing else; the rest matches exactly.
_CODE_NAME = "[A-Za-z0-9_.]*"


def code_matches(pattern: str, code: str) -> bool:
    """Whether ``code`` is what ``pattern`` says, for tools that run code (run_python): case-sensitive, the whole
    code (surrounding whitespace aside), and ``*`` only a name or attribute path — ``*.describe()`` allows
    ``sales.describe()``, never ``x = 1\n"x".describe()``; ``len(*)`` never ``len(x) or os.remove(p)``."""
    parts = [re.escape(piece) for piece in pattern.strip().split("*")]
    return re.fullmatch(_CODE_NAME.join(parts), code.strip()) is not None


# How a decision made by a grant begins; the grant's own words follow ('Always allow "rm -f b.txt" by ann at …'),
# and the call's card shows the sentence.
GRANTED = "allowed by an earlier "


def exact_pattern(subject: str) -> str:
    """A pattern that matches ``subject`` and nothing else (what "Always allow" persists)."""
    return str(fnmatch.escape(subject))


@dataclass(frozen=True)
class Subjects:
    """What the rules of one call are matched against.

    ``values`` (never empty): the simple commands of a command line, the canonical paths, the URL, or the
    arguments as text.
    ``parsed`` is False for a command line the shell parser could not read: its one value is the raw line, and
    no allow rule may wave it through.
    """

    kind: Literal["command", "path", "url", "text", "code"]
    values: tuple[str, ...]
    arguments: str = ""  # the arguments as canonical JSON, for authorization rules' args_match
    parsed: bool = True


@dataclass(frozen=True)
class Rule:
    """One ordered rule. ``source`` says where it came from, for the audit log and the approval prompt."""

    tool: str
    pattern: str
    action: Action
    source: str
    # Authorization rules only: the call matches when both conditions that are set hold.
    args_match: re.Pattern[str] | None = None
    paths: tuple[str, ...] = ()
    call_level: bool = False  # an authorization rule: decides for the whole call, not per subject
    # An authorization rule's `capabilities` (seed 003): it applies only to tools that have every one of them.
    capabilities: frozenset[str] = frozenset()
    written: str | None = None  # the pattern as the person wrote it, when matching uses an anchored form
    # Set for a rule of the organisation's managed settings: the line naming the file. Its deny is final and its
    # ask stays a question: no grant (stored or new) answers it.
    managed: str = ""

    @property
    def is_blanket(self) -> bool:
        """Matches every input of its tool."""
        if self.call_level:
            return self.args_match is None and not self.paths
        return self.pattern in BLANKET

    def matches(self, kind: str, value: str) -> bool:
        if self.pattern in BLANKET:
            return True
        if kind == "path":
            return bool(glob.globmatch(value, self.pattern, flags=_PATH_FLAGS))
        if kind == "code":
            return code_matches(self.pattern, value)
        if kind == "command" and self.pattern.endswith(" *") and value.lower() == self.pattern[:-2].lower():
            return True  # "make *" means make with any arguments, none included
        return bool(fnmatch.fnmatch(value, self.pattern, flags=_TEXT_FLAGS))

    def matches_call(self, subjects: Subjects) -> bool:
        """For authorization rules: ``args_match`` searches the arguments' JSON; ``paths`` the call's paths."""
        if self.args_match is not None and not self.args_match.search(subjects.arguments):
            return False
        if self.paths:
            if subjects.kind != "path" or not subjects.values:
                return False
            hits = [any(glob.globmatch(v, p, flags=_PATH_FLAGS) for p in self.paths) for v in subjects.values]
            # Refusing needs one matching path; allowing needs all of them (a move out of an allowed tree into
            # a forbidden one must not be allowed by its source alone).
            return all(hits) if self.action == "allow" else any(hits)
        return True

    def describe(self) -> str:
        if self.call_level:
            return self.source
        return f'{self.source}: {self.action} "{self.written or self.pattern}"'


@dataclass(frozen=True)
class PolicyDecision:
    """The policy's answer for one call: the action, the rule that decided (or the default), and why."""

    action: Action
    rule: str
    reason: str
    asking: tuple[str, ...] = ()  # the subjects that made it ask: what "Always allow" would grant
    by_rule: bool = False  # allowed by a configured rule or a grant, not by the trust level's default
    extras: tuple[str, ...] = ()  # what the call gets beyond the sandbox's default, said on the approval card
    grantable: bool = True  # whether "Always allow" may be offered (never for a command outside the sandbox)
    grant_patterns: tuple[str, ...] | None = None  # what "Always allow" persists instead of the exact subjects
    remedy: str = ""  # what to change so it runs without a person (said when nobody can be asked)
    managed: str = ""  # a managed rule decided (deny, or an ask no grant may answer): the line naming its file
    # ``reason``'s items as each gate wrote them, in order (``reason`` is them joined with "; "). A gate's item
    # starts with the gate's own words and only then quotes the model's (a command, a path), so an item is read
    # from its start (gates/approval/explain.py): the model's words cannot pass for a gate's. () means (reason,).
    reasons: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.reasons:
            object.__setattr__(self, "reasons", (self.reason,))


def _table_of(tool: str) -> str:
    """The ``[gates.permissions]`` table a tool's rules are under: names are case-insensitive, "shell" is bash."""
    name = tool.lower()
    return "bash" if name == "shell" else name


class PermissionPolicy:
    """Rules from one configuration, for one working directory (relative path patterns start there)."""

    def __init__(self, settings: Settings | None = None, *, workdir: str | os.PathLike[str] | None = None) -> None:
        settings = settings or Settings()
        self.workdir = Path(os.path.realpath(workdir if workdir is not None else os.getcwd()))
        gates = settings.gates
        self.rules: dict[str, list[Rule]] = {}
        # Legacy rules (no [gates.permissions]) only refine the default: a command no legacy rule matches
        # falls through to the trust level, as it did before permission rules existed.
        self.fallthrough: set[str] = set()
        managed = settings.managed
        if gates.permissions is not None:
            for tool, rules in gates.permissions.items():
                key = f"gates.permissions.{tool}"
                # [gates.permissions.shell] and .Bash mean bash, as "shell" does in [gates.policy] rules: a table
                # that named no tool loaded silently and never applied (a managed deny among them).
                self.rules.setdefault(_table_of(tool), []).extend(
                    Rule(tool, rule.pattern, rule.action, _managed_source(f"{key}[{i}]", managed, key, i),
                         managed=_managed_line(managed, key, i))
                    for i, rule in enumerate(rules)
                )  # fmt: skip
        self.authorization: list[Rule] = []
        if gates.authorization.enabled:
            key = "gates.authorization.rules"
            for i, auth in enumerate(gates.authorization.rules):
                self.authorization.append(
                    Rule(
                        auth.tool,
                        auth.tool,
                        auth.effect,
                        _managed_source(f"{key}[{i}] ({auth.effect} {auth.tool})", managed, key, i),
                        args_match=re.compile(auth.args_match) if auth.args_match else None,
                        paths=tuple(self._path_pattern(p) for p in auth.paths),
                        call_level=True,
                        capabilities=frozenset(auth.capabilities),
                        managed=_managed_line(managed, key, i),
                    )
                )

    # -- rule lookup ---------------------------------------------------------------------------------------

    def _path_pattern(self, pattern: str) -> str:
        """Path patterns are matched against canonical absolute paths: anchor relative ones at the workdir."""
        if pattern in BLANKET or pattern.startswith("**"):
            return pattern
        expanded = os.path.expanduser(pattern)
        return expanded if os.path.isabs(expanded) else f"{glob.escape(str(self.workdir))}/{expanded}"

    def rules_for(self, tool: ToolDef | str) -> list[Rule]:
        """The ordered rules that apply to ``tool`` (permission rules, then authorization rules)."""
        name = tool if isinstance(tool, str) else tool.name
        kind = "text" if isinstance(tool, str) else tool.subject_kind
        own = [
            # replace, not a new Rule: every other field (managed=, above all) must survive the anchoring
            dataclasses.replace(r, pattern=self._path_pattern(r.pattern), written=r.pattern) if kind == "path" else r
            for r in self.rules.get(_table_of(name), [])
        ]
        has = capabilities_of(tool) if not isinstance(tool, str) else frozenset()
        auth = [r for r in self.authorization
                if fnmatch.fnmatch(name, r.tool, flags=_TEXT_FLAGS) and r.capabilities <= has]  # fmt: skip
        if not isinstance(tool, str) and tool.in_kernel:
            # Code for the kernel is allowed only by a rule written for its text (code_matches): an authorization
            # rule's tool glob and args_match regex were written for other tools and would wave any code through.
            auth = [r for r in auth if r.action != "allow"]
        # The managed rules of both kinds first: a user's permission rule must not answer before them.
        ordered = own + auth
        return [r for r in ordered if r.managed] + [r for r in ordered if not r.managed]

    def hides(self, tool: ToolDef | str) -> bool:
        """True when every call of ``tool`` would be denied: a blanket deny preceded only by denies."""
        for rule in self.rules_for(tool):
            if rule.action != "deny":
                return False
            if rule.is_blanket:
                return True
        return False

    def has_rules(self, tool: ToolDef | str) -> bool:
        name = tool if isinstance(tool, str) else tool.name
        return bool(self.rules_for(tool)) and name not in self.fallthrough

    # -- deciding ------------------------------------------------------------------------------------------

    def decide(
        self,
        tool: ToolDef,
        subjects: Subjects,
        *,
        default: PolicyDecision,
        grants: Sequence[Rule] | Callable[[], Sequence[Rule]] = (),
        trust: TrustLevel = "trusted",
        riders: Mapping[str, Sequence[Rider]] | None = None,
        line_riders: Sequence[Rider] = (),
    ) -> PolicyDecision:
        """The action for one call.

        ``default`` is what the trust level says for a call no rule decides (computed by the caller, who knows
        whether the executor wants confirmation); ``grants`` are the persisted "Always allow" rules, or a function
        that reads them — called only when the answer would otherwise be *ask*.
        """
        rules = self.rules_for(tool)
        matched = [(value, self._first_match(rules, subjects, value)) for value in subjects.values]
        matched = [(value, _uncovered(rule, value, riders or {}, line_riders)) for value, rule in matched]
        for value, rule in matched:
            if rule is not None and rule.action == "deny":
                where = f" (in {value!r})" if len(subjects.values) > 1 else ""
                return PolicyDecision("deny", rule.describe(), f"denied by {rule.describe()}{where}",
                                      managed=rule.managed)  # fmt: skip
        # (subject, the rule that asks about it, or None when the trust default asks)
        asks: list[tuple[str, Rule | None]] = [(v, r) for v, r in matched if r is not None and r.action == "ask"]
        unmatched = [value for value, rule in matched if rule is None]
        if unmatched and (self.has_rules(tool) or not subjects.parsed):
            # Configured rules and none matched: ask. A line nobody could parse never falls to a default either.
            why = "no rule matched" if subjects.parsed else "the command could not be parsed, so no rule applies"
            asks += [(value, Rule(tool.name, "", "ask", f"default for {tool.name}: {why}", call_level=True))
                     for value in unmatched]  # fmt: skip
        elif unmatched and default.action == "ask":
            asks += [(value, None) for value in unmatched]
        allowed = [(v, r) for v, r in matched if r is not None and r.action == "allow"]
        if not asks and allowed and trust == "untrusted" and (tool.mutates or tool.network):
            reason = "trust level untrusted: allow rules do not cover tools that change files or reach the network"
            asks = [(value, None) for value, _ in allowed]
            default = PolicyDecision("ask", allowed[0][1].describe(), reason)
        if not asks:
            names = sorted({rule.describe() for _, rule in allowed}) or [default.rule]
            reason = "allowed by " + "; ".join(names) if allowed else default.reason
            return PolicyDecision("allow", "; ".join(names), reason, by_rule=bool(allowed))
        asking = tuple(value for value, _ in asks)
        managed = next((rule for _, rule in asks if rule is not None and rule.managed), None)
        if managed is not None:  # a managed ask: no grant answers it, and none is offered
            why = f"asked by {managed.describe()}; {managed.managed}: it asks every time, Always allow is not kept"
            return PolicyDecision("ask", managed.describe(), why, asking=asking, grantable=False,
                                  managed=managed.managed)  # fmt: skip
        granted = self._granted(grants() if callable(grants) else grants, tool, subjects, asking)
        if granted is not None:
            return granted
        first = asks[0][1]
        if first is None:
            return dataclasses.replace(default, asking=asking)
        return PolicyDecision("ask", first.describe(), f"asked by {first.describe()}", asking=asking)

    def _first_match(self, rules: Sequence[Rule], subjects: Subjects, value: str | None) -> Rule | None:
        for rule in rules:
            if rule.call_level:
                if rule.matches_call(subjects):
                    return rule
            elif value is not None and rule.matches(subjects.kind, value):
                if rule.action == "allow" and not subjects.parsed:
                    continue  # a glob cannot vouch for a command line nobody could read
                return rule
        return None

    def _granted(
        self, grants: Sequence[Rule], tool: ToolDef, subjects: Subjects, asking: Iterable[str]
    ) -> PolicyDecision | None:
        # A folder grant (path:/data/**) is for the shell's path check, never a command pattern.
        mine = [g for g in grants if g.tool == tool.name and not g.pattern.startswith(PATH_GRANT)]
        asking = list(asking)
        if not mine or not asking:
            return None
        used: list[Rule] = []
        for value in asking:
            hit = next((g for g in mine if g.matches(subjects.kind, value)), None)
            if hit is None:
                return None
            used.append(hit)
        names = sorted({g.source for g in used})
        return PolicyDecision("allow", "; ".join(names), GRANTED + "; ".join(names), by_rule=True)


def _managed_source(source: str, managed: ManagedSettings | None, key: str, index: int) -> str:
    if managed is None or not managed.is_managed_rule(key, index):
        return source
    return f"{source} (managed by {managed.path})"


def _managed_line(managed: ManagedSettings | None, key: str, index: int) -> str:
    if managed is None or not managed.is_managed_rule(key, index):
        return ""
    return f"{key}[{index}] is set by {managed.path} (managed)"


def covers(pattern: str, rider: Rider) -> bool:
    """Whether an allow pattern spells out the risky option: ``git -c color.ui=* *`` covers ``-c``, ``git *`` does
    not; ``GIT_PAGER=* git *`` covers ``GIT_PAGER``."""
    option = re.escape(rider.option.lower())
    return re.search(rf"(^|\s){option}", pattern.lower()) is not None


def _uncovered(
    rule: Rule | None, value: str, riders: Mapping[str, Sequence[Rider]], line: Sequence[Rider]
) -> Rule | None:
    """An allow whose pattern does not name a risky option of ``value`` becomes an ask that says which."""
    if rule is None or rule.action != "allow":
        return rule
    missing = [r for r in [*riders.get(value, ()), *line] if not covers(rule.pattern, r)]
    if not missing:
        return rule
    said = "; ".join(r.describe() for r in missing)
    why = f"{rule.describe()} does not cover {said} (a rule covers a risky option only when it spells it out)"
    return Rule(rule.tool, rule.pattern, "ask", why, call_level=True)


def arguments_json(params: Mapping[str, Any]) -> str:
    """Canonical JSON of a call's arguments (sorted keys), what ``args_match`` and the result cache see."""
    return json.dumps(params, sort_keys=True, ensure_ascii=False, default=str)
