"""The wheel a person installs into their own JupyterLab works there, and the README's first session runs in it.

As a person who has JupyterLab already would do it: a fresh virtualenv gets JupyterLab from the registry, then the
wheel ``make dist`` builds (``python -m build``, which makes the wheel from the sdist) — no editable install, and
everything runs from a folder outside the checkout, so nothing can be imported from the tree by accident. Then
what the README's "In your own environment" promises is checked (the server extension enabled by the install, the
widget front ends present), and the cells of its "A first session" run in a kernel of that environment: the key
line is the one line replaced (by the scripted model, as the tutorials do offline), and the approval is
``%zeph approve`` — the README's own alternative to the button — sent once the card asks.

The build and the installs take a minute of CPU and wait on nothing the other tests do: tests/conftest.py starts
them (``background_build``) with the session, and the test waits for them.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).parent.parent
README = ROOT / "README.md"

# What stands in for `%env ANTHROPIC_API_KEY=…`: a model that looks, writes summary.md (which asks), and answers.
STAND_IN = """\
import zeph_nb
model = zeph_nb.ScriptedProvider([
    [{"tool": "list_directory", "params": {"path": "."}}],
    [{"tool": "write", "params": {"path": "summary.md", "content": "A folder with one CSV file.\\nNothing else.\\n"}}],
    "summary.md now says what is here: one CSV file, nothing else.",
])
%config ZephMagics.provider = "model"
"""

# Between the README's cells, what a person does by looking: wait until the card asks, and until the run ends.
WAIT_FOR_THE_CARD = """\
import asyncio
run = _
for _attempt in range(600):
    if run.agent.pending_approvals or run.done:
        break
    await asyncio.sleep(0.05)
print("waiting for approval:", [request.tool for request in run.agent.pending_approvals])
"""
WAIT_FOR_THE_ANSWER = """\
result = await run
print(result.stop_reason, "-", result.text)
"""

DRIVER = """\
import sys
import nbformat
from nbclient import NotebookClient

notebook = nbformat.read(sys.argv[1], as_version=4)
NotebookClient(notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": sys.argv[3]}}).execute()
nbformat.write(notebook, sys.argv[2])
"""


def first_session() -> list[str]:
    """The README's first-session block, one cell per paragraph."""
    text = README.read_text()
    section = text[text.index("## A first session") :]
    block = re.search(r"```ipython\n(.*?)```", section, flags=re.DOTALL)
    assert block is not None, "the README's first session has no ```ipython block"
    return [cell.strip() for cell in block.group(1).split("\n\n") if cell.strip()]


def the_notebook(cells: list[str]) -> dict[str, object]:
    load, request, approve, audit = cells
    assert "%env ANTHROPIC_API_KEY=" in load and request.startswith("%%zeph\n"), cells
    load = re.sub(r"^%env ANTHROPIC_API_KEY=.*$", lambda _: STAND_IN, load, flags=re.MULTILINE)  # taken as is
    # The guard the wheel's .pth starts in a kernel, before the first cell (README: "What the agent wrote").
    where = (
        "import sys\nguard = type(sys.meta_path[0]).__name__\nimport zeph_nb\nprint(sys.prefix)\n"
        "print(zeph_nb.__file__)\nprint(guard)"
    )
    sources = [where, load, request, WAIT_FOR_THE_CARD, approve, WAIT_FOR_THE_ANSWER, audit]
    return {
        "cells": [{"cell_type": "code", "metadata": {}, "source": s, "outputs": [], "execution_count": None}
                  for s in sources],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }  # fmt: skip


def text_of(cell: dict[str, object]) -> str:
    parts = []
    for output in cell["outputs"]:  # type: ignore[attr-defined]
        parts.append("".join(output.get("text", "")))
        parts.append("".join(output.get("data", {}).get("text/plain", "")))
    return "\n".join(parts)


def test_the_readme_first_session_has_the_cells_the_test_runs() -> None:
    cells = first_session()
    assert [cell.splitlines()[0] for cell in cells] == ["%load_ext zeph_nb", "%%zeph", "%zeph approve", "%zeph audit"]


def environment(folder: Path) -> dict[str, str]:
    """The person's environment: the fresh virtualenv first on PATH, a HOME and zeph home of its own."""
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("ZEPH_", "JUPYTER", "VIRTUAL_ENV", "PYTHON"))},
        "HOME": str(folder / "home"),  # no IPython profile loads the magics: the first cell has to
        "ZEPH_HOME": str(folder / "zeph-home"),
        "PATH": f"{folder / 'venv' / 'bin'}:{os.environ['PATH']}",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    env.pop("ANTHROPIC_API_KEY", None)
    return env


def run(folder: Path, *argv: str | Path, timeout: float | None = 120) -> str:
    done = subprocess.run([str(a) for a in argv], cwd=folder, env=environment(folder), check=False, timeout=timeout,
                          capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 0, f"{argv}: {done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return re.sub(r"\x1b\[[0-9;]*m", "", done.stdout + done.stderr)  # jupyter colours "enabled" and "OK"


def background_build(folder: Path) -> None:
    """The wheel, and the person's JupyterLab with the wheel installed into it. Run from the start of the session,
    niced, by tests/conftest.py (no step has a bound of its own: the test waits for all of them, bounded)."""
    venv = folder / "venv"
    (folder / "home").mkdir()
    run(folder, sys.executable, "-m", "build", "--outdir", folder / "dist", ROOT, timeout=None)  # `make dist`
    wheel = next((folder / "dist").glob("zeph_nb-*.whl"))
    run(folder, sys.executable, "-m", "venv", venv, timeout=None)
    run(folder, venv / "bin" / "pip", "install", "--quiet", "jupyterlab", timeout=None)  # the person's own JupyterLab
    run(folder, venv / "bin" / "pip", "install", "--quiet", wheel, timeout=None)  # the README's line


@pytest.mark.background_build
def test_the_wheel_in_a_fresh_jupyterlab_runs_the_first_session(background_builds: Any) -> None:
    folder = background_builds.wait(__name__)
    venv, work = folder / "venv", folder / "work"
    work.mkdir()
    (work / "sales.csv").write_text("month,revenue\n1,100\n")

    extensions = run(folder, venv / "bin" / "jupyter", "server", "extension", "list")
    assert re.search(r"zeph_nb_server\s+enabled", extensions) and re.search(r"zeph_nb_server\s+\S*\s*OK", extensions)
    config = venv / "etc" / "jupyter" / "jupyter_server_config.d" / "zeph_nb_server.json"
    assert json.loads(config.read_text())["ServerApp"]["jpserver_extensions"] == {"zeph_nb_server": True}
    front_ends = run(folder, venv / "bin" / "jupyter", "labextension", "list")
    assert re.search(r"@jupyter-widgets/jupyterlab-manager \S+ enabled", front_ends), front_ends
    assert re.search(r"anywidget \S+ enabled", front_ends), front_ends

    (folder / "first.ipynb").write_text(json.dumps(the_notebook(first_session())))
    (folder / "driver.py").write_text(DRIVER)
    run(folder, venv / "bin" / "python", folder / "driver.py", folder / "first.ipynb", folder / "out.ipynb", work)
    where, _, request, card, approve, answer, audit = json.loads((folder / "out.ipynb").read_text())["cells"]

    prefix, module, guard = text_of(where).split()[:3]
    assert Path(prefix) == venv and Path(module).is_relative_to(venv / "lib"), (prefix, module)  # the wheel's copy
    assert guard == "ImportGuard", text_of(where)
    assert "waiting for approval: ['write']" in text_of(card)
    assert text_of(approve).startswith("approved: write")
    said = "summary.md now says what is here: one CSV file, nothing else."
    assert f"completed - {said}" in text_of(answer)
    # The %%zeph cell ends up holding the frozen transcript, sent when the run ended (while a later cell waited).
    assert "[zeph run: 'What is in this folder?" in text_of(request) and said in text_of(request)
    rows = text_of(audit)
    assert re.search(r"write\s+summary\.md\s+ok\s+ask", rows) and re.search(r"list_directory\s+\.\s+ok\s+allow", rows)
    assert (work / "summary.md").read_text() == "A folder with one CSV file.\nNothing else.\n"
    assert not any(output.get("output_type") == "error" for cell in (where, request, audit)
                   for output in cell["outputs"]), textwrap.shorten(rows, 500)  # fmt: skip
