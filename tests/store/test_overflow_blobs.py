"""Overflow texts live in files under the store's blobs/ (issue 45), not in DuckDB's row groups: the row keeps the
digest, a missing or changed file is a clear error, rows written before blobs still read, and deleting a row
deletes its file. And a call's outcome keeps only the ends of an output whose whole is stored."""

from __future__ import annotations

import asyncio
import stat
from pathlib import Path

import pytest

from zeph_nb.config import Settings
from zeph_nb.errors import ToolError
from zeph_nb.gates.recording import _slimmed
from zeph_nb.store.store import OverflowUnreadable, Store
from zeph_nb.tools.base import ToolCall, ToolOutput
from zeph_nb.tools.overflow import OverflowExecutor, ReadOverflowArgs


def _store(home: Path) -> Store:
    return Store(Settings.from_toml("").model_copy(update={"home": home}), flusher=False)


def _read(store: Store, overflow_id: str, conversation: str = "c") -> ToolOutput:
    executor = OverflowExecutor(store, conversation)
    return asyncio.run(executor.run(ReadOverflowArgs(id=overflow_id), ToolCall("read_overflow", {}, "r1")))


def test_the_text_is_a_0600_file_under_blobs_and_the_row_keeps_its_digest(tmp_path: Path) -> None:
    store = _store(tmp_path)
    text = "line\n" * 1000 + "password=Zq9!x7Kw2Lp\n"
    oid = store.put_overflow("c", text, tool="bash", call_id="c1")
    store.flush()
    (blob,) = (tmp_path / "blobs").iterdir()
    assert blob.name == oid.removeprefix("overflow:")
    assert stat.S_IMODE(blob.stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "blobs").stat().st_mode) == 0o700
    assert b"Zq9!x7Kw2Lp" not in blob.read_bytes()  # redacted before it is written, like any stored row
    frame = store.query("SELECT content, blob, bytes FROM overflow WHERE id = ?", [oid])
    assert frame["content"][0] is None and len(frame["blob"][0]) == 64 and frame["bytes"][0] == len(text)
    assert store.get_overflow(oid, "c") == blob.read_text()
    assert store.get_overflow(oid, "other") is None
    assert not list((tmp_path / "blobs").glob(".new-*"))  # no temporary file left behind


def test_a_missing_or_changed_file_is_a_clear_refusal(tmp_path: Path) -> None:
    store = _store(tmp_path)
    oid = store.put_overflow("c", "the whole output " * 100)
    blob = tmp_path / "blobs" / oid.removeprefix("overflow:")
    blob.write_text("the whole output, changed on disk")
    with pytest.raises(OverflowUnreadable, match="changed after it was stored"):
        store.get_overflow(oid, "c")
    with pytest.raises(ToolError, match="changed after it was stored"):
        _read(store, oid)
    blob.unlink()
    blob.symlink_to(tmp_path / "zeph.duckdb")  # a link in its place is not followed
    with pytest.raises(ToolError, match="is missing"):
        _read(store, oid)
    blob.unlink()
    with pytest.raises(ToolError, match="is missing"):
        _read(store, oid)


def test_a_row_from_before_blobs_reads_inline_and_deleting_removes_the_file(tmp_path: Path) -> None:
    store = _store(tmp_path)
    new = store.put_overflow("c", "kept in a file")
    store.append("overflow", {"id": "overflow:123e4567-e89b-12d3-a456-426614174000", "conversation_id": "c",
                              "content": "kept inline", "bytes": 11})  # fmt: skip
    store.flush()
    assert _read(store, "overflow:123e4567-e89b-12d3-a456-426614174000").summary == "kept inline"
    assert _read(store, new).summary == "kept in a file"
    store.delete_conversation("c")
    assert list((tmp_path / "blobs").iterdir()) == []
    assert store.get_overflow(new, "c") is None


def test_an_outcome_keeps_the_ends_of_a_stored_output_without_a_piece_of_a_secret() -> None:
    token = "ghp_" + "Zx8Q" * 10
    text = "a line of output\n" * 1000 + "x" * 2990 + " " + token + "\n" + "b\n" * 60_000
    output = ToolOutput("bash", text, {"stdout": text, "exit_code": 0}, exit_code=0)
    kept = _slimmed(output, "overflow:123e4567-e89b-12d3-a456-426614174000")
    assert len(kept.summary) < 45_000 and kept.raw["exit_code"] == 0
    assert "overflow:123e4567-e89b-12d3-a456-426614174000: read_overflow reads it" in kept.raw["stdout"]
    assert kept.summary.startswith("a line of output\n") and kept.summary.endswith("b\n")
    assert "ghp_" not in kept.summary  # the head's end falls inside the token: it ends before it
