"""Trust levels, and the anomaly detector that blocks a misbehaving tool through them.

The trust level decides what happens to a call no permission rule decides (``[gates.trust] level``):

* ``trusted`` (default) — it runs, unless its executor asks for confirmation (for bash: the command classifier
  found something destructive or opaque);
* ``provisional`` — it runs only if it cannot change anything: a read-only tool, or a bash line made only of
  commands known to read. Everything else asks. Allow rules still apply.
* ``untrusted`` — as provisional, and tools that reach the network ask too; allow rules no longer cover tools
  that change files or reach the network (only a person, or an earlier Always allow, can).

On top of the level, single tools can be blocked (refused and hidden) — by the anomaly detector when most of
their recent calls failed, or by hand — and unblocked again.
"""

from __future__ import annotations

import logging
import math
from collections import deque
from dataclasses import dataclass, field
from typing import Literal

from zeph_nb.config import AnomalySettings
from zeph_nb.gates.policy import PolicyDecision, TrustLevel
from zeph_nb.shell import ShellAnalysis
from zeph_nb.tools.base import ToolDef

__all__ = ["AnomalyDetector", "TrustState", "default_decision"]

log = logging.getLogger("zeph_nb.gates")


def default_decision(
    tool: ToolDef, level: TrustLevel, *, wants_confirmation: bool, analysis: ShellAnalysis | None
) -> PolicyDecision:
    """What the trust level says for a call no rule decides."""
    if analysis is not None and analysis.verdict == "confirm":
        items = tuple(r for r in analysis.reasons if not r.startswith("blocked:"))
        reason = "the command classifier asks: " + "; ".join(items)
        return PolicyDecision("ask", "shell classifier", reason, reasons=items)
    if wants_confirmation:
        return PolicyDecision("ask", f"{tool.name} executor", f"{tool.name} asks for confirmation of this call")
    if level == "trusted":
        return PolicyDecision("allow", "default (trust level trusted)", "no rule applies; trusted calls run")
    changes = tool.mutates and (analysis is None or analysis.may_write)
    if changes:
        return PolicyDecision(
            "ask", f"default (trust level {level})", f"trust level {level}: calls that may change files ask first"
        )
    if level == "untrusted" and tool.network:
        return PolicyDecision("ask", "default (trust level untrusted)", "trust level untrusted: network calls ask")
    return PolicyDecision("allow", f"default (trust level {level})", f"no rule applies; {level} read-only calls run")


@dataclass
class TrustState:
    """The session's trust level and the tools blocked in it (tool -> why)."""

    level: TrustLevel = "trusted"
    blocked: dict[str, str] = field(default_factory=dict)

    def block(self, tool: str, reason: str) -> None:
        self.blocked[tool] = reason

    def level_for(self, tool: str) -> str:
        """The level as the audit row says it for ``tool``: with "; <tool> blocked" while it is blocked."""
        return f"{self.level}; {tool} blocked" if tool in self.blocked else self.level

    def unblock(self, tool: str) -> None:
        """Lift a block (the anomaly detector's window for the tool starts afresh)."""
        self.blocked.pop(tool, None)


Severity = Literal["warning", "critical"]


class AnomalyDetector:
    """A sliding window of the last ``window_size`` outcomes per tool.

    A failure rate at ``error_threshold`` logs a warning; at ``critical_threshold`` the tool is blocked through
    the trust state. Rates are judged once the window holds at least half its size (and at least three calls
    when it can), so two unlucky first calls do not block a tool.
    """

    def __init__(self, settings: AnomalySettings, trust: TrustState) -> None:
        self.settings = settings
        self.trust = trust
        self.windows: dict[str, deque[bool]] = {}
        self.flagged: dict[str, Severity] = {}

    @property
    def min_samples(self) -> int:
        size = self.settings.window_size
        return min(size, max(3, math.ceil(size / 2)))

    def record(self, tool: str, failed: bool) -> Severity | None:
        """Add one outcome; returns the severity when this outcome crossed a threshold."""
        if not self.settings.enabled:
            return None
        window = self.windows.setdefault(tool, deque(maxlen=self.settings.window_size))
        window.append(failed)
        if len(window) < self.min_samples:
            return None
        rate = sum(window) / len(window)
        severity: Severity | None = None
        if rate >= self.settings.blocking_threshold:
            severity = "critical"
        elif rate >= self.settings.error_threshold:
            severity = "warning"
        previous = self.flagged.get(tool)
        if severity is None:
            self.flagged.pop(tool, None)
            return None
        if severity == previous:
            return None
        self.flagged[tool] = severity
        summary = f"{sum(window)} of the last {len(window)} {tool} calls failed ({rate:.0%})"
        if severity == "critical" and not self.settings.auto_block:
            log.warning("zeph-nb: %s; [gates.anomaly] auto_block = false, so %s stays available", summary, tool)
        elif severity == "critical":
            self.trust.block(tool, f"blocked by anomaly detection: {summary}")
            log.warning(
                "zeph-nb: %s; %s is blocked for this session (unblock it with TrustState.unblock)", summary, tool
            )
        else:
            log.warning("zeph-nb: %s", summary)
        return severity

    def forget(self, tool: str) -> None:
        self.windows.pop(tool, None)
        self.flagged.pop(tool, None)

    def reset(self) -> None:
        self.windows.clear()
        self.flagged.clear()
