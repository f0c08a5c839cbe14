"""The bash tool with real subprocesses: process groups, timeouts, cancellation, scrubbing, transactions."""

from __future__ import annotations

import asyncio
import os
import stat
from pathlib import Path

import pytest

from zeph_nb.config import Settings
from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.gates.chain import GateChain
from zeph_nb.shell import ShellAnalysis
from zeph_nb.store import Store
from zeph_nb.tools.base import ToolCall, ToolOutput
from zeph_nb.tools.scope import CommandScope
from zeph_nb.tools.shell import process as process_module
from zeph_nb.tools.shell.executor import BashArgs, ShellExecutor

C = ToolErrorCategory
BASE_ENV = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}


def alive(pid: int) -> bool:
    """Running, as opposed to gone or a zombie (an orphan here may be reparented to a PID 1 that never reaps)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


async def gone(pid: int) -> bool:
    """Whether ``pid`` stops running within a couple of seconds (a kill is delivered, not instant)."""
    for _ in range(50):
        if not alive(pid):
            return True
        await asyncio.sleep(0.05)
    return False


# The process-group handling without the OS sandbox (not Linux, no bubblewrap, sandbox = "off"). Pids written by a
# sandboxed command are its own namespace's, so these tests run unsandboxed; tests/security covers the sandbox.
UNSANDBOXED = '[tools.shell]\nsandbox = "off"\n'


def shell(work: Path, toml: str = "", env: dict[str, str] | None = None) -> ShellExecutor:
    return ShellExecutor(Settings.from_toml(toml), workdir=work, env=env if env is not None else BASE_ENV)


async def run(executor: ShellExecutor, command: str, **params: object) -> ToolOutput:
    out = await executor.execute(ToolCall("bash", {"command": command, **params}))
    assert out is not None
    return out


async def fails(executor: ShellExecutor, command: str, category: ToolErrorCategory, **params: object) -> ToolError:
    with pytest.raises(ToolError) as info:
        await run(executor, command, **params)
    assert info.value.category is category, info.value
    return info.value


async def test_envelope_and_combined_output(tmp_path: Path) -> None:
    out = await run(shell(tmp_path), "echo out; echo err >&2; pwd")
    assert out.raw["stdout"] == f"out\n{tmp_path}\n"
    assert out.raw["stderr"] == "err\n"
    assert out.raw["exit_code"] == 0 and out.raw["truncated"] is False
    assert sorted(out.summary.splitlines()) == sorted(["out", "err", str(tmp_path)])


async def test_non_zero_exit_is_output_not_error(tmp_path: Path) -> None:
    out = await run(shell(tmp_path), "echo failing test; exit 3")
    assert out.exit_code == 3 and out.summary == "failing test\n[exit code: 3]"
    assert (await run(shell(tmp_path), "true")).summary == "(no output)"


async def test_stdin_is_closed(tmp_path: Path) -> None:
    assert (await run(shell(tmp_path), "cat; echo done", timeout=5)).summary == "done\n"


@pytest.mark.parametrize(
    ("command", "category"),
    [
        ("no-such-command-zeph", C.PERMANENT_FAILURE),  # 127
        ("printf 'x' > notexec && ./notexec", C.POLICY_BLOCKED),  # 126: found, not executable
        ("ls /definitely/not/here", C.PERMANENT_FAILURE),  # "No such file or directory"
        ("echo 'open: Permission denied' >&2; exit 1", C.PERMANENT_FAILURE),
    ],
)
async def test_failure_classification(tmp_path: Path, command: str, category: ToolErrorCategory) -> None:
    error = await fails(shell(tmp_path), command, category)
    assert error.details["exit_code"] in (1, 2, 126, 127)
    assert "[exit code:" in error.message


async def test_blocked_commands_never_start(tmp_path: Path) -> None:
    error = await fails(shell(tmp_path), "touch ran && sudo id", C.POLICY_BLOCKED)
    assert "sudo" in error.message
    assert not (tmp_path / "ran").exists()
    await fails(shell(tmp_path, "[tools.shell]\nallow_network = false\n"), "touch ran; c''url x", C.POLICY_BLOCKED)
    assert not (tmp_path / "ran").exists()


async def test_timeout_kills_the_whole_group_and_keeps_partial_output(tmp_path: Path) -> None:
    command = "echo before; sleep 300 & echo $! > child.pid; sleep 300"
    error = await fails(shell(tmp_path, UNSANDBOXED), command, C.TIMEOUT, timeout=1)
    assert "did not finish within 1s" in error.message and "before" in error.message
    assert error.details["stdout"] == "before\n" and error.details["exit_code"] is None
    assert await gone(int((tmp_path / "child.pid").read_text()))


async def test_cancellation_kills_the_child(tmp_path: Path) -> None:
    executor = shell(tmp_path, UNSANDBOXED)
    task = asyncio.create_task(run(executor, "sleep 300 & echo $! > child.pid; wait", timeout=600))
    pid_file = tmp_path / "child.pid"
    for _ in range(100):
        if pid_file.exists() and pid_file.read_text().strip():
            break
        await asyncio.sleep(0.02)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await gone(int(pid_file.read_text()))


@pytest.mark.parametrize("ticks", [0, 1, 2, 5])
async def test_cancelling_while_the_shell_starts_never_waits_for_a_background_child(tmp_path: Path, ticks: int) -> None:
    # Cancelled while asyncio is still connecting the pipes: its own clean-up would wait for them to close, and
    # `sleep 300 &` holds them for five minutes. wait_for turns such a hang into a failure instead of a stuck run.
    task = asyncio.create_task(run(shell(tmp_path, UNSANDBOXED), "sleep 300 & echo $! > child.pid; wait"))
    for _ in range(ticks):
        await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(task, 30)
    pid_file = tmp_path / "child.pid"
    await asyncio.sleep(0.2)
    if pid_file.exists() and pid_file.read_text().strip():
        assert await gone(int(pid_file.read_text()))


async def test_background_child_holding_the_pipes_is_stopped(tmp_path: Path) -> None:
    out = await run(shell(tmp_path, UNSANDBOXED), "sleep 300 & echo $! > child.pid; echo started", timeout=10)
    assert out.summary.startswith("started\n[background processes still writing")
    assert out.raw["background_stopped"] is True
    assert await gone(int((tmp_path / "child.pid").read_text()))


async def test_detached_background_child_survives(tmp_path: Path) -> None:
    out = await run(shell(tmp_path, UNSANDBOXED), "sleep 300 > /dev/null 2>&1 & echo $! > child.pid; echo started")
    child = int((tmp_path / "child.pid").read_text())
    try:
        assert out.summary == "started\n"
        assert alive(child)
    finally:
        os.kill(child, 9)


async def test_credentials_are_absent_in_the_child(tmp_path: Path) -> None:
    env = {
        **BASE_ENV,
        "ANTHROPIC_API_KEY": "sk-ant-secret",
        "GITHUB_TOKEN": "ghp_secret",
        "AWS_SECRET_ACCESS_KEY": "aws-secret",
        "AWS_REGION": "eu-west-1",
        "DB_PASSWORD": "hunter2",
        "TOKENIZERS_PARALLELISM": "false",
        "MY_SERVICE_SECRET": "s",
        "CUSTOM_THING": "visible",
        "HARMLESS_TOKEN": "kept-by-config",
    }
    executor = shell(tmp_path, '[tools.shell]\nscrub_env = ["CUSTOM_*"]\nkeep_env = ["HARMLESS_TOKEN"]\n', env=env)
    seen = dict(line.split("=", 1) for line in (await run(executor, "env")).raw["stdout"].splitlines() if "=" in line)
    for name in ("ANTHROPIC_API_KEY", "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "DB_PASSWORD", "MY_SERVICE_SECRET"):
        assert name not in seen
    assert "CUSTOM_THING" not in seen
    assert seen["AWS_REGION"] == "eu-west-1"
    assert seen["TOKENIZERS_PARALLELISM"] == "false"
    assert seen["HARMLESS_TOKEN"] == "kept-by-config"


async def test_output_is_capped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, store: Store) -> None:
    monkeypatch.setattr(process_module, "MAX_CAPTURE_BYTES", 1000)
    out = await run(shell(tmp_path), "yes | head -c 100000")
    assert out.truncated and len(out.raw["stdout"]) == 1000
    # seed 003: the model sees the flag, through the whole chain (filters and overflow keep the note)
    from zeph_nb.gates import AutoApprove, build_chain

    chain = build_chain(Settings().model_copy(update={"home": store.home}), workdir=tmp_path, store=store,
                        approver=AutoApprove())  # fmt: skip
    seen = await chain.execute(ToolCall("bash", {"command": "yes | head -c 100000"}))
    assert "[output truncated: only the first 1,000 bytes of each stream were captured" in seen.text


def test_requires_confirmation_follows_the_classifier(tmp_path: Path) -> None:
    executor = shell(tmp_path)
    assert not executor.requires_confirmation(ToolCall("bash", {"command": "ls"}))
    assert executor.requires_confirmation(ToolCall("bash", {"command": "rm -rf build"}))
    assert executor.requires_confirmation(ToolCall("bash", {"command": 42}))


async def test_parameters_are_validated(tmp_path: Path) -> None:
    with pytest.raises(ToolError) as info:
        await shell(tmp_path).execute(ToolCall("bash", {"command": "ls", "timeout": 0}))
    assert info.value.category is C.INVALID_PARAMETERS
    assert await shell(tmp_path).execute(ToolCall("read", {"path": "x"})) is None


# -- the gates' scope and the executor's own settings ---------------------------------------------------------


def chain_around(executor: ShellExecutor, store: Store, work: Path, toml: str = "") -> GateChain:
    from zeph_nb.gates import AutoApprove, build_chain

    settings = Settings.from_toml(toml).model_copy(update={"home": store.home})
    return build_chain(settings, workdir=work, store=store, executor=executor, approver=AutoApprove())


async def test_an_executor_stricter_than_the_chain_keeps_its_own_sandbox_rule(tmp_path: Path, store: Store) -> None:
    """The chain's scope is worked out from the chain's settings; an executor whose own say allow_unsandboxed =
    false refuses an approved sandbox=false call through the chain as it does alone (the classifier key covers
    only how a command is parsed, not how it is contained)."""
    work, outside = tmp_path / "work", tmp_path / "outside.txt"
    work.mkdir()
    executor = shell(work, "[tools.shell]\nallow_unsandboxed = false\n")
    call = {"command": f"echo escaped > {outside}", "sandbox": False}
    with pytest.raises(ToolError) as alone:
        await executor.execute(ToolCall("bash", call))
    assert alone.value.category is C.POLICY_BLOCKED
    outcome = await chain_around(executor, store, work).execute(ToolCall("bash", call))
    assert outcome.status != "ok" and "allow_unsandboxed = false" in outcome.text
    assert not outside.exists(), "the command ran outside the sandbox the executor's settings forbid"


async def test_an_executor_configured_like_the_chain_runs_with_the_gates_scope(
    tmp_path: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Same settings and working directory: the scope the person approved is the one used, not worked out again;
    another working directory (or any setting the scope is made of) makes the executor work out its own."""
    worked_out: list[str] = []
    real = ShellExecutor.scope

    def counted(self: ShellExecutor, args: BashArgs, analysis: ShellAnalysis) -> CommandScope:
        worked_out.append(args.command)
        return real(self, args, analysis)

    monkeypatch.setattr(ShellExecutor, "scope", counted)
    same = Settings.from_toml("").model_copy(update={"home": store.home})
    executor = ShellExecutor(same, workdir=tmp_path, env=BASE_ENV)
    outcome = await chain_around(executor, store, tmp_path).execute(ToolCall("bash", {"command": "echo same"}))
    assert outcome.status == "ok" and worked_out == []
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    outcome = await chain_around(executor, store, elsewhere).execute(ToolCall("bash", {"command": "echo other"}))
    assert outcome.status == "ok" and worked_out == ["echo other"]
    hidden = '[tools.shell]\nhidden_paths = ["secret"]\n'
    outcome = await chain_around(executor, store, tmp_path, hidden).execute(ToolCall("bash", {"command": "echo h"}))
    assert outcome.status == "ok" and worked_out == ["echo other", "echo h"]


async def test_an_executor_looser_than_the_chain_does_not_give_more_than_was_approved(
    tmp_path: Path, store: Store
) -> None:
    """The person approved a sandboxed command (the chain's scope); an executor configured with the sandbox off
    would run it without one: refused, naming what it would have got."""
    from zeph_nb.tools.containment import sandbox_status

    if not sandbox_status(Settings()).active:
        pytest.skip("no OS sandbox works here: the chain's scope is unsandboxed too")
    made = tmp_path / "made.txt"
    executor = shell(tmp_path, UNSANDBOXED)
    outcome = await chain_around(executor, store, tmp_path).execute(ToolCall("bash", {"command": f"touch {made}"}))
    assert outcome.status != "ok" and "run outside the OS sandbox" in outcome.text
    assert not made.exists()


# -- transactions -----------------------------------------------------------------------------------------

TX = """
[tools.shell]
transactional = true
auto_rollback = true
transaction_scope = ["src/**"]
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.bin").write_bytes(bytes(range(256)) * 10)
    (tmp_path / "src" / "run.sh").write_text("#!/bin/sh\necho hi\n")
    (tmp_path / "src" / "run.sh").chmod(0o750)
    (tmp_path / "outside.txt").write_text("not in scope\n")
    return tmp_path


async def test_rollback_restores_byte_identical_files(project: Path) -> None:
    before = {p: (p.read_bytes(), stat.S_IMODE(p.stat().st_mode)) for p in (project / "src").iterdir()}
    command = "printf garbage > src/a.bin; rm src/run.sh; echo new > src/new.txt; echo changed > outside.txt; exit 1"
    out = await run(shell(project, TX), command)
    assert out.exit_code == 1
    assert out.raw["rollback"] == {"restored": ["src/a.bin", "src/run.sh"], "removed": ["src/new.txt"]}
    assert "rolled back: restored 2 files, removed 1 new files" in out.summary
    after = {p: (p.read_bytes(), stat.S_IMODE(p.stat().st_mode)) for p in (project / "src").iterdir()}
    assert after == before
    assert (project / "outside.txt").read_text() == "changed\n"  # outside the scope: not ours to undo


async def test_rollback_keeps_links_that_were_there_and_puts_changed_ones_back(project: Path) -> None:
    import os

    os.symlink("run.sh", project / "src" / "latest")  # existed before the command, never changed
    os.symlink("a.bin", project / "src" / "data")  # existed before, re-pointed by the command
    command = "ln -sfn run.sh src/data; echo new > src/new.txt; exit 1"
    out = await run(shell(project, TX), command)
    assert out.raw["rollback"] == {"restored": ["src/data"], "removed": ["src/new.txt"]}
    assert os.readlink(project / "src" / "latest") == "run.sh" and os.readlink(project / "src" / "data") == "a.bin"


async def test_success_keeps_the_changes(project: Path) -> None:
    out = await run(shell(project, TX), "echo more >> src/run.sh")
    assert "rollback" not in out.raw
    assert (project / "src/run.sh").read_text().endswith("more\n")


async def test_rollback_only_for_the_listed_exit_codes(project: Path) -> None:
    executor = shell(project, TX + "auto_rollback_exit_codes = [2]\n")
    await run(executor, "echo x > src/new.txt; exit 1")
    assert (project / "src/new.txt").exists()
    await run(executor, "echo y > src/other.txt; exit 2")
    assert not (project / "src/other.txt").exists()


async def test_snapshot_required_fails_closed(project: Path) -> None:
    executor = shell(project, TX + "max_snapshot_bytes = 100\nsnapshot_required = true\n")
    error = await fails(executor, "touch src/ran", C.PERMANENT_FAILURE)
    assert "snapshot failed" in error.message and "not run" in error.message
    assert not (project / "src/ran").exists()


async def test_snapshot_not_required_runs_with_a_warning(project: Path) -> None:
    out = await run(shell(project, TX + "max_snapshot_bytes = 100\n"), "touch src/ran")
    assert (project / "src/ran").exists()
    assert "[no snapshot taken, changes cannot be rolled back" in out.summary


async def test_read_only_commands_take_no_snapshot(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    taken: list[object] = []
    from zeph_nb.undo.transaction import Transaction  # the executor imports it at its first command that may write

    original = Transaction.begin

    def spy(*args: object, **kwargs: object) -> object:
        taken.append(args)
        return original(*args, **kwargs)  # type: ignore[arg-type]  # forwarding the real call

    monkeypatch.setattr(Transaction, "begin", spy)
    await run(shell(project, TX), "ls src && git status 2>/dev/null || true")
    assert taken == []
    await run(shell(project, TX), "echo x > src/y")
    assert len(taken) == 1


# -- the seed's names and parameters ------------------------------------------------------------------------------


async def test_wait_true_is_accepted_on_the_default_backend_and_false_says_how_to_run_in_the_background(
    tmp_path: Path,
) -> None:
    """The seed's ``wait`` (default true) is a parameter of bash on every backend: true runs the call as always;
    false or a duration needs tmux panes, which the refusal says how to turn on (never an unknown parameter)."""
    executor = shell(tmp_path, UNSANDBOXED)
    assert "wait" in executor.tool_definitions()[0].input_schema["properties"]
    out = await run(executor, "echo waited", wait=True)
    assert out.summary == "waited\n"
    for wait in (False, "30s", 5):
        refused = await fails(executor, "sleep 100", C.INVALID_PARAMETERS, wait=wait)
        assert 'backend = "tmux"' in refused.message and "--tmux" in refused.message, refused.message


async def test_run_shell_the_seeds_name_runs_bash_and_the_audit_says_bash(tmp_path: Path, store: Store) -> None:
    executor = shell(tmp_path, UNSANDBOXED)
    outcome = await chain_around(executor, store, tmp_path, UNSANDBOXED).execute(
        ToolCall("run_shell", {"command": "echo aliased", "wait": True})
    )
    assert outcome.status == "ok" and "aliased" in outcome.text, outcome.text
    assert outcome.call.tool_id == "bash"
    store.flush()
    assert list(store.query("SELECT tool FROM tool_calls")["tool"]) == ["bash"]


def test_the_remote_bash_takes_wait_and_answers_to_run_shell_too() -> None:
    from zeph_nb.tools.execution.tools import REMOTE_BASH, REMOTE_BASH_TMUX

    assert REMOTE_BASH.args_model.model_validate({"command": "ls", "wait": True}).wait is True  # type: ignore[attr-defined]
    assert "run_shell" in REMOTE_BASH.aliases and "run_shell" in REMOTE_BASH_TMUX.aliases
