"""Undoing a run: which run, what it changed (the ``file_changes`` rows ``gates/undo.py`` recorded), the plan for it
(``restore.plan_undo``), and carrying it out from the store's blobs with an audit row. Front-ends
(``notebook/undo.py``, ``%zeph undo``) show the plan and ask; nothing here asks anyone."""

from __future__ import annotations

import json
import os
import uuid
from dataclasses import dataclass, field

from zeph_nb.errors import ZephError
from zeph_nb.store.audit_log import AuditLog, AuditRecord
from zeph_nb.store.snapshots import FileChanges
from zeph_nb.store.store import Store
from zeph_nb.undo.restore import Change, UndoPlan, UndoReport, apply_plan, plan_undo
from zeph_nb.undo.states import PathState

__all__ = ["RunUndo", "describe_plan", "describe_report", "prepare_undo", "shown_path"]

AUDIT_TOOL = "%zeph undo"
_MAX_LISTED = 200  # paths named in the audit row's params; the count is always whole


@dataclass
class RunUndo:
    """A run's undo, planned: the plan and what undo cannot follow (remote commands, scans cut short)."""

    plan: UndoPlan
    started: str = ""
    calls: int = 0
    not_followed: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.plan.steps

    def apply(self, store: Store, *, by: str, conversation_id: str | None = None) -> UndoReport:
        """Carry out the plan and record it in the audit log (tool ``%zeph undo``, approved by ``by``)."""
        changes = FileChanges(store)
        report = apply_plan(self.plan, changes.blobs.get)
        params = {
            "run_id": self.plan.run_id,
            "done": [f"{s.action} {s.path}" for s in report.done][:_MAX_LISTED],
            "refused": [f"{path}: {why}" for path, why in self.plan.refused][:_MAX_LISTED],
            "failed": [f"{path}: {why}" for path, why in report.failed][:_MAX_LISTED],
        }
        AuditLog(store).record(AuditRecord(
            tool=AUDIT_TOOL, params=params, call_id=uuid.uuid4().hex, conversation_id=conversation_id,
            run_id=self.plan.run_id, status="error" if report.failed else "ok", decision="allow", approved_by=by,
            reason=f"{len(report.done)} done, {len(self.plan.refused)} refused, {len(report.failed)} failed",
        ))  # fmt: skip
        return report


def prepare_undo(store: Store, run_id: str | None = None, *, pid: int | None = None) -> RunUndo:
    """The plan for undoing ``run_id`` (a unique prefix will do), or the latest run that changed files — of the
    process ``pid`` when given (``%zeph undo`` gives its kernel's: another notebook's run is undone only by its
    id). Raises ZephError saying what to do when there is no such run."""
    changes = FileChanges(store)
    if run_id is None:
        runs = changes.runs(limit=1, pid=pid)
        if runs.empty:
            elsewhere = pid is not None and not changes.runs(limit=1).empty
            raise ZephError("no run in this kernel has changed files: there is nothing to undo here"
                            + ("; runs of other notebooks are undone by their id (%zeph undo --list)" if elsewhere
                               else ""))  # fmt: skip
        run_id = str(runs.iloc[0]["run_id"])
    else:
        found = changes.run_ids(run_id)
        if not found:
            raise ZephError(f"no run {run_id!r} changed files (%zeph undo --list shows the runs that did)")
        if len(found) > 1:
            raise ZephError(f"{run_id!r} starts {len(found)} run ids ({', '.join(found[:5])}); type more of it")
        run_id = found[0]
    frame = changes.of_run(run_id)
    workdir = str(frame.iloc[0]["workdir"])
    recorded: list[Change] = []
    not_followed: list[str] = []
    for row in frame.itertuples(index=False):
        if isinstance(row.path, str) and isinstance(row.before, str) and isinstance(row.after, str):
            recorded.append(Change(row.path, PathState.from_json(row.before), PathState.from_json(row.after)))
        elif isinstance(row.note, str) and row.note not in not_followed:
            not_followed.append(f"{row.tool}: {row.note}")
    plan = plan_undo(run_id, workdir, recorded, has_blob=changes.blobs.has)
    return RunUndo(plan, started=f"{frame.iloc[0]['ts']:%Y-%m-%d %H:%M:%S}", calls=frame["call_id"].nunique(),
                   not_followed=not_followed)  # fmt: skip


def shown_path(path: str, workdir: str) -> str:
    """A path as a person reads it: relative to the working directory, quoted when it holds control
    characters (a newline in a name must not look like two paths)."""
    relative = os.path.relpath(path, workdir)
    return json.dumps(relative, ensure_ascii=False) if not relative.isprintable() else relative


_VERBS = {"restore": "restore", "delete": "delete", "relink": "relink", "recreate": "recreate"}


def describe_plan(undo: RunUndo) -> list[str]:
    """The plan in lines a person reads before saying yes."""
    plan = undo.plan
    lines = [f"Undo run {plan.run_id} (started {undo.started} UTC, {undo.calls} call{'s' * (undo.calls != 1)}) "
             f"in {plan.workdir}:"]  # fmt: skip
    for step in sorted(plan.steps, key=lambda s: s.path):
        what = {
            "restore": f"back to the {step.before.describe()}",
            "delete": "a folder the run created" if step.current.kind == "dir" else "the run created it",
            "relink": f"back to the {step.before.describe()}",
            "recreate": "the folder the run removed",
        }[step.action]
        lines.append(f"  {_VERBS[step.action]:9}{shown_path(step.path, plan.workdir)}  ({what})")
    if not plan.steps:
        lines.append("  nothing to do: " + ("every path the run changed is already as it was before"
                                            if plan.unchanged else "no path can be put back"))  # fmt: skip
    elif plan.unchanged:
        lines.append(f"  ({len(plan.unchanged)} path{'s' * (len(plan.unchanged) != 1)} already as before the run)")
    if plan.refused:
        lines.append("Left as they are (undo refuses them):")
        lines += [f"  {shown_path(path, plan.workdir)}: {why}" for path, why in plan.refused]
    if undo.not_followed:
        lines.append("Not followed, so not undone (undo works only on files in this machine's working directory):")
        lines += [f"  {note}" for note in undo.not_followed]
    return lines


def describe_report(undo: RunUndo, report: UndoReport) -> list[str]:
    counts: dict[str, int] = {}
    for step in report.done:
        counts[step.action] = counts.get(step.action, 0) + 1
    done = ", ".join(f"{_past(action)} {n}" for action, n in counts.items()) or "nothing changed"
    lines = [f"Undid run {undo.plan.run_id}: {done}."]
    if report.failed:
        lines.append("Could not:")
        lines += [f"  {shown_path(path, undo.plan.workdir)}: {why}" for path, why in report.failed]
    if undo.plan.refused:
        lines.append(f"Left {len(undo.plan.refused)} changed path{'s' * (len(undo.plan.refused) != 1)} as they are.")
    return lines


def _past(action: str) -> str:
    return {"restore": "restored", "delete": "deleted", "relink": "relinked", "recreate": "recreated"}[action]
