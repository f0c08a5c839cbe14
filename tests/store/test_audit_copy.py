"""``[audit]``: the audit log cannot be turned off, and ``destination`` copies each row as a JSON line to
the process's own stdout or a file; a copy that cannot be written costs neither the row nor the call."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

import zeph_nb
from zeph_nb.config import Settings
from zeph_nb.errors import ConfigError
from zeph_nb.store import Store

TIME = [{"tool": "time", "params": {}}]


def run(store: Store, workdir: Path, destination: str) -> zeph_nb.RunResult:
    toml = f"[audit]\ndestination = {json.dumps(destination)}\n"
    settings = Settings.from_toml(toml).model_copy(update={"home": store.home})
    agent = zeph_nb.Agent(settings, zeph_nb.ScriptedProvider([TIME, TIME, "ok"]), workdir=workdir, store=store)
    return agent.run_sync("what time is it")


def test_the_audit_log_cannot_be_turned_off() -> None:
    with pytest.raises(ConfigError, match="always keeps its audit log"):
        Settings.from_toml("[audit]\nenabled = false\n")


def test_stdout_is_the_processes_own_not_a_cells(
    store: Store, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    result = run(store, tmp_path, "stdout")
    assert [o.status for o in result.tool_calls] == ["ok", "ok"]
    lines = [json.loads(line) for line in capfd.readouterr().out.splitlines() if line.startswith("{")]
    assert [row["tool"] for row in lines] == ["time", "time"]
    assert {row["call_id"] for row in lines} == {o.call.call_id for o in result.tool_calls}


def test_a_copy_that_cannot_be_written_costs_nothing_else(
    store: Store, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocked = tmp_path / "a-folder"
    blocked.mkdir()  # a folder where the file should be: every append fails
    with caplog.at_level(logging.WARNING, logger="zeph_nb.store"):
        result = run(store, tmp_path, str(blocked))
    assert [o.status for o in result.tool_calls] == ["ok", "ok"]
    assert len(store.query("SELECT * FROM tool_calls")) == 2  # the rows themselves are all there
    warned = [r for r in caplog.records if "[audit] destination" in r.getMessage()]
    assert len(warned) == 1  # once, not per row
