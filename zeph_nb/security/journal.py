"""A crash-safe record of the policy files that did not exist when a command started.

A sandboxed command can create a file in the working directory, and ``zeph.toml`` there is read by every later
``Settings.load()``. The shell removes such files when the command ends — but while it runs another kernel may load
settings, and a killed kernel never gets to the end. So before a command starts, the shell writes (durably) which
policy files were absent into the zeph home, where no tool can reach; the loader then

* ignores those files while the command's process is alive, and
* quarantines them (renamed to ``<name>.zeph-quarantined``) once that process is gone without cleaning up.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

__all__ = ["GuardJournal", "process_alive", "settle", "suspects"]

log = logging.getLogger("zeph_nb.security")
DIRECTORY = "guard"


class GuardJournal:
    """One command's entry: ``with GuardJournal(home, absent):`` around the command."""

    def __init__(self, home: Path, absent: list[Path]) -> None:
        self.path = home / DIRECTORY / f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:8]}.json"
        self.absent = absent

    def __enter__(self) -> GuardJournal:
        if self.absent:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            data = json.dumps({"host": socket.gethostname(), "pid": os.getpid(),
                               "absent": [os.fspath(p) for p in self.absent]})  # fmt: skip
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                os.write(fd, data.encode("utf-8"))
                os.fsync(fd)
            finally:
                os.close(fd)
        return self

    def __exit__(self, *exc: object) -> None:
        self.path.unlink(missing_ok=True)


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
