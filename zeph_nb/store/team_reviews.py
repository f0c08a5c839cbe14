"""Reviewers' answers to this kernel's requests, read from the team's PostgreSQL (the kernel's side of the hub).

A request waiting in the inbox reaches the team database like every other row, shipped from the spool. A reviewer
answers it on the hub service (``zeph_nb.hub``), which records the answer in ``review_answers``, signed with the
hub's key. The waiting run polls here: row-level security shows the kernel only answers to its own role's
requests, and an answer counts only when its signature verifies with ``[gates.approval] review_key``.

A database that does not answer is not an answer: the run keeps waiting (until its approval times out) and the
poll tries again.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from zeph_nb.security.review_signature import verify_answer
from zeph_nb.store.team import CONNECT_TIMEOUT_SECS, TCP_OPTIONS
from zeph_nb.store.team_schema import REVIEWS

if TYPE_CHECKING:
    import psycopg

__all__ = ["ReviewAnswer", "TeamReviews"]

log = logging.getLogger("zeph_nb.gates")


@dataclass(frozen=True)
class ReviewAnswer:
    """A reviewer's verified answer: ``approve`` or ``deny``, by the reviewer's hub name."""

    answer: str
    reviewer: str
    note: str | None
    answered_at: str


class TeamReviews:
    """Polls ``review_answers`` for one kernel over one kept connection (opened on first use)."""

    def __init__(self, url: str, review_key: str) -> None:
        self.url = url
        self.review_key = review_key
        self._con: psycopg.Connection[Any] | None = None
        self._lock = threading.Lock()
        self._warned: set[str] = set()
        self.last_error: str | None = None

    def answer_to(self, inbox_id: str, posted: str = "") -> ReviewAnswer | None:
        """The verified answer to ``inbox_id``, or None (none yet, the database unreachable, or not signed).
        ``posted`` is the digest of the request as this kernel posted it: an approval of anything else (a row
        someone wrote under the same id, a copy with masked secrets) comes back as a deny saying so."""
        with self._lock:
            try:
                row = self._fetch(inbox_id)
            except Exception as e:  # psycopg's errors; the next poll tries again on a new connection
                self._drop()
                first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
                if type(e).__name__ == "UndefinedTable":  # a database set up by a zeph-nb from before the hub
                    first = (f"it has no {REVIEWS} table: ask its administrator to run `zeph-nb team-db setup`, "
                             "then reviewers' answers arrive")  # fmt: skip
                if self.last_error != first:
                    log.warning("zeph-nb: cannot read reviewers' answers from the team database (%s); still "
                                "waiting", first)  # fmt: skip
                self.last_error = first
                return None
            self.last_error = None
        if row is None:
            return None
        if not verify_answer(self.review_key, row, row.get("signature")):
            if inbox_id not in self._warned:
                self._warned.add(inbox_id)
                log.warning("zeph-nb: ignored an answer to request %s in the team database: it is not signed with "
                            "the hub's review_key; nothing it says is applied", inbox_id)  # fmt: skip
            return None
        answer = ReviewAnswer(str(row["answer"]), str(row["reviewer"]), row.get("note"), str(row["answered_at"]))
        # Unconditional: a caller that cannot say what it posted gets no approval from here.
        if row.get("shown") != posted and answer.answer == "approve":
            why = ("the reviewer saw a different copy of this request (secrets masked on the way to the team "
                   "database, or a row written under its id), so the approval is not of what would run")  # fmt: skip
            log.warning("zeph-nb: %s approved request %s, but %s; it is denied", answer.reviewer, inbox_id, why)
            return ReviewAnswer("deny", answer.reviewer, why, answer.answered_at)
        return answer

    def _fetch(self, inbox_id: str) -> dict[str, Any] | None:
        import psycopg
        from psycopg.rows import dict_row

        if self._con is None or self._con.closed:
            self._con = psycopg.connect(self.url, connect_timeout=CONNECT_TIMEOUT_SECS, autocommit=True,
                                        application_name="zeph-nb review poll", row_factory=dict_row,
                                        **TCP_OPTIONS)  # type: ignore[arg-type]  # fmt: skip
        # Row-level security shows only this role's requests' answers; owner is checked again by the signature.
        cursor = self._con.execute(
            f"SELECT owner, inbox_id, answer, reviewer, note, answered_at, signature, shown FROM {REVIEWS} "
            "WHERE inbox_id = %s AND owner = session_user",
            [inbox_id],
            prepare=True,
        )
        row = cursor.fetchone()
        return dict(row) if row is not None else None

    def _drop(self) -> None:
        if self._con is not None:
            with contextlib.suppress(Exception):
                self._con.close()
        self._con = None

    def close(self) -> None:
        with self._lock:
            self._drop()
