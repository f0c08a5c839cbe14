"""Project environments are like the kernel's: a virtualenv or conda environment inside the working directory is
read-only in the sandbox (a ``.pth`` file written there runs in every Python started from it), unless an approved
install names it. Real bubblewrap, real ``python -m venv``, the real gate chain."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.security.test_containment import SANDBOX, Victim, call, chain_for, victim  # noqa: F401
from zeph_nb.config import Settings
from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.security.os_sandbox import scan_tree
from zeph_nb.tools.containment import scope_of, shell_classifier
from zeph_nb.tools.shell.executor import ShellExecutor

pytestmark = pytest.mark.skipif(
    not SANDBOX.active and os.environ.get("CI") != "true", reason=f"no OS sandbox here: {SANDBOX.reason}"
)


def make_venv(where: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    return next(where.glob("lib/python*/site-packages"))


def test_the_walk_finds_virtualenvs_and_conda_environments(tmp_path: Path) -> None:
    make_venv(tmp_path / "proj" / ".venv")
    (tmp_path / "envs" / "ml" / "conda-meta").mkdir(parents=True)
    (tmp_path / "plain" / "lib").mkdir(parents=True)
    found = scan_tree(tmp_path).environments
    assert sorted(found) == [tmp_path / "envs" / "ml", tmp_path / "proj" / ".venv"]


def test_a_pth_file_in_a_project_venv_is_refused(victim: Victim) -> None:  # noqa: F811
    site = make_venv(victim.work / "proj" / ".venv")
    relative = site.relative_to(victim.work)
    outcome = call(chain_for(victim), "bash", command=f"echo 'import os' > {relative}/evil.pth; touch proj/fine")
    assert "Read-only file system" in outcome.text, outcome.text
    assert not (site / "evil.pth").exists() and (victim.work / "proj" / "fine").exists()
    # Nor through a conda environment's site-packages, nor by replacing the environment's own files.
    (victim.work / "env" / "conda-meta").mkdir(parents=True)
    (victim.work / "env" / "lib").mkdir()
    outcome = call(chain_for(victim), "bash", command="echo x > env/lib/evil.pth; rm -f proj/.venv/pyvenv.cfg")
    assert not (victim.work / "env" / "lib" / "evil.pth").exists()
    assert (victim.work / "proj" / ".venv" / "pyvenv.cfg").exists()


def test_a_working_directory_that_is_an_environment_keeps_its_parts_read_only(tmp_path: Path) -> None:
    site = make_venv(tmp_path)  # python -m venv . and the work beside it
    executor = ShellExecutor(Settings(), workdir=tmp_path, env={"PATH": os.environ["PATH"], "HOME": str(tmp_path)})
    out = asyncio.run(executor.run_command(f"echo x > {site}/evil.pth; echo work > notes.txt", timeout=30))
    assert "Read-only file system" in out.summary
    assert not (site / "evil.pth").exists() and (tmp_path / "notes.txt").read_text() == "work\n"


@pytest.mark.parametrize(
    "command",
    [
        "proj/.venv/bin/python -m pip install six",
        "cd proj && .venv/bin/pip install six",
        "cd proj && source .venv/bin/activate && pip install six",
        "uv pip install --python proj/.venv six",
        "cd proj && uv sync",
    ],
)
def test_an_approved_install_gets_the_environment_it_names(tmp_path: Path, command: str) -> None:
    venv = tmp_path / "proj" / ".venv"
    site = make_venv(venv)
    (venv / "bin" / "pip").write_text("#!/bin/sh\n")
    settings = Settings()
    scope = scope_of(settings, None, shell_classifier(settings).analyze(command), tmp_path)
    assert scope.environment == venv
    assert f"this command can install into the environment ({venv})" in scope.extras
    # What the approval gives: that environment writable for the call (here without the network, which an install
    # from the index gets through the proxy), the kernel's own still read-only.
    executor = ShellExecutor(settings, workdir=tmp_path, env={"PATH": os.environ["PATH"], "HOME": str(tmp_path)})
    granted = dataclasses.replace(scope, hosts=())
    asyncio.run(executor.run_command(f"echo '# installed' > {site}/ok.pth", timeout=30, scope=granted))
    assert (site / "ok.pth").exists()


def test_a_plain_install_still_names_the_kernels_environment(tmp_path: Path) -> None:
    make_venv(tmp_path / ".venv")
    settings = Settings()
    scope = scope_of(settings, None, shell_classifier(settings).analyze("pip install six"), tmp_path)
    assert scope.environment == settings.python_prefix
    assert f"this command can install into the kernel's environment ({settings.python_prefix})" in scope.extras


def test_a_working_directory_holding_more_to_protect_than_bubblewrap_takes_is_refused_saying_what_to_do(
    crowded_tmp: Path,
) -> None:
    # 3,100 projects each with its own zeph.toml: three arguments each is past bubblewrap's 9,000, which it refused
    # with "Exceeded maximum number of arguments 9000" and nothing else (found with /tmp allowed on a busy machine).
    for n in range(3100):
        (crowded_tmp / f"p{n}").mkdir()
        (crowded_tmp / f"p{n}" / "zeph.toml").write_text("")
    executor = ShellExecutor(
        Settings(), workdir=crowded_tmp, env={"PATH": os.environ["PATH"], "HOME": str(crowded_tmp)}
    )
    before = len(os.listdir("/proc/self/fd"))
    with pytest.raises(ToolError) as refused:
        asyncio.run(executor.run_command("echo ran > ran.txt", timeout=30))
    assert refused.value.category == ToolErrorCategory.PERMANENT_FAILURE
    said = str(refused.value)
    assert "3,100 settings and policy files" in said and "allowed_paths" in said and "9,000" in said, said
    assert not (crowded_tmp / "ran.txt").exists()
    assert len(os.listdir("/proc/self/fd")) == before  # the gate's pipe was closed, not left open per command
