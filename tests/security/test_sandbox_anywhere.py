"""The sandbox wherever Jupyter runs: a kernel whose environment, working directory and home are under /tmp, and a
kernel in a container whose security profile refuses new namespaces.

Every command gets a private /tmp. What it needs from the real one — the kernel's environment, the executables it
is started with, the working directory, the home — must still be there, read-only, at the same path; the rest
stays hidden. Where no namespace can be made, the kernel says why before the first command and asks instead.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from zeph_nb.security.os_sandbox import SandboxSpec, bwrap_argv, shown_from_tmp
from zeph_nb.security.protected import ProtectedPaths
from zeph_nb.security.sandbox_probe import probe

ROOT = Path(__file__).resolve().parent.parent.parent
JAIL = Path(__file__).with_name("container_jail.py")
NOTES_SERVER = ROOT / "notebooks" / "mcp_notes_server.py"

pytestmark = pytest.mark.skipif(not probe().active, reason="needs bubblewrap (CI installs it: .ci/run)")


@pytest.fixture
def under_tmp() -> Iterator[Path]:
    """A folder under the real /tmp, whatever TMPDIR says (pytest's tmp_path follows TMPDIR)."""
    folder = Path(tempfile.mkdtemp(prefix="zeph-anywhere-", dir="/tmp"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _venv_under(folder: Path) -> Path:
    """A virtualenv at ``folder/venv`` that imports what this one does (a .pth file), with its own copy of ruff:
    the kernel's interpreter and a checker both under /tmp, as in a clone there."""
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=60)
    site = next(venv.glob("lib/python*/site-packages"))
    here = [p for p in sys.path if p and Path(p).is_dir() and not Path(p).is_relative_to(sys.base_prefix)]
    (site / "this_checkout.pth").write_text("\n".join([str(ROOT), *here]) + "\n")
    ruff = Path(sys.executable).parent / "ruff"
    shutil.copy2(ruff, venv / "bin" / "ruff")
    return venv


KERNEL = """
import json, sys
import zeph_nb
from zeph_nb.config import Settings

toml = '''
[[mcp.servers]]
name = "notes"
command = "{python}"
args = ["{server}"]
trusted = true
'''
settings = Settings.from_toml(toml)
calls = [
    {{"tool": "bash", "params": {{"command": "python -c 'import sys, zeph_nb; print(sys.prefix)' && ls ~ && "
                                            "echo made > made.txt"}}}},
    {{"tool": "bash", "params": {{"command": "ruff --version"}}}},
    {{"tool": "diagnostics", "params": {{"kind": "lint"}}}},
    {{"tool": "mcp_notes_add_note", "params": {{"text": "from under /tmp"}}}},
]
model = zeph_nb.ScriptedProvider([[c] for c in calls] + ["done"])
agent = zeph_nb.Agent(settings, model, zeph_nb.AutoApprove(), ".")
result = agent.run_sync("go")
agent.store.flush()
ran = dict(zip(*[zeph_nb.audit.frame(settings=agent.settings)[k] for k in ("call_id", "sandbox")]))
print(json.dumps([{{"status": c.status, "sandbox": ran.get(c.call.call_id), "text": c.text}}
                  for c in result.tool_calls]))
"""


def test_a_kernel_whose_environment_work_and_home_are_under_tmp_runs_everything_sandboxed(under_tmp: Path) -> None:
    venv = _venv_under(under_tmp)
    work, home = under_tmp / "work", under_tmp / "home"
    work.mkdir()
    home.mkdir()
    (home / "visible.txt").write_text("mine\n")
    (home / ".ssh").mkdir()
    (home / ".ssh" / "id_rsa").write_text("SECRET KEY\n")
    (work / "bad.py").write_text("import os\n")  # F401: something for ruff to find
    (under_tmp / "neighbour-secret").write_text("another process's temp file\n")
    python = venv / "bin" / "python"
    script = KERNEL.format(python=python, server=NOTES_SERVER)
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("ZEPH_", "VIRTUAL_ENV", "PYTHON"))},
        "HOME": str(home),
        "ZEPH_HOME": str(under_tmp / "zeph-home"),
        "PATH": f"{venv / 'bin'}:{os.environ['PATH']}",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    done = subprocess.run([str(python), "-c", script], cwd=work, env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    bash, ruff, diagnostics, mcp = json.loads(done.stdout.strip().splitlines()[-1])
    assert all(call["status"] == "ok" for call in (bash, ruff, diagnostics, mcp)), done.stdout
    assert bash["sandbox"] == "bwrap" and str(venv) in bash["text"] and "visible.txt" in bash["text"]
    assert (work / "made.txt").read_text() == "made\n"
    assert ruff["text"].startswith("ruff ")
    assert "F401" in diagnostics["text"] and "No such file" not in diagnostics["text"]
    assert mcp["text"] == "added: from under /tmp" and (work / "notes.txt").read_text() == "from under /tmp\n"


def test_only_what_a_command_needs_from_tmp_is_shown_and_read_only(under_tmp: Path) -> None:
    venv = _venv_under(under_tmp)
    work, home = under_tmp / "work", under_tmp / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("SECRET KEY\n")
    work.mkdir()
    (under_tmp / "neighbour-secret").write_text("another process's temp file\n")
    protected = ProtectedPaths(hidden=(home / ".ssh",), home=home)
    spec = SandboxSpec(work, (work,), protected)
    shown = shown_from_tmp(spec, [str(venv / "bin" / "ruff")])
    assert venv in shown and work in shown and home in shown and under_tmp not in shown
    status = probe()
    assert status.bwrap is not None
    argv = bwrap_argv(spec, status.bwrap, [str(venv / "bin" / "ruff")])
    probe_line = (f"cat {under_tmp}/neighbour-secret; cat {home}/.ssh/id_rsa; {venv}/bin/ruff --version; "
                  f"touch {venv}/planted; echo w > {work}/w.txt; echo LISTING; ls -A /tmp")  # fmt: skip
    done = subprocess.run([*argv, "--", "bash", "-c", probe_line], capture_output=True, text=True, timeout=60)
    assert "another process" not in done.stdout and "SECRET KEY" not in done.stdout
    assert "ruff " in done.stdout
    assert "Read-only file system" in done.stderr and not (venv / "planted").exists()
    assert (work / "w.txt").read_text() == "w\n"
    # /tmp itself holds only the ways to what is shown (here, and the checkout's when it is under /tmp too)
    listing = set(done.stdout.split("LISTING", 1)[1].split())
    ways = {path.relative_to("/tmp").parts[0] for path in shown_from_tmp(spec, [str(venv / "bin" / "ruff")])}
    assert under_tmp.name in listing and listing <= ways | {".cache"}, (listing, ways)


PROBE = """
import json
from zeph_nb.security.sandbox_probe import probe
s = probe()
print(json.dumps({"active": s.active, "cause": s.cause, "reason": s.reason, "fix": s.fix, "ms": s.probe_ms}))
"""


def _jailed(*argv: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(JAIL), "--", *argv], capture_output=True, text=True, timeout=120,
                          check=False, **kwargs)  # type: ignore[call-overload]  # fmt: skip


def test_in_a_container_that_refuses_namespaces_the_probe_names_the_seccomp_filter_and_its_fix() -> None:
    done = _jailed(sys.executable, "-c", PROBE)
    status = json.loads(done.stdout)
    assert status["active"] is False and status["cause"] == "seccomp", done.stdout + done.stderr
    assert "seccomp filter" in status["reason"] and "likely because the kernel" not in status["reason"]
    assert "seccomp=unconfined" in status["fix"]
    # Outside the jail, on this very machine, it works: the filter was the cause.
    assert probe().active


@pytest.mark.skipif(os.geteuid() != 0, reason="building a container's /proc masks needs root")
def test_a_container_that_masks_proc_is_named_as_such() -> None:
    # Docker and Kubernetes mount over parts of /proc; the kernel then refuses a fresh /proc to anyone but the
    # host's root. A mount namespace of our own with /proc/acpi covered, and an ordinary user in it, is that.
    covered = next((p for p in ("/proc/acpi", "/proc/scsi", "/proc/asound") if os.path.isdir(p)), None)
    if covered is None:
        pytest.skip("no folder in /proc to cover here")
    line = (f"mount -t tmpfs -o ro tmpfs {covered} && exec setpriv --reuid 65534 --regid 65534 --clear-groups "
            f"{sys.executable} -c '{PROBE}'")  # fmt: skip
    done = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", line], capture_output=True,
                          text=True, timeout=60, cwd="/", env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
    status = json.loads(done.stdout)
    assert status["cause"] == "proc", done.stdout + done.stderr
    assert "/proc" in status["reason"] and "procMount" in status["fix"]


NOTEBOOK_CELLS = [
    "%load_ext zeph_nb\n%config ZephMagics.widgets = False",
    "%zeph status",
    'import zeph_nb\nmodel = zeph_nb.ScriptedProvider([[{"tool": "bash", "params": {"command": "echo made > '
    'made.txt"}}], "done"])',
    "%%zeph --provider model --approve deny\nmake a file",
]


def test_a_kernel_in_such_a_container_asks_instead_and_says_why(tmp_path: Path) -> None:
    """A real Jupyter kernel started under the filter: %zeph status names the cause and the fix, and a run's
    command that would write asks (here: denied) instead of running unsandboxed — no crash, no hang."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    spec_dir = tmp_path / "kernels" / "jailed"
    spec_dir.mkdir(parents=True)
    kernel = [sys.executable, str(JAIL), "--", sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    (spec_dir / "kernel.json").write_text(json.dumps({"argv": kernel, "display_name": "jailed", "language": "python"}))
    work = tmp_path / "work"
    work.mkdir()
    (work / "zeph.toml").write_text('[llm]\nprovider = "scripted"\n')
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in NOTEBOOK_CELLS])
    env = {"JUPYTER_PATH": str(tmp_path), "ZEPH_HOME": str(tmp_path / "zeph-home")}
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        client = nbclient.NotebookClient(
            nb, kernel_name="jailed", timeout=120, resources={"metadata": {"path": str(work)}}
        )
        client.execute()
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    status = "".join(o.get("text", "") for o in nb.cells[1].outputs)
    assert "NOT sandboxed" in status and "seccomp filter" in status and "to fix:" in status, status
    assert "seccomp=unconfined, in Kubernetes" in status  # the fix on one line, not split at its clauses
    run = "".join(o.get("text", "") for o in nb.cells[3].outputs)
    assert "NOT sandboxed" in run and "seccomp filter" in run  # the banner, before anything else
    assert "denied (confirmation_required)" in run and "[completed]" in run  # asked (no one to say yes): not run
    assert not (work / "made.txt").exists()


def test_the_dashboard_of_a_server_in_such_a_container_says_why_and_the_fix(
    tmp_path: Path, running_jupyter: Any
) -> None:
    home = tmp_path / "zeph-home"
    jail = [sys.executable, str(JAIL), "--"]
    args = [f"--ServerApp.root_dir={tmp_path}"]
    with running_jupyter("server", base=tmp_path, zeph_home=home, cwd=tmp_path, args=args, inside=jail) as jp:
        headers = {"Authorization": f"token {jp.token}"}
        request = urllib.request.Request(f"{jp.url}/zeph/api/dashboard", headers=headers)  # noqa: S310 - loopback
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 - loopback
            sandbox = json.loads(response.read())["sandbox"]
        page = urllib.request.Request(f"{jp.url}/zeph/", headers=headers)  # noqa: S310 - loopback
        with urllib.request.urlopen(page, timeout=30) as response:  # noqa: S310 - loopback
            html = response.read().decode()
    assert sandbox["active"] is False and sandbox["cause"] == "seccomp"
    assert "seccomp filter" in sandbox["reason"] and "seccomp=unconfined" in sandbox["fix"]
    assert 'id="sandbox-why"' in html  # where the page writes the reason and the fix (dashboard.js)


def test_a_command_line_naming_a_folder_under_tmp_does_not_make_it_appear(under_tmp: Path) -> None:
    """Only the program and what the configuration names are shown: a model's command line that is itself a path
    to someone else's script under /tmp finds nothing there."""
    from zeph_nb.security.os_sandbox import wrap

    work, elsewhere = under_tmp / "work", under_tmp / "someone-else"
    work.mkdir()
    elsewhere.mkdir()
    script = elsewhere / "run.sh"
    script.write_text("#!/bin/sh\necho RAN FROM ELSEWHERE\n")
    script.chmod(0o755)
    spec = SandboxSpec(work, (work,), ProtectedPaths())
    done = subprocess.run(wrap(["bash", "-c", str(script)], spec, probe()), capture_output=True, text=True, timeout=60)
    assert "RAN FROM ELSEWHERE" not in done.stdout and "No such file" in done.stderr
    shown = wrap(["bash", "-c", "true"], spec, probe(), configured=[str(script)])
    assert str(elsewhere) in shown  # what a configuration names (an MCP server's script) is shown


def test_a_home_under_tmp_is_the_machines_not_the_commands_own_tmp(under_tmp: Path) -> None:
    """A path in the sandbox's private /tmp is the command's own; one in a real folder the sandbox shows there (a
    home under /tmp) is outside the working directory and asks like any other."""
    from zeph_nb.config import Settings
    from zeph_nb.shell import PathUse
    from zeph_nb.tools.shell.path_scope import path_report

    work, home = under_tmp / "work", under_tmp / "home"
    work.mkdir()
    home.mkdir()
    (home / ".bashrc").write_text("alias ll='ls -l'\n")
    settings = Settings().model_copy(update={"user_home": home})
    uses = [PathUse("~/.bashrc", "read", "cat"), PathUse("/tmp/scratch.txt", "write", ">")]
    report = path_report(settings, work, uses, ProtectedPaths(home=home))
    assert [found.path for found in report.outside] == [home / ".bashrc"]
