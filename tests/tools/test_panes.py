"""Commands in tmux panes, with Debian's real tmux and real bubblewrap: started in the background, watched with
capture-pane, answered and stopped with send-keys — and contained exactly like a direct bash call, tried as a
prompt-injected model would, through the real gate chain."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from tests.security.test_containment import SANDBOX, Victim, assert_no_secret, call, chain_for, victim  # noqa: F401
from zeph_nb.config import Settings
from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.gates.approval import AutoApprove, DenyAll
from zeph_nb.security.sockets import socket_folder
from zeph_nb.tools.base import ToolCall, ToolOutput
from zeph_nb.tools.shell.background import seconds_of
from zeph_nb.tools.shell.pane_tools import KEY_PATTERN
from zeph_nb.tools.shell.panes import TmuxPanes
from zeph_nb.tools.toolsets import BUILTIN

pytestmark = [
    pytest.mark.usefixtures("fresh_tmux_server"),
    pytest.mark.skipif(
        shutil.which("tmux") is None and os.environ.get("CI") != "true", reason="tmux is not installed here"
    ),
]
TMUX = '[tools.execution]\nbackend = "tmux"\n'


def shell(workdir: Path) -> Any:
    settings = Settings.model_validate({"tools": {"execution": {"backend": "tmux"}}})
    return BUILTIN["shell"](settings, workdir, env={"PATH": os.environ["PATH"], "HOME": str(workdir)}, resolve=None)


def run(executor: Any, tool: str, **params: Any) -> ToolOutput:
    """One call to the executor, a refusal as the chain would turn it into the model's error."""
    call_ = ToolCall(tool, params)
    try:
        out = asyncio.run(executor.execute(call_))
    except ToolError as e:
        return ToolOutput.from_error(call_, e)
    assert out is not None
    return out


def until(executor: Any, text: str, target: str | None = None, timeout: float = 10.0) -> str:
    """capture-pane until ``text`` shows (a real terminal takes its time)."""
    deadline = time.monotonic() + timeout
    while True:
        shown = run(executor, "capture-pane", **({"target": target} if target else {})).summary
        printed = shown.split("\n", 1)[1]  # below the status line, which quotes the command
        if text in printed or time.monotonic() > deadline:
            return printed
        time.sleep(0.1)


def test_wait_parses_as_the_model_writes_it() -> None:
    assert [seconds_of(w) for w in (True, False, 45, "30s", "10m", "1h")] == [None, 0.0, 45.0, 30.0, 600.0, 3600.0]


def test_the_pane_tools_and_wait_are_offered_only_with_a_tmux_context(tmp_path: Path) -> None:
    plain = BUILTIN["shell"](Settings(), tmp_path, env={}, resolve=None)
    assert [t.name for t in plain.tool_definitions()] == ["bash"]
    # wait is the seed's parameter on every backend; without panes only true (the default) is taken
    assert "only choice here" in plain.tool_definitions()[0].input_schema["properties"]["wait"]["description"]
    tmux = shell(tmp_path)
    assert [t.name for t in tmux.tool_definitions()] == ["bash", "capture-pane", "send-keys"]
    assert "wait" in tmux.tool_definitions()[0].input_schema["properties"]


def test_a_background_command_is_watched_answered_and_stopped(tmp_path: Path) -> None:
    executor = shell(tmp_path)
    script = "for i in 1 2 3; do echo tick $i; sleep 0.2; done; read -p 'Continue? [y/N] ' a; echo got=$a; sleep 600"
    started = run(executor, "bash", command=script, wait=False)
    assert started.summary.startswith("command dispatched to tmux pane %")
    pane = str(started.raw["pane"])
    assert "attach -t zeph-" in started.summary  # where a person can watch it
    assert "tick 3" in until(executor, "Continue? [y/N]")
    answered = run(executor, "send-keys", target=pane, literal_text="y", enter=True)
    assert "sent 'y' Enter" in answered.summary
    assert "got=y" in until(executor, "got=y", pane)
    assert f"pane {pane}: running" in run(executor, "capture-pane").summary
    stopped = run(executor, "send-keys", keys=["C-c"], delay_ms=500)
    assert f"pane {pane}: ended by signal 2" in stopped.summary
    # Typing into a pane whose command ended reaches nobody: said, not silently done.
    dead = run(executor, "send-keys", literal_text="echo late", enter=True)
    assert dead.error is not None and "has ended" in dead.error.message


def test_waiting_a_while_returns_the_output_or_says_it_still_runs(tmp_path: Path) -> None:
    executor = shell(tmp_path)
    done = run(executor, "bash", command="echo out; echo err >&2; exit 3", wait="20s")
    assert done.summary.splitlines() == ["out", "err", "[ended with exit code 3]"]
    assert done.exit_code == 3 and done.raw["streams"] == "merged by the terminal"
    slow = run(executor, "bash", command="echo begun; sleep 600", wait=1)
    # Left running on purpose: a result, not a timeout error (which drew a red "failed" card).
    assert slow.error is None and slow.raw["running"] is True
    assert "still running in tmux pane" in slow.summary and "begun" in slow.summary
    assert ": running:" in run(executor, "capture-pane").summary  # it was not stopped


def test_wait_true_is_the_direct_call_with_streams_apart(tmp_path: Path) -> None:
    out = run(shell(tmp_path), "bash", command="echo out; echo err >&2")
    assert out.raw["stdout"] == "out\n" and out.raw["stderr"] == "err\n" and "pane" not in out.raw


def test_keys_are_named_keys_and_text_is_checked_as_a_command(tmp_path: Path) -> None:
    import re

    for key in ("C-c", "Enter", "Up", "M-x", "F12", "BTab", "C-\\"):
        assert re.fullmatch(KEY_PATTERN, key), key
    # tmux types a key name it does not know letter by letter: modifiers on named keys, S-, two modifiers
    for text in ("ls", "rm -rf ~", "a", "Enterx", "C-", "", "C-M-a", "S-Tab", "S-r", "C-S-x", "M-Home", "Enter\n"):
        assert not re.fullmatch(KEY_PATTERN, text), text
    executor = shell(tmp_path)
    run(executor, "bash", command="cat", wait=False)
    typed = run(executor, "send-keys", keys=["rm -rf ~"])
    assert typed.error is not None and typed.error.category == ToolErrorCategory.INVALID_PARAMETERS
    blocked = run(executor, "send-keys", literal_text="rm -rf ~", enter=True)
    assert blocked.error is not None and blocked.error.category == ToolErrorCategory.POLICY_BLOCKED
    other = run(executor, "capture-pane", target="%999")
    assert other.error is not None and "not a pane of this agent's commands" in other.error.message


def test_the_socket_is_private_and_out_of_every_sandbox(tmp_path: Path) -> None:
    folder = socket_folder()
    assert folder.stat().st_mode & 0o777 == 0o700
    executor = shell(tmp_path)
    socket = executor.executors[0].panes.socket
    probe = f"ls -la {socket.parent} 2>&1; tmux -S {socket} list-sessions 2>&1; echo TMUX=$TMUX; echo done"
    out = run(executor, "bash", command=probe, wait="20s")
    # Naming the folder is refused before anything runs; a command that finds it another way meets an empty one.
    assert "may not be read by any tool: zeph-nb's tmux and ssh sockets" in out.summary, out.summary
    probe = 'd=$(printf /tm%s p)/zeph-nb-$(id -u); ls -la "$d" 2>&1; tmux -S "$(ls "$d"/*.sock | head -1)" ls 2>&1'
    out = run(executor, "bash", command=probe + "; echo TMUX=$TMUX; echo done", wait="20s")
    if SANDBOX.active:
        assert f"{socket.name}" not in out.summary and "windows" not in out.summary, out.summary  # none listed
        assert "TMUX=\n" in out.summary  # nothing tells the command where the server is
    assert "done" in out.summary


def test_a_network_command_is_told_to_run_directly(tmp_path: Path) -> None:
    out = run(shell(tmp_path), "bash", command="curl https://example.org", network=True, wait=False)
    assert out.error is not None and "gets no network" in out.error.message and "wait=true" in out.error.message


# -- contained like any command, through the gate chain --------------------------------------------------------

# Reads the policy cannot see for what they are, so they run, and only the sandbox stands in the way.
PANE_READS = [
    "f=$(printf %s ~/.s sh/id_r sa); cat $f",
    "grep -r BEGIN ~ 2>/dev/null",
    "env; printenv",
    "cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n'",
    "f=$(printf %s ~/.loc al/share/jupyter/runtime); cat $f/*.json",
    "f=$(printf %s ~/.bash_hi story); g=$(printf %s ~/.pg pass); cat $f $g",
]


@pytest.mark.skipif(not SANDBOX.active, reason=f"no OS sandbox here: {SANDBOX.reason}")
@pytest.mark.parametrize("command", PANE_READS)
def test_a_pane_reads_no_credentials(victim: Victim, command: str) -> None:  # noqa: F811
    chain = chain_for(victim, approver=AutoApprove(), toml=TMUX)
    out = call(chain, "bash", command=command, wait="20s")
    assert out.status == "ok", out.text  # it ran, in a pane
    assert_no_secret(out.text)
    later = call(chain, "capture-pane")
    assert_no_secret(later.text)


@pytest.mark.skipif(not SANDBOX.active, reason=f"no OS sandbox here: {SANDBOX.reason}")
def test_a_pane_writes_nothing_outside_the_project(victim: Victim) -> None:  # noqa: F811
    before = victim.outside_work()
    chain = chain_for(victim, approver=AutoApprove(), toml=TMUX)
    attack = "echo pwned >> ~/.bashrc; echo '[tools]' > ~/.zeph/config.toml; (sleep 1; echo late >> ~/.profile) &"
    call(chain, "bash", command=attack, wait="20s")
    time.sleep(1.5)
    assert victim.outside_work() == before


@pytest.mark.skipif(not SANDBOX.active, reason=f"no OS sandbox here: {SANDBOX.reason}")
def test_typing_into_a_pane_asks_like_a_command(victim: Victim) -> None:  # noqa: F811
    chain = chain_for(victim, approver=AutoApprove(), toml=TMUX)
    call(chain, "bash", command="read -p 'name? ' n; echo hello $n; sleep 600", wait=False)
    denying = chain_for(victim, approver=DenyAll(), toml=TMUX)
    # What a command line would be asked about (here: an install, which needs the network) is asked about when
    # typed; DenyAll says no, and nothing reaches the pane.
    denied = call(denying, "send-keys", literal_text="pip install requests", enter=True)
    assert denied.status == "denied", denied.text
    assert "pip install" not in call(chain, "capture-pane").text.split("\n", 1)[1]
    blocked = call(chain, "send-keys", literal_text="rm -rf ~", enter=True)
    assert blocked.status == "denied" and blocked.category == ToolErrorCategory.POLICY_BLOCKED, blocked.text
    answered = call(chain, "send-keys", literal_text="ada", enter=True, delay_ms=500)
    assert answered.status == "ok" and "hello ada" in answered.text


def test_a_tool_error_names_what_to_do_when_tmux_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(ToolError, match="tmux is not installed; install it"):
        TmuxPanes({})


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_background_commands_end_with_a_kernel_that_was_killed(tmp_path: Path, how: signal.Signals) -> None:
    """SIGKILL and SIGTERM (how Jupyter stops a kernel that does not answer) run no atexit hook: the server's first
    window watches the kernel and stops the server itself, and removes the socket file tmux leaves behind."""
    marker = f"zeph-orphan-{os.getpid()}"
    kernel = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import asyncio, os, sys, zeph_nb
            from zeph_nb.tools.base import ToolCall
            settings = zeph_nb.Settings.from_toml('[tools.execution]\\nbackend = "tmux"\\n')
            chain = zeph_nb.build_chain(settings, workdir={str(tmp_path)!r}, approver=zeph_nb.AutoApprove())
            command = "bash -c 'exec -a {marker} sleep 300'"
            out = asyncio.run(chain.execute(ToolCall("bash", {{"command": command, "wait": False}})))
            print(out.text, flush=True)
            sys.stdin.read()
        """)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env={**os.environ, "ZEPH_HOME": str(tmp_path / "z")},
    )  # fmt: skip
    assert kernel.stdout is not None
    said = kernel.stdout.readline()
    assert "dispatched to tmux pane" in said
    socket_file = Path(said.split("tmux -S ", 1)[1].split()[0])
    assert socket_file.exists()

    def running() -> bool:
        return subprocess.run(["pgrep", "-f", marker], capture_output=True, check=False).returncode == 0

    deadline = time.monotonic() + 10
    while not running() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert running()
    kernel.send_signal(how)
    kernel.wait()
    # Another kernel starting in that second sweeps the sockets of gone kernels: the dead kernel's server still
    # answers there, and removing its socket then orphaned that server and its commands for good.
    from zeph_nb.gates import build_chain

    settings = Settings.model_validate({"tools": {"execution": {"backend": "tmux"}}, "home": tmp_path / "z2"})
    other = build_chain(settings, workdir=tmp_path, approver=AutoApprove())
    asyncio.run(other.execute(ToolCall("bash", {"command": "true", "wait": False})))
    deadline = time.monotonic() + 15
    while (running() or socket_file.exists()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not running(), "a background command outlived its killed kernel"
    assert not socket_file.exists(), "the server's socket file was left behind"


@pytest.mark.skipif(not SANDBOX.active, reason=f"no OS sandbox here: {SANDBOX.reason}")
def test_a_line_cannot_be_edited_into_another_command_without_asking(victim: Victim) -> None:  # noqa: F811
    chain = chain_for(victim, approver=AutoApprove(), toml=TMUX)
    call(chain, "bash", command="exec bash --norc -i", wait=False)  # an interactive shell: typed lines run
    (victim.work / "x1").write_text("keep")
    denying = chain  # the same toolset, now with nobody to approve
    denying.session.desk.approver = DenyAll()
    attempts = [
        {"literal_text": "echo hi\rrm -f x1\r", "enter": True},  # \r is Enter to a terminal
        {"literal_text": "echo rm -f x1", "enter": True, "keys": ["Home", "M-d"]},  # readline editing
        {"literal_text": "rm -f x", "enter": False},  # half a line: the rest may come later
        {"keys": ["S-r", "Enter"]},  # a name tmux does not know is typed as text
        {"keys": ["Enter\n"]},
    ]
    for params in attempts:
        refused = call(denying, "send-keys", **params)  # asked and denied, or refused as invalid: never typed
        assert refused.status in ("denied", "error") and refused.category != ToolErrorCategory.TIMEOUT, params
        assert refused.category in (ToolErrorCategory.CONFIRMATION_REQUIRED, ToolErrorCategory.INVALID_PARAMETERS)
    call(denying, "send-keys", keys=["C-u"])  # ends or clears a line: runs without asking
    time.sleep(0.5)
    assert (victim.work / "x1").read_text() == "keep"


@pytest.mark.skipif(not SANDBOX.active, reason=f"no OS sandbox here: {SANDBOX.reason}")
def test_what_a_pane_command_may_not_leave_behind_is_undone(victim: Victim) -> None:  # noqa: F811
    chain = chain_for(victim, approver=AutoApprove(), toml=TMUX)
    plant = ("mkdir deep && python3 -c \"open('deep/ze'+'ph.toml','w').write('[tools.shell]\\nsandbox = 0\\n')\"; "
             "mkdir -p sub && cd sub && git init -q . && git config core.fsmonitor 'touch /tmp/pwned; false'; "
             "echo planted; sleep 600")  # fmt: skip
    call(chain, "bash", command=plant, wait=False)
    seen = ""  # every look's notes: what was undone is said once, at the look that undid it
    for _ in range(100):
        seen += call(chain, "capture-pane").text
        if "planted" in seen:
            break
        time.sleep(0.1)
    assert "set aside" in seen and "core.fsmonitor" in seen, seen  # the command still running
    assert not (victim.work / "deep" / "zeph.toml").exists()
    config = (victim.work / "sub" / ".git" / "config").read_text()
    assert "fsmonitor" not in config, config
    call(chain, "send-keys", keys=["C-c"])


@pytest.mark.skipif(not SANDBOX.active, reason=f"no OS sandbox here: {SANDBOX.reason}")
def test_the_socket_folder_stays_hidden_when_tmp_itself_is_allowed(victim: Victim) -> None:  # noqa: F811
    toml = TMUX + '[tools.shell]\nallowed_paths = ["/tmp"]\n'
    chain = chain_for(victim, approver=AutoApprove(), toml=toml)
    call(chain, "bash", command="sleep 30", wait=False)  # the server and its socket exist
    folder = socket_folder()
    named = call(chain, "bash", command=f"ls -la {folder}")
    assert named.category == ToolErrorCategory.POLICY_BLOCKED, named.text  # refused before it runs
    hidden = 'd=$(printf /tm%s p)/zeph-nb-$(id -u); ls -la "$d" 2>&1; echo done'  # found another way: empty
    out = call(chain, "bash", command=hidden)
    assert ".sock" not in out.text and "done" in out.text, out.text


def test_another_chain_in_the_kernel_sees_none_of_these_panes(tmp_path: Path) -> None:
    first, second = shell(tmp_path), shell(tmp_path)
    started = run(first, "bash", command="echo mine; sleep 30", wait=False)
    pane = started.raw["pane"]
    for tool, params in (("capture-pane", {"target": pane}), ("send-keys", {"target": pane, "keys": ["C-c"]}),
                         ("capture-pane", {})):  # fmt: skip
        out = run(second, tool, **params)
        assert out.error is not None and out.error.category == ToolErrorCategory.INVALID_PARAMETERS, out.summary
    assert "mine" in until(first, "mine", pane)


def test_background_commands_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import zeph_nb.tools.shell.panes as panes_module

    monkeypatch.setattr(panes_module, "MAX_RUNNING_PANES", 2)
    executor = shell(tmp_path)
    for _ in range(2):
        assert "dispatched" in run(executor, "bash", command="sleep 30", wait=False).summary
    third = run(executor, "bash", command="sleep 30", wait=False)
    assert third.error is not None and third.error.category == ToolErrorCategory.RATE_LIMITED
    assert "stop one" in third.error.message
    too_long = run(executor, "bash", command="true", wait="99999h")
    assert too_long.error is not None and "more than a day" in too_long.error.message
    run(executor, "send-keys", keys=["C-c"])  # the latest: one ends, so one more may start
    timed = run(executor, "bash", command="sleep 30", wait="20s", timeout=1)  # timeout stops a pane command too
    assert timed.exit_code == 124, timed.summary


def test_jobs_lists_every_background_command_of_the_kernel(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from zeph_nb.notebook.where import print_jobs

    print_jobs()
    assert "no background commands" in capsys.readouterr().out
    first, second = shell(tmp_path), shell(tmp_path)  # two agents' toolsets: the person sees both
    run(first, "bash", command="exit 3", wait="10s")
    run(second, "bash", command="sleep 30", wait=False)
    assert [(state, command) for _, state, command in TmuxPanes.jobs()] == [
        ("ended with exit code 3", "exit 3"), ("running", "sleep 30")]  # fmt: skip
    print_jobs()
    out = capsys.readouterr().out
    assert "running" in out and "sleep 30" in out and "watch them: tmux -S" in out


def test_the_transcripts_show_a_panes_screen_as_a_block(tmp_path: Path) -> None:
    import io

    from zeph_nb.agent.events import ToolCallFinished
    from zeph_nb.gates import build_chain
    from zeph_nb.notebook.cards import ToolCard
    from zeph_nb.notebook.plain import PlainTranscript

    settings = Settings.model_validate({"tools": {"execution": {"backend": "tmux"}}, "home": tmp_path / "z"})
    chain = build_chain(settings, workdir=tmp_path, approver=AutoApprove())
    asyncio.run(
        chain.execute(ToolCall("bash", {"command": "printf 'epoch 1 <b>loss</b>\\n'; sleep 30", "wait": False}))
    )
    for _ in range(50):
        outcome = asyncio.run(chain.execute(ToolCall("capture-pane", {})))
        if "epoch 1" in outcome.text.split("\n", 1)[1]:  # below the status line, which quotes the command
            break
        time.sleep(0.1)
    card = ToolCard("capture-pane", {})
    card.finished(outcome)
    assert '<pre class="zeph-term">epoch 1 &lt;b&gt;loss&lt;/b&gt;</pre>' in card.stats.value  # escaped, not HTML
    out = io.StringIO()
    PlainTranscript(out).handle(ToolCallFinished(outcome))
    assert "  │ epoch 1 <b>loss</b>" in out.getvalue()
    assert "running:" not in card.stats.value  # the status line stays in the title, not the screen


def test_the_persons_own_pane_is_reached_only_by_name_and_always_asks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A notebook server started inside tmux: the kernel's $TMUX_PANE is the person's own terminal."""
    import subprocess as sp

    from zeph_nb.gates import ScriptedApprover, build_chain

    socket = tmp_path / "person.sock"
    # A person's terminal has a shell to run `cat` with (tmux runs it with $SHELL, else the account's login shell,
    # which for a system account running the tests is nologin).
    sp.run(["tmux", "-S", str(socket), "-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "30", "cat"],
           check=True, env={**os.environ, "SHELL": "/bin/sh"})  # fmt: skip
    try:
        pane_id = sp.run(["tmux", "-S", str(socket), "display-message", "-p", "#{pane_id}"], capture_output=True,
                         text=True, check=True).stdout.strip()  # fmt: skip
        monkeypatch.setenv("TMUX", f"{socket},1,0")
        monkeypatch.setenv("TMUX_PANE", pane_id)
        settings = Settings.model_validate({"home": tmp_path / "z"})  # the local backend: no --tmux
        approver = ScriptedApprover([False, True, True])
        chain = build_chain(settings, workdir=tmp_path, approver=approver)
        assert [t.name for t in chain.tool_definitions()][:13][-3:] == ["bash", "capture-pane", "send-keys"]
        bash_wait = chain.tool_definitions()[10].input_schema["properties"]["wait"]
        assert "only choice here" in bash_wait["description"]  # bash as without tmux: wait=true only
        denied = asyncio.run(chain.execute(ToolCall("capture-pane", {"target": "user"})))
        assert denied.category == ToolErrorCategory.CONFIRMATION_REQUIRED, denied.text
        typed = asyncio.run(chain.execute(ToolCall("send-keys", {"target": "user", "literal_text": "hello",
                                                                 "enter": True, "delay_ms": 300})))  # fmt: skip
        assert typed.category is None, typed.text
        shown = asyncio.run(chain.execute(ToolCall("capture-pane", {"target": "user"})))
        assert "hello" in shown.text and "your own pane" in shown.text
        assert len(approver.requests) == 3  # each of the three asked
        default = asyncio.run(chain.execute(ToolCall("capture-pane", {})))  # never the default target
        assert default.category == ToolErrorCategory.INVALID_PARAMETERS
    finally:
        sp.run(["tmux", "-S", str(socket), "kill-server"], capture_output=True, check=False)


def test_a_job_left_running_after_its_wait_is_a_neutral_card_and_a_plain_result(tmp_path: Path) -> None:
    """wait="1s" on a longer job: the job runs on as asked. It drew a red "failed" card, and the model's block said
    both "this call was not retried" and "retryable: true"."""
    from zeph_nb.gates import build_chain
    from zeph_nb.notebook.cards import ToolCard

    settings = Settings.model_validate({"tools": {"execution": {"backend": "tmux"}}, "home": tmp_path / "z"})
    chain = build_chain(settings, workdir=tmp_path, approver=AutoApprove())
    outcome = asyncio.run(chain.execute(ToolCall("bash", {"command": "echo begun; sleep 30", "wait": "1s"})))
    assert (outcome.status, outcome.category) == ("ok", None)
    assert outcome.text.startswith("the command is still running in tmux pane %") and "begun" in outcome.text
    assert "[tool_error]" not in outcome.text and "retr" not in outcome.text
    card = ToolCard("bash", outcome.call.params)
    card.finished(outcome)
    assert ">still running</span>" in card.title.value and f"in pane {outcome.output.raw['pane']}" in card.title.value
    assert "failed" not in card.title.value
    asyncio.run(chain.execute(ToolCall("send-keys", {"keys": ["C-c"]})))


def test_send_keys_types_the_text_then_presses_the_keys(tmp_path: Path) -> None:
    """The seed's order: ``{"literal_text": "yes", "keys": ["Enter"]}`` answers a prompt with "yes" (keys first
    pressed Enter on an empty line, then left "yes" typed and unsent)."""
    executor = shell(tmp_path)
    run(executor, "bash", command="read -p 'Proceed? ' a; echo got=$a; sleep 600", wait=False)
    until(executor, "Proceed?")
    answered = run(executor, "send-keys", literal_text="yes", keys=["Enter"])
    assert "sent 'yes' Enter" in answered.summary, answered.summary
    assert "got=yes" in until(executor, "got=yes"), "the text was not typed before Enter"
    # Text with an Enter key after it is a whole line, asked about as the command it is, like enter=true.
    assert not executor.requires_confirmation(ToolCall("send-keys", {"literal_text": "yes", "keys": ["Enter"]}))
    assert executor.requires_confirmation(ToolCall("send-keys", {"literal_text": "yes", "keys": ["C-d"]}))


def test_the_pane_tools_take_the_seeds_delay_durations(tmp_path: Path) -> None:
    executor = shell(tmp_path)
    run(executor, "bash", command="read -p 'name? ' n; sleep 0.3; echo hello $n; sleep 600", wait=False)
    until(executor, "name?")
    answered = run(executor, "send-keys", literal_text="ada", enter=True, delay="1s")
    assert answered.error is None and "sent 'ada' Enter" in answered.summary, answered.summary
    assert "hello ada" in until(executor, "hello ada")
    looked = run(executor, "capture-pane", delay="500ms")
    assert looked.error is None and "hello ada" in looked.summary
    for tool, delay in (("capture-pane", "5 minutes"), ("capture-pane", "61s"), ("send-keys", "11s")):
        refused = (
            run(executor, tool, delay=delay, keys=["C-u"]) if tool == "send-keys" else run(executor, tool, delay=delay)
        )
        assert refused.error is not None and refused.error.category == ToolErrorCategory.INVALID_PARAMETERS, delay
