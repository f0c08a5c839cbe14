"""The kernel tools in a real ipykernel (nbclient): the agent inspects a DataFrame the notebook made, runs approved
code that adds a column, and the next cell sees it. The run is a task on the kernel's loop, as in JupyterLab."""

from __future__ import annotations

from pathlib import Path

import nbclient
import nbformat

CELLS = [
    "%load_ext zeph_nb\nimport pandas as pd\nimport zeph_nb\ndf = pd.DataFrame({'a': [1, 2, 3]})",
    "model = zeph_nb.ScriptedProvider([\n"
    "    [{'tool': 'inspect_variable', 'params': {'name': 'df'}}],\n"
    "    [{'tool': 'run_python', 'params': {'code': 'import time\\ntime.sleep(0.1)\\ndf[\"b\"] = df.a * 10'}}],\n"
    "    [{'tool': 'run_python', 'params': {'code': 'import time\\ntime.sleep(30)', 'timeout': 1}}],\n"
    "    [{'tool': 'run_python', 'params': {'code': 'input(\"your password? \")'}}],\n"
    "    'Added b.'])",
    "%%zeph --provider model --approve auto\nAdd a column b = 10 a to df",
    "result = await _\nprint(result.stop_reason, list(df.columns), list(df.b))\n"
    "print([(c.tool, c.status, c.category.label if c.category else None) for c in result.tool_calls])\n"
    "print(model.requests[1].messages[-1].content[0].content.splitlines()[0])\n"
    "print(model.requests[4].messages[-1].content[0].content)",
]


def test_the_agent_inspects_and_changes_the_notebooks_dataframe(isolated_env: Path) -> None:
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    client = nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3")
    client.execute(cwd=str(Path.cwd()))
    out = "".join(o.get("text", "") for o in notebook.cells[3].outputs)
    lines = out.splitlines()
    assert lines[0] == "completed ['a', 'b'] [10, 20, 30]", out
    calls = ("[('inspect_variable', 'ok', None), ('run_python', 'ok', None), ('run_python', 'error', 'timeout'), "
             "('run_python', 'error', 'permanent_failure')]")  # fmt: skip
    assert lines[1] == calls, out
    assert "StdinNotImplementedError" in out  # input() raises: no prompt under the person's cell
    assert lines[2] == "df: pandas.DataFrame", out  # what the model read of the notebook's own DataFrame
