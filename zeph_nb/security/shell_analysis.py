"""What the shell classifier found in one command line: the verdict, why, and every part a gate needs."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from zeph_nb.security.shell_args import PathUse
from zeph_nb.security.shell_options import Rider
from zeph_nb.security.shell_rules import SimpleCommand, reads_only

__all__ = ["ShellAnalysis", "Verdict"]

Verdict = Literal["allow", "confirm", "block"]
_RANK: dict[str, int] = {"allow": 0, "confirm": 1, "block": 2}


@dataclass
class ShellAnalysis:
    """The verdict, every reason that contributed, and every simple command found (nested ones included)."""

    verdict: Verdict = "allow"
    reasons: list[str] = field(default_factory=list)
    commands: list[SimpleCommand] = field(default_factory=list)
    writes_by_redirect: bool = False
    parsed: bool = True
    # Risky options per command (by its text), which no allow rule covers unless its pattern names them; and
    # those of the whole line (an exported PATH, an alias), which concern every command in it.
    riders: dict[str, list[Rider]] = field(default_factory=dict)
    line_riders: list[Rider] = field(default_factory=list)
    paths: list[PathUse] = field(default_factory=list)  # path arguments and redirect targets, as written
    defined: set[str] = field(default_factory=set)  # variables the line sets itself
    # What the line sets them to, when it is plain text (x=/etc/hosts, for f in a b): None when unknown.
    values: dict[str, list[str] | None] = field(default_factory=dict)
    cd_dirs: list[str] = field(default_factory=list)  # where cd and pushd go, as written

    def resolve(self, use: PathUse) -> list[PathUse]:
        """A path word with variables the line set to plain text, filled in (every combination, up to 16); a word
        whose value is still unknown (``$(…)``, a variable from the environment) stays ``unknown``."""
        if not use.unknown or "`" in use.word or "$(" in use.word:
            return [use]
        names = re.findall(r"\$\{?([A-Za-z_]\w*)\}?", use.word)
        if not names or re.search(r"\$(?![{A-Za-z_])", use.word):
            return [use]
        words = [use.word]
        for name in dict.fromkeys(names):
            choices = ["."] if name == "PWD" else self.values.get(name)
            if not choices:
                return [use]
            pattern = re.compile(rf"\$(?:\{{{name}\}}|{name}(?![A-Za-z0-9_]))")
            words = [pattern.sub(_literal(c), w) for w in words for c in choices][:16]
        return [PathUse(word, use.mode, use.command, unknown="$" in word or "`" in word) for word in words]

    @property
    def all_riders(self) -> list[Rider]:
        return [*self.line_riders, *(r for found in self.riders.values() for r in found)]

    def ride(self, command: SimpleCommand | None, found: list[Rider]) -> None:
        """Record risky options (of ``command``, or of the whole line when None): they ask."""
        for rider in found:
            where = self.line_riders if command is None else self.riders.setdefault(command.text, [])
            if rider not in where:
                where.append(rider)
            self.raise_to("confirm", f"risky option {rider.describe()}")

    @property
    def may_write(self) -> bool:
        """Whether the command could change files: a redirect into a file, or any command not known to only read.

        Errs towards yes; it decides whether a transactional snapshot is taken.
        """
        if self.writes_by_redirect or not self.parsed:
            return True
        return any(not reads_only(command) for command in self.commands)

    def raise_to(self, verdict: Verdict, reason: str) -> None:
        if reason not in self.reasons:
            self.reasons.append(reason)
        if _RANK[verdict] > _RANK[self.verdict]:
            self.verdict = verdict

    @property
    def block_reasons(self) -> list[str]:
        return [r for r in self.reasons if r.startswith("blocked:")]


def _literal(text: str) -> Callable[[re.Match[str]], str]:
    """A replacement that inserts ``text`` as it is (no backslash or group processing)."""
    return lambda _match: text
