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

__all__ = ["CREDENTIAL_NAMES", "MAX_FILE_BYTES", "CommandBackend", "CommandResult", "RemoteRefused"]

# Exit statuses the scripts below use to say why they refused (126: found but not allowed, as a shell says).
_OUTSIDE, _NO_DIR = 126, 125

# Where a command notes its process group, so that a timeout can stop it on the far side: a folder of the account's
# own (another account on a shared /tmp could point the stop at its choice of processes).
_GROUPS = '"${HOME:-/nonexistent}/.cache/zeph-nb-run"'

# $1 the working directory, $2 a token naming this run's group file, $3 the command line. The group file is
# removed when the command ends.
RUN_SCRIPT = rf"""
cd -- "$1" || exit 125
d={_GROUPS}; f="$d/$2.pgid"; g=$$
[ -r /proc/$$/stat ] && read -r _ _ _ _ g _ < /proc/$$/stat
mkdir -p -m 700 -- "$d" 2>/dev/null && echo "$g" > "$f" 2>/dev/null
if command -v bash >/dev/null 2>&1; then bash -lc "$3"; else sh -lc "$3"; fi
rc=$?; rm -f -- "$f"; exit $rc
"""

# $1 the token. The group is killed only when it is a real one (never 0 or 1: "kill -- -1" is every process).
STOP_SCRIPT = rf"""
f={_GROUPS}/"$1.pgid"
[ -r "$f" ] || exit 0
read -r g < "$f"
case "$g" in ''|*[!0-9]*) exit 0;; esac
[ "$g" -gt 1 ] || exit 0
kill -s TERM -- "-$g" 2>/dev/null; sleep 1; kill -s KILL -- "-$g" 2>/dev/null; rm -f -- "$f"; exit 0
"""

# The file scripts' rule, applied on the far side to a path with its links resolved: inside the working directory
# ($W) and through no credential folder ($NAMES, lower case, matched in any case).
_CHECK = r"""
check() {
  case "$1" in "$W"|"$W"/*) ;; *) echo "outside the working directory: $1" >&2; exit 126;; esac
  l=$(printf '%s/' "$1" | tr '[:upper:]' '[:lower:]')
  for n in $NAMES; do
    case "$l" in */"$n"/*) echo "in a folder that holds credentials: $1" >&2; exit 126;; esac
  done
}
"""

# $1 the path, $2 the working directory (resolved), $3 the credential names, $4 the most bytes to send. The
# folder is entered (cd -P) and checked as it is then: a folder on the way renamed or swapped for a link after
# that changes nothing. Prints nothing but the file.
READ_SCRIPT = (
    _CHECK
    + r"""
W=$2; NAMES=$3
p=$(realpath -- "$1" 2>/dev/null) || { echo "no such file: $1" >&2; exit 2; }
check "$p"
[ -e "$p" ] || { echo "no such file: $1" >&2; exit 2; }
[ -f "$p" ] || { echo "not a regular file (a folder, a pipe, a device): $1" >&2; exit 2; }
b=$(basename -- "$p")
cd -P -- "$(dirname -- "$p")" || exit 2
check "$(pwd -P)/$b"
[ -L "$b" ] && { echo "changed while it was being read: $1" >&2; exit 2; }
exec head -c "$4" -- "$b"
"""
)

# $1 the path, $2 the working directory (resolved), $3 the credential names, $4 a file holding the new content
# (uploaded beforehand, removed here) or empty: stdin. The nearest folder that exists is checked before any
# folder is made; the new content goes to a temporary file beside the target, then takes its name (mv): a
# reader never sees half a file, and a link at the name is replaced, not followed. A folder there is refused.
WRITE_SCRIPT = (
    _CHECK
    + r"""
W=$2; NAMES=$3; SRC=$4
[ -n "$SRC" ] && trap 'rm -f -- "$SRC"' EXIT
d=$(dirname -- "$1"); b=$(basename -- "$1")
a=$d; while [ ! -e "$a" ] && [ "$a" != / ]; do a=$(dirname -- "$a"); done
ra=$(realpath -- "$a") || exit 2
check "$ra"
mkdir -p -- "$d" || exit 2
cd -P -- "$d" || exit 2
check "$(pwd -P)/$b"
[ -d "$b" ] && { echo "$1 is a folder" >&2; exit 2; }
t=$(mktemp ./.zeph-write.XXXXXX) || exit 2
if [ -n "$SRC" ]; then cat -- "$SRC" > "$t"; else cat > "$t"; fi && mv -f -- "$t" "./$b" && exit 0
rc=$?; rm -f -- "$t"; exit $rc
"""
)

# Credential folders and zeph's and Jupyter's own, relative to any folder (a home may be the working directory).
CREDENTIAL_NAMES: tuple[str, ...] = tuple(
    dict.fromkeys(p.lower() for p in (*CREDENTIAL_PATHS, ".zeph", ".jupyter", ".local/share/jupyter"))
)
MAX_FILE_BYTES = 64 * 1024 * 1024  # what read brings over of a remote file, at most
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
        """The file's bytes, at most MAX_FILE_BYTES + 1 of them (more: the caller says it was cut)."""
        target = await self._confined(path)
        names = " ".join(CREDENTIAL_NAMES)
        return await self._bytes(READ_SCRIPT, [target, self.workdir, names, str(MAX_FILE_BYTES + 1)])

    async def write_file(self, path: str, data: bytes) -> None:
        target = await self._confined(path)
        names = " ".join(CREDENTIAL_NAMES)
        uploaded = await self.upload(data)
        if uploaded is None:
            await self._bytes(WRITE_SCRIPT, [target, self.workdir, names, ""], stdin=data)
        else:
            await self._bytes(WRITE_SCRIPT, [target, self.workdir, names, uploaded])

    async def upload(self, data: bytes) -> str | None:
        """Put ``data`` in a private temporary file there and return its path, for a client that cannot hand a
        script its stdin (ssh); None: the write script reads stdin itself."""
        return None

    def display(self, absolute: str) -> str:
        """A path as the model gave it back: relative to the working directory when inside it."""
        relative = posixpath.relpath(absolute, self.workdir)
        return relative if not relative.startswith("..") else absolute

    async def _confined(self, path: str) -> str:
        """The absolute path, checked before anything runs: inside the working directory (lexically; the far side
        checks again after resolving links) and no credential folder on the way."""
        await self.connect()
        if any(ord(ch) < 32 or ord(ch) == 127 for ch in path):
            # A trailing newline would vanish in the far side's $(realpath …) after this check passed.
            raise ToolError(ToolErrorCategory.INVALID_PARAMETERS, f"{path!r} holds a control character; no file "
                            "name here needs one")  # fmt: skip
        absolute = posixpath.normpath(posixpath.join(self.workdir, path))
        if absolute != self.workdir and not absolute.startswith(self.workdir.rstrip("/") + "/"):
            raise RemoteRefused(ToolErrorCategory.POLICY_BLOCKED,
                                f"{path} is outside the working directory {self.workdir} on {self.where}; file "
                                "tools there work inside it only")  # fmt: skip
        lowered = absolute.lower().rstrip("/") + "/"
        if any(f"/{name}/" in lowered for name in CREDENTIAL_NAMES):
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
        except TimeoutError:
            await kill_group(process)
            raise ToolError(ToolErrorCategory.TIMEOUT, f"{self.where} did not finish moving the file in "
                            f"{_STOP_TIMEOUT_SECS * 4:g} s") from None  # fmt: skip
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
