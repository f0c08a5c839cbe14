"""How the shell starts a sandboxed command, made cheaper for issue 45 and no weaker: the limits set by the command's
own bash (no prlimit process), the guard's journal written while bwrap builds the sandbox (the command waits for
it at a gate), the exit watched by the loop through a pidfd (no thread per command)."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from zeph_nb.config import Settings
from zeph_nb.security.os_sandbox import Limits, SandboxSpec, private_tmp, probe, wrap
from zeph_nb.tools.shell.executor import ShellExecutor
from zeph_nb.tools.shell.process import _pidfd_works

SANDBOX = probe("auto")
needs_sandbox = pytest.mark.skipif(
    not SANDBOX.active and os.environ.get("CI") != "true", reason=f"no OS sandbox here: {SANDBOX.reason}"
)


@pytest.fixture
def base() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="zeph-start-", dir="/var/tmp"))  # outside the private /tmp
    (folder / "work").mkdir()
    try:
        yield folder
    finally:
        subprocess.run(["rm", "-rf", str(folder)], check=False)


def _executor(base: Path) -> ShellExecutor:
    settings = Settings().model_copy(update={"home": base / "zeph", "user_home": base / "home"})
    return ShellExecutor(settings, workdir=base / "work")


@needs_sandbox
def test_the_limits_are_hard_and_set_without_prlimit(base: Path) -> None:
    spec = SandboxSpec(base / "work", (base / "work",), limits=Limits(300, 2 * 1024**2, 4096 * 1024**2))
    argv = wrap(["bash", "-c", "true"], spec, SANDBOX)
    assert "prlimit" not in " ".join(argv[: argv.index("--")])
    with private_tmp(wait=True) as tmp:
        line = "ulimit -Hu; ulimit -Hf; ulimit -Hv; ulimit -u 301 2>/dev/null || echo refused"
        done = subprocess.run(wrap(["bash", "-c", line], dataclasses.replace(spec, tmp_dir=tmp), SANDBOX),
                              capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert done.stdout.split() == ["300", "2048", str(4096 * 1024), "refused"], done.stderr
    # Not bash -c (a checker, an MCP server): prlimit, as before.
    other = wrap(["ruff", "check"], spec, SANDBOX)
    assert SANDBOX.prlimit is None or other[0] == SANDBOX.prlimit


@needs_sandbox
@pytest.mark.parametrize(
    "planted",
    [{"BASH_FUNC_builtin%%": "() { :; }"}, {"BASH_FUNC_exec%%": "() { :; }"}, {"BASH_ENV": "/dev/null"}],
    ids=["builtin function", "exec function", "BASH_ENV"],
)
def test_an_environment_that_runs_before_the_line_gets_prlimit_and_the_journal_first(
    base: Path, planted: dict[str, str]
) -> None:
    # An exported function named builtin stands in for `builtin ulimit` and `builtin exit` (measured: the limits
    # were not set and the line ran); a BASH_ENV script runs before the line's limits and gate.
    spec = SandboxSpec(base / "work", (base / "work",), limits=Limits(300, 2 * 1024**2, 4096 * 1024**2))
    env = {**os.environ, **planted}
    argv = wrap(["bash", "-c", "ulimit -Hu"], spec, SANDBOX, env=env)
    if SANDBOX.prlimit is None:
        pytest.skip("no prlimit on this machine")
    assert argv[0] == SANDBOX.prlimit
    with pytest.raises(ValueError, match="runs nothing before it"):
        wrap(["bash", "-c", "true"], spec, SANDBOX, gate_fd=5, env=env)
    with private_tmp(wait=True) as tmp:
        argv = wrap(["bash", "-c", "ulimit -Hu"], dataclasses.replace(spec, tmp_dir=tmp), SANDBOX, env=env)
        done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60, check=False)
    assert done.stdout.split() == ["300"], done.stderr
    # Through the executor: the command still runs, under the configured process limit, in that environment.
    settings = Settings.from_toml("[tools.shell]\nmax_processes = 300\n").model_copy(
        update={"home": base / "zeph", "user_home": base / "home"}
    )
    executor = ShellExecutor(settings, workdir=base / "work", env=env)
    output = asyncio.run(executor.run_command("ulimit -Hu", timeout=30))
    assert output.raw["stdout"].split() == ["300"], output.raw


@needs_sandbox
def test_a_gate_closed_without_its_byte_runs_nothing(base: Path) -> None:
    """The shell's caller dying before the journal is written (its end of the gate closes): the command never runs."""
    marker = base / "work" / "ran"
    spec = SandboxSpec(base / "work", (base / "work",))
    for payload in (b"", b"n"):
        read, write = os.pipe()
        with private_tmp(wait=True) as tmp:
            inside = dataclasses.replace(spec, tmp_dir=tmp)
            argv = wrap(["bash", "-c", f"touch {marker}"], inside, SANDBOX, gate_fd=read)
            process = subprocess.Popen(argv, pass_fds=(read,), stderr=subprocess.PIPE)
            os.close(read)
            os.write(write, payload)
            os.close(write)
            assert process.wait(timeout=60) == 126
        assert not marker.exists()
    with pytest.raises(ValueError):
        wrap(["ruff"], spec, SANDBOX, gate_fd=3)


@needs_sandbox
def test_a_journal_that_cannot_be_written_stops_the_command_before_it_runs(base: Path) -> None:
    (base / "zeph").mkdir()
    (base / "zeph" / "guard").write_text("a file where the journal's folder goes\n")  # mkdir fails
    (base / "work" / ".git").mkdir()  # something absent to journal: .git/hooks and the policy files
    marker = base / "work" / "ran"
    with pytest.raises(OSError):
        asyncio.run(_executor(base).run_command(f"touch {marker}", timeout=30))
    assert not marker.exists()


@pytest.mark.skipif(not _pidfd_works(), reason="no pidfd here (Linux before 5.3): asyncio's watcher is used")
def test_a_command_is_watched_without_a_thread_of_its_own(base: Path) -> None:
    async def run() -> tuple[list[str], str, int | None]:
        executor = _executor(base)
        task = asyncio.create_task(executor.run_command("sleep 0.3; echo done; exit 3", timeout=30))
        await asyncio.sleep(0.15)
        names = [t.name for t in threading.enumerate()]
        output = await task
        return names, output.raw["stdout"], output.exit_code

    names, stdout, code = asyncio.run(run())
    assert not [n for n in names if n.startswith("waitpid-")], names  # asyncio's watcher: a thread per process
    assert stdout == "done\n" and code == 3


# -- the guard's walk of the writable trees ----------------------------------------------------------------------


@needs_sandbox
def test_one_walk_before_a_command_serves_the_undo_gate_and_the_guard(
    base: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from zeph_nb.gates import build_chain
    from zeph_nb.security import tree_scan
    from zeph_nb.tools.base import ToolCall

    walked: list[Path] = []
    real = tree_scan.scan_tree

    def counted(root: Path, budget: int = tree_scan.GIT_SCAN_FOLDERS) -> tree_scan.TreeScan:
        walked.append(root)
        return real(root, budget)

    monkeypatch.setattr(tree_scan, "scan_tree", counted)
    settings = Settings.from_toml("[gates.cache]\nenabled = false\n").model_copy(update={"home": base / "zeph"})
    chain = build_chain(settings, workdir=base / "work")
    try:
        for _ in range(3):
            walked.clear()
            outcome = asyncio.run(chain.execute(ToolCall("bash", {"command": "echo hi"})))
            assert outcome.status == "ok", outcome.text
            # Once before (the undo gate's walk, which the guard reuses; none when the last command's look after it
            # is a moment old) and once, afresh, after. It was three.
            assert walked in ([base / "work"] * 2, [base / "work"]), walked
    finally:
        chain.store.close()


@needs_sandbox
def test_a_policy_file_set_aside_is_set_aside_again_when_the_next_command_writes_it_at_once(base: Path) -> None:
    """The walk before the second command is the first one's look after it, made before that look set the file
    aside: reused as it was, the file would count as one that was there before, and be kept."""
    executor = _executor(base)
    sub = base / "work" / "sub"
    sub.mkdir()
    for _ in range(2):
        output = asyncio.run(executor.run_command(f"printf '[tools.shell]\\nsandbox = \"off\"\\n' > {sub}/zeph.toml",
                                                  timeout=30))  # fmt: skip
        assert not (sub / "zeph.toml").exists(), output.summary
    assert len(list(sub.glob("zeph.toml.zeph-quarantined-*"))) >= 1
