"""search_code's structural layer: real tree-sitter grammars over a temp project, the file tools' sandbox, the bounds,
the settings, and the gate chain (allowed without asking, cached, dropped from the cache by a write)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from zeph_nb import AutoApprove
from zeph_nb.config import Settings
from zeph_nb.errors import ConfigError, ToolError
from zeph_nb.tools.code_search import CodeSearchExecutor

NO_SERVER = "[index]\nlanguage_server = false\n"

AGENT_PY = """\
import os.path
from pkg.util import helper as h


class Agent:
    def run(self, prompt):
        # run(prompt) in a comment is not a call
        return helper("run()")

    def stop(self):
        self.run("x")


def helper(x):
    return x
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    work = tmp_path / "proj"
    (work / "pkg").mkdir(parents=True)
    (work / "pkg" / "__init__.py").write_text("")
    (work / "pkg" / "agent.py").write_text(AGENT_PY)
    (work / "web").mkdir()
    (work / "web" / "app.ts").write_text(
        "import { run } from './lib';\nexport class Shop {\n  checkout(): void { run(); }\n}\n"
        "interface Cart { n: number }\n"
    )
    (work / "main.go").write_text(
        'package main\nimport "fmt"\nfunc main() { fmt.Println(run()) }\nfunc run() int { return 1 }\n'
    )
    (work / "lib.rs").write_text("use std::fmt;\nstruct S;\nimpl S { fn run(&self) { helper(); } }\nfn helper() {}\n")
    return work


def search(work: Path, settings_text: str = NO_SERVER, **params: object) -> str:
    return CodeSearchExecutor(Settings.from_toml(settings_text), workdir=work).run(**params).summary


def test_definitions_in_every_language_with_their_scope(project: Path) -> None:
    out = search(project, query="run").splitlines()
    assert "pkg/agent.py:6: method run (in class Agent)" in out
    assert "main.go:4: function run" in out
    assert "lib.rs:3: method run (in class S)" in out
    assert not any(line.startswith("web/") for line in out)  # `run` is only imported and called there


def test_qualified_names_globs_and_types(project: Path) -> None:
    assert search(project, query="Agent.run").splitlines() == ["pkg/agent.py:6: method run (in class Agent)"]
    assert "web/app.ts:5: type Cart" in search(project, query="C*")
    assert "web/app.ts:3: method checkout (in class Shop)" in search(project, query="check*")


def test_calls_skip_comments_and_strings(project: Path) -> None:
    out = search(project, query="run", kind="calls", language="python").splitlines()
    assert out == ["pkg/agent.py:11: call run (in method Agent.stop)"]
    assert "web/app.ts:3: call run (in method Shop.checkout)" in search(project, query="run", kind="calls")


def test_imports_of_a_module_and_its_submodules(project: Path) -> None:
    assert search(project, query="os", kind="imports").splitlines() == ["pkg/agent.py:1: import os.path"]
    out = search(project, query="std", kind="imports")
    assert "lib.rs:1: import std::fmt" in out


def test_exact_names_rank_before_glob_matches(project: Path) -> None:
    out = search(project, query="help*", language="python").splitlines()
    assert out == ["pkg/agent.py:14: function helper"]
    out = search(project, query="*", language="python").splitlines()
    assert out[0] == "pkg/agent.py:5: class Agent"  # classes before functions, then path order


def test_gitignored_and_hidden_files_are_not_searched(project: Path) -> None:
    (project / ".gitignore").write_text("generated/\n")
    (project / "generated").mkdir()
    (project / "generated" / "big.py").write_text("def run():\n    pass\n")
    (project / ".hidden").mkdir()
    (project / ".hidden" / "x.py").write_text("def run():\n    pass\n")
    out = search(project, query="run", language="python")
    assert "generated" not in out and ".hidden" not in out and "pkg/agent.py" in out


def test_a_link_out_of_the_working_directory_is_never_read(project: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text("def leaked_secret():\n    pass\n")
    os.symlink(outside / "secret.py", project / "pkg" / "linked.py")
    os.symlink(outside, project / "linked_dir")
    assert "leaked_secret" not in search(project, query="leaked*")
    with pytest.raises(ToolError, match="outside"):
        search(project, query="leaked*", path="linked_dir")


def test_deny_read_files_are_neither_read_nor_named(project: Path) -> None:
    (project / "pkg" / "private.py").write_text("def private_run():\n    pass\n")
    settings = NO_SERVER + '[tools.file]\ndeny_read = ["pkg/private.py"]\n'
    assert "private" not in search(project, settings, query="*run*")
    with pytest.raises(ToolError, match="deny_read"):
        search(project, settings, query="*", path="pkg/private.py")


def test_bounds_are_kept_and_said(project: Path) -> None:
    for n in range(5):
        (project / "pkg" / f"m{n}.py").write_text(f"def f{n}():\n    pass\n")
    out = search(project, NO_SERVER + "max_files = 2\n", query="f*", language="python")
    assert "[stopped after 2 files ([index] max_files); narrow the path]" in out
    (project / "pkg" / "huge.py").write_text("def huge():\n    pass\n" + "#" * 5000 + "\n")
    out = search(project, NO_SERVER + "max_file_bytes = 2048\n", query="huge")
    assert "No definition of 'huge'" in out and "1 files larger than 2048 bytes were skipped" in out
    out = search(project, query="*", max_results=2)
    assert out.splitlines()[2].startswith("[first 2 of ") and len(out.splitlines()) == 3


def test_the_time_budget_stops_parsing(project: Path) -> None:
    out = search(project, NO_SERVER + "time_budget_secs = 0.000001\n", query="run")
    assert "time budget" in out


def test_index_settings_say_what_the_semantic_layer_needs() -> None:
    with pytest.raises(ConfigError, match=r"enabled = true needs embedding_provider"):
        Settings.from_toml("[index]\nenabled = true\n")
    qdrant = '[index]\nenabled = true\nembedding_provider = "e"\nvector_backend = "qdrant"\n'
    assert Settings.from_toml(qdrant).index.vector_backend == "qdrant"  # tests/tools/code_search/test_qdrant.py
    # The reference's name for its embedded backend is taken as ours.
    sqlite = '[index]\nenabled = true\nembedding_provider = "e"\nvector_backend = "sqlite"\n'
    assert Settings.from_toml(sqlite).index.enabled
    with pytest.raises(ConfigError):
        Settings.from_toml('[index]\nvector_backend = "pinecone"\n')


def test_through_the_gates_allowed_cached_and_invalidated_by_a_write(project: Path, isolated_env: Path) -> None:
    import zeph_nb

    call = {"tool": "search_code", "params": {"query": "fresh*"}}
    write = {"tool": "write", "params": {"path": "pkg/fresh.py", "content": "def fresh_one():\n    pass\n"}}
    provider = zeph_nb.ScriptedProvider([[call], [call], [write], [call], "done"])
    agent = zeph_nb.Agent(settings=Settings.from_toml(NO_SERVER), provider=provider, approver=AutoApprove(),
                          workdir=project)  # fmt: skip
    result = asyncio.run(agent.run("find fresh"))
    searches = [outcome for outcome in result.tool_calls if outcome.call.tool_id == "search_code"]
    assert [outcome.decision for outcome in searches] == ["allow"] * 3
    assert [outcome.cached for outcome in searches] == [False, True, False]
    assert "No definition" in searches[1].text and "pkg/fresh.py:1: function fresh_one" in searches[2].text


def test_protected_paths_are_never_read(project: Path) -> None:
    (project / "vault").mkdir()
    (project / "vault" / "keys.py").write_text("def run_with_key():\n    pass\n")
    settings = NO_SERVER + f"[tools.shell]\nhidden_paths = [{str(project / 'vault')!r}]\n"
    assert "vault" not in search(project, settings, query="run*")
    with pytest.raises(ToolError):
        search(project, settings, query="*", path="vault")
