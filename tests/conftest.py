"""Shared fixtures: real temporary directories with a sandbox inside and a secret outside it."""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from zeph_nb.config import Settings
from zeph_nb.store import Store
from zeph_nb.tools.files.executor import FileExecutor

# `make test` gives the run a throwaway ZEPH_HOME, which the tutorials' kernels (nbval) inherit. Two pytest-xdist
# workers run two tutorials at once: each worker gets a home of its own inside it, so no tutorial sees another's
# audit rows or waits on its store.
if os.environ.get("PYTEST_XDIST_WORKER") and os.environ.get("ZEPH_HOME"):
    _worker_home = Path(os.environ["ZEPH_HOME"]) / os.environ["PYTEST_XDIST_WORKER"]
    _worker_home.mkdir(parents=True, exist_ok=True)
    os.environ["ZEPH_HOME"] = str(_worker_home)


@pytest.fixture(autouse=True)
def _no_import_guard_left() -> Iterator[None]:
    """A test that loads the extension in this process (``%load_ext zeph_nb`` in an InteractiveShell) installs the
    import guard over its own temp folder; later tests start without it."""
    from zeph_nb.security import import_guard

    yield
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, import_guard.ImportGuard)]
    import_guard._CURRENT = None


@pytest.fixture
def tree(tmp_path: Path) -> Iterator[dict[str, Path]]:
    """``work/`` is the sandbox; ``outside/secret.txt`` and ``work-evil/`` (a prefix sibling) are not."""
    work = tmp_path / "work"
    outside = tmp_path / "outside"
    evil = tmp_path / "work-evil"
    for folder in (work / "src" / "pkg", outside, evil):
        folder.mkdir(parents=True)
    (work / "README.md").write_text("# Demo\nhello world\n")
    (work / "src" / "pkg" / "mod.py").write_text("def f():\n    return 42\n")
    (outside / "secret.txt").write_text("TOP SECRET\n")
    (evil / "loot.txt").write_text("not yours\n")
    yield {"root": tmp_path, "work": work, "outside": outside, "evil": evil}
    # Hostile-path tests leave trees deeper than Python's recursion limit, which pytest's own clean-up of old
    # temporary directories (shutil.rmtree) cannot remove; rm can.
    subprocess.run(["rm", "-rf", str(work)], check=False)


@pytest.fixture
def files(tree: dict[str, Path]) -> FileExecutor:
    return FileExecutor(Settings(), workdir=tree["work"])


@pytest.fixture
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory and ZEPH_HOME of our own, and no ZEPH_* variables from whoever runs the tests."""
    import os

    for name in list(os.environ):
        if name.startswith("ZEPH_") or name == "ANTHROPIC_API_KEY":
            monkeypatch.delenv(name)
    home = tmp_path / "zeph-home"
    home.mkdir()
    monkeypatch.setenv("ZEPH_HOME", str(home))
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    return home


@pytest.fixture
def managed_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], Path]:
    """Write the organisation's managed settings: ``managed_file(toml)`` puts it in a folder of its own (0644 in
    0755, as an administrator would) and names it in ``$ZEPH_MANAGED_SETTINGS``. A real /etc/zeph-nb/managed.toml
    is set aside. Only root can give a file away: run as another user, the reach check (tested on its own) is the
    one thing waived."""
    import zeph_nb.config
    from zeph_nb.config import managed

    monkeypatch.setattr(managed, "DEFAULT_PATH", tmp_path / "no-such-etc" / "managed.toml")
    monkeypatch.setattr(zeph_nb.config, "_SAID", set())  # each test hears the refusals its own loads make
    if os.geteuid() != 0:
        monkeypatch.setattr(managed, "reach_problem", lambda path: None)
    folder = tmp_path / "etc-zeph-nb"
    path = folder / "managed.toml"

    def write(text: str) -> Path:
        folder.mkdir(exist_ok=True)
        path.write_text(text)
        os.chmod(path, 0o644)
        os.chmod(folder, 0o755)  # noqa: S103 - as an administrator leaves /etc/zeph-nb
        monkeypatch.setenv("ZEPH_MANAGED_SETTINGS", str(path))
        return path

    return write


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """A real store (DuckDB file and spools) in its own zeph home, closed afterwards."""
    settings = Settings().model_copy(update={"home": tmp_path / "zeph-store"})
    opened = Store(settings)
    yield opened
    opened.close()


@dataclass
class JupyterProcess:
    url: str
    token: str
    process: subprocess.Popen[bytes]


@contextmanager
def _running_jupyter(
    app: str,
    *,
    base: Path,
    zeph_home: Path,
    cwd: Path,
    args: list[str],
    inside: Sequence[str] = (),
    env: dict[str, str] | None = None,
) -> Iterator[JupyterProcess]:
    """A real `jupyter <app>` on loopback with a fresh token, HOME and zeph home; stopped afterwards. ``inside``:
    a command that runs it (e.g. tests/security/container_jail.py, as a container would); ``env``: variables of
    its own (none of the test run's ZEPH_* ones reach it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    token = secrets.token_hex(16)
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("ZEPH_", "JUPYTER"))},
        "ZEPH_HOME": str(zeph_home),
        "HOME": str(base),
        "JUPYTER_RUNTIME_DIR": str(base / "runtime"),
        **(env or {}),
    }
    command = [*inside, str(Path(sys.executable).parent / "jupyter"), app, "--no-browser", f"--port={port}",
               "--ip=127.0.0.1", f"--IdentityProvider.token={token}", *args]  # fmt: skip
    if os.getuid() == 0:
        command.append("--allow-root")
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=cwd)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2)  # noqa: S310 - loopback
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                output = process.stdout.read().decode() if process.stdout else ""
                raise RuntimeError(f"jupyter {app} did not start:\n{output[-3000:]}") from None
            time.sleep(0.25)
    try:
        yield JupyterProcess(url, token, process)
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture(scope="session")
def running_jupyter() -> Any:
    """``with running_jupyter("server", base=…, zeph_home=…, cwd=…, args=[…]) as jp:`` (a context manager)."""
    return _running_jupyter


def host_processes(marker: str) -> list[int]:
    """Pids, as the host sees them, of live processes whose command line contains ``marker``.

    A sandboxed command sees its own PID namespace, so a pid it writes down means nothing out here; tests give
    the processes they start a unique argument (``sleep 61.25``) and look for it instead.
    """
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker in cmdline and state != "Z" and "bwrap" not in cmdline.split(" ", 1)[0]:
            found.append(int(entry.name))
    return found


async def no_host_process(marker: str, within: float = 5.0) -> bool:
    """Whether every process with ``marker`` is gone within ``within`` seconds (a kill is delivered, not instant)."""
    import asyncio

    deadline = time.monotonic() + within
    while host_processes(marker):
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


class Processes:
    """``running(marker)`` and ``gone(marker)`` for tests in any folder (``from conftest import`` is ambiguous
    with more than one conftest.py)."""

    running = staticmethod(host_processes)
    gone = staticmethod(no_host_process)


@pytest.fixture
def processes() -> Processes:
    return Processes()


@pytest.fixture(autouse=True)
def _outside_tmux(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests run as if not inside a person's tmux (a developer's may be): the person's-pane tools are offered only
    there. The test of that pane sets these itself."""
    monkeypatch.delenv("TMUX", raising=False)
    monkeypatch.delenv("TMUX_PANE", raising=False)


@pytest.fixture(autouse=True)
def _function_registry() -> Iterator[None]:
    """Each test's @zeph_nb.tool functions are forgotten after it: the registry is process-wide, and every
    %%zeph agent offers what it holds."""
    from zeph_nb.tools import functions

    kept = dict(functions._REGISTRY)
    yield
    functions._REGISTRY.clear()
    functions._REGISTRY.update(kept)


# -- slow builds, from the start of the session --------------------------------------------------------------------

# Steps that take a minute of CPU and wait on nothing the session does (a wheel built and pip-installed into a
# fresh virtualenv, Binder's environment) start when the session does, each in a process of its own at the lowest
# CPU priority: they use what the other tests leave idle, and each other's waits. A test module offers
# ``background_build(folder)`` (run in that process; it raises when a step fails); a test that needs it is marked
# ``@pytest.mark.background_build`` and gets its folder from ``background_builds.wait(__name__)``. Nothing starts
# when no test that needs it is selected.
BUILD_BOUND_SECS = 2400.0  # a bound that tells a hang, from when a test waits (before, the build runs niced)
# The build writes its exit code next to its folder, for a worker that waits on a build it did not start (below).
_BUILD = """\
import importlib.util, os, sys
from pathlib import Path
os.nice(19)
code = 1
try:
    spec = importlib.util.spec_from_file_location(sys.argv[1], sys.argv[2])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.background_build(Path(sys.argv[3]))
    code = 0
finally:
    Path(sys.argv[3] + ".rc").write_text(str(code))
"""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "background_build: the test waits on its module's background_build(folder)")


@dataclass
class BackgroundBuild:
    folder: Path
    process: subprocess.Popen[bytes] | None  # None: another pytest-xdist worker started it
    log: Path

    def wait(self) -> Path:
        """The build's folder once it is done; the test fails with the build's output when it failed."""
        pid = self.process.pid if self.process is not None else _read_int(self.folder, ".pid")
        if pid is not None:
            with contextlib.suppress(OSError):  # awaited now: its usual priority back, where that is allowed
                os.setpriority(os.PRIO_PGRP, pid, 0)
        code = self._code(BUILD_BOUND_SECS)
        if code != 0:
            output = self.log.read_text(errors="replace")[-8000:] if self.log.exists() else "(no log)"
            pytest.fail(f"the background build in {self.folder} ended with {code}:\n{output}", pytrace=False)
        return self.folder

    def _code(self, bound: float) -> int | None:
        if self.process is not None:
            try:
                return self.process.wait(timeout=bound)
            except subprocess.TimeoutExpired:
                self.stop()
                return None
        deadline = time.monotonic() + bound
        while (code := _read_int(self.folder, ".rc")) is None and time.monotonic() < deadline:
            time.sleep(0.5)
        return code

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(OSError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def _read_int(folder: Path, suffix: str) -> int | None:
    try:
        return int(folder.with_name(folder.name + suffix).read_text())
    except (OSError, ValueError):
        return None


class BackgroundBuilds:
    def __init__(self) -> None:
        self.builds: dict[str, BackgroundBuild] = {}

    def start(self, module: Any, folder: Path) -> None:
        log = folder.parent / f"{folder.name}.log"
        with log.open("wb") as out:
            process = subprocess.Popen([sys.executable, "-c", _BUILD, module.__name__, module.__file__, str(folder)],
                                       cwd=Path(__file__).parent.parent, stdin=subprocess.DEVNULL, stdout=out,
                                       stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
        folder.with_name(folder.name + ".pid").write_text(str(process.pid))
        self.builds[module.__name__] = BackgroundBuild(folder, process, log)

    def wait(self, module: str) -> Path:
        build = self.builds.get(module)
        assert build is not None, f"no background build of {module}: mark the test @pytest.mark.background_build"
        return build.wait()


@pytest.fixture(scope="session", autouse=True)
def background_builds(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    builds = BackgroundBuilds()
    modules = {item.module.__name__: item.module for item in request.session.items
               if item.get_closest_marker("background_build") is not None}  # fmt: skip
    # Under pytest-xdist (`make test` runs two workers) every worker collects every test, and does not know which
    # it will run: the first to create a build's folder (in the temp folder the workers share) starts it, and a
    # worker that needs it waits for the exit code the build writes. A build is a minute of CPU; twice would cost
    # what the second worker gains.
    shared = tmp_path_factory.getbasetemp()
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        shared = shared.parent
    for name, module in modules.items():
        folder = shared / name.rpartition(".")[2]
        try:
            folder.mkdir()
        except FileExistsError:
            builds.builds[name] = BackgroundBuild(folder, None, folder.parent / f"{folder.name}.log")
        else:
            builds.start(module, folder)
    try:
        yield builds
    finally:
        for build in builds.builds.values():
            if worker and build.process is not None:
                # The other worker may still wait on it: let it finish (within the bound), then stop it.
                build._code(BUILD_BOUND_SECS)
            build.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium (Debian's; never a downloaded one), one per test module (tests/e2e, tests/hub)."""
    from playwright.sync_api import sync_playwright

    from tests.e2e.e2e_support import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        yield chromium
        chromium.close()
