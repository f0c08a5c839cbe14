"""The approval inbox: a run in one process waits, a person answers from another, through a real store."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap
import time
from datetime import timedelta
from pathlib import Path

import pytest

from zeph_nb.config import Settings
from zeph_nb.gates import ApprovalRequest, PermissionGrants, build_chain
from zeph_nb.gates.approval.inbox import ApprovalClosed, Inbox, InboxApprover, UnknownApproval
from zeph_nb.store import Store
from zeph_nb.store.store import utc_now
from zeph_nb.tools.base import ToolCall

ASK_ECHO = '[gates.permissions]\nbash = [{pattern = "echo *", action = "ask"}]'


def request(command: str = "echo hi > out.txt", **extra: object) -> ApprovalRequest:
    return ApprovalRequest("call-1", "bash", {"command": command}, (command.split(" >")[0],),
                           'gates.permissions.bash[0]: ask "echo *"', "asked by the rule", conversation_id="conv",
                           **extra)  # type: ignore[arg-type]  # fmt: skip


def settings_in(home: Path, toml: str = ASK_ECHO) -> Settings:
    return Settings.from_toml(toml).model_copy(update={"home": home})


async def wait_pending(inbox: Inbox, count: int = 1) -> list[object]:
    for _ in range(400):
        pending = await asyncio.to_thread(inbox.pending)
        if len(pending) >= count:
            return list(pending)
        await asyncio.sleep(0.025)
    raise AssertionError("the request never reached the inbox")


# A headless run in its own process: a chain with an InboxApprover asks to run a command, waits for the
# answer, and prints what happened as JSON.
RUN = textwrap.dedent("""
    import asyncio, json, sys
    from pathlib import Path
    from zeph_nb.config import Settings
    from zeph_nb.gates import build_chain
    from zeph_nb.gates.approval.inbox import InboxApprover
    from zeph_nb.tools.base import ToolCall

    home, workdir, toml, command = sys.argv[1:5]
    settings = Settings.from_toml(toml).model_copy(update={"home": Path(home)})
    chain = build_chain(settings, workdir=workdir, approver=InboxApprover(settings, poll_interval=0.05))
    outcome = asyncio.run(chain.execute(ToolCall("bash", {"command": command})))
    chain.store.close()
    print(json.dumps({"status": outcome.status, "by": outcome.approved_by, "text": outcome.text}))
""")


def start_run(home: Path, workdir: Path, command: str, toml: str = ASK_ECHO) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", RUN, str(home), str(workdir), toml, command], text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip


def result_of(run: subprocess.Popen[str]) -> dict[str, str]:
    out, err = run.communicate(timeout=60)
    assert run.returncode == 0, err
    return dict(json.loads(out.strip().splitlines()[-1]))


async def test_a_run_in_another_process_waits_for_the_answer_and_goes_on(tmp_path: Path) -> None:
    home = tmp_path / "home"
    run = start_run(home, tmp_path, "echo approved > out.txt")
    inbox = Inbox(Store(settings_in(home)))
    [item] = await wait_pending(inbox)
    assert (item.tool, item.summary, item.requester) == ("bash", "bash: echo approved > out.txt", Settings().user)
    assert item.params == {"command": "echo approved > out.txt"} and item.subjects == ["echo approved"]
    assert item.pid == run.pid and item.expires_at is not None and item.expires_at > utc_now()
    assert not (tmp_path / "out.txt").exists() and run.poll() is None  # nothing runs before the answer
    answered = inbox.answer(item.id, "approve", by="alice")
    assert answered.state in ("answered", "approved")
    result = await asyncio.to_thread(result_of, run)
    assert (result["status"], result["by"]) == ("ok", "alice")
    assert (tmp_path / "out.txt").read_text() == "approved\n"
    final = inbox.get(item.id)
    assert final is not None and (final.state, final.outcome, final.decided_by) == ("approved", "approve", "alice")
    assert inbox.pending() == []
    inbox.store.close()


async def test_a_denial_with_a_note_reaches_the_model_and_nothing_runs(tmp_path: Path) -> None:
    home = tmp_path / "home"
    run = start_run(home, tmp_path, "echo no > out.txt")
    inbox = Inbox(Store(settings_in(home)))
    [item] = await wait_pending(inbox)
    inbox.answer(item.id, "deny", by="bob", note="use the staging bucket")
    result = await asyncio.to_thread(result_of, run)
    assert (result["status"], result["by"]) == ("denied", "bob")
    assert "not approved by bob (use the staging bucket)" in result["text"]
    assert not (tmp_path / "out.txt").exists()
    inbox.store.close()


async def test_always_allow_from_the_inbox_keeps_a_grant_in_the_name_of_who_gave_it(tmp_path: Path) -> None:
    settings = settings_in(tmp_path / "home")
    store = Store(settings)
    approver = InboxApprover(settings, store=store, poll_interval=0.02)
    chain = build_chain(settings, workdir=tmp_path, store=store, approver=approver)
    inbox = Inbox(Store(settings))  # the server's side: another Store, so another spool
    running = asyncio.create_task(chain.execute(ToolCall("bash", {"command": "echo one > out.txt"})))
    [item] = await wait_pending(inbox)
    inbox.answer(item.id, "always", by="carol")
    assert (await running).approved_by == "carol"
    assert [(g.pattern, g.granted_by) for g in PermissionGrants(store).active()] == [("echo one", "carol")]
    again = await chain.execute(ToolCall("bash", {"command": "echo one > out.txt"}))
    assert (again.status, again.decision) == ("ok", "allow") and inbox.pending() == []
    store.close()
    inbox.store.close()


async def test_nobody_answering_denies_at_the_timeout_and_a_late_answer_is_refused(tmp_path: Path) -> None:
    settings = settings_in(tmp_path / "home", ASK_ECHO + "\n[gates.approval]\ntimeout_secs = 0.4\n")
    store = Store(settings)
    approver = InboxApprover(settings, store=store, poll_interval=0.02)
    chain = build_chain(settings, workdir=tmp_path, store=store, approver=approver)
    outcome = await chain.execute(ToolCall("bash", {"command": "echo late > out.txt"}))
    assert (outcome.status, outcome.approved_by) == ("denied", "timeout")
    [item] = Inbox(store).recent()
    assert (item.state, item.outcome, item.decided_by) == ("expired", "expired", "timeout")
    with pytest.raises(ApprovalClosed, match="is expired by timeout"):
        Inbox(store).answer(item.id, "approve", by="dave")
    assert not (tmp_path / "out.txt").exists()
    store.close()


async def test_a_stopped_run_withdraws_its_request(tmp_path: Path) -> None:
    settings = settings_in(tmp_path / "home")
    store = Store(settings)
    inbox = Inbox(store)
    approver = InboxApprover(settings, store=store, poll_interval=0.02)
    waiting = asyncio.create_task(approver.decide(request(expires_at=utc_now() + timedelta(minutes=5))))
    [item] = await wait_pending(inbox)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    final = inbox.get(item.id)
    assert final is not None and (final.state, final.decided_by) == ("cancelled", settings.user)
    with pytest.raises(ApprovalClosed, match="cancelled"):
        inbox.answer(item.id, "approve", by="erin")
    store.close()


def test_a_request_whose_process_is_gone_is_not_pending(tmp_path: Path) -> None:
    store = Store(settings_in(tmp_path / "home"))
    inbox = Inbox(store)
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True)  # fmt: skip
    inbox_id = inbox.post(request(), requester="frank", expires_at=utc_now() + timedelta(minutes=5))
    # Rewrite the row as the dead process would have written it (same host, its pid).
    row = store.query("SELECT * FROM approvals WHERE id = ?", [inbox_id]).iloc[0].to_dict()
    store.append("approvals", {**{k: v for k, v in row.items() if k not in ("spool", "seq", "ts", "expires_at")},
                               "id": "f" * 32, "pid": int(gone.stdout), "ts": utc_now().isoformat(),
                               "expires_at": (utc_now() + timedelta(minutes=5)).isoformat()})  # fmt: skip
    states = {item.id: item.state for item in inbox.recent()}
    assert states == {inbox_id: "pending", "f" * 32: "abandoned"}
    assert [item.id for item in inbox.pending()] == [inbox_id]
    with pytest.raises(ApprovalClosed, match="abandoned"):
        inbox.answer("f" * 32, "approve", by="gina")
    store.close()


def test_answers_are_checked(tmp_path: Path) -> None:
    store = Store(settings_in(tmp_path / "home"))
    inbox = Inbox(store)
    inbox_id = inbox.post(request(), requester="hana", expires_at=utc_now() + timedelta(minutes=5))
    with pytest.raises(UnknownApproval, match="no approval request"):
        inbox.answer("0" * 32, "approve", by="ivan")
    with pytest.raises(ValueError, match="approve, always, deny"):
        inbox.answer(inbox_id, "yes", by="ivan")
    inbox.answer(inbox_id, "deny", by="ivan")
    with pytest.raises(ApprovalClosed, match="answered by ivan"):  # one answer; the second click is too late
        inbox.answer(inbox_id, "approve", by="jo")
    with pytest.raises(ValueError, match="poll_interval"):
        InboxApprover(poll_interval=0)
    store.close()


def test_two_processes_answering_at_once_the_run_acts_on_the_first(tmp_path: Path) -> None:
    """Two servers (two processes) can both record an answer; the earliest is the one acted on, and said so."""
    home = tmp_path / "home"
    store = Store(settings_in(home))
    inbox = Inbox(store)
    inbox_id = inbox.post(request(), requester="kim", expires_at=utc_now() + timedelta(minutes=5))
    answer = textwrap.dedent("""
        import sys
        from pathlib import Path
        from zeph_nb.config import Settings
        from zeph_nb.gates.approval.inbox import Inbox
        from zeph_nb.store import Store
        store = Store(Settings().model_copy(update={"home": Path(sys.argv[1])}))
        Inbox(store).answer(sys.argv[2], sys.argv[3], by=sys.argv[3] + "-person")
        store.close()
    """)
    first = subprocess.run([sys.executable, "-c", answer, str(home), inbox_id, "deny"], capture_output=True,
                           text=True, check=False)  # fmt: skip
    assert first.returncode == 0, first.stderr
    time.sleep(0.01)
    store.append("approvals", {"id": inbox_id, "event": "answered", "ts": utc_now().isoformat(), "outcome": "approve",
                               "decided_by": "approve-person"})  # fmt: skip
    assert inbox.first_answer(inbox_id) == ("deny", "deny-person", None)
    store.close()


def test_a_request_outside_the_sandbox_offers_no_always_allow(tmp_path: Path) -> None:
    from zeph_nb.config import Settings
    from zeph_nb.gates.approval import ApprovalRequest
    from zeph_nb.gates.approval.inbox import Inbox
    from zeph_nb.store.store import Store, utc_now

    store = Store(Settings().model_copy(update={"home": tmp_path / "home"}))
    try:
        inbox = Inbox(store)
        later = utc_now() + timedelta(minutes=5)
        kept = ApprovalRequest("c1", "bash", {"command": "make"}, ("make",), "rule", "why", asking=("make",))
        once = ApprovalRequest("c2", "bash", {"command": "make"}, ("make",), "unsandboxed request", "why", asking=())
        ids = [inbox.post(r, requester="run", expires_at=later) for r in (kept, once)]
        grantable = {item.id: item.grantable for item in inbox.pending()}
        assert grantable == {ids[0]: True, ids[1]: False}
    finally:
        store.close()
