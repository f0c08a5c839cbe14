"""A ``%%zeph`` cell's output ends as the frozen transcript in a notebook run by nbclient (``make notebooks``, the
tests, papermill), also when the run ended while no cell ran: the snapshot, sent then as a child of the cell before,
is sent again from the cell that awaits the run."""

from __future__ import annotations

import time
from pathlib import Path

import nbclient
import nbformat

CELLS = [
    "%load_ext zeph_nb\nimport zeph_nb\n"
    "model = zeph_nb.ScriptedProvider([[{'tool': 'time', 'params': {}}], 'It is late.'])",
    "%%zeph --provider model --approve auto\nwhat time is it",
    "result = await _\nprint(result.text)",
]


def test_a_run_that_ends_between_cells_still_freezes_its_transcript(isolated_env: Path) -> None:
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    client = nbclient.NotebookClient(
        notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": "."}}
    )
    with client.setup_kernel(cwd=str(Path.cwd())):
        client.execute_cell(notebook.cells[0], 0)
        client.execute_cell(notebook.cells[1], 1)
        time.sleep(3)  # the run ends while no cell runs: its snapshot is a child of the %%zeph cell, long done
        client.execute_cell(notebook.cells[2], 2)

    request = "".join(str(o.get("data", {}).get("text/plain", "")) for o in notebook.cells[1].outputs)
    assert "[zeph run: 'what time is it', completed, 1 tool calls]" in request, request
    assert "It is late." in "".join(o.get("text", "") for o in notebook.cells[2].outputs)
