"""The Binder environment builds from binder/ alone and runs the quickstart.

Like repo2docker: a fresh virtualenv, ``pip install -r binder/requirements.txt`` from the repository root,
``binder/postBuild`` with its own HOME, then the quickstart executed by that environment's Jupyter.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent


def test_binder_environment_runs_the_quickstart(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    home = tmp_path / "home"
    home.mkdir()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("ZEPH_", "JUPYTER", "VIRTUAL_ENV", "PYTHON"))},
        "HOME": str(home),
        "ZEPH_HOME": str(tmp_path / "zeph-home"),
        "PATH": f"{venv / 'bin'}:{os.environ['PATH']}",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    env.pop("ANTHROPIC_API_KEY", None)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", "-r", "binder/requirements.txt"], cwd=ROOT,
                   env=env, check=True, timeout=900, capture_output=True)  # fmt: skip
    subprocess.run(["bash", str(ROOT / "binder" / "postBuild")], cwd=ROOT, env=env, check=True, timeout=120)
    config = next(home.glob(".ipython/profile_default/ipython_kernel_config.py"))
    assert "zeph_nb" in config.read_text()
    out = tmp_path / "quickstart.ipynb"
    command = [
        str(venv / "bin" / "jupyter"), "nbconvert", "--to", "notebook", "--execute",
        "--ExecutePreprocessor.timeout=300", "--ExecutePreprocessor.kernel_name=python3", f"--output={out}",
        str(ROOT / "notebooks" / "00_quickstart.ipynb"),
    ]  # fmt: skip
    subprocess.run(command, cwd=ROOT / "notebooks", env=env, check=True, timeout=600, capture_output=True)
    text = "\n".join(
        "".join(output.get("text", ""))
        for cell in json.loads(out.read_text())["cells"]
        for output in cell.get("outputs", [])
    )
    assert "No ANTHROPIC_API_KEY: using the offline scripted model." in text
    assert "completed - I wrote hello.txt" in text
