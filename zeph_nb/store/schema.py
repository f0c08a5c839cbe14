"""The DuckDB schema: ordered, recorded migrations. Append a migration; never edit one that has shipped."""

from __future__ import annotations

from typing import Any

from zeph_nb.store.records import (
    ApprovalRow,
    ConversationRow,
    FileChangeRow,
    GrantRow,
    KeptTaskRow,
    MemoryRow,
    OverflowRow,
    ToolCallRow,
    columns_of,
)

__all__ = ["COLUMNS", "MIGRATIONS", "migrate"]

# Columns of the tables written through spools, in order, with their DuckDB types: made from each table's record
# (store/records.py). Spool rows are dicts with these keys; a reader builds typed frames of unflushed rows from them.
COLUMNS: dict[str, dict[str, str]] = {
    "tool_calls": columns_of(ToolCallRow),
    "overflow": columns_of(OverflowRow),
    "permission_rules": columns_of(GrantRow),
    "approvals": columns_of(ApprovalRow),
    "conversations": columns_of(ConversationRow),
    "file_changes": columns_of(FileChangeRow),
    "memories": columns_of(MemoryRow),
    "kept_tasks": columns_of(KeptTaskRow),
}


# Frozen text: COLUMNS describes the latest schema and grows, so no migration may be built from it.
MIGRATIONS: list[tuple[int, str, str]] = [
    (
        1,
        "m001_initial",
        """\
CREATE TABLE conversations (
  id VARCHAR,
  created_at TIMESTAMP,
  title VARCHAR,
  spool VARCHAR,
  seq BIGINT
);
CREATE TABLE tool_calls (
  ts TIMESTAMP,
  conversation_id VARCHAR,
  call_id VARCHAR,
  caller_id VARCHAR,
  tool VARCHAR,
  params VARCHAR,
  status VARCHAR,
  decision VARCHAR,
  matched_rule VARCHAR,
  approved_by VARCHAR,
  exit_code INTEGER,
  truncated BOOLEAN,
  error_category VARCHAR,
  duration_ms DOUBLE,
  raw_bytes BIGINT,
  filtered_bytes BIGINT,
  tokens_saved BIGINT,
  overflow_id VARCHAR,
  filter_rule VARCHAR,
  pid INTEGER,
  spool VARCHAR,
  seq BIGINT
);
CREATE TABLE overflow (
  id VARCHAR,
  conversation_id VARCHAR,
  created_at TIMESTAMP,
  tool VARCHAR,
  call_id VARCHAR,
  content VARCHAR,
  bytes BIGINT,
  truncated BOOLEAN,
  spool VARCHAR,
  seq BIGINT
);
CREATE TABLE permission_rules (
  id VARCHAR,
  tool VARCHAR,
  pattern VARCHAR,
  action VARCHAR,
  granted_by VARCHAR,
  granted_at TIMESTAMP,
  revoked_at TIMESTAMP
);
-- How far each spool file has been copied into the tables; advanced in the same transaction as the rows,
-- so a flush is exactly-once whoever does it and whenever it is interrupted.
CREATE TABLE spool_progress (spool VARCHAR PRIMARY KEY, offset_bytes BIGINT, updated_at TIMESTAMP);
""",
    ),
    (
        2,
        "m002_gates",
        """\
ALTER TABLE tool_calls ADD COLUMN cached BOOLEAN;
ALTER TABLE tool_calls ADD COLUMN attempts INTEGER;
ALTER TABLE tool_calls ADD COLUMN reason VARCHAR;
ALTER TABLE permission_rules ADD COLUMN reason VARCHAR;
ALTER TABLE permission_rules ADD COLUMN spool VARCHAR;
ALTER TABLE permission_rules ADD COLUMN seq BIGINT;
""",
    ),
    (
        3,
        "m003_approvals",
        """\
CREATE TABLE approvals (
  id VARCHAR,
  event VARCHAR,
  ts TIMESTAMP,
  conversation_id VARCHAR,
  call_id VARCHAR,
  tool VARCHAR,
  summary VARCHAR,
  params VARCHAR,
  subjects VARCHAR,
  rule VARCHAR,
  reason VARCHAR,
  requester VARCHAR,
  host VARCHAR,
  pid INTEGER,
  expires_at TIMESTAMP,
  outcome VARCHAR,
  decided_by VARCHAR,
  note VARCHAR,
  spool VARCHAR,
  seq BIGINT
);
""",
    ),
    (
        4,
        "m004_containment",
        """\
ALTER TABLE tool_calls ADD COLUMN sandbox VARCHAR;
ALTER TABLE tool_calls ADD COLUMN network_hosts VARCHAR;
ALTER TABLE permission_rules ADD COLUMN mac VARCHAR;
ALTER TABLE approvals ADD COLUMN mac VARCHAR;
ALTER TABLE approvals ADD COLUMN grantable BOOLEAN;
""",
    ),
    (
        5,
        "m005_waited_ms",
        """\
ALTER TABLE tool_calls ADD COLUMN waited_ms DOUBLE;
""",
    ),
    (
        6,
        "m006_approval_why",
        """\
ALTER TABLE approvals ADD COLUMN why VARCHAR;
""",
    ),
    (
        7,
        "m007_filter_confidence",
        """\
ALTER TABLE tool_calls ADD COLUMN filter_confidence VARCHAR;
""",
    ),
    (
        8,
        "m008_undo",
        """\
ALTER TABLE tool_calls ADD COLUMN run_id VARCHAR;
CREATE TABLE file_changes (
  ts TIMESTAMP,
  run_id VARCHAR,
  conversation_id VARCHAR,
  call_id VARCHAR,
  tool VARCHAR,
  workdir VARCHAR,
  path VARCHAR,
  before VARCHAR,
  after VARCHAR,
  note VARCHAR,
  pid INTEGER,
  spool VARCHAR,
  seq BIGINT
);
""",
    ),
    (
        9,
        "m009_mcp_origin",
        """\
ALTER TABLE tool_calls ADD COLUMN mcp_server VARCHAR;
ALTER TABLE tool_calls ADD COLUMN mcp_tool VARCHAR;
""",
    ),
    (
        10,
        "m010_runs_on_use",
        """\
ALTER TABLE tool_calls ADD COLUMN runs_on_use VARCHAR;
""",
    ),
    (
        11,
        "m011_overflow_blobs",
        """\
ALTER TABLE overflow ADD COLUMN blob VARCHAR;
""",
    ),
    (
        12,
        "m012_memories",
        """\
CREATE TABLE memories (
  id VARCHAR,
  created_at TIMESTAMP,
  user_name VARCHAR,
  project VARCHAR,
  text VARCHAR,
  tags VARCHAR,
  conversation_id VARCHAR,
  run_id VARCHAR,
  call_id VARCHAR,
  embedding VARCHAR,
  embedding_model VARCHAR,
  deleted_at TIMESTAMP,
  deleted_by VARCHAR,
  pid INTEGER,
  spool VARCHAR,
  seq BIGINT
);
""",
    ),
    (
        13,
        "m013_rollback",
        """\
ALTER TABLE tool_calls ADD COLUMN rollback VARCHAR;
""",
    ),
    (
        14,
        "m014_seed_audit_fields",
        """\
ALTER TABLE tool_calls ADD COLUMN trust_level VARCHAR;
ALTER TABLE tool_calls ADD COLUMN result_text VARCHAR;
ALTER TABLE tool_calls ADD COLUMN claim_source VARCHAR;
ALTER TABLE tool_calls ADD COLUMN phases VARCHAR;
""",
    ),
    (
        15,
        "m015_kept_tasks",
        """\
CREATE TABLE kept_tasks (
  id VARCHAR,
  event VARCHAR,
  ts TIMESTAMP,
  user_name VARCHAR,
  project VARCHAR,
  prompt VARCHAR,
  kind VARCHAR,
  interval_secs DOUBLE,
  max_runs INTEGER,
  runs INTEGER,
  due_at TIMESTAMP,
  scheduled_by VARCHAR,
  task_id VARCHAR,
  note VARCHAR,
  host VARCHAR,
  pid INTEGER,
  spool VARCHAR,
  seq BIGINT,
  mac VARCHAR
);
""",
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
