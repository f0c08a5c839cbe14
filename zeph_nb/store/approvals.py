"""The ``approvals`` table: the approval inbox's rows — a request, the answers given to it, and what the run did.

Rows are events, never updated: ``requested`` (by the run), ``answered`` (by a person; signed with the store's
key, so a row a command slipped into the spool is no answer), ``closed`` (by the run: approved, denied, expired,
cancelled). Nothing outside ``store/`` writes or queries the table; ``gates/approval/inbox.py`` decides what the
rows mean.
"""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from zeph_nb.store.records import ApprovalRow, utc_now
from zeph_nb.store.store import Store

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["ApprovalRow", "ApprovalRows", "RequestRow"]

TABLE = "approvals"
SIGNED = ("id", "event", "outcome", "decided_by", "note")  # what an answer's MAC covers

# Each request with its earliest signed answer and earliest closing row. ORDER BY ts, seq: a spool's seq breaks
# ties between rows one process wrote within the same microsecond.
_ITEMS = """
WITH requested AS (SELECT * FROM approvals WHERE event = 'requested'),
answered AS (
  SELECT id, outcome, decided_by, note, ts, mac FROM approvals WHERE event = 'answered' AND mac IS NOT NULL
  QUALIFY row_number() OVER (PARTITION BY id ORDER BY ts, seq) = 1
),
closed AS (
  SELECT id, outcome, decided_by, note, ts FROM approvals WHERE event = 'closed'
  QUALIFY row_number() OVER (PARTITION BY id ORDER BY ts, seq) = 1
)
SELECT r.id, r.tool, r.summary, r.params, r.subjects, r.rule, r.reason, r.requester, r.conversation_id, r.call_id,
       r.grantable, r.why,
       r.ts AS requested_at, r.expires_at, r.host, r.pid,
       a.outcome AS answer, a.decided_by AS answered_by, a.note AS answer_note, a.ts AS answered_at,
       a.mac AS answer_mac,
       c.outcome AS outcome, c.decided_by AS decided_by, c.note AS closed_note, c.ts AS closed_at
FROM requested r LEFT JOIN answered a ON a.id = r.id LEFT JOIN closed c ON c.id = r.id
"""


@dataclass(frozen=True)
class RequestRow:
    """A call waiting in the inbox, as the run posts it (stored as a ``requested`` ApprovalRow)."""

    id: str
    conversation_id: str | None
    call_id: str
    tool: str
    summary: str
    params: dict[str, Any]
    subjects: Sequence[str]
    rule: str
    reason: str
    requester: str
    expires_at: datetime
    grantable: bool = True
    why: str = ""  # why it asks, in one plain sentence: made by the run, from the gates' own items
    host: str = field(default_factory=socket.gethostname)
    pid: int = field(default_factory=os.getpid)


class ApprovalRows:
    def __init__(self, store: Store) -> None:
        self.store = store

    def request(self, row: RequestRow) -> None:
        data = asdict(row)
        data.update(expires_at=row.expires_at.isoformat(), params=json.dumps(dict(row.params), default=str),
                    subjects=json.dumps(list(row.subjects)))  # fmt: skip
        self.store.append(TABLE, asdict(ApprovalRow(event="requested", **data)))

    def answer(self, inbox_id: str, answer: str, *, by: str, note: str | None) -> None:
        row = ApprovalRow(id=inbox_id, event="answered", outcome=answer, decided_by=by, note=note)
        self.store.append_signed(TABLE, asdict(row), SIGNED)

    def close(self, inbox_id: str, outcome: str, *, by: str, note: str | None) -> None:
        row = ApprovalRow(id=inbox_id, event="closed", outcome=outcome, decided_by=by, note=note)
        self.store.append(TABLE, asdict(row))

    def answers(self, inbox_id: str) -> list[dict[str, Any]]:
        """The signed answers to ``inbox_id``, earliest first (unsigned ones are left out, with a warning once)."""
        frame = self.store.query(
            "SELECT id, event, outcome, decided_by, note, mac FROM approvals WHERE id = ? AND event = 'answered' "
            "ORDER BY ts, seq",
            [inbox_id],
        )
        signed = []
        for row in frame.to_dict("records"):
            if self.store.signer.verify(TABLE, row, SIGNED, row["mac"]):
                signed.append(row)
            else:
                self.store.signer.warn_once("inbox answer to", inbox_id)
        return signed

    def answer_is_signed(self, row: Any) -> bool:
        """Whether the answer joined to an item row (``answer``, ``answered_by``, ``answer_note``) is signed."""
        signed = {"id": row.id, "event": "answered", "outcome": row.answer, "decided_by": row.answered_by,
                  "note": row.answer_note}  # fmt: skip
        if self.store.signer.verify(TABLE, signed, SIGNED, row.answer_mac):
            return True
        self.store.signer.warn_once("inbox answer to", str(row.id))
        return False

    # The item queries: one request a row with its first answer and its closing, as SQL and parameters so a
    # caller can batch them with other reads (Store.query_many).

    def one_query(self, inbox_id: str) -> tuple[str, list[Any]]:
        return self._sql("WHERE r.id = ?", [inbox_id], limit=1)

    def pending_query(self) -> tuple[str, list[Any]]:
        return self._sql("WHERE c.id IS NULL AND r.expires_at > ?", [utc_now()], limit=None, order="r.ts")

    def recent_query(self, limit: int = 50) -> tuple[str, list[Any]]:
        return self._sql("", [], limit=limit)

    def items(self, query: tuple[str, list[Any]]) -> pd.DataFrame:
        return self.store.query(*query)

    @staticmethod
    def _sql(where: str, params: list[Any], *, limit: int | None, order: str = "r.ts DESC") -> tuple[str, list[Any]]:
        return f"{_ITEMS} {where} ORDER BY {order}" + (f" LIMIT {int(limit)}" if limit is not None else ""), params
