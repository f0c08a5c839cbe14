"""After a command the classifier took for read-only, the trees are first looked at on the loop's own thread, up to
QUICK_ENTRIES: nothing changed there means nothing to record. What a command wrote is recorded all the same when the
trees are bigger than that look, or when the look finds it."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import zeph_nb
from zeph_nb.config import Settings
from zeph_nb.gates.undo import QUICK_ENTRIES
from zeph_nb.security.provenance import Provenance
from zeph_nb.store import Store

needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="needs bubblewrap (the OS sandbox)")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store(Settings().model_copy(update={"home": tmp_path / "home"}), flusher=False)
    yield opened
    opened.close()


def _run(store: Store, work: Path, command: str) -> zeph_nb.RunResult:
    settings = Settings().model_copy(update={"home": store.home})
    provider = zeph_nb.ScriptedProvider([[{"tool": "bash", "params": {"command": command}}], "done"])
    agent = zeph_nb.Agent(settings, provider, zeph_nb.DenyAll(), workdir=work, store=store)
    return agent.run_sync("go")


@needs_bwrap
def test_a_write_past_the_quick_look_is_recorded(store: Store, tmp_path: Path) -> None:
    work = tmp_path / "work"
    (work / "sub").mkdir(parents=True)
    for i in range(QUICK_ENTRIES + 200):  # the top folder alone is more than the look takes in
        (work / f"f{i}").write_text("")
    # uniq writing its output file: a command the classifier takes for read-only.
    result = _run(store, work, "printf 'x = 1\\n' | uniq - sub/sneaky.py")
    assert result.tool_calls[0].status == "ok", result.tool_calls[0].text
    assert Provenance(store.home).agent_written(work / "sub" / "sneaky.py") is not None
    assert Provenance(store.home).agent_written(work / "f1") is None


@needs_bwrap
def test_a_write_the_quick_look_finds_is_recorded(store: Store, tmp_path: Path) -> None:
    work = tmp_path / "work"
    (work / "sub").mkdir(parents=True)
    result = _run(store, work, "printf 'x = 1\\n' | sort -o sub/storemagic.py")
    assert result.tool_calls[0].status == "ok", result.tool_calls[0].text
    assert Provenance(store.home).agent_written(work / "sub" / "storemagic.py") is not None


@needs_bwrap
def test_a_command_that_wrote_nothing_records_nothing(store: Store, tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (work / "data.csv").write_text("a,b\n")
    result = _run(store, work, "cat data.csv")
    assert result.tool_calls[0].status == "ok" and "a,b" in result.tool_calls[0].text
    assert Provenance(store.home).agent_written(work / "data.csv") is None
