"""The call context and the trace: a call is validated once and a command line parsed once on its way through the
chain to the executor, and what a gate learned is written once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from zeph_nb.config import Settings
from zeph_nb.gates import build_chain
from zeph_nb.gates.call import Trace
from zeph_nb.gates.policy import PolicyDecision
from zeph_nb.shell import ShellClassifier
from zeph_nb.store import Store
from zeph_nb.tools import base
from zeph_nb.tools.base import ToolCall


def counting(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[object]:
    calls: list[object] = []
    real = getattr(owner, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[1] if len(args) > 1 else args)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, wrapper)
    return calls


async def test_a_bash_call_is_validated_once_and_parsed_once(
    tmp_path: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = Settings().model_copy(update={"home": store.home})
    chain = build_chain(settings, workdir=tmp_path, store=store)
    parses = counting(monkeypatch, ShellClassifier, "analyze")
    import zeph_nb.gates.prepare as chain_module

    validations = counting(monkeypatch, chain_module, "validate_params")
    again = counting(monkeypatch, base, "validate_params")
    outcome = await chain.execute(ToolCall("bash", {"command": "echo one && echo two"}))
    assert outcome.status == "ok" and outcome.output.summary.split() == ["one", "two"]
    assert parses == ["echo one && echo two"] and len(validations) == 1 and again == []


async def test_the_executor_parses_again_when_its_classifier_is_configured_otherwise(
    tmp_path: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A parse stands for another only between classifiers with the same configuration (their key).
    from zeph_nb.tools.shell.executor import ShellExecutor

    settings = Settings().model_copy(update={"home": store.home})
    stricter = Settings.from_toml('[tools.shell]\nblocked_commands = ["echo"]\n')
    chain = build_chain(settings, workdir=tmp_path, store=store, executor=ShellExecutor(stricter, workdir=tmp_path))
    outcome = await chain.execute(ToolCall("bash", {"command": "echo hi"}))
    assert outcome.status in ("error", "denied") and "echo" in outcome.text  # the executor's own blocklist held


def test_a_fact_is_written_once() -> None:
    trace = Trace()
    trace.note(blocked_by="quota", decision=PolicyDecision("deny", "quota", "used up"))
    with pytest.raises(RuntimeError, match="blocked_by was written already"):
        trace.note(blocked_by="policy")
    with pytest.raises(AttributeError, match="no fact 'attempts'"):
        trace.note(attempts=3)  # the one counter: trace.ran()
    trace.ran()
    trace.ran()
    assert trace.attempts == 2
