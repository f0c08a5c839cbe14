"""Every tool the agent can call and every error category is shown in at least one tutorial.

A new tool, or a new category, without a tutorial fails here. Tools count when a code cell names them; error
categories count only when a committed output shows a ``[tool_error]`` block of that category, i.e. when a
notebook really triggered it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from zeph_nb.config import Settings
from zeph_nb.errors import ToolErrorCategory
from zeph_nb.gates import build_chain
from zeph_nb.store import Store

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))


def _cells(kind: str) -> str:
    texts = []
    for path in NOTEBOOKS:
        for cell in json.loads(path.read_text())["cells"]:
            if cell["cell_type"] != "code":
                continue
            if kind == "source":
                texts.append("".join(cell["source"]))
            else:
                for output in cell.get("outputs", []):
                    texts.append("".join(output.get("text", "")))
                    texts.append("".join(output.get("data", {}).get("text/plain", "")))
    return "\n".join(texts)


def test_every_tool_has_a_tutorial(tmp_path: Path) -> None:
    settings = Settings().model_copy(update={"home": tmp_path})
    store = Store(settings, flusher=False)
    chain = build_chain(settings, workdir=tmp_path, store=store)
    source = _cells("source")
    missing = [t.name for t in chain.tool_definitions() if not re.search(rf"[\"']{t.name}[\"']", source)]
    assert not missing, f"tools without a tutorial: {missing}; show them in a notebook under notebooks/"


def test_every_error_category_is_triggered_in_a_tutorial() -> None:
    outputs = _cells("outputs")
    missing = [c.label for c in ToolErrorCategory if f"category: {c.label}" not in outputs]
    assert not missing, f"error categories no tutorial triggers: {missing}"


def test_notebooks_are_committed_with_outputs() -> None:
    for path in NOTEBOOKS:
        cells = [c for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]
        unrun = [
            i
            for i, c in enumerate(cells)
            if c.get("execution_count") is None
            and "".join(c["source"]).strip()
            and "nbval-skip" not in c.get("metadata", {}).get("tags", [])  # a cell for the person to click through
        ]
        assert not unrun, f"{path.name}: code cells {unrun} were never run; `make notebooks` refreshes them"


def test_every_tutorial_says_what_it_needs() -> None:
    for path in NOTEBOOKS:
        first = "".join(json.loads(path.read_text())["cells"][0]["source"])
        assert "**What it needs:**" in first and "installs nothing" in first, path.name


def test_the_audit_tutorial_shows_its_charts_as_tables_without_matplotlib(tmp_path: Path) -> None:
    """Installed as the README's own-environment section says (no [lab] extra), the tutorial stopped at cell 3.
    Run in a kernel where matplotlib cannot be imported, its charts' cells print their figures as tables."""
    import os
    import subprocess
    import sys

    blocked = tmp_path / "blocked" / "matplotlib"
    blocked.mkdir(parents=True)
    (blocked / "__init__.py").write_text('raise ImportError("no matplotlib in this environment")\n')
    source = next(p for p in NOTEBOOKS if p.name.startswith("08_"))
    script = f"""
import json, nbformat
from nbclient import NotebookClient
nb = nbformat.read({str(source)!r}, as_version=4)
nb.cells = nb.cells[:12]  # the single-kernel part, before the team's PostgreSQL section
where = {{"metadata": {{"path": {str(tmp_path)!r}}}}}
NotebookClient(nb, timeout=120, kernel_name="python3", resources=where).execute()
print(json.dumps([[o.get("text", "") for o in cell.get("outputs", [])] for cell in nb.cells]))
"""
    env = {**os.environ, "PYTHONPATH": str(blocked.parent), "ZEPH_HOME": str(tmp_path / "home")}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env,
                          check=False, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    outputs = json.loads(done.stdout.strip().splitlines()[-1])
    assert "matplotlib is not installed here, so no chart" in "".join(outputs[5])
    assert "time spent (ms)" in "".join(outputs[11]) and "tokens saved in total" in "".join(outputs[11])
