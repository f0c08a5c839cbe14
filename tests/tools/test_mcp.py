"""MCP servers with real parts: a server written with the official SDK, started over stdio as a subprocess (in the
OS sandbox, or not), its tools offered through the whole gate chain, the audit log, and the scripted model."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import zeph_nb
from zeph_nb.config import Settings
from zeph_nb.errors import ConfigError, ToolErrorCategory
from zeph_nb.gates import ScriptedApprover
from zeph_nb.store import Store
from zeph_nb.tools.mcp.connection import McpCallError
from zeph_nb.tools.mcp.toolset import category_of

# The notes server tutorial 11 connects too: one real SDK server for both.
SERVER = Path(__file__).parent.parent.parent / "notebooks" / "mcp_notes_server.py"


def servers(*, trusted: bool = False, sandbox: bool = True, env: str = "", name: str = "notes") -> str:
    return (f'[[mcp.servers]]\nname = "{name}"\ncommand = "{sys.executable}"\nargs = ["{SERVER}"]\n'
            f"trusted = {str(trusted).lower()}\nsandbox = {str(sandbox).lower()}\n{env}")  # fmt: skip


def run(store: Store, workdir: Path, toml: str, *calls: tuple[str, dict[str, Any]], approver: Any = None) -> Any:
    settings = Settings.from_toml(toml).model_copy(update={"home": store.home})
    model = zeph_nb.ScriptedProvider([*[[{"tool": t, "params": p}] for t, p in calls], "done"])
    agent = zeph_nb.Agent(settings, model, approver or zeph_nb.AutoApprove(), workdir, store=store)
    return agent, agent.run_sync("use the notes")


def test_a_servers_tools_are_offered_ask_by_default_and_run_through_the_chain(tmp_path: Path, store: Store) -> None:
    approver = ScriptedApprover(["approve", "deny", "approve"])  # an untrusted server: every call asks
    agent, result = run(store, tmp_path, servers(), ("mcp_notes_add_note", {"text": "buy milk"}),
                        ("mcp_notes_add_note", {"text": "second"}), ("mcp_notes_read_notes", {}),
                        approver=approver)  # fmt: skip
    offered = {tool.name for tool in agent.chain.tool_definitions()}
    assert {"mcp_notes_add_note", "mcp_notes_read_notes", "mcp_notes_broken"} <= offered
    first, second, third = result.tool_calls
    assert first.status == "ok" and first.decision == "ask" and first.text == "added: buy milk"
    assert second.status == "denied" and third.text.strip() == "buy milk"  # the person said no to the second
    assert (tmp_path / "notes.txt").read_text() == "buy milk\n"
    schema = next(s for s in agent.provider.requests[0].tool_schemas if s["name"] == "mcp_notes_add_note")
    assert schema["input_schema"]["required"] == ["text"]  # the server's own schema
    store.flush()
    rows = store.query("SELECT tool, status, mcp_server, mcp_tool FROM tool_calls ORDER BY ts")
    assert list(rows["tool"])[:1] == ["mcp_notes_add_note"]
    # The server and its own name for the tool, also for the call the person refused
    assert list(zip(rows["status"], rows["mcp_server"], rows["mcp_tool"], strict=True)) == [
        ("ok", "notes", "add_note"),
        ("denied", "notes", "add_note"),
        ("ok", "notes", "read_notes"),
    ]


def test_a_trusted_server_runs_unasked_but_rules_still_apply(tmp_path: Path, store: Store) -> None:
    toml = servers(trusted=True) + '\n[gates.permissions]\nmcp_notes_broken = [{pattern = "*", action = "deny"}]\n'
    agent, result = run(store, tmp_path, toml, ("mcp_notes_add_note", {"text": "x"}), ("mcp_notes_broken", {}),
                        approver=zeph_nb.DenyAll())  # fmt: skip
    assert result.tool_calls[0].status == "ok" and result.tool_calls[0].decision == "allow"
    assert "mcp_notes_broken" not in {t.name for t in agent.chain.tool_definitions()}  # denied: hidden


def test_errors_map_onto_the_taxonomy(tmp_path: Path, store: Store) -> None:
    _, result = run(store, tmp_path, servers(trusted=True), ("mcp_notes_broken", {}),
                    ("mcp_notes_add_note", {"txt": "wrong name"}))  # fmt: skip
    failed, invalid = result.tool_calls
    assert failed.category is ToolErrorCategory.PERMANENT_FAILURE and "broken" in failed.text
    assert invalid.status == "error"  # the server refused the arguments it did not expect


C = ToolErrorCategory


@pytest.mark.parametrize(
    ("error", "category", "retryable"),
    [
        # JSON-RPC codes (the seed's McpErrorCode in the comments)
        (McpCallError(-32700, "parse error"), C.SERVER_ERROR, True),  # ServerError: zeph's JSON is well-formed
        (McpCallError(-32600, "invalid request"), C.INVALID_PARAMETERS, False),  # InvalidInput
        (McpCallError(-32601, "method not found"), C.TOOL_NOT_FOUND, False),  # NotFound
        (McpCallError(-32602, "invalid params"), C.INVALID_PARAMETERS, False),  # InvalidInput
        (McpCallError(-32603, "internal error"), C.SERVER_ERROR, True),  # ServerError
        (McpCallError(-32000, "connection closed"), C.NETWORK_ERROR, True),  # Transient
        (McpCallError(-32001, "request timeout"), C.TIMEOUT, True),  # Transient
        (McpCallError(-32002, "resource not found"), C.PERMANENT_FAILURE, False),  # NotFound (not the tool)
        (McpCallError(-32050, "server-defined"), C.SERVER_ERROR, True),  # ServerError
        (McpCallError(42, "anything else"), C.PERMANENT_FAILURE, False),
        # a streamable-HTTP server's refusal: the status decides, whatever generic code the SDK put in its place
        (McpCallError(-32603, "refused", 400), C.INVALID_PARAMETERS, False),  # InvalidInput
        (McpCallError(-32603, "refused", 401), C.POLICY_BLOCKED, False),  # AuthFailure
        (McpCallError(-32603, "refused", 403), C.POLICY_BLOCKED, False),  # AuthFailure / PolicyBlocked
        (McpCallError(-32601, "Not Found", 404), C.PERMANENT_FAILURE, False),  # NotFound
        (McpCallError(-32603, "refused", 422), C.INVALID_PARAMETERS, False),  # InvalidInput
        (McpCallError(-32603, "refused", 429), C.RATE_LIMITED, True),  # RateLimited
        (McpCallError(-32603, "refused", 500), C.SERVER_ERROR, True),  # ServerError
        (McpCallError(-32603, "refused", 503), C.SERVER_ERROR, True),  # ServerError
        # no answer at all
        (TimeoutError(), C.TIMEOUT, True),  # Transient
        (ConnectionError("stopped"), C.NETWORK_ERROR, True),  # Transient
        (EOFError(), C.NETWORK_ERROR, True),  # Transient
        (RuntimeError("?"), C.SERVER_ERROR, True),
    ],
)
def test_the_mcp_error_code_table(error: BaseException, category: ToolErrorCategory, retryable: bool) -> None:
    assert category_of(error) is category and category.is_retryable is retryable


def test_a_hostile_http_server_is_mapped_never_retried_and_cannot_flood_the_model(
    tmp_path: Path, store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    from mcp_hostile_server import hostile_server

    from zeph_nb.notebook.views import print_mcp

    with hostile_server() as server:
        toml = (f'[[mcp.servers]]\nname = "h"\nurl = "{server.url}/mcp"\ntrusted = true\n'
                f'[[mcp.servers]]\nname = "locked"\nurl = "{server.url}/locked"\ntrusted = true\n')  # fmt: skip
        calls = [(f"mcp_h_status_{n}", {}) for n in (401, 403, 429, 503)]
        agent, result = run(store, tmp_path, toml, *calls, ("mcp_h_huge_error", {}), ("mcp_h_ok", {}))
        tried = [m["params"]["name"] for m in server.requests if m.get("method") == "tools/call"]
    categories = [c.category for c in result.tool_calls]
    assert categories == [C.POLICY_BLOCKED, C.POLICY_BLOCKED, C.RATE_LIMITED, C.SERVER_ERROR,
                          C.INVALID_PARAMETERS, None]  # fmt: skip
    assert "HTTP 401" in result.tool_calls[0].text and "HTTP 429" in result.tool_calls[2].text
    # Retryable, and never retried: the model is told so, not promised a retry that never comes
    assert "suggestion: Rate limit exceeded; this call was not retried: wait or try another way." in \
        result.tool_calls[2].text  # fmt: skip
    assert "this call was not retried" in result.tool_calls[3].text and "retryable: true" in result.tool_calls[3].text
    assert not any("will retry" in c.text for c in result.tool_calls)
    assert [c.status for c in result.tool_calls][:4] == ["error"] * 4  # it ran and failed; no gate refused it
    assert tried == ["status/401", "status/403", "status/429", "status/503", "huge error", "ok"]  # each once
    assert len(result.tool_calls[4].text) < 20_000 and result.stop_reason == "completed"
    store.flush()  # the name the model was offered is not the server's: the audit row keeps both
    rows = store.query("SELECT tool, mcp_server, mcp_tool FROM tool_calls ORDER BY ts")
    assert list(zip(rows["tool"], rows["mcp_server"], rows["mcp_tool"], strict=True))[3:5] == [
        ("mcp_h_status_503", "h", "status/503"),
        ("mcp_h_huge_error", "h", "huge error"),
    ]
    assert (
        list(zeph_nb.audit.frame(mcp_server="h", settings=agent.settings, limit=None)["mcp_tool"])[-1] == "status/401"
    )
    print_mcp(agent.chain)  # a server whose every request gets 401 never started, and says so
    assert "locked: not running (McpCallError: HTTP 401:" in capsys.readouterr().out


def test_a_hostile_servers_tool_name_is_bounded_and_printable_in_the_audit_row_and_mcp_view(
    tmp_path: Path, store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    from mcp_hostile_server import LONG, TOOLS, hostile_server

    from zeph_nb.notebook.views import print_mcp
    from zeph_nb.tools.mcp.toolset import offered_name

    with hostile_server() as server:
        toml = f'[[mcp.servers]]\nname = "h"\nurl = "{server.url}/mcp"\ntrusted = true\n'
        agent, result = run(store, tmp_path, toml, (offered_name("h", LONG), {}))
        called = [m["params"]["name"] for m in server.requests if m.get("method") == "tools/call"]
        print_mcp(agent.chain)
    assert called == [LONG] and result.tool_calls[0].text == "fine"  # the server is called by its own name
    store.flush()
    (recorded,) = store.query("SELECT mcp_tool FROM tool_calls")["mcp_tool"]
    assert recorded.startswith("long\\x1b[2J\\nforged row nnn") and recorded.endswith("n…")
    assert len(recorded) < 160 and recorded.isprintable()
    shown = capsys.readouterr().out
    assert "\x1b" not in shown and len(shown) < 2_000 and len(shown.splitlines()) == 1 + len(TOOLS)


def test_a_name_two_servers_tools_share_is_offered_for_neither(
    tmp_path: Path, store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    """Server "h"'s "status/401" and server "h_status"'s "401" are both mcp_h_status_401: a rule or grant written for
    one would reach the other, under the other's trust. Neither is offered, and %zeph mcp says why."""
    from mcp_hostile_server import hostile_server

    from zeph_nb.notebook.views import print_mcp

    with hostile_server() as server:
        toml = (f'[[mcp.servers]]\nname = "h"\nurl = "{server.url}/mcp"\ntrusted = true\n'
                f'[[mcp.servers]]\nname = "h_status"\nurl = "{server.url}/twin"\n'
                '[gates.permissions]\nmcp_h_status_401 = [{ pattern = "*", action = "allow" }]\n')  # fmt: skip
        agent, result = run(store, tmp_path, toml, ("mcp_h_status_401", {}))
        called = [m["params"]["name"] for m in server.requests if m.get("method") == "tools/call"]
        print_mcp(agent.chain)
    offered = {tool.name for tool in agent.chain.tool_definitions()}
    assert "mcp_h_status_401" not in offered and {"mcp_h_ok", "mcp_h_status_fine"} <= offered
    assert called == [] and result.tool_calls[0].status != "ok"
    shown = capsys.readouterr().out
    assert shown.count("mcp_h_status_401  NOT OFFERED: another server's tool has this name too") == 2


@contextlib.contextmanager
def reach_probe(tmp_path: Path) -> Iterator[tuple[Path, Path, str]]:
    """A working directory, a folder outside it, and the ``env`` line that points the notes server's ``where`` tool
    at that folder and at a loopback listener (open while the block runs)."""
    outside, work = tmp_path / "outside", tmp_path / "work"
    outside.mkdir()
    work.mkdir()
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        yield work, outside, f'env = {{OUTSIDE = "{outside}", PORT = "{listener.getsockname()[1]}"}}\n'


def test_a_sandboxed_server_cannot_write_outside_or_reach_the_network(tmp_path: Path, store: Store) -> None:
    with reach_probe(tmp_path) as (work, outside, env):
        _, sandboxed = run(store, work, servers(trusted=True, env=env), ("mcp_notes_where", {}))
        assert sandboxed.tool_calls[0].text == "could not write outside; no network; key=none"
        assert not (outside / "escaped.txt").exists()
        _, bare = run(store, work, servers(trusted=True, sandbox=False, env=env), ("mcp_notes_where", {}))
    assert bare.tool_calls[0].text.startswith("wrote outside; network reachable")  # what the sandbox took away


def test_a_sandboxed_server_granted_the_network_reaches_it_and_still_cannot_write_outside(
    tmp_path: Path, store: Store
) -> None:
    with reach_probe(tmp_path) as (work, outside, env):
        _, result = run(store, work, servers(trusted=True, env=env + "network = true\n"), ("mcp_notes_where", {}))
    assert result.tool_calls[0].text == "could not write outside; network reachable; key=none"
    assert not (outside / "escaped.txt").exists()
    with pytest.raises(ConfigError, match="no sandbox to grant it"):
        Settings.from_toml('[[mcp.servers]]\nname = "x"\nurl = "http://127.0.0.1:1/mcp"\nnetwork = true\n')


def test_paths_on_a_url_server_is_refused_not_ignored() -> None:
    """A url server is not started by zeph, so no sandbox would open its paths: saying nothing would let a person
    believe the server is held to them."""
    with pytest.raises(ConfigError, match="remove paths from its entry") as refused:
        Settings.from_toml('[[mcp.servers]]\nname = "x"\nurl = "http://127.0.0.1:1/mcp"\npaths = ["out"]\n')
    assert "'x'" in str(refused.value) and "a url server is not started by zeph-nb" in str(refused.value)
    assert Settings.from_toml('[[mcp.servers]]\nname = "x"\ncommand = "srv"\npaths = ["out"]\n').mcp.servers


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        ('url = "http://127.0.0.1:1/mcp"\nenv = {TOKEN = "t"}\n', "remove env from its entry"),
        ('url = "http://127.0.0.1:1/mcp"\nargs = ["--port", "1"]\n', "remove args from its entry"),
        ('command = "srv"\nheaders = {Authorization = "Bearer t"}\n', "remove headers from its entry"),
        ('command = "srv"\nsandbox = false\npaths = ["out"]\n', "remove paths, or remove sandbox = false"),
        ('command = "srv"\nsandbox = false\nnetwork = true\n', "remove network, or remove sandbox = false"),
    ],
)
def test_a_key_that_would_do_nothing_on_its_server_is_refused(entry: str, said: str) -> None:
    """env on a url server, headers on a command server, a sandbox's grants with no sandbox: each would be read as
    doing something it does not."""
    with pytest.raises(ConfigError, match=said):
        Settings.from_toml(f'[[mcp.servers]]\nname = "x"\n{entry}')
    assert Settings.from_toml('[[mcp.servers]]\nname = "x"\ncommand = "srv"\nsandbox = false\n').mcp.servers


def test_a_sandboxed_server_writes_into_its_granted_paths_and_nowhere_else(tmp_path: Path, store: Store) -> None:
    work, granted, other = tmp_path / "work", tmp_path / "granted", tmp_path / "other"
    for folder in (work, granted, other):
        folder.mkdir()
    grant = 'paths = ["../granted"]\n'  # relative: under the working directory, where the server runs
    toml = (servers(trusted=True, name="a", env=f'env = {{OUTSIDE = "{granted}"}}\n{grant}')
            + servers(trusted=True, name="b", env=f'env = {{OUTSIDE = "{other}"}}\n{grant}'))  # fmt: skip
    _, result = run(store, work, toml, ("mcp_a_where", {}), ("mcp_b_where", {}))
    into_granted, into_other = result.tool_calls
    assert into_granted.text.startswith("wrote outside;") and (granted / "escaped.txt").read_text() == "escaped"
    assert into_other.text.startswith("could not write outside;") and not (other / "escaped.txt").exists()


def test_a_server_that_does_not_start_offers_nothing_and_says_why(tmp_path: Path, store: Store) -> None:
    toml = '[[mcp.servers]]\nname = "ghost"\ncommand = "/nonexistent/server"\nsandbox = false\n'
    agent, result = run(store, tmp_path, toml)
    assert result.stop_reason == "completed"
    assert not any(t.name.startswith("mcp_") for t in agent.chain.tool_definitions())
    with pytest.raises(ConfigError, match="either command"):
        Settings.from_toml('[[mcp.servers]]\nname = "x"\n')


def test_zeph_mcp_lists_the_servers_their_state_and_tools(
    tmp_path: Path, store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    from zeph_nb.notebook.views import print_mcp

    agent, _ = run(store, tmp_path, servers() + '[[mcp.servers]]\nname = "ghost"\ncommand = "/nonexistent"\n'
                   "sandbox = false\n")  # fmt: skip
    print_mcp(agent.chain)
    shown = capsys.readouterr().out
    # run_sync's loop has ended, and the server with it; in a notebook it stays up between cells
    assert "notes: stopped; starts with the next run;" in shown and "every call asks; sandboxed (no network)" in shown
    assert "  mcp_notes_add_note  Append a line to notes.txt in the working directory." in shown
    assert "ghost: not running (" in shown


@contextlib.contextmanager
def listening(argv: Callable[[int], list[str]], cwd: Path) -> Iterator[int]:
    """A server started as ``argv(port)`` for a free loopback port, in ``cwd``; its port once it listens."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(argv(port), cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:  # until it listens
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the MCP HTTP server did not start"
                time.sleep(0.1)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_a_streamable_http_server_is_reached_by_its_url(tmp_path: Path, store: Store) -> None:
    with listening(lambda port: [sys.executable, str(SERVER), "--http", str(port)], tmp_path) as port:
        toml = (f'[[mcp.servers]]\nname = "web"\nurl = "http://127.0.0.1:{port}/mcp"\ntrusted = true\n'
                'headers = {Authorization = "Bearer test-token"}\n')  # fmt: skip
        _, result = run(store, tmp_path, toml, ("mcp_web_add_note", {"text": "over http"}),
                            ("mcp_web_read_notes", {}))  # fmt: skip
    assert [c.status for c in result.tool_calls] == ["ok", "ok"]
    assert result.tool_calls[1].text.strip() == "over http"  # the server wrote in its own working directory
    assert (tmp_path / "notes.txt").read_text() == "over http\n"


FORGETFUL = Path(__file__).parent / "mcp_forgetful_server.py"


def test_a_session_the_server_forgot_is_started_again_and_the_call_sent_once_more(tmp_path: Path, store: Store) -> None:
    """The spec: a 404 to a request naming the session means the server forgot it (expired, restarted) before
    running anything, and the client starts a new session. It was a permanent failure, and every later call too."""
    with listening(lambda port: [sys.executable, str(FORGETFUL), str(port)], tmp_path) as port:
        toml = f'[[mcp.servers]]\nname = "f"\nurl = "http://127.0.0.1:{port}/mcp"\ntrusted = true\n'
        _, result = run(store, tmp_path, toml, ("mcp_f_add_note", {"text": "one"}), ("mcp_f_forget_sessions", {}),
                        ("mcp_f_add_note", {"text": "two"}), ("mcp_f_add_note", {"text": "three"}))  # fmt: skip
    assert [c.status for c in result.tool_calls] == ["ok"] * 4, [c.text for c in result.tool_calls]
    assert (tmp_path / "notes.txt").read_text() == "one\ntwo\nthree\n"  # each call ran once


def test_a_call_refused_in_the_new_session_too_is_reported_and_never_ran(tmp_path: Path, store: Store) -> None:
    argv = [sys.executable, str(FORGETFUL)]
    with listening(lambda port: [*argv, str(port), "--end-before-calls"], tmp_path) as port:
        toml = f'[[mcp.servers]]\nname = "f"\nurl = "http://127.0.0.1:{port}/mcp"\ntrusted = true\n'
        _, result = run(store, tmp_path, toml, ("mcp_f_add_note", {"text": "one"}))
    (refused,) = result.tool_calls
    assert (refused.status, refused.category) == ("error", ToolErrorCategory.PERMANENT_FAILURE)
    assert "HTTP 404" in refused.text and not (tmp_path / "notes.txt").exists()
    assert (tmp_path / "refused.txt").read_text() == "add_note\nadd_note\n"  # in a new session once, no more


def test_a_server_that_dies_fails_that_call_and_starts_again_for_the_next(tmp_path: Path, store: Store) -> None:
    _, result = run(store, tmp_path, servers(trusted=True), ("mcp_notes_crash", {}), ("mcp_notes_add_note",
                    {"text": "after the crash"}))  # fmt: skip
    crashed, after = result.tool_calls
    assert crashed.status == "error" and crashed.category in (ToolErrorCategory.NETWORK_ERROR,
                                                              ToolErrorCategory.SERVER_ERROR)  # fmt: skip
    assert "this call was not retried" in crashed.text and "will retry" not in crashed.text  # it may have run
    assert after.status == "ok" and after.text == "added: after the crash"


def test_a_servers_names_and_schemas_are_made_what_model_apis_accept() -> None:
    from zeph_nb.tools.mcp.toolset import object_schema, offered_name

    # A hostile or careless server: a name with spaces, slashes, newlines or 200 characters would make every
    # request of the run fail at the model's API, not just that tool.
    assert offered_name("notes", "read file/all\nnow") == "mcp_notes_read_file_all_now"
    assert len(offered_name("notes", "x" * 200)) == 64 and offered_name("notes", "né") == "mcp_notes_n_"
    assert object_schema({"type": "string"}) == {"type": "object", "properties": {}}
    assert object_schema(None) == {"type": "object", "properties": {}}
    kept = {"type": "object", "properties": {"a": {"type": "integer"}}}
    assert object_schema(kept) is kept


def test_a_huge_description_is_cut_and_a_huge_schema_not_offered_and_the_run_goes_on(
    tmp_path: Path, store: Store, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    """A server's descriptions and schemas go into every request: a megabyte of them stopped every run at the
    context budget."""
    from mcp_big_server import WORDY

    from zeph_nb.notebook.views import print_mcp
    from zeph_nb.tools.mcp.toolset import DESCRIPTION_CHARS, SCHEMA_BYTES

    big = Path(__file__).parent / "mcp_big_server.py"
    toml = f'[[mcp.servers]]\nname = "big"\ncommand = "{sys.executable}"\nargs = ["{big}"]\ntrusted = true\n'
    with caplog.at_level("WARNING", logger="zeph_nb.tools"):
        agent, result = run(store, tmp_path, toml, ("mcp_big_wordy", {}), ("mcp_big_fine", {}))
    assert result.stop_reason == "completed" and [c.text for c in result.tool_calls] == ["wordy ran", "fine ran"]
    offered = {s["name"]: s for s in agent.provider.requests[0].tool_schemas}
    assert "mcp_big_huge_schema" not in offered and {"mcp_big_wordy", "mcp_big_fine"} <= set(offered)
    described = offered["mcp_big_wordy"]["description"]
    assert described.startswith("[MCP server big] Looks things up. Every detail")
    assert len(described) < DESCRIPTION_CHARS + 100 and described.endswith(f"of {len(WORDY):,} characters)")
    kept = described.removeprefix("[MCP server big] ").split(" … (description cut")[0]
    assert WORDY.startswith(kept) and WORDY[len(kept)] == " "  # cut where a word ends, not through one
    assert offered["mcp_big_fine"]["description"] == "[MCP server big] Short and sweet."
    assert sum(len(json.dumps(s)) for s in offered.values() if s["name"].startswith("mcp_")) < 2 * SCHEMA_BYTES
    warned = [r.getMessage() for r in caplog.records if "mcp_big_huge_schema" in r.getMessage()]
    assert len(warned) == 1 and "input schema is" in warned[0]  # once for the run, which went on
    print_mcp(agent.chain)
    shown = capsys.readouterr().out
    assert "  mcp_big_huge_schema  NOT OFFERED: its input schema is " in shown
    assert f"more than the {SCHEMA_BYTES:,} a tool may send with every request" in shown


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("short", "short"),
        ("word " * 500, ("word " * 400).rstrip()),  # at the limit, between words
        ("abcde " * 400, ("abcde " * 333).rstrip()),  # back to where the last whole word ends
        ("x" * 5_000, "x" * 2_000),  # one word longer than the limit: cut through it, as nothing else can
    ],
)
def test_a_description_is_cut_at_a_words_end_with_a_note(text: str, kept: str) -> None:
    from zeph_nb.tools.mcp.toolset import bounded_description

    cut = bounded_description(text)
    assert cut.split(" … (description cut at")[0] == kept
    assert cut == text or cut.endswith(f"cut at 2,000 of {len(text):,} characters)")


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        # sandbox = true on a url server reads as "this remote server is confined": nothing confines it.
        ('url = "http://127.0.0.1:1/mcp"\nsandbox = true\n', "remove sandbox from its entry"),
        ('url = "http://127.0.0.1:1/mcp"\nsandbox = false\n', "remove sandbox from its entry"),
        ('command = ""\n', "command is empty"),
        ('command = "  "\n', "command is empty"),
        ('url = ""\n', "url is empty"),
    ],
)
def test_a_sandbox_key_on_a_url_server_or_an_empty_transport_is_refused(entry: str, said: str) -> None:
    with pytest.raises(ConfigError, match=said):
        Settings.from_toml(f'[[mcp.servers]]\nname = "x"\n{entry}')
    assert Settings.from_toml('[[mcp.servers]]\nname = "x"\ncommand = "srv"\nsandbox = true\n').mcp.servers
