"""The shell's transactional rollback and ``%zeph undo`` put files back by one mechanism (``zeph_nb/undo``), so they
share its safety: a command that swaps a file and a folder for links to outside the working directory is undone
the same way either way, and nothing is ever written through a link. Real temp dirs, real bash (in the OS sandbox
when one works here), a real store for the run's undo."""

from __future__ import annotations

import json
import os
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

import zeph_nb
from zeph_nb.config import Settings
from zeph_nb.store import Store
from zeph_nb.tools.base import ToolCall
from zeph_nb.tools.shell.executor import ShellExecutor
from zeph_nb.undo.runs import prepare_undo
from zeph_nb.undo.transaction import Transaction

BASE_ENV = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
HOSTILE = ("rm config.txt && ln -s ../outside/target.txt config.txt && rm -r sub && ln -s ../outside sub && "
           "rm link && ln -s elsewhere link && echo new > made.txt")  # fmt: skip
TX = '[tools.shell]\ntransactional = true\nauto_rollback = true\ntransaction_scope = ["**"]\n'


@pytest.fixture
def work(tmp_path: Path) -> Path:
    folder = tmp_path / "work"
    folder.mkdir()
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "target.txt").write_text("outside, not the command's\n")
    (folder / "config.txt").write_text("mine\n")
    os.chmod(folder / "config.txt", 0o640)
    (folder / "sub").mkdir()
    (folder / "sub" / "inner.txt").write_text("inner\n")
    os.symlink("keep-this-target", folder / "link")
    return folder


async def roll_back_in_the_shell(work: Path, store: Store) -> None:
    executor = ShellExecutor(Settings.from_toml(TX), workdir=work, env=BASE_ENV)
    out = await executor.execute(ToolCall("bash", {"command": HOSTILE + " && exit 3"}))
    assert out is not None and out.exit_code == 3
    assert out.raw["rollback"] == {"restored": ["config.txt", "link", "sub", "sub/inner.txt"], "removed": ["made.txt"]}


async def undo_the_run(work: Path, store: Store) -> None:
    settings = Settings().model_copy(update={"home": store.home})
    provider = zeph_nb.ScriptedProvider([[{"tool": "bash", "params": {"command": HOSTILE}}], "done"])
    agent = zeph_nb.Agent(settings, provider, zeph_nb.AutoApprove(), workdir=work, store=store)
    result = await agent.run("change things")
    assert [call.status for call in result.tool_calls] == ["ok"]
    undo = prepare_undo(store, result.run_id)
    report = undo.apply(store, by="tester")
    assert not report.failed and not undo.plan.refused


@pytest.mark.parametrize("put_back", [roll_back_in_the_shell, undo_the_run], ids=["shell rollback", "%zeph undo"])
async def test_links_to_outside_are_replaced_never_written_through(
    put_back: Callable[[Path, Store], Awaitable[None]], work: Path, store: Store
) -> None:
    await put_back(work, store)
    outside = work.parent / "outside"
    assert sorted(p.name for p in outside.iterdir()) == ["target.txt"]
    assert (outside / "target.txt").read_text() == "outside, not the command's\n"
    assert not (work / "config.txt").is_symlink() and (work / "config.txt").read_text() == "mine\n"
    assert oct(os.stat(work / "config.txt").st_mode & 0o777) == oct(0o640)
    assert not (work / "sub").is_symlink() and (work / "sub" / "inner.txt").read_text() == "inner\n"
    assert os.readlink(work / "link") == "keep-this-target"
    assert sorted(p.name for p in work.iterdir()) == ["config.txt", "link", "sub"]


def test_a_rollback_refuses_what_it_cannot_make_and_says_why(tmp_path: Path) -> None:
    """A FIFO the command removed is not forced back: it is named, with why, and the rest is rolled back."""
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "a.txt").write_text("a\n")
    transaction = Transaction.begin(tmp_path, [])
    (tmp_path / "pipe").unlink()
    (tmp_path / "a.txt").write_text("changed\n")
    rollback = transaction.roll_back()
    assert rollback.restored == ("a.txt",) and (tmp_path / "a.txt").read_text() == "a\n"
    assert [path for path, _ in rollback.not_restored] == ["pipe"]
    assert "special file" in rollback.raw()["not_restored"][0]
    assert "left as the command left them" in rollback.describe()


@pytest.mark.parametrize(
    ("scope", "restored", "removed", "left"),
    [
        (["src/**"], ["src/a.py", "src/b.txt"], ["src/made", "src/made/c.py"], ["top.txt"]),
        (["**/*.py"], ["src/a.py"], ["src/made/c.py"], ["src/made", "top.txt"]),  # folders match no *.py: kept
        (["src/a.py", "top.txt"], ["src/a.py", "top.txt"], [], ["src/b.txt", "src/made", "src/made/c.py"]),
        ([], ["src/a.py", "src/b.txt", "top.txt"], ["src/made", "src/made/c.py"], []),
    ],
)
def test_the_scope_decides_what_is_put_back(
    tmp_path: Path, scope: list[str], restored: list[str], removed: list[str], left: list[str]
) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / ".git").mkdir()
    for name in ("src/a.py", "src/b.txt", "top.txt", ".git/HEAD"):
        (tmp_path / name).write_text("before\n")
    transaction = Transaction.begin(tmp_path, scope)
    (tmp_path / "src" / "made").mkdir()
    for name in ("src/a.py", "src/b.txt", "top.txt", ".git/HEAD", "src/made/c.py"):
        (tmp_path / name).write_text("after\n")
    rollback = transaction.roll_back()
    assert (list(rollback.restored), list(rollback.removed), rollback.not_restored) == (restored, removed, ())
    assert all((tmp_path / name).exists() for name in left)
    assert (tmp_path / ".git" / "HEAD").read_text() == "after\n"  # VCS folders are never in a transaction


def test_a_change_that_keeps_size_and_time_is_seen_with_the_byte_cap_spent(tmp_path: Path) -> None:
    """The cap bounds what is kept before; after, each file in scope is read again whatever it cost before, so a
    rewrite that keeps the size and the mtime is still told from no change."""
    (tmp_path / "a.txt").write_text("aaaa\n")
    transaction = Transaction.begin(tmp_path, [], max_bytes=5)
    was = os.stat(tmp_path / "a.txt")
    (tmp_path / "a.txt").write_text("bbbb\n")
    os.utime(tmp_path / "a.txt", ns=(was.st_atime_ns, was.st_mtime_ns))
    assert transaction.roll_back().restored == ("a.txt",)
    assert (tmp_path / "a.txt").read_text() == "aaaa\n"


# A child process rolls back (or hashes) one large sparse file; its peak RSS is a memory bound on the call. It is
# started by a small launcher, which reports the child's ru_maxrss: a child's own counts the memory of the process
# it was forked from, here pytest's.
_WORK = """
import asyncio, json, os, sys
from pathlib import Path
from zeph_nb.config import Settings
from zeph_nb.tools.base import ToolCall
from zeph_nb.tools.shell.executor import ShellExecutor
from zeph_nb.undo.states import Capture
work, size, what = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
if what == "rollback":
    tx = "[tools.shell]\\ntransactional = true\\nauto_rollback = true\\nmax_snapshot_bytes = 1048576\\n"
    executor = ShellExecutor(Settings.from_toml(tx), workdir=work, env={"PATH": os.environ["PATH"]})
    out = asyncio.run(executor.execute(ToolCall("bash", {"command": f"truncate -s {size} big.bin; exit 1"})))
    result = out.raw["rollback"]
else:
    with open(work / "big.bin", "wb") as big:
        big.truncate(int(size))
    result = Capture(None).state(str(work / "big.bin")).sha256
print(json.dumps(result))
"""
_LAUNCH = """
import resource, subprocess, sys
subprocess.run([sys.executable, "-c", *sys.argv[1:]], check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""
_BIG = 512 * 2**20


def _peak(work: Path, size: str, what: str) -> tuple[object, float]:
    """What the child returned, and its peak RSS in MiB."""
    import json
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _LAUNCH, _WORK, str(work), size, what], capture_output=True,
                          text=True, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}, check=True)  # fmt: skip
    *_, result, peak_kib = done.stdout.splitlines()
    return json.loads(result), int(peak_kib) / 1024


def test_a_rollback_deletes_a_large_new_file_without_reading_it(tmp_path: Path) -> None:
    """A failing command that leaves a 512 MiB (sparse) file: the rollback only deletes it. Its look at what the
    command left once read it whole (and the plan read it again), twice its size in memory."""
    (tmp_path / "a.txt").write_text("kept\n")
    rollback, peak_mib = _peak(tmp_path, "512M", "rollback")
    assert rollback == {"restored": [], "removed": ["big.bin"]}
    assert not (tmp_path / "big.bin").exists() and (tmp_path / "a.txt").read_text() == "kept\n"
    assert peak_mib < 200, f"rolling back a 512 MiB new file took {peak_mib:.0f} MiB"


def test_a_file_whose_content_is_not_kept_is_hashed_a_chunk_at_a_time(tmp_path: Path) -> None:
    """Without a sink (provenance only, or a rollback's look after the command) a file is hashed, never held."""
    import hashlib

    sha256, peak_mib = _peak(tmp_path, str(_BIG), "hash")
    zeros, expected = bytes(2**20), hashlib.sha256()
    for _ in range(_BIG // len(zeros)):
        expected.update(zeros)
    assert sha256 == expected.hexdigest()
    assert peak_mib < 200, f"hashing a 512 MiB file took {peak_mib:.0f} MiB"


def test_a_file_the_command_resized_is_restored_and_a_touched_one_is_not(tmp_path: Path) -> None:
    """Only a file of its earlier size is read after the command; one whose size changed differs already."""
    (tmp_path / "grown.txt").write_text("short\n")
    (tmp_path / "touched.txt").write_text("same\n")
    transaction = Transaction.begin(tmp_path, [])
    (tmp_path / "grown.txt").write_text("much longer than before\n")
    (tmp_path / "touched.txt").write_text("same\n")  # rewritten, same content: not a change
    os.utime(tmp_path / "touched.txt", ns=(1, 1))
    rollback = transaction.roll_back()
    assert (rollback.restored, rollback.removed) == (("grown.txt",), ())
    assert (tmp_path / "grown.txt").read_text() == "short\n"


async def test_a_rollback_is_in_the_outcome_the_audit_row_and_the_card(work: Path, store: Store) -> None:
    """A command rolled back left no trace but a line in its output: the audit row said ok and nothing else. Now
    the outcome says what was put back, the row's ``rollback`` column keeps it, and the card says so."""
    from zeph_nb.gates import AutoApprove, build_chain
    from zeph_nb.notebook.cards import ToolCard

    settings = Settings.from_toml(TX).model_copy(update={"home": store.home})
    executor = ShellExecutor(settings, workdir=work, env=BASE_ENV)
    chain = build_chain(settings, workdir=work, store=store, executor=executor, approver=AutoApprove())
    failed = await chain.execute(ToolCall("bash", {"command": "echo broken > config.txt; echo new > made.txt; exit 2"}))
    kept = await chain.execute(ToolCall("bash", {"command": "echo fine > made.txt"}))
    assert failed.rollback == {"restored": ["config.txt"], "removed": ["made.txt"]}, failed.output.raw
    assert kept.rollback is None and (work / "config.txt").read_text() == "mine\n"
    store.flush()
    rows = store.query("SELECT status, rollback FROM tool_calls ORDER BY ts")
    assert list(rows["status"]) == ["ok", "ok"]  # it ran and exited 2: the rollback is beside the status
    assert json.loads(rows["rollback"][0]) == failed.rollback and rows["rollback"].isna()[1]
    card = ToolCard("bash", failed.call.params)
    card.finished(failed)
    assert "rolled back" in card.title.value and "restored 1 file" in card.stats.value, card.stats.value
