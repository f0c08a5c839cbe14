"""Gates: wrappers around the tool executor that decide whether, and how, a call runs.

``build_chain`` assembles them in their fixed order (see ``chain.py``). Policy, trust, cache, quota and
dependencies are plain values; approvers are the one place a person comes in.
"""

from zeph_nb.gates.approval import (
    ApprovalDecision,
    ApprovalRequest,
    Approver,
    AutoApprove,
    ConsoleApprover,
    DenyAll,
    ScriptedApprover,
)
from zeph_nb.gates.cache import ResultCache
from zeph_nb.gates.call import CallOutcome
from zeph_nb.gates.chain import GateChain, build_chain
from zeph_nb.gates.policy import PermissionPolicy, PolicyDecision, Rule
from zeph_nb.gates.policy.grants import Grant, PermissionGrants

__all__ = [
    "ApprovalDecision",
    "ApprovalRequest",
    "Approver",
    "AutoApprove",
    "CallOutcome",
    "ConsoleApprover",
    "DenyAll",
    "GateChain",
    "Grant",
    "PermissionGrants",
    "PermissionPolicy",
    "PolicyDecision",
    "ResultCache",
    "Rule",
    "ScriptedApprover",
    "build_chain",
]
