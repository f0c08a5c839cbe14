"""Approvers and the approval gate, driven with real asyncio futures, a real store and real processes."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from zeph_nb.config import Settings
from zeph_nb.errors import ToolErrorCategory
from zeph_nb.gates import (
    ApprovalDecision,
    ApprovalRequest,
    AutoApprove,
    ConsoleApprover,
    DenyAll,
    PermissionGrants,
    ScriptedApprover,
    build_chain,
)
from zeph_nb.gates.chain import GateChain
from zeph_nb.store import Store
from zeph_nb.tools.base import ToolCall

ASK_ECHO = '[gates.permissions]\nbash = [{pattern = "echo *", action = "ask"}]'


class FutureApprover:
    """Like the notebook's buttons: each request becomes a future that someone else resolves (or cancels)."""

    def __init__(self) -> None:
        self.futures: asyncio.Queue[tuple[ApprovalRequest, asyncio.Future[ApprovalDecision]]] = asyncio.Queue()

    async def decide(self, request: ApprovalRequest) -> ApprovalDecision:
        future: asyncio.Future[ApprovalDecision] = asyncio.get_running_loop().create_future()
        await self.futures.put((request, future))
        return await future


def chain_for(toml: str, workdir: Path, store: Store, approver: object) -> GateChain:
    settings = Settings.from_toml(toml).model_copy(update={"home": store.home})
    return build_chain(settings, workdir=workdir, store=store, approver=approver)  # type: ignore[arg-type]


def bash(command: str) -> ToolCall:
    return ToolCall("bash", {"command": command})


async def test_a_person_approves_through_a_future_while_the_call_waits(tmp_path: Path, store: Store) -> None:
    approver = FutureApprover()
    chain = chain_for(ASK_ECHO, tmp_path, store, approver)
    running = asyncio.create_task(chain.execute(bash("echo approved > out.txt")))
    request, future = await approver.futures.get()
    assert [r.call_id for r in chain.pending_approvals] == [request.call_id]
    assert request.tool == "bash" and request.rule == 'gates.permissions.bash[0]: ask "echo *"'
    assert request.subjects == ("echo approved",) and request.summary == "bash: echo approved > out.txt"
    assert not (tmp_path / "out.txt").exists()  # nothing runs before the answer
    future.set_result(ApprovalDecision.approve("alice"))
    outcome = await running
    assert (outcome.status, outcome.approved_by) == ("ok", "alice")
    assert (tmp_path / "out.txt").read_text() == "approved\n"
    assert chain.pending_approvals == []


async def test_a_denial_is_explained_to_the_model_and_nothing_runs(tmp_path: Path, store: Store) -> None:
    approver = FutureApprover()
    chain = chain_for(ASK_ECHO, tmp_path, store, approver)
    running = asyncio.create_task(chain.execute(bash("echo no > out.txt")))
    _, future = await approver.futures.get()
    future.set_result(ApprovalDecision.deny("bob", "not now"))
    outcome = await running
    assert outcome.category is ToolErrorCategory.CONFIRMATION_REQUIRED
    assert "not approved by bob (not now)" in outcome.text and outcome.status == "denied"
    assert not (tmp_path / "out.txt").exists()


async def test_an_unanswered_approval_times_out_as_a_denial(tmp_path: Path, store: Store) -> None:
    approver = FutureApprover()
    chain = chain_for(ASK_ECHO + "\n[gates.approval]\ntimeout_secs = 0.05", tmp_path, store, approver)
    outcome = await chain.execute(bash("echo late"))
    assert outcome.category is ToolErrorCategory.CONFIRMATION_REQUIRED and outcome.approved_by == "timeout"
    assert "gates.approval.timeout_secs" in outcome.text
    assert chain.pending_approvals == []


async def test_a_cancelled_prompt_is_the_cancelled_category(tmp_path: Path, store: Store) -> None:
    approver = FutureApprover()
    chain = chain_for(ASK_ECHO, tmp_path, store, approver)
    running = asyncio.create_task(chain.execute(bash("echo x > out.txt")))
    _, future = await approver.futures.get()
    future.cancel()  # the prompt went away (kernel shutting down, widget closed)
    outcome = await running
    assert (outcome.category, outcome.status) == (ToolErrorCategory.CANCELLED, "cancelled")
    assert not (tmp_path / "out.txt").exists()


async def test_stopping_the_run_while_it_waits_cancels_it_and_logs_it(tmp_path: Path, store: Store) -> None:
    approver = FutureApprover()
    chain = chain_for(ASK_ECHO, tmp_path, store, approver)
    running = asyncio.create_task(chain.execute(bash("echo x > out.txt")))
    request, _ = await approver.futures.get()
    running.cancel()  # the Stop button
    with pytest.raises(asyncio.CancelledError):
        await running
    assert chain.pending_approvals == [] and not (tmp_path / "out.txt").exists()
    rows = store.query("SELECT status, error_category FROM tool_calls WHERE call_id = ?", [request.call_id])
    assert list(rows.itertuples(index=False, name=None)) == [("cancelled", "cancelled")]


async def test_secrets_in_arguments_are_redacted_in_the_request(tmp_path: Path, store: Store) -> None:
    approver = ScriptedApprover(["deny"])
    chain = chain_for(ASK_ECHO, tmp_path, store, approver)
    token = "ghp_" + "a1B2" * 9
    await chain.execute(bash(f"echo {token}"))
    shown = approver.requests[0].params["command"]
    assert token not in shown and "[REDACTED:github_token]" in shown
    logged = store.query("SELECT params FROM tool_calls")["params"][0]
    assert token not in logged


@pytest.mark.parametrize(
    ("approver", "status", "by"),
    [
        (DenyAll(), "denied", "DenyAll"),
        (AutoApprove(), "ok", "AutoApprove"),
        (ScriptedApprover([True]), "ok", "ScriptedApprover"),
        (ScriptedApprover(["deny"]), "denied", "ScriptedApprover"),
        (ScriptedApprover([]), "denied", "ScriptedApprover"),  # out of decisions: deny, and say so
    ],
)
async def test_headless_approvers(tmp_path: Path, store: Store, approver: object, status: str, by: str) -> None:
    chain = chain_for(ASK_ECHO, tmp_path, store, approver)
    outcome = await chain.execute(bash("echo hi"))
    assert (outcome.status, outcome.approved_by) == (status, by)


async def test_auto_approve_never_overrides_a_deny(tmp_path: Path, store: Store) -> None:
    chain = chain_for('[gates.permissions]\nbash = [{pattern = "*", action = "deny"}]', tmp_path, store, AutoApprove())
    assert (await chain.execute(bash("echo hi"))).status == "denied"


def test_scripted_approver_refuses_nonsense() -> None:
    with pytest.raises(ValueError, match="not a decision"):
        asyncio.run(ScriptedApprover(["maybe"]).decide(ApprovalRequest("c", "bash", {}, (), "r", "why")))  # type: ignore[list-item]


async def test_always_allow_applies_from_the_next_call_and_records_who(tmp_path: Path, store: Store) -> None:
    approver = ScriptedApprover(["always"], name="carol")
    chain = chain_for(ASK_ECHO, tmp_path, store, approver)
    first = await chain.execute(bash("echo one && echo two"))
    assert first.approved_by == "carol"
    again = await chain.execute(bash("echo two; echo one"))  # same simple commands, other order
    assert (again.status, again.decision, again.approved_by) == ("ok", "allow", None)
    assert again.matched_rule is not None and "by carol" in again.matched_rule
    other = await chain.execute(bash("echo three"))
    assert other.status == "denied" and len(approver.requests) == 2
    grants = store.query("SELECT tool, pattern, granted_by, reason FROM permission_rules ORDER BY pattern")
    assert list(grants["pattern"]) == ["echo one", "echo two"] and set(grants["granted_by"]) == {"carol"}


async def test_a_grant_is_shown_as_it_was_given_and_its_call_says_so(tmp_path: Path, store: Store) -> None:
    # An exact grant is stored glob-escaped (echo \\-n hi); the Rule column, the audit API and the card showed that.
    from zeph_nb.notebook.cards import ToolCard

    chain = chain_for(ASK_ECHO, tmp_path, store, ScriptedApprover(["always"], name="carol"))
    await chain.execute(bash("echo -n hi"))
    again = await chain.execute(bash("echo -n hi"))
    assert (again.status, again.decision, again.approved_by) == ("ok", "allow", None)
    assert again.matched_rule is not None and again.matched_rule.startswith('Always allow "echo -n hi" by carol at ')
    assert again.reason == "allowed by an earlier " + again.matched_rule
    store.flush()
    rows = store.query("SELECT matched_rule FROM tool_calls WHERE call_id = ?", [again.call.call_id])
    assert list(rows["matched_rule"]) == [again.matched_rule]
    assert list(store.query("SELECT pattern FROM permission_rules")["pattern"]) == ["echo \\-n hi"]  # still exact
    card = ToolCard("bash", again.call.params)
    card.finished(again)
    assert "allowed by an earlier Always allow &quot;echo -n hi&quot; by carol" in card.stats.value


async def test_a_revoked_grant_asks_again(tmp_path: Path, store: Store) -> None:
    chain = chain_for(ASK_ECHO, tmp_path, store, ScriptedApprover(["always"]))
    await chain.execute(bash("echo one"))
    grants = PermissionGrants(store)
    (grant,) = grants.active()
    grants.revoke(grant.id, by="dave")
    assert PermissionGrants(store).active() == []
    assert (await chain.execute(bash("echo one"))).status == "denied"


def test_always_allow_survives_a_restart(tmp_path: Path) -> None:
    """Two real processes on one zeph home: the first grants, exits; the second runs without asking."""
    (tmp_path / "zeph.toml").write_text(ASK_ECHO)
    script = textwrap.dedent(
        """
        import asyncio, sys
        from zeph_nb.config import Settings
        from zeph_nb.gates import ScriptedApprover, build_chain
        from zeph_nb.tools.base import ToolCall
        approver = ScriptedApprover(["always"] if sys.argv[1] == "grant" else [], name="erin")
        chain = build_chain(Settings.load(), approver=approver)
        outcome = asyncio.run(chain.execute(ToolCall("bash", {"command": "echo kept"})))
        print(outcome.status, outcome.decision, len(approver.requests))
        chain.store.close()
        """
    )
    env = {"ZEPH_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}

    def run(mode: str) -> str:
        done = subprocess.run([sys.executable, "-c", script, mode], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=120, check=True)  # fmt: skip
        return done.stdout.strip()

    assert run("grant") == "ok ask 1"
    assert run("reuse") == "ok allow 0"


async def test_console_approver_reads_answers_until_one_makes_sense() -> None:
    answers = iter(["maybe", "A"])
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    request = ApprovalRequest("c1", "bash", {"command": "rm -rf build"}, ("rm -rf build",), "shell classifier",
                              "destructive: rm -r/-f")  # fmt: skip
    decision = await ConsoleApprover(user="frank", ask=ask).decide(request)
    assert decision == ApprovalDecision(True, "frank", remember=True)
    assert "rm -rf build" in prompts[0] and "destructive" in prompts[0]
    assert "please answer" in prompts[1]

    def closed(prompt: str) -> str:
        raise EOFError

    assert not (await ConsoleApprover(ask=closed).decide(request)).approved


class _SlowPerson:
    """Approves after 'thinking' for 100 s of a fake clock: the gates' perf_counter jumps while it decides."""

    def __init__(self, clock: list[float]) -> None:
        self.clock = clock

    async def decide(self, request: ApprovalRequest) -> ApprovalDecision:
        self.clock[0] += 100.0
        return ApprovalDecision.approve("alice")


async def test_the_wait_for_a_person_is_its_own_clock(
    tmp_path: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    import time
    from types import SimpleNamespace

    from zeph_nb.gates import wrappers

    # The gates' clock is a fake that moves only while the person thinks: the figures are exact, not timed.
    clock = [0.0]
    monkeypatch.setattr(wrappers, "time", SimpleNamespace(perf_counter=lambda: clock[0], monotonic=time.monotonic))
    chain = chain_for(ASK_ECHO, tmp_path, store, _SlowPerson(clock))
    outcome = await chain.execute(bash("echo quick"))
    assert outcome.status == "ok" and outcome.waited_ms == 100_000
    assert outcome.duration_ms == 0.0  # the instant command is not charged the person's 100 s
    store.flush()
    row = store.query("SELECT duration_ms, waited_ms FROM tool_calls").iloc[0]
    assert row["waited_ms"] == outcome.waited_ms and row["duration_ms"] == outcome.duration_ms
    allowed = await chain_for("", tmp_path, store, _SlowPerson(clock)).execute(ToolCall("time", {}))
    assert allowed.waited_ms == 0.0  # nobody was asked


async def test_a_write_or_edit_approval_shows_what_the_file_will_become(tmp_path: Path, store: Store) -> None:
    (tmp_path / "notes.txt").write_text("alpha\nbeta\ngamma\n")
    (tmp_path / "private.pem").write_text("KEEP OUT\n")
    toml = (
        '[gates.permissions]\nwrite = [{pattern = "*", action = "ask"}]\nedit = [{pattern = "*", action = "ask"}]\n'
        '[tools.file]\ndeny_read = ["**/*.pem"]\n'
    )
    approver = ScriptedApprover(["deny"] * 5)
    chain = chain_for(toml, tmp_path, store, approver)
    token = "ghp_" + "a1B2c3D4" * 4 + "e5F6"
    await chain.execute(ToolCall("write", {"path": "notes.txt", "content": f"alpha\nBETA\ngamma\ntoken={token}\n"}))
    await chain.execute(ToolCall("edit", {"path": "notes.txt", "old_string": "gamma", "new_string": "delta"}))
    await chain.execute(ToolCall("write", {"path": "new.txt", "content": "fresh\n"}))
    await chain.execute(ToolCall("write", {"path": "private.pem", "content": "replaced\n"}))
    write, edit, new, private = (r.preview for r in approver.requests)
    assert "-beta\n+BETA\n" in write and "+token=[REDACTED:github_token]" in write and token not in write
    assert "-gamma\n+delta\n" in edit and "+fresh" in new
    assert private == ""  # a preview never shows what the file tools would refuse to read
    import os

    os.mkfifo(tmp_path / "pipe.txt")  # read as the file tools read: a named pipe is refused, not waited on
    await chain.execute(ToolCall("write", {"path": "pipe.txt", "content": "x\n"}))
    assert approver.requests[-1].preview == ""
    assert (tmp_path / "notes.txt").read_text() == "alpha\nbeta\ngamma\n"  # all denied: nothing changed
