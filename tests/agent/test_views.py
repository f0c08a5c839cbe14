"""What a front-end may read from an agent without reaching into its chain: the tools it shows the model, the
ones hidden from it, the grants in force, the calls waiting for a person."""

from __future__ import annotations

from pathlib import Path

import pytest

from zeph_nb.agent import Agent, ScriptedProvider
from zeph_nb.config import Settings
from zeph_nb.store import Store

RULES = """
[gates.permissions]
web_search = [{pattern = "*", action = "deny"}]
bash = [{pattern = "git *", action = "allow"}, {pattern = "rm *", action = "ask"}]
"""


def test_describe_tools_shows_what_the_model_may_call_and_what_is_hidden(tmp_path: Path, store: Store) -> None:
    settings = Settings.from_toml(RULES).model_copy(update={"home": store.home})
    agent = Agent(settings, ScriptedProvider([]), workdir=tmp_path, store=store)
    agent.chain.session.permissions.grants.grant("bash", ("make test",), by="ann")  # as an Always allow click makes one
    view = agent.describe_tools()
    names = [tool.name for tool in view.visible]
    assert "web_search" in view.hidden and "web_search" not in names
    assert {"read", "bash", "read_overflow"} <= set(names)
    bash = next(tool for tool in view.visible if tool.name == "bash")
    assert bash.rules == 2 and "." not in bash.summary
    assert [(g.tool, g.pattern, g.granted_by) for g in view.grants] == [("bash", "make test", "ann")]
    assert agent.pending_approvals == [] and agent.store is store


def test_zeph_audit_shows_whole_seconds_whole_milliseconds_and_empty_cells(tmp_path: Path, store: Store) -> None:
    from zeph_nb.gates import AutoApprove
    from zeph_nb.notebook.views import recent_calls

    settings = Settings().model_copy(update={"home": store.home})
    turns = [[{"tool": "time", "params": {}}], [{"tool": "bash", "params": {"command": "echo hi"}}], "ok"]
    Agent(settings, ScriptedProvider(turns), AutoApprove(), tmp_path, store=store).run_sync("go")
    shown = recent_calls(10, settings)
    assert list(shown["tool"]) == ["bash", "time"]  # newest first
    assert (shown["ts"].dt.microsecond == 0).all()
    assert str(shown["duration_ms"].dtype) == "Int64" and str(shown["exit_code"].dtype) == "Int64"
    assert shown["exit_code"].tolist()[0] == 0 and shown["exit_code"].isna().tolist()[1]
    assert shown["approved_by"].tolist() == ["", ""]  # allowed by the rules: nobody approved, and it says nothing
    assert "None" not in shown.to_string() and "NaN" not in shown.to_string()
    # The shell call's filter, the time call's none: the filter ran on `echo hi` and understood nothing to cut.
    assert shown["filter"].tolist() == ["no rule, fallback", ""] and shown["tokens_saved"].tolist()[0] == 0


def test_zeph_tools_lines_up_the_summaries_however_long_the_names(capsys: pytest.CaptureFixture[str]) -> None:
    from zeph_nb.gates.chain import ToolInfo, ToolsView
    from zeph_nb.notebook.views import print_tools

    names = ["read", "mcp_work_repo_create_pull_request", "grep"]  # MCP names outgrew a fixed 17-character column
    print_tools(ToolsView(tuple(ToolInfo(n, f"what {n} does", 0) for n in names), (), ()), {})
    lines = capsys.readouterr().out.splitlines()[1:]
    assert len({line.index("what ") for line in lines}) == 1, lines


def test_zeph_audit_in_a_notebook_folds_escapes_and_names_the_rule(tmp_path: Path, store: Store) -> None:
    from zeph_nb.gates import ScriptedApprover
    from zeph_nb.notebook.views import recent_calls

    settings = Settings.from_toml('[gates.permissions]\nbash = [{pattern = "echo *", action = "ask"}]\n')
    settings = settings.model_copy(update={"home": store.home})
    hostile = "echo '<img src=x onerror=alert(1)>' " + "and-more " * 10
    turns = [[{"tool": "bash", "params": {"command": hostile}}], [{"tool": "bash", "params": {"command": hostile}}],
             [{"tool": "time", "params": {}}], "ok"]  # fmt: skip
    Agent(settings, ScriptedProvider(turns), ScriptedApprover(["always"]), tmp_path, store=store).run_sync("go")
    shown = recent_calls(10, settings)
    assert shown["rule"].tolist()[:2] == ["default (trust level trusted)", shown["rule"][1]]
    assert shown["rule"][1].startswith('Always allow "echo <img') and shown["rule"][2].startswith("gates.perm")
    assert {"params", "reason", "matched_rule"} <= set(shown.full.columns) and len(shown.full) == 3
    page = shown._repr_html_()
    assert "<img" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page  # escaped, tooltips included
    assert "<NA>" not in page and "NaN" not in page and "None" not in page
    assert "…</td>" in page  # the long command is folded, whole in its title
    text = repr(shown)
    assert "<NA>" not in text and "NaN" not in text
