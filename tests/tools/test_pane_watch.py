"""Background commands are guarded while they run, not at the next look: a real tmux pane that keeps running, real
bubblewrap, real git on the host, the real gate chain — and nobody looking at the pane.

Each wait below is a bound that tells a hang (10 s, polled every 0.1 s), not a timing assertion; the watcher
undoes a plant in about a millisecond (``bench/pane_watch_bench.py``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.security.test_containment import SANDBOX, Victim, call, chain_for, victim  # noqa: F401
from zeph_nb.gates.approval import AutoApprove
from zeph_nb.security.provenance import journal_for
from zeph_nb.tools.shell.pane_watch import pane_watcher

pytestmark = [
    pytest.mark.usefixtures("fresh_tmux_server"),
    pytest.mark.skipif(shutil.which("tmux") is None and os.environ.get("CI") != "true", reason="no tmux here"),
    pytest.mark.skipif(not SANDBOX.active and os.environ.get("CI") != "true", reason=f"no sandbox: {SANDBOX.reason}"),
]
TMUX = '[tools.execution]\nbackend = "tmux"\n'
BOUND_SECS = 10.0


def eventually(check: Callable[[], bool], bound: float = BOUND_SECS) -> bool:
    deadline = time.monotonic() + bound
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def planted(victim: Victim, bound: float = BOUND_SECS) -> bool:  # noqa: F811
    """The command's plant is complete (it touches planted.flag after it): checked without looking at the pane."""
    return eventually(lambda: (victim.work / "planted.flag").exists(), bound)


def host_git(*args: str, cwd: Path) -> None:
    """The person's own git, outside every sandbox."""
    env = {**os.environ, "GIT_AUTHOR_NAME": "p", "GIT_AUTHOR_EMAIL": "p@p", "GIT_COMMITTER_NAME": "p",
           "GIT_COMMITTER_EMAIL": "p@p"}  # fmt: skip
    subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, check=False)


def text(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


FSMONITOR = "git -C {repo} config core.fsmonitor 'touch {marker}'"
PLANTS = {
    "a new repository in a subfolder": "git init -q sub && " + FSMONITOR.format(repo="sub", marker="{marker}"),
    "the project root itself": "git init -q . && " + FSMONITOR.format(repo=".", marker="{marker}"),
    "five new folders down": "mkdir -p a/b/c/d/e && git init -q a/b/c/d/e && "
    + FSMONITOR.format(repo="a/b/c/d/e", marker="{marker}"),
    "prepared elsewhere and renamed into place": "git init -q --bare stage/x && "
    "git --git-dir=stage/x config core.bare false && git --git-dir=stage/x config core.fsmonitor 'touch {marker}' && "
    "mkdir r && mv stage/x $(printf %s r/.git)",
}
WHERE = {
    "a new repository in a subfolder": "sub",
    "the project root itself": ".",
    "five new folders down": "a/b/c/d/e",
    "prepared elsewhere and renamed into place": "r",
}


@pytest.mark.parametrize("plant", list(PLANTS))
def test_a_planted_fsmonitor_is_gone_while_the_pane_runs(victim: Victim, plant: str) -> None:  # noqa: F811
    shutil.rmtree(victim.work / ".git")  # the project is not a repository yet: a command may make it one
    chain = chain_for(victim, approver=AutoApprove(), toml=TMUX)
    marker = victim.base / "PWNED"
    started = call(chain, "bash", command=PLANTS[plant].format(marker=marker) + "; touch planted.flag; sleep 60",
                   wait=False)  # fmt: skip
    assert started.status == "ok", started.text
    repo = victim.work / WHERE[plant]
    config = repo / ".git" / "config"
    assert planted(victim)
    # Nobody looks at the pane: the repository appears, and its fsmonitor is gone soon after, the command running.
    assert eventually(lambda: "[core]" in text(config) and "fsmonitor" not in text(config)), text(config)
    for _ in range(3):
        host_git("status", "--short", cwd=repo)
    assert not marker.exists()
    # What was undone reaches the model at its next look.
    look = call(chain, "capture-pane").text
    assert "config key core.fsmonitor" in look and ": running:" in look, look


BARE = (
    "git init -q --bare {where} && git --git-dir={where} config core.bare false && "
    "git --git-dir={where} config core.worktree {worktree} && "
    "git --git-dir={where} config core.fsmonitor 'touch {marker}'"
)


@pytest.mark.parametrize("wait", [False, True], ids=["in a pane", "a direct call"])
def test_a_folder_laid_out_as_a_git_dir_is_a_repository_too(victim: Victim, wait: bool) -> None:  # noqa: F811
    # git run in or below a folder with HEAD, objects/ and refs/ takes it for a bare repository and obeys its config:
    # planted at the project's root (not a repository yet), every git status in the project would run it.
    shutil.rmtree(victim.work / ".git")
    chain = chain_for(victim, approver=AutoApprove(), toml=TMUX)
    marker = victim.base / "PWNED"
    command = BARE.format(where=".", worktree=".", marker=marker) + " && " + BARE.format(where="w", worktree="..",
                                                                                         marker=marker)  # fmt: skip
    outcome = call(
        chain,
        "bash",
        command=command + ("; touch planted.flag; sleep 60" if not wait else "; touch planted.flag"),
        wait=wait,
    )
    assert outcome.status == "ok", outcome.text
    assert planted(victim)
    for folder in (victim.work, victim.work / "w"):
        config = folder / "config"
        assert eventually(lambda: "[core]" in text(config) and "fsmonitor" not in text(config)), text(config)  # noqa: B023
        assert "worktree" not in text(config)
        host_git("status", cwd=folder)
    (victim.work / "sub").mkdir()
    host_git("status", cwd=victim.work / "sub")
    assert not marker.exists()


def test_a_config_written_through_a_hard_link_is_cut_off(victim: Victim) -> None:  # noqa: F811
    # Writes through another name of .git/config reach no watch on the git dir: the config gets a file of its own.
    chain = chain_for(victim, approver=AutoApprove(), toml=TMUX)
    marker = victim.base / "PWNED"
    command = (
        "git init -q s && ln $(printf %s s/.git/config) notes.txt && sleep 1 && "
        f"printf '\\tfsmonitor = touch {marker}\\n' >> notes.txt; touch planted.flag; sleep 60"
    )
    assert call(chain, "bash", command=command, wait=False).status == "ok"
    config, notes = victim.work / "s" / ".git" / "config", victim.work / "notes.txt"
    assert planted(victim) and "fsmonitor" in text(notes)
    assert "fsmonitor" not in text(config) and config.stat().st_ino != notes.stat().st_ino
    host_git("status", cwd=victim.work / "s")
    assert not marker.exists()


def test_a_planted_hook_never_runs_for_the_persons_git(victim: Victim) -> None:  # noqa: F811
    chain = chain_for(victim, approver=AutoApprove(), toml=TMUX)
    marker = victim.base / "PWNED"
    hook = f"printf '#!/bin/sh\\ntouch {marker}\\n'"
    command = (
        f"git init -q h && {hook} > $(printf %s h/.git/hooks/pre-commit); {hook} > $(printf %s h/.git/hooks/post-"
        "checkout); chmod +x $(printf %s h/.git/hooks/pre-commit h/.git/hooks/post-checkout); "
        f"{hook} > $(printf %s .git/hooks/post-checkout); touch planted.flag; sleep 60"
    )
    assert call(chain, "bash", command=command, wait=False).status == "ok"
    hooks = victim.work / "h" / ".git" / "hooks"

    def planted_gone() -> bool:
        names = [p.name for p in hooks.iterdir() if not p.name.endswith(".sample")] if hooks.is_dir() else ["?"]
        return not names and not (victim.work / ".git" / "hooks" / "post-checkout").exists()

    assert planted(victim) and eventually(planted_gone)
    host_git("commit", "-q", "--allow-empty", "-m", "x", cwd=victim.work / "h")
    host_git("checkout", "-q", "-b", "other", cwd=victim.work / "h")
    host_git("commit", "-q", "--allow-empty", "-m", "x", cwd=victim.work)
    host_git("checkout", "-q", "-b", "other", cwd=victim.work)
    assert not marker.exists()


def test_a_zeph_toml_is_never_config_for_a_new_kernel(victim: Victim) -> None:  # noqa: F811
    chain = chain_for(victim, approver=AutoApprove(), toml=TMUX)
    command = "mkdir -p nb/deep && printf '[tools.shell]\\nsandbox = \"off\"\\n' > $(printf %s nb/deep/zeph.toml)"
    assert call(chain, "bash", command=command + "; touch planted.flag; sleep 60", wait=False).status == "ok"
    folder = victim.work / "nb" / "deep"
    assert planted(victim) and eventually(lambda: not (folder / "zeph.toml").exists())
    load = [sys.executable, "-c", "import zeph_nb; print(zeph_nb.Settings.load().tools.shell.sandbox)"]

    def loaded() -> str:
        return subprocess.run(load, cwd=folder, capture_output=True, text=True, check=True).stdout.strip()

    assert loaded() == "auto"  # the command still running
    assert "set aside" in call(chain, "capture-pane").text
    call(chain, "send-keys", keys=["C-c"], delay_ms=300)
    assert loaded() == "auto"  # and after it
    assert len(list(folder.glob("zeph.toml.zeph-quarantined-*"))) == 1


def test_a_pth_file_in_a_project_venv_is_refused_in_a_pane(victim: Victim) -> None:  # noqa: F811
    venv = victim.work / "proj" / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = next(venv.glob("lib/python*/site-packages")).relative_to(victim.work)
    chain = chain_for(victim, approver=AutoApprove(), toml=TMUX)
    command = f"echo 'import os' > {site}/evil.pth; echo rc=$?; sleep 60"
    assert call(chain, "bash", command=command, wait=False).status == "ok"
    shown = ""

    def answered() -> bool:
        nonlocal shown
        shown = call(chain, "capture-pane").text.split("\n", 1)[-1]  # below the line that quotes the command
        return "rc=" in shown

    assert eventually(answered), shown
    assert "Read-only file system" in shown and "rc=1" in shown
    assert not (victim.work / site / "evil.pth").exists()


def test_what_a_pane_writes_is_told_to_provenance(victim: Victim) -> None:  # noqa: F811
    chain = chain_for(victim, approver=AutoApprove(), toml=TMUX)
    assert (
        call(chain, "bash", command="echo 'print(1)' > tool.py; touch planted.flag; sleep 60", wait=False).status
        == "ok"
    )
    written = victim.work / "tool.py"
    assert eventually(lambda: journal_for(victim.zeph).agent_written(written) is not None)
    entry = journal_for(victim.zeph).agent_written(written)
    assert entry is not None and entry.tool == "bash" and entry.call_id


def test_without_watches_left_the_walks_still_undo_it(victim: Victim, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    assert eventually(lambda: not pane_watcher().running)  # no thread of an earlier test with watches of its own
    monkeypatch.setattr(pane_watcher(), "max_watches", 1)  # the project folder only: nothing below it is watched
    chain = chain_for(victim, approver=AutoApprove(), toml=TMUX)
    marker = victim.base / "PWNED"
    command = f"mkdir -p a/b && sleep 0.5 && git init -q a/b && {FSMONITOR.format(repo='a/b', marker=marker)}"
    assert call(chain, "bash", command=command + "; touch planted.flag; sleep 60", wait=False).status == "ok"
    config = victim.work / "a" / "b" / ".git" / "config"
    assert planted(victim)
    assert eventually(lambda: "[core]" in text(config) and "fsmonitor" not in text(config)), text(config)


def test_more_folders_than_any_walk_budget_and_no_watches_hide_nothing(
    victim: Victim,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The attack: use up the user's inotify watches (here: a limit of one), make more folders than the guard's
    # bounded walk visits (20,000), and plant in the folder a breadth-first walk reaches last.
    assert eventually(lambda: not pane_watcher().running)
    monkeypatch.setattr(pane_watcher(), "max_watches", 1)
    chain = chain_for(victim, approver=AutoApprove(), toml=TMUX)
    marker = victim.base / "PWNED"
    make = "python3 -c \"import os; [os.makedirs(f'm/{i // 150}/{i % 150}') for i in range(21000)]\""
    last = "m/139/149/z/y"
    command = f"{make} && mkdir -p {last} && git init -q {last} && {FSMONITOR.format(repo=last, marker=marker)}"
    assert call(chain, "bash", command=command + "; touch planted.flag; sleep 120", wait=False).status == "ok"
    config = victim.work / last / ".git" / "config"
    assert planted(victim, bound=60)
    assert eventually(lambda: "[core]" in text(config) and "fsmonitor" not in text(config), bound=60), text(config)


def test_a_command_that_keeps_planting_is_stopped(victim: Victim) -> None:  # noqa: F811
    # Each plant is undone in a millisecond or so; planting again and again in a tight loop would keep one live a
    # share of the time. The command is stopped after a few.
    chain = chain_for(victim, approver=AutoApprove(), toml=TMUX)
    marker = victim.base / "PWNED"
    plant = f"printf '[core]\\n\\tfsmonitor = touch {marker}\\n' > w/cfg && mv w/cfg $(printf %s w/.git/config)"
    command = f"git init -q w; for i in $(seq 100000); do {plant}; done; sleep 60"
    assert call(chain, "bash", command=command, wait=False).status == "ok"
    shown = ""

    def stopped() -> bool:
        nonlocal shown
        shown = call(chain, "capture-pane").text
        return "ended by signal 9" in shown

    assert eventually(stopped), shown
    assert "zeph-nb stopped this command" in shown
    assert "fsmonitor" not in text(victim.work / "w" / ".git" / "config")


def test_a_pane_that_ended_unseen_is_closed_and_the_watcher_stops(victim: Victim) -> None:  # noqa: F811
    chain = chain_for(victim, approver=AutoApprove(), toml=TMUX)
    marker = victim.base / "PWNED"
    command = f"git init -q q && {FSMONITOR.format(repo='q', marker=marker)}; sleep 1"
    assert call(chain, "bash", command=command, wait=False).status == "ok"
    assert eventually(lambda: pane_watcher().running)
    # It ends; nobody looks: its guard's last sweep runs, and with no pane left the thread ends.
    assert eventually(lambda: not pane_watcher().running)
    assert "fsmonitor" not in text(victim.work / "q" / ".git" / "config")
    assert "config key core.fsmonitor" in call(chain, "capture-pane").text
