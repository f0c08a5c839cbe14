"""The DuckDB schema: ordered, recorded migrations. Append a migration; never edit one that has shipped."""

from __future__ import annotations

from typing import Any

__all__ = ["COLUMNS", "MIGRATIONS", "migrate"]

# Columns of the tables written through spools, in order, with their DuckDB types. Spool rows are dicts with
# these keys; a reader builds typed frames of unflushed rows from the same list.
COLUMNS: dict[str, dict[str, str]] = {
    "tool_calls": {
        "ts": "TIMESTAMP",  # UTC
        "conversation_id": "VARCHAR",
        "call_id": "VARCHAR",
        "caller_id": "VARCHAR",
        "tool": "VARCHAR",
        "params": "VARCHAR",  # JSON, secrets redacted
        "status": "VARCHAR",  # ok | error | denied | cancelled | abandoned
        "decision": "VARCHAR",  # allow | ask | deny
        "matched_rule": "VARCHAR",
        "approved_by": "VARCHAR",
        "exit_code": "INTEGER",
        "truncated": "BOOLEAN",
        "error_category": "VARCHAR",
        "duration_ms": "DOUBLE",
        "raw_bytes": "BIGINT",
        "filtered_bytes": "BIGINT",
        "tokens_saved": "BIGINT",
        "overflow_id": "VARCHAR",
        "filter_rule": "VARCHAR",
        "pid": "INTEGER",
        "spool": "VARCHAR",
        "seq": "BIGINT",
    },
    "overflow": {
        "id": "VARCHAR",
        "conversation_id": "VARCHAR",
        "created_at": "TIMESTAMP",
        "tool": "VARCHAR",
        "call_id": "VARCHAR",
        "content": "VARCHAR",
        "bytes": "BIGINT",
        "truncated": "BOOLEAN",
        "spool": "VARCHAR",
        "seq": "BIGINT",
    },
    "conversations": {
        "id": "VARCHAR",
        "created_at": "TIMESTAMP",
        "title": "VARCHAR",
        "spool": "VARCHAR",
        "seq": "BIGINT",
    },
}


def _table(name: str) -> str:
    columns = ",\n  ".join(f"{column} {kind}" for column, kind in COLUMNS[name].items())
    return f"CREATE TABLE {name} (\n  {columns}\n);"


MIGRATIONS: list[tuple[int, str, str]] = [
    (
        1,
        "m001_initial",
        "\n".join(
            [
                _table("conversations"),
                _table("tool_calls"),
                _table("overflow"),
                """CREATE TABLE permission_rules (
  id VARCHAR,
  tool VARCHAR,
  pattern VARCHAR,
  action VARCHAR,
  granted_by VARCHAR,
  granted_at TIMESTAMP,
  revoked_at TIMESTAMP
);""",
                # How far each spool file has been copied into the tables; advanced in the same transaction as
                # the rows, so a flush is exactly-once whoever does it and whenever it is interrupted.
                "CREATE TABLE spool_progress (spool VARCHAR PRIMARY KEY, offset_bytes BIGINT, updated_at TIMESTAMP);",
            ]
        ),
    ),
]


def migrate(con: Any) -> list[str]:
    """Apply missing migrations in order inside the caller's transaction; returns the names applied."""
    con.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name VARCHAR, applied_at TIMESTAMP)"
    )
    applied = {row[0] for row in con.execute("SELECT version FROM schema_migrations").fetchall()}
    done = []
    for version, name, sql in MIGRATIONS:
        if version in applied:
            continue
        con.execute(sql)
        con.execute("INSERT INTO schema_migrations VALUES (?, ?, now()::TIMESTAMP)", [version, name])
        done.append(name)
    return done
