"""Accepting a file an agent wrote is the person's, in a real ipykernel (nbclient): a sandboxed command writes a
module into the notebook folder (the import guard refuses it), and run_python code the model wrote (approved once)
leaves behind an IPython hook saying ``%zeph trust helper.py`` in the person's next cell; the module stays refused.
The person's own ``%zeph trust`` line accepts it."""

from __future__ import annotations

from pathlib import Path

import nbclient
import nbformat

LATER = (
    "ip = get_ipython()\nip.events.register('pre_run_cell', lambda *a: ip.run_line_magic('zeph', 'trust helper.py'))\n"
)
IMPORT = "try:\n    import helper\nexcept ImportError as e:\n    print('refused:', e)"

CELLS = [
    "%load_ext zeph_nb\nimport zeph_nb",
    "model = zeph_nb.ScriptedProvider([\n"
    "    [{'tool': 'bash', 'params': {'command': \"echo 'print(123 * 3)' > helper.py\"}}],\n"
    f"    [{{'tool': 'run_python', 'params': {{'code': {LATER!r}}}}}],\n"
    "    'Done.'])",
    "%%zeph --provider model --approve auto\nwrite a helper",
    "first = await _\nprint(first.stop_reason)",
    IMPORT,
    "%zeph trust helper.py",
    IMPORT,
]


def test_code_the_model_left_behind_does_not_accept_what_an_agent_wrote(isolated_env: Path) -> None:
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    client = nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3")
    client.execute(cwd=str(Path.cwd()))

    def said(n: int) -> str:
        return "".join(o.get("text", "") for o in notebook.cells[n].outputs)

    assert "completed" in said(3), said(3)
    assert "369" not in said(4) and "refused:" in said(4), said(4)
    assert "trust is for the person" in said(4), said(4)  # the hook was refused, saying why
    assert "369" in said(6), said(6)  # accepted by the person's own line
