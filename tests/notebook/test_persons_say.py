"""Every %zeph line that gives the person's say (answer an ask, trust a file or a skill, keep a task) is refused
when run_python's code says it, itself or from a thread it starts: a real InteractiveShell, a scripted model, the
model reading what its code printed."""

from __future__ import annotations

import pytest
from IPython.core.interactiveshell import InteractiveShell

import zeph_nb
from tests.tools.scheduler.test_kept_tasks_magic import shell  # noqa: F401  (the fixture)
from zeph_nb.notebook.magics import ZephMagics

LINES = ["approve always", "deny", "trust notes.py", "skills trust deploy"]


@pytest.mark.parametrize("thread", [False, True])
@pytest.mark.parametrize("line", LINES)
async def test_run_python_cannot_give_the_persons_say(
    shell: tuple[InteractiveShell, ZephMagics],  # noqa: F811
    line: str,
    thread: bool,
) -> None:
    ip, magics = shell
    call = f"get_ipython().run_line_magic('zeph', {line!r})"
    if thread:  # what a thread raises is printed on stderr, which the model reads too
        call = f"import threading\nt = threading.Thread(target=lambda: {call})\nt.start(); t.join()"
    ip.user_ns["model"] = zeph_nb.ScriptedProvider([[{"tool": "run_python", "params": {"code": call}}], "Tried."])
    await ip.run_cell_magic("zeph", "--provider model --approve auto", "try it")
    assert magics.agent is not None
    (said,) = magics.agent.store.query("SELECT result_text FROM tool_calls WHERE tool = 'run_python'")["result_text"]
    assert f"{line.split()[0]} is for the person, in a cell of their own" in said, said
