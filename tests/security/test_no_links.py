"""The host guard strips and removes what a command left, as the person, outside every sandbox: a command that swaps a
link in at the right moment must not have it delete, truncate or block on the person's own files. Real folders,
real links, a real FIFO."""

from __future__ import annotations

import os
import subprocess
import threading
from pathlib import Path

import pytest

from zeph_nb.security import no_links
from zeph_nb.security.gitguard import neutralize_repository


@pytest.fixture
def person(tmp_path: Path) -> Path:
    """The person's files outside the project: an ssh folder and a kube config."""
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("KEY")
    (home / ".ssh" / "config").write_text("Host *\n  User me\n")
    return home


def repo(tmp_path: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(tmp_path / "work" / "sub")], check=True)
    return tmp_path / "work" / "sub" / ".git"


def test_a_hooks_link_is_removed_never_followed(tmp_path: Path, person: Path) -> None:
    git = repo(tmp_path)
    for hook in (git / "hooks").iterdir():
        hook.unlink()
    (git / "hooks").rmdir()
    (git / "hooks").symlink_to(person / ".ssh")
    assert neutralize_repository(git) == [".git/hooks (a link)"]
    assert (person / ".ssh" / "id_rsa").read_text() == "KEY"


def test_a_config_link_is_removed_and_its_target_kept(tmp_path: Path, person: Path) -> None:
    git = repo(tmp_path)
    (git / "config").unlink()
    (git / "config").symlink_to(person / ".ssh" / "config")
    assert neutralize_repository(git) == [".git/config (a link)"]
    assert (person / ".ssh" / "config").read_text() == "Host *\n  User me\n"


def test_a_folder_swapped_for_a_link_on_the_way_gets_nothing_done(tmp_path: Path, person: Path) -> None:
    # The guard found work/sub/.git; by the time it acts, sub is a link to a folder with the person's own .git.
    git = repo(tmp_path)
    (person / ".git").mkdir()
    (person / ".git" / "config").write_text("[core]\n\tfsmonitor = theirs\n")
    os.rename(git.parent, tmp_path / "elsewhere")
    git.parent.symlink_to(person)
    with pytest.raises(OSError):
        neutralize_repository(git)
    with pytest.raises(OSError):
        no_links.remove(git)
    assert (person / ".git" / "config").read_text() == "[core]\n\tfsmonitor = theirs\n"


def test_a_fifo_in_place_of_config_does_not_block(tmp_path: Path) -> None:
    git = repo(tmp_path)
    (git / "config").unlink()
    os.mkfifo(git / "config")
    result: list[list[str]] = []
    worker = threading.Thread(target=lambda: result.append(neutralize_repository(git)), daemon=True)
    worker.start()
    worker.join(10)
    assert result == [[".git/config (not a file)"]]


def test_a_config_is_stripped_by_replacing_it(tmp_path: Path) -> None:
    git = repo(tmp_path)
    subprocess.run(["git", "-C", str(git.parent), "config", "core.fsmonitor", "touch x"], check=True)
    assert neutralize_repository(git) == ["config key core.fsmonitor"]
    config = (git / "config").read_text()
    assert "fsmonitor" not in config and "repositoryformatversion" in config
    assert sorted(p.name for p in git.iterdir() if p.name.startswith(".config")) == []  # no temporary file left


def test_a_config_with_a_second_name_gets_one_of_its_own(tmp_path: Path) -> None:
    # A hard link from the working tree: writes through notes.txt would change the config with no event on .git.
    git = repo(tmp_path)
    notes = tmp_path / "work" / "notes.txt"
    os.link(git / "config", notes)
    assert neutralize_repository(git) == [".git/config's other name (a hard link)"]
    with notes.open("a") as handle:
        handle.write("\tfsmonitor = touch x\n")
    assert "fsmonitor" not in (git / "config").read_text() and (git / "config").stat().st_nlink == 1
