"""A configuration written in the reference agent's shape (tests/data/reference_config.toml: its key names and
values) loads through ``Settings.from_toml`` as written, every key it names comes from the reference or a seed, every
key the reference or a seed names is in it, and its keys take effect in a real agent: the tool policy (from its
policy file), parameter reformatting by a named provider on loopback, hallucination warnings, the tools turned off,
the filter families and the user's filter rules, the status lines."""

from __future__ import annotations

import json
import tomllib
import uuid
import warnings
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from fake_model_servers import completion, serve

import zeph_nb
from zeph_nb.config import Settings
from zeph_nb.config.legacy import migrate_data
from zeph_nb.config.provenance import OWN, source_of
from zeph_nb.errors import ConfigError
from zeph_nb.store import Store

DATA = Path(__file__).parent.parent / "data" / "reference_config.toml"
PLACEHOLDER = "http://127.0.0.1:9/v1"


FILTERS = 'filters_path = "reference_filters.toml"'


def text(helper_url: str = PLACEHOLDER, **swap: str) -> str:
    # A relative filters_path is read from the working directory (policy_file: beside the config file).
    written = DATA.read_text().replace(PLACEHOLDER, helper_url)
    written = written.replace(FILTERS, f'filters_path = "{DATA.parent / "reference_filters.toml"}"')
    for old, new in swap.items():
        written = written.replace(old, new)
    return written


def load(helper_url: str = PLACEHOLDER, **swap: str) -> Settings:
    with warnings.catch_warnings():  # the file is in the reference's layout: [tools.retry] is [gates.retry] here
        warnings.simplefilter("ignore", DeprecationWarning)
        return Settings.from_toml(text(helper_url, **swap), source=str(DATA))


def written_keys() -> dict[str, Any]:
    """The file's keys, dotted, where zeph-nb reads them (legacy.py moves the reference's [tools.*] tables)."""
    data = tomllib.loads(text())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        migrate_data(data, str(DATA))
    return dict(flat(data))


def flat(data: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, Mapping) and dotted != "gates.permissions":
            yield from flat(value, dotted + ".")
        else:
            yield dotted, value


def same(written: Any, held: Any) -> bool:
    """What the file says is what the settings hold (a table of an array may hold defaults besides)."""
    if written == "":
        return held is None  # the reference writes "" for "unset"
    if isinstance(written, list) and written and isinstance(written[0], Mapping):
        return len(written) == len(held) and all(w.items() <= h.items() for w, h in zip(written, held, strict=True))
    return bool(written == held)


def test_every_key_of_the_reference_shaped_file_is_accepted_as_written_and_comes_from_the_reference() -> None:
    from zeph_nb.config import leaf_fields

    written = written_keys()
    held = {key: value for key, (value, _) in load().describe().items()}
    # Every key the reference or a seed names (provenance.py says which) is in the file: a table of tables
    # (gates.dependencies.rules) by one of its entries.
    named = [key for key, _ in leaf_fields() if source_of(key) != OWN]
    assert [key for key in named if not any(w == key or w.startswith(key + ".") for w in written)] == []
    assert len(named) > 100
    wrong = {
        key: (value, held.get(key, "<missing>")) for key, value in written.items() if not same(value, held.get(key))
    }
    assert wrong == {}
    assert [key for key in written if source_of(key) == OWN] == []  # all of them are the reference's or a seed's
    assert load().gates.anomaly.blocking_threshold == 0.7  # failure_threshold (book) wins over critical_threshold
    # The policy rules came from policy_file (beside the data file); naming a file that is not there is an error.
    with pytest.raises(ConfigError, match=r"policy_file 'missing\.toml' cannot be read"):
        load(**{'policy_file = "reference_policy.toml"': 'policy_file = "missing.toml"'})


def test_every_source_entry_still_names_a_key() -> None:
    from zeph_nb.config import leaf_fields
    from zeph_nb.config.provenance import SOURCES

    keys = [dotted for dotted, _ in leaf_fields()]
    assert [entry for entry in SOURCES if not any(k == entry or k.startswith(entry + ".") for k in keys)] == []


@pytest.fixture
def outside_file() -> Iterator[Path]:
    # The policy allows paths matching /tmp/*: a file right under /tmp (the call only has to get past the gates).
    path = Path("/tmp") / f"zeph-reference-{uuid.uuid4().hex[:8]}.txt"
    path.write_text("x")
    yield path
    path.unlink(missing_ok=True)


def test_the_reference_shaped_file_takes_effect_in_a_real_agent(
    tmp_path: Path, store: Store, outside_file: Path
) -> None:
    fixed = completion(f'{{"arguments": {{"command": "cat {outside_file}"}}}}')
    with serve([fixed]) as server:
        settings = load(server.url + "/v1").model_copy(update={"home": store.home})
        turns = [[{"tool": "bash", "params": {"command": "cat /etc/hostname"}}],
                 [{"tool": "bash", "params": {"cmd": "show the file"}}],
                 "I ran `pytest -q` and everything passed."]  # fmt: skip
        model = zeph_nb.ScriptedProvider(turns)
        agent = zeph_nb.Agent(settings, model, zeph_nb.AutoApprove(), tmp_path, store=store)
        tools = agent.describe_tools()
        offered = {tool.name for tool in tools.visible}
        result = agent.run_sync("look around")
    assert model.requests[0].system.startswith("You are Zeph, an agent")  # [agent] name
    # [audit] destination: every audit row copied as a JSON line, in the zeph home (a relative path).
    copied = [json.loads(line) for line in (store.home / "audit.jsonl").read_text().splitlines()]
    rows = store.query("SELECT call_id, status FROM tool_calls ORDER BY seq")
    in_store = list(zip(rows["call_id"], rows["status"], strict=True))
    assert [(row["call_id"], row["status"]) for row in copied] == in_store
    assert len(copied) == 3 and copied[1]["params"] == '{"cmd": "show the file"}'  # the malformed call is a row too
    # [gates.policy] default_effect = "deny" with rules only for "shell" (bash): nothing else is offered.
    assert offered == {"bash"}
    # [tools] fetch_enabled … time_enabled = false: those tools are gone, not hidden; file_enabled = true: read is
    # there, and the policy hides it.
    turned_off = {"fetch", "web_scrape", "web_search", "diagnostics", "time"}
    assert "read" in tools.hidden and turned_off.isdisjoint({*tools.hidden, *offered})
    refused, reformatted = result.tool_calls
    assert refused.status == "denied" and refused.blocked_by == "gates.policy"  # deny /etc/*
    assert "gates.policy.rules[0]" in (refused.reason or "")
    # {"cmd": …} is not bash's schema: the "fast" provider rewrote it, and the rewrite passed the policy (allow
    # /tmp/*), the permission rules (no match: it asked, and was approved) and ran.
    assert reformatted.call.params == {"command": f"cat {outside_file}"} and reformatted.attempts == 1
    assert reformatted.blocked_by is None and reformatted.approved_by is not None
    assert '"cmd": "show the file"' in str(server.bodies[0]["messages"])
    assert result.warnings == ["the reply says it ran `pytest -q`, but no tool call in this conversation did"]


def test_the_filter_families_and_the_status_lines_follow_the_file() -> None:
    from zeph_nb.filters import filter_output
    from zeph_nb.notebook.views import describe_checks

    build = "   Compiling demo v0.1.0 (/src/demo)\n" * 30 + "    Finished `dev` profile in 1.2s\n"
    assert filter_output("cargo build", build, 0, load()).rule != "cargo-build"  # cargo_build.enabled = false
    on = load(**{"[tools.filters.cargo_build]\nenabled = false": "[tools.filters.cargo_build]\nenabled = true"})
    assert filter_output("cargo build", build, 0, on).rule == "cargo-build"
    deploy = "uploading 1/3\nuploading 2/3\nuploading 3/3\ndeployed v42 to prod\n"
    mine = filter_output("./deploy.sh prod", deploy, 0, load())  # the rule in filters_path's file
    assert (mine.rule, mine.text) == ("deploy-script", "deployed v42 to prod")
    lines = describe_checks(load())
    assert "tool policy:  2 rules from reference_policy.toml, default deny" in lines
    assert "utility:      skips under 0.1 (exempt: invoke_skill, load_skill)" in lines
    assert "helpers:      reformats parameters with fast; checks replies for hallucinations" in lines
