"""CommandBackend: what every place a command can run elsewhere shares — a container, an SSH host.

A backend is a way to turn a short POSIX ``sh`` script and its arguments into the argv of a local client process
(``docker exec …``, ``ssh …``). Everything else is written once here, over that:

- ``run``: a command line in the remote working directory, via ``bash -lc`` (``sh -lc`` where there is no bash),
  stdin given or closed, both streams kept apart, a timeout that stops the command *there* — killing the local
  client does not: neither sshd nor ``docker exec`` ends the remote process when its client goes.
- ``read_file`` (``cat``) and ``write_file`` (stdin to a temporary file beside the target, then ``mv``: a reader
  never sees half a file), each confined to the remote working directory after the remote side resolved links
  (``realpath``), with credential folders refused — the path rules of the local file tools, applied there.

Nothing here is shell-quoted by hand twice: the script is fixed text, the values travel as positional arguments,
and ``shlex.join`` quotes them once for a client (ssh) that hands the remote side a single string.
"""

from __future__ import annotations

import asyncio
import contextlib
import posixpath
import uuid
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.security.protected import CREDENTIAL_PATHS
from zeph_nb.tools.shell.process import Capture, exited, finish, kill_group, pump, start

__all__ = ["CommandBackend", "CommandResult", "RemoteRefused"]

# Exit statuses the scripts below use to say why they refused (126: found but not allowed, as a shell says).
_OUTSIDE, _NO_DIR = 126, 125

# $1 the working directory, $2 a token naming this run's group file, $3 the command line. The group file lets a
# timeout stop the command on the far side (stop_script below); it is removed when the command ends.
RUN_SCRIPT = r"""
cd -- "$1" || exit 125
f="${TMPDIR:-/tmp}/zeph-run-$2.pgid"; g=$$
[ -r /proc/$$/stat ] && read -r _ _ _ _ g _ < /proc/$$/stat
echo "$g" > "$f" 2>/dev/null
if command -v bash >/dev/null 2>&1; then bash -lc "$3"; else sh -lc "$3"; fi
rc=$?; rm -f "$f"; exit $rc
"""

# $1 the token. The group is killed only when it is a real one (never 0 or 1: "kill -- -1" is every process).
STOP_SCRIPT = r"""
f="${TMPDIR:-/tmp}/zeph-run-$1.pgid"
[ -r "$f" ] || exit 0
read -r g < "$f"
case "$g" in ''|*[!0-9]*) exit 0;; esac
[ "$g" -gt 1 ] || exit 0
kill -s TERM -- "-$g" 2>/dev/null; sleep 1; kill -s KILL -- "-$g" 2>/dev/null; rm -f "$f"; exit 0
"""

# $1 the path, $2 the working directory (resolved). Prints nothing but the file.
READ_SCRIPT = r"""
p=$(realpath -- "$1" 2>/dev/null) || { echo "no such file: $1" >&2; exit 2; }
case "$p" in "$2"|"$2"/*) ;; *) echo "outside the working directory: $1 is $p" >&2; exit 126;; esac
[ -e "$p" ] || { echo "no such file: $1" >&2; exit 2; }
[ -d "$p" ] && { echo "$1 is a directory" >&2; exit 2; }
exec cat -- "$p"
"""

# $1 the path, $2 the working directory (resolved). stdin is the new content.
WRITE_SCRIPT = r"""
d=$(dirname -- "$1")
mkdir -p -- "$d" || exit 2
rd=$(realpath -- "$d") || exit 2
case "$rd" in "$2"|"$2"/*) ;; *) echo "outside the working directory: $d is $rd" >&2; exit 126;; esac
t=$(mktemp "$rd/.zeph-write.XXXXXX") || exit 2
if cat > "$t" && mv -f -- "$t" "$rd/$(basename -- "$1")"; then exit 0; fi
rc=$?; rm -f -- "$t"; exit $rc
"""

_CREDENTIAL_NAMES = frozenset(path.split("/")[0] for path in CREDENTIAL_PATHS)
_STOP_TIMEOUT_SECS = 15.0


class RemoteRefused(ToolError):
    """A path the remote side's rules refuse."""


@dataclass(frozen=True)
class CommandResult:
    stdout: str
    stderr: str
    interleaved: str
    exit_code: int
    truncated: bool


class CommandBackend(ABC):
    """Runs commands and moves files through a local client process; subclasses say how to reach the far side."""

    kind: str = "remote"

    def __init__(self, *, workdir: str | None, env: Mapping[str, str]) -> None:
        self._workdir = workdir  # as given; resolved on the far side by connect()
        self.workdir = ""  # absolute, links resolved: set by connect()
        self.env = dict(env)  # the local client's environment

    # -- what a subclass provides ------------------------------------------------------------------------

    @abstractmethod
    def argv(self, script: str, args: Sequence[str], *, stdin: bool) -> list[str]:
        """The local argv that runs ``sh -c script sh args…`` on the far side."""

    @property
    @abstractmethod
    def where(self) -> str:
        """Where commands run, for a person: ``ssh alice@gpu-box:22``, ``docker container web``."""

    @abstractmethod
    def tmux_argv(self, args: Sequence[str]) -> list[str]:
        """The local argv that runs ``tmux args…`` on the far side."""

    @abstractmethod
    def attach_hint(self, label: str, session: str) -> str:
        """The command a person types to watch the far side's tmux session."""

    async def open(self) -> None:  # noqa: B027 - a backend with nothing to open keeps this
        """Connect once (an SSH master connection, a probe of the container); errors say what to do."""

    def close(self) -> None:  # noqa: B027 - most backends hold nothing
        """Let go of what ``open`` holds (synchronous: it runs at exit too)."""

    # -- shared behaviour ----------------------------------------------------------------------------------

    async def connect(self) -> None:
        """Open the connection (again, when it closed after being idle) and resolve the working directory there
        (``~``, links), once."""
        await self.open()
        if self.workdir:
            return
        given = self._workdir or "."
        result = await self.script('cd -- "$1" && pwd -P', [given], timeout=30)
        if result.exit_code != 0 or not result.stdout.strip().startswith("/"):
            raise ToolError(ToolErrorCategory.PERMANENT_FAILURE,
                            f"{self.where}: the working directory {given!r} cannot be entered there "
                            f"({(result.stderr or result.stdout).strip()[:300] or f'exit {result.exit_code}'}); "
                            "create it, or set [tools.execution] remote_workdir")  # fmt: skip
        self.workdir = result.stdout.strip().splitlines()[-1]

    async def run(self, command: str, *, timeout: float, stdin: bytes | None = None) -> CommandResult:
        """``command`` in the working directory; a timeout stops it on the far side and raises ToolError(TIMEOUT)."""
        await self.connect()
        token = uuid.uuid4().hex
        try:
            result = await self.script(RUN_SCRIPT, [self.workdir, token, command], timeout=timeout, stdin=stdin)
        except BaseException:
            await asyncio.shield(self._stop(token))
            raise
        if result.exit_code == _NO_DIR and not result.interleaved:
            raise ToolError(ToolErrorCategory.PERMANENT_FAILURE,
                            f"{self.where}: the working directory {self.workdir} is gone")  # fmt: skip
        return result

    async def read_file(self, path: str) -> bytes:
        target = await self._confined(path)
        result = await self._bytes(READ_SCRIPT, [target, self.workdir])
        return result

    async def write_file(self, path: str, data: bytes) -> None:
        target = await self._confined(path)
        await self._bytes(WRITE_SCRIPT, [target, self.workdir], stdin=data)

    def display(self, absolute: str) -> str:
        """A path as the model gave it back: relative to the working directory when inside it."""
        relative = posixpath.relpath(absolute, self.workdir)
        return relative if not relative.startswith("..") else absolute

    async def _confined(self, path: str) -> str:
        """The absolute path, checked before anything runs: inside the working directory (lexically; the far side
        checks again after resolving links) and no credential folder on the way."""
        await self.connect()
        absolute = posixpath.normpath(posixpath.join(self.workdir, path))
        if absolute != self.workdir and not absolute.startswith(self.workdir.rstrip("/") + "/"):
            raise RemoteRefused(ToolErrorCategory.POLICY_BLOCKED,
                                f"{path} is outside the working directory {self.workdir} on {self.where}; file "
                                "tools there work inside it only")  # fmt: skip
        parts = posixpath.relpath(absolute, "/").split("/")
        if any(part in _CREDENTIAL_NAMES for part in parts):
            raise RemoteRefused(
                ToolErrorCategory.POLICY_BLOCKED,
                f"{path} is in a folder that holds credentials; no tool reads or writes there",
            )
        return absolute

    async def _bytes(self, script: str, args: list[str], *, stdin: bytes | None = None) -> bytes:
        process = await start(self.argv(script, args, stdin=stdin is not None), env=self.env,
                              stdin=asyncio.subprocess.PIPE if stdin is not None else asyncio.subprocess.DEVNULL,
                              stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
                              start_new_session=True)  # fmt: skip
        try:
            out, err = await asyncio.wait_for(process.communicate(stdin), _STOP_TIMEOUT_SECS * 4)
        except BaseException:
            await asyncio.shield(kill_group(process))
            raise
        if process.returncode != 0:
            message = err.decode("utf-8", errors="replace").strip()[-500:] or f"exit status {process.returncode}"
            category = (ToolErrorCategory.POLICY_BLOCKED if process.returncode == _OUTSIDE
                        else ToolErrorCategory.PERMANENT_FAILURE)  # fmt: skip
            raise ToolError(category, f"{self.where}: {message}")
        return out

    async def script(
        self, script: str, args: Sequence[str], *, timeout: float, stdin: bytes | None = None
    ) -> CommandResult:
        """Run ``script`` there; on timeout the local client is stopped and ToolError(TIMEOUT) raised."""
        process = await start(self.argv(script, args, stdin=stdin is not None), env=self.env,
                              stdin=asyncio.subprocess.PIPE if stdin is not None else asyncio.subprocess.DEVNULL,
                              stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
                              start_new_session=True)  # fmt: skip
        capture = Capture()
        pumps = [asyncio.create_task(pump(process.stdout, "stdout", capture)),
                 asyncio.create_task(pump(process.stderr, "stderr", capture))]  # fmt: skip
        if stdin is not None and process.stdin is not None:
            process.stdin.write(stdin)
            process.stdin.close()
        try:
            code = await asyncio.wait_for(exited(process), timeout)
        except TimeoutError:
            await kill_group(process)
            await finish(pumps)
            tail = capture.interleaved()[-4000:]
            raise ToolError(ToolErrorCategory.TIMEOUT,
                            f"the command did not finish within {timeout:g}s on {self.where} and was stopped"
                            + (f"; output so far:\n{tail}" if tail else "; it printed nothing"),
                            details={"stdout": capture.text("stdout"), "stderr": capture.text("stderr")},
                            ) from None  # fmt: skip
        except BaseException:
            await asyncio.shield(kill_group(process))
            await finish(pumps)
            raise
        await finish(pumps, grace=2.0)
        return CommandResult(capture.text("stdout"), capture.text("stderr"), capture.interleaved(), code,
                             capture.truncated)  # fmt: skip

    async def _stop(self, token: str) -> None:
        """Stop a command's process group on the far side (its client is gone already, or going)."""
        with contextlib.suppress(ToolError, OSError):
            await self.script(STOP_SCRIPT, [token], timeout=_STOP_TIMEOUT_SECS)
