"""Shared fixtures: real temporary directories with a sandbox inside and a secret outside it."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from zeph_nb.config import Settings
from zeph_nb.store import Store
from zeph_nb.tools.files import FileExecutor


@pytest.fixture
def tree(tmp_path: Path) -> Iterator[dict[str, Path]]:
    """``work/`` is the sandbox; ``outside/secret.txt`` and ``work-evil/`` (a prefix sibling) are not."""
    work = tmp_path / "work"
    outside = tmp_path / "outside"
    evil = tmp_path / "work-evil"
    for folder in (work / "src" / "pkg", outside, evil):
        folder.mkdir(parents=True)
    (work / "README.md").write_text("# Demo\nhello world\n")
    (work / "src" / "pkg" / "mod.py").write_text("def f():\n    return 42\n")
    (outside / "secret.txt").write_text("TOP SECRET\n")
    (evil / "loot.txt").write_text("not yours\n")
    yield {"root": tmp_path, "work": work, "outside": outside, "evil": evil}
    # Hostile-path tests leave trees deeper than Python's recursion limit, which pytest's own clean-up of old
    # temporary directories (shutil.rmtree) cannot remove; rm can.
    subprocess.run(["rm", "-rf", str(work)], check=False)


@pytest.fixture
def files(tree: dict[str, Path]) -> FileExecutor:
    return FileExecutor(Settings(), workdir=tree["work"])


@pytest.fixture
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory and ZEPH_HOME of our own, and no ZEPH_* variables from whoever runs the tests."""
    import os

    for name in list(os.environ):
        if name.startswith("ZEPH_") or name == "ANTHROPIC_API_KEY":
            monkeypatch.delenv(name)
    home = tmp_path / "zeph-home"
    home.mkdir()
    monkeypatch.setenv("ZEPH_HOME", str(home))
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    return home


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """A real store (DuckDB file and spools) in its own zeph home, closed afterwards."""
    settings = Settings().model_copy(update={"home": tmp_path / "zeph-store"})
    opened = Store(settings)
    yield opened
    opened.close()
