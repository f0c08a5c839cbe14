"""``%zeph undo`` in a real kernel: nbclient runs a notebook whose ``%%zeph`` cell (the scripted model, every ask
approved) edits one file and creates another, then ``%zeph undo --yes`` puts the edited one back and deletes the
created one; a second ``%zeph undo`` finds nothing left to do."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import nbclient
import nbformat
import pytest

ROOT = Path(__file__).parent.parent.parent

TURNS = [
    [{"tool": "edit", "params": {"path": "notes.txt", "old_string": "before", "new_string": "after"}}],
    [{"tool": "write", "params": {"path": "created.txt", "content": "made by the run\n"}}],
    "done",
]


def test_zeph_undo_in_a_kernel_restores_the_edit_and_deletes_the_created_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (work / "notes.txt").write_text("written before the run\n")
    for name in list(os.environ):
        if name.startswith("ZEPH_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("ZEPH_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    cells = [
        f"%load_ext zeph_nb\nimport zeph_nb\nmodel = zeph_nb.ScriptedProvider({TURNS!r})",
        "%%zeph --provider model --approve auto\nEdit notes.txt and create created.txt",
        "result = await _\nprint(result.stop_reason, [c.status for c in result.tool_calls])\n"
        "print(open('notes.txt').read(), open('created.txt').read())",
        "%zeph undo --yes",
        "import os\nprint(open('notes.txt').read(), sorted(os.listdir('.')))",
        "%zeph undo --yes",
    ]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    resources = {"metadata": {"path": str(work)}}
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3", resources=resources).execute()

    def printed(index: int) -> str:
        return "".join(o.get("text", "") for o in nb.cells[index].outputs if o.get("output_type") == "stream")

    assert "completed ['ok', 'ok']" in printed(2)
    # The run ended while cell 2 awaited it: its frozen transcript reached the saved %%zeph cell (sent as a
    # child of cell 2, which nbclient was listening to), where a saved notebook keeps it.
    (shown,) = nb.cells[1].outputs
    assert 'class="zeph-snapshot"' in shown["data"]["text/html"] and "completed" in shown["data"]["text/plain"]
    assert "written after the run" in printed(2) and "made by the run" in printed(2)
    plan = printed(3)
    assert "restore  notes.txt" in plan and "delete   created.txt" in plan
    assert "Undid run" in plan and "restored 1" in plan and "deleted 1" in plan
    assert "written before the run\n ['notes.txt']" in printed(4)
    assert "nothing to do: every path the run changed is already as it was before" in printed(5)
    assert (work / "notes.txt").read_text() == "written before the run\n"
    assert not (work / "created.txt").exists()


def test_without_widgets_undo_asks_on_the_console_and_no_leaves_the_files(
    isolated_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from IPython.core.interactiveshell import InteractiveShell

    import zeph_nb
    from zeph_nb.notebook.magics import ZephMagics

    ip = InteractiveShell.instance()
    magics = ZephMagics(ip, widgets=False)
    ip.register_magics(magics)
    ip.user_ns["model"] = zeph_nb.ScriptedProvider([TURNS[1], "done"])
    magics.zeph("--provider model --approve auto", "create a file")
    assert Path("created.txt").exists()
    answers = iter(["n", "y"])
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    magics.zeph("undo")
    assert Path("created.txt").exists() and "nothing undone" in capsys.readouterr().out
    magics.zeph("undo")
    assert not Path("created.txt").exists() and "deleted 1" in capsys.readouterr().out
    listed = magics.zeph("undo --list")
    assert list(listed["paths"]) == [1]
    magics.zeph("undo nope")
    assert "no run 'nope' changed files" in capsys.readouterr().out
    assert magics.agent is not None
    magics.agent.chain.store.close()


async def test_with_widgets_undo_waits_for_the_button(isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from IPython.core.interactiveshell import InteractiveShell

    import zeph_nb
    from zeph_nb.notebook.magics import ZephMagics

    ip = InteractiveShell.instance()
    magics = ZephMagics(ip)
    ip.register_magics(magics)
    ip.user_ns["model"] = zeph_nb.ScriptedProvider([TURNS[1], "done"])
    await magics.zeph("--provider model --approve auto", "create a file")
    shown: list[Any] = []
    monkeypatch.setattr("IPython.display.display", lambda *objects, **_: shown.extend(objects))
    magics.zeph("undo")
    assert Path("created.txt").exists()  # nothing happens before the click
    buttons, _ = shown[0].children
    yes, no = buttons.children
    yes.click()
    assert not Path("created.txt").exists() and yes.disabled and no.disabled
    assert magics.agent is not None
    magics.agent.chain.store.close()
