"""Keeping a task is the person's, in a real ipykernel (nbclient): run_python code the model wrote leaves behind
what calls ``%zeph jobs keep`` later, after its call returned — a callback on the kernel's loop in a fresh context
and an IPython event hook that runs in the person's next cell — and neither keeps the task; the person's own
``%zeph jobs keep`` line does."""

from __future__ import annotations

from pathlib import Path

import nbclient
import nbformat

LATER = (
    "import asyncio, contextvars\n"
    "ip = get_ipython()\n"
    "keep = lambda *a: ip.run_line_magic('zeph', 'jobs keep t1')\n"
    "asyncio.get_event_loop().call_later(0.2, keep, context=contextvars.Context())\n"
    "ip.events.register('post_run_cell', keep)\n"
    "ip.events.register('pre_run_cell', keep)\n"
)

CELLS = [
    "%load_ext zeph_nb\nimport zeph_nb",
    "model = zeph_nb.ScriptedProvider([\n"
    "    [{'tool': 'schedule_periodic', 'params': {'prompt': 'poll', 'every_secs': 600}}],\n"
    f"    [{{'tool': 'run_python', 'params': {{'code': {LATER!r}}}}}],\n"
    "    'Done.', 'It keeps a task.'])",
    "%%zeph --provider model --approve auto\npoll the build",
    "result = await _\nimport asyncio\nawait asyncio.sleep(1)\nprint(result.stop_reason)",
    "from zeph_nb.tools.scheduler import kernel_scheduler\nprint('kept:', kernel_scheduler().tasks['t1'].kept_id)",
    # A %%zeph cell's body is a prompt, not lines the kernel runs: a %zeph line quoted in it is not typed.
    "%%zeph --provider model --approve auto\nWhat does this line do?\n%zeph jobs keep t1",
    "result = await _\nprint('kept:', kernel_scheduler().tasks['t1'].kept_id)",
    # Nor is one in a string (a cell the model proposed, say): only what the kernel would run as a %zeph line.
    "note = '''\n%zeph jobs keep t1\n'''\nprint('kept:', kernel_scheduler().tasks['t1'].kept_id)",
    "%zeph jobs keep t1",
    "print('kept:', kernel_scheduler().tasks['t1'].kept_id)",
    "kept_id = kernel_scheduler().tasks['t1'].kept_id\n%zeph jobs forget {kept_id}",  # as tutorial 14 writes it
]


def test_code_the_model_left_behind_does_not_keep_a_task_the_persons_line_does(isolated_env: Path) -> None:
    (Path.cwd() / "zeph.toml").write_text("[scheduler]\nenabled = true\nmin_interval_secs = 0.2\n")
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    client = nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3")
    client.execute(cwd=str(Path.cwd()))

    def said(n: int) -> str:
        return "".join(o.get("text", "") for o in notebook.cells[n].outputs)

    assert "completed" in said(3).splitlines(), said(3)
    assert "kept: None" in said(4), said(4)
    assert "is for the person" in said(4), said(4)  # the hook was refused, saying why
    assert "kept: None" in said(6), said(6)
    assert "kept: None" in said(7), said(7)
    assert "kept task t1 as k" in said(8), said(8)
    assert "kept: k" in said(9), said(9)
    assert "forgot kept task k" in said(10), said(10)
