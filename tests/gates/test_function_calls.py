"""A person's functions as tools, through the whole chain: the scripted model calls them, the gates decide (rules
by tool name and arguments, approvals), the output gate overflows, and the audit log (DuckDB) records each call."""

from __future__ import annotations

import asyncio
import errno
import threading
from pathlib import Path
from typing import Any

import pytest

import zeph_nb
from zeph_nb.agent import Agent, ScriptedProvider
from zeph_nb.config import Settings
from zeph_nb.errors import ConfigError, ToolError, ToolErrorCategory
from zeph_nb.gates import AutoApprove, DenyAll, ScriptedApprover, build_chain
from zeph_nb.store import Store
from zeph_nb.tools.base import ToolCall


def settings_for(store: Store, toml: str = "") -> Settings:
    return Settings.from_toml(toml).model_copy(update={"home": store.home})


def calls(*pairs: tuple[str, dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"tool": name, "params": params} for name, params in pairs]


async def test_the_model_calls_decorated_and_plain_functions_and_each_call_is_audited(
    tmp_path: Path, store: Store
) -> None:
    seen: list[tuple[str, int]] = []
    loop_thread = threading.get_ident()

    @zeph_nb.tool
    def word_count(text: str) -> dict[str, int]:
        """Count the words in a text."""
        seen.append(("sync", threading.get_ident()))
        return {"words": len(text.split())}

    async def shout(text: str) -> str:  # a plain typed function: Agent(tools=[...]) takes it as it is
        seen.append(("async", threading.get_ident()))
        await asyncio.sleep(0)
        return text.upper()

    turns = [calls(("word_count", {"text": "a b c"}), ("shout", {"text": "hi"})), "Three words."]
    agent = Agent(settings_for(store), ScriptedProvider(turns), DenyAll(), tmp_path, store=store,
                  tools=[word_count, shout])  # fmt: skip
    result = await agent.run("count")
    assert [(o.tool, o.status, o.text) for o in result.tool_calls] == [
        ("word_count", "ok", '{"words": 3}'),
        ("shout", "ok", "HI"),
    ]
    # A plain def runs in a thread of its own (the loop stays free); an async def on the loop itself.
    assert dict(seen)["async"] == loop_thread and dict(seen)["sync"] != loop_thread
    store.flush()
    rows = store.query("SELECT tool, status, decision, params FROM tool_calls ORDER BY tool")  # they ran side by side
    assert list(rows["tool"]) == ["shout", "word_count"] and set(rows["status"]) == {"ok"}
    assert rows["params"][1] == '{"text": "a b c"}' and set(rows["decision"]) == {"allow"}


def chain_with(store: Store, tmp_path: Path, toml: str, approver: Any, *tools: Any) -> Any:
    return build_chain(settings_for(store, toml), workdir=tmp_path, store=store, approver=approver, tools=tools)


def _delete_rows(table: str) -> str:
    DELETED.append(table)
    return f"deleted {table}"


DELETED: list[str] = []
drop = zeph_nb.tool(name="delete_rows", mutates=True, subject="table", register=False)(_delete_rows)


async def test_a_function_that_changes_things_asks_and_a_refusal_means_it_never_ran(
    tmp_path: Path, store: Store
) -> None:
    DELETED.clear()
    approver = ScriptedApprover(["deny", "approve"])
    chain = chain_with(store, tmp_path, "", approver, drop)
    refused = await chain.execute(ToolCall("delete_rows", {"table": "orders"}))
    assert refused.category is ToolErrorCategory.CONFIRMATION_REQUIRED and DELETED == []
    assert "delete_rows asks for confirmation" in approver.requests[0].reason
    ran = await chain.execute(ToolCall("delete_rows", {"table": "orders"}))
    assert ran.status == "ok" and ran.text == "deleted orders" and DELETED == ["orders"]
    assert ran.approved_by == "ScriptedApprover"


ALLOW_TMP = (
    '[gates.authorization]\nenabled = true\nrules = [{tool = "delete_*", effect = "allow", args_match = "tmp_"}]'
)


@pytest.mark.parametrize(
    ("toml", "table", "expect"),
    [
        # a rule by tool name lets it run without asking (nobody could be asked here: DenyAll)
        ('[gates.permissions]\ndelete_rows = [{pattern = "*", action = "allow"}]', "orders", "ok"),
        # rules by the subject parameter's value
        ('[gates.permissions]\ndelete_rows = [{pattern = "scratch_*", action = "allow"}]', "scratch_1", "ok"),
        ('[gates.permissions]\ndelete_rows = [{pattern = "scratch_*", action = "allow"}]', "orders", "ask"),
        ('[gates.permissions]\ndelete_rows = [{pattern = "orders", action = "deny"}]', "orders", "deny"),
        # authorization rules by a tool-name glob, and by the arguments' JSON
        ('[gates.authorization]\nenabled = true\nrules = [{tool = "delete_*", effect = "deny"}]', "x", "deny"),
        (ALLOW_TMP, "tmp_a", "ok"),
        ("", "orders", "ask"),
    ],
)
async def test_permission_rules_match_a_function_by_name_and_by_arguments(
    tmp_path: Path, store: Store, toml: str, table: str, expect: str
) -> None:
    DELETED.clear()
    chain = chain_with(store, tmp_path, toml, DenyAll(), drop)
    outcome = await chain.execute(ToolCall("delete_rows", {"table": table}))
    category = {"ok": None, "ask": ToolErrorCategory.CONFIRMATION_REQUIRED,
                "deny": ToolErrorCategory.POLICY_BLOCKED}[expect]  # fmt: skip
    assert outcome.category is category, outcome.text
    assert DELETED == ([table] if expect == "ok" else [])  # noqa: SIM300


async def test_a_blanket_deny_hides_the_function_from_the_model(tmp_path: Path, store: Store) -> None:
    toml = '[gates.authorization]\nenabled = true\nrules = [{tool = "delete_*", effect = "deny"}]'
    chain = chain_with(store, tmp_path, toml, AutoApprove(), drop)
    assert "delete_rows" not in [t.name for t in chain.tool_definitions()]


async def test_bad_arguments_from_the_model_never_reach_the_function(tmp_path: Path, store: Store) -> None:
    ran: list[int] = []

    def nth(n: int, items: list[str]) -> str:
        ran.append(n)
        return items[n]

    chain = chain_with(store, tmp_path, "", DenyAll(), nth)
    for params, category, says in [
        ({"n": "two", "items": []}, ToolErrorCategory.TYPE_MISMATCH, "'n': Input should be a valid integer"),
        ({"items": ["a"]}, ToolErrorCategory.INVALID_PARAMETERS, "'n' is required"),
        ({"n": 0, "items": ["a"], "rm": "-rf"}, ToolErrorCategory.INVALID_PARAMETERS, "'rm' is not a parameter"),
        ([1, 2], ToolErrorCategory.INVALID_PARAMETERS, "must be a JSON object"),
    ]:
        outcome = await chain.execute(ToolCall("nth", params))  # type: ignore[arg-type]
        assert outcome.category is category and says in outcome.text, outcome.text
    assert ran == []
    # An IndexError inside is the function's failure, with its own line in the traceback the model reads.
    failed = await chain.execute(ToolCall("nth", {"n": 5, "items": ["a"]}))
    assert failed.category is ToolErrorCategory.PERMANENT_FAILURE and ran == [5]
    assert "nth raised IndexError: list index out of range" in failed.text and "return items[n]" in failed.text
    assert "function_toolset.py" not in failed.text  # our thread wrapper is not one of the frames shown


def _raising(error: BaseException) -> Any:
    def fail(x: int) -> str:
        raise error

    return fail


@pytest.mark.parametrize(
    ("error", "category", "says"),
    [
        (SystemExit(3), ToolErrorCategory.PERMANENT_FAILURE, "exit code 3; the kernel goes on"),
        (KeyboardInterrupt(), ToolErrorCategory.PERMANENT_FAILURE, "raised KeyboardInterrupt"),
        (ValueError("x must be odd"), ToolErrorCategory.INVALID_PARAMETERS, "ValueError: x must be odd"),
        (ConnectionRefusedError(errno.ECONNREFUSED, "refused"), ToolErrorCategory.NETWORK_ERROR, "refused"),
        (ToolError(ToolErrorCategory.RATE_LIMITED, "slow down"), ToolErrorCategory.RATE_LIMITED, "slow down"),
        (RuntimeError(), ToolErrorCategory.PERMANENT_FAILURE, "RuntimeError: (no message)"),
    ],
)
@pytest.mark.parametrize("kind", ["sync", "async"])
async def test_an_exception_becomes_a_categorised_error_the_model_reads(
    tmp_path: Path, store: Store, error: BaseException, category: ToolErrorCategory, says: str, kind: str
) -> None:
    fail = _raising(error)
    if kind == "async":
        sync = fail

        async def fail(x: int) -> str:
            return str(sync(x))

    settings = settings_for(store, "[gates.retry]\nmax_attempts = 0")
    chain = build_chain(settings, workdir=tmp_path, store=store, tools=[fail])
    outcome = await chain.execute(ToolCall("fail", {"x": 1}))
    assert outcome.category is category and says in outcome.text, outcome.text
    assert outcome.output.raw["exception"] == type(error).__name__


async def test_a_function_that_never_returns_is_stopped_at_its_timeout(tmp_path: Path, store: Store) -> None:
    spins: list[threading.Thread] = []

    @zeph_nb.tool(timeout=0.2, register=False)
    def spin(n: int) -> int:
        spins.append(threading.current_thread())
        while True:
            n += 1

    @zeph_nb.tool(timeout=0.2, register=False)
    async def wait_forever(n: int) -> int:
        await asyncio.Event().wait()
        return n

    settings = settings_for(store, "[gates.retry]\nmax_attempts = 0")
    chain = build_chain(settings, workdir=tmp_path, store=store, tools=[spin, wait_forever])
    for name in ("spin", "wait_forever"):
        outcome = await chain.execute(ToolCall(name, {"n": 1}))
        assert outcome.category is ToolErrorCategory.TIMEOUT and "did not return in 0.2 s" in outcome.text
    # The spinning thread was told to stop (an exception at its next instruction), not left burning a core.
    spins[0].join(timeout=30)
    assert not spins[0].is_alive()


async def test_a_huge_result_goes_to_overflow_and_read_overflow_brings_it_back(tmp_path: Path, store: Store) -> None:
    def dump(lines: int) -> str:
        return "\n".join(f"row {i}" for i in range(lines))

    chain = build_chain(settings_for(store, "[output.overflow]\nthreshold = 1000"), workdir=tmp_path, store=store,
                        tools=[dump])  # fmt: skip
    outcome = await chain.execute(ToolCall("dump", {"lines": 5000}))
    assert outcome.status == "ok" and outcome.overflow_id is not None and len(outcome.text) < 2000
    assert "row 2500" not in outcome.text  # the middle is what overflow keeps out of the model's context
    where = dump(5000).index("row 2500")
    back = await chain.execute(ToolCall("read_overflow", {"id": outcome.overflow_id, "offset": where, "limit": 50}))
    assert back.status == "ok" and back.text.startswith("row 2500\n"), back.text[:300]


def test_a_function_named_like_a_built_in_tool_is_a_clear_error(tmp_path: Path, store: Store) -> None:
    def read(path: str) -> str:
        return path

    with pytest.raises(ConfigError) as caught:
        Agent(settings_for(store), ScriptedProvider([]), workdir=tmp_path, store=store, tools=[read])
    message = str(caught.value)
    assert "two toolsets define a tool named 'read' (FileExecutor and your function" in message
    assert "test_function_calls.test_a_function_named_like_a_built_in_tool_is_a_clear_error.<locals>.read" in message


def test_two_functions_with_one_tool_name_are_a_clear_error(tmp_path: Path, store: Store) -> None:
    def one(x: int) -> int:
        return x

    def two(x: int) -> int:
        return x

    with pytest.raises(ConfigError, match=r"two functions are offered as the tool 'same' .*@zeph_nb.tool\(name="):
        build_chain(settings_for(store), workdir=tmp_path, store=store,
                    tools=[zeph_nb.tool(name="same", register=False)(one),
                           zeph_nb.tool(name="same", register=False)(two)])  # fmt: skip


async def test_stop_ends_a_run_waiting_on_a_function_and_its_thread_is_told_to_stop(
    tmp_path: Path, store: Store
) -> None:
    started = threading.Event()
    threads: list[threading.Thread] = []

    def spin(n: int) -> int:
        threads.append(threading.current_thread())
        started.set()
        while True:
            n += 1

    agent = Agent(settings_for(store), ScriptedProvider([calls(("spin", {"n": 0})), "never"]), DenyAll(), tmp_path,
                  store=store, tools=[spin])  # fmt: skip
    run = asyncio.create_task(agent.run("spin"))
    while not started.is_set():
        await asyncio.sleep(0.01)
    assert agent.stop()
    result = await run
    assert result.stop_reason == "cancelled"
    threads[0].join(timeout=30)
    assert not threads[0].is_alive()


async def test_a_secret_in_a_return_value_is_redacted_before_the_model_or_the_log_sees_it(
    tmp_path: Path, store: Store
) -> None:
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"

    def config() -> dict[str, str]:
        return {"github_token": token}

    chain = build_chain(settings_for(store), workdir=tmp_path, store=store, tools=[config])
    outcome = await chain.execute(ToolCall("config", {}))
    assert outcome.status == "ok" and token not in outcome.text and "redacted" in outcome.text
