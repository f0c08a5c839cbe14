"""The audit log as pandas DataFrames: ``frame(**filters)`` and ``sql(query)``.

Every tool call is a row of ``tool_calls`` (its queries live with the table, in ``store/audit_log.py``); these
helpers read the shared DuckDB file plus the rows still in
spools, so a running kernel's calls are visible at once from any other process. Nothing here ever locks the
file for longer than one query.

    >>> zeph_nb.audit.frame(tool="bash", since="2026-11-01")
    >>> zeph_nb.audit.sql("SELECT tool, count(*) AS calls FROM tool_calls GROUP BY tool")
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from zeph_nb.config import Settings
from zeph_nb.store.audit_log import count_query, page_query, where

if TYPE_CHECKING:
    import pandas as pd

    from zeph_nb.store.store import Store

__all__ = ["count", "csv_safe", "frame", "frame_query", "sql", "where"]

# A spreadsheet runs a cell that starts with one of these as a formula (=HYPERLINK(...), +cmd|...).
_FORMULA_LEADS = ("=", "+", "-", "@", "\t", "\r")


def _store(settings: Settings | None) -> Store:
    from zeph_nb.store.store import Store

    return Store(settings or Settings.load(), flusher=False)


def sql(query: str, params: list[Any] | None = None, *, settings: Settings | None = None) -> pd.DataFrame:
    """Run DuckDB SQL over ``tool_calls``, ``overflow``, ``conversations``, ``permission_rules`` and
    ``approvals``."""
    return _store(settings).query(query, params)


def frame(
    *,
    since: str | datetime | None = None,
    until: str | datetime | None = None,
    limit: int | None = 1000,
    offset: int = 0,
    settings: Settings | None = None,
    **filters: str,
) -> pd.DataFrame:
    """Audit rows, newest first. Filters: tool, decision, status, category, conversation, approved_by, caller,
    mcp_server (each an exact value), ``since``/``until`` (datetimes or ISO strings, UTC), ``limit`` (None: all) and
    ``offset`` for paging."""
    query, params = frame_query(since=since, until=until, limit=limit, offset=offset, **filters)
    return sql(query, params, settings=settings)


def frame_query(
    *, since: str | datetime | None = None, until: str | datetime | None = None, limit: int | None = 1000,
    offset: int = 0, **filters: str,
) -> tuple[str, list[Any]]:  # fmt: skip
    """The SQL and parameters ``frame`` runs, for callers batching several reads (``Store.query_many``)."""
    return page_query(since=since, until=until, limit=limit, offset=offset, **filters)


def csv_safe(rows: pd.DataFrame) -> str:
    """The rows as CSV a spreadsheet opens as data: a text cell that starts like a formula (``=``, ``+``, ``-``,
    ``@``, a tab or a carriage return) gets a leading apostrophe, as spreadsheets themselves write it. Numbers are
    left as they are (-9 stays -9); the text the model chose is what needs it."""
    from pandas.api import types

    safe = rows.copy()
    for column in safe.columns:
        if not types.is_numeric_dtype(safe[column]) and not types.is_datetime64_any_dtype(safe[column]):
            safe[column] = safe[column].map(
                lambda value: "'" + value if isinstance(value, str) and value.startswith(_FORMULA_LEADS) else value
            )
    return str(safe.to_csv(index=False))


def count(
    *, since: str | datetime | None = None, until: str | datetime | None = None, settings: Settings | None = None,
    **filters: str,
) -> int:  # fmt: skip
    """How many audit rows match the filters (for paging)."""
    return int(sql(*count_query(since=since, until=until, **filters), settings=settings)["n"][0])
