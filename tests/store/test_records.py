"""Each table's typed record is its column list: the schema, the frames of unflushed rows and the writers all
follow from it, and the frozen migrations must build exactly what the records say."""

from __future__ import annotations

import typing
from dataclasses import dataclass, fields
from datetime import datetime
from pathlib import Path
from typing import Any

import duckdb
import pytest

from zeph_nb.store.approvals import ApprovalRow, RequestRow
from zeph_nb.store.records import Int32, Timestamp, columns_of
from zeph_nb.store.schema import COLUMNS, migrate


def test_the_migrations_build_what_the_records_describe(tmp_path: Path) -> None:
    con = duckdb.connect(str(tmp_path / "z.duckdb"))
    migrate(con)
    for table, columns in COLUMNS.items():
        built = {name: kind for name, kind, *_ in con.execute(f"DESCRIBE {table}").fetchall()}
        assert built == columns, table  # names, order and types
        assert list(built) == list(columns), table
    con.close()


def test_a_request_is_stored_as_an_approval_row() -> None:
    # Every field the run posts has a column of the approvals table.
    assert {f.name for f in fields(RequestRow)} <= {f.name for f in fields(ApprovalRow)}


def test_types_follow_from_the_annotations() -> None:
    @dataclass(kw_only=True)
    class Row:
        name: str
        count: int
        small: Int32 | None = None
        ratio: float | None = None
        ok: bool = False
        when: datetime | None = None
        iso: Timestamp = ""
        blob: dict[str, Any] | None = None
        items: typing.Sequence[str] = ()

    assert columns_of(Row) == {
        "name": "VARCHAR", "count": "BIGINT", "small": "INTEGER", "ratio": "DOUBLE", "ok": "BOOLEAN",
        "when": "TIMESTAMP", "iso": "TIMESTAMP", "blob": "VARCHAR", "items": "VARCHAR",
    }  # fmt: skip


def test_a_type_with_no_column_type_is_refused_when_the_schema_is_built() -> None:
    @dataclass
    class Row:
        data: bytes

    with pytest.raises(TypeError, match=r"Row.data: no DuckDB type for <class 'bytes'>"):
        columns_of(Row)


def test_unknown_columns_are_refused_by_the_store(tmp_path: Path) -> None:
    from tests.store.test_store import settings_for
    from zeph_nb.store.store import Store

    store = Store(settings_for(tmp_path), flusher=False)
    with pytest.raises(ValueError, match="unknown columns for conversations: colour"):
        store.append("conversations", {"id": "c", "title": "t", "colour": "red"})
