"""The audit log as pandas DataFrames: ``frame(**filters)`` and ``sql(query)``.

Every tool call is a row of ``tool_calls`` (its queries live with the table, in ``store/audit_log.py``); these
helpers read the shared DuckDB file plus the rows still in spools, so a running kernel's calls are visible at once
from any other process. Nothing here ever locks the file for longer than one query. With ``[store] audit_url``
set they read the team's PostgreSQL instead (``team=False`` keeps to the local file).

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


def sql(
    query: str, params: list[Any] | None = None, *, settings: Settings | None = None, team: bool | None = None
) -> pd.DataFrame:
    """Run SQL over ``tool_calls``, ``conversations``, ``permission_rules``, ``approvals`` and ``file_changes``
    (and, locally, ``overflow``).

    With ``[store] audit_url`` set this reads the team's PostgreSQL (``team=False``: this kernel's own DuckDB
    cache): PostgreSQL SQL with ``%s`` placeholders, and the database's row-level security decides which rows the
    connecting role sees — its own, or everyone's for a reviewer. Otherwise it is DuckDB SQL with ``?``."""
    settings = settings or Settings.load()
    if _team(settings, team):
        from zeph_nb.store.team import team_query

        return team_query(str(settings.store.audit_url), query, params)
    return _store(settings).query(query, params)


def _team(settings: Settings, team: bool | None) -> bool:
    if team and not settings.store.audit_url:
        raise ValueError("team=True needs a team database: set [store] audit_url (docs: Teams, docs/guide/teams.md)")
    return bool(settings.store.audit_url) if team is None else team


def _generated(query: str, params: list[Any], settings: Settings, team: bool | None) -> pd.DataFrame:
    """Run a query this module wrote with ``?`` placeholders, on whichever database ``sql`` would read."""
    if _team(settings, team):
        query = query.replace("?", "%s")  # our own text: no literal holds a ? or a %
    return sql(query, params, settings=settings, team=team)


def frame(
    *,
    since: str | datetime | None = None,
    until: str | datetime | None = None,
    limit: int | None = 1000,
    offset: int = 0,
    settings: Settings | None = None,
    team: bool | None = None,
    **filters: str,
) -> pd.DataFrame:
    """Audit rows, newest first. Filters: tool, decision, status, category, conversation, approved_by, caller,
    mcp_server (each an exact value), ``since``/``until`` (datetimes or ISO strings, UTC), ``limit`` (None: all) and
    ``offset`` for paging. ``team`` as for ``sql``: the team's rows carry ``owner``, ``hub_user`` and
    ``server_name``."""
    query, params = frame_query(since=since, until=until, limit=limit, offset=offset, **filters)
    return _generated(query, params, settings or Settings.load(), team)


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
    team: bool | None = None, **filters: str,
) -> int:  # fmt: skip
    """How many audit rows match the filters (for paging)."""
    query, params = count_query(since=since, until=until, **filters)
    return int(_generated(query, params, settings or Settings.load(), team)["n"][0])
