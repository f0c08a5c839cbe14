"""A throwaway PostgreSQL cluster for tests and benchmarks: Debian's own server, made with ``initdb`` in a temporary
folder and started with ``pg_ctl`` on a Unix socket in that folder (no TCP port, so parallel runs never collide).

PostgreSQL refuses to run as root, so when the suite runs as root the cluster belongs to the ``postgres`` user the
Debian package creates (else ``nobody``); as anyone else it runs as that user. The folder is made directly under
the system temp dir because pytest's own temp dirs are private to the test user, and the server must reach them.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

__all__ = ["Cluster", "bindir", "cluster"]


def bindir() -> Path | None:
    """Where initdb and pg_ctl are: Debian keeps them under /usr/lib/postgresql/<major>/bin, off PATH."""
    found = shutil.which("pg_ctl")
    if found:
        return Path(os.path.realpath(found)).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    return Path(versions[-1]).parent if versions else None


def _server_user() -> pwd.struct_passwd | None:
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    raise RuntimeError("running as root and neither a postgres nor a nobody user exists to own the test cluster")


class Cluster:
    """One server. ``url`` connects as the superuser ``zeph_admin``; ``url_as(role)`` as another login role (the
    cluster trusts local connections, so no passwords: what is tested is roles and row-level security)."""

    def __init__(self, root: Path, bin_dir: Path) -> None:
        self.root = root
        self.data = root / "data"
        self.socket_dir = root
        self.bin = bin_dir
        self.log = root / "server.log"
        self._user = _server_user()

    # -- running commands as the server's user -------------------------------------------------------------

    def _run(self, *argv: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        command = [str(self.bin / argv[0]), *argv[1:]]
        kwargs: dict[str, object] = {}
        if self._user is not None:
            uid, gid = self._user.pw_uid, self._user.pw_gid
            kwargs = {"user": uid, "group": gid, "extra_groups": []}
        env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "HOME": str(self.root)}
        return subprocess.run(command, capture_output=True, text=True, env=env, check=check, timeout=120,
                              cwd=self.root, **kwargs)  # type: ignore[call-overload]  # fmt: skip

    def init(self) -> None:
        if self._user is not None:
            os.chown(self.root, self._user.pw_uid, self._user.pw_gid)
        self.root.chmod(0o755)
        self._run("initdb", "-D", str(self.data), "-U", "zeph_admin", "--auth=trust", "-E", "UTF8", "--no-sync")
        with open(self.data / "postgresql.conf", "a", encoding="utf-8") as conf:
            conf.write(
                f"listen_addresses = ''\nunix_socket_directories = '{self.socket_dir}'\n"
                "fsync = on\nshared_buffers = 32MB\nmax_connections = 60\n"
            )

    def start(self) -> None:
        result = self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60", "start", check=False)
        if result.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"pg_ctl start failed: {result.stdout}{result.stderr}\n{log}")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop", check=False)

    def postmaster_pid(self) -> int | None:
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (FileNotFoundError, ValueError, IndexError):
            return None

    def kill(self) -> None:
        """SIGKILL the server and every backend, as an OOM killer or a pulled plug would; wait until all are gone."""
        pid = self.postmaster_pid()
        if pid is None:
            return
        children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
        for victim in [pid, *map(int, children)]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(victim, signal.SIGKILL)
        deadline = time.monotonic() + 30
        for victim in [pid, *map(int, children)]:
            while time.monotonic() < deadline:
                try:
                    os.kill(victim, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.02)

    def restart_after_kill(self) -> None:
        """Start again after ``kill``: crash recovery replays the WAL, as after a real crash."""
        deadline = time.monotonic() + 60
        while True:
            try:
                self.start()
                return
            except RuntimeError:  # the old shared memory can take a moment to be released
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    # -- connecting ------------------------------------------------------------------------------------------

    @property
    def url(self) -> str:
        return self.url_as("zeph_admin")

    def url_as(self, role: str, database: str = "zeph") -> str:
        return f"host={self.socket_dir} dbname={database} user={role}"

    def sql(self, statement: str, *, database: str = "zeph", role: str = "zeph_admin") -> list[tuple[object, ...]]:
        import psycopg

        with psycopg.connect(self.url_as(role, database), autocommit=True) as con:
            cursor = con.execute(statement.encode())
            return list(cursor.fetchall()) if cursor.description else []


@contextlib.contextmanager
def cluster() -> Iterator[Cluster]:
    """A started cluster with an empty database ``zeph``; stopped and removed afterwards."""
    bin_dir = bindir()
    if bin_dir is None:
        raise RuntimeError("PostgreSQL is not installed: apt-get install postgresql (.ci/run does it in CI)")
    # Short: a Unix socket's path must fit in 107 bytes, and TMPDIR may be long.
    root = Path(tempfile.mkdtemp(prefix="zpg-", dir="/tmp"))
    server = Cluster(root, bin_dir)
    try:
        server.init()
        server.start()
        server.sql("CREATE DATABASE zeph", database="postgres")
        yield server
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
