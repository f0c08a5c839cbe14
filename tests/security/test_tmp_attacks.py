"""Attacks on what the sandbox shows of the real /tmp (``shown_from_tmp``) and on the probe, as a prompt-injected
model would try them: links planted in the working directory, configured paths that do not exist yet, files
directly in /tmp, a kernel restarted after the model's files changed.

Every scenario is built under the real /tmp (pytest's tmp_path follows TMPDIR) and run through bubblewrap or
the real agent. Each held or was fixed in the product (issue 41's review); each failed before its fix.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import zeph_nb
from zeph_nb.config import Settings
from zeph_nb.security import os_sandbox
from zeph_nb.security.os_sandbox import SandboxSpec, private_tmp, shown_from_tmp, wrap
from zeph_nb.security.sandbox_probe import _probe, probe

ROOT = Path(__file__).resolve().parent.parent.parent
NOTES_SERVER = ROOT / "notebooks" / "mcp_notes_server.py"
SECRET = "ANOTHER USER'S TEMP FILE"

pytestmark = pytest.mark.skipif(not probe().active, reason="needs bubblewrap (CI installs it: .ci/run)")


def _folder(prefix: str) -> Path:
    return Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))  # the real /tmp, whatever TMPDIR says


@pytest.fixture
def lab(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Path]]:
    """A working directory, a home and a zeph home under the real /tmp, and beside them another folder there with
    a secret in it (someone else's temp files) and a file directly in /tmp."""
    base, victim = _folder("zeph-tmp-attack-"), _folder("zeph-tmp-victim-")
    (victim / "secret.txt").write_text(SECRET + "\n")
    top = Path(tempfile.mkstemp(prefix="zeph-tmp-top-", dir="/tmp")[1])
    work, home = base / "work", base / "home"
    work.mkdir()
    home.mkdir()
    for name in list(os.environ):
        if name.startswith(("ZEPH_", "JUPYTER_")) or name == "ANTHROPIC_API_KEY":
            monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("ZEPH_HOME", str(base / "zeph-home"))
    monkeypatch.chdir(work)
    try:
        yield {"base": base, "work": work, "home": home, "victim": victim, "top": top}
    finally:
        shutil.rmtree(base, ignore_errors=True)
        shutil.rmtree(victim, ignore_errors=True)
        top.unlink(missing_ok=True)


def _agent_run(work: Path, toml: str, calls: list[dict[str, Any]]) -> list[tuple[str, str]]:
    settings = Settings.from_toml(toml)
    model = zeph_nb.ScriptedProvider([[call] for call in calls] + ["done"])
    agent = zeph_nb.Agent(settings, model, zeph_nb.AutoApprove(), str(work))
    try:
        result = agent.run_sync("go")
    finally:
        agent.store.close()  # before the zeph home is removed: no flusher writes into a void
    return [(call.status, call.text) for call in result.tool_calls]


def _in_sandbox(spec: SandboxSpec, line: str, configured: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    with private_tmp() as tmp:
        argv = wrap(["bash", "-c", line], dataclasses.replace(spec, tmp_dir=tmp), probe(), configured=configured)
        return subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)


# -- defences that hold ------------------------------------------------------------------------------------------


def test_a_bash_argument_naming_another_tmp_folder_does_not_show_it(lab: dict[str, Path]) -> None:
    victim = lab["victim"]
    line = f"cat {victim}/secret.txt 2>/dev/null; {victim}/secret.txt 2>/dev/null; ls /tmp"
    ((_, text),) = _agent_run(lab["work"], "", [{"tool": "bash", "params": {"command": line}}])
    assert SECRET not in text and victim.name not in text, text


def test_a_pyvenv_cfg_planted_in_the_work_does_not_widen_what_is_shown_beyond_it(lab: dict[str, Path]) -> None:
    work, base = lab["work"], lab["base"]
    (base / "neighbour.txt").write_text(SECRET)
    (work / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (work / "bin").mkdir()
    spec = SandboxSpec(work, (work,))
    assert base not in shown_from_tmp(spec, [str(work / "bin" / "python")])
    done = _in_sandbox(spec, f"cat {base}/neighbour.txt")
    assert SECRET not in done.stdout


def test_another_calls_private_tmp_stays_hidden(lab: dict[str, Path]) -> None:
    spec = SandboxSpec(lab["work"], (lab["work"],))
    with private_tmp() as other:
        (other / "left-by-another-call").write_text(SECRET)
        done = _in_sandbox(spec, f"cat {other}/left-by-another-call; ls {other.parent}")
    assert SECRET not in done.stdout and "tmp-" not in done.stdout


def test_an_allowed_path_that_exists_cannot_be_swapped_for_a_link(lab: dict[str, Path]) -> None:
    work, victim = lab["work"], lab["victim"]
    (work / "data").mkdir()
    calls = [
        {"tool": "bash", "params": {"command": f"rm -rf data; mv data d2; ln -s {victim} data; echo tried"}},
        {"tool": "bash", "params": {"command": "echo x > da''ta/planted; cat da''ta/secret.txt"}},
    ]
    out = _agent_run(work, '[tools.shell]\nallowed_paths = ["data"]\n', calls)
    assert not (victim / "planted").exists() and SECRET not in out[1][1], out


# -- findings ----------------------------------------------------------------------------------------------------


def test_a_configured_file_directly_in_tmp_does_not_show_all_of_tmp(lab: dict[str, Path]) -> None:
    """An MCP server started with /tmp/server.py (or a zip on sys.path, a checker in /tmp): its "environment" is
    its folder, /tmp, and the whole real /tmp is bound in, live, for as long as the server runs."""
    work, top, victim = lab["work"], lab["top"], lab["victim"]
    spec = SandboxSpec(work, (work,))
    assert Path("/tmp") not in shown_from_tmp(spec, [str(top)])
    done = _in_sandbox(spec, f"cat {victim}/secret.txt", configured=(str(top),))
    assert SECRET not in done.stdout


def test_a_zip_on_sys_path_directly_in_tmp_does_not_show_all_of_tmp(
    lab: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "path", [*sys.path, str(lab["top"])])
    assert Path("/tmp") not in shown_from_tmp(SandboxSpec(lab["work"], (lab["work"],)))


def test_a_link_the_model_plants_at_a_configured_mcp_path_does_not_show_its_target(lab: dict[str, Path]) -> None:
    """The server's entry names a file in the working directory that does not exist yet. The model makes it a link
    to a file directly in /tmp, crashes the server, and the restarted server sees all of the real /tmp: its
    read_notes then reads a notes.txt that links to someone else's temp file."""
    work, top, victim = lab["work"], lab["top"], lab["victim"]
    toml = (f'[[mcp.servers]]\nname = "notes"\ncommand = "{sys.executable}"\n'
            f'args = ["{NOTES_SERVER}", "{work}/notes.db"]\ntrusted = true\n')  # fmt: skip
    plant = f"ln -s {top} notes.db; ln -s {victim}/secret.txt notes.txt; echo planted"
    calls = [
        {"tool": "bash", "params": {"command": plant}},
        {"tool": "mcp_notes_crash", "params": {}},
        {"tool": "mcp_notes_read_notes", "params": {}},
    ]
    out = _agent_run(work, toml, calls)
    assert SECRET not in out[-1][1], out


def test_a_link_at_a_sys_path_entry_in_the_work_does_not_show_its_target_after_a_restart(
    lab: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An editable install's src/ (or a cell's sys.path.insert(0, abspath("lib"))) is on the kernel's sys.path.
    The model replaces it with a link to another folder in /tmp; the next kernel (the cache is per process) or the
    next change of sys.path resolves the link and every command sees that folder."""
    work, victim = lab["work"], lab["victim"]
    (work / "src").symlink_to(victim)  # what `mv src src.old; ln -s /tmp/… src` left behind
    monkeypatch.setattr(sys, "path", [*sys.path, str(work / "src")])
    os_sandbox._kernel_parts.cache_clear()  # a restarted kernel
    spec = SandboxSpec(work, (work,))
    assert victim not in shown_from_tmp(spec)
    done = _in_sandbox(spec, f"cat {victim}/secret.txt")
    assert SECRET not in done.stdout


def test_a_missing_allowed_path_planted_as_a_link_is_not_made_writable(lab: dict[str, Path]) -> None:
    """``allowed_paths = ["data"]`` before data/ exists: the model makes data a link to any folder (here another
    one in /tmp; ~/.ipython/profile_default/startup works the same and runs in the next kernel), and the next call
    gets the link's target read-write."""
    work, victim = lab["work"], lab["victim"]
    calls = [
        {"tool": "bash", "params": {"command": f"ln -s {victim} data && echo linked"}},
        {"tool": "bash", "params": {"command": "python3 -c \"open('da'+'ta/planted','w').write('x')\"; cat da*/s*"}},
    ]
    out = _agent_run(work, '[tools.shell]\nallowed_paths = ["data"]\n', calls)
    assert not (victim / "planted").exists() and SECRET not in out[1][1], out


def test_the_probe_never_takes_a_bwrap_from_the_working_directory(
    lab: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kernel whose PATH has an empty or relative entry (``PATH=$EXTRA:$PATH`` with EXTRA unset) finds a
    ``bwrap`` the model left in the working directory at its next start: the probe says "works", and every
    command, run without asking, goes through a bwrap that drops every option."""
    fake = lab["work"] / "bwrap"
    fake.write_text('#!/bin/sh\nwhile [ "$#" -gt 0 ] && [ "$1" != "--" ]; do shift; done; shift; exec "$@"\n')
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f":{os.environ['PATH']}")
    status = _probe("auto")
    assert status.bwrap is None or (os.path.isabs(status.bwrap) and not Path(status.bwrap).samefile(fake))


def test_an_mcp_servers_tmp_is_its_folder_on_disk(lab: dict[str, Path]) -> None:
    """connection.py gives a folder in /tmp; bwrap_argv hides its parent (all of /tmp) with a tmpfs after binding
    it, so what the server writes to /tmp takes memory, beyond the address-space limit."""
    spec = SandboxSpec(lab["work"], (lab["work"],))
    with tempfile.TemporaryDirectory(prefix="zeph-mcp-") as tmp:
        argv = wrap(["bash", "-c", "echo kept > /tmp/f"], dataclasses.replace(spec, tmp_dir=Path(tmp)), probe())
        subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
        assert (Path(tmp) / "f").exists()
