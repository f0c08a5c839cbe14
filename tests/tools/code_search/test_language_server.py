"""search_code's language server layer: a real jedi-language-server process in the OS sandbox, and real servers
that hang or die."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from zeph_nb.config import Settings
from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.tools.code_search import CodeSearchExecutor
from zeph_nb.tools.code_search.lsp import server_for, stop_all
from zeph_nb.tools.containment import sandbox_status

pytestmark = pytest.mark.skipif(not sandbox_status(Settings()).active, reason="the language server runs sandboxed")


@pytest.fixture(autouse=True)
def _servers_end() -> Iterator[None]:
    yield
    stop_all()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    work = tmp_path / "proj"
    (work / "pkg").mkdir(parents=True)
    (work / "pkg" / "__init__.py").write_text("")
    (work / "pkg" / "agent.py").write_text(
        "class Agent:\n    def run(self, prompt):\n        return helper(prompt)\n\n\ndef helper(x):\n    return x\n"
    )
    (work / "pkg" / "use.py").write_text('from pkg.agent import Agent, helper\n\nAgent().run("hi")\nhelper(2)\n')
    return work


def test_references_and_call_targets_from_a_real_server(project: Path) -> None:
    search = CodeSearchExecutor(Settings(), workdir=project)
    out = search.run(query="helper", kind="references").summary.splitlines()
    assert out[0] == "pkg/agent.py:6: function helper"
    assert set(out[1:]) == {"pkg/agent.py:3: reference helper", "pkg/use.py:1: reference helper",
                            "pkg/use.py:4: reference helper"}  # fmt: skip
    out = search.run(query="helper", kind="calls").summary.splitlines()
    assert out == ["pkg/agent.py:3: call helper (in method Agent.run) -> pkg/agent.py:6",
                   "pkg/use.py:4: call helper -> pkg/agent.py:6"]  # fmt: skip
    # Definitions both layers found are shown once.
    assert search.run(query="Agent.run").summary == "pkg/agent.py:2: method run (in class Agent)"
    assert server_for(search.settings, search.sandbox.workdir).pid is not None  # started once, kept for later calls


def test_a_reference_in_a_deny_read_file_is_not_named(project: Path) -> None:
    (project / "pkg" / "private.py").write_text("from pkg.agent import helper\nhelper(3)\n")
    settings = Settings.from_toml('[tools.file]\ndeny_read = ["pkg/private.py"]\n')
    out = CodeSearchExecutor(settings, workdir=project).run(query="helper", kind="references").summary
    # The OS sandbox hides the file from the server too, and jedi gives up on the whole request: the calls
    # tree-sitter finds are the answer then, the denied file's left out as well.
    assert "private" not in out and "pkg/use.py:4: call helper" in out and "could not answer" in out


def test_the_server_starts_on_first_use_and_ends_with_the_kernel(project: Path) -> None:
    search = CodeSearchExecutor(Settings(), workdir=project)
    assert server_for(search.settings, search.sandbox.workdir).pid is None  # nothing runs until a call needs it
    search.run(query="helper", kind="calls", language="go")  # nor for a call that does not
    assert server_for(search.settings, search.sandbox.workdir).pid is None
    search.run(query="helper", kind="references")
    pid = server_for(search.settings, search.sandbox.workdir).pid
    assert pid is not None
    stop_all()  # what atexit runs when the kernel shuts down
    deadline = time.monotonic() + 10
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(pid)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return not Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1].startswith("Z")


HANGS = [sys.executable, "-c", "import time; time.sleep(600)"]
DIES = [sys.executable, "-c", "import sys; sys.stderr.write('no jedi here\\n'); sys.exit(3)"]


@pytest.mark.parametrize(
    ("command", "category", "words"),
    [(HANGS, ToolErrorCategory.TIMEOUT, "did not answer within 1 s"),
     (DIES, ToolErrorCategory.SERVER_ERROR, "no jedi here")],
)  # fmt: skip
def test_a_server_that_hangs_or_dies_is_a_clear_error_not_a_hung_cell(
    project: Path, command: list[str], category: ToolErrorCategory, words: str
) -> None:
    settings = Settings.from_toml("[index]\nserver_timeout_secs = 1\n")
    search = CodeSearchExecutor(settings, workdir=project, server_command=command)
    started = time.monotonic()
    with pytest.raises(ToolError) as raised:
        search.run(query="helper", kind="references")
    assert raised.value.category is category and words in str(raised.value)
    # Where the server only adds to tree-sitter's hits, its trouble is a note beside them.
    out = search.run(query="helper").summary
    assert out.startswith("pkg/agent.py:6: function helper\n[the language server gave nothing (")
    assert time.monotonic() - started < 60  # a bound that tells a hang, not a timing


def test_a_name_after_non_ascii_text_is_found_where_the_server_counts(project: Path) -> None:
    # tree-sitter counts bytes, jedi characters: "é" and "😀" before the name would point it past the name, at
    # another name (or at none).
    (project / "pkg" / "agent.py").write_text(
        "class Agent:\n    def run(self, prompt):\n        return helper(prompt)\n\n\ndef helper(x):\n    return x\n"
        'é = "😀😀😀😀😀😀😀😀"; helper(é)\n'
    )
    out = CodeSearchExecutor(Settings(), workdir=project).run(query="helper", kind="calls").summary
    assert "pkg/agent.py:8: call helper -> pkg/agent.py:6" in out


def test_symbols_outside_the_path_asked_are_left_out(project: Path) -> None:
    (project / "other").mkdir()
    (project / "other" / "helpers.py").write_text("def helper_too():\n    pass\n")
    search = CodeSearchExecutor(Settings(), workdir=project)
    assert "other/helpers.py:1: function helper_too" in search.run(query="helper*").summary
    assert "other/" not in search.run(query="helper*", path="pkg").summary


def test_what_a_dying_server_printed_names_no_file_the_tools_may_not_read(project: Path) -> None:
    (project / "secret.py").write_text("x = 1\n")
    says = (
        f"import sys; sys.stderr.write('crashed reading {project / 'secret.py'} and {project / 'pkg'}\\n'); sys.exit(1)"
    )
    settings = Settings.from_toml('[tools.file]\ndeny_read = ["secret.py"]\n')
    search = CodeSearchExecutor(settings, workdir=project, server_command=[sys.executable, "-c", says])
    with pytest.raises(ToolError) as raised:
        search.run(query="helper", kind="references")
    assert "secret" not in str(raised.value)
    assert f"crashed reading <path not shown> and {project / 'pkg'}" in str(raised.value)


def test_a_dead_kernels_private_tmp_is_swept_at_the_next_start(project: Path, tmp_path: Path) -> None:
    import subprocess
    import tempfile

    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    left = Path(tempfile.gettempdir()) / f"zeph-lsp-{int(ended.stdout)}-abc"
    (left / "cache").mkdir(parents=True)
    mine = Path(tempfile.gettempdir()) / f"zeph-lsp-{os.getpid()}-keep"
    mine.mkdir()
    try:
        CodeSearchExecutor(Settings(), workdir=project).run(query="helper", kind="references")
        assert not left.exists() and mine.exists()
    finally:
        import shutil

        shutil.rmtree(left, ignore_errors=True)
        shutil.rmtree(mine, ignore_errors=True)
