"""One way to add tools: Agent(tools=[...]) adds to the built-ins, and an installed package adds its own through
the zeph_nb.tools entry-point group — a real distribution on sys.path, found by importlib.metadata."""

from __future__ import annotations

import importlib
import os
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from zeph_nb.agent import Agent, ScriptedProvider
from zeph_nb.config import Settings
from zeph_nb.errors import ConfigError
from zeph_nb.gates import AutoApprove
from zeph_nb.store import Store
from zeph_nb.tools.base import SingleToolExecutor, ToolArgs, ToolCall, ToolDef, ToolOutput
from zeph_nb.tools.builtin import builtin_executor
from zeph_nb.tools.toolsets import STARTED


class ShoutArgs(ToolArgs):
    text: str


class Shout(SingleToolExecutor):
    tool = ToolDef("shout", "Say it loudly.", ShoutArgs)

    async def run(self, args: ShoutArgs, call: ToolCall) -> ToolOutput:
        return ToolOutput("shout", args.text.upper())


def settings_for(store: Store, toml: str = "") -> Settings:
    return Settings.from_toml(toml).model_copy(update={"home": store.home})


def names(agent: Agent) -> list[str]:
    return [tool.name for tool in agent.describe_tools().visible]


async def test_tools_are_added_to_the_built_ins_and_reach_the_model(tmp_path: Path, store: Store) -> None:
    turns = [[{"tool": "shout", "params": {"text": "hi"}}], "Done."]
    agent = Agent(settings_for(store), ScriptedProvider(turns), AutoApprove(), tmp_path, store=store, tools=[Shout()])
    assert {"read", "bash", "read_overflow", "shout"} <= set(names(agent))
    result = await agent.run("shout")
    assert [(o.tool, o.status, o.output.summary) for o in result.tool_calls] == [("shout", "ok", "HI")]


def test_an_executor_replaces_the_built_ins_but_keeps_read_overflow(tmp_path: Path, store: Store) -> None:
    # read_overflow used to vanish with a custom executor, while the pipeline still cut outputs to overflow ids.
    agent = Agent(settings_for(store), ScriptedProvider([]), workdir=tmp_path, store=store, executor=Shout())
    assert names(agent) == ["shout", "read_overflow"]


def test_a_tool_name_defined_twice_is_a_clear_error(tmp_path: Path, store: Store) -> None:
    class Read(Shout):
        tool = ToolDef("read", "Not the file tool.", ShoutArgs)

    with pytest.raises(ConfigError, match="two toolsets define a tool named 'read'"):
        Agent(settings_for(store), ScriptedProvider([]), workdir=tmp_path, store=store, tools=[Read()])


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A distribution 'zeph-echo-tools' on sys.path with two zeph_nb.tools entry points: one good, one broken."""
    site = tmp_path / "site"
    (site / "zeph_echo_tools-1.0.dist-info").mkdir(parents=True)
    (site / "zeph_echo_tools-1.0.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: zeph-echo-tools\n"
                                                                    "Version: 1.0\n")  # fmt: skip
    (site / "zeph_echo_tools-1.0.dist-info" / "entry_points.txt").write_text(
        "[zeph_nb.tools]\necho = zeph_echo_tools:toolset\nbroken = zeph_echo_tools:missing\n"
    )
    (site / "zeph_echo_tools.py").write_text(
        textwrap.dedent("""
        from zeph_nb.tools.base import SingleToolExecutor, ToolArgs, ToolDef, ToolOutput

        class EchoArgs(ToolArgs):
            text: str

        class Echo(SingleToolExecutor):
            tool = ToolDef("echo_plugin", "Say it back.", EchoArgs)

            def __init__(self, workdir):
                self.workdir = workdir

            async def run(self, args, call):
                return ToolOutput("echo_plugin", f"{args.text} from {self.workdir}")

        def toolset(settings, workdir):
            return Echo(workdir)
    """)
    )
    # Installed before this process started, as a package the person installed would be.
    os.utime(site / "zeph_echo_tools-1.0.dist-info", (STARTED - 60, STARTED - 60))
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    yield site
    sys.modules.pop("zeph_echo_tools", None)


async def test_an_installed_package_adds_its_tools_and_a_broken_one_is_left_out_with_a_warning(
    installed: Path, tmp_path: Path, store: Store
) -> None:
    turns = [[{"tool": "echo_plugin", "params": {"text": "hello"}}], "Done."]
    with pytest.warns(UserWarning, match=r"entry point broken = zeph_echo_tools:missing \(from zeph-echo-tools\)"):
        agent = Agent(settings_for(store), ScriptedProvider(turns), AutoApprove(), tmp_path, store=store)
    assert "echo_plugin" in names(agent)
    result = await agent.run("echo")
    assert result.tool_calls[0].output.summary == f"hello from {tmp_path}"
    off = Agent(settings_for(store, "[tools]\nentry_points = false\n"), ScriptedProvider([]), workdir=tmp_path,
                store=store)  # fmt: skip
    assert "echo_plugin" not in names(off)
    assert "echo_plugin" not in [t.name for t in builtin_executor(Settings()).tool_definitions()]


def test_a_package_installed_while_the_kernel_runs_waits_for_a_restart(
    installed: Path, tmp_path: Path, store: Store
) -> None:
    # What an agent's approved `pip install` would leave: its code is not loaded into this kernel.
    os.utime(installed / "zeph_echo_tools-1.0.dist-info")  # now: after this process started
    with pytest.warns(UserWarning, match="installed after this kernel started and is not loaded; restart"):
        agent = Agent(settings_for(store), ScriptedProvider([]), workdir=tmp_path, store=store)
    assert "echo_plugin" not in names(agent) and "zeph_echo_tools" not in sys.modules
