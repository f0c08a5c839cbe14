"""The container backend. No container engine can run containers on these machines (the docker CLI answers, no
daemon does), so the exact command lines and stdin handling are checked against a recording stand-in for the
engine's CLI — which runs what ``exec`` was given on this machine — and one test runs when a real engine works."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from zeph_nb.config import Settings
from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.gates import AutoApprove, build_chain
from zeph_nb.gates.chain import GateChain
from zeph_nb.store import Store
from zeph_nb.tools.base import ToolCall
from zeph_nb.tools.execution import close_backends
from zeph_nb.tools.execution.container import ContainerBackend, detect_engine

STANDIN = r'''#!PYTHON
"""A stand-in for `docker`/`podman`: --version, and `exec [-i] NAME CMD…` run here, each call logged."""
import json, os, subprocess, sys
args = sys.argv[1:]
# Beside its bin folder: the engine's client gets only the environment a docker CLI needs, no test variables.
with open(os.path.join(os.path.dirname(sys.argv[0]), "..", "engine.log"), "a") as log:
    log.write(json.dumps([os.path.basename(sys.argv[0]), *args]) + "\n")
if args == ["--version"]:
    sys.exit(int(os.environ.get("STANDIN_VERSION_FAILS", "0")) or print("Docker version 0.0 (stand-in)"))
if args[:1] != ["exec"]:
    sys.exit("stand-in: only exec is known")
args = args[1:]
interactive = args[:1] == ["-i"]
args = args[1:] if interactive else args
if args[0] != "web":
    sys.exit(f"Error response from daemon: No such container: {args[0]}")
stdin = None if interactive else subprocess.DEVNULL  # without -i, docker exec gives the command no stdin
sys.exit(subprocess.run(args[1:], stdin=stdin).returncode)
'''


@pytest.fixture
def engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A bin folder with `docker` and `podman` stand-ins first on PATH; returns the log every call goes to."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("docker", "podman"):
        script = bin_dir / name
        script.write_text(STANDIN.replace("PYTHON", sys.executable))
        script.chmod(0o755)
    log = tmp_path / "engine.log"
    log.touch()
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    yield log
    close_backends()


def calls(log: Path) -> list[list[str]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def chain_for(tmp_path: Path, store: Store, container: str = "web") -> tuple[GateChain, Path]:
    inside = tmp_path / "inside"
    inside.mkdir(exist_ok=True)
    settings = Settings.from_toml(f'[tools.execution]\nbackend = "container"\ncontainer = "{container}"\n'
                                  f'remote_workdir = "{inside}"\n').model_copy(update={"home": store.home})  # fmt: skip
    local = tmp_path / "local"
    local.mkdir(exist_ok=True)
    return build_chain(settings, workdir=local, store=store, approver=AutoApprove()), inside


def test_the_engine_is_docker_then_podman(engine: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert detect_engine().endswith("/docker")
    monkeypatch.setenv("STANDIN_VERSION_FAILS", "1")  # both stand-ins fail; a broken docker is passed over
    with pytest.raises(ToolError, match="no container engine answers here"):
        detect_engine()
    monkeypatch.delenv("STANDIN_VERSION_FAILS")
    assert detect_engine("podman").endswith("/podman")
    assert [c[:2] for c in calls(engine)] == [["docker", "--version"], ["docker", "--version"],
                                              ["podman", "--version"], ["podman", "--version"]]  # fmt: skip


async def test_commands_and_files_go_through_docker_exec_with_i_only_for_stdin(
    engine: Path, tmp_path: Path, store: Store
) -> None:
    chain, inside = chain_for(tmp_path, store)
    out = await chain.execute(ToolCall("bash", {"command": "pwd; cat; echo done"}))  # cat meets no stdin
    assert out.category is None, out.text
    assert out.text.splitlines() == [str(inside), "done"]
    wrote = await chain.execute(ToolCall("write", {"path": "app/settings.py", "content": "DEBUG = False\n"}))
    assert wrote.category is None, wrote.text
    assert (inside / "app" / "settings.py").read_text() == "DEBUG = False\n"
    read = await chain.execute(ToolCall("read", {"path": "app/settings.py"}))
    assert read.text == "DEBUG = False\n" and read.output is not None
    assert read.output.raw["where"].endswith("container web")
    execs = [c for c in calls(engine) if c[1] == "exec"]
    assert execs and all(c[0] == "docker" and c[2:6] in (["-i", "web", "sh", "-c"], ["web", "sh", "-c", c[5]])
                         for c in execs)  # fmt: skip
    with_stdin = [c for c in execs if c[2] == "-i"]
    assert len(with_stdin) == 1 and any(a.endswith("/app/settings.py") for a in with_stdin[0])  # the write only
    command = next(c for c in execs if c[-1] == "pwd; cat; echo done")
    assert command[:3] == ["docker", "exec", "web"] and command[-3] == str(inside)  # workdir, token, command


async def test_a_missing_container_says_how_to_start_it(engine: Path, tmp_path: Path, store: Store) -> None:
    chain, _ = chain_for(tmp_path, store, container="db")
    out = await chain.execute(ToolCall("bash", {"command": "true"}))
    assert out.category is ToolErrorCategory.PERMANENT_FAILURE
    assert "No such container: db" in out.text and "docker start db" in out.text


def test_a_container_name_is_never_an_option() -> None:
    with pytest.raises(ToolError, match="not a container name"):
        ContainerBackend("--privileged", engine="docker")


def _engine_runs() -> bool:
    docker = shutil.which("docker")
    if docker is None:
        return False
    try:
        return subprocess.run([docker, "info"], capture_output=True, timeout=10, check=False).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


@pytest.mark.skipif(not _engine_runs(), reason="no container engine runs containers on this machine")
async def test_a_real_container(tmp_path: Path, store: Store) -> None:  # pragma: no cover - needs a daemon
    name = f"zeph-test-{os.getpid()}"
    subprocess.run(["docker", "run", "-d", "--rm", "--name", name, "busybox", "sleep", "120"], check=True)
    try:
        settings = Settings.from_toml(f'[tools.execution]\nbackend = "container"\ncontainer = "{name}"\n'
                                      'remote_workdir = "/tmp"\n').model_copy(update={"home": store.home})  # fmt: skip
        chain = build_chain(settings, workdir=tmp_path, store=store, approver=AutoApprove())
        assert (await chain.execute(ToolCall("write", {"path": "a.txt", "content": "hi\n"}))).category is None
        assert (await chain.execute(ToolCall("bash", {"command": "cat a.txt; pwd"}))).text == "hi\n/tmp\n"
    finally:
        subprocess.run(["docker", "rm", "-f", name], capture_output=True, check=False)
        close_backends()


@pytest.mark.skipif(shutil.which("tmux") is None and os.environ.get("CI") != "true", reason="tmux is not installed")
async def test_background_commands_run_in_a_tmux_pane_in_the_container(
    engine: Path, tmp_path: Path, store: Store
) -> None:
    from zeph_nb.tools.shell.panes import TmuxPanes

    inside = tmp_path / "inside"
    inside.mkdir()
    settings = Settings.from_toml(f'[tools.execution]\nbackend = "container"\ncontainer = "web"\ntmux = true\n'
                                  f'remote_workdir = "{inside}"\n').model_copy(update={"home": store.home})  # fmt: skip
    (tmp_path / "local").mkdir()
    chain = build_chain(settings, workdir=tmp_path / "local", store=store, approver=AutoApprove())
    try:
        started = await chain.execute(ToolCall("bash", {"command": "pwd; echo ready; sleep 30", "wait": False}))
        assert "dispatched to tmux pane" in started.text and "docker exec -it web tmux -L zeph-" in started.text
        shown = ""
        for _ in range(100):
            shown = (await chain.execute(ToolCall("capture-pane", {}))).text
            if "ready" in shown.split("\n", 1)[1]:  # below the status line, which quotes the command
                break
            await asyncio.sleep(0.1)
        assert f"{inside}\nready" in shown, shown
        tmux_calls = [c for c in calls(engine) if c[1:4] == ["exec", "web", "tmux"]]
        assert tmux_calls and all(c[4] == "-L" for c in tmux_calls)  # the container's own tmux, a server of ours
    finally:
        for panes in list(TmuxPanes._instances):
            if panes.remote is not None:
                await panes.close()
                TmuxPanes._instances.remove(panes)
