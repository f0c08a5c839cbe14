"""``%zeph memory``: the notes the model kept with memory_save, as a table (a pandas DataFrame), and deleting them.

``%zeph memory`` shows the notes of this project folder (of every folder with ``[memory] scope = "user"``), newest
first; ``%zeph memory delete ID [ID …]`` deletes notes by id (a unique start of one will do), and ``%zeph memory
delete --all`` every note shown. The table is rendered escaped, cell by cell: a note is text a model wrote.
"""

from __future__ import annotations

import html
import json
import os
from typing import TYPE_CHECKING, Any, ClassVar

from zeph_nb.errors import ZephError
from zeph_nb.notebook.tables import folded_table_html

if TYPE_CHECKING:
    from zeph_nb.agent.loop import Agent
    from zeph_nb.config import Settings
    from zeph_nb.store.memories import MemoryRows

__all__ = ["memory_command"]

USAGE = "%zeph memory | %zeph memory delete ID [ID …] | %zeph memory delete --all"
_FOLD = {"text": 160, "tags": 40, "project": 40}
_SHARE = {"id": 10, "saved (UTC)": 12, "tags": 12, "text": 50, "project": 16}


def memory_command(args: list[str], agent: Agent | None) -> Any:
    """What ``%zeph memory …`` shows or says (a DataFrame for the table, None after a deletion)."""
    from zeph_nb.config import Settings
    from zeph_nb.store.memories import MemoryRows
    from zeph_nb.store.store import Store

    settings = agent.settings if agent is not None else Settings.load()
    store = agent.store if agent is not None else Store(settings)
    folder = os.path.realpath(agent.workdir if agent is not None else os.getcwd())
    try:
        return _command(args, MemoryRows(store), settings, folder if settings.memory.scope == "project" else None)
    finally:
        if agent is None:  # a store of its own, before the first run: its deletion rows are copied in now
            store.close()


def _command(args: list[str], rows: MemoryRows, settings: Settings, project: str | None) -> Any:
    if not args:
        return _table(rows, settings, project)
    if args[0] != "delete" or len(args) < 2:
        raise ZephError(f"say {USAGE}")
    if args[1:] == ["--all"]:
        ids = [str(i) for i in rows.live(settings.user, project)["id"]]
    else:
        ids = [_whole_id(rows, prefix, settings.user) for prefix in args[1:]]
    gone = rows.delete(ids, user=settings.user, by=settings.user)
    where = "this project's" if project is not None else "your"
    print(f"deleted {gone} of {where} notes" + ("" if gone else " (there were none)"))
    return None


def _whole_id(rows: MemoryRows, prefix: str, user: str) -> str:
    found = rows.ids_starting(prefix, user)
    if not found:
        raise ZephError(f"no note of yours has an id starting {prefix!r} (%zeph memory lists them)")
    if len(found) > 1:
        raise ZephError(f"{prefix!r} starts {len(found)} ids ({', '.join(found[:5])}); type more of it")
    return found[0]


def _table(rows: MemoryRows, settings: Settings, project: str | None) -> Any:
    import pandas as pd

    from zeph_nb.store.memories import COLUMNS_SHOWN

    full = rows.live(settings.user, project)[list(COLUMNS_SHOWN)]
    shown = pd.DataFrame({
        "id": full["id"],
        "saved (UTC)": full["created_at"].dt.floor("s"),
        "tags": full["tags"].map(lambda t: ", ".join(json.loads(t)) if isinstance(t, str) else ""),
        "text": full["text"],
        **({"project": full["project"]} if project is None else {}),
    })  # fmt: skip
    where = "this project" if project is not None else "every project"
    off = "" if settings.memory.enabled else " ([memory] enabled is false: the model neither saves nor searches)"

    class MemoryNotes(pd.DataFrame):  # type: ignore[misc]  # pandas is untyped here (ignore_missing_imports)
        _metadata: ClassVar[list[str]] = ["full", "note"]

        @property
        def _constructor(self) -> Any:
            return pd.DataFrame

        def __repr__(self) -> str:
            with pd.option_context("display.max_rows", None, "display.width", 250, "display.max_colwidth", 80):
                return f"{pd.DataFrame(self).to_string(index=False)}\n{self.note}"

        def _repr_html_(self) -> str:
            frame = pd.DataFrame(self).astype(object)
            frame = frame.where(frame.notna(), "")
            return folded_table_html(frame, kind="memory", shares=_SHARE, default_share=10, folds=_FOLD,
                                     note=html.escape(self.note))  # fmt: skip

    notes = MemoryNotes(shown)
    notes.full = full
    notes.note = (f"{len(shown)} notes of {settings.user} in {where}, newest first; every column: .full; "
                  f"%zeph memory delete ID{off}")  # fmt: skip
    return notes
