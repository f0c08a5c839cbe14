"""DependencyGraph: tools that only make sense after others (``[gates.dependencies]``).

``requires`` is a hard gate: a tool stays hidden from the model, and refused if called anyway, until every tool
it requires has completed successfully in this session. ``prefers`` is soft: tools whose preferred predecessors
have completed move ahead in the tool list. Tools in ``always_on`` are never hidden.

Two ways to stall an agent are closed at construction and at use: tools caught in a ``requires`` cycle lose
their requirements (with a warning), and when every tool that is not always-on would be hidden, the gates are
lifted for that turn (with a warning) rather than leave the model nothing to call.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence

from zeph_nb.config import DependencyRule

__all__ = ["DependencyGraph"]

log = logging.getLogger("zeph_nb.gates")


class DependencyGraph:
    def __init__(
        self,
        rules: Mapping[str, DependencyRule],
        *,
        always_on: Iterable[str] = (),
        boost_per_dep: float = 0.15,
        max_total_boost: float = 0.2,
    ) -> None:
        # Seed 003's ranking: each preferred tool that has completed adds boost_per_dep to a tool's rank, up to
        # max_total_boost; tools are shown best first (ties keep the registry's order).
        self.boost_per_dep, self.max_total_boost = boost_per_dep, max_total_boost
        self.requires: dict[str, set[str]] = {tool: set(rule.requires) - {tool} for tool, rule in rules.items()}
        self.prefers: dict[str, set[str]] = {tool: set(rule.prefers) - {tool} for tool, rule in rules.items()}
        self.always_on = frozenset(always_on)
        self.cycles: list[list[str]] = []
        self._break_cycles()

    def _break_cycles(self) -> None:
        """Depth-first search for back edges; every tool on a found cycle loses its requirements."""
        state: dict[str, str] = {}  # tool -> "active" | "done"

        def visit(tool: str, path: list[str]) -> None:
            state[tool] = "active"
            path.append(tool)
            for needed in sorted(self.requires.get(tool, ())):
                if state.get(needed) == "active":
                    self.cycles.append([*path[path.index(needed) :], needed])
                elif needed not in state:
                    visit(needed, path)
            path.pop()
            state[tool] = "done"

        for tool in sorted(self.requires):
            if tool not in state:
                visit(tool, [])
        for cycle in self.cycles:
            for tool in cycle:
                self.requires[tool] = set()
            log.warning(
                "zeph-nb: [gates.dependencies] requires form a cycle (%s); those tools are always available",
                " -> ".join(cycle),
            )

    def unmet(self, tool: str, completed: Iterable[str]) -> list[str]:
        """What ``tool`` still requires (empty: it may run)."""
        if tool in self.always_on:
            return []
        done = set(completed)
        return sorted(self.requires.get(tool, set()) - done)

    def visible(self, tools: Sequence[str], completed: Iterable[str]) -> tuple[list[str], bool]:
        """The tools to show this turn, best first, and whether the gates had to be lifted to show any."""
        done = set(completed)
        shown = [tool for tool in tools if not self.unmet(tool, done)]
        gated = [tool for tool in tools if tool not in self.always_on]
        lifted = bool(gated) and not any(tool in shown for tool in gated)
        if lifted:
            log.warning(
                "zeph-nb: every tool would be hidden by unmet [gates.dependencies] requires; showing all this turn"
            )
            shown = list(tools)
        boost = {tool: self.boost(tool, done) for tool in shown}
        return sorted(shown, key=lambda tool: -boost[tool]), lifted  # stable: ties keep registry order

    def boost(self, tool: str, completed: Iterable[str]) -> float:
        """How far up ``tool`` moves: boost_per_dep for each preferred tool that completed, capped."""
        met = len(self.prefers.get(tool, set()) & set(completed))
        return min(met * self.boost_per_dep, self.max_total_boost)
