"""The approval inbox: how a run nobody is watching (papermill, nbclient, a scheduled notebook) gets a person's answer.

``InboxApprover`` posts each ask to the inbox — rows in the store's ``approvals`` table — and waits. A person opens
the server extension's dashboard (``<base_url>/zeph/``), sees the request and answers it; the server writes the
answer as another row, and the run, polling, picks it up and goes on. Nobody answering before
``gates.approval.timeout_secs`` is a denial, like every other approver's timeout.

The kernel and the server are different processes, often started by different tools, and the store is the one
thing they share. Its rows are durable at once (each process has its own spool) and every reader sees every
process's spooled rows, so an answer reaches the run within one poll, whether or not it has been flushed into
the database yet. Rows are only ever added:

* ``requested`` — written by the run: what would run, why it asks, who asks, until when it waits.
* ``answered`` — written by whoever answers (the server, for a dashboard click): approve, always or deny, by whom.
  The run acts on the earliest answer.
* ``closed`` — written by the run when it stops waiting: what it did (approve, always, deny, expired, cancelled)
  and on whose word. A request with no ``closed`` row whose process is gone, or whose time is up, is not pending.

On a team's hub the requests also reach the team's PostgreSQL (shipped like every row), and the team's reviewers
answer them on the hub service (``zeph_nb.hub``): with ``[gates.approval] review_key`` set, the run also polls the
reviewers' signed answers (``store/team_reviews.py``). With ``decided_by = "reviewers"`` (a managed setting) only
those count: the user's own dashboard refuses to answer, and a local answer is not read.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import uuid
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Literal, cast

from zeph_nb.config import Settings
from zeph_nb.errors import ZephError
from zeph_nb.gates.approval import ApprovalDecision, ApprovalRequest
from zeph_nb.security.journal import process_alive
from zeph_nb.security.review_signature import request_digest
from zeph_nb.store.approvals import ApprovalRows, RequestRow
from zeph_nb.store.store import Store, StoreBusy, utc_now

if TYPE_CHECKING:
    import pandas as pd

    from zeph_nb.store.team_reviews import TeamReviews

__all__ = ["ApprovalClosed", "Inbox", "InboxApprover", "InboxItem", "ReviewersDecide", "UnknownApproval"]

log = logging.getLogger("zeph_nb.gates")

Answer = Literal["approve", "always", "deny"]
ANSWERS: tuple[str, ...] = ("approve", "always", "deny")
# What an item can be. pending: waiting for an answer; answered: answered, the run has not picked it up yet;
# approved / denied: the run acted on an answer; expired: nobody answered in time; cancelled: the run stopped
# waiting (Stop, shutdown); abandoned: the process that asked is gone without saying.
STATES = ("pending", "answered", "approved", "denied", "expired", "cancelled", "abandoned")


class UnknownApproval(ZephError):
    """No request with that id is in the inbox."""


class ApprovalClosed(ZephError):
    """The request is not waiting for an answer any more (answered, expired, or its run is gone)."""


class ReviewersDecide(ZephError):
    """The managed settings say the team's reviewers answer asks; a user's own dashboard cannot."""


@dataclass(frozen=True)
class InboxItem:
    """One request and what became of it."""

    id: str
    state: str  # one of STATES
    tool: str
    summary: str
    params: dict[str, Any]
    subjects: list[str]
    rule: str
    reason: str
    requester: str
    conversation_id: str | None
    call_id: str
    requested_at: datetime
    expires_at: datetime | None
    host: str
    pid: int | None
    answer: str | None = None  # the earliest answer given: approve | always | deny
    answered_by: str | None = None
    answered_at: datetime | None = None
    outcome: str | None = None  # what the run did, once it stopped waiting
    decided_by: str | None = None
    note: str | None = None
    closed_at: datetime | None = None
    grantable: bool = True  # False: "Always allow" is not offered (a command outside the sandbox asks every time)
    why: str = ""  # why it asks, in one plain sentence, as the run said it when it posted the request

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict; times as ISO 8601 UTC with a ``Z``."""
        data = asdict(self)
        # The plain sentence the dashboard leads with; the reason (extras first, see ``request``) stays as written.
        data["why"] = self.why or self.reason  # a row from before the plain sentences: the rules' words
        for key, value in data.items():
            if isinstance(value, datetime):
                data[key] = value.isoformat(timespec="milliseconds") + "Z"
        return data


def _time(value: Any) -> datetime | None:
    import pandas as pd

    return None if value is None or pd.isna(value) else value.to_pydatetime()


def _flag(value: Any, *, default: bool) -> bool:
    """A BOOLEAN column read back (numpy bool, NA or None for rows written before the column existed)."""
    import pandas as pd

    return default if value is None or pd.isna(value) else bool(value)


def _text(value: Any) -> str | None:
    import pandas as pd

    return None if value is None or (not isinstance(value, str) and pd.isna(value)) else str(value)


class Inbox:
    """The inbox in one store: post requests, answer them, list them. Safe to share between threads."""

    def __init__(self, store: Store, *, reviewers_decide: bool = False) -> None:
        self.store = store
        self.reviewers_decide = reviewers_decide
        self.posted: dict[str, str] = {}  # inbox id -> the digest of the request as this process posted it
        self.rows = ApprovalRows(store)  # the table's owner: every row and query goes through it
        # One answer at a time in this process, so two clicks on the same request cannot both be recorded as
        # the deciding one. (Across processes the run acts on the earliest answer and says whose it was.)
        self._answering = threading.Lock()

    # -- the run's side ------------------------------------------------------------------------------------

    def post(self, request: ApprovalRequest, *, requester: str, expires_at: datetime) -> str:
        """Add a request; returns its inbox id."""
        inbox_id = uuid.uuid4().hex
        row = RequestRow(
            id=inbox_id,
            conversation_id=request.conversation_id,
            call_id=request.call_id,
            tool=request.tool,
            summary=request.summary,
            params=dict(request.params),
            subjects=request.subjects,
            rule=request.rule,
            # The dashboard shows the reason: what the call gets beyond the sandbox goes with it.
            reason="; ".join([*request.extras, request.reason]) if request.extras else request.reason,
            requester=requester,
            expires_at=expires_at,
            grantable=bool(request.asking),
            why=request.why,
        )
        self.rows.request(row)
        # What a reviewer on the hub must have seen for their approval to count (store/team_reviews.py).
        self.posted[inbox_id] = request_digest(row.tool, row.summary, json.dumps(dict(row.params), default=str),
                                               json.dumps(list(row.subjects)))  # fmt: skip
        return inbox_id

    def first_answer(self, inbox_id: str) -> tuple[Answer, str, str | None] | None:
        """(answer, by, note) of the earliest answer to ``inbox_id`` signed with the store's key, or None while
        there is none. Unsigned rows (appended to a spool by something other than zeph-nb) are ignored, and so is
        every local answer when reviewers decide."""
        if self.reviewers_decide:
            return None
        for row in self.rows.answers(inbox_id):
            answer = str(row["outcome"])
            if answer not in ANSWERS:  # never read something else as a yes
                return "deny", str(row["decided_by"]), f"unreadable answer {answer!r}"
            return cast(Answer, answer), str(row["decided_by"]), _text(row["note"])
        return None

    def record_review(self, inbox_id: str, answer: str, *, by: str, note: str | None) -> None:
        """Keep a reviewer's verified answer (from the team database) as this inbox's answer, signed locally, so
        the dashboard and the local log say who answered."""
        self.rows.answer(inbox_id, answer, by=by, note=note)

    def close(self, inbox_id: str, outcome: str, *, by: str, note: str | None = None) -> None:
        """Record what the run did about ``inbox_id``; it is no longer pending."""
        self.rows.close(inbox_id, outcome, by=by, note=note)

    # -- the person's side ---------------------------------------------------------------------------------

    def answer(self, inbox_id: str, answer: str, *, by: str, note: str | None = None) -> InboxItem:
        """Answer a pending request: ``approve``, ``always`` (approve and keep a grant) or ``deny``."""
        if answer not in ANSWERS:
            raise ValueError(f"answer must be one of {', '.join(ANSWERS)}, not {answer!r}")
        if self.reviewers_decide:
            raise ReviewersDecide(
                'the team\'s reviewers answer requests here (gates.approval.decided_by = "reviewers" in the managed '
                "settings); answer on the hub's zeph_nb_hub service page if you are one"
            )
        with self._answering:
            item = self.get(inbox_id)
            if item is None:
                raise UnknownApproval(f"no approval request {inbox_id!r} in the inbox")
            if item.state != "pending":
                who = item.decided_by or item.answered_by
                raise ApprovalClosed(f"{item.summary} is {item.state}{f' by {who}' if who else ''}; nothing to answer")
            self.rows.answer(inbox_id, answer, by=by, note=note)
        answered = self.get(inbox_id)
        assert answered is not None
        return answered

    # -- reading -------------------------------------------------------------------------------------------

    def get(self, inbox_id: str) -> InboxItem | None:
        items = self.items(self.rows.items(self.rows.one_query(inbox_id)))
        return items[0] if items else None

    def pending(self) -> list[InboxItem]:
        """Requests waiting for an answer, oldest first (the one that has waited longest is on top)."""
        return self.items(self.rows.items(self.pending_query()), pending_only=True)

    def recent(self, limit: int = 50) -> list[InboxItem]:
        """Every request, newest first, with what became of it."""
        return self.items(self.rows.items(self.recent_query(limit)))

    # The SQL of pending() and recent(), for a caller batching them with other reads (Store.query_many); turn
    # the frames into items with items().

    def pending_query(self) -> tuple[str, list[Any]]:
        # Answered ones are left out by items(pending_only=True), which checks the answer's signature.
        return self.rows.pending_query()

    def recent_query(self, limit: int = 50) -> tuple[str, list[Any]]:
        return self.rows.recent_query(limit)

    def items(self, frame: pd.DataFrame, *, pending_only: bool = False) -> list[InboxItem]:
        """The items in a frame of ``pending_query``/``recent_query`` rows, each with its state as of now.
        An answer whose signature does not check is not an answer."""
        now = utc_now()
        items = []
        for row in frame.itertuples(index=False):
            if _text(row.answer) is not None and not self.rows.answer_is_signed(row):
                row = row._replace(answer=None, answered_by=None, answer_note=None, answered_at=None)
            expires_at = _time(row.expires_at)
            pid = None if row.pid is None or row.pid != row.pid else int(row.pid)  # NaN != NaN
            outcome = _text(row.outcome)
            if outcome is not None:
                state = {"approve": "approved", "always": "approved", "deny": "denied"}.get(outcome, outcome)
            elif _text(row.answer) is not None:
                state = "answered"
            elif expires_at is not None and expires_at <= now:
                state = "expired"
            elif not process_alive(str(row.host), pid):
                state = "abandoned"
            else:
                state = "pending"
            if pending_only and state != "pending":
                continue
            items.append(
                InboxItem(
                    id=str(row.id), state=state, tool=str(row.tool), summary=str(row.summary),
                    params=json.loads(row.params or "{}"), subjects=json.loads(row.subjects or "[]"),
                    rule=str(row.rule), reason=str(row.reason), requester=str(row.requester),
                    conversation_id=_text(row.conversation_id), call_id=str(row.call_id),
                    requested_at=_time(row.requested_at) or now, expires_at=expires_at, host=str(row.host), pid=pid,
                    answer=_text(row.answer), answered_by=_text(row.answered_by), answered_at=_time(row.answered_at),
                    outcome=outcome, decided_by=_text(row.decided_by),
                    note=_text(row.closed_note) or _text(row.answer_note), closed_at=_time(row.closed_at),
                    grantable=_flag(row.grantable, default=True), why=_text(row.why) or "",
                )
            )  # fmt: skip
        return items


class InboxApprover:
    """Posts each ask to the approval inbox and waits for a person to answer it from the dashboard.

    For runs nobody watches: ``%%zeph --approve inbox``, or ``Agent(..., approver=InboxApprover())`` in a script.
    The answer is polled every ``poll_interval`` seconds. A request nobody answers is denied when the approval
    gate's time is up (``gates.approval.timeout_secs``); a stopped run withdraws its request.
    """

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        store: Store | None = None,
        poll_interval: float = 0.5,
        requester: str | None = None,
    ) -> None:
        if poll_interval <= 0:
            raise ValueError(f"poll_interval must be > 0 seconds, got {poll_interval}")
        self.settings = settings or Settings.load()
        approval = self.settings.gates.approval
        # Constructing a Store opens nothing; the first request creates this process's spool.
        self.inbox = Inbox(store if store is not None else Store(self.settings),
                           reviewers_decide=approval.decided_by == "reviewers")  # fmt: skip
        self.poll_interval = poll_interval
        self.requester = requester
        self.name = "InboxApprover"
        # Shown by front-ends while a call waits (the notebook transcript): where a person gives the answer, and
        # that place under the Jupyter server's base URL (the transcript makes it a link when it knows the server).
        self.where = "in the approval inbox of the zeph dashboard (zeph/ on your Jupyter server)"
        self.link: str | None = "zeph/#inbox"
        self.on_hub = False  # the link is under the hub's base URL, not this server's
        self.reviews: TeamReviews | None = None
        if approval.review_key and self.settings.store.audit_url:
            from zeph_nb.store.team_reviews import TeamReviews

            self.reviews = TeamReviews(self.settings.store.audit_url, approval.review_key)
            if self.inbox.reviewers_decide:
                self.where = "by a team reviewer on the hub's review page (the zeph_nb_hub service)"
                self.link, self.on_hub = approval.review_page, True
            else:
                self.where += ", or by a team reviewer on the hub"

    async def decide(self, request: ApprovalRequest) -> ApprovalDecision:
        inbox = self.inbox
        requester = self.requester or self.settings.user
        timeout = self.settings.gates.approval.timeout_secs
        expires_at = request.expires_at or utc_now() + timedelta(seconds=timeout)
        inbox_id = await asyncio.to_thread(inbox.post, request, requester=requester, expires_at=expires_at)
        # For whoever reads a headless run's log (INFO: a notebook's cell output is no place for it, and the
        # transcript's card already says it waits and where).
        until = expires_at.strftime("%H:%M:%S")
        log.info("zeph-nb: %s waits for approval in the inbox until %s UTC; answer it on the dashboard, "
                 "<base URL of the Jupyter server>/zeph/ (request %s)", request.summary, until, inbox_id)  # fmt: skip
        try:
            while utc_now() < expires_at:
                try:
                    found = await asyncio.to_thread(inbox.first_answer, inbox_id)
                except StoreBusy as e:  # someone holds the database; the answer will still be there next poll
                    log.info("zeph-nb: inbox poll: %s", e)
                    found = None
                if found is None and self.reviews is not None:
                    found = await asyncio.to_thread(self._reviewed, inbox_id)
                if found is not None:
                    answer, by, note = found
                    inbox.close(inbox_id, answer, by=by, note=note)
                    if answer == "deny":
                        return ApprovalDecision.deny(by, note)
                    return ApprovalDecision.approve(by, remember=answer == "always")
                await asyncio.sleep(self.poll_interval)
        except asyncio.CancelledError:
            # The approval gate's deadline (wait_for cancels us) or the run being stopped.
            expired = utc_now() >= expires_at
            inbox.close(inbox_id, "expired" if expired else "cancelled", by="timeout" if expired else requester)
            raise
        inbox.close(inbox_id, "expired", by="timeout")
        return ApprovalDecision.deny(
            "timeout", f"nobody answered in the inbox within {timeout:g}s (gates.approval.timeout_secs)"
        )

    def _reviewed(self, inbox_id: str) -> tuple[Answer, str, str | None] | None:
        """A reviewer's verified answer from the team database, kept as this inbox's answer; None while none."""
        assert self.reviews is not None
        review = self.reviews.answer_to(inbox_id, self.inbox.posted.get(inbox_id, "-"))
        if review is None:
            return None
        by = f"{review.reviewer} (reviewer, on the hub)"
        answer = cast(Answer, review.answer if review.answer in ("approve", "deny") else "deny")
        self.inbox.record_review(inbox_id, answer, by=by, note=review.note)
        return answer, by, review.note
