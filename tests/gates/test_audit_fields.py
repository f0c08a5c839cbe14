"""Seed 003's audit fields on a real chain's rows in a real DuckDB file: the trust level in force, what the model
read of the result (bounded, redacted), where the decision's authority came from, and the call's phases."""

from __future__ import annotations

import asyncio
import json
import math
from pathlib import Path

from test_chain import call, chain_for
from test_inbox import settings_in, wait_pending

from zeph_nb.gates import AutoApprove, ScriptedApprover, build_chain
from zeph_nb.gates.approval.inbox import Inbox, InboxApprover
from zeph_nb.gates.recording import RESULT_TEXT_CHARS
from zeph_nb.store import Store
from zeph_nb.tools.base import ToolCall

FIELDS = "SELECT tool, status, trust_level, result_text, claim_source, phases, duration_ms, waited_ms FROM tool_calls"


def rows(store: Store) -> list[dict[str, object]]:
    frame = store.query(FIELDS + " ORDER BY ts")
    frame = frame.astype(object).where(frame.notna(), None)
    return [dict(zip(frame.columns, values, strict=True)) for values in frame.itertuples(index=False)]


async def test_each_row_says_where_its_authority_came_from(tmp_path: Path, store: Store) -> None:
    toml = ('[gates.trust]\nlevel = "provisional"\n[gates.permissions]\n'
            'bash = [{pattern = "echo *", action = "allow"}, {pattern = "rm *", action = "deny"}, '
            '{pattern = "touch *", action = "ask"}]')  # fmt: skip
    chain = chain_for(toml, tmp_path, store, approver=ScriptedApprover(["approve"]))
    await chain.execute(call("bash", command="echo hello"))  # a rule of the config
    await chain.execute(call("bash", command="rm -f nothing"))  # a rule of the config, denying
    await chain.execute(call("bash", command="touch made"))  # asked: the approver object said yes
    await chain.execute(call("read", path="made"))  # no rule: the trust level's default
    await chain.execute(call("bash", command="rm -rf /"))  # the blocklist
    await chain.execute(call("nope"))  # refused before anything decided: no claim
    found = rows(store)
    assert [r["claim_source"] for r in found] == ["config", "config", "approver", "default", "blocklist", None]
    assert {r["trust_level"] for r in found} == {"provisional"}


async def test_a_reviewers_answer_is_the_claim(tmp_path: Path) -> None:
    settings = settings_in(tmp_path / "home")
    store = Store(settings)
    chain = build_chain(settings, workdir=tmp_path, store=store,
                        approver=InboxApprover(settings, store=store, poll_interval=0.02))  # fmt: skip
    inbox = Inbox(Store(settings))  # the reviewers' side: another Store, another spool
    running = asyncio.create_task(chain.execute(ToolCall("bash", {"command": "echo one > out.txt"})))
    [item] = await wait_pending(inbox)
    inbox.answer(item.id, "approve", by="carol")
    assert (await running).approved_by == "carol"
    store.flush()
    [row] = rows(store)
    assert (row["status"], row["claim_source"]) == ("ok", "reviewer")
    store.close()
    inbox.store.close()


async def test_the_result_text_is_what_the_model_read_bounded_and_redacted(tmp_path: Path, store: Store) -> None:
    secret = "ghp_" + "a1B2c3D4e5" * 4
    (tmp_path / "short.txt").write_text(f"token = {secret}\n")
    (tmp_path / "long.txt").write_text("".join(f"line {n} of a long file\n" for n in range(3000)))
    chain = chain_for("", tmp_path, store, approver=AutoApprove())
    short = await chain.execute(call("read", path="short.txt"))
    long = await chain.execute(call("read", path="long.txt"))
    first, second = rows(store)
    assert secret not in str(first["result_text"]) and secret not in short.text
    assert first["result_text"] == short.text  # short: all of it, as the model read it
    kept = str(second["result_text"])
    assert kept.startswith(long.text[:RESULT_TEXT_CHARS]) and len(kept) < RESULT_TEXT_CHARS + 200
    assert f"{len(long.text):,} characters in all" in kept


async def test_phases_come_in_order_and_add_up_to_the_duration(tmp_path: Path, store: Store) -> None:
    toml = '[gates.permissions]\nbash = [{pattern = "echo *", action = "ask"}]'
    chain = chain_for(toml, tmp_path, store, approver=ScriptedApprover(["approve", "deny"]))
    await chain.execute(call("bash", command="echo ran"))
    await chain.execute(call("bash", command="echo refused"))
    await chain.execute(call("nope"))
    ran, refused, unknown = rows(store)
    phases = [json.loads(str(r["phases"])) for r in (ran, refused, unknown)]
    assert list(phases[0]) == ["prepare", "decide", "wait", "checks", "execute", "output", "record"]
    assert list(phases[1]) == ["prepare", "decide", "wait", "output", "record"]  # not approved: never executed
    assert list(phases[2]) == ["output", "record"]  # an unknown tool: refused while being prepared
    for row, cut in zip((ran, refused, unknown), phases, strict=True):
        assert all(ms >= 0 for ms in cut.values())
        assert cut.get("wait", 0) == (row["waited_ms"] or 0) or abs(cut["wait"] - float(row["waited_ms"])) < 1e-3
        # The phases cut the same interval the duration measures (the audit gate's start and end marks, less the
        # wait), so they add up to it exactly but for each phase's rounding to a microsecond: no timing is asserted.
        spent = sum(ms for name, ms in cut.items() if name != "wait")
        assert math.isclose(spent, float(row["duration_ms"]), abs_tol=0.0005 * len(cut) + 1e-6)


async def test_a_blocked_tool_says_so_in_the_trust_level(tmp_path: Path, store: Store) -> None:
    chain = chain_for("", tmp_path, store, approver=AutoApprove())
    chain.session.permissions.trust.block("read", "most of its recent calls failed")
    await chain.execute(call("read", path="x"))
    [row] = rows(store)
    assert (row["status"], row["trust_level"], row["claim_source"]) == ("denied", "trusted; read blocked", "trust")


async def test_zeph_audits_full_frame_has_them(tmp_path: Path, store: Store) -> None:
    from zeph_nb.config import Settings
    from zeph_nb.notebook.views import recent_calls

    chain = chain_for("", tmp_path, store, approver=AutoApprove())
    await chain.execute(call("time"))
    settings = Settings().model_copy(update={"home": store.home})
    full = recent_calls(10, settings).full
    assert full[["trust_level", "claim_source"]].values.tolist() == [["trusted", "default"]]
    assert list(json.loads(full["phases"][0])) == ["prepare", "decide", "checks", "execute", "output", "record"]
    assert full["result_text"][0]
