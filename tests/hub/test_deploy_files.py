"""The files in deploy/ are what a hub admin copies: the managed settings file loads as zeph-nb reads it (with the
key `zeph-nb hub-key` prints in place of the placeholder), and the CLI lists every command it has."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from zeph_nb.cli import main as cli
from zeph_nb.config import Settings

ROOT = Path(__file__).resolve().parents[2]


def test_the_managed_file_in_deploy_loads_once_its_key_is_in(
    isolated_env: Path, managed_file: Any, tmp_path: Path, capsys: Any
) -> None:
    assert cli(["hub-key", str(tmp_path / "review.key")]) == 0
    printed = capsys.readouterr().out
    line = next(line for line in printed.splitlines() if line.startswith("review_key = "))
    # Only the line is printed to paste: a table header pasted into the file would be a second [gates.approval].
    assert "\n[gates.approval]" not in printed
    text = (ROOT / "deploy" / "managed.toml").read_text()
    assert 'review_key = "REPLACE' in text
    managed_file("\n".join(line if kept.startswith("review_key = ") else kept for kept in text.splitlines()))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        settings = Settings.load()
    approval = settings.gates.approval
    assert approval.decided_by == "reviewers" and approval.review_key == line.split('"')[1]
    assert settings.tools.shell.sandbox == "bwrap" and settings.store.audit_url
    assert settings.gates.permissions is not None and settings.gates.permissions["run_python"][0].action == "ask"


def test_zeph_nb_help_lists_every_command(capsys: Any) -> None:
    assert cli(["--help"]) == 0
    shown = capsys.readouterr().out
    for command in ("migrate-config", "team-db", "hub-key"):
        assert command in shown


def test_the_hub_config_says_which_variable_is_missing(monkeypatch: Any) -> None:
    import pytest
    from traitlets.config import Config

    monkeypatch.delenv("ZEPH_HUB_DB_URL", raising=False)
    monkeypatch.setenv("ZEPH_HUB_SIGNING_KEY", "/srv/zeph/review.key")
    source = (ROOT / "deploy" / "jupyterhub_config.py").read_text()
    with pytest.raises(SystemExit, match="set ZEPH_HUB_DB_URL in the hub's environment"):
        exec(compile(source, "jupyterhub_config.py", "exec"), {"get_config": Config})
