"""Running the shell's process: starting it in its own group, capturing both pipes (capped), knowing the moment it
exits, and stopping the whole group — whatever background children it left holding the pipes."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import signal
import subprocess
import weakref
from collections.abc import Mapping
from typing import Any

from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.tools.base import ToolOutput

__all__ = [
    "ERROR_TAIL_CHARS",
    "MAX_CAPTURE_BYTES",
    "PIPE_GRACE_SECS",
    "Capture",
    "Spawned",
    "Started",
    "close_pipes",
    "exited",
    "finish",
    "kill_group",
    "pump",
    "raise_for_failure",
    "spawn",
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


_EXITS: weakref.WeakKeyDictionary[Started, asyncio.Event] = weakref.WeakKeyDictionary()


class Spawned:
    """A command ``spawn`` started: its pipes as stream readers, its exit seen through a pidfd the loop watches."""

    def __init__(self, popen: subprocess.Popen[bytes], stdout: asyncio.StreamReader, stderr: asyncio.StreamReader,
                 transports: list[asyncio.BaseTransport]) -> None:  # fmt: skip
        self._popen = popen
        self.pid = popen.pid
        self.stdout: asyncio.StreamReader | None = stdout
        self.stderr: asyncio.StreamReader | None = stderr
        self._transports = transports

    @property
    def returncode(self) -> int | None:
        return self._popen.returncode

    def close_pipes(self) -> None:
        """Stop reading both pipes (a child that left the group may hold them open for as long as it runs)."""
        for transport in self._transports:
            transport.close()


Started = asyncio.subprocess.Process | Spawned


@functools.cache
def _pidfd_works() -> bool:
    try:
        os.close(os.pidfd_open(os.getpid()))
    except (AttributeError, OSError):  # Python built without it, or Linux before 5.3
        return False
    return True


async def spawn(
    argv: list[str], *, cwd: str | os.PathLike[str], env: Mapping[str, str], pass_fds: tuple[int, ...] = ()
) -> Started:
    """Start ``argv`` in a session of its own (its own process group), stdin closed, both pipes captured: ``start``
    without asyncio's child watcher. On Python 3.11 that watcher starts a thread for each process and waits for it
    to run (measured: 0.35 ms a command, start to end, in a quiet process; more while the kernel's other threads
    hold the GIL); here the exit is a pidfd watched by the loop itself, and the process is reaped when it becomes
    readable. Where there is no pidfd, or the loop cannot watch a descriptor, this is ``start``."""
    loop = asyncio.get_running_loop()
    options: dict[str, Any] = {"cwd": cwd, "env": env, "stdin": subprocess.DEVNULL, "stdout": subprocess.PIPE,
                               "stderr": subprocess.PIPE, "start_new_session": True, "pass_fds": pass_fds}  # fmt: skip
    if not _pidfd_works() or not isinstance(loop, asyncio.SelectorEventLoop):
        return await start(argv, **options)
    popen = subprocess.Popen(argv, **options)  # vfork and exec, as asyncio's own start does
    assert popen.stdout is not None and popen.stderr is not None
    exited = asyncio.Event()
    pidfd = os.pidfd_open(popen.pid)

    def on_exit() -> None:
        loop.remove_reader(pidfd)
        os.close(pidfd)
        popen.poll()  # reaps it: waitpid on this pid only
        exited.set()

    loop.add_reader(pidfd, on_exit)
    transports: list[asyncio.BaseTransport] = []
    readers = []
    try:
        for pipe in (popen.stdout, popen.stderr):
            reader = asyncio.StreamReader(limit=2**16, loop=loop)
            connected = await loop.connect_read_pipe(functools.partial(asyncio.StreamReaderProtocol, reader), pipe)
            transports.append(connected[0])
            readers.append(reader)
    except BaseException:
        # Cancelled while the pipes were being connected: stop the whole group (the loop still reaps it), close our
        # ends, give up.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(popen.pid, signal.SIGKILL)
        for transport in transports:
            transport.close()
        for pipe in (popen.stdout, popen.stderr)[len(transports) :]:
            pipe.close()
        raise
    process = Spawned(popen, readers[0], readers[1], transports)
    _EXITS[process] = exited
    return process


def close_pipes(process: Started) -> None:
    """``Spawned.close_pipes``; asyncio's own process closes its pipes when it is collected."""
    if isinstance(process, Spawned):
        process.close_pipes()


async def exited(process: Started) -> int:
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


async def kill_group(process: Started) -> None:
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
