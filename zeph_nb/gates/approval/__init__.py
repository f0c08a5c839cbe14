"""Approval: the one place a person comes in. ``approvers.py`` holds the protocol (``Approver``, what it is asked
and answers) and the built-in approvers; ``inbox.py`` the approval inbox headless runs wait on; ``explain.py``
why a call asks, in one plain sentence; ``preview.py`` the diff a write or an edit would make.

The approvers' names are importable from here (``from zeph_nb.gates.approval import ApprovalRequest``).
"""

from zeph_nb.gates.approval.approvers import (
    ApprovalDecision,
    ApprovalRequest,
    Approver,
    AutoApprove,
    ConsoleApprover,
    Decision,
    DenyAll,
    ScriptedApprover,
)

__all__ = [
    "ApprovalDecision",
    "ApprovalRequest",
    "Approver",
    "AutoApprove",
    "ConsoleApprover",
    "Decision",
    "DenyAll",
    "ScriptedApprover",
]
