"""What the shell classifier found in one command line: the verdict, why, and every part a gate needs."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from zeph_nb.shell.args import PathUse
from zeph_nb.shell.options import Rider
from zeph_nb.shell.rules import SimpleCommand, reads_only

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
    # How many times the line's variable values were read or set: a script whose reading leaves it unchanged reads
    # alike wherever it is read again (the classifier reads such a script once).
    value_uses: int = field(default=0, repr=False, compare=False)
    # The reasons and riders already recorded, beside their lists: recording one costs the same on a line with
    # 20,000 of them as on a line with one (a scan of the list made such a line take seconds).
    _reason_set: set[str] = field(default_factory=set, init=False, repr=False, compare=False)
    _rider_sets: dict[str | None, set[Rider]] = field(default_factory=dict, init=False, repr=False, compare=False)

    def resolve(self, use: PathUse) -> list[PathUse]:
        """A path word with variables the line set to plain text, filled in (every combination, up to 16); a word
        whose value is still unknown (``$(…)``, a variable from the environment) stays ``unknown``."""
        if not use.unknown or "`" in use.word or "$(" in use.word:
            return [use]
        names = re.findall(r"\$\{?([A-Za-z_]\w*)\}?", use.word)
        if not names or re.search(r"\$(?![{A-Za-z_])", use.word):
            return [use]
        words = [use.word]
        self.value_uses += 1
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

    def set_value(self, name: str, value: list[str] | None) -> None:
        """What the line sets variable ``name`` to (None: not known before it runs)."""
        self.values[name] = value
        self.value_uses += 1

    def ride(self, command: SimpleCommand | None, found: list[Rider]) -> None:
        """Record risky options (of ``command``, or of the whole line when None): they ask."""
        text = None if command is None or not found else command.text  # the text of a long command: once
        for rider in found:
            self._add_rider(text, rider)
            self.raise_to("confirm", f"risky option {rider.describe()}")

    def merge_riders(self, other: ShellAnalysis) -> None:
        """Add the risky options ``other`` found (a function's body) that this analysis does not have yet."""
        for text, found in other.riders.items():
            for rider in found:
                self._add_rider(text, rider)
        for rider in other.line_riders:
            self._add_rider(None, rider)

    def _add_rider(self, text: str | None, rider: Rider) -> None:
        seen = self._rider_sets.setdefault(text, set())
        if rider not in seen:
            seen.add(rider)
            (self.line_riders if text is None else self.riders.setdefault(text, [])).append(rider)

    @property
    def may_write(self) -> bool:
        """Whether the command could change files: a redirect into a file, or any command not known to only read.

        Errs towards yes; it decides whether a transactional snapshot is taken.
        """
        if self.writes_by_redirect or not self.parsed:
            return True
        return any(not reads_only(command) for command in self.commands)

    def raise_to(self, verdict: Verdict, reason: str) -> None:
        if reason not in self._reason_set:
            self._reason_set.add(reason)
            self.reasons.append(reason)
        if _RANK[verdict] > _RANK[self.verdict]:
            self.verdict = verdict

    @property
    def block_reasons(self) -> list[str]:
        return [r for r in self.reasons if r.startswith("blocked:")]


def _literal(text: str) -> Callable[[re.Match[str]], str]:
    """A replacement that inserts ``text`` as it is (no backslash or group processing)."""
    return lambda _match: text
