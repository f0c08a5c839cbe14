"""The import guard and provenance, in this process with real files: who imports decides whether a module in an
agent-writable folder loads, and what an agent wrote loads nowhere until the person accepts it."""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import json
import marshal
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from zeph_nb.security.import_guard import ImportGuard
from zeph_nb.security.provenance import Provenance

CELL = os.path.join(tempfile.gettempdir(), f"ipykernel_{os.getpid()}", "1234567.py")  # ipykernel's name for a cell


@pytest.fixture
def world(tmp_path: Path) -> Iterator[tuple[Path, Path, Provenance, ImportGuard]]:
    """A notebook folder (agent-writable, first on sys.path), a folder of "installed" code, a journal, a guard."""
    folder, installed, home = tmp_path / "notebook", tmp_path / "site", tmp_path / "home"
    folder.mkdir()
    installed.mkdir()
    journal = Provenance(home)
    guard = ImportGuard([folder], journal)
    saved_path, saved_modules = list(sys.path), set(sys.modules)
    sys.path[:0] = [str(folder), str(installed)]
    sys.meta_path.insert(0, guard)
    importlib.invalidate_caches()
    try:
        yield folder, installed, journal, guard
    finally:
        sys.meta_path.remove(guard)
        sys.path[:] = saved_path
        for name in set(sys.modules) - saved_modules:
            del sys.modules[name]


def plant(folder: Path, name: str, body: str = "") -> Path:
    path = folder / f"{name}.py"
    path.write_text(f"import os\nos.environ['PLANT_RAN'] = os.environ.get('PLANT_RAN', '') + {name + ','!r}\n{body}")
    return path


def run_as(filename: str, code: str) -> dict[str, object]:
    """Run ``code`` as if it were in ``filename`` (a cell, or a library's file): the frame's file is the importer."""
    scope: dict[str, object] = {}
    exec(compile(code, filename, "exec"), scope)
    return scope


@pytest.fixture(autouse=True)
def _no_plant_ran(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PLANT_RAN", raising=False)


def test_installed_code_does_not_import_a_module_from_the_notebook_folder(world: tuple) -> None:
    folder, installed, _, guard = world
    plant(folder, "optional_dep_xyz")
    library = str(installed / "library.py")
    scope = run_as(library, "try:\n import optional_dep_xyz\n found = True\nexcept ImportError:\n found = False")
    assert scope["found"] is False and "PLANT_RAN" not in os.environ
    assert [r.module for r in guard.refusals()] == ["optional_dep_xyz"]
    assert guard.refusals()[0].importer == library


def test_installed_code_gets_the_installed_module_a_plant_shadows(world: tuple) -> None:
    folder, installed, _, _ = world
    plant(folder, "shadowed_xyz")
    (installed / "shadowed_xyz.py").write_text("WHO = 'installed'\n")
    scope = run_as(str(installed / "library.py"), "import shadowed_xyz\nwho = shadowed_xyz.WHO")
    assert scope["who"] == "installed" and "PLANT_RAN" not in os.environ


def test_importlib_import_module_is_judged_by_its_caller(world: tuple) -> None:
    folder, installed, _, _ = world
    (folder / "mine_xyz.py").write_text("VALUE = 7\n")
    plant(folder, "lazy_xyz")
    code = "import importlib\ntry:\n importlib.import_module('lazy_xyz')\nexcept ImportError:\n pass"
    run_as(str(installed / "pandas_like.py"), code)  # a library's import_optional_dependency
    assert "PLANT_RAN" not in os.environ
    scope = run_as(CELL, "import importlib\nvalue = importlib.import_module('mine_xyz').VALUE")
    assert scope["value"] == 7


def test_an_agent_written_module_outside_the_roots_is_refused(world: tuple, tmp_path: Path) -> None:
    _, _, journal, _ = world
    project = tmp_path / "project"  # another kernel's agent wrote here; this one reaches it by PYTHONPATH
    project.mkdir()
    journal.record([plant(project, "projlib_xyz")], tool="bash")
    sys.path.append(str(project))
    with pytest.raises(ImportError, match="%zeph trust"):
        run_as(CELL, "import projlib_xyz")
    (project / "mine_xyz.py").write_text("VALUE = 3\n")  # the person's own, there too: imports
    assert run_as(CELL, "import mine_xyz\nvalue = mine_xyz.VALUE")["value"] == 3
    assert "PLANT_RAN" not in os.environ


def test_only_this_kernels_cell_files_are_cells(world: tuple) -> None:
    folder, _, _, _ = world
    plant(folder, "named_xyz")
    for fake in (
        f"/elsewhere/ipykernel_{os.getpid()}/1.py",
        os.path.join(tempfile.gettempdir(), "ipykernel_1", "1.py"),
    ):
        run_as(fake, "try:\n import named_xyz\nexcept ImportError:\n pass")  # installed code, as far as anyone knows
        assert "PLANT_RAN" not in os.environ, fake


def test_a_cell_imports_the_persons_module_and_their_module_its_sibling(world: tuple) -> None:
    folder, _, _, _ = world
    (folder / "helpers_xyz.py").write_text("import sibling_xyz\nVALUE = sibling_xyz.VALUE + 1\n")
    (folder / "sibling_xyz.py").write_text("VALUE = 41\n")
    assert run_as(CELL, "import helpers_xyz\nvalue = helpers_xyz.VALUE")["value"] == 42


def test_an_agent_written_module_is_refused_to_a_cell_until_trusted(world: tuple) -> None:
    folder, _, journal, guard = world
    path = plant(folder, "agent_mod_xyz", "VALUE = 1\n")
    journal.record([path], tool="bash", call_id="call-1")
    with pytest.raises(ImportError, match=r"%zeph trust .*agent_mod_xyz\.py") as raised:
        run_as(CELL, "import agent_mod_xyz")
    assert "bash call at" in str(raised.value) and "PLANT_RAN" not in os.environ
    assert guard.take_new_refusals()[0].module == "agent_mod_xyz"
    journal.trust(path)
    assert run_as(CELL, "import agent_mod_xyz\nvalue = agent_mod_xyz.VALUE")["value"] == 1


def test_the_persons_edit_makes_an_agent_written_file_theirs(world: tuple) -> None:
    folder, _, journal, _ = world
    path = plant(folder, "edited_xyz", "VALUE = 1\n")
    journal.record([path], tool="write")
    path.write_text("VALUE = 2\n")  # the person re-saves it: another hash
    assert journal.agent_written(path) is None
    assert run_as(CELL, "import edited_xyz\nvalue = edited_xyz.VALUE")["value"] == 2


def test_an_agent_written_module_imported_by_the_persons_module_is_refused(world: tuple) -> None:
    folder, _, journal, _ = world
    (folder / "analysis_xyz.py").write_text("try:\n import fast_json_xyz\nexcept ImportError:\n fast_json_xyz = None\n")
    journal.record([plant(folder, "fast_json_xyz")], tool="bash")
    assert run_as(CELL, "import analysis_xyz\nok = analysis_xyz.fast_json_xyz is None")["ok"] is True
    assert "PLANT_RAN" not in os.environ


def test_a_planted_bytecode_cache_is_never_read(world: tuple) -> None:
    folder, _, _, _ = world
    source = folder / "cached_xyz.py"
    source.write_text("VALUE = 'source'\n")
    # What a command can write: a .pyc whose header matches the source's size and mtime, with other code in it.
    info = source.stat()
    header = importlib.util.MAGIC_NUMBER + (0).to_bytes(4, "little")
    header += (int(info.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little") + (info.st_size & 0xFFFFFFFF).to_bytes(
        4, "little"
    )
    evil = compile("import os\nos.environ['PLANT_RAN'] = 'pyc'\nVALUE = 'planted'\n", str(source), "exec")
    cache = Path(importlib.util.cache_from_source(str(source)))
    cache.parent.mkdir()
    cache.write_bytes(header + marshal.dumps(evil))
    assert run_as(CELL, "import cached_xyz\nvalue = cached_xyz.VALUE")["value"] == "source"
    assert "PLANT_RAN" not in os.environ


def test_a_namespace_package_does_not_reach_into_the_notebook_folder(world: tuple) -> None:
    folder, installed, _, _ = world
    for base in (folder, installed):
        (base / "ns_xyz").mkdir()
    (installed / "ns_xyz" / "real.py").write_text("VALUE = 'real'\n")
    plant(folder / "ns_xyz", "optional")
    scope = run_as(str(installed / "lib.py"), "import ns_xyz.real\ntry:\n import ns_xyz.optional\n got = True\n"
                   "except ImportError:\n got = False\nvalue = ns_xyz.real.VALUE")  # fmt: skip
    assert scope == {**scope, "got": False, "value": "real"} and "PLANT_RAN" not in os.environ


@pytest.mark.parametrize("marker", ["pyvenv.cfg", "conda-meta"])
def test_an_environment_marker_a_command_writes_does_not_switch_the_guard_off(world: tuple, marker: str) -> None:
    folder, installed, _, guard = world
    (folder / marker).mkdir() if marker == "conda-meta" else (folder / marker).write_text("")
    plant(folder, "marked_xyz")
    run_as(str(installed / "library.py"), "try:\n import marked_xyz\nexcept ImportError:\n pass")
    assert "PLANT_RAN" not in os.environ and guard.agent_writable(str(folder / "marked_xyz.py"))


def test_a_package_reached_through_a_folder_link_is_judged_by_its_files(world: tuple) -> None:
    folder, _, journal, _ = world
    real = folder / ".lib" / "linked_xyz"
    real.mkdir(parents=True)
    journal.record([plant(real, "__init__")], tool="bash")  # the walk around the command sees the real file
    (folder / "linked_xyz").symlink_to(real)
    with pytest.raises(ImportError, match="%zeph trust"):
        run_as(CELL, "import linked_xyz")
    assert "PLANT_RAN" not in os.environ


def test_a_module_inside_an_agent_written_archive_is_refused(world: tuple) -> None:
    import zipfile

    folder, _, journal, _ = world
    archive = folder / "deps.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("zmod_xyz.py", "import os\nos.environ['PLANT_RAN'] = 'zip'\n")
    journal.record([archive], tool="bash")
    sys.path.append(str(archive))
    with pytest.raises(ImportError, match="%zeph trust"):
        run_as(CELL, "import zmod_xyz")
    assert "PLANT_RAN" not in os.environ


def test_imports_made_while_the_guard_opens_its_journal_are_guarded(tmp_path: Path) -> None:
    folder, home = tmp_path / "notebook", tmp_path / "home"
    folder.mkdir()
    plant(folder, "dependency_xyz")
    plant(folder, "trigger_xyz")

    def opening() -> Provenance:  # what loading settings did: import a library with optional dependencies
        importlib.import_module("json")
        with contextlib.suppress(ImportError):
            importlib.import_module("dependency_xyz")
        return Provenance(home)

    guard = ImportGuard([folder], opening, strict=False)
    saved = list(sys.path)
    sys.path.insert(0, str(folder))
    sys.meta_path.insert(0, guard)
    try:
        run_as(CELL, "import trigger_xyz")  # the person's own module: the journal is opened to judge it
    finally:
        sys.meta_path.remove(guard)
        sys.path[:] = saved
        sys.modules.pop("trigger_xyz", None)
        sys.modules.pop("dependency_xyz", None)
    assert os.environ.get("PLANT_RAN") == "trigger_xyz,"  # the cell's import ran; the nested one did not


def test_provenance_ignores_lines_not_signed_with_the_key(tmp_path: Path) -> None:
    journal = Provenance(tmp_path / "home")
    target = tmp_path / "zeph.toml"
    target.write_text("[agent]\n")
    journal.record([target], tool="bash")
    # A forged "the person trusted it" line (anything running as the person could append one without the key).
    forged = {"path": str(target), "sha256": "x", "by": "person", "tool": "trust", "call_id": "", "at_ns": 2**62,
              "mac": "00" * 32}  # fmt: skip
    with open(journal.path, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(forged) + "\n{not json\n")
    assert Provenance(tmp_path / "home").agent_written(target) is not None


def test_provenance_is_shared_by_processes_appending_at_once(tmp_path: Path) -> None:
    home = tmp_path / "home"
    files = []
    for i in range(4):
        files.append(tmp_path / f"f{i}.py")
        files[-1].write_text(f"# {i}\n")
    code = ("import sys; from pathlib import Path; from zeph_nb.security.provenance import Provenance\n"
            "j = Provenance(Path(sys.argv[1]))\n"
            "for n in range(200): j.record([sys.argv[2]], tool='bash', call_id=str(n))")  # fmt: skip
    procs = [subprocess.Popen([sys.executable, "-c", code, str(home), str(f)]) for f in files]
    assert [p.wait(timeout=120) for p in procs] == [0] * 4
    lines = (home / "provenance.jsonl").read_text().splitlines()
    assert len(lines) == 800 and all(json.loads(line)["mac"] for line in lines)
    journal = Provenance(home)
    assert all(journal.agent_written(f) is not None for f in files)


def test_the_journal_is_rewritten_smaller_while_others_append_and_nothing_is_lost(tmp_path: Path) -> None:
    home = tmp_path / "home"
    files = [tmp_path / f"w{i}.py" for i in range(3)]
    for i, f in enumerate(files):
        f.write_text(f"# {i}\n")
    writer = ("import sys; from pathlib import Path; from zeph_nb.security.provenance import Provenance\n"
              "j = Provenance(Path(sys.argv[1]))\n"
              "for n in range(3000): j.record([sys.argv[2]], tool='bash', call_id=str(n))")  # fmt: skip
    reader = ("import sys, time; from pathlib import Path; from zeph_nb.security import provenance\n"
              "from zeph_nb.security.provenance import Provenance\n"
              "provenance.COMPACT_AT = 1000  # rewrite often: the race is the point\n"
              "end = time.monotonic() + 600\n"
              "while time.monotonic() < end and not Path(sys.argv[2]).exists():\n"
              "    Provenance(Path(sys.argv[1])).agent_written(sys.argv[3])\n")  # fmt: skip
    done = tmp_path / "writers-done"
    readers = [subprocess.Popen([sys.executable, "-c", reader, str(home), str(done), str(files[0])]) for _ in range(2)]
    writers = [subprocess.Popen([sys.executable, "-c", writer, str(home), str(f)]) for f in files]
    assert [p.wait(timeout=600) for p in writers] == [0] * 3
    done.touch()
    assert [p.wait(timeout=600) for p in readers] == [0] * 2
    journal = Provenance(home)
    assert [journal.agent_written(f).call_id for f in files] == ["2999"] * 3  # type: ignore[union-attr]
    assert len((home / "provenance.jsonl").read_text().splitlines()) < 9_000  # rewritten at least once


def test_an_agent_written_zeph_toml_is_not_config_in_a_new_process(tmp_path: Path) -> None:
    home, work = tmp_path / "home", tmp_path / "work"
    work.mkdir()
    config = work / "zeph.toml"
    config.write_text("[agent]\nmax_tool_iterations = 3\n")
    code = "from zeph_nb import Settings; print(Settings.load().agent.max_tool_iterations)"
    env = {**os.environ, "ZEPH_HOME": str(home)}
    env.pop("ZEPH_CONFIG", None)

    def loaded() -> str:
        done = subprocess.run([sys.executable, "-c", code], cwd=work, env=env, capture_output=True, text=True,
                              timeout=120, check=True)  # fmt: skip
        return done.stdout.strip() + done.stderr

    assert loaded().startswith("3")
    Provenance(home).record([config], tool="bash", call_id="c9")
    out = loaded()
    assert not out.startswith("3") and "%zeph trust" in out
    Provenance(home).trust(config)
    assert loaded().startswith("3")
