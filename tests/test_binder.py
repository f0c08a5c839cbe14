"""The Binder environment builds from binder/ alone and runs the quickstart, sandboxed or not.

Like repo2docker: the Debian packages of ``binder/apt.txt`` (installed here, as the build would have them), a fresh
virtualenv, ``pip install -r binder/requirements.txt`` from the repository root, ``binder/postBuild`` with its own
HOME, then the quickstart executed by that environment's Jupyter. Whether bubblewrap can start in a Binder pod
depends on the host's container security profile, which cannot be seen from here; so the quickstart also runs
under ``tests/security/container_jail.py`` (new namespaces refused, as Docker's default seccomp profile does),
with a notebook that asks ``%zeph status`` first and leaves a write nobody answers.
"""

from __future__ import annotations

import json
import os
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from zeph_nb.security.sandbox_probe import probe

ROOT = Path(__file__).parent.parent
JAIL = ROOT / "tests" / "security" / "container_jail.py"


class Binder(NamedTuple):
    venv: Path
    env: dict[str, str]


def environment(folder: Path) -> dict[str, str]:
    """The build's and the notebooks' environment: the Binder virtualenv first on PATH, a HOME of its own."""
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("ZEPH_", "JUPYTER", "VIRTUAL_ENV", "PYTHON"))},
        "HOME": str(folder / "home"),
        "ZEPH_HOME": str(folder / "zeph-home"),
        "PATH": f"{folder / 'venv' / 'bin'}:{os.environ['PATH']}",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    env.pop("ANTHROPIC_API_KEY", None)
    return env


def background_build(folder: Path) -> None:
    """The environment repo2docker would build. Run from the start of the session, niced, by tests/conftest.py (no
    step has a bound of its own: the tests wait for all of them, bounded)."""
    venv, env = folder / "venv", environment(folder)
    (folder / "home").mkdir()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", "-r", "binder/requirements.txt"], cwd=ROOT,
                   env=env, check=True, capture_output=True)  # fmt: skip
    subprocess.run(["bash", str(ROOT / "binder" / "postBuild")], cwd=ROOT, env=env, check=True)


@pytest.fixture(scope="module")
def binder(background_builds: Any) -> Binder:
    """The environment repo2docker would build, once for this module's tests (built from the session's start)."""
    folder = background_builds.wait(__name__)
    config = next((folder / "home").glob(".ipython/profile_default/ipython_kernel_config.py"))
    assert "zeph_nb" in config.read_text()
    return Binder(folder / "venv", environment(folder))


def _execute(binder: Binder, notebooks: list[Path], out: Path, *, jail: bool = False, **env: str) -> None:
    """Run ``notebooks`` with the Binder environment's nbconvert (one process, a kernel each) into ``out``."""
    command = [
        str(binder.venv / "bin" / "jupyter"), "nbconvert", "--to", "notebook", "--execute",
        "--ExecutePreprocessor.timeout=300", "--ExecutePreprocessor.kernel_name=python3", f"--output-dir={out}",
        *map(str, notebooks),
    ]  # fmt: skip
    if jail:  # the filter survives execve: nbconvert, its kernels and their bwrap all run under it
        command = [sys.executable, str(JAIL), "--", *command]
    subprocess.run(command, cwd=ROOT / "notebooks", env={**binder.env, **env}, check=True, timeout=600,
                   capture_output=True)  # fmt: skip


def _text(output: dict[str, Any]) -> str:
    data = output.get("data", {})
    return "".join(output.get("text", "")) + "".join(data.get("text/plain", "")) + "".join(data.get("text/html", ""))


def _outputs(notebook: Path) -> list[str]:
    """Each cell's outputs as one string (stream text, plain text and HTML)."""
    cells = json.loads(notebook.read_text())["cells"]
    return ["\n".join(_text(output) for output in cell.get("outputs", [])) for cell in cells]


def _assert_quickstart_completed(text: str) -> None:
    assert "No ANTHROPIC_API_KEY: using the offline scripted model." in text
    assert "completed - I wrote hello.txt" in text
    assert "completed - I wrote shopping.txt (1 line); deleting notes/ was refused by policy." in text


@pytest.mark.background_build
def test_binder_environment_runs_the_quickstart(binder: Binder, tmp_path: Path) -> None:
    _execute(binder, [ROOT / "notebooks" / "00_quickstart.ipynb"], tmp_path)
    _assert_quickstart_completed("\n".join(_outputs(tmp_path / "00_quickstart.ipynb")))


def _apt_packages() -> list[str]:
    """binder/apt.txt as repo2docker reads it: what precedes a '#' on each line, blank lines skipped."""
    lines = (line.partition("#")[0].strip() for line in (ROOT / "binder" / "apt.txt").read_text().splitlines())
    return [line for line in lines if line]


def test_binder_apt_packages_are_installed_here() -> None:
    """repo2docker apt-get installs binder/apt.txt into the image: the tests run with the same packages."""
    packages = _apt_packages()
    assert "bubblewrap" in packages  # the OS sandbox
    assert "tmux" in packages  # notebooks/09_background_commands.ipynb
    for package in packages:
        assert re.fullmatch(r"[a-z0-9][a-z0-9.+-]*", package), f"{package!r}: repo2docker takes package names only"
    if shutil.which("dpkg") is None:
        pytest.skip("not a Debian system: dpkg cannot say what is installed")
    for package in packages:
        done = subprocess.run(["dpkg", "-s", package], capture_output=True, text=True, timeout=30, check=False)
        assert "Status: install ok installed" in done.stdout, f"binder/apt.txt lists {package}, not installed here"


# %zeph status before any run; then a write (which asks without the sandbox) that nobody answers: the cell returns
# at once, and awaiting the run waits only the approval timeout, which this notebook sets to one second.
_JAILED_CELLS = [
    "%load_ext zeph_nb\n%zeph status",
    """\
import shutil
import tempfile
from pathlib import Path

import zeph_nb

work = Path(tempfile.mkdtemp(prefix="zeph-jailed-"))
(work / "zeph.toml").write_text("[gates.approval]\\ntimeout_secs = 1\\n")
%cd {work}
%config ZephMagics.cwd = str(work)
model = zeph_nb.ScriptedProvider([[{"tool": "bash", "params": {"command": "echo hi > note.txt"}}], "done"])""",
    "%%zeph --provider model\nWrite note.txt",
    """\
result = await _
print("stop:", result.stop_reason)
for call in result.tool_calls:
    print("call:", call.call.params["command"], "|", call.status, call.decision, call.approved_by, "|", call.reason)
    print("model read:", call.text)
print("written:", (work / "note.txt").exists())
%cd -q /
shutil.rmtree(work)""",
]


@pytest.mark.skipif(not probe().active, reason="needs bubblewrap working here, so that the jail is what stops it")
@pytest.mark.skipif(platform.machine() not in ("x86_64", "aarch64"), reason="the jail's filter knows these two")
@pytest.mark.background_build
def test_binder_environment_without_namespaces(binder: Binder, tmp_path: Path) -> None:
    """In a container whose seccomp profile refuses namespaces, the product says so first and still works."""
    status = tmp_path / "jailed_status.ipynb"
    cell: dict[str, Any] = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None}
    cells = [{**cell, "source": source} for source in _JAILED_CELLS]
    status.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 4}))
    out = tmp_path / "out"
    _execute(binder, [status, ROOT / "notebooks" / "00_quickstart.ipynb"], out, jail=True,
             ZEPH_HOME=str(tmp_path / "zeph-home"))  # fmt: skip
    said, _, transcript, ran = _outputs(out / status.name)

    # %zeph status, before any command: not sandboxed, the seccomp filter named as the reason, the fix.
    lines = [line.strip() for line in said.splitlines()]
    sandbox = next(line for line in lines if line.startswith("sandbox:"))
    assert "shell commands are NOT sandboxed on this machine: a seccomp filter" in sandbox
    assert "every command that may change anything asks first" in lines
    assert any(line.lower().startswith("to fix: ") and "seccomp" in line for line in lines), said
    # The run's transcript opens with the same warning and fix.
    assert "shell commands are NOT sandboxed on this machine" in transcript
    assert "To fix: " in transcript
    # The write asked because nothing contains it; nobody answered; it was denied after the timeout (the model is
    # told so) and did not run; awaiting the run did not hang.
    assert "stop: completed" in ran
    assert "call: echo hi > note.txt | denied ask timeout | shell commands are NOT sandboxed on this machine" in ran
    assert "was not approved by timeout (nobody answered within 1s (gates.approval.timeout_secs)); it did not" in ran
    assert "written: False" in ran

    # The quickstart completes the same as with the sandbox: its own rules allow `echo *` and `cat *` (an explicit
    # rule still applies without the sandbox), and its scripted approver answers the one ask of each run.
    quickstart = "\n".join(_outputs(out / "00_quickstart.ipynb"))
    _assert_quickstart_completed(quickstart)
    assert re.search(r"bash: echo 'hello from zeph' > hello.txt +ask +by ScriptedApprover", quickstart)
    assert re.search(r"echo 'milk, eggs' > shopping.txt && cat shopping.txt +ok +allow by rule", quickstart)
    assert re.search(r"wc -l shopping.txt +ok +ask +by ScriptedApprover", quickstart)
