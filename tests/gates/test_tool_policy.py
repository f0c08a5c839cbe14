"""The declarative tool policy ([gates.policy]) and the utility gate ([gates.utility]) in the real gate chain:
real files, real commands, a real store."""

from __future__ import annotations

from pathlib import Path

import pytest

from zeph_nb.config import Settings
from zeph_nb.errors import ConfigError, ToolErrorCategory
from zeph_nb.gates import AutoApprove, ScriptedApprover, build_chain
from zeph_nb.gates.chain import GateChain
from zeph_nb.store import Store
from zeph_nb.tools.base import ToolCall


def chain_for(toml: str, workdir: Path, store: Store, approver: object = None) -> GateChain:
    settings = Settings.from_toml(toml).model_copy(update={"home": store.home})
    return build_chain(settings, workdir=workdir, store=store, approver=approver or AutoApprove())  # type: ignore[arg-type]


def call(tool: str, **params: object) -> ToolCall:
    return ToolCall(tool, params)


POLICY = """
[gates.policy]
enabled = true
default_effect = "{default}"

[[gates.policy.rules]]
effect = "allow"
tool = "*"
paths = ["{work}/**"]

[[gates.policy.rules]]
effect = "deny"
tool = "shell"
paths = ["{work}/secret/**"]
"""


async def test_a_deny_wins_whatever_the_order_and_the_model_is_not_told_which_rule(
    tmp_path: Path, store: Store
) -> None:
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "key").write_text("k")
    chain = chain_for(POLICY.format(default="deny", work=tmp_path), tmp_path, store)
    # "shell" names bash: the reference's examples write it so, and a deny must not miss the tool it meant.
    refused = await chain.execute(call("bash", command=f"rm {tmp_path}/secret/../secret/key"))
    assert refused.status == "denied" and refused.blocked_by == "gates.policy"
    assert (tmp_path / "secret" / "key").exists()
    assert "gates.policy.rules[1]" in (refused.reason or "") and "rules[1]" not in refused.text  # audit, not model
    ran = await chain.execute(call("bash", command="touch made.txt"))  # relative: inside the allowed tree
    assert ran.status == "ok" and (tmp_path / "made.txt").exists()
    outside = await chain.execute(call("bash", command="cp made.txt /tmp/zeph-policy-copy"))  # allow needs every path
    assert outside.status == "denied" and "default_effect" in (outside.reason or "")


async def test_a_policy_deny_is_final_over_an_authorization_allow_and_a_person(tmp_path: Path, store: Store) -> None:
    toml = (
        POLICY.format(default="deny", work=tmp_path)
        + """
[gates.authorization]
enabled = true
rules = [{tool = "bash", effect = "allow"}]
"""
    )
    (tmp_path / "secret").mkdir()
    approver = ScriptedApprover(["approve"])
    chain = chain_for(toml, tmp_path, store, approver)
    refused = await chain.execute(call("bash", command="touch secret/new"))
    assert refused.status == "denied" and not (tmp_path / "secret" / "new").exists() and approver.requests == []


async def test_tools_the_policy_always_refuses_are_not_offered(tmp_path: Path, store: Store) -> None:
    toml = """
[gates.policy]
enabled = true
default_effect = "deny"
rules = [{effect = "allow", tool = "read"}, {effect = "allow", tool = "bash"}, {effect = "deny", tool = "bash"}]
"""
    chain = chain_for(toml, tmp_path, store)
    offered = {tool.name for tool in chain.tool_definitions()}
    assert "read" in offered and "bash" not in offered and "write" not in offered
    refused = await chain.execute(call("write", path="w.txt", content="x"))
    assert refused.status == "denied" and not (tmp_path / "w.txt").exists()
    off = chain_for(toml.replace("enabled = true", "enabled = false"), tmp_path, store)
    assert "write" in {tool.name for tool in off.tool_definitions()}  # off: the rules mean nothing


async def test_the_policy_file_replaces_the_inline_rules_and_is_found_beside_the_config(
    tmp_path: Path, store: Store
) -> None:
    config = tmp_path / "conf" / "zeph.toml"
    config.parent.mkdir()
    (config.parent / "policy.toml").write_text('[[rules]]\neffect = "allow"\ntool = "read"\n')
    toml = '[gates.policy]\nenabled = true\npolicy_file = "policy.toml"\n' \
           'rules = [{effect = "allow", tool = "write"}]\n'  # fmt: skip
    config.write_text(toml)
    settings = Settings.load(config, env={"ZEPH_HOME": str(store.home)})
    assert [(r.effect, r.tool) for r in settings.gates.policy.rules] == [("allow", "read")]
    chain = build_chain(settings, workdir=tmp_path, store=store, approver=AutoApprove())
    assert (await chain.execute(call("write", path="w.txt", content="x"))).status == "denied"
    with pytest.raises(ConfigError, match=r"policy_file 'missing\.toml' cannot be read"):
        Settings.from_toml('[gates.policy]\npolicy_file = "missing.toml"\n')
    (tmp_path / "bad.toml").write_text("[[rules]]\neffect = 'maybe'\ntool = 'x'\n")
    with pytest.raises(ConfigError, match=r"gates\.policy\.rules\[0\]\.effect"):
        Settings.from_toml(f'[gates.policy]\npolicy_file = "{tmp_path / "bad.toml"}"\n')


# -- what a path rule holds against for the typed tools (an injected model walking around the rule) ----------

WALK = """
[gates.policy]
enabled = true
default_effect = "allow"

[[gates.policy.rules]]
effect = "deny"
tool = "{tool}"
paths = ["data/secret/**", "**/.env"]
"""


def _tree(root: Path) -> None:
    (root / "data" / "secret").mkdir(parents=True)
    (root / "data" / "secret" / "key").write_text("TOPSECRET key")
    (root / "data" / "open.txt").write_text("TOPSECRET is a word here")
    (root / ".env").write_text("TOPSECRET=1")


async def test_a_denied_read_holds_when_a_tool_walks_the_folder_above_it(tmp_path: Path, store: Store) -> None:
    _tree(tmp_path)
    chain = chain_for(WALK.format(tool="*"), tmp_path, store)
    searched = await chain.execute(call("grep", pattern="TOPSECRET"))  # the whole workdir: the rule names none of it
    assert searched.status == "ok" and "open.txt" in searched.text  # the rest is still searched
    assert "key" not in searched.text and ".env" not in searched.text
    found = await chain.execute(call("find_path", pattern="**/*"))
    assert "open.txt" in found.text and "secret/key" not in found.text and ".env" not in found.text
    listed = await chain.execute(call("list_directory", path="data/secret"))  # the folder is not under its **
    assert "key" not in listed.text and "entries not shown" in listed.text
    for tool, params in [("copy_path", {"source": "data", "destination": "copy"}),
                         ("move_path", {"source": "data", "destination": "moved"}),
                         ("delete_path", {"path": "data"})]:  # fmt: skip
        refused = await chain.execute(call(tool, **params))
        assert refused.status in ("denied", "error") and refused.category is not None, tool
        assert (tmp_path / "data" / "secret" / "key").exists() and not (tmp_path / "copy").exists()


async def test_a_deny_of_a_writing_tool_holds_for_the_folder_above_what_it_names(tmp_path: Path, store: Store) -> None:
    _tree(tmp_path)
    chain = chain_for(WALK.format(tool="delete_path"), tmp_path, store)
    refused = await chain.execute(call("delete_path", path="data"))
    assert refused.status == "denied" and refused.blocked_by == "gates.policy" and (tmp_path / "data").is_dir()
    assert "gates.policy.rules[0]" in (refused.reason or "")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "x").write_text("x")
    assert (await chain.execute(call("delete_path", path="other"))).status == "ok"  # nothing denied inside
    assert (await chain.execute(call("grep", pattern="TOPSECRET"))).status == "ok"  # the rule is delete_path's


async def test_a_rule_naming_a_folder_reached_through_a_link_holds_at_the_canonical_path(
    tmp_path: Path, store: Store
) -> None:
    work, real = tmp_path / "work", tmp_path / "real"
    (real / "private").mkdir(parents=True)
    (real / "private" / "key").write_text("TOPSECRET")
    work.mkdir()
    (work / "notes").symlink_to(real)  # the rule is written for the link's name; the file tools see the target
    toml = f'[tools.file]\nallowed_paths = ["{tmp_path}"]\n' + WALK.format(tool="read").replace(
        '"data/secret/**"', f'"{work}/notes/private/**"'
    )
    chain = chain_for(toml, work, store)
    for path in ("notes/private/key", f"{real}/private/key"):
        refused = await chain.execute(call("read", path=path))
        assert refused.status in ("denied", "error") and "TOPSECRET" not in refused.text, path


UTILITY = """
[gates.utility]
enabled = true
threshold = {threshold}
exempt_tools = ["time"]
mode = "warn"
"""


async def test_a_call_scoring_under_the_threshold_is_skipped_saying_why_and_what_to_do(
    tmp_path: Path, store: Store
) -> None:
    """The seed's utility gate: a call under the threshold does not run (and nobody is asked about it); the model
    reads why and what to do instead. The threshold defaults to 0.0, under which nothing scores without a repeat."""
    from zeph_nb.config.policy import UtilitySettings

    assert (UtilitySettings().threshold, UtilitySettings().mode) == (0.0, "skip")
    (tmp_path / "a.txt").write_text("alpha")
    approver = ScriptedApprover(["approve"])
    toml = UTILITY.format(threshold=0.6).replace('mode = "warn"', "")
    chain = chain_for(toml + '[gates.permissions]\nread = [{pattern = "*", action = "ask"}]\n', tmp_path, store,
                      approver)  # fmt: skip
    chain.start_run()
    first = await chain.execute(call("read", path="a.txt"))  # 0.75: runs
    again = await chain.execute(call("read", path="a.txt"))  # 0.43, a repeat: skipped
    assert first.status == "ok" and "alpha" in first.text
    assert again.status == "denied" and again.category == ToolErrorCategory.POLICY_BLOCKED, again.text
    assert "alpha" not in again.text and "utility 0.43 is under 0.6" in again.text and "did not run" in again.text
    assert "repeats a call" in again.text and "answer with what you have" in again.text.lower()
    assert len(approver.requests) == 1  # the skipped call was never put to the person
    store.flush()
    reasons = list(store.query("SELECT reason FROM tool_calls ORDER BY ts")["reason"])
    assert "utility 0.43" in str(reasons[-1]), reasons
    # Defaults (threshold 0.0): the same repeat scores 0.43 and runs.
    plain = chain_for("[gates.utility]\nenabled = true\n", tmp_path, store)
    plain.start_run()
    assert all([(await plain.execute(call("read", path="a.txt"))).status == "ok" for _ in range(3)])


async def test_a_low_utility_call_runs_with_a_warning_the_model_the_card_and_the_log_see(
    tmp_path: Path, store: Store
) -> None:
    (tmp_path / "a.txt").write_text("alpha")
    approver = ScriptedApprover(["approve", "approve"])
    # threshold 0.6: a first read scores 0.55 + 0.2 = 0.75 (runs quietly); the same read again, after it, scores
    # 0.55 - 0.3 + 0.2 * 0.9 = 0.43: a warning, and it still runs.
    chain = chain_for(UTILITY.format(threshold=0.6) + '[gates.permissions]\nread = [{pattern = "*", action = "ask"}]\n',
                      tmp_path, store, approver)  # fmt: skip
    chain.start_run()
    first = await chain.execute(call("read", path="a.txt"))
    again = await chain.execute(call("read", path="a.txt"))
    assert first.status == "ok" and "[utility warning]" not in first.text
    assert again.status == "ok" and "alpha" in again.text
    assert "[utility warning] utility 0.43 is under 0.6" in again.text and "repeats a call" in again.text
    assert "utility 0.43" in (again.reason or "") and any("utility 0.43" in e for e in approver.requests[1].extras)
    assert (await chain.execute(call("time"))).text.count("utility") == 0  # exempt
    chain.start_run()  # a new run: nothing is a repeat any more
    assert "[utility warning]" not in (await chain.execute(call("read", path="a.txt"))).text


# Each weight of score = gain_weight * gain - cost_weight * cost - redundancy_weight * repeat + uncertainty_bonus
# * exploration, moved from its default: the same calls that run quietly with the defaults are warned about, with
# the score the formula gives. The calls read a.txt (gain 0.55); "again" reads it twice, the second is judged.
@pytest.mark.parametrize(
    ("key", "value", "threshold", "context", "again", "score"),
    [
        ("gain_weight", 0.4, 0.5, 0.0, False, "0.42"),  # 0.4 * 0.55 + 0.2 (default 1.0: 0.75)
        ("cost_weight", 1.0, 0.45, 0.5, False, "0.25"),  # 0.55 - 1.0 * 0.5 + 0.2 (default 0.5: 0.50)
        ("redundancy_weight", 0.5, 0.4, 0.0, True, "0.23"),  # 0.55 - 0.5 + 0.2 * 0.9 (default 0.3: 0.43)
        ("uncertainty_bonus", 0.0, 0.6, 0.0, False, "0.55"),  # 0.55 + 0.0 * 1 (default 0.2: 0.75)
    ],
)  # fmt: skip
async def test_each_utility_weight_moves_the_score_as_the_formula_says(
    tmp_path: Path, store: Store, key: str, value: float, threshold: float, context: float, again: bool, score: str
) -> None:
    (tmp_path / "a.txt").write_text("alpha")

    async def judged(toml: str) -> str:
        chain = chain_for(toml, tmp_path, store)
        chain.start_run()
        chain.note_context(context)
        if again:
            await chain.execute(call("read", path="a.txt"))
        out = await chain.execute(call("read", path="a.txt"))
        assert out.status == "ok" and "alpha" in out.text  # a low score warns, never refuses
        return out.text

    assert "[utility warning]" not in await judged(UTILITY.format(threshold=threshold))
    warned = await judged(UTILITY.format(threshold=threshold) + f"{key} = {value}\n")
    assert f"[utility warning] utility {score} is under {threshold:g}" in warned


async def test_the_context_used_lowers_the_score(tmp_path: Path, store: Store) -> None:
    chain = chain_for(UTILITY.format(threshold=0.3), tmp_path, store)
    chain.start_run()
    assert "[utility warning]" not in (await chain.execute(call("list_directory", path="."))).text
    chain.note_context(0.9)  # 0.65 - 0.45 + 0.18 = 0.38: still fine; repeated: 0.65 - 0.45 - 0.3 + 0.16 = 0.06
    assert "[utility warning]" not in (await chain.execute(call("grep", pattern="x"))).text
    warned = await chain.execute(call("grep", pattern="x"))
    assert "uses 90% of the context budget" in warned.text and warned.status == "ok"
    off = chain_for(UTILITY.format(threshold=0.3).replace("enabled = true", "enabled = false"), tmp_path, store)
    off.start_run()
    off.note_context(1.0)
    for _ in range(3):
        assert "[utility warning]" not in (await off.execute(call("grep", pattern="x"))).text
