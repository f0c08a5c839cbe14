"""A crash-safe record of the policy files that did not exist when a command started.

A sandboxed command can create a file in the working directory, and ``zeph.toml`` there is read by every later
``Settings.load()``. The shell removes such files when the command ends — but while it runs another kernel may load
settings, and a killed kernel never gets to the end. So before a command starts, the shell writes (durably) which
policy files were absent into the zeph home, where no tool can reach; the loader then

* ignores those files while the command's process is alive, and
* quarantines them (renamed to ``<name>.zeph-quarantined``) once that process is gone without cleaning up.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import json
import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

__all__ = ["GuardJournal", "process_alive", "settle", "suspects"]

log = logging.getLogger("zeph_nb.security")
DIRECTORY = "guard"


class GuardJournal:
    """One command's entry: ``with GuardJournal(home, absent):`` around the command.

    A process keeps the files of its entries and writes each over again, in place and the same size, rather than
    creating one before a command and removing it after: creating, fsyncing and unlinking a file are changes to the
    file system's own journal, which wait behind every other process's fsync (measured on a shared disk: the unlink
    after a command 0.30 ms median, 2.9 ms p90; writing the idle record in place 0.02-0.03 ms). Between commands an
    entry holds no paths (``absent`` empty), which every reader ignores; a file left by a process that is gone is
    removed by the next ``settle``, as before."""

    def __init__(self, home: Path, absent: list[Path]) -> None:
        self.home = home
        self.absent = absent
        self.path: Path | None = None  # the file holding this entry while its command runs
        self._size = 0

    def __enter__(self) -> GuardJournal:
        if self.absent:
            self.path, self._size = _write_entry(self.home, _record(self.absent))
        return self

    def __exit__(self, *exc: object) -> None:
        path, self.path = self.path, None
        if path is not None:
            _clear_entry(self.home, path, self._size)


# Each process's entry files not in use, per zeph home: (path, size). Only this process writes them.
_IDLE: dict[tuple[int, str], list[tuple[Path, int]]] = {}
_IDLE_LOCK = threading.Lock()
_BLOCK = 4096  # entries are padded to whole blocks, so one written over another keeps the file's size
_WRITE = os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC


def _record(absent: list[Path]) -> bytes:
    data = json.dumps({"host": socket.gethostname(), "pid": os.getpid(), "absent": [os.fspath(p) for p in absent]})
    return data.encode("utf-8")


def _padded(data: bytes, size: int) -> bytes:
    """``data`` with trailing spaces (which JSON ignores) up to ``size``, or to whole blocks when it is longer."""
    if len(data) > size:
        size = -(-len(data) // _BLOCK) * _BLOCK
    return data.ljust(size)


def _write_entry(home: Path, data: bytes) -> tuple[Path, int]:
    """``data`` written durably into one of this process's idle entry files (or a new one); its path and size.

    Over an existing file of the same size only the data has to reach the disk (``fdatasync``); a new file is
    fsynced whole, as every entry was before."""
    key = (os.getpid(), os.fspath(home))
    with _IDLE_LOCK:
        idle = _IDLE.get(key)
        taken = idle.pop() if idle else None
    if taken is not None:
        path, size = taken
        try:
            fd = os.open(path, _WRITE)
        except OSError:
            pass  # removed meanwhile (the home or its guard folder deleted): a new one below
        else:
            padded = _padded(data, size)
            try:
                os.pwrite(fd, padded, 0)
                os.fdatasync(fd)
            except BaseException:
                path.unlink(missing_ok=True)  # what it holds now is not known: it must not outlive the failure
                raise
            finally:
                os.close(fd)
            return path, len(padded)
    folder = home / DIRECTORY
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:8]}.json"
    padded = _padded(data, _BLOCK)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        os.write(fd, padded)
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        path.unlink(missing_ok=True)
        raise
    os.close(fd)
    _remove_idle_at_exit()
    return path, len(padded)


def _clear_entry(home: Path, path: Path, size: int) -> None:
    """The entry at ``path`` emptied (no paths: its command is over) and kept for this process's next command.
    Not synced: after a crash the entry may still name the paths, which ``settle`` then sets aside if they
    exist — as an entry removed but not yet on disk did. If it cannot be written it is removed."""
    try:
        fd = os.open(path, _WRITE)
    except OSError:
        return  # gone: nothing names the paths any more
    try:
        os.pwrite(fd, _padded(_record([]), size), 0)
    except OSError:
        os.close(fd)
        path.unlink(missing_ok=True)
        return
    os.close(fd)
    with _IDLE_LOCK:
        _IDLE.setdefault((os.getpid(), os.fspath(home)), []).append((path, size))


@functools.cache
def _remove_idle_at_exit() -> None:
    """At the process's exit, its idle entries are removed (a crash leaves them to the next ``settle``)."""
    atexit.register(_remove_idle)


def _remove_idle() -> None:
    with _IDLE_LOCK:
        mine = [entry for (pid, _), idle in _IDLE.items() if pid == os.getpid() for entry in idle]
        _IDLE.clear()
    for path, _ in mine:
        with contextlib.suppress(OSError):
            path.unlink()


def _entries(home: Path) -> Iterator[tuple[Path, dict[str, object]]]:
    folder = home / DIRECTORY
    try:
        files = sorted(folder.glob("*.json"))
    except OSError:
        return
    for file in files:
        try:
            yield file, json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue


def process_alive(host: str, pid: int | None) -> bool:
    """False only when the process is known to be gone: same host, and no such pid (another host's, or an
    unknown pid, cannot be told apart from a live one)."""
    if pid is None or host != socket.gethostname():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, belongs to someone else
        return True
    return True


def _alive(entry: dict[str, object]) -> bool:
    pid = entry.get("pid")
    return isinstance(pid, int) and process_alive(str(entry.get("host")), pid)


def settle(home: Path) -> list[Path]:
    """Quarantine files created by commands whose process died mid-command; returns the quarantined files."""
    moved: list[Path] = []
    for file, entry in _entries(home):
        if _alive(entry):
            continue
        absent = entry.get("absent")
        for raw in absent if isinstance(absent, list) else []:
            path = Path(str(raw))
            if os.path.lexists(path):
                target = path.with_name(f"{path.name}.zeph-quarantined-{int(time.time())}")
                with contextlib.suppress(OSError):
                    path.rename(target)
                    moved.append(target)
                    log.warning(
                        "zeph-nb: %s was created by a command that never finished (its kernel died) and was set "
                        "aside as %s; config files are out of reach of tools: look at it and rename it back "
                        "if you wrote it yourself",
                        path,
                        target.name,
                    )
        file.unlink(missing_ok=True)
    return moved


def suspects(home: Path) -> set[Path]:
    """Files a command that is running right now may have created: not to be trusted as config yet."""
    found: set[Path] = set()
    for _, entry in _entries(home):
        absent = entry.get("absent")
        if _alive(entry) and isinstance(absent, list):
            found.update(Path(str(raw)) for raw in absent)
    return found
