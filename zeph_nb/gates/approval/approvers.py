"""Approvers: who answers when the policy says *ask*.

One protocol, ``async decide(request) -> ApprovalDecision``. The request shows what would run (arguments with secrets
redacted), the rule that asked and why; the decision says approved or not, by whom, and whether to remember it
("Always allow", which the approval gate persists as a permission grant).

* ``DenyAll`` — the headless default: nobody is there to ask, so an ask becomes a ConfirmationRequired error
  the model reads and can explain.
* ``AutoApprove`` — approves everything the policy asks about (never what it denies). Explicit opt-in only.
* ``ScriptedApprover(decisions)`` — answers from a list, for tests and tutorials; keeps every request it saw.
* ``ConsoleApprover`` — asks on the terminal with ``input()``, for IPython outside a notebook.

The widget approver (buttons in the cell output) lives in ``zeph_nb.notebook``; the inbox approver (for headless
runs, answered from the server extension's dashboard) in ``zeph_nb.gates.approval.inbox``.
"""

from __future__ import annotations

import asyncio
import builtins
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, Protocol, runtime_checkable

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


@dataclass(frozen=True)
class ApprovalRequest:
    """One call waiting for a person."""

    call_id: str
    tool: str
    params: Mapping[str, Any]  # secrets redacted
    subjects: tuple[str, ...]  # what would run or be touched: commands, canonical paths, the URL
    rule: str  # the rule (or default) that asked
    reason: str
    asking: tuple[str, ...] = ()  # what "Always allow" would grant: the subjects that asked
    conversation_id: str | None = None
    # UTC (naive, like the store's times): when the approval gate stops waiting and denies. None outside a gate.
    expires_at: datetime | None = None
    # What the call gets beyond the OS sandbox's default ("this command will have network access to pypi.org",
    # "runs WITHOUT the OS sandbox"); the card shows each line. Empty: nothing beyond the default.
    extras: tuple[str, ...] = ()
    # What to change so this call runs when no person is there to ask ("add /data to [tools.shell] allowed_paths").
    remedy: str = ""
    # write/edit: a diff of what the file will become (gates/approval/preview.py); "" for other tools.
    preview: str = ""
    # The reason's items as the gates wrote them (PolicyDecision.reasons): what ``why`` reads. () means (reason,).
    reasons: tuple[str, ...] = ()
    # The tool's own words (ToolDef.verb, ToolDef.explain): what the card says before the subject ("This will
    # write:"), and why a tool that asks before every call does ("it deletes data/; ...").
    verb: str = ""
    explained: str = ""
    # How the subject reads (ToolDef.subject_kind): "code" is shown as Python, coloured, on the card.
    kind: str = "text"

    @property
    def why(self) -> str:
        """Why it asks, in one plain sentence for the person deciding (``reason`` keeps the rules' own words)."""
        # Imported by the first ask, not by every new Agent (its phrase tables are ~1.5 ms of a cold start).
        from zeph_nb.gates.approval.explain import plain_reason

        return plain_reason(self.tool, self.subjects, self.reasons or (self.reason,), self.extras, self.explained)

    @property
    def summary(self) -> str:
        """One line for a prompt: ``bash: cargo test && rm -rf build``."""
        shown = self.params.get("command")
        return f"{self.tool}: {shown if isinstance(shown, str) else ', '.join(self.subjects)}"


@dataclass(frozen=True)
class ApprovalDecision:
    """An approver's answer. ``by`` names who decided (a person, ``DenyAll``, ``timeout``)."""

    approved: bool
    by: str
    remember: bool = False  # "Always allow": persist a grant for the subjects that asked
    note: str | None = None

    @classmethod
    def approve(cls, by: str, *, remember: bool = False) -> ApprovalDecision:
        return cls(True, by, remember)

    @classmethod
    def deny(cls, by: str, note: str | None = None) -> ApprovalDecision:
        return cls(False, by, False, note)


# The name it had before PolicyDecision (the rules' answer) and this one (a person's) could be told apart.
Decision = ApprovalDecision


@runtime_checkable
class Approver(Protocol):
    """Something that answers approval requests."""

    async def decide(self, request: ApprovalRequest) -> ApprovalDecision: ...


class DenyAll:
    """The headless default: nobody is watching, so nothing that needs approval runs."""

    name = "DenyAll"

    async def decide(self, request: ApprovalRequest) -> ApprovalDecision:
        remedy = request.remedy or (
            f"To let it run, add an allow rule under [gates.permissions.{request.tool}] or run with an approver "
            "that can ask a person"
        )
        return ApprovalDecision.deny(
            self.name, f"no one is here to approve it (headless run; DenyAll is the default approver). {remedy}"
        )


class AutoApprove:
    """Approves every ask (denies stay denies). Use only where every possible call is acceptable."""

    def __init__(self, name: str = "AutoApprove") -> None:
        self.name = name

    async def decide(self, request: ApprovalRequest) -> ApprovalDecision:
        return ApprovalDecision.approve(self.name)


Answer = bool | Literal["approve", "deny", "always"] | ApprovalDecision


class ScriptedApprover:
    """Answers requests in order from ``decisions``: True/"approve", False/"deny", "always", or a ApprovalDecision.

    When the list runs out every further request is denied (and says so). ``requests`` keeps what was asked.
    """

    def __init__(self, decisions: Iterable[Answer], *, name: str = "ScriptedApprover") -> None:
        self.decisions: list[Answer] = list(decisions)
        self.name = name
        self.requests: list[ApprovalRequest] = []

    async def decide(self, request: ApprovalRequest) -> ApprovalDecision:
        self.requests.append(request)
        if not self.decisions:
            return ApprovalDecision.deny(self.name, "the scripted approver has no decisions left")
        answer = self.decisions.pop(0)
        if isinstance(answer, ApprovalDecision):
            return answer
        if answer is True or answer == "approve":
            return ApprovalDecision.approve(self.name)
        if answer == "always":
            return ApprovalDecision.approve(self.name, remember=True)
        if answer is False or answer == "deny":
            return ApprovalDecision.deny(self.name)
        raise ValueError(f"ScriptedApprover: {answer!r} is not a decision; use True, False, 'approve', 'deny', "
                         "'always' or an ApprovalDecision")  # fmt: skip


@dataclass
class ConsoleApprover:
    """Asks on the terminal. ``ask`` reads one answer (``input`` by default) and runs in a worker thread, so
    the event loop keeps serving other tasks while the person types."""

    user: str = "console"
    ask: Callable[[str], str] | None = None  # default: the builtin input() at the time of asking
    attempts: int = 3

    async def decide(self, request: ApprovalRequest) -> ApprovalDecision:
        lines = [
            f"zeph-nb wants to run {request.summary}",
            f"  why: {request.why}",
            f"  rule: {request.reason}",
            "  [y]es / [n]o / [a]lways allow: ",
        ]
        prompt = "\n".join(lines)
        for _ in range(self.attempts):
            try:
                answer = (await asyncio.to_thread(self.ask or builtins.input, prompt)).strip().lower()
            except EOFError:  # stdin closed: nobody can answer
                return ApprovalDecision.deny(self.user, "no terminal input to read an answer from")
            if answer in ("y", "yes"):
                return ApprovalDecision.approve(self.user)
            if answer in ("a", "always"):
                return ApprovalDecision.approve(self.user, remember=True)
            if answer in ("n", "no"):
                return ApprovalDecision.deny(self.user)
            prompt = "  please answer y, n or a: "
        return ApprovalDecision.deny(self.user, "no valid answer was given")
