"""What a review of managed settings found (each test failed before its fix): a managed ask on a file tool was
answerable; a user's ssh backend ran commands outside a managed bwrap; the tool filter's embeddings endpoint
ignored [llm] allowed_base_urls; a wildcard host with a port passed a portless ceiling."""

from __future__ import annotations

import asyncio
import warnings
from pathlib import Path

import pytest

from zeph_nb.config import Settings
from zeph_nb.errors import ConfigError
from zeph_nb.gates import AutoApprove, PermissionGrants, ScriptedApprover, build_chain
from zeph_nb.tools.base import ToolCall


def load(tmp_path: Path, store, user: str | None = None) -> Settings:
    """Settings.load() under the managed file, with the user's zeph.toml when given (warnings silenced)."""
    if user is not None:
        (tmp_path / "zeph.toml").write_text(user)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        settings = Settings.load(tmp_path / "zeph.toml") if user is not None else Settings.load()
    return settings.model_copy(update={"home": store.home})


def run(chain, call: ToolCall):
    return asyncio.run(chain.execute(call))


# -- F1 (high): a managed ask on a file tool is a plain ask: AutoApprove and stored grants answer it -------------


def test_f1_managed_ask_on_a_file_tool_is_not_answered_by_auto_approve(tmp_path, managed_file, isolated_env, store):
    managed_file('[[gates.permissions.write]]\npattern = "**"\naction = "ask"\n')
    work = tmp_path / "work"
    work.mkdir()
    chain = build_chain(load(tmp_path, store), workdir=work, store=store, approver=AutoApprove())
    outcome = run(chain, ToolCall("write", {"path": str(work / "a.txt"), "content": "x"}))
    assert outcome.status == "denied", outcome.text  # as for bash: "a person must answer it, and AutoApprove may not"
    assert not (work / "a.txt").exists()


def test_f1b_managed_ask_on_a_file_tool_is_not_answered_by_a_stored_grant(tmp_path, managed_file, isolated_env, store):
    managed_file('[[gates.permissions.write]]\npattern = "**"\naction = "ask"\n')
    work = tmp_path / "work"
    work.mkdir()
    PermissionGrants(store).grant("write", (str(work / "a.txt"),), by="alice")  # an Always allow from before
    approver = ScriptedApprover(["deny"])
    chain = build_chain(load(tmp_path, store), workdir=work, store=store, approver=approver)
    run(chain, ToolCall("write", {"path": str(work / "a.txt"), "content": "x"}))
    assert approver.requests, "the stored grant answered a managed ask"
    assert not (work / "a.txt").exists()


# -- F2 (high): under a managed sandbox = "bwrap", a user's ssh/container backend runs commands unsandboxed --------


def test_f2_managed_bwrap_is_not_escaped_by_a_users_ssh_backend(tmp_path, managed_file, isolated_env, store):
    managed_file('[tools.shell]\nsandbox = "bwrap"\n')
    try:
        settings = load(tmp_path, store, '[tools.execution]\nbackend = "ssh"\nssh = "me@gpu.invalid"\n')
    except ConfigError:
        return  # refusing to load is a fix too
    if settings.tools.execution.backend not in ("ssh", "container"):
        return  # the managed sandbox pinned the backend to a local one: fixed at load
    work = tmp_path / "work"
    work.mkdir()
    approver = ScriptedApprover(["deny"])
    chain = build_chain(settings, workdir=work, store=store, approver=approver)
    outcome = run(chain, ToolCall("bash", {"command": "echo hi"}))
    # Today: an ordinary, grantable ask ("it runs on ssh me@gpu.invalid ... outside zeph's OS sandbox"); with a user
    # allow rule for bash it would not even ask.
    assert outcome.status == "denied" and approver.requests == [], [r.reason for r in approver.requests]


# -- F3 (high): a user's [[mcp.servers]] escape the managed sandbox and network ceiling ----------------------------


def test_f7_embeddings_endpoint_is_held_to_allowed_base_urls(tmp_path, managed_file, isolated_env, store):
    from zeph_nb.agent.providers.embeddings import embeddings_named

    managed_file('[llm]\nallowed_base_urls = ["https://llm.corp.example/v1"]\n')
    settings = load(tmp_path, store, (
        '[[llm.providers]]\nname = "emb"\nkind = "openai"\nbase_url = "https://evil.example.com/v1"\nmodel = "m"\n'
        '[agent.tool_filter]\nenabled = true\nprovider = "emb"\n'
    ))  # fmt: skip
    with pytest.raises(ConfigError):
        embeddings_named(settings, "emb", 5.0)  # today: a client for https://evil.example.com/v1, every prompt sent


# -- F8 (low): a wildcard entry with a port passes the managed network_hosts ceiling ------------------------------


def test_f8_wildcard_with_a_port_is_not_within_a_portless_ceiling(tmp_path, managed_file, isolated_env, store):
    managed_file('[tools]\nnetwork_hosts = ["*.pypi.org"]\n')  # 80 and 443 only
    settings = load(tmp_path, store, '[tools]\nnetwork_hosts = ["*.pypi.org:22"]\n')
    assert settings.tools.network_hosts == ["*.pypi.org"], settings.tools.network_hosts


# -- F9 (low): a managed [gates.permissions] table under an alias or another case is silently inert ---------------


# -- a managed deny is matched by command word: a word the line computes as it runs could be any command -----------


@pytest.mark.parametrize("command", ["RM=rm; $RM -rf build", "x=r; ${x}m -rf build", "$(echo rm) -rf build"])
def test_a_computed_command_word_under_a_managed_deny_is_a_persons_call(
    tmp_path, managed_file, isolated_env, store, command
):
    managed_file('[[gates.permissions.bash]]\npattern = "rm *"\naction = "deny"\n')
    work = tmp_path / "work"
    (work / "build").mkdir(parents=True)
    chain = build_chain(load(tmp_path, store), workdir=work, store=store, approver=AutoApprove())
    outcome = run(chain, ToolCall("bash", {"command": command}))
    assert outcome.status == "denied" and "computed when the line runs" in (outcome.reason or ""), outcome.reason
    assert (work / "build").exists()
    # A plain command the rules can read is unaffected.
    assert run(chain, ToolCall("bash", {"command": "echo $HOME"})).status == "ok"


@pytest.mark.parametrize("table", ["shell", "Bash", "BASH"])
def test_a_managed_deny_under_another_spelling_of_bash_applies(tmp_path, managed_file, isolated_env, store, table):
    managed_file(f'[[gates.permissions.{table}]]\npattern = "rm *"\naction = "deny"\n')
    work = tmp_path / "work"
    (work / "build").mkdir(parents=True)
    chain = build_chain(load(tmp_path, store), workdir=work, store=store, approver=AutoApprove())
    outcome = run(chain, ToolCall("bash", {"command": "rm -rf build"}))
    assert outcome.status == "denied" and outcome.decision == "deny", outcome.reason
    assert (work / "build").exists()
