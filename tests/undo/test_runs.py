"""Undoing a run with real parts: an Agent with the scripted model, the real file tools and bash in the OS sandbox,
real files, links and modes in temp dirs, a real DuckDB store with its blobs."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import zeph_nb
from zeph_nb.config import Settings
from zeph_nb.errors import ZephError
from zeph_nb.store import Store
from zeph_nb.store.snapshots import FileChanges
from zeph_nb.undo.runs import RunUndo, describe_plan, prepare_undo


@pytest.fixture
def work(tmp_path: Path) -> Path:
    folder = tmp_path / "work"
    folder.mkdir()
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "target.txt").write_text("outside, not the run's\n")
    return folder


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store(Settings().model_copy(update={"home": tmp_path / "home"}), flusher=False)
    yield opened
    opened.close()


def run(store: Store, work: Path, *turns: Any, toml: str = "") -> zeph_nb.RunResult:
    """One run of an agent whose model asks for ``turns`` (each a tool call), every ask approved."""
    settings = Settings.from_toml(toml).model_copy(update={"home": store.home})
    provider = zeph_nb.ScriptedProvider([[{"tool": t, "params": p}] for t, p in turns] + ["done"])
    agent = zeph_nb.Agent(settings, provider, zeph_nb.AutoApprove(), workdir=work, store=store)
    result = agent.run_sync("change things")
    assert all(call.status == "ok" for call in result.tool_calls), [c.text for c in result.tool_calls]
    return result


def undo(store: Store, run_id: str | None = None) -> tuple[RunUndo, str]:
    prepared = prepare_undo(store, run_id)
    text = "\n".join(describe_plan(prepared))
    prepared.apply(store, by="tester")
    return prepared, text


def test_undo_restores_an_edited_file_with_its_mode_and_deletes_created_ones(store: Store, work: Path) -> None:
    (work / "notes.txt").write_text("old\n")
    os.chmod(work / "notes.txt", 0o640)
    result = run(store, work, ("edit", {"path": "notes.txt", "old_string": "old", "new_string": "new"}),
                 ("write", {"path": "deep/er/created.txt", "content": "hi\n"}),
                 ("bash", {"command": "chmod 600 notes.txt; echo x > from_shell.txt"}))  # fmt: skip
    assert (work / "notes.txt").read_text() == "new\n"
    prepared, text = undo(store)
    assert prepared.plan.run_id == result.run_id
    assert "restore  notes.txt" in text and "delete   from_shell.txt" in text and "deep/er/created.txt" in text
    assert (work / "notes.txt").read_text() == "old\n"
    assert oct(os.stat(work / "notes.txt").st_mode & 0o777) == oct(0o640)
    assert sorted(p.name for p in work.iterdir()) == ["notes.txt"]  # the folders write made are gone too
    again = prepare_undo(store, result.run_id)  # undo twice: nothing left to do, nothing refused
    assert again.empty and not again.plan.refused and len(again.plan.unchanged) == 5
    calls = store.query("SELECT tool, run_id, approved_by FROM tool_calls ORDER BY ts")
    assert list(calls["tool"])[-1] == "%zeph undo" and set(calls["run_id"]) == {result.run_id}
    assert list(calls["approved_by"])[-1] == "tester"


def test_a_file_the_person_changed_since_is_refused_and_named(store: Store, work: Path) -> None:
    (work / "a.txt").write_text("a\n")
    (work / "b.txt").write_text("b\n")
    run(store, work, ("write", {"path": "a.txt", "content": "run\n"}), ("write", {"path": "b.txt", "content": "run\n"}))
    (work / "b.txt").write_text("the person's own edit\n")
    prepared, text = undo(store)
    assert [path for path, _ in prepared.plan.refused] == [str(work / "b.txt")]
    assert "b.txt: changed since the run" in text
    assert (work / "a.txt").read_text() == "a\n"
    assert (work / "b.txt").read_text() == "the person's own edit\n"


def test_a_file_replaced_by_a_link_to_outside_is_put_back_and_the_outside_is_untouched(
    store: Store, work: Path, tmp_path: Path
) -> None:
    (work / "config.txt").write_text("mine\n")
    (work / "sub").mkdir()
    (work / "sub" / "inner.txt").write_text("inner\n")
    os.symlink("keep-this-target", work / "link")
    run(store, work, ("bash", {"command": "rm config.txt && ln -s ../outside/target.txt config.txt && rm -r sub && "
                                          "ln -s ../outside sub && rm link && ln -s elsewhere link"}))  # fmt: skip
    undo(store)
    outside = tmp_path / "outside"
    assert sorted(p.name for p in outside.iterdir()) == ["target.txt"]
    assert (outside / "target.txt").read_text() == "outside, not the run's\n"
    assert not (work / "config.txt").is_symlink() and (work / "config.txt").read_text() == "mine\n"
    assert not (work / "sub").is_symlink() and (work / "sub" / "inner.txt").read_text() == "inner\n"
    assert os.readlink(work / "link") == "keep-this-target"


def test_names_with_newlines_are_quoted_in_the_plan_and_undone(store: Store, work: Path) -> None:
    run(store, work, ("write", {"path": "two\nlines.txt", "content": "x"}))
    _, text = undo(store)
    assert '"two\\nlines.txt"' in text
    assert list(work.iterdir()) == []


def test_a_created_folder_holding_the_persons_files_is_kept(store: Store, work: Path) -> None:
    run(store, work, ("write", {"path": "made/by_run.txt", "content": "x"}))
    (work / "made" / "mine.txt").write_text("added by the person\n")
    _, text = undo(store)
    assert "made: the run created this folder, and it now holds what the run did not put there: 'mine.txt'" in text
    assert sorted(p.name for p in (work / "made").iterdir()) == ["mine.txt"]


def test_a_file_over_the_cap_is_said_not_restorable_and_the_rest_is(store: Store, work: Path) -> None:
    (work / "big.txt").write_text("x" * 5000 + "\n")
    (work / "small.txt").write_text("small\n")
    result = run(store, work, ("bash", {"command": "echo y >> big.txt; echo z >> small.txt"}),
                 toml="[undo]\nmax_snapshot_bytes = 1000\n")  # fmt: skip
    assert "big.txt' was not kept (over [undo] max_snapshot_bytes" in result.tool_calls[0].text
    _, text = undo(store)
    assert "big.txt: its earlier content was not kept" in text
    assert (work / "small.txt").read_text() == "small\n"
    assert (work / "big.txt").read_text().endswith("y\n")


def test_with_undo_required_a_call_over_the_cap_does_not_run(store: Store, work: Path) -> None:
    (work / "big.txt").write_text("x" * 5000)
    settings = Settings.from_toml("[undo]\nmax_snapshot_bytes = 1000\nrequired = true\n")
    settings = settings.model_copy(update={"home": store.home})
    provider = zeph_nb.ScriptedProvider([[{"tool": "bash", "params": {"command": "rm big.txt"}}], "done"])
    agent = zeph_nb.Agent(settings, provider, zeph_nb.AutoApprove(), workdir=work, store=store)
    result = agent.run_sync("go")
    assert result.tool_calls[0].status == "error" and "[undo] required" in result.tool_calls[0].text
    assert (work / "big.txt").exists()


def test_contents_are_kept_once_and_byte_for_byte_even_when_they_look_like_secrets(store: Store, work: Path) -> None:
    secret = "password = hunter2hunter2\nAKIAIOSFODNN7EXAMPLE\n"
    (work / "a.env").write_text(secret)
    (work / "b.env").write_text(secret)
    run(store, work, ("bash", {"command": "rm a.env b.env"}))
    blobs = [p for p in (store.home / "blobs").rglob("*") if p.is_file()]
    assert len(blobs) == 1
    undo(store)
    assert (work / "a.env").read_text() == secret and (work / "b.env").read_text() == secret


def test_read_only_commands_and_reads_record_nothing(store: Store, work: Path) -> None:
    (work / "a.txt").write_text("a\n")
    run(store, work, ("bash", {"command": "cat a.txt"}), ("read", {"path": "a.txt"}))
    assert FileChanges(store).runs().empty
    with pytest.raises(ZephError, match="nothing to undo"):
        prepare_undo(store)


def test_a_later_run_is_undone_by_default_and_an_earlier_one_by_its_id(store: Store, work: Path) -> None:
    first = run(store, work, ("write", {"path": "one.txt", "content": "1"}))
    run(store, work, ("write", {"path": "two.txt", "content": "2"}))
    undo(store)
    assert sorted(p.name for p in work.iterdir()) == ["one.txt"]
    undo(store, first.run_id[:6])
    assert list(work.iterdir()) == []
    with pytest.raises(ZephError, match="no run 'nope'"):
        prepare_undo(store, "nope")


def test_remote_runs_are_said_not_to_be_followed(store: Store, work: Path) -> None:
    from zeph_nb.gates.call import Prepared
    from zeph_nb.gates.undo import Snapshotter
    from zeph_nb.tools.base import ToolCall

    settings = Settings.from_toml('[tools.execution]\nbackend = "ssh"\nssh = "me@gpu"\n')
    keeper = Snapshotter(settings, work, FileChanges(store), run=lambda: "r1", conversation=lambda: "c")
    # The remote toolset's write (nothing connects before a call runs): its spec says it acts over there.
    remote = settings.model_copy(update={"home": store.home})
    chain = zeph_nb.Agent(remote, zeph_nb.ScriptedProvider([]), workdir=work, store=store).chain
    ctx: Prepared = chain.session.prepare(ToolCall("write", {"path": "x", "content": "y"}))
    assert ctx.tool.remote
    assert keeper.roots(ctx) == "remote: on me@gpu (ssh)"
    keeper.note(ctx, "remote: on me@gpu (ssh)")
    text = "\n".join(describe_plan(prepare_undo(store, "r1")))
    assert "Not followed" in text and "write: remote: on me@gpu (ssh)" in text


def test_a_relative_working_directory_is_relative_to_the_process(
    store: Store, work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(work.parent)
    agent = zeph_nb.Agent(Settings(), zeph_nb.ScriptedProvider([]), workdir="work", store=store)
    assert agent.workdir == work.resolve()


def test_nothing_is_written_through_a_link_the_person_pointed_elsewhere_since(
    store: Store, work: Path, tmp_path: Path
) -> None:
    (work / "sub").mkdir()
    (work / "sub" / "inner.txt").write_text("inner\n")
    run(store, work, ("bash", {"command": "rm -r sub && ln -s ../outside sub"}))
    (tmp_path / "other").mkdir()
    os.unlink(work / "sub")
    os.symlink(tmp_path / "other", work / "sub")  # the link is the person's now: undo must keep off it
    prepared = prepare_undo(store)
    report = prepared.apply(store, by="tester")
    assert [path for path, _ in prepared.plan.refused] == [str(work / "sub")]
    assert [path for path, _ in report.failed] == [str(work / "sub" / "inner.txt")]
    assert list((tmp_path / "other").iterdir()) == [] and os.readlink(work / "sub") == str(tmp_path / "other")


def test_a_file_moved_past_the_cap_is_not_deleted_by_undo(store: Store, work: Path) -> None:
    (work / "big.dat").write_text("x" * 5000)
    run(store, work, ("move_path", {"source": "big.dat", "destination": "moved.dat"}),
        toml="[undo]\nmax_snapshot_bytes = 1000\n")  # fmt: skip
    _, text = undo(store)
    assert "moved.dat: it may be the only copy of 'big.dat'" in text
    assert (work / "moved.dat").read_text() == "x" * 5000


def test_moves_copies_and_deleted_trees_are_put_back(store: Store, work: Path) -> None:
    (work / "tree" / "deep").mkdir(parents=True)
    (work / "tree" / "deep" / "leaf.txt").write_text("leaf\n")
    os.chmod(work / "tree" / "deep", 0o700)
    (work / "keep.txt").write_text("keep\n")
    run(store, work, ("copy_path", {"source": "tree", "destination": "copy"}),
        ("move_path", {"source": "keep.txt", "destination": "tree/kept.txt"}),
        ("delete_path", {"path": "tree"}), ("create_directory", {"path": "empty/one"}))  # fmt: skip
    assert sorted(p.name for p in work.iterdir()) == ["copy", "empty"]
    undo(store)
    assert sorted(str(p.relative_to(work)) for p in work.rglob("*")) == [
        "keep.txt", "tree", "tree/deep", "tree/deep/leaf.txt"]  # fmt: skip
    assert (work / "tree" / "deep" / "leaf.txt").read_text() == "leaf\n"
    assert oct(os.stat(work / "tree" / "deep").st_mode & 0o777) == oct(0o700)


def test_files_zeph_may_not_read_are_not_copied_into_the_store(store: Store, work: Path) -> None:
    key = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n"
    (work / "server.pem").write_text(key)
    (work / "notes.txt").write_text("notes\n")
    result = run(store, work, ("bash", {"command": "echo changed > server.pem; echo more >> notes.txt"}),
                 toml='[tools.file]\ndeny_read = ["**/*.pem"]\n')  # fmt: skip
    assert "'server.pem' was not kept" in result.tool_calls[0].text and "zeph may not read" in result.tool_calls[0].text
    blobs = [p.read_bytes() for p in (store.home / "blobs").rglob("*") if p.is_file()]
    assert blobs and not any(b"MIIEvQ" in blob for blob in blobs)  # no second copy of a key zeph may not read
    _, text = undo(store)
    assert "server.pem: its earlier content was not kept" in text and (work / "notes.txt").read_text() == "notes\n"


def test_without_an_id_undo_takes_this_kernels_run_never_another_notebooks(store: Store, work: Path) -> None:
    import subprocess
    import sys

    # Another notebook: another kernel (process) writing a run to the same store.
    script = (
        "import sys, zeph_nb\nfrom zeph_nb.config import Settings\n"
        "settings = Settings().model_copy(update={'home': __import__('pathlib').Path(sys.argv[1])})\n"
        "write = {'tool': 'write', 'params': {'path': 'theirs.md', 'content': 'x'}}\n"
        "model = zeph_nb.ScriptedProvider([[write], 'ok'])\n"
        "agent = zeph_nb.Agent(settings, model, zeph_nb.AutoApprove(), sys.argv[2])\n"
        "agent.run_sync('write'); agent.chain.store.close()\n"
    )
    subprocess.run([sys.executable, "-c", script, str(store.home), str(work)], check=True, timeout=120)
    assert (work / "theirs.md").exists()
    with pytest.raises(ZephError, match=r"no run in this kernel has changed files.*other notebooks"):
        prepare_undo(store, pid=os.getpid())
    theirs = str(FileChanges(store).runs(limit=1)["run_id"][0])
    prepare_undo(store, theirs).apply(store, by="tester")  # by its id, on purpose: allowed
    assert not (work / "theirs.md").exists()
    run(store, work, ("write", {"path": "mine.md", "content": "y"}))
    assert prepare_undo(store, pid=os.getpid()).plan.run_id != theirs  # now this kernel's own


def test_a_name_no_file_system_takes_is_the_calls_own_error_not_the_snapshots(
    store: Store, work: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    # The undo gate snapshots what a call may touch before it runs; a 300-character name made its walk raise
    # (ENAMETOOLONG) and the call failed as an internal error with a traceback on the kernel's stderr.
    long = "a" * 300 + ".txt"
    settings = Settings().model_copy(update={"home": store.home})
    turns: list[Any] = [[{"tool": "write", "params": {"path": long, "content": "x"}}],
                        [{"tool": "write", "params": {"path": f"d/{long}/x", "content": "x"}}],  # its parent
                        [{"tool": "find_path", "params": {"pattern": "{a,b}" * 12}}], "done"]  # fmt: skip
    agent = zeph_nb.Agent(settings, zeph_nb.ScriptedProvider(turns), zeph_nb.AutoApprove(), workdir=work, store=store)
    calls = agent.run_sync("write it").tool_calls
    assert [(c.tool, c.status) for c in calls] == [("write", "error"), ("write", "error"), ("find_path", "error")]
    assert all("category: invalid_parameters" in c.text for c in calls), [c.text[-300:] for c in calls]
    assert "File name too long" in calls[0].text
    assert "braces expand to more than 1,000 patterns" in calls[2].text
    assert "Traceback" not in capfd.readouterr().err
    assert list(work.iterdir()) == []
