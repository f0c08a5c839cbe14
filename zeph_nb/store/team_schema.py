"""The team's PostgreSQL schema: the same recorded migrations as the local DuckDB file, then the team's shape.

Who may do what is PostgreSQL's business, not Python's:

- every shipped table gains ``owner`` (the database role that inserted the row, ``DEFAULT current_user`` and held
  to it by a policy, so a kernel cannot write rows in another's name), ``hub_user`` and ``server_name`` (what the
  kernel says of itself, for reading) and ``shipped_at`` (when the row reached the database, for lag);
- a row's identity is ``(owner, spool, seq)``: a spool line is shipped at least once and stored once;
- row-level security: ``zeph_writer`` members insert their own rows and read only those; ``zeph_reviewer``
  members read every row; nobody but the tables' owner updates or deletes (the log is append-only);
- ``review_answers``, the one table the team database has that a kernel's store does not: the answers reviewers
  give on the hub service (``zeph_nb.hub``) to requests waiting in any user's inbox. Only ``zeph_hub`` members
  (the service's login role) insert them, one per request; a writer reads the answers to its own requests.

``zeph-nb team-db setup`` applies all of it as the database's owner; kernels never run DDL.
"""

from __future__ import annotations

import re
from typing import Any

from zeph_nb.store.schema import COLUMNS, MIGRATIONS

__all__ = [
    "HUB_ROLE", "READER_ROLE", "REVIEWS", "SHIPPED", "TEAM_COLUMNS", "WRITER_ROLE", "grant_role", "migrate_team",
    "schema_version",
]  # fmt: skip

WRITER_ROLE = "zeph_writer"
READER_ROLE = "zeph_reviewer"
HUB_ROLE = "zeph_hub"  # the hub service: reads every row, and is the only one that records reviewers' answers
REVIEWS = "review_answers"

# answered_at is the text the hub service signed (security/review_signature.py), so it is kept as written;
# recorded_at is the database's own clock. The primary key makes the first answer to a request the only one.
_REVIEWS_DDL = f"""
CREATE TABLE IF NOT EXISTS {REVIEWS} (
  owner NAME NOT NULL,
  inbox_id VARCHAR NOT NULL,
  hub_user VARCHAR,
  answer VARCHAR NOT NULL CHECK (answer IN ('approve', 'deny')),
  reviewer VARCHAR NOT NULL,
  note VARCHAR,
  answered_at VARCHAR NOT NULL,
  signature VARCHAR NOT NULL,
  shown VARCHAR,
  recorded_by NAME NOT NULL DEFAULT session_user,
  recorded_at TIMESTAMP NOT NULL DEFAULT (clock_timestamp() AT TIME ZONE 'UTC'),
  PRIMARY KEY (owner, inbox_id)
)"""

# The overflow table stays local: it holds whole command outputs (megabytes a call), which the team's log does not
# need to say what happened; the row in tool_calls names its overflow_id. So do the memories: a person's notes for
# their own runs, which %zeph memory deletes, not a record for reviewers (the memory_save call itself is shipped).
SHIPPED: tuple[str, ...] = tuple(table for table in COLUMNS if table not in ("overflow", "memories"))

# Columns the team's tables have beyond the local ones; the shipper fills hub_user and server_name.
# owner is the login role (session_user), not current_user: a writer that runs SET ROLE zeph_writer must not write
# rows in the group's name, which every other writer could then read.
TEAM_COLUMNS: dict[str, str] = {
    "owner": "NAME NOT NULL DEFAULT session_user",
    "hub_user": "VARCHAR",
    "server_name": "VARCHAR",
    "shipped_at": "TIMESTAMP NOT NULL DEFAULT (clock_timestamp() AT TIME ZONE 'UTC')",
}


def postgres_sql(duckdb_sql: str) -> str:
    """A frozen DuckDB migration as PostgreSQL: the only type the two spell differently is DOUBLE."""
    return re.sub(r"\bDOUBLE\b(?!\s+PRECISION)", "DOUBLE PRECISION", duckdb_sql)


def schema_version(con: Any) -> int:
    """The newest local migration applied to the team database (0 when it has none)."""
    row = con.execute(
        "SELECT coalesce(max(version), 0) FROM schema_migrations WHERE version < 100000"
        if _has_table(con, "schema_migrations")
        else "SELECT 0"
    ).fetchone()
    return int(row[0])


def latest_version() -> int:
    return max(version for version, _, _ in MIGRATIONS)


def _has_table(con: Any, name: str) -> bool:
    return con.execute("SELECT to_regclass(%s) IS NOT NULL", [name]).fetchone()[0] is True


def migrate_team(con: Any) -> list[str]:
    """Bring the team database to this version's schema in one transaction; returns what was done. Idempotent."""
    done: list[str] = []
    with con.transaction():
        # One setup at a time: two admins (or a retried deploy job) must not interleave DDL.
        con.execute("SELECT pg_advisory_xact_lock(hashtext('zeph-nb team schema'))")
        con.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name VARCHAR, "
            "applied_at TIMESTAMP)"
        )
        applied = {row[0] for row in con.execute("SELECT version FROM schema_migrations").fetchall()}
        for version, name, sql in MIGRATIONS:
            if version in applied:
                continue
            con.execute(postgres_sql(sql).encode())
            con.execute("INSERT INTO schema_migrations VALUES (%s, %s, now() AT TIME ZONE 'UTC')", [version, name])
            done.append(name)
        for role in (WRITER_ROLE, READER_ROLE, HUB_ROLE):
            if not con.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role]).fetchall():
                con.execute(f"CREATE ROLE {role} NOLOGIN")
                done.append(f"role {role}")
        for table in SHIPPED:
            _shape(con, table)
        _reviews(con)
        done.append(f"team shape of {', '.join(SHIPPED)}, {REVIEWS}")
    return done


def _reviews(con: Any) -> None:
    con.execute(_REVIEWS_DDL)
    con.execute(f"ALTER TABLE {REVIEWS} ADD COLUMN IF NOT EXISTS shown VARCHAR")  # a table from before the digest
    con.execute(f"REVOKE ALL ON {REVIEWS} FROM PUBLIC, {WRITER_ROLE}, {READER_ROLE}, {HUB_ROLE}")
    con.execute(f"GRANT SELECT ON {REVIEWS} TO {WRITER_ROLE}, {READER_ROLE}, {HUB_ROLE}")
    names = "owner, inbox_id, hub_user, answer, reviewer, note, answered_at, signature, shown"
    con.execute(f"GRANT INSERT ({names}) ON {REVIEWS} TO {HUB_ROLE}")
    con.execute(f"ALTER TABLE {REVIEWS} ENABLE ROW LEVEL SECURITY")
    policies = {
        "zeph_hub_answers": f"FOR INSERT TO {HUB_ROLE} WITH CHECK (recorded_by = session_user)",
        "zeph_read_own": f"FOR SELECT TO {WRITER_ROLE} USING (owner = session_user)",
        "zeph_review": f"FOR SELECT TO {READER_ROLE}, {HUB_ROLE} USING (true)",
    }
    _set_policies(con, REVIEWS, policies)


def _shape(con: Any, table: str) -> None:
    """Team columns, the row identity, grants and row-level security of one table (all re-runnable)."""
    for column, kind in TEAM_COLUMNS.items():
        con.execute(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} {kind}")
        default = kind.partition(" DEFAULT ")[2]
        if default:  # a database set up by an earlier version gets this version's default too
            con.execute(f"ALTER TABLE {table} ALTER COLUMN {column} SET DEFAULT {default}")
    con.execute(f"CREATE UNIQUE INDEX IF NOT EXISTS {table}_row_id ON {table} (owner, spool, seq)")
    con.execute(f"CREATE INDEX IF NOT EXISTS {table}_owner_ts ON {table} (owner)")
    # The review page and audit.frame read the newest rows first: without it each read sorts the whole table.
    if "ts" in COLUMNS[table]:
        con.execute(f"CREATE INDEX IF NOT EXISTS {table}_ts ON {table} (ts)")
    con.execute(f"REVOKE ALL ON {table} FROM PUBLIC, {WRITER_ROLE}, {READER_ROLE}, {HUB_ROLE}")
    # A writer names only what the kernel knows: owner and shipped_at are the database's to fill.
    shipped = ", ".join([*COLUMNS[table], "hub_user", "server_name"])
    con.execute(f"GRANT INSERT ({shipped}) ON {table} TO {WRITER_ROLE}")
    con.execute(f"GRANT SELECT ON {table} TO {WRITER_ROLE}, {READER_ROLE}, {HUB_ROLE}")
    con.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
    policies = {
        "zeph_insert_own": f"FOR INSERT TO {WRITER_ROLE} WITH CHECK (owner = session_user)",
        "zeph_read_own": f"FOR SELECT TO {WRITER_ROLE} USING (owner = session_user)",
        "zeph_review": f"FOR SELECT TO {READER_ROLE}, {HUB_ROLE} USING (true)",
    }
    _set_policies(con, table, policies)
    con.execute("REVOKE ALL ON schema_migrations FROM PUBLIC")
    con.execute(f"GRANT SELECT ON schema_migrations TO {WRITER_ROLE}, {READER_ROLE}, {HUB_ROLE}")


def _set_policies(con: Any, table: str, policies: dict[str, str]) -> None:
    """Row-level security policies of ``table``, replaced: a re-run of setup brings this version's."""
    for name, rule in policies.items():
        con.execute(f"DROP POLICY IF EXISTS {name} ON {table}")
        con.execute(f"CREATE POLICY {name} ON {table} {rule}")


def grant_role(con: Any, user: str, *, reviewer: bool, hub: bool = False) -> str:
    """Let the login role ``user`` ship its kernel's rows (and, as a reviewer, read everyone's); with ``hub``, be
    the hub service's role instead (read every row, record reviewers' answers; it ships nothing)."""
    from psycopg import sql

    if not con.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [user]).fetchall():
        raise LookupError(f"there is no database role {user!r}; create it first (CREATE ROLE {user} LOGIN)")
    roles = [HUB_ROLE] if hub else [WRITER_ROLE, READER_ROLE] if reviewer else [WRITER_ROLE]
    for role in roles:
        con.execute(sql.SQL("GRANT {} TO {}").format(sql.Identifier(role), sql.Identifier(user)))
    if hub:
        return f"{user} may now read every row and record reviewers' answers (the hub service's role)"
    return f"{user} may now {'ship its rows and read every row' if reviewer else 'ship and read its own rows'}"
