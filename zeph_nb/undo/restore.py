"""Putting changed paths back to their captured states: the plan (what will be restored, deleted or refused, and
why) and its application, one path at a time, each atomically (a temporary sibling renamed into place). Both
``%zeph undo`` (a run's changes, read from the store by ``runs.py``) and a shell transaction's rollback
(``transaction.py``: what one failing command changed) go through here.

A path is restored only if it is still exactly as the run left it; one changed since (by the person, or by a
later run) is refused and named, and one already as it was before is left alone, so undoing twice does nothing
the second time. Nothing is done through a symbolic link: a path whose folder is now a link (or not a folder)
counts as absent, and every step checks its folders again just before it acts.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from zeph_nb.undo.states import ABSENT, Capture, PathState

__all__ = ["Change", "Step", "UndoPlan", "UndoReport", "apply_plan", "plan_undo"]

Action = Literal["restore", "delete", "relink", "recreate"]


@dataclass(frozen=True)
class Change:
    """One path a run changed: as it was before the run's first call that touched it, and as the run left it."""

    path: str
    before: PathState
    after: PathState


@dataclass(frozen=True)
class Step:
    path: str
    action: Action
    before: PathState
    current: PathState


@dataclass
class UndoPlan:
    """What undoing a run would do. ``refused``: (path, why) left as they are."""

    run_id: str
    workdir: str
    steps: list[Step] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)  # already as before the run
    refused: list[tuple[str, str]] = field(default_factory=list)

    def count(self, *actions: Action) -> int:
        return sum(1 for step in self.steps if step.action in actions)


@dataclass
class UndoReport:
    done: list[Step] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)


def merge(changes: Iterable[Change]) -> list[Change]:
    """One change per path, in the order given: the first ``before`` and the last ``after``."""
    merged: dict[str, Change] = {}
    for change in changes:
        first = merged.get(change.path)
        merged[change.path] = change if first is None else Change(change.path, first.before, change.after)
    return list(merged.values())


def plan_undo(run_id: str, workdir: str, changes: Sequence[Change], *, has_blob: Callable[[str], bool]) -> UndoPlan:
    """What undoing ``changes`` would do now, given what is on disk (read, never changed)."""
    plan = UndoPlan(run_id, workdir)
    capture = Capture(None)
    merged = merge(changes)
    created = {c.path for c in merged if c.before.kind == "absent" and c.after.kind != "absent"}
    # Files whose earlier content was not kept, by size and mtime (what a rename keeps): a created file that
    # matches one may be its only copy now (the run moved it), and deleting it would lose it.
    lost = {(c.before.size, c.before.mtime_ns): c.path for c in merged if c.before.kind == "file" and not c.before.kept}
    for change in merged:
        path = change.path
        if not _inside(path, workdir):
            plan.refused.append((path, "outside the working directory"))
            continue
        before, after = change.before, change.after
        # Its content is read only to be compared with a hash: a file neither side has one for is told by size and
        # mtime (a new file a failed command left is only deleted, however large).
        current = current_state(path, workdir, capture, read=before.sha256 is not None or after.sha256 is not None)
        if current.same_as(before):
            plan.unchanged.append(path)
        elif not current.same_as(after):
            plan.refused.append((path, f"changed since the run: it is now {current.describe()}, the run left "
                                       f"{after.describe()}"))  # fmt: skip
        elif before.kind == "file" and not (before.kept and before.sha256 and has_blob(before.sha256)):
            plan.refused.append((path, "its earlier content was not kept (over [undo] max_snapshot_bytes, or "
                                       "unreadable)"))  # fmt: skip
        elif before.kind == "other":
            plan.refused.append((path, "it was a special file (a FIFO, socket or device), which undo cannot make"))
        elif before.kind == "absent" and current.kind == "file" and (current.size, current.mtime_ns) in lost:
            origin = lost[(current.size, current.mtime_ns)]
            plan.refused.append((path, f"it may be the only copy of {os.path.relpath(origin, workdir)!r}, whose "
                                       "earlier content was not kept, so it is not deleted"))  # fmt: skip
        elif current.kind == "dir" and before.kind != "dir" and (extra := _extra(path, created)):
            shown = ", ".join(repr(name) for name in extra[:5]) + (" …" if len(extra) > 5 else "")
            plan.refused.append((path, f"the run created this folder, and it now holds what the run did not put "
                                       f"there: {shown}"))  # fmt: skip
        else:
            plan.steps.append(Step(path, _action(before, current), before, current))
    return plan


def current_state(path: str, workdir: str, capture: Capture, *, read: bool = True) -> PathState:
    """``path``'s state, or absent when a folder on the way to it is not a real folder (a link is not followed);
    a file's content is hashed only with ``read``."""
    if not _folders_are_real(path, workdir):
        return ABSENT
    return capture.state(path, read=read)


def apply_plan(plan: UndoPlan, read_blob: Callable[[str], bytes | None]) -> UndoReport:
    """Carry out ``plan``: first remove what is in the way (deepest first), then put back what was there
    (shallowest first), then the folders' modes (deepest first, so a read-only folder is filled before)."""
    report = UndoReport()
    deepest = sorted(plan.steps, key=lambda s: -s.path.count(os.sep))
    failed: set[str] = set()

    def attempt(step: Step, action: Callable[..., object], *args: object) -> None:
        if step.path in failed:
            return
        try:
            if not _folders_are_real(step.path, plan.workdir):
                raise OSError(f"a folder on the way to {step.path!r} is no longer a real folder")
            action(*args)
        except OSError as e:
            failed.add(step.path)
            report.failed.append((step.path, e.strerror or str(e)))

    for step in deepest:
        if step.current.kind == "dir" and step.before.kind != "dir":
            attempt(step, os.rmdir, step.path)
        elif step.current.kind != "absent" and step.before.kind in ("absent", "dir"):
            attempt(step, os.unlink, step.path)
    for step in reversed(deepest):
        if step.before.kind == "dir" and step.current.kind != "dir":
            attempt(step, os.mkdir, step.path, 0o700)
        elif step.before.kind == "file":
            attempt(step, _put_file, step.path, step.before, read_blob)
        elif step.before.kind == "symlink":
            attempt(step, _put_link, step.path, step.before.target or "")
    for step in deepest:
        if step.before.kind == "dir" and step.before.mode is not None:
            attempt(step, os.chmod, step.path, step.before.mode)
    report.done = [step for step in plan.steps if step.path not in failed]
    return report


def _action(before: PathState, current: PathState) -> Action:
    if before.kind == "absent":
        return "delete"
    if before.kind == "symlink":
        return "relink"
    if before.kind == "dir":
        return "recreate"
    return "restore"


def _extra(folder: str, created: set[str]) -> list[str]:
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    return [name for name in names if os.path.join(folder, name) not in created]


def _inside(path: str, workdir: str) -> bool:
    return path != workdir and path.startswith(workdir.rstrip(os.sep) + os.sep)


def _folders_are_real(path: str, workdir: str) -> bool:
    """Every folder from the working directory down to ``path``'s parent is a directory, not a link to one."""
    relative = os.path.relpath(os.path.dirname(path), workdir)
    current = workdir
    for part in [] if relative == "." else relative.split(os.sep):
        current = os.path.join(current, part)
        if not os.path.isdir(current) or os.path.islink(current):
            return False
    return True


def _put_file(path: str, state: PathState, read_blob: Callable[[str], bytes | None]) -> None:
    data = read_blob(state.sha256 or "")
    if data is None:
        raise OSError(f"the kept content of {path!r} is missing or damaged in the store")
    folder, name = os.path.split(path)
    fd, staged = tempfile.mkstemp(prefix=f".{name[:40]}.", suffix=".zeph-undo", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(staged, state.mode if state.mode is not None else 0o644)
        os.replace(staged, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(staged)
        raise


def _put_link(path: str, target: str) -> None:
    folder, name = os.path.split(path)
    staged = os.path.join(folder, f".{name[:40]}.{os.urandom(6).hex()}.zeph-undo")
    os.symlink(target, staged)
    try:
        os.replace(staged, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(staged)
        raise
