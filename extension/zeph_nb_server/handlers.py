"""The dashboard page and the REST API: audit rows with filters and paging, aggregates, CSV and Parquet export,
overflow by id, and the approval inbox (list, answer).

Errors a caller can fix are 400s that say what to send instead; everything needs Jupyter's token or login.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import tempfile
import threading
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jupyter_server.base.handlers import APIHandler, JupyterHandler
from jupyter_server.extension.handler import ExtensionHandlerJinjaMixin, ExtensionHandlerMixin
from jupyter_server.utils import url_path_join
from tornado import web

if TYPE_CHECKING:
    from zeph_nb.config import Settings
    from zeph_nb.gates.approval.inbox import Inbox

__all__ = ["routes"]

FILTERS = ("tool", "decision", "status", "category", "conversation", "approved_by", "caller")
MAX_LIMIT = 10_000
MAX_NOTE = 2_000  # a reason for the model, not a document: it goes into the tool result the model reads


class ZephHandler(ExtensionHandlerMixin, APIHandler):
    @property
    def zeph(self) -> Settings:
        """The zeph settings ZephExtension read when the server started (never re-read per request)."""
        settings: Settings = self.settings["zeph_settings"]
        return settings

    def filters(self) -> dict[str, Any]:
        """The query's filters, checked: a bad value is a 400 that names it."""
        unknown = set(self.request.arguments) - {*FILTERS, "since", "until", "limit", "offset", "token"}
        if unknown:
            raise web.HTTPError(
                400,
                f"unknown parameter(s) {', '.join(sorted(unknown))}; use {', '.join(FILTERS)}, since, until, "
                "limit, offset",
            )
        chosen: dict[str, Any] = {name: self.get_argument(name) for name in FILTERS if self.get_argument(name, "")}
        for bound in ("since", "until"):
            value = self.get_argument(bound, "")
            if value:
                try:
                    chosen[bound] = datetime.fromisoformat(value.replace("Z", "+00:00")).replace(tzinfo=None)
                except ValueError:
                    raise web.HTTPError(
                        400, f"{bound}={value!r} is not an ISO 8601 time, e.g. 2026-11-22T09:30"
                    ) from None
        return chosen

    def paging(self) -> tuple[int, int]:
        values = []
        for name, default in (("limit", 100), ("offset", 0)):
            raw = self.get_argument(name, str(default))
            if not raw.isdigit():
                raise web.HTTPError(400, f"{name}={raw!r} must be a whole number ≥ 0")
            values.append(int(raw))
        limit, offset = values
        if not 1 <= limit <= MAX_LIMIT:
            raise web.HTTPError(400, f"limit must be between 1 and {MAX_LIMIT}, got {limit}")
        return limit, offset

    async def off_loop(self, work: Callable[[], Any]) -> Any:
        return await asyncio.get_running_loop().run_in_executor(None, work)


def _records(frame: Any) -> list[dict[str, Any]]:
    rows = json.loads(frame.to_json(orient="records", date_format="iso"))
    return [{k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in row.items()} for row in rows]


def _sandbox(settings: Settings) -> dict[str, Any]:
    """Whether shell commands are contained on this machine (the kernels run here too), in words."""
    from zeph_nb.tools.containment import sandbox_status

    status = sandbox_status(settings)
    return {"active": status.active, "kind": status.kind, "description": status.describe(), "cause": status.cause,
            "reason": status.reason, "fix": status.fix}  # fmt: skip


def _managed(settings: Settings) -> dict[str, Any] | None:
    """The organisation's managed settings the server runs under: the file, each key it sets with its value, and the
    lines about user values it set aside; None when there is no managed file."""
    managed = settings.managed
    if managed is None:
        return None
    return {"path": str(managed.path), "values": managed.values, "refused": list(managed.refused)}


def _reader(settings: Settings) -> Any:
    from zeph_nb.store.store import Store

    return Store(settings, flusher=False)


def _audit_queries(filters: dict[str, Any], limit: int, offset: int) -> list[tuple[str, list[Any]]]:
    """The page of rows and the total that match ``filters`` (the queries live with the table)."""
    from zeph_nb.store.audit_log import count_query, page_query

    return [page_query(limit=limit, offset=offset, **filters), count_query(**filters)]


def _aggregate_queries(filters: dict[str, Any]) -> list[tuple[str, list[Any]]]:
    from zeph_nb.store.audit_log import aggregate_queries

    return aggregate_queries(**filters)


def _audit_page(frames: list[Any], limit: int, offset: int) -> dict[str, Any]:
    from zeph_nb.tools.base import call_summary

    rows, total = frames
    records = _records(rows)
    for row in records:  # the call's one-line summary, the same function the notebook's cards title with
        row["what"] = call_summary(row.get("params") or "")
    return {"rows": records, "total": int(total["n"][0]), "limit": limit, "offset": offset}


def _aggregates(frames: list[Any]) -> dict[str, Any]:
    by_tool, by_category = frames
    return {"by_tool": _records(by_tool), "by_category": _records(by_category)}


class AuditHandler(ZephHandler):
    """GET zeph/api/audit: rows, newest first, with filters and paging."""

    @web.authenticated
    async def get(self) -> None:
        filters, (limit, offset) = self.filters(), self.paging()
        frames = await self.off_loop(lambda: _reader(self.zeph).query_many(_audit_queries(filters, limit, offset)))
        self.finish(json.dumps(_audit_page(frames, limit, offset)))


class AggregatesHandler(ZephHandler):
    """GET zeph/api/audit/aggregates: calls, failures, time and tokens saved per tool and per category."""

    @web.authenticated
    async def get(self) -> None:
        filters = self.filters()
        frames = await self.off_loop(lambda: _reader(self.zeph).query_many(_aggregate_queries(filters)))
        self.finish(json.dumps(_aggregates(frames)))


class DashboardDataHandler(ZephHandler):
    """GET zeph/api/dashboard: what the dashboard shows — a page of rows, the aggregates (same filters and
    paging as audit) and the inbox (pending, and the 20 latest requests) — read in one go: one opening of the
    store instead of six, which is most of what a refresh costs."""

    @web.authenticated
    async def get(self) -> None:
        filters, (limit, offset) = self.filters(), self.paging()
        inbox = _inbox(self.zeph)

        def read() -> dict[str, Any]:
            statements = [*_audit_queries(filters, limit, offset), *_aggregate_queries(filters),
                          inbox.pending_query(), inbox.recent_query(20)]  # fmt: skip
            frames = _reader(self.zeph).query_many(statements)
            return {
                "audit": _audit_page(frames[0:2], limit, offset),
                "aggregates": _aggregates(frames[2:4]),
                "approvals": {
                    "pending": [i.to_json() for i in inbox.items(frames[4], pending_only=True)],
                    "recent": [i.to_json() for i in inbox.items(frames[5])],
                },
                "sandbox": _sandbox(self.zeph),
                "managed": _managed(self.zeph),
            }

        self.finish(json.dumps(await self.off_loop(read)))


class ExportHandler(ZephHandler):
    """GET zeph/api/audit.csv or audit.parquet: every matching row (no paging)."""

    @web.authenticated
    async def get(self, kind: str) -> None:
        from zeph_nb import audit

        filters = self.filters()
        settings = self.zeph

        def export() -> bytes:
            # What the dashboard shows: this person's own store, never the team's database.
            frame = audit.frame(limit=None, settings=settings, team=False, **filters)
            if kind == "csv":
                return audit.csv_safe(frame).encode("utf-8")
            import duckdb

            with tempfile.TemporaryDirectory() as tmp:
                path = Path(tmp) / "audit.parquet"
                duckdb.from_df(frame).write_parquet(str(path))
                return path.read_bytes()

        data = await self.off_loop(export)
        media = "text/csv; charset=utf-8" if kind == "csv" else "application/vnd.apache.parquet"
        self.set_header("Content-Disposition", f'attachment; filename="zeph-audit.{kind}"')
        self.finish(data, set_content_type=media)


class OverflowHandler(ZephHandler):
    """GET zeph/api/overflow/<id>?conversation=<id>: a stored output, only with the conversation it belongs to."""

    @web.authenticated
    async def get(self, overflow_id: str) -> None:
        conversation = self.get_argument("conversation", "")
        if not conversation:
            raise web.HTTPError(
                400, "conversation=<id> is required: an overflow is only served within its conversation"
            )
        from zeph_nb.store.store import OverflowUnreadable

        try:
            text = await self.off_loop(lambda: _reader(self.zeph).get_overflow(f"overflow:{overflow_id}", conversation))
        except OverflowUnreadable as e:  # its file under blobs/ is gone or was changed on disk: say so, not a 500
            raise web.HTTPError(410, str(e)) from None
        if text is None:
            raise web.HTTPError(404, f"no overflow:{overflow_id} in conversation {conversation}")
        self.finish(text, set_content_type="text/plain; charset=utf-8")


# -- the approval inbox ----------------------------------------------------------------------------------------

_INBOXES: dict[Path, Inbox] = {}
_INBOXES_GUARD = threading.Lock()


def _inbox(settings: Settings) -> Inbox:
    """This server's inbox: one Store (so one spool for its answers) per store file, for the server's lifetime."""
    from zeph_nb.gates.approval.inbox import Inbox
    from zeph_nb.store.store import Store

    store = Store(settings)
    with _INBOXES_GUARD:
        if store.path not in _INBOXES:
            _INBOXES[store.path] = Inbox(store, reviewers_decide=settings.gates.approval.decided_by == "reviewers")
        return _INBOXES[store.path]


_ANONYMOUS = re.compile(r"[0-9a-f]{32}")


def decided_by(user: Any, settings: Settings) -> str:
    """Who answered, as the audit log should name them. On a hub or with a login, that is the Jupyter user name.
    A token-only server makes up an anonymous user per browser ("Anonymous Io"); the token belongs to whoever runs
    the server, so the record names that person and the browser's made-up name."""
    username = str(getattr(user, "username", "") or "")
    name = str(getattr(user, "name", "") or username)
    if _ANONYMOUS.fullmatch(username) and name.startswith("Anonymous "):
        return f"{settings.user} ({name}, token)"
    return username or "unknown"


class ApprovalsHandler(ZephHandler):
    """GET zeph/api/approvals: pending requests, oldest first; ``?state=all`` for recent ones with their outcome."""

    @web.authenticated
    async def get(self) -> None:
        unknown = set(self.request.arguments) - {"state", "limit", "token"}
        if unknown:
            raise web.HTTPError(400, f"unknown parameter(s) {', '.join(sorted(unknown))}; use state, limit")
        state = self.get_argument("state", "pending")
        if state not in ("pending", "all"):
            raise web.HTTPError(400, f"state={state!r}: use pending (the default) or all")
        limit, _ = self.paging()
        inbox = _inbox(self.zeph)
        items = await self.off_loop(inbox.pending if state == "pending" else lambda: inbox.recent(limit))
        self.finish(json.dumps({"items": [item.to_json() for item in items]}))


class ApprovalHandler(ZephHandler):
    """GET zeph/api/approvals/<id>: one request. POST {"answer": "approve"|"always"|"deny", "note": "…"}: answer it."""

    @web.authenticated
    async def get(self, inbox_id: str) -> None:
        item = await self.off_loop(lambda: _inbox(self.zeph).get(inbox_id))
        if item is None:
            raise web.HTTPError(404, f"no approval request {inbox_id} in the inbox")
        self.finish(json.dumps(item.to_json()))

    @web.authenticated
    async def post(self, inbox_id: str) -> None:
        from zeph_nb.gates.approval.inbox import ANSWERS, ApprovalClosed, ReviewersDecide, UnknownApproval

        try:
            body = json.loads(self.request.body or b"null")
        except ValueError:
            body = None
        if not isinstance(body, dict) or body.get("answer") not in ANSWERS or set(body) - {"answer", "note"}:
            raise web.HTTPError(
                400, 'send a JSON object {"answer": "approve" | "always" | "deny"} (optionally with "note": "…")'
            )
        note = body.get("note")
        if note is not None and (not isinstance(note, str) or len(note) > MAX_NOTE):
            raise web.HTTPError(
                400, f'"note" must be a string of at most {MAX_NOTE} characters (the reason the model reads on a deny)'
            )
        who = decided_by(self.current_user, self.zeph)
        try:
            item = await self.off_loop(
                lambda: _inbox(self.zeph).answer(inbox_id, body["answer"], by=who, note=note or None)
            )
        except UnknownApproval as e:
            raise web.HTTPError(404, str(e)) from None
        except ApprovalClosed as e:
            raise web.HTTPError(409, str(e)) from None
        except ReviewersDecide as e:  # the managed settings: only the team's reviewers answer, on the hub service
            raise web.HTTPError(403, str(e)) from None
        self.log.info("zeph-nb: %s answered %s: %s", who, item.summary, body["answer"])
        self.finish(json.dumps(item.to_json()))


# -- the dashboard page -----------------------------------------------------------------------------------------


class DashboardHandler(ExtensionHandlerJinjaMixin, ExtensionHandlerMixin, JupyterHandler):
    """GET zeph/: the page (templates/dashboard.html, its CSS and ES module from the extension's static files),
    which polls the API above."""

    @web.authenticated
    def get(self) -> None:
        self.set_header("Cache-Control", "no-store")
        # The page's POSTs send the XSRF token back in X-XSRFToken (reading it here also sets the cookie it matches).
        page = self.render_template(
            "dashboard.html",
            base=url_path_join(self.base_url, "zeph") + "/",
            xsrf=self.xsrf_token.decode("ascii"),
            css=self.static_url("dashboard.css"),
            script=self.static_url("dashboard.js"),
        )
        self.finish(page)


def routes() -> list[tuple[str, Any]]:
    """The URL patterns, under the server's base URL (ZephExtension puts them there)."""
    api = url_path_join("zeph", "api")
    return [
        ("zeph/?", DashboardHandler),
        (url_path_join(api, "audit"), AuditHandler),
        (url_path_join(api, "audit", "aggregates"), AggregatesHandler),
        (url_path_join(api, "dashboard"), DashboardDataHandler),
        (url_path_join(api, r"audit\.(csv|parquet)"), ExportHandler),
        (url_path_join(api, r"overflow/overflow:([0-9a-f-]{36})"), OverflowHandler),
        (url_path_join(api, "approvals"), ApprovalsHandler),
        (url_path_join(api, r"approvals/([0-9a-f]{32})"), ApprovalHandler),
    ]
