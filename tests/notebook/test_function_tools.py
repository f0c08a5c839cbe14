"""Your functions as tools in a notebook: a real kernel (nbclient) where a cell's @zeph_nb.tool function is called
by a %%zeph cell's scripted model, and the magics on an InteractiveShell (--tools, redefinition, %zeph tools)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbclient
import nbformat
import pytest
from IPython.core.interactiveshell import InteractiveShell

import zeph_nb
from zeph_nb.notebook.magics import ZephMagics

ROOT = Path(__file__).resolve().parents[2]


def outputs(cell: Any) -> str:
    return "".join("".join(o.get("text", "")) for o in cell["outputs"])


def test_a_zeph_cell_calls_the_function_a_cell_defined_in_a_real_kernel(
    isolated_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The kernel is another process: it imports this checkout's zeph_nb and keeps its store in our zeph home.
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    cells = [
        "%load_ext zeph_nb\nimport zeph_nb\nnotes = []",
        "from typing import Annotated\nfrom pydantic import Field\n\n"
        '@zeph_nb.tool(mutates=True)\ndef record(note: Annotated[str, Field(description="what to note")]) -> str:\n'
        '    """Add a note to the notebook\'s list."""\n    notes.append(note)\n    return f"{len(notes)} notes"\n\n'
        'model = zeph_nb.ScriptedProvider([[{"tool": "record", "params": {"note": "hello"}}], "Noted."])',
        "%%zeph --provider model --approve auto\nnote hello",
        "result = await _\ncall = result.tool_calls[0]\n"
        "print(call.tool, call.status, call.text, call.approved_by, sep=' | ')\nprint('notes:', notes)\n"
        "print('answer:', result.text)",
        "%zeph tools",
    ]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    client = nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(Path.cwd())}})  # fmt: skip
    client.execute()
    seen = outputs(notebook.cells[3])
    assert "record | ok | 1 notes | AutoApprove" in seen, seen
    assert "notes: ['hello']" in seen and "answer: Noted." in seen  # the function changed the notebook's own list
    listing = outputs(notebook.cells[4])
    assert "record" in listing and "[your function __main__.record]" in listing, listing


@pytest.fixture
def shell(isolated_env: Path) -> Iterator[tuple[InteractiveShell, ZephMagics]]:
    ip = InteractiveShell.instance()
    magics = ZephMagics(ip)
    ip.register_magics(magics)
    yield ip, magics
    if magics.agent is not None:
        magics.agent.chain.store.close()


def run(ip: InteractiveShell, line: str) -> Any:
    return ip.run_cell_magic("zeph", f"--provider model {line}", "go")


def define(ip: InteractiveShell, source: str) -> None:
    result = ip.run_cell(source)
    assert result.success, result.error_in_exec


def test_every_function_is_offered_unless_tools_picks_and_a_redefinition_is_used_next_cell(
    shell: tuple[InteractiveShell, ZephMagics], capsys: pytest.CaptureFixture[str]
) -> None:
    ip, magics = shell
    define(ip, "import zeph_nb\n@zeph_nb.tool\ndef rate(city: str) -> float:\n    return 1.5\n"
               "@zeph_nb.tool\ndef unit() -> str:\n    return 'EUR'\n")  # fmt: skip
    # One model for every cell (a new one would be a new agent, and a new conversation).
    second_turn = [{"tool": "rate", "params": {"city": "Oslo", "year": 2020}}, {"tool": "unit", "params": {}}]
    ip.user_ns["model"] = zeph_nb.ScriptedProvider([[{"tool": "rate", "params": {"city": "Oslo"}}], "1.5",
                                                    second_turn, "2.5"])  # fmt: skip
    first = run(ip, "")
    assert [(o.tool, o.status, o.text) for o in first.tool_calls] == [("rate", "ok", "1.5")]
    conversation = magics.agent.conversation_id if magics.agent else None

    define(ip, "@zeph_nb.tool\ndef rate(city: str, year: int = 2024) -> float:\n    return 2.5\n")
    second = run(ip, "--tools rate")
    assert [(o.tool, o.status) for o in second.tool_calls] == [("rate", "ok"), ("unit", "error")]
    assert second.tool_calls[0].text == "2.5" and "unknown tool 'unit'" in second.tool_calls[1].text
    assert magics.agent is not None and magics.agent.conversation_id == conversation  # the conversation went on

    capsys.readouterr()
    assert run(ip, "--tools rate,nope") is None
    said = capsys.readouterr().out
    assert "%%zeph: --tools: no @zeph_nb.tool function is called 'nope'; registered: rate, unit" in said

    ip.run_line_magic("zeph", "tools")
    listing = capsys.readouterr().out
    assert "rate" in listing and "[your function __main__.rate]" in listing and "unit" in listing
