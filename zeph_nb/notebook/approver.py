"""WidgetApprover: an approval is an asyncio future that a button's click resolves.

This is the design measured in DESIGN.md: the run is a task on the kernel's event loop and the cell that started
it has returned, so the kernel is idle and delivers the click; ``on_click`` resolves the future the approval gate
awaits. ``%zeph approve`` / ``%zeph deny`` resolve the oldest pending one the same way. After a kernel restart
the old buttons have no handler left, so a stale click does nothing.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING

from zeph_nb.gates.approval import ApprovalDecision, ApprovalRequest

if TYPE_CHECKING:
    from zeph_nb.notebook.transcript import ToolCard, Transcript

__all__ = ["WidgetApprover"]


@dataclass
class _Pending:
    request: ApprovalRequest
    future: asyncio.Future[ApprovalDecision]
    card: ToolCard


class WidgetApprover:
    """Asks with buttons in the run's transcript. ``user`` is who the decisions are recorded as."""

    def __init__(self, user: str) -> None:
        self.user = user
        self.transcript: Transcript | None = None  # the running cell's transcript, set for each run
        self.pending: list[_Pending] = []

    async def decide(self, request: ApprovalRequest) -> ApprovalDecision:
        transcript = self.transcript
        if transcript is None:
            return ApprovalDecision.deny(self.user, "no transcript is showing, so nobody can be asked")
        future: asyncio.Future[ApprovalDecision] = asyncio.get_running_loop().create_future()
        card = transcript.card(request.call_id, request.tool, request.params)
        entry = _Pending(request, future, card)

        def answer(choice: str) -> None:
            self.answer(entry, choice)

        card.ask(request, answer)
        self.pending.append(entry)
        try:
            decision = await future
        finally:
            if entry in self.pending:
                self.pending.remove(entry)
            for button in card.buttons.values():
                button.disabled = True  # a timeout or a Stop also closes the prompt
        return decision  # the transcript shows who decided when the approval_answered event arrives

    def answer(self, entry: _Pending, choice: str) -> bool:
        """Resolve one request with "approve", "deny" or "always"; False when it was already answered."""
        if entry.future.done():
            return False
        if choice == "deny":
            entry.future.set_result(ApprovalDecision.deny(self.user))
        else:
            entry.future.set_result(ApprovalDecision.approve(self.user, remember=choice == "always"))
        return True

    def answer_oldest(self, choice: str) -> ApprovalRequest | None:
        """For ``%zeph approve`` / ``%zeph deny``: answer the request that has waited longest."""
        for entry in list(self.pending):
            if self.answer(entry, choice):
                return entry.request
        return None
