"""A new tool is one file and one registration: its spec's traits are all the gates, the card, the output filter,
undo and the audit need. Nothing else is edited, and nothing looks the tool up by name.

The tool is written as a real module file in a temp folder and imported from there, the way a plugin or a person's
own module is; a real Agent (scripted model), real files and a real DuckDB store do the rest.
"""

from __future__ import annotations

import importlib.util
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import zeph_nb
from zeph_nb.config import Settings
from zeph_nb.errors import ConfigError
from zeph_nb.gates.approval import ApprovalRequest
from zeph_nb.store import Store
from zeph_nb.undo.runs import prepare_undo

# The one file: the spec (arguments and traits) and the executor that runs it.
STAMP_MODULE = """
from pathlib import Path

from pydantic import Field

from zeph_nb.tools import SingleToolExecutor, Tool, ToolArgs, ToolOutput


class StampArgs(ToolArgs):
    path: str = Field(min_length=1, description="the file to stamp")
    text: str = Field(description="the line to append")


STAMP = Tool(
    "stamp",
    "Append a line to a file and print the file's lines.",
    StampArgs,
    subject=("path",),
    subject_kind="path",
    mutates=True,
    writes=("path",),
    filtered=True,
    verb="This will stamp:",
    explain=lambda subjects: f"it appends a line to {subjects[0]}",
    utility=0.7,
)


class StampExecutor(SingleToolExecutor):
    tool = STAMP

    def __init__(self, workdir):
        self.workdir = Path(workdir)

    def requires_confirmation(self, call):
        return True  # it changes a file: asks, like write

    async def run(self, args, call):
        target = self.workdir / args.path
        with target.open("a") as handle:
            handle.write(args.text + "\\n")
        lines = target.read_text().splitlines()
        # Long and repetitive: what the output filters exist for.
        printed = "\\n".join(f"stamped line {n}: ok" for n in range(400)) + "\\n" + "\\n".join(lines) + "\\n"
        return ToolOutput("stamp", printed, raw={"lines": len(lines)}, call_id=call.call_id)
"""


@pytest.fixture
def stamp_module(tmp_path: Path) -> Iterator[ModuleType]:
    path = tmp_path / "plugin" / "stamp_tool.py"
    path.parent.mkdir()
    path.write_text(textwrap.dedent(STAMP_MODULE))
    spec = importlib.util.spec_from_file_location("stamp_tool", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["stamp_tool"] = module
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("stamp_tool", None)


class Recorder:
    """Approves every call and keeps what it was asked."""

    def __init__(self) -> None:
        self.requests: list[ApprovalRequest] = []

    async def decide(self, request: ApprovalRequest) -> zeph_nb.ApprovalDecision:
        self.requests.append(request)
        return zeph_nb.ApprovalDecision.approve("tester")


def test_a_new_tool_is_carded_filtered_undone_and_audited(stamp_module: ModuleType, tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (work / "log.txt").write_text("first\n")
    settings = Settings().model_copy(update={"home": tmp_path / "home"})
    store = Store(settings, flusher=False)
    recorder = Recorder()
    provider = zeph_nb.ScriptedProvider([[{"tool": "stamp", "params": {"path": "log.txt", "text": "second"}}], "ok"])
    agent = zeph_nb.Agent(settings, provider, recorder, workdir=work, store=store,
                          tools=[stamp_module.StampExecutor(work)])  # fmt: skip  # the one registration
    result = agent.run_sync("stamp the log")
    (call,) = result.tool_calls
    assert call.status == "ok", call.text
    assert (work / "log.txt").read_text() == "first\nsecond\n"

    # Carded: the approval card says the tool's own verb and explanation.
    (request,) = recorder.requests
    assert request.verb == "This will stamp:"
    assert request.why == f"It appends a line to {work / 'log.txt'}."
    from zeph_nb.notebook.cards import ToolCard

    card = ToolCard(request.tool, request.params)
    card.ask(request, lambda choice: None)
    shown = card.ask_box.children[0].value
    assert "This will stamp:" in shown and "It appends a line to" in shown

    # Filtered: the 400 repeated lines reached the model folded, not whole.
    assert call.filter_confidence is not None and call.tokens_saved > 0
    assert call.model_chars < call.raw_chars / 4

    # Audited: one row, with the tool's name and the person who approved it.
    store.flush()
    rows = store.query("SELECT tool, approved_by FROM tool_calls")
    assert list(rows["tool"]) == ["stamp"] and list(rows["approved_by"]) == ["tester"]

    # Undone: the file it wrote is restored by %zeph undo's plan.
    undo = prepare_undo(store, result.run_id)
    undo.apply(store, by="tester")
    assert (work / "log.txt").read_text() == "first\n"
    store.close()


def test_two_tools_of_one_name_are_refused_when_registered(stamp_module: ModuleType, tmp_path: Path) -> None:
    settings = Settings().model_copy(update={"home": tmp_path / "home"})
    twice = [stamp_module.StampExecutor(tmp_path), stamp_module.StampExecutor(tmp_path)]
    with pytest.raises(ConfigError, match="two toolsets define a tool named 'stamp'"):
        zeph_nb.Agent(settings, zeph_nb.ScriptedProvider(["ok"]), workdir=tmp_path, tools=twice)


def test_a_spec_that_names_what_it_writes_must_change_things(stamp_module: ModuleType) -> None:
    with pytest.raises(ValueError, match="changes things"):
        zeph_nb.tools.Tool("bad", "writes without mutating", stamp_module.StampArgs, writes=("path",))
    with pytest.raises(ValueError, match="not parameters"):
        zeph_nb.tools.Tool("bad", "writes a parameter it lacks", stamp_module.StampArgs, mutates=True,
                           writes=("nowhere",))  # fmt: skip
