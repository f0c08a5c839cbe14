"""The ``kept_tasks`` table: scheduled tasks the person chose to keep across kernels (``%zeph jobs keep``).

A kept task is a row of its whole schedule; resuming and forgetting it add rows (``resumed``, ``forgotten``), so
the table is also the record of who kept, started and dropped what, and when. Rows are only ever added, and each
is signed with the store's key (``security/mac.py``) as grants are: a kept task starts agent runs once a person
resumes it, so a row written by anything but zeph-nb (a command that reached the spool or the file) is left out,
with a warning once. Its text passes the store's one redaction choke point (``Store.append``) like every stored
row, before it is signed: what is signed, listed and resumed is the redacted prompt. Nothing outside ``store/``
writes or queries the table.
"""

from __future__ import annotations

import socket
import uuid
from dataclasses import asdict, dataclass, replace
from datetime import datetime
from typing import Any

from zeph_nb.security.secrets import redact_row
from zeph_nb.store.records import KeptTaskRow
from zeph_nb.store.store import Store

__all__ = ["KeptTask", "KeptTaskRow", "KeptTasks", "new_kept_id"]

TABLE = "kept_tasks"
SIGNED = ("id", "event", "ts", "user_name", "project", "prompt", "kind", "interval_secs", "max_runs", "runs",
          "due_at", "scheduled_by", "task_id", "note")  # fmt: skip
_NUMBERS = ("interval_secs", "max_runs", "runs")


def new_kept_id() -> str:
    """``k`` and seven hex digits: short to type after ``%zeph jobs resume``, told apart from a kernel's ``t1``."""
    return "k" + uuid.uuid4().hex[:7]


@dataclass(frozen=True)
class KeptTask:
    """A kept task as the next kernel reads it: its ``kept`` row and the latest time it was resumed."""

    id: str
    kept_at: datetime
    user_name: str
    project: str
    prompt: str
    kind: str
    interval_secs: float
    max_runs: int | None
    runs: int
    due_at: datetime | None
    scheduled_by: str | None
    task_id: str | None
    last_resumed: datetime | None = None
    last_resumed_where: str | None = None  # "host pid N" of that kernel


def _present(value: Any) -> bool:
    return value is not None and value == value and str(value) != "NaT"


def _signed_form(row: dict[str, Any]) -> dict[str, Any]:
    """The row as its MAC covers it: numbers in one spelling whether just written (600, 3) or read back from a
    column with NULLs (600.0, 3.0 as floats)."""
    out = dict(row)
    for name in _NUMBERS:
        value: Any = out.get(name)
        out[name] = repr(float(value)) if _present(value) else None
    return out


class KeptTasks:
    def __init__(self, store: Store) -> None:
        self.store = store

    def add(self, row: KeptTaskRow) -> None:
        """Append one signed row: redacted first, so the MAC is of what is kept."""
        data = {key: value for key, value in asdict(row).items() if value is not None}
        data.setdefault("host", socket.gethostname())
        clean = redact_row(data, self.store.secret_patterns)
        mac = self.store.signer.sign(TABLE, _signed_form(clean), SIGNED)
        self.store.append(TABLE, {**clean, "mac": mac})

    def _rows(self, user: str, project: str) -> list[dict[str, Any]]:
        frame = self.store.query(
            "SELECT * FROM kept_tasks WHERE user_name = ? AND project = ? ORDER BY ts, seq", [user, project]
        )
        signer, rows = self.store.signer, []
        for raw in frame.to_dict("records"):
            if not signer.verify(TABLE, _signed_form(raw), SIGNED, raw.get("mac")):
                signer.warn_once("kept task row", str(raw.get("id")))
                continue
            rows.append(raw)
        return rows

    def live(self, user: str, project: str) -> list[KeptTask]:
        """The user's kept tasks of ``project`` (a canonical folder), oldest first: kept and not forgotten."""
        kept: dict[str, KeptTask] = {}
        for raw in self._rows(user, project):
            task_id = str(raw["id"])
            if raw["event"] == "kept" and _present(raw["prompt"]):
                kept[task_id] = KeptTask(
                    id=task_id,
                    kept_at=raw["ts"].to_pydatetime(),
                    user_name=str(raw["user_name"]),
                    project=str(raw["project"]),
                    prompt=str(raw["prompt"]),
                    kind=str(raw["kind"]),
                    interval_secs=float(raw["interval_secs"]),
                    max_runs=int(raw["max_runs"]) if _present(raw["max_runs"]) else None,
                    runs=int(raw["runs"]) if _present(raw["runs"]) else 0,
                    due_at=raw["due_at"].to_pydatetime() if _present(raw["due_at"]) else None,
                    scheduled_by=str(raw["scheduled_by"]) if _present(raw["scheduled_by"]) else None,
                    task_id=str(raw["task_id"]) if _present(raw["task_id"]) else None,
                )
            elif raw["event"] == "forgotten":
                kept.pop(task_id, None)
            elif raw["event"] == "resumed" and task_id in kept:
                where = f"{raw['host']} pid {int(raw['pid'])}" if _present(raw["pid"]) else None
                kept[task_id] = replace(kept[task_id], last_resumed=raw["ts"].to_pydatetime(), last_resumed_where=where)
        return list(kept.values())
