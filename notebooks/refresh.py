"""Re-run the tutorials and save them with clean outputs (no timings, no kernel noise): `make notebooks`.

Committed outputs are what nbval compares against and what a reader sees on GitHub, so they must come from a
real run, never from hand edits.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).parent


# A cell tagged nbval-skip is for the person (it waits for a click): not run here, kept without outputs.
SKIP = "nbval-skip"


def refresh(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    kept = {}
    for index, cell in enumerate(notebook.cells):
        if SKIP in cell.metadata.get("tags", []):
            kept[index], cell.source = cell.source, ""
    NotebookClient(notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(HERE)}}).execute()
    for index, source in kept.items():
        cell = notebook.cells[index]
        cell.source, cell.outputs, cell.execution_count = source, [], None
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
    notebook.metadata.pop("widgets", None)
    nbformat.write(notebook, path)
    print(f"refreshed {path.name}")


if __name__ == "__main__":
    # The recorded runs keep their audit rows out of the person's ~/.zeph: a throwaway zeph home per refresh.
    os.environ["ZEPH_HOME"] = tempfile.mkdtemp(prefix="zeph-tutorial-home-")
    targets = [Path(arg) for arg in sys.argv[1:]] or sorted(HERE.glob("*.ipynb"))
    for target in targets:
        refresh(target)
