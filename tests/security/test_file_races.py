"""The file tools against a command that swaps links and parent directories while they run, and against hard links.

A second process (real parallelism, not a thread waiting for the GIL) keeps replacing ``race.txt`` with a link to a
file outside the sandbox and back, and ``sub/`` with a link to an outside directory, to a ``deny_read`` directory,
and back. Meanwhile every file tool runs in a loop. Whatever interleaving happens, no tool may return outside or
denied text, list an outside name, or create, change or delete anything outside.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from zeph_nb.config import Settings
from zeph_nb.errors import ToolError
from zeph_nb.gates.approval import AutoApprove, ScriptedApprover
from zeph_nb.gates.chain import build_chain
from zeph_nb.security.os_sandbox import probe
from zeph_nb.store.store import Store
from zeph_nb.tools.base import ToolCall
from zeph_nb.tools.files.executor import FileExecutor

# How long the swapping runs; the bar is 10 s. A run with a shorter budget still has to pass.
SECONDS = float(os.environ.get("ZEPH_RACE_SECONDS", "10"))
OUTSIDE_TEXT = "OUTSIDE-SECRET"
DENIED_TEXT = "DENIED-SECRET"

SWAPPER = r"""
import os, sys, time
work, outside, stop = sys.argv[1], sys.argv[2], sys.argv[3]
os.chdir(work)
def attempt(action, *args):
    try:
        action(*args)
    except OSError:
        pass
def swap_file():
    attempt(os.symlink, os.path.join(outside, "secret.txt"), "race.lnk")
    attempt(os.replace, "race.lnk", "race.txt")
    with open("race.tmp", "w") as f:
        f.write("inside text\n")
    attempt(os.replace, "race.tmp", "race.txt")
def swap_dir(target):
    attempt(os.rename, "sub", "sub.real")
    attempt(os.symlink, target, "sub")
    attempt(os.unlink, "sub")
    attempt(os.rename, "sub.real", "sub")
while not os.path.exists(stop):
    swap_file()
    swap_dir(outside)
    swap_dir(os.path.join(work, "private"))
"""


def _digest(folder: Path) -> dict[str, str]:
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "dir"
        for path in sorted(folder.rglob("*"))
    }


def test_swapping_links_and_parents_never_leads_a_tool_outside(tmp_path: Path) -> None:
    work, outside = tmp_path / "work", tmp_path / "outside"
    for folder in (work / "sub", work / "private", outside):
        folder.mkdir(parents=True)
    (outside / "secret.txt").write_text(OUTSIDE_TEXT + "\n")
    (outside / "outside-only-name.txt").write_text(OUTSIDE_TEXT + "\n")
    (work / "private" / "secret.txt").write_text(DENIED_TEXT + "\n")
    (work / "private" / "denied-only-name.txt").write_text(DENIED_TEXT + "\n")
    (work / "race.txt").write_text("inside text\n")
    (work / "sub" / "secret.txt").write_text("inside text\n")
    before = _digest(outside)
    settings = Settings.from_toml('[tools.file]\ndeny_read = ["private/**"]\n')
    files = FileExecutor(settings, workdir=work)
    stop = tmp_path / "stop"
    swapper = subprocess.Popen([sys.executable, "-c", SWAPPER, str(work), str(outside), str(stop)])
    calls: list[tuple[str, dict[str, Any]]] = []
    succeeded: dict[str, int] = {}
    deadline = time.monotonic() + SECONDS
    i = 0
    try:
        while time.monotonic() < deadline:
            i += 1
            for tool, params in (
                ("read", {"path": "race.txt"}),
                ("read", {"path": "sub/secret.txt"}),
                ("list_directory", {"path": "sub"}),
                ("grep", {"pattern": "SECRET", "path": "sub"}),
                ("grep", {"pattern": "SECRET"}),
                ("find_path", {"pattern": "sub/*"}),
                ("write", {"path": f"sub/new-{i}.txt", "content": "written\n"}),
                ("write", {"path": "race.txt", "content": "inside text\n"}),
                ("edit", {"path": "sub/secret.txt", "old_string": "inside", "new_string": "inside"}),
                ("create_directory", {"path": f"sub/dir-{i}/deeper"}),
                ("copy_path", {"source": "sub", "destination": f"copies/sub-{i}"}),
                ("copy_path", {"source": "race.txt", "destination": f"copies/race-{i}.txt"}),
                ("move_path", {"source": f"sub/new-{i}.txt", "destination": f"sub/moved-{i}.txt"}),
                ("delete_path", {"path": f"sub/moved-{i}.txt"}),
                ("delete_path", {"path": f"sub/dir-{i}"}),
            ):
                calls.append((tool, params))
                try:
                    out = files.run(tool, **params)
                except ToolError as error:
                    text = error.message
                else:
                    succeeded[tool] = succeeded.get(tool, 0) + 1
                    text = out.summary + repr(out.raw)
                for marker in (OUTSIDE_TEXT, DENIED_TEXT, "outside-only-name", "denied-only-name"):
                    assert marker not in text, f"{tool} {params} returned {marker}:\n{text}"
    finally:
        stop.touch()
        swapper.wait(timeout=30)
    assert _digest(outside) == before, "something outside the sandbox changed"
    assert (work / "private" / "secret.txt").read_text() == DENIED_TEXT + "\n"
    # What the tools left inside (the swapper may have stopped with sub/ a link: os.walk does not follow it).
    for folder, _, names in os.walk(work):
        for name in names:
            path = Path(folder, name)
            if path.is_symlink() or work / "private" in path.parents:
                continue
            text = path.read_text(errors="replace")
            assert OUTSIDE_TEXT not in text and DENIED_TEXT not in text, f"{path} holds outside content"
    # The loop really ran the tools, not only their refusals.
    assert {"read", "write", "list_directory", "copy_path", "move_path", "delete_path"} <= succeeded.keys(), succeeded


SANDBOX = probe("auto")


@pytest.mark.skipif(not SANDBOX.active, reason=f"no OS sandbox here: {SANDBOX.reason}")
@pytest.mark.parametrize(
    "command",
    [
        "ln {outside} hard",
        'python3 -c \'import os; os.link("{outside}", "hard")\'',
        "cp -al {outside} hard",
        "ln -P {outside} hard || link {outside} hard",
    ],
)
def test_no_call_can_hard_link_an_outside_file_into_the_working_directory(tmp_path: Path, command: str) -> None:
    # A hard link would be a second name *inside* for the outside file: every path check would see an inside path.
    # The OS sandbox's mounts make link(2) across them fail (EXDEV), even when the person approves the command.
    home = Path(os.environ.get("TMPDIR", "/var/tmp"))
    base = Path(os.path.realpath(home)) / f"zeph-hardlink-{os.getpid()}"
    work, outside = base / "work", base / "outside.txt"
    work.mkdir(parents=True, exist_ok=True)
    outside.write_text(OUTSIDE_TEXT)
    try:
        settings = Settings().model_copy(update={"home": base / "zeph"})
        store = Store(settings, flusher=False)
        chain = build_chain(settings, workdir=work, approver=AutoApprove(), store=store)
        try:
            asyncio.run(chain.execute(ToolCall("bash", {"command": command.format(outside=outside)})))
        finally:
            store.close()
        inode = (outside.stat().st_dev, outside.stat().st_ino)
        linked = [p for p in work.rglob("*") if (p.lstat().st_dev, p.lstat().st_ino) == inode]
        assert not linked and outside.stat().st_nlink == 1
    finally:
        subprocess.run(["rm", "-rf", str(base)], check=False)


def test_without_a_sandbox_ln_asks(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    settings = Settings.from_toml('[tools.shell]\nsandbox = "off"\n').model_copy(update={"home": tmp_path / "zeph"})
    store = Store(settings, flusher=False)
    approver = ScriptedApprover(["deny", "deny"])
    chain = build_chain(settings, workdir=work, approver=approver, store=store)
    try:
        for command in ("ln /etc/hostname hard", 'python3 -c \'import os; os.link("/etc/hostname", "h")\''):
            outcome = asyncio.run(chain.execute(ToolCall("bash", {"command": command})))
            assert outcome.status == "denied", command
    finally:
        store.close()
    assert len(approver.requests) == 2
    assert not (work / "hard").exists() and not (work / "h").exists()
