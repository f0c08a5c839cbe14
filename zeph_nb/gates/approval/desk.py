"""Where a conversation's asks wait: who answers them (a front-end swaps the approver between runs: buttons in a
notebook, a prompt in a terminal, the inbox for a headless run) and which are waiting right now."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.gates.approval.approvers import ApprovalDecision, ApprovalRequest, Approver, DenyAll

__all__ = ["ApprovalDesk"]


class ApprovalDesk:
    """The approver of one conversation and its requests in flight. ``DenyAll`` until a front-end sets one:
    nothing that needs a person runs when nobody can be asked."""

    def __init__(self, approver: Approver | None = None, *, reviewers: Callable[[], Approver] | None = None) -> None:
        self.approver: Approver = approver or DenyAll()
        self.pending: dict[str, ApprovalRequest] = {}
        # When the team's reviewers decide ([gates.approval] decided_by = "reviewers"), they answer every ask,
        # whichever approver a front-end or a program set: made on first use (it opens the store).
        self._reviewers = reviewers
        self._reviewer: Approver | None = None

    @property
    def answering(self) -> Approver:
        """Who actually answers this conversation's asks: the team's reviewers when they decide, else ``approver``."""
        if self._reviewers is None:
            return self.approver
        if self._reviewer is None:
            self._reviewer = self._reviewers()
        return self._reviewer

    async def ask(self, request: ApprovalRequest, timeout: float) -> ApprovalDecision:
        """The approver's answer, or a denial when nobody answers within ``timeout`` seconds. Raises
        CancelledError when the run is stopped, and a CANCELLED ToolError when only the approver gave up (its
        prompt was closed, the kernel is shutting down)."""
        self.pending[request.call_id] = request
        try:
            return await asyncio.wait_for(self.answering.decide(request), timeout)
        except TimeoutError:
            why = f"nobody answered within {timeout:g}s (gates.approval.timeout_secs)"
            return ApprovalDecision.deny("timeout", why)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise  # the run itself is being stopped: the recorder logs it as cancelled
            raise ToolError(ToolErrorCategory.CANCELLED, f"the approval of {request.summary} was cancelled") from None
        finally:
            self.pending.pop(request.call_id, None)
