"""An injected model's ways around "keeping a task is the person's" and around what the person reads of a kept
task, tried with real parts: a real InteractiveShell with the magics, a scripted model whose run_python code runs in
it (approved: the approval is not what is tested), the real store."""

from __future__ import annotations

from pathlib import Path

import pytest
from IPython.core.interactiveshell import InteractiveShell

import zeph_nb
from tests.tools.scheduler.test_kept_tasks_magic import shell  # noqa: F401  (the fixture)
from zeph_nb.notebook.magics import ZephMagics
from zeph_nb.store.kept_tasks import KeptTasks
from zeph_nb.tools.scheduler import tasks

# Each is run_python code that reaches %zeph jobs keep without being a %zeph line of the code itself.
AROUND = {
    # A thread starts with an empty context (Python < 3.14), so a context variable set by run_python is not in it.
    "thread": "import threading\n"
    "t = threading.Thread(target=get_ipython().run_line_magic, args=('zeph', 'jobs keep t1'))\n"
    "t.start(); t.join()",
    # A fresh context has every variable at its default.
    "fresh context": "import contextvars\n"
    "contextvars.Context().run(get_ipython().run_line_magic, 'zeph', 'jobs keep t1')",
}


@pytest.mark.parametrize("way", list(AROUND))
async def test_run_python_cannot_keep_a_task_around_the_marker(
    shell: tuple[InteractiveShell, ZephMagics],  # noqa: F811
    way: str,
) -> None:
    ip, magics = shell
    ip.user_ns["model"] = zeph_nb.ScriptedProvider([
        [{"tool": "schedule_periodic", "params": {"prompt": "poll", "every_secs": 600}}],
        [{"tool": "run_python", "params": {"code": AROUND[way]}}],
        "Tried.",
    ])  # fmt: skip
    await ip.run_cell_magic("zeph", "--provider model --approve auto", "poll, and keep it")
    assert magics.agent is not None
    assert tasks.kernel_scheduler().tasks["t1"].kept_id is None, way
    assert KeptTasks(magics.agent.store).live(magics.agent.settings.user, str(Path.cwd().resolve())) == []
