"""A real JupyterHub for end-to-end tests: the ``jupyterhub`` package, configurable-http-proxy from npm (installed by
``make`` into ``.venv/node``), DummyAuthenticator and SimpleLocalProcessSpawner, each user's home in a temp folder.

``Hub(folder, extra_config=…, env=…)`` writes a jupyterhub_config.py (free ports on 127.0.0.1, the hub's database
and cookie secret in the folder, an admin service token for the test), appends the caller's config, starts the hub
and waits until its API answers. On exit it stops the hub and everything it started (proxy, users' servers,
services, kernels): nothing is left running.

Kernels are driven the way JupyterLab drives them: the user's server's REST API starts one, and code goes over the
kernel's websocket as Jupyter ``execute_request`` messages.

    with Hub(folder, extra_config="c.Spawner.environment = {'PGUSER': lambda s: s.user.name}") as hub:
        hub.spawn("ann", "ben")                       # both at once; waits until ready
        reply = hub.run_in_kernel("ann", "print(1)", timeout=60)   # .status ok|error|timeout, .stdout, .error
        run = hub.start_in_kernel("ben", code)        # in the background: …, then run.wait(timeout)
        hub.api("GET", "users")                       # the hub's REST API, with the admin token unless token=
        hub.token_for("ann", scopes=[…]); hub.login(page, "ann", next_url="/hub/home"); hub.stop_server("ben")

Each run gets a fresh kernel, left running (a run's background work, such as shipping audit rows, goes on after
its reply) until the user's server stops. Users' servers see the hub's environment only through JupyterHub's
``Spawner.env_keep`` and what the config sets; the hub itself starts without the test run's ZEPH_*, JUPYTER* and
PG* variables (``env=`` adds the hub's own, e.g. for a managed service).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
PROXY = ROOT / ".venv" / "node" / "node_modules" / ".bin" / "configurable-http-proxy"
PASSWORD = "e2e-password"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")  # a traceback's colours

__all__ = ["PASSWORD", "Hub", "KernelReply", "KernelRun", "free_port", "hub_available", "processes_under"]


def hub_available() -> bool:
    """Whether a hub can start here: the jupyterhub package and configurable-http-proxy (with node)."""
    try:
        import jupyterhub  # noqa: F401
    except ImportError:
        return False
    return PROXY.exists() and shutil.which("node") is not None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class KernelReply:
    status: str  # ok | error | timeout
    stdout: str = ""
    stderr: str = ""
    error: str = ""  # for an error: "ename: evalue" and the traceback's last lines, without colours


@dataclass
class KernelRun:
    """Code running in a user's kernel in the background; ``wait`` for its reply (again, after a "timeout")."""

    thread: threading.Thread
    result: list[KernelReply] = field(default_factory=list)

    def wait(self, timeout: float) -> KernelReply:
        self.thread.join(timeout)
        if self.thread.is_alive() or not self.result:
            return KernelReply("timeout", error=f"no execute_reply within {timeout:g}s")
        return self.result[0]


_CONFIG = """
import inspect
import jupyterhub.utils
c = get_config()  # noqa: F821
# The hub waits for a starting server (and for its proxy) polling with a backoff from 0.2 s doubling up to 5 s: a
# server up after 4 s was seen after 7. A test's hub polls every 0.05-0.25 s.
_backoff = jupyterhub.utils.exponential_backoff
if list(inspect.signature(_backoff).parameters)[2:5] == ["start_wait", "scale_factor", "max_wait"]:
    _backoff.__defaults__ = (0.05, 1.5, 0.25, *_backoff.__defaults__[3:])
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = {port}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {hub_port}
c.JupyterHub.db_url = "sqlite:///{folder}/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = "{folder}/jupyterhub_cookie_secret"
c.JupyterHub.pid_file = "{folder}/jupyterhub.pid"
c.ConfigurableHTTPProxy.command = ["{proxy}"]
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{proxy_api_port}"
c.ConfigurableHTTPProxy.pid_file = "{folder}/proxy.pid"
c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = "{password}"
c.Authenticator.allow_all = True
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = "{folder}/home/{{username}}"
c.Spawner.cmd = ["{bin}/jupyterhub-singleuser"]
c.Spawner.args = {args}
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
c.JupyterHub.cleanup_servers = True
c.JupyterHub.services = [{{"name": "e2e-admin", "api_token": "{token}"}}]
c.JupyterHub.load_roles = [{{
    "name": "e2e-admin",
    "services": ["e2e-admin"],
    "scopes": ["admin:users", "admin:servers", "admin:groups", "tokens", "access:servers", "list:users",
               "read:users", "read:services"],
}}]
"""


class Hub:
    """A running JupyterHub; use as a context manager."""

    def __init__(self, folder: Path, *, extra_config: str = "", env: dict[str, str] | None = None) -> None:
        self.folder = folder
        self.extra_config = extra_config
        self.env = env or {}
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.token = secrets.token_hex(16)
        self.log = folder / "jupyterhub.log"
        self.process: subprocess.Popen[bytes] | None = None

    # -- starting and stopping -------------------------------------------------------------------------------

    def __enter__(self) -> Hub:
        if not PROXY.exists() or shutil.which("node") is None:
            raise RuntimeError(
                f"JupyterHub's proxy cannot run: {PROXY} or node is missing. `make unit` installs it "
                "with npm (Debian/Ubuntu: apt-get install nodejs npm; .ci/run does)"
            )
        (self.folder / "home").mkdir(parents=True, exist_ok=True)
        args = ["--allow-root"] if os.geteuid() == 0 else []
        config = _CONFIG.format(port=self.port, hub_port=free_port(), proxy_api_port=free_port(), folder=self.folder,
                                proxy=PROXY, password=PASSWORD, bin=BIN, args=args, token=self.token)  # fmt: skip
        (self.folder / "jupyterhub_config.py").write_text(config + "\n" + self.extra_config)
        # Only what a hub's own environment would hold: no ZEPH_* of the test run leaks into users' servers.
        env = {k: v for k, v in os.environ.items() if not k.startswith(("ZEPH_", "JUPYTER", "PG"))}
        env.update(PATH=f"{BIN}:{env.get('PATH', '')}", CONFIGPROXY_AUTH_TOKEN=secrets.token_hex(16), **self.env)
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                [str(BIN / "jupyterhub"), "-f", str(self.folder / "jupyterhub_config.py")],
                cwd=self.folder, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        try:
            self._wait_ready()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _wait_ready(self, timeout: float = 90.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(f"jupyterhub exited ({self.process.returncode}):\n{self.log_tail()}")
            with contextlib.suppress(httpx.HTTPError):
                if self.api("GET", "").status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError(f"jupyterhub did not answer within {timeout:g}s:\n{self.log_tail()}")

    def log_tail(self, lines: int = 60) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def __exit__(self, *exc: object) -> None:
        process = self.process
        if process is None:
            return
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)  # the hub stops users' servers and the proxy (cleanup_servers)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)
        # Users' servers and kernels run in sessions of their own: anything whose working folder is under ours
        # goes too (the hub stops them itself unless it was killed), and is waited for.
        for pid in processes_under(self.folder):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while processes_under(self.folder) and time.monotonic() < deadline:
            time.sleep(0.05)
        self.process = None

    # -- the hub's API ---------------------------------------------------------------------------------------

    def api(self, method: str, path: str, *, token: str | None = None, json: Any = None) -> httpx.Response:
        headers = {"Authorization": f"token {token or self.token}"}
        url = f"{self.url}hub/api/{path.lstrip('/')}"
        return httpx.request(method, url, headers=headers, json=json, timeout=30)

    def token_for(self, user: str, scopes: list[str] | None = None) -> str:
        """A hub API token of ``user``'s (all their permissions unless ``scopes`` narrows them)."""
        self._ensure_user(user)
        body: dict[str, Any] = {"note": "e2e"}
        if scopes is not None:
            body["scopes"] = scopes
        response = self.api("POST", f"users/{user}/tokens", json=body)
        assert response.status_code in (200, 201), response.text
        return str(response.json()["token"])

    def _ensure_user(self, user: str) -> None:
        if self.api("GET", f"users/{user}").status_code == 404:
            created = self.api("POST", f"users/{user}")
            assert created.status_code in (201, 409), created.text

    def spawn(self, *users: str, timeout: float = 120.0) -> None:
        """Start each user's server (at once: the hub starts them side by side) and wait until all are ready."""
        if len(users) == 1:
            self._spawn(users[0], timeout)
            return
        with ThreadPoolExecutor(len(users)) as pool:
            for done in [pool.submit(self._spawn, user, timeout) for user in users]:
                done.result()

    def _spawn(self, user: str, timeout: float) -> None:
        self._ensure_user(user)
        deadline = time.monotonic() + timeout
        # The POST answers once the server is up, or after 10 s (202) with the spawn still going.
        while (started := self.api("POST", f"users/{user}/server")).status_code == 400:
            if "already running" in started.text:
                break
            if "pending stop" not in started.text or time.monotonic() > deadline:
                raise RuntimeError(f"{user}'s server was not started: {started.text}")
            time.sleep(0.1)  # a stop still under way: start once it is done
        assert started.status_code in (201, 202, 400), started.text
        while time.monotonic() < deadline:
            servers = self.api("GET", f"users/{user}").json().get("servers", {})
            if "" not in servers:  # the spawn failed and the hub forgot the server
                raise RuntimeError(f"{user}'s server failed to start:\n{self.log_tail()}")
            if servers[""].get("ready"):
                return
            time.sleep(0.1)
        raise RuntimeError(f"{user}'s server did not start within {timeout:g}s:\n{self.log_tail()}")

    def stop_server(self, user: str, timeout: float = 60.0) -> None:
        """Stop ``user``'s server (its kernels with it) and wait until the hub says it is gone."""
        self.api("DELETE", f"users/{user}/server")
        deadline = time.monotonic() + timeout
        while self.api("GET", f"users/{user}").json().get("servers"):
            if time.monotonic() > deadline:
                raise RuntimeError(f"{user}'s server did not stop within {timeout:g}s:\n{self.log_tail()}")
            time.sleep(0.1)

    # -- kernels ---------------------------------------------------------------------------------------------

    def start_in_kernel(self, user: str, code: str, *, timeout: float = 300.0) -> KernelRun:
        """Start a kernel on ``user``'s server and run ``code`` there in the background."""
        base = f"{self.url}user/{user}/api/kernels"
        headers = {"Authorization": f"token {self.token}"}
        created = httpx.post(base, headers=headers, json={"name": "python3"}, timeout=60)
        assert created.status_code == 201, created.text
        kernel = created.json()["id"]
        ws = f"ws://127.0.0.1:{self.port}/user/{user}/api/kernels/{kernel}/channels"
        run = KernelRun(threading.Thread(target=lambda: None))

        def work() -> None:
            try:
                run.result.append(asyncio.run(_execute(ws, headers, code, timeout)))
            except Exception as e:  # the reply says what broke, instead of a bare timeout
                run.result.append(KernelReply("error", error=f"{type(e).__name__}: {e}"))

        run.thread = threading.Thread(target=work, daemon=True)
        run.thread.start()
        return run

    def run_in_kernel(self, user: str, code: str, *, timeout: float = 300.0) -> KernelReply:
        return self.start_in_kernel(user, code, timeout=timeout).wait(timeout + 10)

    # -- the browser -----------------------------------------------------------------------------------------

    def login(self, page: Any, user: str, next_url: str | None = None) -> None:
        """Log ``user`` in on a Playwright page through the hub's login form (DummyAuthenticator: any name, with
        ``PASSWORD``).

        Without ``next_url`` the hub then sends the browser to the user's server, which starts it (the hub's
        ``redirect_to_server``); ``next_url="/hub/home"`` lands on the home page and starts nothing."""
        query = f"?next={quote(next_url)}" if next_url else ""
        page.goto(f"{self.url}hub/login{query}")
        page.fill("#username_input", user)
        page.fill("#password_input", PASSWORD)
        page.click("#login_submit")
        page.wait_for_url(lambda url: "/hub/login" not in url, timeout=60_000)


async def _execute(ws_url: str, headers: dict[str, str], code: str, timeout: float) -> KernelReply:
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    connection = await websocket_connect(HTTPRequest(ws_url, headers=headers, connect_timeout=60))
    msg_id = uuid.uuid4().hex
    connection.write_message(json.dumps({
        "header": {"msg_id": msg_id, "username": "e2e", "session": uuid.uuid4().hex, "msg_type": "execute_request",
                   "version": "5.3", "date": ""},
        "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
        "content": {"code": code, "silent": False, "store_history": False, "user_expressions": {},
                    "allow_stdin": False, "stop_on_error": True},
    }))  # fmt: skip
    reply = KernelReply("timeout")
    out: dict[str, list[str]] = {"stdout": [], "stderr": []}
    # The reply comes on the shell channel and the output on iopub, in no set order between them: done once both
    # the reply and iopub's "idle" (after the last output) have come.
    replied = idle = False
    status = ""
    deadline = time.monotonic() + timeout
    try:
        while not (replied and idle) and time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(connection.read_message(), max(0.1, deadline - time.monotonic()))
            except TimeoutError:
                break
            if raw is None:
                reply.error = reply.error or "the kernel's websocket closed"
                break
            message = json.loads(raw)
            if message.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind, content = message["header"]["msg_type"], message["content"]
            if kind == "stream":
                out[content["name"]].append(content["text"])
            elif kind == "error":
                trace = _ANSI.sub("", "\n".join(content.get("traceback", [])[-5:]))
                reply.error = f"{content.get('ename')}: {content.get('evalue')}\n{trace}"
            elif kind == "status" and content.get("execution_state") == "idle":
                idle = True
            elif kind == "execute_reply":
                replied = True
                status = content["status"]
                if status == "error" and not reply.error:
                    reply.error = f"{content.get('ename')}: {content.get('evalue')}"
    finally:
        connection.close()
    if replied and idle:
        reply.status = status
    elif replied:
        reply.error = reply.error or f"the reply ({status}) came, but not all of the output, within {timeout:g}s"
    reply.stdout, reply.stderr = "".join(out["stdout"]), "".join(out["stderr"])
    return reply


def processes_under(folder: Path) -> list[int]:
    """Live processes (not zombies) whose working folder is ``folder`` or below: the hub, its proxy, users'
    servers and their kernels (each runs in its user's home there), whatever session they are in."""
    found = []
    prefix = str(folder).rstrip("/") + "/"
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        with contextlib.suppress(OSError):
            cwd = os.readlink(entry / "cwd")
            if (cwd + "/").startswith(prefix) and (entry / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                found.append(int(entry.name))
    return found
