"""A throwaway OpenSSH server on 127.0.0.1 (Debian's openssh-server): its own host key, one user key, started and
stopped by the test. It logs in as the user running the tests, so commands run on this very machine — which lets
a test see what happened "remotely" with its own eyes."""

from __future__ import annotations

import getpass
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

__all__ = ["SSHD", "Sshd", "no_login_shell", "sshd_server"]

SSHD = next((p for p in ("/usr/sbin/sshd", shutil.which("sshd")) if p and os.path.exists(p)), None)


def no_login_shell() -> str | None:
    """Why sshd cannot run commands as the user running the tests, if it cannot: it runs them with the account's
    login shell, and a system account's (``nobody``) is ``nologin``."""
    import pwd

    shell = pwd.getpwuid(os.getuid()).pw_shell
    if os.path.basename(shell) in ("nologin", "false"):
        return f"sshd runs commands with the account's login shell, and {getpass.getuser()}'s is {shell}"
    return None


@dataclass(frozen=True)
class Sshd:
    port: int
    user: str
    destination: str  # user@127.0.0.1:port
    options: tuple[str, ...]  # for [tools.execution] ssh_options: the key, a known_hosts of its own


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def sshd_server(folder: Path) -> Iterator[Sshd]:
    assert SSHD is not None
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("host", "user"):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(folder / name)], check=True)
    (folder / "authorized_keys").write_text((folder / "user.pub").read_text())
    port = _free_port()
    config = folder / "sshd_config"
    config.write_text(
        f"Port {port}\nListenAddress 127.0.0.1\nHostKey {folder / 'host'}\n"
        f"AuthorizedKeysFile {folder / 'authorized_keys'}\nStrictModes no\nPasswordAuthentication no\n"
        f"KbdInteractiveAuthentication no\nUsePAM no\nPermitRootLogin prohibit-password\n"
        f"PidFile {folder / 'sshd.pid'}\nLogLevel ERROR\nMaxSessions 50\nMaxStartups 50\n"
    )
    if os.getuid() == 0:
        Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)  # sshd's privilege separation folder
    log = open(folder / "sshd.log", "wb")  # noqa: SIM115 - closed below
    server = subprocess.Popen([SSHD, "-D", "-e", "-f", str(config)], stdout=log, stderr=log)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("sshd did not start: " + (folder / "sshd.log").read_text()) from None
                time.sleep(0.05)
        user = getpass.getuser()
        options = (f"IdentityFile={folder / 'user'}", "IdentitiesOnly=yes", f"UserKnownHostsFile={folder / 'known'}",
                   "StrictHostKeyChecking=accept-new")  # fmt: skip
        yield Sshd(port, user, f"{user}@127.0.0.1:{port}", options)
    finally:
        server.terminate()
        server.wait(5)
        log.close()
