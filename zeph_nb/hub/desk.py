"""The review desk: what the hub service reads from and writes to the team's PostgreSQL.

Reads are every user's rows (the service's role is a ``zeph_hub`` member, which row-level security lets read all);
the only write is a reviewer's answer to a waiting request, signed (``security/review_signature.py``) and inserted
only while the request is still waiting: one answer per request, the first one stands.

Who a row belongs to is its ``owner``: the database role whose kernel shipped it, which PostgreSQL fills and holds
(a kernel cannot write rows in another's name). A team names each user's role after their hub user, so ``owner``
is the hub name the service compares with the person logged in; ``hub_user`` is what the kernel said of itself,
shown but never trusted.

Every value here came from a kernel or a model: the service's pages escape all of it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from zeph_nb.security.review_signature import ReviewSigner, request_digest
from zeph_nb.store.team import CONNECT_TIMEOUT_SECS, STATEMENT_TIMEOUT_MS, TCP_OPTIONS
from zeph_nb.store.team_schema import REVIEWS

__all__ = ["CALL_COLUMNS", "CallFilter", "NotWaiting", "Page", "Request", "ReviewDesk"]

# The calls table's columns, in the order the page shows them.
CALL_COLUMNS = ("ts", "owner", "server_name", "tool", "params", "decision", "matched_rule", "approved_by", "status",
                "sandbox", "error_category", "duration_ms", "reason")  # fmt: skip
MAX_CALLS = 500

# Each request with its first closing row and the reviewer's answer. DISTINCT ON keeps one row per request even
# if a spool line was shipped twice under a new identity (it is not: (owner, spool, seq) is unique; belt and
# braces for a request posted twice).
_REQUESTS = f"""
WITH r AS (
  SELECT DISTINCT ON (owner, id) * FROM approvals WHERE event = 'requested' ORDER BY owner, id, ts, seq
), c AS (
  SELECT DISTINCT ON (owner, id) owner, id, outcome, decided_by, note, ts FROM approvals WHERE event = 'closed'
  ORDER BY owner, id, ts, seq
)
SELECT r.owner, r.hub_user, r.server_name, r.id, r.tool, r.summary, r.params, r.subjects, r.rule, r.reason, r.why,
       r.requester, r.ts AS requested_at, r.expires_at, r.grantable,
       c.outcome, c.decided_by, c.note AS closed_note, c.ts AS closed_at,
       a.answer AS review, a.reviewer, a.note AS review_note, a.recorded_at AS reviewed_at
FROM r LEFT JOIN c ON c.owner = r.owner AND c.id = r.id
LEFT JOIN {REVIEWS} a ON a.owner = r.owner AND a.inbox_id = r.id
"""
_NOW = "(now() AT TIME ZONE 'UTC')"
CHOICES_FROM = 20_000
# Every distinct owner by walking the owner index from one to the next (a "loose index scan"): one probe per user.
_OWNERS = """
WITH RECURSIVE o AS (
  (SELECT owner FROM tool_calls ORDER BY owner LIMIT 1)
  UNION ALL
  SELECT (SELECT t.owner FROM tool_calls t WHERE t.owner > o.owner ORDER BY t.owner LIMIT 1) FROM o
  WHERE o.owner IS NOT NULL
)
SELECT owner FROM o WHERE owner IS NOT NULL
"""


@dataclass(frozen=True)
class Page:
    """What one load of the team page shows."""

    waiting: list[Request]
    recent: list[Request]
    calls: list[dict[str, Any]]
    choices: dict[str, list[str]]


class NotWaiting(Exception):
    """The request is not waiting any more (answered, closed or expired): nothing to answer."""


@dataclass(frozen=True)
class Request:
    """One request in some user's inbox, as the service shows it."""

    owner: str
    hub_user: str | None
    server_name: str | None
    id: str
    tool: str
    summary: str
    params: dict[str, Any]
    subjects: list[str]
    rule: str
    why: str
    reason: str
    requested_at: datetime
    expires_at: datetime | None
    state: str  # pending | answered | approved | denied | expired | cancelled
    answered_by: str | None
    note: str | None
    answer: str | None = None  # the reviewer's answer (approve | deny), also while the run has not picked it up
    shown: str = ""  # the digest of the request as this row holds it: what an answer to it is signed over

    @property
    def redacted(self) -> bool:
        """Whether secrets were masked in this copy: then the kernel runs something else than what is shown, and
        refuses an approval of it."""
        return "[REDACTED" in self.summary or "[REDACTED" in json.dumps(self.params, ensure_ascii=False)

    def to_json(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        for key in ("requested_at", "expires_at"):
            value = data[key]
            data[key] = None if value is None else value.isoformat(timespec="seconds") + "Z"
        return data


@dataclass(frozen=True)
class CallFilter:
    """The calls page's filters; empty strings mean any."""

    user: str = ""
    tool: str = ""
    decision: str = ""
    sandbox: str = ""
    attention: bool = False  # only the calls that were refused, denied or asked

    def where(self, only_owner: str | None) -> tuple[str, list[Any]]:
        clauses: list[str] = []
        params: list[Any] = []
        for column, value in (("owner", only_owner or self.user), ("tool", self.tool),
                              ("decision", self.decision), ("sandbox", self.sandbox)):  # fmt: skip
            if value:
                clauses.append(f"{column} = %s")
                params.append(value)
        if self.attention:
            clauses.append(
                "(decision IN ('ask', 'deny') OR status IN ('refused', 'denied') OR approved_by IS NOT NULL)"
            )
        return (" WHERE " + " AND ".join(clauses) if clauses else ""), params


def _state(row: dict[str, Any], now: datetime) -> str:
    outcome = row.get("outcome")
    if outcome:
        return {"approve": "approved", "always": "approved", "deny": "denied"}.get(outcome, str(outcome))
    if row.get("review"):
        return "answered"
    expires = row.get("expires_at")
    if expires is not None and expires <= now:
        return "expired"
    return "pending"


def _request(row: dict[str, Any], now: datetime) -> Request:
    state = _state(row, now)
    by = row.get("decided_by") or (row.get("reviewer") and f"{row['reviewer']} (reviewer)")
    return Request(
        owner=str(row["owner"]), hub_user=row.get("hub_user"), server_name=row.get("server_name"), id=str(row["id"]),
        tool=str(row["tool"]), summary=str(row["summary"]), params=_json(row.get("params"), {}),
        subjects=_json(row.get("subjects"), []), rule=str(row.get("rule") or ""), why=str(row.get("why") or ""),
        reason=str(row.get("reason") or ""), requested_at=row["requested_at"], expires_at=row.get("expires_at"),
        state=state, answered_by=by or None, note=row.get("closed_note") or row.get("review_note"),
        answer=row.get("review"),
        shown=request_digest(str(row["tool"]), str(row["summary"]), str(row.get("params") or ""),
                             str(row.get("subjects") or "")),
    )  # fmt: skip


def _json(text: Any, default: Any) -> Any:
    try:
        value = json.loads(text) if isinstance(text, str) else default
    except ValueError:
        return default
    return value if isinstance(value, type(default)) else default


class ReviewDesk:
    """The service's handle on the team database (``url``, as the service's own login role)."""

    def __init__(self, url: str, signer: ReviewSigner) -> None:
        self.url = url
        self.signer = signer

    def _connect(self) -> Any:
        import psycopg
        from psycopg.rows import dict_row

        return psycopg.connect(self.url, connect_timeout=CONNECT_TIMEOUT_SECS, row_factory=dict_row,
                               application_name="zeph-nb hub service",
                               options=f"-c statement_timeout={STATEMENT_TIMEOUT_MS}",
                               **TCP_OPTIONS)  # type: ignore[arg-type]  # fmt: skip

    def _read(self, sql: str, params: Sequence[Any] = (), *, con: Any = None) -> list[dict[str, Any]]:
        if con is not None:  # one of several reads of a page, on the page's one connection
            return [dict(row) for row in con.execute(sql.encode(), list(params)).fetchall()]
        with self._connect() as own:
            own.read_only = True
            return [dict(row) for row in own.execute(sql.encode(), list(params)).fetchall()]

    def page(self, filters: CallFilter, *, only_owner: str | None) -> Page:
        """Everything the team page shows, read on one connection in one read-only transaction (one snapshot: a
        request shown waiting is not also among the answered ones)."""
        with self._connect() as con:
            con.read_only = True
            with con.transaction():
                con.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                return Page(
                    waiting=self.requests(owner=only_owner, con=con),
                    recent=[r for r in self.requests(owner=only_owner, waiting=False, limit=20, con=con)
                            if r.state != "pending"],
                    calls=self.calls(filters, only_owner=only_owner, con=con),
                    choices=self.choices(only_owner=only_owner, con=con),
                )  # fmt: skip

    # -- reading ---------------------------------------------------------------------------------------------

    def requests(
        self, *, owner: str | None = None, waiting: bool = True, limit: int = 200, con: Any = None
    ) -> list[Request]:
        """Requests, the longest waiting first (``waiting``), or every recent one newest first; ``owner`` limits
        them to one user's."""
        clauses, params = [], []
        if owner is not None:
            clauses.append("r.owner = %s")
            params.append(owner)
        if waiting:
            clauses.append(f"c.id IS NULL AND a.inbox_id IS NULL AND r.expires_at > {_NOW}")
        where = (" WHERE " + " AND ".join(clauses)) if clauses else ""
        order = "r.ts" if waiting else "r.ts DESC"
        rows = self._read(f"{_REQUESTS}{where} ORDER BY {order} LIMIT {int(limit)}", params, con=con)
        now = datetime.now(UTC).replace(tzinfo=None)
        return [_request(row, now) for row in rows]

    def request(self, owner: str, inbox_id: str) -> Request | None:
        rows = self._read(f"{_REQUESTS} WHERE r.owner = %s AND r.id = %s", [owner, inbox_id])
        now = datetime.now(UTC).replace(tzinfo=None)
        return _request(rows[0], now) if rows else None

    def calls(
        self, filters: CallFilter, *, only_owner: str | None, limit: int = MAX_CALLS, con: Any = None
    ) -> list[dict[str, Any]]:
        """Tool calls, newest first; ``only_owner`` confines them to one user's whatever the filters say."""
        where, params = filters.where(only_owner)
        columns = ", ".join(CALL_COLUMNS)
        sql = f"SELECT {columns} FROM tool_calls{where} ORDER BY ts DESC LIMIT {int(limit)}"
        return self._read(sql, params, con=con)

    def choices(self, *, only_owner: str | None, con: Any = None) -> dict[str, list[str]]:
        """The values each filter can take. The users: every owner, found by skipping along the owner index (one
        probe per user, whatever the table's size). Tools, decisions and sandboxes: those of the newest
        CHOICES_FROM calls, so a page load does not read the whole log (measured: bench/hub_bench.py)."""
        names = ("tool", "decision", "sandbox")
        lists = ", ".join(f"array_agg(DISTINCT {name}::text) AS {name}" for name in names)
        where, params = ("WHERE owner = %s", [only_owner]) if only_owner else ("", [])
        recent = f"(SELECT {', '.join(names)} FROM tool_calls {where} ORDER BY ts DESC LIMIT {CHOICES_FROM}) AS r"
        (row,) = self._read(f"SELECT {lists} FROM {recent}", params, con=con)
        found = {name: sorted(v for v in (row[name] or ()) if v is not None)[:200] for name in names}
        if only_owner:
            found["owner"] = [only_owner]
        else:
            owners = self._read(_OWNERS, con=con)
            found["owner"] = [str(r["owner"]) for r in owners if r["owner"] is not None][:1000]
        return found

    # -- answering -------------------------------------------------------------------------------------------

    def answer(self, request: Request, answer: str, *, reviewer: str, note: str | None) -> None:
        """Record ``reviewer``'s signed answer to ``request``; raises NotWaiting when it is not waiting any more
        (someone answered first, its run closed it, or its time is up)."""
        answered_at = datetime.now(UTC).replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"
        fields = {"inbox_id": request.id, "owner": request.owner, "answer": answer, "reviewer": reviewer,
                  "note": note, "answered_at": answered_at, "shown": request.shown}  # fmt: skip
        signature = self.signer.sign(fields)
        with self._connect() as con:
            # Inserted only while the request waits: no closing row, no earlier answer (the key), time not up.
            inserted = con.execute(
                f"""INSERT INTO {REVIEWS} (owner, inbox_id, hub_user, answer, reviewer, note, answered_at, signature,
                                           shown)
                SELECT %s, %s, %s, %s, %s, %s, %s, %s, %s
                WHERE EXISTS (SELECT 1 FROM approvals WHERE owner = %s AND id = %s AND event = 'requested'
                              AND expires_at > {_NOW})
                  AND NOT EXISTS (SELECT 1 FROM approvals WHERE owner = %s AND id = %s AND event = 'closed')
                ON CONFLICT (owner, inbox_id) DO NOTHING RETURNING inbox_id""".encode(),
                [request.owner, request.id, request.hub_user, answer, reviewer, note, answered_at, signature,
                 request.shown, request.owner, request.id, request.owner, request.id],
            ).fetchall()  # fmt: skip
        if not inserted:
            now = self.request(request.owner, request.id)
            state = now.state if now is not None else "gone"
            by = f" by {now.answered_by}" if now is not None and now.answered_by else ""
            raise NotWaiting(f"{request.summary} is {state}{by}; nothing to answer")
