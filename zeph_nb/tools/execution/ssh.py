"""SshBackend: commands and files on another machine, over one SSH connection opened once and reused.

The first use opens a master connection (``ssh -M -N -f``) on a control socket in this user's private socket
folder; every command after that rides it (``-S <socket> -o ControlMaster=no``), so a command costs a channel,
not a handshake. ``BatchMode`` is on: a password or passphrase prompt would hang a kernel cell, so a missing key
is an error that says to load it into an agent or name an identity file. The client runs as the kernel's user with
the kernel's ssh config and known_hosts; its environment keeps only what ssh itself needs.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import time
import uuid
from collections.abc import Mapping, Sequence

from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.security.sockets import socket_folder
from zeph_nb.tools.execution.backend import CommandBackend

__all__ = ["SshBackend", "parse_destination"]

_DESTINATION = re.compile(r"^(?:(?P<user>[A-Za-z0-9._-]+)@)?(?P<host>[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\])"
                          r"(?::(?P<port>\d{1,5}))?$")  # fmt: skip
_OPEN_TIMEOUT_SECS = 30.0
# What the ssh client may see of the kernel's environment: enough to find its config, keys and agent.
_CLIENT_ENV = ("HOME", "USER", "LOGNAME", "PATH", "SSH_AUTH_SOCK", "LANG", "LC_ALL", "TERM")


def _for_any_shell(script: str, args: Sequence[str]) -> str:
    """The remote string that runs ``sh -c script sh args…`` whatever the account's login shell is.

    sshd hands the string to the login shell, and fish, csh or nu do not quote as sh does (``shlex.join`` quotes
    for sh: in fish, ``\\'`` ends a quoted word). So the string holds only base64 and a pipeline every shell reads
    alike; the sh at its end reads the real command line, quoted for sh, and runs it with stdin closed."""
    line = shlex.join(["exec", "sh", "-c", script, "sh", *args]) + " < /dev/null\n"
    encoded = base64.b64encode(line.encode()).decode()
    return f"printf %s {encoded} | base64 -d | sh"


def parse_destination(text: str) -> tuple[str | None, str, int | None]:
    """``user@host:port`` (user and port optional) → (user, host, port). A leading ``-`` is never a host: it would
    be read as an option."""
    match = _DESTINATION.match(text.strip())
    if match is None:
        raise ToolError(ToolErrorCategory.INVALID_PARAMETERS,
                        f"{text!r} is not an SSH destination; write user@host or user@host:port")  # fmt: skip
    port = int(match["port"]) if match["port"] else None
    if port is not None and not 0 < port < 65536:
        raise ToolError(ToolErrorCategory.INVALID_PARAMETERS, f"{port} is not a port")
    return match["user"], match["host"], port


class SshBackend(CommandBackend):
    kind = "ssh"

    def __init__(
        self,
        destination: str,
        *,
        workdir: str | None = None,
        options: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
        binary: str | None = None,
    ) -> None:
        source = os.environ if env is None else env
        super().__init__(workdir=workdir, env={k: v for k, v in source.items() if k in _CLIENT_ENV})
        self.user, self.host, self.port = parse_destination(destination)
        self.destination = f"{self.user}@{self.host}" if self.user else self.host
        found = binary or shutil.which("ssh")
        if found is None:
            raise ToolError(ToolErrorCategory.PERMANENT_FAILURE,
                            "the ssh client is not installed; install it (Debian/Ubuntu: apt-get install "
                            "openssh-client)")  # fmt: skip
        self.binary = found
        for option in options:
            if not re.match(r"^[A-Za-z]+[ =]", option):
                raise ToolError(ToolErrorCategory.INVALID_PARAMETERS,
                                f"ssh option {option!r} is not Key=value (as after ssh -o)")  # fmt: skip
        self.options = [arg for option in options for arg in ("-o", option)]
        key = hashlib.sha256(f"{self.destination}:{self.port}:{os.getpid()}".encode()).hexdigest()[:16]
        self.control = socket_folder() / f"ssh-{key}"  # short: a unix socket path has ~100 bytes
        self._opened = False
        self._lock = asyncio.Lock()

    @property
    def where(self) -> str:
        return f"ssh {self.destination}" + (f":{self.port}" if self.port else "")

    def _base(self) -> list[str]:
        port = ["-p", str(self.port)] if self.port else []
        return [self.binary, "-o", "BatchMode=yes", "-o", "ConnectTimeout=15", "-o", "ServerAliveInterval=30",
                *port, *self.options, "-S", str(self.control)]  # fmt: skip

    def argv(self, script: str, args: Sequence[str], *, stdin: bool) -> list[str]:
        return [*self._base(), "-o", "ControlMaster=no", "-T", "--", self.destination, _for_any_shell(script, args)]

    async def upload(self, data: bytes) -> str:
        # The remote string is read by the account's login shell, so it holds nothing any shell reads otherwise
        # (a fixed command and a random name): fish and csh quote differently from sh.
        name = f"/tmp/zeph-up-{uuid.uuid4().hex}"  # noqa: S108 - private (umask 077), a name nobody can guess
        argv = [*self._base(), "-o", "ControlMaster=no", "-T", "--", self.destination, f"umask 077; cat > {name}"]
        process = await asyncio.create_subprocess_exec(*argv, env=self.env, stdin=asyncio.subprocess.PIPE,
                                                       stdout=asyncio.subprocess.DEVNULL,
                                                       stderr=asyncio.subprocess.PIPE)  # fmt: skip
        try:
            _, err = await asyncio.wait_for(process.communicate(data), 120)
        except TimeoutError:
            process.kill()
            await process.wait()
            raise ToolError(ToolErrorCategory.TIMEOUT, f"{self.where}: the upload did not finish in 120 s") from None
        if process.returncode != 0:
            raise ToolError(
                ToolErrorCategory.PERMANENT_FAILURE,
                f"{self.where}: cannot upload: {err.decode(errors='replace').strip()[-300:]}",
            )
        return name

    def tmux_argv(self, args: Sequence[str]) -> list[str]:
        script = 'exec tmux "$@"'
        return [*self._base(), "-o", "ControlMaster=no", "-T", "--", self.destination, _for_any_shell(script, args)]

    def attach_hint(self, label: str, session: str) -> str:
        port = f" -p {self.port}" if self.port else ""
        return f"ssh -t{port} {self.destination} tmux -L {label} attach -t {session}"

    async def open(self) -> None:
        async with self._lock:
            if self._opened and self.control.exists():
                return
            with contextlib.suppress(FileNotFoundError):
                self.control.unlink()  # a socket left by a master that died
            # ControlPersist: the master stays in the background once this first command (true) has run, until
            # it has been idle 10 minutes (then the next command opens another): a kernel killed outright leaves
            # no connection open for long. Not
            # -N: a master started with -N refuses every session asked of it later. Its stderr goes to a file,
            # not a pipe: a pipe would be held open by the background master and never reach end of file.
            argv = [*self._base(), "-o", "ControlMaster=yes", "-o", "ControlPersist=600", "-T", "--",
                    self.destination, "true"]  # fmt: skip
            errors = socket_folder() / f"{self.control.name}.err"
            with open(errors, "wb") as err:
                process = await asyncio.create_subprocess_exec(
                    *argv, env=self.env, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL, stderr=err
                )
                try:
                    code = await asyncio.wait_for(process.wait(), _OPEN_TIMEOUT_SECS)
                except TimeoutError:
                    process.kill()
                    await process.wait()
                    code = -1
            message = errors.read_text(errors="replace").strip()
            errors.unlink(missing_ok=True)
            if code != 0:
                hint = ("load the key into ssh-agent or add -o IdentityFile=… to [tools.execution] ssh_options; "
                        "a password prompt cannot be answered from a notebook")  # fmt: skip
                if "host key" in message.lower():
                    hint = f"check the host key: connect once from a terminal (ssh {self.destination}) and accept it"
                raise ToolError(
                    ToolErrorCategory.NETWORK_ERROR,
                    f"cannot connect to {self.where}: {message[-400:] or f'exit status {code}'}; {hint}",
                )
            self._opened = True

    def close(self) -> None:
        if self.control.exists():
            with contextlib.suppress(OSError, subprocess.SubprocessError):
                subprocess.run([*self._base(), "-O", "exit", "--", self.destination], env=self.env,
                               capture_output=True, timeout=10, check=False)  # fmt: skip
            for _ in range(100):  # the master removes its socket as it goes; a new master must not meet it
                if not self.control.exists():
                    break
                time.sleep(0.02)
        self._opened = False
        self.workdir = ""
