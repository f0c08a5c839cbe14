"""Provenance: which files an agent's tool call wrote, kept where no tool can reach, so that what it wrote is never
taken later for the person's own work.

The OS sandbox ends with the call; the files it wrote do not. A ``zeph.toml`` a command wrote is not the person's
policy, and a module it wrote into the notebook folder is not the person's code — however long after, in whichever
process. So every path a tool call creates or changes is appended to ``<zeph home>/provenance.jsonl`` with the
sha256 of what it wrote, signed with the store's key (``security/mac.py``; the zeph home is hidden in the sandbox).
A file is *agent-written* while its content is what the last entry for its path says an agent wrote. When the
person edits or re-saves it, the hash changes and it is theirs again; ``trust()`` (``%zeph trust <path>``) records
that the person has seen it as it is.

One file for every process: each entry is one ``write()`` of one line to a file opened with ``O_APPEND``, which
the kernel appends whole; a reader keeps its offset and reads only what was appended since. Reading costs about
18 µs an entry, so a reader that finds the file holding more than twice the entries that still matter rewrites it
with those alone (under an exclusive ``flock``; writers append under a shared one, so none is lost).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import queue
import stat
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal

from zeph_nb.security.mac import RowSigner

__all__ = [
    "JOURNAL_NAME",
    "BackgroundRecorder",
    "Provenance",
    "WrittenFile",
    "content_hash",
    "default_home",
    "journal_for",
]

log = logging.getLogger("zeph_nb.security")

JOURNAL_NAME = "provenance.jsonl"
LOCK_NAME = "provenance.lock"
COMPACT_AT = 5_000  # lines read before a rewrite is considered (about 0.1 s of reading)
_TABLE = "provenance"
_FIELDS = ("path", "sha256", "by", "tool", "call_id", "at_ns", "until_ns")
# Files past this are identified by size, mtime and inode rather than read whole: a module or a config file is far
# smaller, and hashing a 10 GB data file a command wrote is no one's business.
HASH_LIMIT = 64 * 1024 * 1024


def content_hash(path: str | os.PathLike[str]) -> str | None:
    """What identifies the regular file at ``path`` now: its sha256, or for a large one ``size:<n>:<mtime>:<ino>``;
    None when it is not a regular file (gone, a folder; a link is judged by its target's hash). Opened without
    blocking and judged by what was opened: a command that swaps the file for a FIFO cannot stall the reader."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        if info.st_size > HASH_LIMIT:
            return f"size:{info.st_size}:{info.st_mtime_ns}:{info.st_ino}"
        digest = hashlib.sha256()
        while chunk := os.read(fd, 1 << 20):
            digest.update(chunk)
    except OSError:
        return None
    finally:
        os.close(fd)
    return digest.hexdigest()


@dataclass(frozen=True)
class WrittenFile:
    """One entry: ``by`` the agent (a tool call wrote it) or the person (they accepted it as it is); or a
    ``window``: every file under ``path`` whose inode changed (ctime) from ``at_ns`` to ``until_ns``, for a call
    whose tree was too large to walk file by file."""

    path: str
    sha256: str
    by: Literal["agent", "person", "window"]
    tool: str
    call_id: str
    at_ns: int
    until_ns: int = 0

    def describe(self) -> str:
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.at_ns / 1e9))
        return f"written by the agent's {self.tool} call at {when}"  # the call's id is in the journal and audit


class Provenance:
    """The journal in ``home``: ``record()`` what a call wrote, ``agent_written(path)`` to ask about a file now."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.path = home / JOURNAL_NAME
        self._signer = RowSigner(home)
        self._lock = threading.Lock()
        self._latest: dict[str, WrittenFile] = {}
        self._windows: list[WrittenFile] = []
        self._raw: dict[str, bytes] = {}  # the signed line of each path's latest entry, kept for a rewrite
        self._raw_windows: list[bytes] = []
        self._lines = 0  # lines in the file as last read whole and since
        self._offset = 0
        self._inode: tuple[int, int] | None = None
        # (path, size, mtime_ns, ctime_ns, inode) -> hash: a file not changed since it was hashed is not read again
        self._hashes: dict[tuple[str, int, int, int, int], str | None] = {}

    # -- writing ------------------------------------------------------------------------------------------------

    def record(self, paths: Iterable[str | os.PathLike[str]], *, tool: str, call_id: str = "") -> list[WrittenFile]:
        """Note that ``paths`` (absolute) now hold what an agent's call wrote; a path that is not a regular file
        (removed, a folder) is skipped. Returns the entries written."""
        entries = []
        for raw in paths:
            path = os.path.realpath(raw)  # the file, whichever link or folder link it is later imported through
            if self._own_state(path):
                continue
            digest = content_hash(path)
            if digest is not None:
                entries.append(WrittenFile(path, digest, "agent", tool, call_id, time.time_ns()))
        self._append(entries)
        return entries

    def record_window(
        self, roots: Iterable[str | os.PathLike[str]], started_ns: int, ended_ns: int, *, tool: str, call_id: str = ""
    ) -> None:  # fmt: skip
        """Note that any file under ``roots`` whose ctime falls in the window was written by the call (no command
        can set a ctime back); a later change by anyone moves the ctime out of it."""
        self._append([WrittenFile(os.path.realpath(root), "", "window", tool, call_id, started_ns, ended_ns)
                      for root in roots])  # fmt: skip

    def _own_state(self, path: str) -> bool:
        """Whether ``path`` is zeph-nb's own state in its home (the store, spools, key, journal), which the kernel
        writes while a call runs. With the working directory at the home folder (a hub's default) a call's
        before/after scan saw them change and named them the agent's. Config files there (``*.toml``) are still
        judged: an unsandboxed command could write one."""
        home = os.path.join(os.path.realpath(self.home), "")
        return path.startswith(home) and not path.endswith(".toml")

    def trust(self, path: str | os.PathLike[str]) -> WrittenFile | None:
        """The person has seen ``path`` as it is now and accepts it as theirs; None when it is not a file."""
        absolute = _judged(path)
        digest = content_hash(absolute)
        if digest is None:
            return None
        entry = WrittenFile(absolute, digest, "person", "trust", "", time.time_ns())
        self._append([entry])
        return entry

    def _append(self, entries: list[WrittenFile]) -> None:
        if not entries:
            return
        lines = []
        for entry in entries:
            fields = asdict(entry)
            fields["mac"] = self._signer.sign(_TABLE, fields, _FIELDS)
            lines.append(json.dumps(fields, ensure_ascii=False, separators=(",", ":")) + "\n")
        self.home.mkdir(parents=True, exist_ok=True)
        with self._locked(fcntl.LOCK_SH):  # many writers at once; never during a rewrite
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            try:
                for line in lines:  # one write per line: O_APPEND keeps each whole beside other processes' lines
                    os.write(fd, line.encode("utf-8"))
                os.fsync(fd)
            finally:
                os.close(fd)

    @contextlib.contextmanager
    def _locked(self, how: int) -> Iterator[None]:
        fd = os.open(self.home / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, how)
            yield
        finally:
            os.close(fd)  # and the lock with it

    def _compact(self) -> None:
        """Rewrite the journal with the latest entry of each file that still exists, and every window."""
        with self._locked(fcntl.LOCK_EX):
            self._refresh(compact=False)  # what was appended up to the lock
            kept = [line for path, line in self._raw.items() if os.path.lexists(path)] + self._raw_windows
            staged = self.path.with_name(f".{JOURNAL_NAME}.{os.getpid()}")
            with open(staged, "wb") as handle:
                handle.writelines(line + b"\n" for line in kept)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(staged, 0o600)
            os.replace(staged, self.path)
        self._latest, self._windows, self._offset, self._inode = {}, [], 0, None
        self._raw, self._raw_windows = {}, []
        self._refresh(compact=False)

    # -- reading ------------------------------------------------------------------------------------------------

    def _refresh(self, *, compact: bool = True) -> None:
        try:
            info = os.stat(self.path)
        except FileNotFoundError:
            self._latest, self._windows, self._offset, self._inode = {}, [], 0, None
            return
        identity = (info.st_dev, info.st_ino)
        if identity != self._inode or info.st_size < self._offset:  # replaced or cut: read it again whole
            self._latest, self._windows, self._offset, self._inode = {}, [], 0, identity
            self._raw, self._raw_windows, self._lines = {}, [], 0
        if info.st_size == self._offset:
            return
        with open(self.path, "rb") as handle:
            handle.seek(self._offset)
            data = handle.read()
        complete = data.rfind(b"\n") + 1  # a line still being written is read next time
        self._offset += complete
        for line in data[:complete].splitlines():
            self._lines += 1
            entry = self._parse(line)
            if entry is None:
                continue
            if entry.by == "window":
                self._windows.append(entry)
                self._raw_windows.append(line)
                continue
            known = self._latest.get(entry.path)
            if known is None or known.at_ns <= entry.at_ns:
                self._latest[entry.path] = entry
                self._raw[entry.path] = line
        if compact and self._lines > COMPACT_AT and self._lines > 2 * (len(self._raw) + len(self._raw_windows)):
            self._compact()

    def _parse(self, line: bytes) -> WrittenFile | None:
        try:
            fields = json.loads(line)
            entry = WrittenFile(**{name: fields[name] for name in _FIELDS})
        except (ValueError, TypeError, KeyError):
            return None
        if entry.by not in ("agent", "person", "window") or not self._signer.verify(
            _TABLE, fields, _FIELDS, fields.get("mac")
        ):
            self._signer.warn_once("provenance entry", f"{entry.path}@{entry.at_ns}")
            return None
        return entry

    def _current_hash(self, path: str) -> str | None:
        try:
            info = os.stat(path)
        except OSError:
            return None
        key = (path, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
        if key not in self._hashes:
            if len(self._hashes) > 10_000:
                self._hashes.clear()
            self._hashes[key] = content_hash(path)
        return self._hashes[key]

    def agent_written(self, path: str | os.PathLike[str]) -> WrittenFile | None:
        """The agent's entry when the file at ``path`` holds exactly what an agent's call wrote and the person has
        not accepted it since; None otherwise (never written by a tool, changed since, or trusted). A module inside
        an archive (``deps.zip/mod.py``) is judged by the archive."""
        absolute = _judged(path)
        with self._lock:
            with contextlib.suppress(OSError):
                self._refresh()
            entry = self._latest.get(absolute)
            if entry is not None and entry.sha256 == self._current_hash(absolute):
                return entry if entry.by == "agent" else None  # as the agent wrote it, or as the person accepted it
            return self._in_window(absolute)

    def _in_window(self, path: str) -> WrittenFile | None:
        if not self._windows:
            return None
        try:
            changed = os.stat(path).st_ctime_ns
        except OSError:
            return None
        if self._own_state(path):
            return None
        for window in self._windows:
            if path.startswith(os.path.join(window.path, "")) and window.at_ns <= changed <= window.until_ns:
                return WrittenFile(path, "", "agent", window.tool, window.call_id, changed)
        return None

    def written_by(self, call_ids: Iterable[str]) -> list[WrittenFile]:
        """The files these calls wrote that still hold what they wrote (a run's footer)."""
        wanted = set(call_ids)
        with self._lock:
            with contextlib.suppress(OSError):
                self._refresh()
            candidates = [e for e in self._latest.values() if e.by == "agent" and e.call_id in wanted]
        return [entry for entry in candidates if self.agent_written(entry.path) is not None]

    def agent_written_under(self, roots: Iterable[str | os.PathLike[str]]) -> list[WrittenFile]:
        """Every file under ``roots`` that still holds what an agent wrote (for ``%zeph status``)."""
        prefixes = [os.path.join(os.path.realpath(root), "") for root in roots]
        with self._lock:
            with contextlib.suppress(OSError):
                self._refresh()
            candidates = [e for e in self._latest.values() if e.by == "agent" and e.path.startswith(tuple(prefixes))]
        return [entry for entry in candidates if self.agent_written(entry.path) is not None]


def _judged(path: str | os.PathLike[str]) -> str:
    """The file that decides about ``path``: its real path, or for a path inside an archive on ``sys.path``
    (``…/deps.zip/pkg/mod.py``, which is no file of its own) the archive."""
    real = os.path.realpath(path)
    current = real
    while not os.path.lexists(current):
        parent = os.path.dirname(current)
        if parent == current:
            return real
        current = parent
    return current if os.path.isfile(current) else real


def default_home(environ: Mapping[str, str] | None = None) -> Path:
    """The zeph home (``$ZEPH_HOME``, default ``~/.zeph``): the one reader of that variable, here rather than in
    ``config`` because a kernel's import guard needs it before anything heavy may be imported (config loads
    pydantic, whose imports would then go through a guard still opening its journal)."""
    env = os.environ if environ is None else environ
    return Path(env.get("ZEPH_HOME") or Path.home() / ".zeph").expanduser()


class BackgroundRecorder:
    """Provenance's writes on a thread of their own, for a watcher that must not wait: hashing what a background
    command wrote reads its files (up to HASH_LIMIT each) — never in the way of undoing what it planted."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[Callable[[], object]] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def put(self, job: Callable[[], object]) -> None:
        self._queue.put(job)
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="zeph-pane-provenance", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            try:
                job = self._queue.get(timeout=5.0)
            except queue.Empty:
                with self._lock:  # idle: end; put() starts another
                    if self._queue.empty():
                        self._thread = None
                        return
                continue
            try:
                job()
            except OSError as e:
                log.warning("zeph-nb: could not record what a background command wrote: %s", e)

    def drain(self, timeout: float) -> bool:
        """Wait until every job so far is done (tests, benchmarks); False when that took longer than ``timeout``."""
        done = threading.Event()
        self.put(done.set)
        return done.wait(timeout)


_JOURNALS: dict[Path, Provenance] = {}
_JOURNALS_LOCK = threading.Lock()


def journal_for(home: Path) -> Provenance:
    """The one ``Provenance`` of this process for ``home`` (its index and hash cache are shared by every caller)."""
    with _JOURNALS_LOCK:
        key = Path(os.path.abspath(home))
        if key not in _JOURNALS:
            _JOURNALS[key] = Provenance(key)
        return _JOURNALS[key]
