"""The snapshot gate, right around the executor: before a call that may change files in the working directory
it captures the state of every path the call can touch (``undo/states.py``, file contents kept as the store's
blobs), after it the state the call left, and it records each path that differs as a ``file_changes`` row with
the run's id (``store/snapshots.py``), which ``undo/runs.py`` plans ``%zeph undo`` from.

Which paths: for the file tools, each path argument the call writes (a path whose folders do not exist yet is
noted from the first missing folder, so folders ``write`` creates are undone too); for a local ``bash`` command
that may write, the whole working directory (less ``[undo] exclude``), since the OS sandbox lets it write only
there. Commands on another machine or in a container, and commands left running in a tmux pane, are not
followed: a row says so, and undo tells the person. A snapshot never fails the call (unless ``[undo] required``):
what could not be kept is said in the output and later by undo.

Provenance (``security/provenance.py``) hears of every file each call wrote, with ``[undo]`` on or off: a file an
agent's call wrote is never taken later for the person's config or code. The file tools' files come from this
walk; a local command's from a scan after it (``scan_after``) of every file under its trees whose inode changed
while it ran (its ctime, which no command can set back; ``undo/written.changed_since``) — excluded folders
included, whatever the classifier thought the command does — recorded by content; past CTIME_WALK_ENTRIES the
time window itself is. It also names the files just written that other tools run when used
(``security/runs_on_use.py``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from zeph_nb.config import Settings
from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.gates.call import GateCall, Handler, Prepared, RunsOnUse
from zeph_nb.security.provenance import journal_for
from zeph_nb.security.tree_scan import protected_in_trees
from zeph_nb.store.snapshots import FileChangeRow, FileChanges
from zeph_nb.tools.base import ToolOutput
from zeph_nb.undo.states import Capture, PathState, Snapshot, changed_paths
from zeph_nb.undo.written import change_diff, changed_since

__all__ = ["QUICK_ENTRIES", "Snapshotter", "UndoGate"]

# How many entries of a command's trees are looked at on the loop's own thread after a command the classifier took
# for read-only (``Snapshotter.unchanged``): a working folder of a few hundred files in about a millisecond at most.
QUICK_ENTRIES = 1_000


class Snapshotter:
    """What the gate needs: the settings, the working directory, where rows and blobs go, the run's id."""

    def __init__(
        self, settings: Settings, workdir: Path, changes: FileChanges, *, run: Callable[[], str],
        conversation: Callable[[], str],
    ) -> None:  # fmt: skip
        self.settings = settings
        self.config = settings.undo
        self._reader: Any = None  # the file tools' read rules, built on first use
        self.execution = settings.tools.execution
        self.workdir = os.path.realpath(workdir)
        self.undo = self.config.enabled  # off: the walk still runs, for provenance only (no rows, no blobs)
        self.provenance = journal_for(settings.home)
        self.marked: dict[str, tuple[RunsOnUse, ...]] = {}  # call id -> runs-on-use files, taken by the gate
        self.seen: dict[str, int] = {}  # path -> the ctime the last scan recorded it at
        self.changes = changes
        self.run, self.conversation = run, conversation
        self.hashes: dict[tuple[int, ...], str] = {}  # shared by every call: unchanged files are not read again
        self.kept: set[str] = set()  # blobs this session has kept (a blob is never removed while it runs)
        home = str(changes.store.path.parent)
        self.exclude_paths = {home} if home.startswith(self.workdir + os.sep) else set()

    def scanned(self, ctx: Prepared) -> tuple[list[str], set[str]] | None:
        """For a local command run in the foreground: the trees provenance scans after it, whatever the classifier
        thought the command does (``sort -o``, ``uniq in out`` write too), and the environments to skip there
        (read-only in the sandbox: the kernel's own and those that existed before the call). None otherwise."""
        if not ctx.tool.runs_commands or ctx.tool.remote:
            return None
        if ctx.call.params.get("wait", True) is not True:
            return None  # a tmux pane: its watcher records what it writes (tools/shell/pane_watch.py)
        shell = self.settings.tools.shell
        roots = [self.workdir, *(os.path.realpath(os.path.join(self.workdir, os.path.expanduser(p)))
                                 for p in shell.allowed_paths)]  # fmt: skip
        skip = {os.path.realpath(p) for p in (self.settings.python_prefix, self.settings.conda_prefix) if p}
        skip |= {str(env) for env in protected_in_trees([Path(r) for r in roots]).environments}
        return [r for r in dict.fromkeys(roots) if os.path.isdir(r)], skip

    def unchanged(self, scanned: tuple[list[str], set[str]], started_ns: int) -> bool:
        """Whether a short look at the trees (``QUICK_ENTRIES``, on the caller's thread) sees all of them and nothing
        in them changed since ``started_ns``: then ``scan_after`` has nothing to record, and the hop to a worker
        thread it takes (0.05-0.5 ms a call, more while other threads hold the GIL) is saved. A bigger tree, or
        anything changed, is left to ``scan_after``, which looks again from the start."""
        roots, skip = scanned
        found, complete = changed_since(roots, started_ns, QUICK_ENTRIES, skip=skip)
        return complete and not found

    def scan_after(self, ctx: Prepared, scanned: tuple[list[str], set[str]], started_ns: int) -> None:
        """Provenance for a local command: every file under its trees whose inode changed while it ran, excluded
        folders and links' targets included, recorded by content; past the scan's budget, the time window."""
        roots, skip = scanned
        ended_ns = time.time_ns()
        found, complete = changed_since(roots, started_ns, skip=skip)
        written = []
        for path in found:  # a file the call before this one wrote, within the clock's slack, is not this call's
            try:
                changed = os.lstat(path).st_ctime_ns
            except OSError:
                continue
            if self.seen.get(path) != changed:
                self.seen[path] = changed
                written.append(path)
        if len(self.seen) > 100_000:
            self.seen.clear()
        self.provenance.record(written, tool=ctx.tool.name, call_id=ctx.call.call_id)
        if not complete:
            self.provenance.record_window(roots, started_ns, ended_ns, tool=ctx.tool.name, call_id=ctx.call.call_id)
        marked = {entry.path for entry in self.marked.get(ctx.call.call_id, ())}
        self.mark(ctx, [(path, None) for path in written if path not in marked], add=True)

    def roots(self, ctx: Prepared) -> list[str] | str | None:
        """The paths to snapshot; None: the call changes no files here; a string: why it is not followed."""
        tool, params = ctx.tool, ctx.call.params
        if not (tool.runs_commands or tool.writes):
            return None
        if tool.remote:
            where = f"{self.execution.ssh or self.execution.container} ({self.execution.backend})"
            return f"remote: runs on {where}" if tool.runs_commands else f"remote: on {where}"
        if tool.runs_commands:
            if params.get("wait", True) is not True:
                return "a background command in a tmux pane: what it changes later is not followed"
            if ctx.analysis is not None and not ctx.analysis.may_write:
                return None
            return [self.workdir]
        roots = []
        for key in tool.writes:
            value = params.get(key)
            if isinstance(value, str):
                root = self._root(value)
                if root is not None:
                    roots.append(root)
        return roots or None

    def _root(self, given: str) -> str | None:
        """The path as the file tools reach it (folders resolved, the last part not), or the first folder on the
        way that does not exist yet; None when that is outside the working directory."""
        path = os.path.normpath(os.path.join(self.workdir, given))
        folder, name = os.path.split(path)
        path = os.path.join(os.path.realpath(folder), name)
        while not os.path.lexists(os.path.dirname(path)) and os.path.dirname(path) != path:
            path = os.path.dirname(path)
        if not path.startswith(self.workdir + os.sep):
            return None
        return path

    def capture(self) -> Capture:
        sink = self.changes.blobs if self.undo else None
        return Capture(sink, budget=self.config.max_snapshot_bytes, max_files=self.config.max_files,
                       exclude=self.config.exclude, hashes=self.hashes, kept=self.kept,
                       secret=self._unreadable)  # fmt: skip

    def _unreadable(self, path: str) -> bool:
        """Whether zeph may not read ``path`` (deny_read, outside allow_read, a protected path): its content is not
        copied into the store's blobs (a second copy of a credential), so undo cannot restore it and says so."""
        if self._reader is None:
            from zeph_nb.security.paths import Sandbox
            from zeph_nb.tools.containment import protected_paths

            files = self.settings.tools.file
            protected = protected_paths(self.settings, self.workdir)
            self._reader = Sandbox([self.workdir], workdir=self.workdir, deny_read=files.deny_read,
                                   allow_read=files.allow_read, protected=protected)  # fmt: skip
        return not self._reader.readable(Path(path))

    def record(self, ctx: Prepared, before: Snapshot, after: Snapshot) -> list[str]:
        """Record what changed (provenance always, undo rows when on); returns notes for the output (what undo
        will not be able to do)."""
        notes: list[str] = []
        if not (before.complete and after.complete):
            if self.undo:
                notes.append(f"not followed for undo: {before.reason or after.reason} ([undo] max_files)")
                self.note(ctx, notes[-1])
            return notes
        changed = changed_paths(before, after)
        if not ctx.tool.runs_commands:  # a command's files are recorded by scan_after, which sees more than the walk
            written = [path for path, _, new in changed if new.kind in ("file", "symlink")]
            self.provenance.record(written, tool=ctx.tool.name, call_id=ctx.call.call_id)
        self.mark(ctx, [(path, old) for path, old, new in changed if new.kind in ("file", "symlink")])
        if not self.undo:
            return notes
        rows = []
        for path, old, new in changed:
            if path in self.exclude_paths or any(path.startswith(p + os.sep) for p in self.exclude_paths):
                continue
            note = None
            if old.kind == "file" and not old.kept:
                note = "not kept: over [undo] max_snapshot_bytes, or a file zeph may not read"
                notes.append(f"{os.path.relpath(path, self.workdir)!r} was not kept (over [undo] max_snapshot_bytes, "
                             "or a file zeph may not read): %zeph undo cannot restore it")  # fmt: skip
            rows.append(self._row(ctx, path=path, before=old.to_json(), after=new.to_json(), note=note))
        self.changes.record(rows)
        return notes

    def mark(self, ctx: Prepared, written: list[tuple[str, PathState | None]], *, add: bool = False) -> None:
        """Name the files just written that other tools run when used (the transcript, status, audit row)."""
        # Its table of such files (and their patterns) is loaded by the first call that writes, not by every new
        # Agent.
        from zeph_nb.security.runs_on_use import runs_on_use

        found = []
        for path, old in written:
            why = runs_on_use(path, self.workdir)
            if why is not None:
                before = self.changes.blobs.get(old.sha256) if old is not None and old.sha256 else None
                known = old is not None and (old.kind == "absent" or before is not None)
                found.append(RunsOnUse(path, why, change_diff(path, before if known else None, known)))
        if found:
            earlier = self.marked.get(ctx.call.call_id, ()) if add else ()
            self.marked[ctx.call.call_id] = (*earlier, *found)

    def note(self, ctx: Prepared, note: str) -> None:
        if self.undo:
            self.changes.record([self._row(ctx, note=note)])

    def _row(
        self, ctx: Prepared, *, path: str | None = None, before: str | None = None, after: str | None = None,
        note: str | None = None,
    ) -> FileChangeRow:  # fmt: skip
        return FileChangeRow(run_id=self.run(), conversation_id=self.conversation(), call_id=ctx.call.call_id,
                             tool=ctx.tool.name, workdir=self.workdir, path=path, before=before, after=after,
                             note=note)  # fmt: skip


class UndoGate:
    """Snapshots around the executor for ``%zeph undo`` (``[undo] enabled``)."""

    def __init__(self, inner: Handler, snapshotter: Snapshotter | None) -> None:
        self.inner, self.snapshotter = inner, snapshotter

    async def handle(self, gc: GateCall) -> ToolOutput:
        keeper = self.snapshotter
        ctx = gc.ctx
        if keeper is None or ctx is None:
            return await self.inner.handle(gc)
        roots = keeper.roots(ctx)
        scanned = keeper.scanned(ctx)
        # ctime comes from the kernel's coarse clock, up to a tick (4-10 ms) behind time_ns(): start a little early
        # (a file the person changed just before the call is then recorded too, which only distrusts it)
        started_ns = time.time_ns() - 20_000_000
        if roots is None or isinstance(roots, str):
            if isinstance(roots, str):
                keeper.note(ctx, roots)
            if scanned is None:
                return await self.inner.handle(gc)
            try:
                return await self.inner.handle(gc)
            finally:
                if not keeper.unchanged(scanned, started_ns):
                    await asyncio.shield(asyncio.to_thread(keeper.scan_after, ctx, scanned, started_ns))
                gc.trace.wrote(keeper.marked.pop(ctx.call.call_id, ()))
        capture = keeper.capture()
        before = await asyncio.to_thread(capture.take, roots, keep=keeper.undo)
        if keeper.undo and keeper.config.required and (before.not_kept or not before.complete):
            raise ToolError(ToolErrorCategory.PERMANENT_FAILURE,
                            "not run: its snapshot for undo would be incomplete "
                            f"({before.reason or f'{len(before.not_kept)} files over [undo] max_snapshot_bytes'}) "
                            "and [undo] required is set")  # fmt: skip
        try:
            output = await self.inner.handle(gc)
        finally:
            # Also after a failure or a Stop: a command that failed half-way may have changed files.
            after = await asyncio.shield(asyncio.to_thread(keeper.capture().take, roots, keep=False))
            notes = await asyncio.shield(asyncio.to_thread(keeper.record, ctx, before, after))
            if scanned is not None:
                await asyncio.shield(asyncio.to_thread(keeper.scan_after, ctx, scanned, started_ns))
            gc.trace.wrote(keeper.marked.pop(ctx.call.call_id, ()))
        if notes:
            output = dataclasses.replace(output, summary=output.summary + "".join(f"\n[{n}]" for n in notes))
        return output
