"""The shell policy follows its file (seed 004): a changed blocklist or confirm pattern holds from the next call,
through the real gate chain and shell tool, with no new agent or kernel; a broken edit keeps the policy in force."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from zeph_nb.config import Settings
from zeph_nb.gates import AutoApprove, DenyAll, build_chain
from zeph_nb.store import Store
from zeph_nb.tools.base import ToolCall
from zeph_nb.tools.containment import shell_classifier


def write(path: Path, text: str) -> None:
    """Write and move the modification time on: two edits within the file system's time step still differ."""
    before = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(text)
    os.utime(path, ns=(before + 2_000_000_000, before + 2_000_000_000))


def test_the_classifier_reads_the_policy_again_when_its_file_changes(tmp_path: Path) -> None:
    config = tmp_path / "zeph.toml"
    write(config, '[tools.shell]\nblocked_commands = ["docker"]\n')
    classifier = shell_classifier(Settings.load(config))
    assert classifier.classify("docker ps") == "block" and classifier.classify("podman ps") == "allow"
    key = classifier.key
    write(config, '[tools.shell]\nblocked_commands = ["podman"]\nconfirm_patterns = ["deploy"]\n')
    assert classifier.classify("podman ps") == "block" and classifier.classify("docker ps") == "allow"
    assert classifier.classify("echo deploy now") == "confirm"
    assert classifier.key != key  # the gates hand their parse on only to a classifier of the same policy


def test_a_file_that_no_longer_loads_keeps_the_policy_and_says_why(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    config = tmp_path / "zeph.toml"
    write(config, '[tools.shell]\nblocked_commands = ["docker"]\n')
    classifier = shell_classifier(Settings.load(config))
    write(config, '[tools.shell]\nblocked_commands = ["docker"\n')  # half an edit
    with caplog.at_level(logging.WARNING, logger="zeph_nb.tools"):
        assert classifier.classify("docker ps") == "block"
        assert classifier.classify("docker ps") == "block"
    said = [r.getMessage() for r in caplog.records if "does not load" in r.getMessage()]
    assert len(said) == 1 and "stays as it was" in said[0], said


def test_settings_from_no_file_have_nothing_to_follow() -> None:
    assert shell_classifier(Settings.from_toml('[tools.shell]\nblocked_commands = ["x"]\n')).reload is None


async def test_a_running_chain_and_shell_tool_follow_the_edited_policy(
    tmp_path: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ZEPH_HOME", str(store.home))
    config = tmp_path / "zeph.toml"
    write(config, '[tools.shell]\nsandbox = "off"\n')
    chain = build_chain(Settings.load(config), workdir=tmp_path, store=store, approver=AutoApprove())
    assert (await chain.execute(ToolCall("bash", {"command": "echo ran"}))).status == "ok"
    write(config, '[tools.shell]\nsandbox = "off"\nblocked_commands = ["echo"]\n')
    refused = await chain.execute(ToolCall("bash", {"command": "echo ran"}))
    assert refused.status == "denied" and "ran" not in refused.text.replace("echo ran", ""), refused.text
    write(config, '[tools.shell]\nsandbox = "off"\nconfirm_patterns = ["secret"]\n')
    chain.session.desk.approver = DenyAll()
    asked = await chain.execute(ToolCall("bash", {"command": "echo secret"}))
    assert asked.status == "denied" and asked.category is not None, asked.text
    assert (await chain.execute(ToolCall("bash", {"command": "echo ran"}))).status == "ok"
