"""Managed settings at the gates: a managed deny is final (no user rule, Always-allow grant, inbox answer or approver
lets the call through), a managed ask stays a question (no grant answers it, none is kept), the managed host list
is the ceiling of every network grant, and the managed file is out of every tool's reach."""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest

from zeph_nb.config import Settings
from zeph_nb.gates import AutoApprove, PermissionGrants, ScriptedApprover, build_chain
from zeph_nb.gates.approval.inbox import Inbox, InboxApprover
from zeph_nb.gates.chain import GateChain
from zeph_nb.store import Store
from zeph_nb.tools.base import ToolCall
from zeph_nb.tools.containment import sandbox_status

ManagedFile = Callable[[str], Path]

MANAGED = """
[tools]
network_hosts = ["pypi.org"]

[tools.shell]
sandbox = "bwrap"

[[gates.permissions.bash]]
pattern = "rm *"
action = "deny"

[[gates.permissions.bash]]
pattern = "git push *"
action = "ask"

[[gates.permissions.fetch]]
pattern = "*"
action = "deny"
"""

# What a user writes to get past each of them.
USER = """
[tools.shell]
sandbox = "off"

[[gates.permissions.bash]]
pattern = "*"
action = "allow"

[[gates.permissions.fetch]]
pattern = "*"
action = "allow"
"""

needs_sandbox = pytest.mark.skipif(not sandbox_status(Settings()).active, reason="bubblewrap does not work here")


@pytest.fixture
def work(tmp_path: Path, managed_file: ManagedFile, isolated_env: Path) -> Path:
    managed_file(MANAGED)
    folder = tmp_path / "work"
    folder.mkdir()
    (tmp_path / "zeph.toml").write_text(USER)
    return folder


def settings_for(tmp_path: Path, store: Store) -> Settings:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the refusals of USER, tested in tests/config/test_managed.py
        settings = Settings.load(tmp_path / "zeph.toml")
    return settings.model_copy(update={"home": store.home})


def chain_for(tmp_path: Path, work: Path, store: Store, approver: object) -> GateChain:
    return build_chain(settings_for(tmp_path, store), workdir=work, store=store, approver=approver)  # type: ignore[arg-type]


def bash(command: str, **more: object) -> ToolCall:
    return ToolCall("bash", {"command": command, **more})


async def test_a_managed_deny_beats_a_users_allow_and_an_always_allow_grant(
    tmp_path: Path, work: Path, store: Store
) -> None:
    PermissionGrants(store).grant("bash", ("rm -rf build",), by="alice")  # made before the managed file said no
    approver = ScriptedApprover(["approve"])
    chain = chain_for(tmp_path, work, store, approver)
    (work / "build").mkdir()
    outcome = await chain.execute(bash("rm -rf build"))
    assert (outcome.status, outcome.decision) == ("denied", "deny")
    assert f'gates.permissions.bash[0] (managed by {tmp_path / "etc-zeph-nb" / "managed.toml"}): deny "rm *"' in (
        outcome.text
    )
    assert approver.requests == [] and (work / "build").is_dir()


async def test_a_managed_deny_is_never_put_to_the_inbox(tmp_path: Path, work: Path, store: Store) -> None:
    settings = settings_for(tmp_path, store)
    chain = build_chain(settings, workdir=work, store=store,
                        approver=InboxApprover(settings, store=store, poll_interval=0.02))  # fmt: skip
    outcome = await chain.execute(bash("rm -rf build"))
    assert outcome.status == "denied" and Inbox(store).recent() == []


async def test_a_managed_ask_stays_a_question_and_keeps_no_grant(tmp_path: Path, work: Path, store: Store) -> None:
    PermissionGrants(store).grant("bash", ("git push origin main",), by="alice")  # stored before: does not apply
    approver = ScriptedApprover(["always", "approve"], name="carol")
    chain = chain_for(tmp_path, work, store, approver)
    first = await chain.execute(bash("git push origin main"))
    assert first.approved_by == "carol"  # the user's allow "*" and the grant did not answer it
    [request] = approver.requests
    assert request.asking == ()  # no Always allow offered
    assert "it asks every time, Always allow is not kept" in request.reason
    await chain.execute(bash("git push origin main"))
    assert len(approver.requests) == 2  # asked again: the "always" kept nothing
    assert [g.pattern for g in PermissionGrants(store).active()] == ["git push origin main"]  # alice's alone


async def test_an_inbox_always_for_a_managed_ask_approves_once(tmp_path: Path, work: Path, store: Store) -> None:
    settings = settings_for(tmp_path, store)
    chain = build_chain(settings, workdir=work, store=store,
                        approver=InboxApprover(settings, store=store, poll_interval=0.02))  # fmt: skip
    inbox = Inbox(Store(settings))  # the dashboard's side
    running = asyncio.create_task(chain.execute(bash("git push origin main")))
    for _ in range(400):
        pending = await asyncio.to_thread(inbox.pending)
        if pending:
            break
        await asyncio.sleep(0.025)
    [item] = pending
    assert item.grantable is False  # the dashboard offers no Always allow
    inbox.answer(item.id, "always", by="dave")
    assert (await running).approved_by == "dave"
    assert PermissionGrants(store).active() == []
    inbox.store.close()


async def test_auto_approve_may_not_answer_a_managed_ask(tmp_path: Path, work: Path, store: Store) -> None:
    chain = chain_for(tmp_path, work, store, AutoApprove())
    outcome = await chain.execute(bash("git push origin main"))
    assert outcome.status == "denied"
    assert "a person must answer it, and AutoApprove may not" in outcome.text
    assert "gates.permissions.bash[1] is set by" in outcome.text


async def test_a_managed_blanket_deny_hides_the_tool(tmp_path: Path, work: Path, store: Store) -> None:
    chain = chain_for(tmp_path, work, store, AutoApprove())
    assert "fetch" not in [tool.name for tool in chain.tool_definitions()]
    outcome = await chain.execute(ToolCall("fetch", {"url": "https://pypi.org/"}))
    assert outcome.status == "denied" and "managed by" in outcome.text


async def test_the_managed_hosts_are_the_ceiling_of_a_commands_network(
    tmp_path: Path, work: Path, store: Store
) -> None:
    approver = ScriptedApprover(["approve", "approve"])
    chain = chain_for(tmp_path, work, store, approver)
    outside = await chain.execute(bash("curl https://evil.example.com/", hosts=["evil.example.com"]))
    assert outside.status == "denied" and approver.requests == []  # refused before anyone is asked
    assert 'tools.network_hosts is capped at ["pypi.org"]' in outside.text and "evil.example.com is outside" in (
        outside.text
    )
    # "any host" is the managed hosts, no more
    anyway = settings_for(tmp_path, store)
    from zeph_nb.shell.escalations import ANY_HOST, Escalation
    from zeph_nb.tools.containment import command_scope

    scope = command_scope(anyway, Escalation(), network=True, hosts=(ANY_HOST,), sandbox=True)
    assert scope.hosts == ("pypi.org",) and scope.refusal is None


async def test_the_managed_hosts_are_the_ceiling_of_the_web_tools(
    tmp_path: Path, managed_file: ManagedFile, isolated_env: Path, store: Store
) -> None:
    managed_file('[tools]\nnetwork_hosts = ["pypi.org"]\n')
    (tmp_path / "zeph.toml").write_text('[tools.scrape]\nallowed_hosts = ["evil.example.com"]\n')
    PermissionGrants(store).grant("fetch", (), by="alice", patterns=("https://evil.example.com/*",))
    chain = chain_for(tmp_path, tmp_path, store, AutoApprove())
    outcome = await chain.execute(ToolCall("fetch", {"url": "https://evil.example.com/x"}))
    assert outcome.status == "denied" and "fetch may not reach evil.example.com: beyond tools.network_hosts" in (
        outcome.text
    )


async def test_under_a_managed_bwrap_no_command_runs_outside_the_sandbox(
    tmp_path: Path, work: Path, store: Store
) -> None:
    approver = ScriptedApprover(["approve"])
    chain = chain_for(tmp_path, work, store, approver)
    outcome = await chain.execute(bash("echo hi", sandbox=False))
    assert outcome.status == "denied" and approver.requests == []
    assert 'tools.shell.sandbox is set to "bwrap" by' in outcome.text and "no command runs outside" in outcome.text


async def test_the_managed_file_is_out_of_the_file_tools_reach(tmp_path: Path, work: Path, store: Store) -> None:
    path = tmp_path / "etc-zeph-nb" / "managed.toml"
    chain = chain_for(tmp_path, work, store, AutoApprove())
    for call in (ToolCall("read", {"path": str(path)}), ToolCall("write", {"path": str(path), "content": "x"}),
                 ToolCall("list_directory", {"path": str(path.parent)})):  # fmt: skip
        outcome = await chain.execute(call)
        assert outcome.status == "denied", call
        assert "the organisation's managed settings" in outcome.text
    assert "sandbox" in path.read_text()


@needs_sandbox
async def test_the_managed_file_is_hidden_from_commands(tmp_path: Path, work: Path, store: Store) -> None:
    path = tmp_path / "etc-zeph-nb" / "managed.toml"
    chain = chain_for(tmp_path, work, store, AutoApprove())
    named = await chain.execute(bash(f"cat {path}"))
    assert named.status == "denied" and "may not be read by any tool: the organisation's managed settings" in named.text
    # A path only the shell works out gets past the policy's reading of the line; the sandbox still hides the file.
    line = 'F=$(printf ../etc-%s zeph-nb); cat "$F/managed.toml"; ls -A "$F"; echo x > "$F/managed.toml"; echo done'
    hidden = await chain.execute(bash(line))
    assert hidden.status != "denied" and "done" in hidden.text, hidden.text
    assert "bwrap" not in hidden.text and "gates.permissions" not in hidden.text
    assert path.read_text().startswith("\n[tools]\nnetwork_hosts")  # unchanged
