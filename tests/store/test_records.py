"""Each table's typed record and the schema's column list describe the same row: a field added to one and not
the other fails here, not in a reader at run time."""

from __future__ import annotations

import typing
from dataclasses import fields
from datetime import datetime
from types import NoneType, UnionType
from typing import Any

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


# The DuckDB types a field of each Python type may be stored as. JSON values (params, subjects) are VARCHAR; a
# time a writer sets as ISO text (``ts``, ``created_at``) is still a TIMESTAMP column.
STORED_AS: dict[Any, set[str]] = {
    str: {"VARCHAR", "TIMESTAMP"},
    int: {"INTEGER", "BIGINT"},
    float: {"DOUBLE"},
    bool: {"BOOLEAN"},
    datetime: {"TIMESTAMP"},
    dict: {"VARCHAR"},
    typing.Sequence: {"VARCHAR"},
}


def _base(annotation: Any) -> Any:
    """``str | None`` -> str, ``dict[str, Any]`` -> dict, ``Sequence[str]`` -> Sequence."""
    if isinstance(annotation, UnionType) or typing.get_origin(annotation) is typing.Union:
        (inner,) = [a for a in typing.get_args(annotation) if a is not NoneType]
        return _base(inner)
    origin = typing.get_origin(annotation)
    if origin is not None:
        return typing.Sequence if origin.__name__ == "Sequence" else origin
    return annotation


@pytest.mark.parametrize(
    ("table", "record"),
    [("tool_calls", AuditRecord), ("permission_rules", GrantRow), ("conversations", ConversationRecord),
     ("approvals", RequestRow)],
)  # fmt: skip
def test_each_field_is_stored_as_its_type(table: str, record: type) -> None:
    hints = typing.get_type_hints(record)
    wrong = {
        name: (hints[name], COLUMNS[table][name])
        for name in (f.name for f in fields(record))
        if COLUMNS[table][name] not in STORED_AS[_base(hints[name])]
    }
    assert wrong == {}
