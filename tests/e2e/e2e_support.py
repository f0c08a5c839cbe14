"""What the browser tests share: Debian's Chromium for Playwright on a closed network (where it is, the flags it
needs, where screenshots go) and the notebooks they run."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).parent / "artifacts"
# Flags for a closed network: without the background ones Chromium keeps dialling Google and being refused.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed (.ci/run installs it with apt-get)"
)


def write_notebook(path: Path, *cells: str) -> None:
    """A notebook of code cells on the python3 kernel, unrun."""
    kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells],
                                        metadata={"kernelspec": kernelspec})  # fmt: skip
    nbformat.write(notebook, path)
