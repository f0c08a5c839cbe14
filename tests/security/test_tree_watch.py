"""Recursive inotify watches (``security/tree_watch.py``) on real folders: what a command does fast, deep, by
renaming, or in more folders than there are watches, is either seen or said to be missed."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from zeph_nb.security.tree_watch import Change, TreeWatch

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="inotify is Linux's")


def changes_until(watch: TreeWatch, wanted: str, bound: float = 10.0) -> list[Change]:
    """Read until a change at ``wanted`` shows (a bound that tells a hang, not a timing assertion)."""
    seen: list[Change] = []
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline:
        seen += watch.read(0.1)
        if any(change.path == wanted for change in seen):
            break
    return seen


def test_a_deep_tree_made_at_once_is_seen_whole(tmp_path: Path) -> None:
    watch = TreeWatch()
    watch.add(str(tmp_path))
    # Faster than any watch can be added for the new folders: what was put inside them is found by listing.
    subprocess.run(["sh", "-c", "mkdir -p a/b/c/d/e && mkdir a/b/c/d/e/.git && echo x > a/b/c/d/e/.git/config"],
                   cwd=tmp_path, check=True)  # fmt: skip
    config = str(tmp_path / "a/b/c/d/e/.git/config")
    seen = changes_until(watch, config)
    assert any(c.path == config for c in seen)
    assert any(c.path == str(tmp_path / "a/b/c/d/e/.git") and c.is_dir for c in seen)
    # And the new folders are watched from then on.
    (tmp_path / "a/b/c/d/e/.git/hooks").mkdir()
    assert any(c.path.endswith("/.git/hooks") for c in changes_until(watch, str(tmp_path / "a/b/c/d/e/.git/hooks")))
    watch.close()


def test_a_rename_into_place_and_a_renamed_folder_report_where_things_are_now(tmp_path: Path) -> None:
    (tmp_path / "stage" / "gitx" / "hooks").mkdir(parents=True)
    (tmp_path / "stage" / "gitx" / "config").write_text("[core]\n")
    (tmp_path / "r").mkdir()
    watch = TreeWatch()
    watch.add(str(tmp_path))
    os.rename(tmp_path / "stage" / "gitx", tmp_path / "r" / ".git")
    seen = changes_until(watch, str(tmp_path / "r" / ".git"))
    assert Change(str(tmp_path / "r" / ".git"), "moved", True) in seen
    assert any(c.path == str(tmp_path / "r/.git/config") for c in seen)  # its content, listed
    # The folder's watches moved with it: a hook written there now is reported under its new path.
    os.rename(tmp_path / "r", tmp_path / "q")
    watch.read(0.2)
    (tmp_path / "q" / ".git" / "hooks" / "pre-commit").write_text("#!/bin/sh\n")
    hook = str(tmp_path / "q/.git/hooks/pre-commit")
    assert any(c.path == hook for c in changes_until(watch, hook))
    watch.close()


def test_no_watch_left_is_said(tmp_path: Path) -> None:
    for name in "abc":
        (tmp_path / name).mkdir()
    watch = TreeWatch(max_watches=2)
    watch.add(str(tmp_path))
    assert watch.incomplete and watch.watches == 2
    watch.close()


def test_an_overflowing_queue_is_said(tmp_path: Path) -> None:
    queued = int(Path("/proc/sys/fs/inotify/max_queued_events").read_text())
    if queued > 100_000:
        pytest.skip(f"the queue holds {queued} events here")
    watch = TreeWatch()
    watch.add(str(tmp_path))
    subprocess.run(["python3", "-c", f"[open(str(i), 'w').close() for i in range({queued + 1000})]"],
                   cwd=tmp_path, check=True)  # fmt: skip
    watch.read(1.0)
    assert watch.overflowed
    watch.close()


def test_git_data_folders_get_no_watch(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path / "repo")], check=True)
    watch = TreeWatch()
    watch.add(str(tmp_path))
    watched = set(watch._paths.values())
    assert str(tmp_path / "repo/.git/hooks") in watched
    assert not any("/objects" in path or "/refs" in path for path in watched)
    watch.close()
