"""Commands in tmux panes: started in the background, watched, answered, stopped.

One tmux server per kernel, on a socket of its own (``tmux -S <socket> attach -t <session>`` shows it to a person,
``%zeph status`` prints the line). The server runs outside the OS sandbox, and every pane it opens for a command runs
that command inside it: ``prlimit … bwrap … -- bash -c <command>``, exactly what a ``bash`` call gets. So:

- The socket lives where no sandbox can see it (``/run/user/<uid>`` or ``/tmp``, both private in the sandbox).
  A command that reached the server could have it run anything outside (``run-shell``, ``new-window``), and a
  command that could replace the socket could answer our own client as a fake server.
- The server starts from the scrubbed environment the shell tool uses, never the kernel's: a pane inherits the
  server's environment.
- Only panes this process opened can be read or typed into; the session's first window holds nothing to type into.
- Passthrough, clipboard and renaming escapes from a pane are off: a command's output must not reach the terminal
  of a person who attached.

A pane keeps its command's output after it ends (``remain-on-exit``), with its exit status.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import os
import re
import shlex
import shutil
import signal as sig
import socket
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import ClassVar, Protocol

from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.security.sockets import socket_folder
from zeph_nb.tools.shell.pane_model import Guard, Pane, PaneState

__all__ = [
    "MAX_CAPTURE_CHARS",
    "MAX_RUNNING_PANES",
    "Pane",
    "PaneState",
    "TmuxPanes",
    "attach_command",
    "tmux_available",
]

MAX_CAPTURE_CHARS = 8000  # what capture-pane gives the model: the tail
KEEP_DEAD_PANES = 20  # finished commands' windows kept for a person to look at; older ones are closed
MAX_RUNNING_PANES = 16  # per toolset: more is a runaway loop, and each pane's history lives in the server
HISTORY_LINES = 10_000  # per pane, in the tmux server's memory (outside every sandbox's limits)
_CLIENT_TIMEOUT_SECS = 10.0


def tmux_available() -> str | None:
    """The tmux binary, or None."""
    return shutil.which("tmux")


_STATE = "#{pane_dead}:#{pane_dead_status}:#{pane_dead_signal}:#{pid}"  # the pane's end, and the server's pid


def _kill_server(argv: list[str], socket_file: Path | None = None) -> None:
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        subprocess.run(argv, capture_output=True, timeout=5, check=False)
    if socket_file is not None:  # tmux (3.3a) leaves its socket file behind when it exits
        with contextlib.suppress(OSError):
            socket_file.unlink()


def _remove_stale_sockets(folder: Path) -> None:
    """Sockets of kernels that are gone (``zeph-<pid>.sock``) and of servers that are gone: tmux leaves its socket
    behind when killed. A server that still answers is left alone even when its kernel is gone: its watchdog window
    stops it (and its commands) within a second, through that very socket, and removing the file first orphaned
    the server and every command in it for good (seen when another kernel started in that second)."""
    if not Path("/proc/self").exists():  # no way to tell a live kernel from a gone one here
        return
    for path in folder.glob("zeph-*.sock"):
        pid = path.stem.removeprefix("zeph-")
        if pid.isdigit() and int(pid) != os.getpid() and not Path(f"/proc/{pid}").exists() and not _answers(path):
            with contextlib.suppress(OSError):
                path.unlink()


def _answers(path: Path) -> bool:
    """Whether a server listens on the Unix socket at ``path`` (a refused connection: nothing does)."""
    with socket.socket(socket.AF_UNIX) as probe:
        probe.setblocking(False)
        try:
            probe.connect(str(path))
        except BlockingIOError:  # its backlog is full: it is there
            return True
        except OSError:
            return False
    return True


def _person_pane() -> Pane | None:
    """The pane this kernel runs in, when it runs inside tmux: ``$TMUX`` is "<socket>,<pid>,<session>"."""
    socket, pane_id = os.environ.get("TMUX", "").split(",")[0], os.environ.get("TMUX_PANE", "")
    if not socket or not re.fullmatch(r"%\d+", pane_id):
        return None
    return Pane(pane_id, "your own pane (where this kernel runs)", sandboxed=False, server=socket)


class RemoteTmux(Protocol):
    """A place with a tmux of its own (an SSH host, a container): how to run its client, and how to watch it."""

    @property
    def where(self) -> str: ...

    def tmux_argv(self, args: Sequence[str]) -> list[str]: ...

    def attach_hint(self, label: str, session: str) -> str: ...


def _session_name() -> str:
    return f"zeph-{os.getpid()}"


def attach_command() -> str:
    """How a person watches this kernel's panes, from a terminal (JupyterLab's, say)."""
    session = _session_name()
    return f"tmux -S {socket_folder() / f'{session}.sock'} attach -t {session}"


class TmuxPanes:
    """The kernel's tmux server and the panes its commands run in."""

    _instances: ClassVar[list[TmuxPanes]] = []

    def __init__(
        self,
        env: Mapping[str, str],
        *,
        socket: Path | None = None,
        session: str | None = None,
        remote: RemoteTmux | None = None,
    ) -> None:
        self.remote = remote  # None: this machine's tmux, on a socket of our own; else the far side's
        binary = tmux_available() if remote is None else "tmux"
        if binary is None:
            raise ToolError(ToolErrorCategory.PERMANENT_FAILURE,
                            "tmux is not installed; install it (Debian/Ubuntu: apt-get install tmux) or run "
                            "commands without --tmux")  # fmt: skip
        self.binary = binary
        self.session = session or _session_name()
        self.socket = socket or socket_folder() / f"{self.session}.sock"
        # The server's environment is every pane's: the scrubbed one, without the person's own tmux.
        self.env = {k: v for k, v in env.items() if k not in ("TMUX", "TMUX_PANE")}
        self.panes: dict[str, Pane] = {}
        self.person = _person_pane() if remote is None else None  # target "user": the pane this kernel runs in
        self._started = False
        self._lock = asyncio.Lock()

    @classmethod
    def for_toolset(cls, env: Mapping[str, str], remote: RemoteTmux | None = None) -> TmuxPanes:
        """One toolset's panes (its bash and pane tools share them) on the kernel's server: one server per kernel,
        but a toolset reads and types only into the panes it opened — another agent's chain in the same kernel
        has panes of its own."""
        panes = cls(env, session=_session_name(), remote=remote)
        cls._instances.append(panes)
        return panes

    @classmethod
    def jobs(cls) -> list[tuple[str, str, str]]:
        """Every background command of this kernel, oldest first: (pane, how it stands, command). Synchronous and
        one tmux call per toolset, for ``%zeph jobs`` (a magic cannot wait on the kernel's own event loop)."""
        found: list[tuple[str, str, str]] = []
        for panes in cls._instances:
            if not panes.panes or not panes._may_exist():
                continue
            try:
                listed = subprocess.run(panes._argv(["list-panes", "-s", "-t", panes.session, "-F",
                                                     "#{pane_id}:" + _STATE]), env=panes.env,
                                        capture_output=True, text=True, timeout=15, check=False).stdout  # fmt: skip
            except (OSError, subprocess.SubprocessError):
                continue
            states = {line.split(":", 1)[0]: line.split(":")[1:4] for line in listed.splitlines()}
            for pane in panes.panes.values():
                dead, status, signal = states.get(pane.id, ["1", "", ""])
                state = PaneState(dead == "1", int(status) if status.isdigit() else None,
                                  int(signal) if signal.isdigit() else None, gone=pane.id not in states)  # fmt: skip
                found.append((pane.id, state.describe(), pane.command))
        return found

    @property
    def attach_command(self) -> str:
        if self.remote is not None:
            return self.remote.attach_hint(self.session, self.session)
        return f"tmux -S {self.socket} attach -t {self.session}"

    # -- the server ----------------------------------------------------------------------------------------

    def _argv(self, args: Sequence[str]) -> list[str]:
        """The tmux client's argv: ours on our socket, or the far side's on a server named after the session."""
        if self.remote is not None:
            return self.remote.tmux_argv(["-L", self.session, *args])
        return [self.binary, "-S", str(self.socket), *args]

    def _may_exist(self) -> bool:
        """Whether the server may be running (locally: its socket is there; remotely it cannot be seen)."""
        return self.remote is not None or self.socket.exists()

    async def tmux(self, *args: str, check: bool = True, server: str | None = None) -> str:
        argv = [self.binary, "-S", server, *args] if server is not None else self._argv(args)
        process = await asyncio.create_subprocess_exec(
            *argv, env=self.env, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        try:
            out, err = await asyncio.wait_for(process.communicate(), _CLIENT_TIMEOUT_SECS)
        except TimeoutError:
            process.kill()
            await process.wait()
            raise ToolError(ToolErrorCategory.SERVER_ERROR, f"tmux {args[0]} did not answer in "
                            f"{_CLIENT_TIMEOUT_SECS:g} s") from None  # fmt: skip
        if check and process.returncode != 0:
            message = err.decode(errors="replace").strip() or f"exit status {process.returncode}"
            raise ToolError(ToolErrorCategory.PERMANENT_FAILURE, f"tmux {args[0]}: {message}")
        return out.decode("utf-8", errors="replace")

    async def ensure(self, workdir: Path) -> None:
        async with self._lock:
            if self._started and await self._alive():
                return
            if not await self._alive():
                if self.remote is None:
                    _remove_stale_sockets(self.socket.parent)
                # The first window shows where commands go and reads nothing: typing into it does nothing. It is
                # also the server's watchdog: when this process is gone — however it ended, a SIGKILL included,
                # which no atexit hook sees — it stops the server and every command in it.
                # (On a remote side nothing can watch this process: its panes stay until the kernel exits
                # cleanly or someone stops them there — commands on a GPU box may well be meant to.)
                note = f"zeph-nb: each background command opens a window of its own in session {self.session}."
                # Once the kernel is gone it ignores the hangup the server's end sends it, to remove the socket
                # file tmux leaves behind (a kernel stopped with SIGTERM, as Jupyter does, ran no atexit hook).
                sock = shlex.quote(str(self.socket))
                watch = (f"printf '%s\\n' '{note}'; exec < /dev/null; while kill -0 {os.getpid()} 2>/dev/null; "
                         f"do sleep 1; done; trap '' HUP; {shlex.quote(self.binary)} -S {sock} kill-server; "
                         f"rm -f {sock}")  # fmt: skip
                if self.remote is not None:
                    watch = f"printf '%s\\n' '{note}'; exec tail -f /dev/null < /dev/null"
                try:
                    await self.tmux("-f", "/dev/null", "new-session", "-d", "-s", self.session, "-x", "200", "-y",
                                    "50", "-n", "zeph", "-c", str(workdir), "--", "sh", "-c", watch)  # fmt: skip
                except ToolError:
                    if not await self._alive():  # not another toolset of this kernel starting it just now
                        raise
                # Background commands end with the kernel, as every other command of the agent does.
                atexit.register(_kill_server, self._argv(["kill-server"]), None if self.remote else self.socket)
                for option, value in (("remain-on-exit", "on"), ("history-limit", str(HISTORY_LINES)),
                                      ("set-clipboard", "off"), ("allow-rename", "off"),
                                      ("allow-passthrough", "off")):  # fmt: skip
                    await self.tmux("set-option", "-g", option, value, check=option != "allow-passthrough")
            if not self._started:
                atexit.register(self._close_guards)
            self._started = True

    async def _alive(self) -> bool:
        if not self._may_exist():
            return False
        try:
            await self.tmux("has-session", "-t", self.session)
        except ToolError:
            return False
        return True

    async def close(self) -> None:
        """Stop the server and every command in it."""
        if self._may_exist():
            await self.tmux("kill-server", check=False)
            for _ in range(100 if self.remote is None else 0):  # a new server must not meet the old one
                if not self._serving():
                    break
                await asyncio.sleep(0.02)
            if self.remote is None and not self._serving():  # the file tmux leaves behind
                with contextlib.suppress(OSError):
                    self.socket.unlink()
        self._close_guards()
        self.panes.clear()
        self._started = False

    def _serving(self) -> bool:
        """Whether a server still answers on the socket. tmux (3.3a) leaves the socket file behind when it exits,
        so the file says nothing; a connection refused says the server has stopped listening, as it exits."""
        return _answers(self.socket)

    def _close_guards(self) -> None:
        """Every pane's last check (the server is gone, or the kernel is exiting)."""
        for pane in self.panes.values():
            with contextlib.suppress(Exception):  # one failing check must not keep the others from running
                pane.check(ended=True)

    # -- panes ---------------------------------------------------------------------------------------------

    async def open(
        self,
        argv: Sequence[str],
        command: str,
        *,
        workdir: Path,
        env: Mapping[str, str],
        sandboxed: bool = True,
        guard: Guard | None = None,
    ) -> Pane:
        """Start ``argv`` in a new window of the session; returns its pane. ``guard`` (entered) is the pane's
        to check and close."""
        await self.ensure(workdir)
        await self._forget_old()
        running = [pane.id for pane in list(self.panes.values()) if not (await self.state(pane)).dead]
        if len(running) >= MAX_RUNNING_PANES:
            raise ToolError(
                ToolErrorCategory.RATE_LIMITED,
                f"{len(running)} commands are running in tmux panes already ({', '.join(running)}); "
                "stop one (send-keys keys=['C-c']) or wait for one to end before starting another",
            )
        name = re.sub(r"[^\w.-]+", "-", command.split()[0] if command.split() else "cmd")[:20] or "cmd"
        extra = [arg for key, value in env.items() for arg in ("-e", f"{key}={value}")]
        shown = (await self.tmux("new-window", "-d", "-t", f"{self.session}:", "-P", "-F", "#{pane_id}:#{pane_pid}",
                                 "-n", name, "-c", str(workdir), *extra, "--", *argv)).strip()  # fmt: skip
        pane_id, _, pid = shown.partition(":")
        pane = Pane(pane_id, command, sandboxed=sandboxed, guard=guard,
                    pid=int(pid) if pid.isdigit() and self.remote is None else None)  # fmt: skip
        self.panes[pane_id] = pane
        return pane

    def pane(self, target: str | None) -> Pane:
        """One of this process's panes: ``target`` (``%3``), or the latest when None; ``user`` is the person's own
        pane, when the kernel runs in tmux (never the default)."""
        if target == "user":
            if self.person is None:
                why = "this kernel does not run inside tmux ($TMUX_PANE is not set), so there is no pane of yours"
                raise ToolError(ToolErrorCategory.INVALID_PARAMETERS, why)
            return self.person
        if target is None:
            if not self.panes:
                why = "no command has been started in a tmux pane yet; run one with bash wait=false"
                raise ToolError(ToolErrorCategory.INVALID_PARAMETERS, why)
            return list(self.panes.values())[-1]
        pane = self.panes.get(target)
        if pane is None:
            known = ", ".join(self.panes) or "none yet"
            raise ToolError(ToolErrorCategory.INVALID_PARAMETERS,
                            f"{target!r} is not a pane of this agent's commands (panes: {known})")  # fmt: skip
        return pane

    async def state(self, pane: Pane) -> PaneState:
        """Whether the pane's command has ended, and how."""
        for attempt in range(2):
            shown = await self.tmux("display-message", "-p", "-t", pane.id, _STATE, check=False, server=pane.server)
            parts = shown.strip().split(":")
            if len(parts) != 4:  # the pane is gone (closed by a person)
                pane.check(ended=True)
                return PaneState(True, None, None, gone=True)
            dead, status, signal, server = parts
            if dead == "1" and not (status or signal) and attempt == 0 and server.isdigit():
                # tmux marks a pane dead when its terminal closes and learns the exit status when SIGCHLD makes it
                # reap the process. tmux 3.3a misses that signal now and then (1 run in 4 of a short command, here),
                # leaving a zombie and no status for good; another SIGCHLD makes it reap.
                with contextlib.suppress(OSError, ToolError):
                    if self.remote is None:
                        os.kill(int(server), sig.SIGCHLD)
                    else:  # the server's machine is elsewhere: the server itself sends it
                        await self.tmux("run-shell", f"kill -s CHLD {int(server)}", check=False)
                await asyncio.sleep(0.02)
                continue
            break
        ended = dead == "1" and (status.isdigit() or signal.isdigit())
        if ended:
            pane.check(ended=True)
        return PaneState(ended, int(status) if status.isdigit() else None,
                         int(signal) if signal.isdigit() else None)  # fmt: skip

    async def capture(self, pane: Pane, *options: str, start: str = "-", end: str = "-") -> str:
        return await self.tmux("capture-pane", "-p", "-t", pane.id, *options, "-S", start, "-E", end,
                               server=pane.server)  # fmt: skip

    async def send(self, pane: Pane, *, keys: Sequence[str] = (), literal: str = "", enter: bool = False) -> None:
        # The seed's order: the text, then the keys (``"yes"`` then ``Enter`` answers a prompt), then Enter.
        if literal:
            await self.tmux("send-keys", "-t", pane.id, "-l", "--", literal, server=pane.server)
        if keys:
            await self.tmux("send-keys", "-t", pane.id, "--", *keys, server=pane.server)
        if enter:
            await self.tmux("send-keys", "-t", pane.id, "Enter", server=pane.server)

    async def wait(self, pane: Pane, seconds: float | None) -> PaneState:
        """Poll until the pane's command ends or ``seconds`` pass (None: no limit)."""
        deadline = None if seconds is None else time.monotonic() + seconds
        pause = 0.02
        while True:
            state = await self.state(pane)
            if state.dead or (deadline is not None and time.monotonic() >= deadline):
                return state
            await asyncio.sleep(pause if deadline is None else min(pause, max(0.0, deadline - time.monotonic())))
            pause = min(pause * 2, 0.25)

    async def _forget_old(self) -> None:
        """Close the windows of finished commands beyond the newest KEEP_DEAD_PANES."""
        dead = []
        for pane in list(self.panes.values()):
            if (await self.state(pane)).dead:
                dead.append(pane)
        for pane in dead[: max(0, len(dead) - KEEP_DEAD_PANES + 1)]:
            await self.tmux("kill-pane", "-t", pane.id, check=False)
            self.panes.pop(pane.id, None)
