"""The approval inbox moved to ``zeph_nb.gates.approval.inbox``; importing it from here still works, and warns."""

import warnings

from zeph_nb.gates.approval.inbox import (  # the names this module had
    ApprovalClosed,
    Inbox,
    InboxApprover,
    InboxItem,
    UnknownApproval,
)

__all__ = ["ApprovalClosed", "Inbox", "InboxApprover", "InboxItem", "UnknownApproval"]

warnings.warn(
    "zeph_nb.gates.inbox moved to zeph_nb.gates.approval.inbox; import it from there", DeprecationWarning, stacklevel=2
)
