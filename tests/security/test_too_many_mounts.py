"""A command that fills the working directory with what the sandbox protects (3,100 empty ``.git`` folders, three
bubblewrap arguments each) makes every later command one bubblewrap refuses: zeph-nb refuses it first, and the
person, who alone can clear it (no command runs until then), is told which folder holds them. Real sandbox."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from tests.security.test_containment import SANDBOX
from zeph_nb.config import Settings
from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.tools.shell.executor import ShellExecutor

pytestmark = pytest.mark.skipif(
    not SANDBOX.active and os.environ.get("CI") != "true", reason=f"no OS sandbox here: {SANDBOX.reason}"
)


def test_a_command_that_fills_the_folder_with_git_dirs_leaves_a_refusal_naming_where_they_are(
    crowded_tmp: Path,
) -> None:
    work = crowded_tmp / "work"
    (work / "src").mkdir(parents=True)
    (work / "src" / "app.py").write_text("")
    executor = ShellExecutor(Settings(), workdir=work, env={"PATH": os.environ["PATH"], "HOME": str(crowded_tmp)})
    # A model's command (sandboxed, in the folder it may write): empty .git folders are not even repositories.
    made = asyncio.run(executor.run_command(
        "mkdir -p build/cache && cd build/cache && for i in $(seq 3100); do mkdir -p r$i/.git; done; echo made",
        timeout=120,
    ))  # fmt: skip
    assert made.exit_code == 0 and "made" in made.summary
    with pytest.raises(ToolError) as refused:
        asyncio.run(executor.run_command("echo ran > ran.txt", timeout=30))
    said = str(refused.value)
    assert refused.value.category == ToolErrorCategory.PERMANENT_FAILURE
    assert "3,100 git repositories" in said, said
    # Where they are, so the person can look and remove them: not only the working directory as a whole.
    assert f"3,100 of them under {work / 'build' / 'cache'}" in said, said
    assert not (work / "ran.txt").exists()


def test_a_command_that_makes_thousands_of_config_files_is_said_in_a_few_lines(
    crowded_tmp: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Each zeph.toml a command makes is set aside after it, so it denies nothing; but each was named in the result
    # the model reads (160,000 characters for 3,100) and warned about on its own line under the person's cell.
    work = crowded_tmp / "work"
    work.mkdir()
    executor = ShellExecutor(Settings(), workdir=work, env={"PATH": os.environ["PATH"], "HOME": str(crowded_tmp)})
    with caplog.at_level("WARNING"):
        made = asyncio.run(executor.run_command(
            "mkdir -p build/cache && cd build/cache && for i in $(seq 3100); do mkdir p$i; : > p$i/zeph.toml; done",
            timeout=120,
        ))  # fmt: skip
    assert not list(work.glob("build/cache/*/zeph.toml"))  # all set aside
    assert len(list(work.glob("build/cache/*/zeph.toml.zeph-quarantined-*"))) == 3100
    assert "zeph-nb set aside" in made.summary and len(made.summary) < 3000, len(made.summary)
    assert f"3,090 more under {work / 'build' / 'cache'}" in made.summary, made.summary
    assert len([r for r in caplog.records if "set aside" in r.getMessage()]) <= 11
    assert asyncio.run(executor.run_command("echo ran", timeout=30)).summary == "ran\n"
