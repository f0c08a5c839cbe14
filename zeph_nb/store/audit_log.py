"""AuditLog: one row per tool call, secrets redacted, durable before the caller goes on."""

from __future__ import annotations

import json
import logging
import sys
import threading
from datetime import datetime
from pathlib import Path
from typing import Any

from zeph_nb.security.secrets import redact
from zeph_nb.store.records import ToolCallRow
from zeph_nb.store.store import Store

__all__ = [
    "FILTERS",
    "AuditLog",
    "AuditRecord",
    "ToolCallRow",
    "aggregate_queries",
    "count_query",
    "page_query",
    "where",
]


log = logging.getLogger("zeph_nb.store")

AuditRecord = ToolCallRow  # the table's record (store/records.py), by the name callers know


class AuditLog:
    def __init__(self, store: Store, *, copy_to: str | None = None) -> None:
        self.store = store
        # [audit] destination: "stdout", or a file each row is appended to as a JSON line as well.
        self.copy_to = None if copy_to is None or copy_to == "stdout" else _under(store.home, copy_to)
        self.to_stdout = copy_to == "stdout"
        self._lock = threading.Lock()
        self._warned = False

    def record(self, record: AuditRecord) -> None:
        """Append the row to this process's spool: once this returns, a SIGKILL cannot lose it."""
        row = dict(vars(record))  # shallow: asdict() would deep-copy params only to serialise them below
        row["params"] = redact(json.dumps(record.params, ensure_ascii=False, default=str, sort_keys=True))
        self.store.append("tool_calls", row)
        if self.copy_to is not None or self.to_stdout:
            self._copy(json.dumps(row, ensure_ascii=False, default=str) + "\n")

    def _copy(self, line: str) -> None:
        """The copy never costs the row (already durable) nor the call: a failure is logged once."""
        try:
            with self._lock:
                if self.to_stdout:
                    # The process's own stdout (the terminal that started Jupyter), never a cell's output.
                    stdout = sys.__stdout__
                    if stdout is not None:
                        stdout.write(line)
                        stdout.flush()
                else:
                    assert self.copy_to is not None
                    self.copy_to.parent.mkdir(parents=True, exist_ok=True)
                    with self.copy_to.open("a", encoding="utf-8") as out:
                        out.write(line)
        except OSError as e:
            if not self._warned:
                self._warned = True
                log.warning("zeph-nb: [audit] destination %s cannot be written (%s); the audit log still "
                            "has every row", self.copy_to or "stdout", e)  # fmt: skip


def _under(home: Path, destination: str) -> Path:
    path = Path(destination).expanduser()
    return path if path.is_absolute() else home / path


# -- reading: the table's queries (zeph_nb.audit and the server extension run them) ---------------------------

# The filters a reader may give, and the column each one compares.
FILTERS = {
    "tool": "tool",
    "decision": "decision",
    "status": "status",
    "category": "error_category",
    "error_category": "error_category",
    "conversation": "conversation_id",
    "conversation_id": "conversation_id",
    "approved_by": "approved_by",
    "caller": "caller_id",
    "mcp_server": "mcp_server",
}


def where(
    *, since: str | datetime | None = None, until: str | datetime | None = None, **filters: str
) -> tuple[str, list[Any]]:
    """The WHERE clause (or "") and its parameters for the filters; an unknown filter is a TypeError naming
    the known ones."""
    clauses: list[str] = []
    params: list[Any] = []
    for name, value in filters.items():
        column = FILTERS.get(name)
        if column is None:
            allowed = ", ".join(sorted({*FILTERS, "since", "until", "limit", "offset"}))
            raise TypeError(f"no audit filter {name!r}; use one of: {allowed}")
        clauses.append(f"{column} = ?")
        params.append(value)
    for bound, op in ((since, ">="), (until, "<")):
        if bound is not None:
            clauses.append(f"ts {op} CAST(? AS TIMESTAMP)")
            params.append(bound.isoformat() if isinstance(bound, datetime) else bound)
    return (f"WHERE {' AND '.join(clauses)}" if clauses else ""), params


def page_query(
    *, since: str | datetime | None = None, until: str | datetime | None = None, limit: int | None = 1000,
    offset: int = 0, **filters: str,
) -> tuple[str, list[Any]]:  # fmt: skip
    """Matching rows, newest first, one page (``limit`` None: all)."""
    clause, params = where(since=since, until=until, **filters)
    tail = f"LIMIT {int(limit)}" if limit is not None else ""
    if offset:
        tail += f" OFFSET {int(offset)}"
    return f"SELECT * FROM tool_calls {clause} ORDER BY ts DESC, seq DESC {tail}", params


def count_query(
    *, since: str | datetime | None = None, until: str | datetime | None = None, **filters: str
) -> tuple[str, list[Any]]:
    clause, params = where(since=since, until=until, **filters)
    return f"SELECT count(*) AS n FROM tool_calls {clause}", params


def aggregate_queries(
    *, since: str | datetime | None = None, until: str | datetime | None = None, **filters: str
) -> list[tuple[str, list[Any]]]:
    """Calls, failures, time and tokens saved per tool; calls per error category."""
    clause, params = where(since=since, until=until, **filters)
    by_tool = (
        "SELECT tool, count(*) AS calls, count(*) FILTER (WHERE status = 'error') AS errors, "
        "count(*) FILTER (WHERE status = 'denied') AS denied, "
        "count(*) FILTER (WHERE status IN ('cancelled', 'abandoned')) AS cancelled, sum(duration_ms) AS duration_ms, "
        f"sum(tokens_saved) AS tokens_saved FROM tool_calls {clause} GROUP BY tool ORDER BY calls DESC, tool"
    )
    by_category = (
        f"SELECT coalesce(error_category, 'none') AS category, count(*) AS calls FROM tool_calls {clause} "
        "GROUP BY ALL ORDER BY calls DESC, category"
    )
    return [(by_tool, params), (by_category, params)]
