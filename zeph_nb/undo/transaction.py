"""A transaction over a scope of the working directory: capture it before a command, put back what the command
changed when it fails. The shell's ``[tools.shell] transactional`` (``tools/shell/executor.py``) uses it; it is the
same mechanism as ``%zeph undo`` — ``states.Capture`` before and after, ``states.changed_paths`` between them,
``restore.plan_undo`` and ``restore.apply_plan`` to put the paths back, never through a link — with the contents
held in memory for the one call instead of the store's blobs.

The scope is ``transaction_scope``'s globs under the working directory (empty: everything), VCS folders never
included. What a rollback restores it names in ``restored`` (files, links and folders put back as they were), what
the command created in ``removed``; a path it cannot put back (a special file, one whose new folder holds what is
out of scope) is named with why, never forced. Over ``max_snapshot_bytes``, or with a file it cannot read, the
capture fails: the command then runs without a rollback, or, with ``snapshot_required``, not at all.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from wcmatch import glob

from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.undo.restore import Change, apply_plan, plan_undo
from zeph_nb.undo.states import Capture, Snapshot, changed_paths

__all__ = ["MemoryBlobs", "Rollback", "SnapshotFailed", "Transaction"]

_FLAGS = glob.GLOBSTAR | glob.DOTGLOB | glob.BRACE
VCS = (".git", ".hg", ".svn")


class SnapshotFailed(ToolError):
    """The paths in scope could not be captured; with ``snapshot_required`` the command does not run."""

    def __init__(self, message: str) -> None:
        super().__init__(ToolErrorCategory.PERMANENT_FAILURE, f"snapshot failed: {message}")


class MemoryBlobs:
    """File contents by sha256, in memory for one transaction.

    Not the store's blobs: those are ``%zeph undo``'s lasting record and are never removed while a session runs,
    so a copy per transaction would only grow them (and put a second copy of every file in scope on disk). Not a
    temp dir either: that is a copy on disk that a crash leaves behind. The contents live as long as the call and
    ``max_snapshot_bytes`` bounds them, as the shell's snapshots always were."""

    def __init__(self) -> None:
        self.contents: dict[str, bytes] = {}

    def has(self, sha256: str) -> bool:
        return sha256 in self.contents

    def put(self, data: bytes) -> str:
        digest = hashlib.sha256(data).hexdigest()
        self.contents.setdefault(digest, data)
        return digest

    def get(self, sha256: str) -> bytes | None:
        return self.contents.get(sha256)


@dataclass(frozen=True)
class Rollback:
    """What a rollback did, for the audit row and the model: paths relative to the working directory."""

    restored: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    not_restored: tuple[tuple[str, str], ...] = ()  # (path, why): refused by the plan, or failed when applied

    def describe(self) -> str:
        text = f"rolled back: restored {len(self.restored)} files, removed {len(self.removed)} new files"
        if self.not_restored:
            text += "; left as the command left them: " + "; ".join(f"{p} ({why})" for p, why in self.not_restored)
        return text

    def raw(self) -> dict[str, Any]:
        """The audit envelope's ``rollback``: restored and removed, and what was not put back when anything."""
        raw: dict[str, Any] = {"restored": list(self.restored), "removed": list(self.removed)}
        if self.not_restored:
            raw["not_restored"] = [f"{path}: {why}" for path, why in self.not_restored]
        return raw


@dataclass
class Transaction:
    """The scope's states before a command, with their contents, and the capture that can tell what changed."""

    workdir: str
    roots: list[str]
    capture: Capture
    before: Snapshot
    blobs: MemoryBlobs = field(default_factory=MemoryBlobs)

    @classmethod
    def begin(cls, workdir: str | os.PathLike[str], scope: Sequence[str], max_bytes: int = 0) -> Transaction:
        """Capture every path ``scope`` matches under ``workdir``, contents kept. Raises SnapshotFailed."""
        root = os.path.realpath(workdir)  # the plan checks each folder from here down: no link on the way
        patterns = list(scope) or ["**"]
        blobs = MemoryBlobs()
        matcher = glob.compile(patterns, flags=_FLAGS)  # once: globmatch parses the patterns again for each path
        prefix = root + os.sep

        def include(path: str) -> bool:
            return path.startswith(prefix) and matcher.match(path[len(prefix) :])

        capture = Capture(blobs, budget=max_bytes, exclude=VCS, include=include)
        roots = _roots(root, patterns)
        try:
            before = capture.take(roots)
        except OSError as e:  # a folder it may not look into: nothing could be put back there
            raise SnapshotFailed(f"{e.filename}: {e.strerror}") from None
        if before.not_kept:
            raise SnapshotFailed(f"the files in transaction_scope hold more than max_snapshot_bytes = {max_bytes} "
                                 "bytes; narrow transaction_scope or raise the cap")  # fmt: skip
        unread = [path for path, state in before.states.items() if state.kind == "file" and not state.kept]
        if unread:
            raise SnapshotFailed(f"{os.path.relpath(unread[0], root)}: cannot be read"
                                 + (f" (and {len(unread) - 1} more)" if len(unread) > 1 else ""))  # fmt: skip
        return cls(root, roots, capture, before, blobs)

    def roll_back(self) -> Rollback:
        """Put every path in scope the command changed back as it was; remove what it created."""
        # The same hashes: an unchanged file costs one lstat here, not a read. No byte budget: nothing is kept, and
        # a file of the size it had must be read (hashed a chunk at a time) to be told from one the command only
        # touched. One that was not a file before, or whose size changed, differs already: a file the command
        # created is only deleted, never read (it can be as large as the disk allows).
        before = self.before.states

        def worth_reading(path: str, size: int) -> bool:
            old = before.get(path)
            return old is not None and old.kind == "file" and old.size == size

        looking = Capture(None, exclude=VCS, include=self.capture.include, hashes=self.capture.hashes,
                          reads=worth_reading)  # fmt: skip
        try:
            after = looking.take(self.roots, keep=False)
        except OSError as e:
            return Rollback(not_restored=((os.path.relpath(e.filename or self.workdir, self.workdir),
                                           f"cannot look at what the command left: {e.strerror}"),))  # fmt: skip
        changes = [Change(path, old, new) for path, old, new in changed_paths(self.before, after)]
        plan = plan_undo("transaction", self.workdir, changes, has_blob=self.blobs.has)
        report = apply_plan(plan, self.blobs.get)
        failed = dict(report.failed)

        def shown(path: str) -> str:
            return os.path.relpath(path, self.workdir)

        restored = sorted(shown(s.path) for s in report.done if s.action != "delete")
        removed = sorted(shown(s.path) for s in report.done if s.action == "delete")
        not_restored = [(shown(p), why) for p, why in plan.refused] + [(shown(p), why) for p, why in failed.items()]
        return Rollback(tuple(restored), tuple(removed), tuple(sorted(not_restored)))


def _roots(workdir: str, patterns: list[str]) -> list[str]:
    """The trees to walk: each pattern's leading folders without wildcards (``src/**`` → ``src``), the outermost of
    them, never outside ``workdir``; a walk from ``workdir`` when any pattern starts with a wildcard."""
    found = []
    for pattern in patterns:
        fixed = []
        for part in pattern.split("/"):
            if glob.is_magic(part, flags=_FLAGS):
                break
            fixed.append(part)
        root = os.path.normpath(os.path.join(workdir, *fixed))
        found.append(root if root.startswith(workdir + os.sep) else workdir)
    return [r for r in sorted(set(found)) if not any(r.startswith(o + os.sep) for o in found)]
