"""Each table's typed record and the schema's column list describe the same row: a field added to one and not
the other fails here, not in a reader at run time."""

from __future__ import annotations

from dataclasses import fields

import pytest

from zeph_nb.store.approvals import RequestRow
from zeph_nb.store.audit_log import AuditRecord
from zeph_nb.store.conversations import ConversationRecord
from zeph_nb.store.grants import GrantRow
from zeph_nb.store.schema import COLUMNS

SPOOLED = {"spool", "seq"}  # every spooled row: which spool, and where in it
SIGNED = {"mac"}  # rows written with append_signed


@pytest.mark.parametrize(
    ("table", "record", "added"),
    [
        ("tool_calls", AuditRecord, {"pid"}),  # AuditLog.record adds the writer's pid
        ("permission_rules", GrantRow, SIGNED),
        ("conversations", ConversationRecord, set()),
        # A request row, plus what answered and closed rows carry (ApprovalRows.answer / close).
        ("approvals", RequestRow, {"event", "ts", "outcome", "decided_by", "note", *SIGNED}),
    ],
)
def test_the_record_and_the_columns_agree(table: str, record: type, added: set[str]) -> None:
    assert {f.name for f in fields(record)} | added | SPOOLED == set(COLUMNS[table])
