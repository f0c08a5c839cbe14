"""Running the shell's process: starting it in its own group, capturing both pipes (capped), knowing the moment it
exits, and stopping the whole group — whatever background children it left holding the pipes."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import weakref
from typing import Any

from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.tools.base import ToolOutput

__all__ = [
    "ERROR_TAIL_CHARS",
    "MAX_CAPTURE_BYTES",
    "PIPE_GRACE_SECS",
    "Capture",
    "exited",
    "finish",
    "kill_group",
    "pump",
    "raise_for_failure",
    "start",
]

ERROR_TAIL_CHARS = 4000  # of a failed command's output, quoted in its error
MAX_CAPTURE_BYTES = 16 * 1024 * 1024  # per stream; the overflow store takes what the model should not read
TERM_GRACE_SECS = 1.0  # between SIGTERM and SIGKILL
PIPE_GRACE_SECS = 0.5
# Polling for the exit: from 1 ms, backing off to 20 ms, so a short command is seen to end within a millisecond or
# two and a long one costs 50 wake-ups a second.
EXIT_POLL_FIRST_SECS = 0.001
EXIT_POLL_SECS = 0.02


class Capture:
    """Both pipes, kept apart and interleaved in arrival order, each capped at MAX_CAPTURE_BYTES."""

    def __init__(self) -> None:
        self.streams: dict[str, bytearray] = {"stdout": bytearray(), "stderr": bytearray()}
        self.combined: list[bytes] = []
        self.truncated = False

    def add(self, name: str, chunk: bytes) -> None:
        buffer = self.streams[name]
        room = MAX_CAPTURE_BYTES - len(buffer)
        if room <= 0:
            self.truncated = True
            return
        if len(chunk) > room:
            chunk, self.truncated = chunk[:room], True
        buffer.extend(chunk)
        self.combined.append(chunk)

    @property
    def cap(self) -> int:
        """The bytes kept per stream."""
        return MAX_CAPTURE_BYTES

    def text(self, name: str) -> str:
        return self.streams[name].decode("utf-8", errors="replace")

    def interleaved(self) -> str:
        return b"".join(self.combined).decode("utf-8", errors="replace")


class ExitProtocol(asyncio.subprocess.SubprocessStreamProtocol):
    """The usual stream protocol, plus an event set the moment the process exits.

    ``Process.wait()`` on Python 3.11 also waits for both pipes to close, which a background child
    (``sleep 60 &``) keeps open long after the shell itself has exited; the exit itself is known earlier.
    """

    def __init__(self, limit: int, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(limit=limit, loop=loop)
        self.exited = asyncio.Event()

    def process_exited(self) -> None:
        super().process_exited()
        self.exited.set()


async def start(argv: list[str], **options: Any) -> asyncio.subprocess.Process:
    """``asyncio.create_subprocess_exec``, with the protocol above (the same three steps it takes)."""
    loop = asyncio.get_running_loop()
    spawn = asyncio.ensure_future(loop.subprocess_exec(lambda: ExitProtocol(limit=2**16, loop=loop), *argv, **options))
    try:
        transport, protocol = await asyncio.shield(spawn)
    except asyncio.CancelledError:
        # Cancelled (Stop, a timeout) while the shell was starting. Left to itself, asyncio would kill the shell and
        # then wait for its pipes to close, which a background child (`sleep 300 &`) holds open for as long as it
        # runs: the cell would hang. Let the start finish, stop the whole group, close our ends, then give up.
        with contextlib.suppress(Exception):
            transport, _ = await spawn
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(transport.get_pid(), signal.SIGKILL)
            transport.close()
        raise
    process = asyncio.subprocess.Process(transport, protocol, loop)
    _EXITS[process] = protocol.exited
    return process


_EXITS: weakref.WeakKeyDictionary[asyncio.subprocess.Process, asyncio.Event] = weakref.WeakKeyDictionary()


async def exited(process: asyncio.subprocess.Process) -> int:
    """The exit code as soon as the shell exits (not when its pipes close)."""
    exited = _EXITS.get(process)
    if exited is not None:
        await exited.wait()
    delay = EXIT_POLL_FIRST_SECS
    while process.returncode is None:  # a process started elsewhere, or the code not stored yet
        await asyncio.sleep(delay)
        delay = min(EXIT_POLL_SECS, delay * 1.5)
    return process.returncode


async def pump(stream: asyncio.StreamReader | None, name: str, capture: Capture) -> None:
    if stream is None:
        return
    while chunk := await stream.read(65536):
        capture.add(name, chunk)


async def finish(pumps: list[asyncio.Task[None]], grace: float = PIPE_GRACE_SECS, *, cancel: bool = True) -> bool:
    """Let the readers drain for up to ``grace`` seconds; True when both pipes reached end of file.

    With ``cancel`` the readers still waiting are stopped; without it they are left running.
    """
    _, pending = await asyncio.wait(pumps, timeout=grace)
    if cancel:
        for task in pending:
            task.cancel()
        for task in pending:
            with contextlib.suppress(asyncio.CancelledError):
                await task
    return not pending


async def kill_group(process: asyncio.subprocess.Process) -> None:
    """SIGTERM to the whole group, then SIGKILL to whatever is left of it."""
    pgid = process.pid  # start_new_session made the shell its group's leader
    for sig in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, sig)
        if sig == signal.SIGTERM:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(exited(process), TERM_GRACE_SECS)
    await exited(process)


def raise_for_failure(output: ToolOutput) -> None:
    """Exit statuses and messages that mean the command could not do anything become categorised errors."""
    code = output.exit_code
    if code is None or code == 0:
        return
    stderr = str(output.raw.get("stderr", "")).lower()
    category = None
    if code == 126:
        category = ToolErrorCategory.POLICY_BLOCKED  # found but not executable
    elif code == 127:
        category = ToolErrorCategory.PERMANENT_FAILURE  # command not found
    elif "permission denied" in stderr or "no such file or directory" in stderr:
        category = ToolErrorCategory.PERMANENT_FAILURE
    if category is not None:
        raise ToolError(category, output.summary[-ERROR_TAIL_CHARS:], details=dict(output.raw))
