"""The ``memories`` table: notes the model kept with ``memory_save``, per user and per project folder.

A note is one row; deleting it adds a second row with its id and ``deleted_at``, then removes the note's text from
the database file. The second row is what makes a deletion hold everywhere: a copy of the note still in another
kernel's spool, copied in later, is hidden by it. The text passes the store's one redaction choke point
(``Store.append``) like every stored row. Nothing outside ``store/`` writes or queries the table.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from zeph_nb.security.secrets import redact_row
from zeph_nb.store.records import MemoryRow, utc_now
from zeph_nb.store.store import Store

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["COLUMNS_SHOWN", "MemoryRow", "MemoryRows", "new_memory_id"]

TABLE = "memories"
# What a person reads of an entry (%zeph memory, the DataFrame): not the vector.
COLUMNS_SHOWN = ("id", "created_at", "user_name", "project", "tags", "text", "run_id", "call_id", "conversation_id")

# The live notes: each id's saving row, unless a deletion row names it. ORDER BY newest first.
_LIVE = """
SELECT m.* FROM memories m
WHERE m.deleted_at IS NULL AND m.text IS NOT NULL AND m.user_name = ? {project}
  AND NOT EXISTS (SELECT 1 FROM memories d WHERE d.id = m.id AND d.deleted_at IS NOT NULL)
ORDER BY m.created_at DESC, m.seq DESC
"""


def new_memory_id() -> str:
    """Twelve hex digits: short enough to type after ``%zeph memory delete``."""
    return uuid.uuid4().hex[:12]


class MemoryRows:
    def __init__(self, store: Store) -> None:
        self.store = store

    def redacted(self, text: str) -> str:
        """``text`` as the store will keep it (what an embedding must be made of, so no vector encodes a secret)."""
        return str(redact_row({"text": text}, self.store.secret_patterns)["text"])

    def save(self, row: MemoryRow) -> None:
        data: dict[str, Any] = asdict(row)
        data["tags"] = json.dumps(list(row.tags), ensure_ascii=False)
        self.store.append(TABLE, data)

    def live(self, user: str, project: str | None) -> pd.DataFrame:
        """The user's notes, newest first: of ``project`` (a canonical folder), or of every folder with None."""
        where, params = ("AND m.project = ?", [user, project]) if project is not None else ("", [user])
        return self.store.query(_LIVE.format(project=where), params)

    def delete(self, ids: Sequence[str], *, user: str, by: str) -> int:
        """Delete the user's notes ``ids`` (whole ids); returns how many were live. Their text leaves the file."""
        if not ids:
            return 0
        marks = ", ".join("?" for _ in ids)
        found = self.store.query(
            f"SELECT DISTINCT id, project FROM ({_LIVE.format(project='')}) WHERE id IN ({marks})", [user, *ids]
        )
        now = utc_now().isoformat()
        for note_id, project in zip(found["id"], found["project"], strict=True):
            self.store.append(TABLE, asdict(MemoryRow(id=str(note_id), user_name=user, project=str(project),
                                                      deleted_at=now, deleted_by=by)))  # fmt: skip
        if len(found):
            marks = ", ".join("?" for _ in range(len(found)))
            self.store.delete_where(TABLE, f"deleted_at IS NULL AND id IN ({marks})", [str(i) for i in found["id"]])
        return len(found)

    def ids_starting(self, prefix: str, user: str) -> list[str]:
        """The user's live notes whose id starts with ``prefix`` (what a person typed)."""
        frame = self.store.query(f"SELECT id FROM ({_LIVE.format(project='')}) WHERE starts_with(id, ?)",
                                 [user, prefix])  # fmt: skip
        return [str(i) for i in frame["id"]]
