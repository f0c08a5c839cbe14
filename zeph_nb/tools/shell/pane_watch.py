"""The pane watcher: what a background command may not leave behind is undone as it appears, not at the next look.

A command in a tmux pane runs for minutes or days, and nobody may look at its pane meanwhile. The guard around it
(``HostGuard``) undoes a planted ``.git`` with ``core.fsmonitor``, a hook or a ``zeph.toml`` — but only when it is
asked to. So while any pane runs, one thread of the kernel keeps inotify watches on the panes' writable trees
(``security/tree_watch.py``) and, for each path that matters the moment it appears, asks the pane's guard to undo
it there (``HostGuard.undo_at``): a ``.git`` (folder, pointer file or link), anything written under one where git
looks for hooks, config and pointers, a folder laid out as a git directory (a bare repository: git run in or
below it obeys its config), a policy file. Every file the pane creates or changes is also told to
provenance (``security/provenance.py``), as a direct call's files are by the undo gate.

The thread starts with the first pane and ends when no pane runs. It walks the trees as the guard's look does
(``HostGuard.sweep``) now and then all the same: every ``SWEEP_SECS``, every ``FALLBACK_SWEEP_SECS`` while some
folder has no watch (the per-user limit), longer apart on a tree whose walk is slow (at most about 1% of a core),
and at once when the kernel's event queue overflowed.

What it cannot do: close the gap between a plant and its undo (measured here: 1.5 ms median, p99 about 5 ms); a
process that reads the file inside that gap (the person's ``git status`` at that very moment) sees it. A command
that plants again and again to widen that gap is stopped after ``STOP_AFTER_PLANTS`` plants. ``bench/
pane_watch_bench.py`` measures the gap.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from zeph_nb.security.os_sandbox import ENVIRONMENT_PARTS, POLICY_FILE_NAMES, git_dir_layout, scan_tree
from zeph_nb.security.provenance import BackgroundRecorder, Provenance, journal_for
from zeph_nb.security.tree_watch import Change, TreeWatch
from zeph_nb.tools.shell.host_guard import HostGuard

__all__ = ["FALLBACK_SWEEP_SECS", "READY_SECS", "SWEEP_SECS", "PaneWatch", "PaneWatcher", "matters", "pane_watcher"]

log = logging.getLogger("zeph_nb.tools")

SWEEP_SECS = 10.0  # a full walk now and then, though every folder is watched
FALLBACK_SWEEP_SECS = 1.0  # while some folder has no watch, or events were lost
FLUSH_SECS = 0.5  # how often the files a pane wrote are told to provenance
MAX_FILES = 20_000  # per pane; past that its writes are recorded as a time window over its trees
READY_SECS = 2.0  # how long a pane's start waits for its watches
STOP_AFTER_PLANTS = 5  # a pane whose command planted what runs this often is stopped
# Under a git directory: where git finds what it runs or obeys (hooks, config, pointers to another git dir).
_GIT_RUNS = frozenset({"config", "config.worktree", "hooks", "commondir", "gitdir", "info"})


# What makes a folder a git directory to git, and what git runs or obeys in one: written in a folder that is laid
# out as one (a bare repository, which git run in or below it uses), they matter too.
_GIT_DIR_ENTRIES = frozenset({"HEAD", "objects", "refs", *_GIT_RUNS})


def matters(path: str) -> list[str]:
    """What a guard must look at when ``path`` appears or is written (empty: nothing): the path itself when it is a
    ``.git``, a policy file, or what git runs or obeys inside a ``.git``; the folder it is in when that folder is
    laid out as a git directory (or the one above, for a hook)."""
    parts = path.split(os.sep)
    if parts[-1] in POLICY_FILE_NAMES or parts[-1] == ".git":
        return [path]
    if ".git" in parts:
        last = len(parts) - 1 - parts[::-1].index(".git")
        return [path] if any(part in _GIT_RUNS for part in parts[last + 1 :]) else []
    folder = os.path.dirname(path)
    candidates = [folder] if parts[-1] in _GIT_DIR_ENTRIES else []
    if len(parts) > 2 and parts[-2] in ("hooks", "info"):
        candidates.append(os.path.dirname(folder))
    return [c for c in candidates if git_dir_layout(Path(c))]


@dataclass(eq=False)
class PaneWatch:
    """One pane's guard, what it is waiting to undo, and what its command wrote for provenance. ``ready`` is set
    once its trees are watched; ``pid`` (set once the pane started) tells when its command is gone."""

    guard: HostGuard
    call_id: str
    provenance: Provenance
    roots: tuple[str, ...]
    excluded: tuple[str, ...]
    started_ns: int = field(default_factory=time.time_ns)
    ready: threading.Event = field(default_factory=threading.Event)
    done: threading.Event = field(default_factory=threading.Event)
    pid: int | None = None
    closing: bool = False
    stopped: bool = False  # killed for planting again and again
    to_undo: set[str] = field(default_factory=set)
    written: set[str] = field(default_factory=set)
    recorded: int = 0
    window: bool = False  # too many files, or events lost: the pane's time window is recorded at its end

    def holds(self, path: str) -> bool:
        return any(_under(path, root) for root in self.roots) and not any(_under(path, x) for x in self.excluded)

    def flush(self, recorder: BackgroundRecorder) -> None:
        if self.window or not self.written:
            self.written.clear()
            return
        paths, self.written = sorted(self.written), set()
        self.recorded += len(paths)
        recorder.put(lambda: self.provenance.record(paths, tool="bash", call_id=self.call_id))

    def finish(self, recorder: BackgroundRecorder) -> None:
        self.flush(recorder)
        if self.window:
            ended = time.time_ns()
            recorder.put(lambda: self.provenance.record_window(self.roots, self.started_ns, ended, tool="bash",
                                                               call_id=self.call_id))  # fmt: skip


class PaneWatcher:
    """One per process: ``watch(guard)`` when a pane starts (its ``__exit__`` lets go of it)."""

    max_watches = 100_000  # inotify watches at most (each about 1 KB of kernel memory)

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._adding: list[PaneWatch] = []
        self._watched: list[PaneWatch] = []
        self._thread: threading.Thread | None = None
        self._wake_r, self._wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        self.recorder = BackgroundRecorder()
        self.undone = 0  # how many times a guard was asked to undo something (for tests and benchmarks)
        self.last_undo_ns = 0  # when the latest undo finished

    def watch(self, guard: HostGuard, *, call_id: str = "") -> PaneWatch:
        """Keep ``guard`` swept as its command's paths change. Wait on the answer's ``ready`` before the command
        starts (what it makes is seen from then on), and set its ``pid`` once it has."""
        roots = tuple(str(root) for root in dict.fromkeys(guard.writable))
        watched = PaneWatch(guard, call_id, journal_for(guard.home), roots, _excluded(guard))
        guard.on_close = lambda: self._forget(watched)
        with self._lock:
            self._adding.append(watched)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="zeph-pane-watcher", daemon=True)
                self._thread.start()
        self._wake()
        return watched

    @property
    def running(self) -> bool:
        thread = self._thread
        return thread is not None and thread.is_alive()

    def _forget(self, watched: PaneWatch) -> None:
        """The pane ended (its guard's last sweep ran): record what it wrote, then stop watching for it."""
        watched.closing = True
        self._wake()
        thread = self._thread
        if thread is not None and thread.is_alive() and thread is not threading.current_thread():
            watched.done.wait(1.0)

    def _wake(self) -> None:
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self._wake_w, b"x")

    # -- the thread --------------------------------------------------------------------------------------------

    def _run(self) -> None:
        try:
            tree: TreeWatch | None = TreeWatch(self.max_watches)
        except OSError as e:  # no inotify here: the walks alone, often
            log.warning("zeph-nb: %s; background commands are checked by walking their folders every %g s",
                        e, FALLBACK_SWEEP_SECS)  # fmt: skip
            tree = None
        state = _Timers()
        try:
            while self._step(tree, state):
                pass
        except Exception:  # the looks and the end of each pane still sweep; say it, do not take the kernel down
            log.exception("zeph-nb: the pane watcher stopped; background commands are checked only when looked at")
            with self._lock:
                for watched in self._watched + self._adding:
                    watched.ready.set()
                    watched.done.set()
                self._watched, self._adding, self._thread = [], [], None
        finally:
            if tree is not None:
                tree.close()

    def _step(self, tree: TreeWatch | None, state: _Timers) -> bool:
        with self._lock:
            adding, self._adding = self._adding, []
        for watched in adding:
            if tree is not None:
                tree.excluded.update(watched.excluded)
                for root in watched.roots:
                    if root not in tree.roots:
                        tree.add(root)  # what is there now was there before the command: nothing to report
            else:
                watched.window = True  # no events: what the pane wrote is its time window
            self._watched.append(watched)
            watched.ready.set()
        interval = state.interval(tree is None or tree.incomplete)
        wait = max(0.0, min(state.flushed + FLUSH_SECS, state.swept + interval) - time.monotonic())
        readable = [self._wake_r] if tree is None else [tree.fileno(), self._wake_r]
        ready, _, _ = select.select(readable, [], [], wait if self._watched else 0)
        if self._wake_r in ready:
            with contextlib.suppress(BlockingIOError):
                os.read(self._wake_r, 4096)
        if tree is not None:
            changes = tree.read(0)
            if tree.overflowed:
                tree.overflowed = False
                tree.rewatch()  # folders made while events were lost get their watches
                for watched in self._watched:
                    watched.window = True
                state.swept = 0.0  # and a walk, now
            self._dispatch(changes)
        now = time.monotonic()
        if now - state.swept >= interval:
            if tree is None or tree.incomplete:
                self._walk_whole()
            else:
                for watched in self._watched:
                    watched.guard.sweep()
            for watched in self._watched:
                _stop_if_planting(watched)
            state.swept = time.monotonic()
            state.walk_secs = (state.swept - now) / max(1, len(self._watched))
        if now - state.flushed >= FLUSH_SECS:
            state.flushed = now
            for watched in self._watched:
                watched.flush(self.recorder)
                if watched.pid is not None and not _alive(watched.pid):
                    watched.guard.__exit__(None, None, None)  # its last sweep now; the pane's next look says it
        for watched in [w for w in self._watched if w.closing]:
            watched.finish(self.recorder)
            self._watched.remove(watched)
            for root in watched.roots:
                if tree is not None and not any(root in other.roots for other in self._watched):
                    tree.remove(root)
            watched.done.set()
        with self._lock:
            if not self._watched and not self._adding:
                self._thread = None
                return False
        return True

    def _walk_whole(self) -> None:
        """Without a watch on every folder, the guard's walk (bounded: 20,000 folders) could be outrun by a command
        that makes more folders than that and plants in the last: walk every folder, the interval stretched so
        the walks take about 5% of a core, and hand each guard what it found."""
        roots = dict.fromkeys(root for watched in self._watched for root in watched.roots)
        found: list[str] = []
        for root in roots:
            scan = scan_tree(Path(root), budget=sys.maxsize)
            found += [str(path) for path in (*scan.repositories, *scan.policy_files)]
        for watched in self._watched:
            # Only what changed since the pane started: a walk with no bound also reaches what the person had, past
            # what the guard's own first look saw, and that is theirs.
            since = watched.started_ns - 50_000_000  # file times tick coarsely (a few ms behind the clock)
            mine = [path for path in found if watched.holds(path) and _changed_since(path, since)]
            watched.guard.undo_at(mine)

    def _dispatch(self, changes: list[Change]) -> None:
        for change in changes:
            if change.kind == "removed":
                continue
            important = matters(change.path)
            for watched in self._watched:
                if not watched.holds(change.path):
                    continue
                watched.to_undo.update(important)
                if not change.is_dir and not watched.window and _recorded(change.path):
                    watched.written.add(change.path)
                    if len(watched.written) + watched.recorded > MAX_FILES:
                        watched.window = True
        for watched in self._watched:
            if watched.to_undo:
                paths, watched.to_undo = sorted(watched.to_undo), set()
                watched.guard.undo_at(paths)
                self.undone += 1
                self.last_undo_ns = time.monotonic_ns()
                _stop_if_planting(watched)


@dataclass
class _Timers:
    swept: float = field(default_factory=time.monotonic)
    flushed: float = field(default_factory=time.monotonic)
    walk_secs: float = 0.0  # what the last walk of one guard's trees took

    def interval(self, fallback: bool) -> float:
        """How long between walks: ``SWEEP_SECS`` (``FALLBACK_SWEEP_SECS`` without every watch), or longer for a
        large tree, so the walks take at most about 1% of a core (5% as the fallback)."""
        if fallback:
            return max(FALLBACK_SWEEP_SECS, 20 * self.walk_secs)
        return max(SWEEP_SECS, 100 * self.walk_secs)


def _excluded(guard: HostGuard) -> tuple[str, ...]:
    """Folders inside the trees the pane's command cannot write (hidden, read-only in its sandbox) or that zeph
    itself writes (its home): no watch, and nothing there is the command's."""
    found = [guard.home, *guard.protected.hidden]
    found += [path for path in guard.protected.readonly if path.is_dir() and not path.is_symlink()]  # environments
    for env in guard.trees.environments:  # read-only in the sandbox; a working directory that is one, in parts
        found += [env / part for part in ENVIRONMENT_PARTS] if env in guard.writable else [env]
    home = guard.protected.home
    if home is not None and any(_under(str(home), str(root)) for root in guard.writable):
        with contextlib.suppress(OSError):
            found += [Path(entry.path) for entry in os.scandir(home) if entry.name.startswith(".")]
    return tuple(dict.fromkeys(os.path.realpath(path) for path in found))


def _stop_if_planting(watched: PaneWatch) -> None:
    """Undoing takes about a millisecond, and a command that plants again and again in a tight loop keeps its
    plant live for a share of the time (measured: a host git status every 10 ms ran a re-planted fsmonitor 1 time
    in 4). No ordinary command plants something that runs even once; one that has done so ``STOP_AFTER_PLANTS``
    times is stopped, and the model is told why."""
    if watched.stopped or watched.pid is None or watched.guard.plants < STOP_AFTER_PLANTS:
        return
    watched.stopped = True
    # The reason first, and kept on the pane: a look between the kill and a one-time note showed "ended by signal
    # 9" with no reason (seen under load), and the model would retry what was stopped.
    watched.guard.stopped = (
        f"zeph-nb stopped this command: it planted what would run outside the sandbox {watched.guard.plants} times "
        "(hooks, pointers, config that runs commands, policy files), each undone; do not retry it"
    )
    with contextlib.suppress(OSError):
        # The pane's process is bwrap's parent (or bwrap): the whole sandbox dies with it (--die-with-parent).
        os.kill(watched.pid, signal.SIGKILL)
    log.warning("zeph-nb: stopped a background command that kept planting what would run outside the sandbox")


def _changed_since(path: str, since_ns: int) -> bool:
    """Whether a policy file, a ``.git`` pointer, or what git runs in a git dir (its config, hooks and pointers)
    changed at or after ``since_ns`` (ctime: no command can set it back)."""
    candidates = [path]
    if os.path.isdir(path) and not os.path.islink(path):
        candidates = [os.path.join(path, name) for name in ("config", "config.worktree", "commondir", "hooks")]
    for candidate in candidates:
        with contextlib.suppress(OSError):
            if os.lstat(candidate).st_ctime_ns >= since_ns:
                return True
    return False


def _alive(pid: int) -> bool:
    """Whether the pane's process still runs (a zombie tmux has not reaped yet has ended)."""
    if not os.path.isdir("/proc/self"):
        return True  # no way to tell here: the pane's next look closes its guard
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[-1].split()[0] != b"Z"
    except (OSError, IndexError):
        return False


def _recorded(path: str) -> bool:
    """Whether provenance hears of a file: not git's own (objects, the index), which nothing imports."""
    return f"{os.sep}.git{os.sep}" not in path


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


_WATCHER: PaneWatcher | None = None
_WATCHER_LOCK = threading.Lock()


def pane_watcher() -> PaneWatcher:
    """The process's pane watcher (its thread runs only while a pane does)."""
    global _WATCHER
    with _WATCHER_LOCK:
        if _WATCHER is None:
            _WATCHER = PaneWatcher()
        return _WATCHER
