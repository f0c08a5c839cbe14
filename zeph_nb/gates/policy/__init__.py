"""Policy: what decides whether a call may run without a person — the permission rules (``rules.py``), the
subjects they match (``subjects.py``), the trust level and anomaly blocks (``trust.py``), tool dependencies,
the per-conversation quota, the Always-allow grants, and what containment adds for what a call would get
(``containment.py``: network, outside paths, protected paths, a new host).

The rules' names are importable from here (``from zeph_nb.gates.policy import PolicyDecision``).
"""

from zeph_nb.gates.policy.rules import (
    GRANTED,
    Action,
    PermissionPolicy,
    PolicyDecision,
    Rule,
    Subjects,
    TrustLevel,
    arguments_json,
    exact_pattern,
)

__all__ = [
    "GRANTED",
    "Action",
    "PermissionPolicy",
    "PolicyDecision",
    "Rule",
    "Subjects",
    "TrustLevel",
    "arguments_json",
    "exact_pattern",
]
