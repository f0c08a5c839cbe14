"""The guard's journal written in place: an entry file per command slot of this process, emptied (not removed)
after its command, written over before the next one — read as before by ``suspects`` and ``settle``."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

from zeph_nb.security.journal import DIRECTORY, GuardJournal, settle, suspects


def _files(home: Path) -> list[Path]:
    return sorted((home / DIRECTORY).glob("*.json"))


def test_an_entry_names_its_paths_while_its_command_runs_and_none_after(tmp_path: Path) -> None:
    toml = tmp_path / "work" / "zeph.toml"
    with GuardJournal(tmp_path, [toml]) as journal:
        assert suspects(tmp_path) == {toml}
        assert journal.path is not None and journal.path.stat().st_size % 4096 == 0
    assert suspects(tmp_path) == set()
    (entry,) = _files(tmp_path)
    assert json.loads(entry.read_text()) == {"host": socket.gethostname(), "pid": os.getpid(), "absent": []}


def test_the_next_command_writes_over_the_same_file_in_place(tmp_path: Path) -> None:
    first, second = tmp_path / "a" / "zeph.toml", tmp_path / "b" / "filters.toml"
    with GuardJournal(tmp_path, [first]):
        pass
    (entry,) = _files(tmp_path)
    before = entry.stat()
    with GuardJournal(tmp_path, [second]):
        assert suspects(tmp_path) == {second}
        assert _files(tmp_path) == [entry]
    after = entry.stat()
    assert (after.st_ino, after.st_size) == (before.st_ino, before.st_size)


def test_commands_at_once_get_entries_of_their_own(tmp_path: Path) -> None:
    first, second = tmp_path / "a" / "zeph.toml", tmp_path / "b" / "zeph.toml"
    with GuardJournal(tmp_path, [first]), GuardJournal(tmp_path, [second]):
        assert suspects(tmp_path) == {first, second}
        assert len(_files(tmp_path)) == 2
    assert suspects(tmp_path) == set()


def test_a_longer_entry_grows_the_file_and_stays_whole(tmp_path: Path) -> None:
    with GuardJournal(tmp_path, [tmp_path / "x"]):
        pass
    many = [tmp_path / f"{'d' * 200}{i}" / "zeph.toml" for i in range(40)]  # ~9 KB of paths
    with GuardJournal(tmp_path, many):
        assert suspects(tmp_path) == set(many)
    with GuardJournal(tmp_path, [tmp_path / "y"]):
        assert suspects(tmp_path) == {tmp_path / "y"}
    (entry,) = _files(tmp_path)
    assert entry.stat().st_size == 12288 and json.loads(entry.read_text())["absent"] == []


def test_an_entry_file_removed_between_commands_is_made_again(tmp_path: Path) -> None:
    toml = tmp_path / "zeph.toml"
    with GuardJournal(tmp_path, [toml]):
        pass
    for file in _files(tmp_path):
        file.unlink()
    (tmp_path / DIRECTORY).rmdir()
    with GuardJournal(tmp_path, [toml]):
        assert suspects(tmp_path) == {toml}


def test_nothing_absent_writes_nothing(tmp_path: Path) -> None:
    with GuardJournal(tmp_path, []) as journal:
        assert journal.path is None
    assert not (tmp_path / DIRECTORY).exists()


def test_a_gone_process_leaves_an_empty_entry_that_settle_removes_setting_nothing_aside(tmp_path: Path) -> None:
    toml = tmp_path / "zeph.toml"
    toml.write_text("# the person's\n")
    # A process that ran a command and was killed before its exit handlers (its empty entry stays behind).
    script = (
        "import os, sys; from pathlib import Path; from zeph_nb.security.journal import GuardJournal\n"
        f"with GuardJournal(Path({str(tmp_path)!r}), [Path({str(toml)!r})]): pass\n"
        "os._exit(0)\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True)
    (entry,) = _files(tmp_path)
    assert settle(tmp_path) == [] and toml.exists() and not entry.exists()


def test_an_ending_process_removes_its_empty_entries(tmp_path: Path) -> None:
    script = (
        "from pathlib import Path; from zeph_nb.security.journal import GuardJournal\n"
        f"with GuardJournal(Path({str(tmp_path)!r}), [Path({str(tmp_path / 'zeph.toml')!r})]): pass\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True)
    assert _files(tmp_path) == []


def test_a_process_killed_mid_command_has_its_paths_set_aside(tmp_path: Path) -> None:
    toml = tmp_path / "zeph.toml"
    script = (
        "import os; from pathlib import Path; from zeph_nb.security.journal import GuardJournal\n"
        f"home, toml = Path({str(tmp_path)!r}), Path({str(toml)!r})\n"
        "with GuardJournal(home, [toml]): pass\n"  # an earlier command: the entry is reused below
        "with GuardJournal(home, [toml]):\n"
        "    toml.write_text('[tools.shell]\\nsandbox = \"off\"\\n')\n"
        "    os._exit(9)\n"
    )
    subprocess.run([sys.executable, "-c", script], check=False)
    (moved,) = settle(tmp_path)
    assert not toml.exists() and moved.name.startswith("zeph.toml.zeph-quarantined-") and _files(tmp_path) == []
