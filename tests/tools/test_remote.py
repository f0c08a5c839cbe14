"""Commands and files over SSH, with Debian's real sshd on 127.0.0.1 and the real ssh client, through the whole
gate chain. The server logs in as the user running the tests, so the test can look at the "remote" side itself."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from sshd import SSHD, Sshd, no_login_shell, sshd_server

from zeph_nb.config import Settings
from zeph_nb.errors import ToolErrorCategory
from zeph_nb.gates import AutoApprove, ScriptedApprover, build_chain
from zeph_nb.gates.chain import GateChain
from zeph_nb.store import Store
from zeph_nb.tools.base import ToolCall
from zeph_nb.tools.execution import backend_for, close_backends
from zeph_nb.tools.execution.ssh import SshBackend, parse_destination
from zeph_nb.tools.shell.panes import TmuxPanes

pytestmark = [
    pytest.mark.skipif(
        (SSHD is None or shutil.which("ssh") is None) and os.environ.get("CI") != "true",
        reason="openssh-server is not installed here",
    ),
    # Not even in CI: an account without a login shell is what it is, not a package to install.
    pytest.mark.skipif(no_login_shell() is not None, reason=no_login_shell() or ""),
]


@pytest.fixture(scope="module")
def sshd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sshd]:
    with sshd_server(tmp_path_factory.mktemp("sshd")) as server:
        yield server


@pytest.fixture
def remote(tmp_path: Path) -> Path:
    folder = tmp_path / "remote-work"
    folder.mkdir()
    return folder


@pytest.fixture(autouse=True)
def _closed() -> Iterator[None]:
    yield
    for panes in list(TmuxPanes._instances):  # remote tmux servers first: they are reached over the connection
        if panes.remote is not None:
            asyncio.run(panes.close())
            TmuxPanes._instances.remove(panes)
    close_backends()  # one master connection per test, closed: none outlives its test


def settings_for(sshd: Sshd, remote: Path, store: Store, extra: str = "") -> Settings:
    options = ", ".join(f'"{o}"' for o in sshd.options)
    return Settings.from_toml(
        f'[tools.execution]\nbackend = "ssh"\nssh = "{sshd.destination}"\nssh_options = [{options}]\n'
        f'remote_workdir = "{remote}"\n' + extra
    ).model_copy(update={"home": store.home})


def chain_for(settings: Settings, tmp_path: Path, store: Store, approver: object = None) -> GateChain:
    local = tmp_path / "local"
    local.mkdir(exist_ok=True)
    return build_chain(settings, workdir=local, store=store, approver=approver or AutoApprove())  # type: ignore[arg-type]


async def test_commands_run_in_the_remote_folder_and_ride_one_connection(
    sshd: Sshd, remote: Path, tmp_path: Path, store: Store
) -> None:
    settings = settings_for(sshd, remote, store)
    chain = chain_for(settings, tmp_path, store)
    assert [t.name for t in chain.tool_definitions()] == [
        "read",
        "write",
        "edit",
        "bash",
        "diagnostics",
        "time",
        "fetch",
        "web_scrape",
        "web_search",
        "read_overflow",
    ]
    out = await chain.execute(ToolCall("bash", {"command": "pwd; echo out; echo err >&2; touch made-there"}))
    assert out.category is None, out.text
    assert out.text.splitlines()[0] == str(remote) and (remote / "made-there").exists()
    assert out.output is not None and out.output.raw["stderr"] == "err\n" and out.output.raw["sandbox"] == "ssh"
    failed = await chain.execute(ToolCall("bash", {"command": "exit 3"}))
    assert failed.category is None and "[exit code: 3]" in failed.text
    backend = backend_for(settings)
    assert isinstance(backend, SshBackend) and backend.control.exists()  # the master connection, reused
    check = subprocess.run([*backend._base(), "-O", "check", "--", backend.destination], capture_output=True,
                           text=True, check=False)  # fmt: skip
    assert check.returncode == 0, check.stderr
    control = backend.control
    close_backends()
    assert not control.exists()


async def test_every_remote_command_and_write_asks_unless_a_rule_allows_it(
    sshd: Sshd, remote: Path, tmp_path: Path, store: Store
) -> None:
    approver = ScriptedApprover([])  # denies whatever it is asked
    chain = chain_for(settings_for(sshd, remote, store), tmp_path, store, approver)
    for call in (ToolCall("bash", {"command": "ls"}), ToolCall("write", {"path": "x.txt", "content": "x"})):
        asked = await chain.execute(call)
        assert asked.category is ToolErrorCategory.CONFIRMATION_REQUIRED, asked.text
    assert approver.requests[0].rule == "remote execution"  # a write asks anyway; both say where it would run
    assert all(f"runs on ssh {sshd.destination}" in r.reason for r in approver.requests), approver.requests
    assert not (remote / "x.txt").exists()

    allowed = settings_for(sshd, remote, store, '[gates.permissions]\nbash = [{pattern = "ls*", action = "allow"}]\n')
    chain = chain_for(allowed, tmp_path, store, ScriptedApprover([]))
    assert (await chain.execute(ToolCall("bash", {"command": "ls"}))).category is None
    blocked = await chain.execute(ToolCall("bash", {"command": "rm -rf ~"}))  # the blocklist holds there too
    assert blocked.category is ToolErrorCategory.POLICY_BLOCKED


async def test_files_are_read_written_and_edited_there_inside_the_remote_folder_only(
    sshd: Sshd, remote: Path, tmp_path: Path, store: Store
) -> None:
    chain = chain_for(settings_for(sshd, remote, store), tmp_path, store)
    wrote = await chain.execute(ToolCall("write", {"path": "notes/a.txt", "content": "one\ntwo\nthree\n"}))
    assert wrote.category is None, wrote.text
    assert (remote / "notes" / "a.txt").read_text() == "one\ntwo\nthree\n"
    assert not [p for p in (remote / "notes").iterdir() if p.name.startswith(".zeph-write")]  # no temp left
    read = await chain.execute(ToolCall("read", {"path": "notes/a.txt", "offset": 1, "limit": 1}))
    assert read.text.startswith("two\n[lines 2-2 of 3")
    edited = await chain.execute(ToolCall("edit", {"path": "notes/a.txt", "old_string": "two", "new_string": "2"}))
    assert edited.category is None and "+2" in edited.text
    assert (remote / "notes" / "a.txt").read_text() == "one\n2\nthree\n"

    secret = tmp_path / "secret.txt"
    secret.write_text("top secret")
    (remote / "link").symlink_to(secret)
    (remote / ".ssh").mkdir()
    (remote / "out").symlink_to(tmp_path)
    escapes = [ToolCall("read", {"path": "../secret.txt"}), ToolCall("read", {"path": "link"}),
               ToolCall("write", {"path": "out/secret.txt", "content": "x"}), ToolCall("read", {"path": ".ssh/id_rsa"}),
               ToolCall("write", {"path": "/etc/x", "content": "x"})]  # fmt: skip
    for call in escapes:
        refused = await chain.execute(call)
        assert refused.category is ToolErrorCategory.POLICY_BLOCKED, (call, refused.text)
        assert "top secret" not in refused.text
    # A write to a link replaces the link (rename does not follow it): what it pointed at is untouched.
    assert (await chain.execute(ToolCall("write", {"path": "link", "content": "x"}))).category is None
    assert secret.read_text() == "top secret" and not (remote / "link").is_symlink()
    # Found attacking it: a trailing newline (gone after $(realpath)), a credential folder in another case or
    # behind a link, a link to a folder outside as a write's target, a pipe that never ends, deny_read by an
    # absolute path.
    (tmp_path / "keys").mkdir()
    (tmp_path / "keys" / "id_rsa").write_text("top secret key")
    (remote / "dotfiles").mkdir()
    (remote / ".aws").symlink_to(tmp_path / "keys")
    (remote / "dotfiles" / "aws").symlink_to(remote / ".aws")
    (remote / ".netrc").write_text("top secret netrc")
    (remote / "outdir").symlink_to(tmp_path / "keys")
    (remote / ".env").write_text("top secret env")
    os.mkfifo(remote / "pipe")
    settings = settings_for(sshd, remote, store, '[tools.file]\ndeny_read = ["**/.env"]\n')
    strict = chain_for(settings, tmp_path, store)
    for call in (ToolCall("read", {"path": ".netrc\n"}), ToolCall("read", {"path": ".NETRC"}),
                 ToolCall("read", {"path": "dotfiles/aws/id_rsa"}), ToolCall("read", {"path": f"{remote}/.env"}),
                 ToolCall("write", {"path": "outdir", "content": "x"}),
                 ToolCall("write", {"path": "outdir/new/deeper/f", "content": "x"}),
                 ToolCall("read", {"path": "pipe"})):  # fmt: skip
        refused = await strict.execute(call)
        assert refused.category is not None and "top secret" not in refused.text, (call, refused.text)
    assert sorted(p.name for p in (tmp_path / "keys").iterdir()) == ["id_rsa"]  # nothing made or moved there
    missing = await chain.execute(ToolCall("read", {"path": "nope.txt"}))
    assert missing.category is ToolErrorCategory.PERMANENT_FAILURE and "no such file" in missing.text


async def test_a_timeout_stops_the_command_on_the_far_side(
    sshd: Sshd, remote: Path, tmp_path: Path, store: Store
) -> None:
    chain = chain_for(settings_for(sshd, remote, store), tmp_path, store)
    marker = f"zeph-remote-sleep-{os.getpid()}"
    out = await chain.execute(ToolCall("bash", {"command": f"bash -c 'exec -a {marker} sleep 60' & wait",
                                                "timeout": 2}))  # fmt: skip
    assert out.category is ToolErrorCategory.TIMEOUT and "was stopped" in out.text
    for _ in range(50):
        alive = subprocess.run(["pgrep", "-f", marker], capture_output=True, check=False).returncode == 0
        if not alive:
            break
        await asyncio.sleep(0.1)
    assert not alive, "the remote command outlived its timeout"


async def test_a_host_that_cannot_be_reached_says_what_to_do(tmp_path: Path, store: Store) -> None:
    toml = '[tools.execution]\nbackend = "ssh"\nssh = "nobody@127.0.0.1:1"\nssh_options = ["ConnectTimeout=3"]\n'
    settings = Settings.from_toml(toml).model_copy(update={"home": store.home})
    out = await chain_for(settings, tmp_path, store).execute(ToolCall("bash", {"command": "true"}))
    assert out.category is ToolErrorCategory.NETWORK_ERROR and "cannot connect to ssh nobody@127.0.0.1:1" in out.text


@pytest.mark.parametrize("text", ["-oProxyCommand=x", "a b", "user@host:99999", ""])
def test_a_destination_is_never_an_option(text: str) -> None:
    with pytest.raises(Exception, match=r"not an SSH destination|not a port"):
        parse_destination(text)


def test_settings_say_what_a_remote_backend_needs() -> None:
    with pytest.raises(Exception, match='needs ssh = "user@host"'):
        Settings.from_toml('[tools.execution]\nbackend = "ssh"\n')
    with pytest.raises(Exception, match='needs container = "<name>"'):
        Settings.from_toml('[tools.execution]\nbackend = "container"\n')


@pytest.mark.skipif(shutil.which("tmux") is None and os.environ.get("CI") != "true", reason="tmux is not installed")
async def test_background_commands_run_in_a_tmux_pane_on_the_remote_side(
    sshd: Sshd, remote: Path, tmp_path: Path, store: Store
) -> None:
    settings = settings_for(sshd, remote, store, "tmux = true\n")
    chain = chain_for(settings, tmp_path, store)
    assert [t.name for t in chain.tool_definitions()][:6] == ["read", "write", "edit", "bash", "capture-pane",
                                                              "send-keys"]  # fmt: skip
    script = "echo epoch 1; read -p 'save? [y/N] ' a; echo saved=$a > answer.txt; echo saved=$a; sleep 600"
    started = await chain.execute(ToolCall("bash", {"command": script, "wait": False}))
    assert started.category is None and "dispatched to tmux pane %" in started.text, started.text
    assert f"ssh -t -p {sshd.port} {sshd.destination.rsplit(':', 1)[0]} tmux -L zeph-" in started.text
    shown = ""
    for _ in range(100):
        shown = (await chain.execute(ToolCall("capture-pane", {}))).text.split("\n", 1)[1]  # below the status
        if "save? [y/N]" in shown:
            break
        await asyncio.sleep(0.1)
    assert "epoch 1" in shown and "save? [y/N]" in shown, shown
    answered = await chain.execute(ToolCall("send-keys", {"literal_text": "y", "enter": True, "delay_ms": 500}))
    assert answered.category is None, answered.text
    assert (remote / "answer.txt").read_text() == "saved=y\n"  # it ran there, in the remote folder
    stopped = await chain.execute(ToolCall("send-keys", {"keys": ["C-c"], "delay_ms": 500}))
    assert "ended by signal 2" in stopped.text or "ended with exit code 130" in stopped.text, stopped.text
    quick = await chain.execute(ToolCall("bash", {"command": "echo done; exit 4", "wait": "20s"}))
    assert quick.text.startswith("done") and "[ended with exit code 4]" in quick.text, quick.text
