"""diagnostics runs the real checkers on a real project; time formats a real clock."""

from __future__ import annotations

import re
import shutil
import sys
import time
from datetime import datetime
from pathlib import Path

import pytest

from zeph_nb.config import Settings
from zeph_nb.store import Store
from zeph_nb.tools.base import ToolCall
from zeph_nb.tools.diagnostics import DiagnosticsArgs, DiagnosticsExecutor
from zeph_nb.tools.time import TimeExecutor, format_time


@pytest.fixture
def py_project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\nversion = '0'\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "mod.py").write_text("import os\n\n\ndef half(x: int) -> int:\n    return x / 2\n")
    return tmp_path


async def test_lint_runs_ruff(py_project: Path) -> None:
    out = await DiagnosticsExecutor(workdir=py_project).execute(ToolCall("diagnostics", {"kind": "lint"}))
    assert out is not None and out.raw["ran"] == ["ruff"]
    (diag,) = out.raw["diagnostics"]
    assert diag == {
        "source": "ruff",
        "severity": "warning",
        "message": diag["message"],
        "file": "pkg/mod.py",
        "line": 1,
        "col": 8,
        "code": "F401",
    }
    assert "os" in diag["message"]
    assert "pkg/mod.py:1:8: warning:" in out.summary


async def test_check_runs_mypy(py_project: Path) -> None:
    out = await DiagnosticsExecutor(workdir=py_project).execute(ToolCall("diagnostics", {"kind": "check"}))
    assert out is not None and out.raw["ran"] == ["mypy"], out.summary
    errors = [d for d in out.raw["diagnostics"] if d["severity"] == "error"]
    assert errors and errors[0]["file"] == "pkg/mod.py" and errors[0]["line"] == 5
    assert errors[0]["code"] == "return-value"
    assert out.summary.startswith("1 diagnostics (1 errors) from mypy")


async def test_max_diagnostics(tmp_path: Path) -> None:
    (tmp_path / "many.py").write_text("".join(f"import m{i}\n" for i in range(30)))
    out = DiagnosticsExecutor(workdir=tmp_path).collect("lint", limit=5)
    assert len(out.raw["diagnostics"]) == 5 and out.raw["total"] == 30 and out.truncated
    assert out.summary.splitlines()[-1] == "[5 of 30 shown; raise max_diagnostics to see more]"


async def test_missing_checker_is_a_warning(py_project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The installation is the edge here: no checker beside this interpreter and none on PATH.
    monkeypatch.setattr(sys, "executable", str(py_project / "no-venv" / "python"))
    monkeypatch.setenv("PATH", str(py_project / "empty-bin"))
    out = DiagnosticsExecutor(workdir=py_project).collect("lint")
    assert out.raw["diagnostics"] == [] and out.raw["ran"] == []
    assert out.raw["warnings"] == ["ruff not found: install ruff to get lint diagnostics for Python"]


def test_nothing_to_check(tmp_path: Path) -> None:
    out = DiagnosticsExecutor(workdir=tmp_path).collect("check")
    assert "no Python or Rust project here" in out.summary


@pytest.mark.skipif(shutil.which("cargo") is None, reason="no Rust toolchain on this machine")
def test_cargo_check(tmp_path: Path) -> None:
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n')
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.rs").write_text('fn main() {\n    let x: i32 = "text";\n}\n')
    settings = Settings.from_toml("[tools.shell]\ntimeout = 120\n")
    out = DiagnosticsExecutor(settings, workdir=tmp_path).collect("check")
    errors = [d for d in out.raw["diagnostics"] if d["severity"] == "error"]
    assert errors, out.summary
    assert errors[0]["file"] == "src/main.rs" and errors[0]["line"] == 2 and errors[0]["code"] == "E0308"


INSTANT = 1_764_000_000_123_456_789  # 2025-11-24T16:00:00.123456789Z


@pytest.mark.parametrize(
    ("fmt", "expected"),
    [
        ("epoch", "1764000000"),
        ("epoch_ms", "1764000000123"),
        ("epoch_ns", "1764000000123456789"),
        ("iso", "2025-11-24T16:00:00.123Z"),
        ("rfc2822", "Mon, 24 Nov 2025 16:00:00 +0000"),
        ("date", "2025-11-24"),
        ("time", "16:00:00"),
    ],
)
def test_time_formats(fmt: str, expected: str) -> None:
    assert format_time(fmt, utc=True, now_ns=INSTANT) == expected  # type: ignore[arg-type]  # parametrized literal


def test_iso_is_utc_whatever_the_zone_and_epoch_is_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "Asia/Kolkata")
    time.tzset()
    try:
        assert format_time("iso", now_ns=INSTANT) == "2025-11-24T16:00:00.123Z"
        assert format_time("time", now_ns=INSTANT) == "21:30:00"  # the others follow the local zone unless utc
        assert format_time("iso", now_ns=999_999_999) == "1970-01-01T00:00:00.999Z"  # no rounding up
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()
    assert TimeExecutor.tool.args_model().format == "epoch"


async def test_time_tool_reads_the_clock() -> None:
    out = await TimeExecutor().execute(ToolCall("time", {"format": "iso"}))
    assert out is not None
    moment = datetime.fromisoformat(out.summary)
    assert moment.tzinfo is not None and out.summary.endswith("Z")
    assert abs(moment.timestamp() - out.raw["epoch_ns"] / 1e9) < 1
    default = await TimeExecutor().execute(ToolCall("time", {}))
    assert default is not None and abs(int(default.summary) - default.raw["epoch_ns"] // 10**9) <= 1
    assert re.fullmatch(
        r"\d{2}:\d{2}:\d{2}", (await TimeExecutor().execute(ToolCall("time", {"format": "time"}))).summary
    )  # type: ignore[union-attr]  # owned tool


@pytest.mark.skipif(shutil.which("cargo") is None, reason="no Rust toolchain on this machine")
def test_a_cargo_that_fails_without_a_diagnostic_never_looks_clean(tmp_path: Path) -> None:
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "demo"\nversion = \n')  # exit 101: broken manifest
    out = DiagnosticsExecutor(Settings.from_toml("[tools.shell]\ntimeout = 120\n"), workdir=tmp_path).collect("check")
    assert "no diagnostics" not in out.summary and out.raw["ran"] == []
    assert out.summary.startswith("no checker ran") and "cargo could not run" in out.summary
    assert "Cargo.toml" in out.raw["warnings"][0] or "manifest" in out.raw["warnings"][0], out.summary


def test_a_ruff_that_fails_to_run_never_looks_clean(py_project: Path) -> None:
    (py_project / "ruff.toml").write_text("line-length = 'not a number'\n")  # ruff exits 2 on a bad config
    out = DiagnosticsExecutor(workdir=py_project).collect("lint")
    assert "no diagnostics" not in out.summary and "ruff could not run" in out.summary, out.summary


@pytest.mark.skipif(shutil.which("cargo") is None, reason="no Rust toolchain on this machine")
async def test_max_diagnostics_from_the_settings_and_kind_clippy(tmp_path: Path) -> None:
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n')
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.rs").write_text("fn main() {\n" + '    let x: i32 = "text";\n' * 3 + "}\n")
    (tmp_path / "helper.py").write_text("import os\n")  # a Python file: kind=clippy must not run ruff on it
    settings = Settings.from_toml("[tools.shell]\ntimeout = 120\n[tools.diagnostics]\nmax_diagnostics = 2\n")
    executor = DiagnosticsExecutor(settings, workdir=tmp_path)
    out = await executor.run(DiagnosticsArgs(kind="check"), ToolCall("diagnostics", {}))
    assert len(out.raw["diagnostics"]) == 2 and out.raw["total"] > 2 and "raise max_diagnostics" in out.summary
    clippy = await executor.run(DiagnosticsArgs(kind="clippy"), ToolCall("diagnostics", {}))
    assert clippy.raw["ran"] in (["cargo"], []) and "ruff" not in clippy.summary


async def test_diagnostics_is_cached_until_a_call_may_have_changed_the_files(py_project: Path, store: Store) -> None:
    """The seed's cache rule: diagnostics asked again is answered from the result cache, and a write drops the entry
    (the checkers' findings depend on the files)."""
    from zeph_nb.gates import AutoApprove, build_chain

    settings = Settings().model_copy(update={"home": store.home})
    chain = build_chain(settings, workdir=py_project, store=store, approver=AutoApprove())
    chain.start_run()
    first = await chain.execute(ToolCall("diagnostics", {"kind": "lint"}))
    again = await chain.execute(ToolCall("diagnostics", {"kind": "lint"}))
    assert "F401" in first.text and not first.cached
    assert again.cached and again.text == first.text
    fixed = "def half(x: int) -> float:\n    return x / 2\n"
    assert (await chain.execute(ToolCall("write", {"path": "pkg/mod.py", "content": fixed}))).status == "ok"
    after = await chain.execute(ToolCall("diagnostics", {"kind": "lint"}))
    assert not after.cached and "F401" not in after.text, after.text
