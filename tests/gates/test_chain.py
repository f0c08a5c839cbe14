"""The gate chain with real tools, a real store and real files: order, cache, retry, quota, anomaly, dependencies."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest
from gate_probe import Probe

from zeph_nb.config import Settings
from zeph_nb.errors import ToolErrorCategory
from zeph_nb.gates import AutoApprove, ScriptedApprover, build_chain
from zeph_nb.gates.chain import GateChain
from zeph_nb.store import Store
from zeph_nb.tools.base import ToolCall, ToolExecutor
from zeph_nb.tools.builtin import builtin_executor
from zeph_nb.tools.composite import CompositeExecutor


class Sleeps:
    """Records the pauses the retry gate asks for instead of sleeping through them."""

    def __init__(self) -> None:
        self.pauses: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.pauses.append(seconds)


def chain_for(
    toml: str, workdir: Path, store: Store, *probes: Probe, approver: object = None, sleep: Sleeps | None = None
) -> GateChain:
    settings = Settings.from_toml(toml).model_copy(update={"home": store.home})
    executor: ToolExecutor = CompositeExecutor([builtin_executor(settings, workdir=workdir), *probes])
    return build_chain(
        settings, workdir=workdir, store=store, executor=executor, approver=approver,  # type: ignore[arg-type]
        sleep=sleep or Sleeps(),
    )  # fmt: skip


def call(tool: str, **params: object) -> ToolCall:
    return ToolCall(tool, params)


async def test_a_denied_call_never_reaches_the_executor(tmp_path: Path, store: Store) -> None:
    probe = Probe()
    (tmp_path / "keep.txt").write_text("precious")
    toml = """
[gates.permissions]
probe = [{pattern = "*", action = "deny"}]
bash = [{pattern = "rm *", action = "deny"}]
"""
    chain = chain_for(toml, tmp_path, store, probe, approver=AutoApprove())
    outcome = await chain.execute(call("probe"))
    assert (outcome.status, outcome.category, probe.runs) == ("denied", ToolErrorCategory.POLICY_BLOCKED, 0)
    assert "probe" not in [tool.name for tool in chain.tool_definitions()]  # hidden as well as refused
    outcome = await chain.execute(call("bash", command="ls; rm keep.txt"))
    assert outcome.status == "denied" and outcome.matched_rule == 'gates.permissions.bash[0]: deny "rm *"'
    assert (tmp_path / "keep.txt").read_text() == "precious"


async def test_the_blocklist_refuses_even_under_allow_all_and_auto_approve(tmp_path: Path, store: Store) -> None:
    chain = chain_for('[gates.permissions]\nbash = [{pattern = "*", action = "allow"}]', tmp_path, store,
                      approver=AutoApprove())  # fmt: skip
    outcome = await chain.execute(call("bash", command="echo hi > made.txt; sudo true"))
    assert (outcome.status, outcome.decision, outcome.matched_rule) == ("denied", "deny", "blocklist")
    assert "sudo" in outcome.text and "[tool_error]" in outcome.text
    assert not (tmp_path / "made.txt").exists()  # nothing of the line ran


async def test_an_ask_without_anyone_to_approve_is_refused_headless(tmp_path: Path, store: Store) -> None:
    chain = chain_for("", tmp_path, store)  # DenyAll is the default approver
    (tmp_path / "build").mkdir()
    outcome = await chain.execute(call("bash", command="rm -rf build"))
    assert outcome.category is ToolErrorCategory.CONFIRMATION_REQUIRED
    assert outcome.approved_by == "DenyAll" and "[gates.permissions.bash]" in outcome.text
    assert (tmp_path / "build").is_dir()


async def test_a_cached_call_does_not_run_twice_until_something_writes(tmp_path: Path, store: Store) -> None:
    probe = Probe("lookup", cacheable=True)
    chain = chain_for("", tmp_path, store, probe, approver=AutoApprove())
    first = await chain.execute(call("lookup", text="a"))
    second = await chain.execute(call("lookup", text="a"))
    other = await chain.execute(call("lookup", text="b"))
    assert probe.runs == 2 and (first.cached, second.cached, other.cached) == (False, True, False)
    assert second.text == first.text and second.call.call_id != first.call.call_id
    # A real file read is cached, and a write through the chain drops it: the next read sees the new text.
    (tmp_path / "f.txt").write_text("old\n")
    assert "old" in (await chain.execute(call("read", path="f.txt"))).text
    assert (await chain.execute(call("read", path="f.txt"))).cached
    await chain.execute(call("write", path="f.txt", content="new\n"))
    fresh = await chain.execute(call("read", path="f.txt"))
    assert not fresh.cached and "new" in fresh.text
    assert not (await chain.execute(call("lookup", text="a"))).cached  # workspace entries all went
    assert chain.session.cache is not None
    chain.session.cache.clear()
    assert (len(chain.session.cache), chain.session.cache.hits, chain.session.cache.misses) == (0, 0, 0)


async def test_bash_and_writing_tools_are_never_cached(tmp_path: Path, store: Store) -> None:
    chain = chain_for("", tmp_path, store)
    for _ in range(2):
        outcome = await chain.execute(call("bash", command="echo run >> runs.txt"))
        assert not outcome.cached
    assert (tmp_path / "runs.txt").read_text() == "run\nrun\n"


async def test_a_cache_entry_expires_after_its_ttl(tmp_path: Path, store: Store) -> None:
    probe = Probe("lookup", cacheable=True)
    chain = chain_for("[gates.cache]\nttl_secs = 60", tmp_path, store, probe)
    cache = chain.session.cache
    assert cache is not None
    now = [1000.0]
    cache.clock = lambda: now[0]
    await chain.execute(call("lookup"))
    now[0] += 59
    assert (await chain.execute(call("lookup"))).cached
    now[0] += 2
    assert not (await chain.execute(call("lookup"))).cached


async def test_a_retried_call_is_counted_once_by_the_quota(tmp_path: Path, store: Store) -> None:
    probe = Probe(failures=[ToolErrorCategory.SERVER_ERROR, ToolErrorCategory.NETWORK_ERROR])
    sleeps = Sleeps()
    toml = "[gates.quota]\nmax_tool_calls_per_session = 1\n[gates.retry]\nmax_attempts = 2\nbase_ms = 100\nmax_ms = 150"
    chain = chain_for(toml, tmp_path, store, probe, sleep=sleeps)
    outcome = await chain.execute(call("probe"))
    assert (outcome.status, outcome.attempts, probe.runs) == ("ok", 3, 3)
    assert chain.session.quota.used == 1
    # Exponential backoff with jitter in [0.5, 1) of base * 2^n, capped at max_ms.
    assert 0.05 <= sleeps.pauses[0] < 0.1 and 0.075 <= sleeps.pauses[1] < 0.15
    refused = await chain.execute(call("probe"))
    assert refused.text.startswith("[tool_error]") and "quota_blocked" in refused.text
    assert (refused.blocked_by, probe.runs) == ("quota", 3)


@pytest.mark.parametrize(
    ("failures", "mutates", "runs", "category"),
    [
        ([ToolErrorCategory.PERMANENT_FAILURE], False, 1, ToolErrorCategory.PERMANENT_FAILURE),
        ([ToolErrorCategory.POLICY_BLOCKED], False, 1, ToolErrorCategory.POLICY_BLOCKED),
        ([ToolErrorCategory.TOOL_NOT_FOUND], False, 1, ToolErrorCategory.TOOL_NOT_FOUND),
        ([ToolErrorCategory.TIMEOUT] * 5, False, 3, ToolErrorCategory.TIMEOUT),  # 1 + max_attempts
        ([ToolErrorCategory.TIMEOUT], True, 1, ToolErrorCategory.TIMEOUT),  # a side effect is never repeated
        ([ToolErrorCategory.RATE_LIMITED], False, 2, None),
    ],
)
async def test_only_infrastructure_errors_of_tools_without_side_effects_are_retried(
    tmp_path: Path, store: Store, failures: list[ToolErrorCategory], mutates: bool, runs: int,
    category: ToolErrorCategory | None,
) -> None:  # fmt: skip
    probe = Probe(failures=failures, mutates=mutates)
    chain = chain_for("", tmp_path, store, probe, approver=AutoApprove())
    outcome = await chain.execute(call("probe"))
    assert (probe.runs, outcome.category) == (runs, category)


RETRIED, NOT_RETRIED = "The system will retry if possible", "this call was not retried"


@pytest.mark.parametrize(
    ("toml", "mutates", "runs", "said"),
    [
        ("", False, 3, RETRIED),  # retried until max_attempts, then given up
        ("", True, 1, NOT_RETRIED),  # a tool that may change things: a promise of a retry would be false
        ("[gates.retry]\nmax_attempts = 0", False, 1, NOT_RETRIED),  # retries switched off
    ],
)
async def test_the_model_is_told_a_retry_only_when_the_call_was_retried(
    tmp_path: Path, store: Store, toml: str, mutates: bool, runs: int, said: str
) -> None:
    probe = Probe(failures=[ToolErrorCategory.SERVER_ERROR] * 5, mutates=mutates)
    outcome = await chain_for(toml, tmp_path, store, probe, approver=AutoApprove()).execute(call("probe"))
    assert (probe.runs, outcome.category) == (runs, ToolErrorCategory.SERVER_ERROR)
    unsaid = NOT_RETRIED if said == RETRIED else RETRIED
    assert said in outcome.text and unsaid not in outcome.text
    assert "retryable: true" in outcome.text  # the model may still try again itself


async def test_retry_after_is_honoured_within_the_budget(tmp_path: Path, store: Store) -> None:
    probe = Probe(failures=[ToolErrorCategory.RATE_LIMITED], retry_after=2.0)
    sleeps = Sleeps()
    chain = chain_for("[gates.retry]\nbudget_secs = 5", tmp_path, store, probe, sleep=sleeps)
    assert (await chain.execute(call("probe"))).status == "ok"
    assert sleeps.pauses == [2.0]
    over = Probe("slow", failures=[ToolErrorCategory.RATE_LIMITED], retry_after=60.0)
    chain = chain_for("[gates.retry]\nbudget_secs = 5", tmp_path, store, over, sleep=sleeps)
    outcome = await chain.execute(call("slow"))
    assert (outcome.category, over.runs) == (ToolErrorCategory.RATE_LIMITED, 1)  # waiting would break the budget
    assert "Rate limit exceeded; this call was not retried: wait or try another way." in outcome.text


async def test_a_batch_past_the_quota_is_refused_without_running_and_a_new_conversation_resets_it(
    tmp_path: Path, store: Store
) -> None:
    probe = Probe()
    chain = chain_for("[gates.quota]\nmax_tool_calls_per_session = 2", tmp_path, store, probe)
    outcomes = await asyncio.gather(*(chain.execute(call("probe", text=str(i))) for i in range(4)))
    assert [o.blocked_by for o in outcomes] == [None, None, "quota", "quota"]
    assert probe.runs == 2
    again = await asyncio.gather(*(chain.execute(call("probe")) for _ in range(2)))
    assert all(o.blocked_by == "quota" for o in again) and probe.runs == 2
    chain.new_conversation()
    assert (await chain.execute(call("probe"))).status == "ok"


async def test_unknown_tools_and_bad_arguments_are_named_for_the_model(tmp_path: Path, store: Store) -> None:
    probe = Probe()
    chain = chain_for("", tmp_path, store, probe)
    unknown = await chain.execute(call("probe_tool"))
    assert unknown.category is ToolErrorCategory.TOOL_NOT_FOUND and "probe" in unknown.text
    bad = await chain.execute(ToolCall("probe", {"text": 5, "count": "many", "colour": "red"}))
    assert bad.category is ToolErrorCategory.INVALID_PARAMETERS  # an unknown field is not a type problem
    assert all(name in bad.text for name in ("'text'", "'count'", "'colour'"))
    types = await chain.execute(ToolCall("probe", {"text": 5}))
    assert types.category is ToolErrorCategory.TYPE_MISMATCH
    assert probe.runs == 0


async def test_a_crashing_tool_becomes_an_error_value_not_a_crashed_run(tmp_path: Path, store: Store) -> None:
    probe = Probe(failures=[KeyError("boom")])
    chain = chain_for("", tmp_path, store, probe)
    outcome = await chain.execute(call("probe"))
    assert outcome.category is ToolErrorCategory.PERMANENT_FAILURE and "boom" in outcome.text
    assert (await chain.execute(call("probe"))).status == "ok"


async def test_every_call_leaves_an_audit_row_saying_why(tmp_path: Path, store: Store) -> None:
    toml = '[gates.permissions]\nbash = [{pattern = "echo *", action = "allow"}, {pattern = "rm *", action = "deny"}]'
    chain = chain_for(toml, tmp_path, store, approver=ScriptedApprover(["approve"]))
    await chain.execute(call("bash", command="echo hello"))
    await chain.execute(call("bash", command="rm -f nothing"))
    await chain.execute(call("bash", command="ls"))
    await chain.execute(call("nope"))
    rows = store.query(
        "SELECT tool, status, decision, matched_rule, approved_by, error_category, attempts, conversation_id "
        "FROM tool_calls ORDER BY ts"
    )
    assert list(rows["status"]) == ["ok", "denied", "ok", "error"]
    assert list(rows["decision"][:3]) == ["allow", "deny", "ask"]
    assert rows["matched_rule"][0] == 'gates.permissions.bash[0]: allow "echo *"'
    assert rows["approved_by"][2] == "ScriptedApprover"
    assert rows["error_category"][3] == "tool_not_found"
    assert list(rows["attempts"]) == [1, 0, 1, 0]
    assert set(rows["conversation_id"]) == {chain.conversation_id}


async def test_anomalies_block_a_failing_tool_reversibly(tmp_path: Path, store: Store) -> None:
    probe = Probe(failures=[ToolErrorCategory.PERMANENT_FAILURE] * 3)
    toml = "[gates.anomaly]\nenabled = true\nwindow_size = 4\nerror_threshold = 0.5\ncritical_threshold = 0.75"
    chain = chain_for(toml, tmp_path, store, probe)
    for _ in range(3):
        await chain.execute(call("probe"))
    assert "probe" in chain.session.permissions.trust.blocked
    refused = await chain.execute(call("probe"))
    assert refused.category is ToolErrorCategory.POLICY_BLOCKED and "anomaly" in refused.text
    assert probe.runs == 3 and "probe" not in [t.name for t in chain.tool_definitions()]
    chain.session.permissions.trust.unblock("probe")
    chain.session.permissions.anomaly.forget("probe")
    assert (await chain.execute(call("probe"))).status == "ok"


@pytest.mark.parametrize(("auto_block", "blocked"), [("true", True), ("false", False)])
async def test_seed_003s_anomaly_keys_failure_threshold_and_auto_block(
    tmp_path: Path, store: Store, auto_block: str, blocked: bool
) -> None:
    # 2 of 3 failed (67%): under critical_threshold's 0.8, over seed 003's failure_threshold, which wins.
    probe = Probe(failures=[ToolErrorCategory.PERMANENT_FAILURE] * 2)
    toml = f"[gates.anomaly]\nenabled = true\nwindow_size = 3\nfailure_threshold = 0.6\nauto_block = {auto_block}"
    chain = chain_for(toml, tmp_path, store, probe)
    for _ in range(3):
        await chain.execute(call("probe"))
    assert ("probe" in chain.session.permissions.trust.blocked) is blocked


async def test_refusals_and_quality_failures_do_not_count_as_anomalies(tmp_path: Path, store: Store) -> None:
    probe = Probe()
    toml = """
[gates.anomaly]
enabled = true
window_size = 3
[gates.permissions]
probe = [{pattern = "x", action = "deny"}]
"""
    chain = chain_for(toml, tmp_path, store, probe)
    for _ in range(5):
        await chain.execute(call("probe", text="x"))
        await chain.execute(ToolCall("probe", {"count": "many"}))
    assert not chain.session.permissions.trust.blocked


async def test_dependencies_hide_a_tool_until_its_requirements_completed(tmp_path: Path, store: Store) -> None:
    deploy, check = Probe("deploy"), Probe("check", failures=[ToolErrorCategory.SERVER_ERROR] * 3)
    toml = """
[gates.dependencies]
enabled = true
always_on = ["read"]
[gates.dependencies.rules.deploy]
requires = ["check"]
"""
    chain = chain_for(toml + "\n[gates.retry]\nmax_attempts = 0", tmp_path, store, deploy, check)
    assert "deploy" not in [t.name for t in chain.tool_definitions()]
    early = await chain.execute(call("deploy"))
    assert early.category is ToolErrorCategory.POLICY_BLOCKED and "requires check" in early.text
    await chain.execute(call("check"))  # fails: does not count as completed
    assert "deploy" not in [t.name for t in chain.tool_definitions()]
    check.failures.clear()
    await chain.execute(call("check"))
    assert "deploy" in [t.name for t in chain.tool_definitions()]
    assert (await chain.execute(call("deploy"))).status == "ok"
    chain.new_conversation()
    assert "deploy" not in [t.name for t in chain.tool_definitions()]


def test_dependency_cycles_are_broken_and_a_stall_lifts_the_gates(caplog: pytest.LogCaptureFixture) -> None:
    from zeph_nb.config import DependencyRule
    from zeph_nb.gates.policy.dependencies import DependencyGraph

    graph = DependencyGraph({"a": DependencyRule(requires=["b"]), "b": DependencyRule(requires=["a"]),
                             "c": DependencyRule(requires=["a"])})  # fmt: skip
    assert graph.cycles and "cycle" in caplog.text
    assert graph.unmet("a", set()) == [] and graph.unmet("c", set()) == ["a"]
    stuck = DependencyGraph({"x": DependencyRule(requires=["missing"])}, always_on=["read"])
    shown, lifted = stuck.visible(["read", "x"], set())
    assert lifted and shown == ["read", "x"]
    preferring = DependencyGraph({"z": DependencyRule(prefers=["read"])})
    assert preferring.visible(["a", "z"], {"read"})[0] == ["z", "a"]


def test_seed_003s_preference_boosts_rank_tools_and_are_capped() -> None:
    from zeph_nb.config import DependencyRule
    from zeph_nb.gates.policy.dependencies import DependencyGraph

    rules = {"one": DependencyRule(prefers=["read"]), "two": DependencyRule(prefers=["read", "grep"])}
    done = {"read", "grep"}
    uncapped = DependencyGraph(rules, boost_per_dep=0.1, max_total_boost=1.0)
    assert uncapped.visible(["a", "one", "two"], done)[0] == ["two", "one", "a"]  # two preferences beat one
    capped = DependencyGraph(rules, boost_per_dep=0.1, max_total_boost=0.1)
    assert capped.visible(["a", "one", "two"], done)[0] == ["one", "two", "a"]  # the cap makes them equal
    settings = Settings.from_toml("[gates.dependencies]\nboost_per_dep = 0.1\nmax_total_boost = 0.1\n")
    assert (settings.gates.dependencies.boost_per_dep, settings.gates.dependencies.max_total_boost) == (0.1, 0.1)


async def test_independent_calls_of_one_batch_run_concurrently(tmp_path: Path, store: Store) -> None:
    chain = chain_for('[gates.permissions]\nbash = [{pattern = "*", action = "allow"}]', tmp_path, store)
    # Each command waits for the other's marker: both can only succeed if they run at the same time.
    a = "touch a; for i in $(seq 100); do [ -e b ] && exit 0; sleep 0.05; done; exit 1"
    b = "touch b; for i in $(seq 100); do [ -e a ] && exit 0; sleep 0.05; done; exit 1"
    first, second = await asyncio.gather(chain.execute(call("bash", command=a)), chain.execute(call("bash", command=b)))
    assert (first.exit_code, second.exit_code) == (0, 0)


async def test_a_filtered_call_says_how_far_the_filter_understood_it(tmp_path: Path, store: Store) -> None:
    toml = '[gates.permissions]\nbash = [{pattern = "*", action = "allow"}]'
    chain = chain_for(toml, tmp_path, store)
    logged = 'for i in $(seq 1 300); do echo "2026-11-24 INFO worker $i heartbeat ok"; done'
    known = await chain.execute(call("bash", command="git status"))  # not a repository: a rule, understood or not
    folded = await chain.execute(call("bash", command=logged))  # no rule knows it: the generic fallback
    assert folded.filter_confidence == "fallback"
    assert folded.filter_stats and folded.filter_stats[0].endswith("(generic, fallback)")
    assert "lines removed by the generic filter; the whole output is overflow:" in folded.text
    rows = store.query("SELECT filter_rule, filter_confidence FROM tool_calls ORDER BY ts")
    assert list(rows["filter_confidence"]) == [known.filter_confidence, "fallback"]
    assert rows["filter_rule"][1] == "generic"


async def test_every_shell_call_has_an_exit_code_in_the_audit_log(tmp_path: Path, store: Store) -> None:
    from zeph_nb.gates.recording import KILLED, NOT_RUN

    toml = '[gates.permissions]\nbash = [{pattern = "rm *", action = "deny"}, {pattern = "*", action = "allow"}]'
    chain = chain_for(toml, tmp_path, store, approver=ScriptedApprover(["deny"]))
    calls = [call("bash", command="exit 3"), call("bash", command="rm -rf x"), call("bash", timeout=1),
             call("bash", command="sleep 30", timeout=1), call("read", path="missing.txt")]  # fmt: skip
    outcomes = [await chain.execute(c) for c in calls]
    assert [o.exit_code for o in outcomes] == [3, NOT_RUN, NOT_RUN, KILLED, None]  # ran, denied, invalid, timed out
    store.flush()
    logged = store.query("SELECT tool, exit_code FROM tool_calls ORDER BY ts")
    assert list(logged["exit_code"].astype("Int64").astype(object).where(logged["exit_code"].notna(), None)) == [
        3, NOT_RUN, NOT_RUN, KILLED, None]  # fmt: skip


async def test_an_authorization_rule_with_capabilities_applies_to_tools_that_have_them(
    tmp_path: Path, store: Store
) -> None:
    toml = """
[gates.authorization]
enabled = true
rules = [{tool = "*", effect = "deny", capabilities = ["network"]},
         {tool = "*", effect = "ask", capabilities = ["files", "mutates"]}]
"""
    chain = chain_for(toml, tmp_path, store, approver=ScriptedApprover(["deny"]))
    offered = {tool.name for tool in chain.tool_definitions()}
    assert not offered & {"fetch", "web_scrape", "web_search"} and "read" in offered  # network tools: denied, hidden
    (tmp_path / "a.txt").write_text("a")
    assert (await chain.execute(call("read", path="a.txt"))).status == "ok"  # read-only files: no rule applies
    asked = await chain.execute(call("write", path="b.txt", content="b"))
    assert asked.decision == "ask" and asked.status == "denied" and not (tmp_path / "b.txt").exists()


def test_a_tools_summary_is_its_first_sentence_cut_at_a_word() -> None:
    from zeph_nb.gates.chain import first_sentence

    assert first_sentence("Run a command. Its output is filtered.") == "Run a command"
    assert first_sentence("Find files, e.g. src/**/*.py, by glob. More.") == "Find files, e.g. src/**/*.py, by glob"
    assert first_sentence("Sandboxed (network=true or hosts=[...] asks first) " + "word " * 40).endswith("word…")


def test_the_stores_first_read_happens_before_a_run_not_inside_its_first_call(tmp_path: Path) -> None:
    # The first read of the store imports pandas (~0.2 s); inside the first call it was recorded as that call's
    # duration (a first write measured 300 ms, the next 30). A fresh interpreter shows where it happens now.
    script = (
        "import asyncio, sys, zeph_nb\n"
        "agent = zeph_nb.Agent(provider=zeph_nb.ScriptedProvider(['ok']), workdir='.')\n"
        "before = 'pandas' in sys.modules\n"
        "asyncio.run(agent.chain.prepare())\n"
        "print(before, 'pandas' in sys.modules)\n"
    )
    env = {**os.environ, "ZEPH_HOME": str(tmp_path / "home")}
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120, check=True)  # fmt: skip
    assert done.stdout.split() == ["False", "True"], done.stderr


async def test_events_and_outcomes_carry_the_tools_kind(tmp_path: Path, store: Store) -> None:
    """The seed's tool events say what kind of tool ran (shell, file, web, mcp, native): a front-end can group or
    style calls without knowing every tool's name."""
    from zeph_nb.gates.events import ToolCallStarted

    (tmp_path / "a.txt").write_text("alpha")
    chain = chain_for('[tools.shell]\nsandbox = "off"\n', tmp_path, store, approver=AutoApprove())
    started: list[ToolCallStarted] = []
    chain.subscribe(lambda event: started.append(event) if isinstance(event, ToolCallStarted) else None)
    outcomes = [await chain.execute(c) for c in (call("bash", command="true"), call("read", path="a.txt"),
                                                 call("time"), call("fetch", url="ftp://x"))]  # fmt: skip
    assert [o.tool_kind for o in outcomes] == ["shell", "file", "native", "web"]
    assert [e.tool_kind for e in started] == ["shell", "file", "native", "web"]
    assert (await chain.execute(call("no_such_tool"))).tool_kind == ""  # unknown: no kind to tell
