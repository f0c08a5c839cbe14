"""A call is decided once: on its way from the model to the subprocess a command line is parsed once and scoped
once (the gates prepare it; the executor runs what they prepared). Counted on the real classifier and the real
scope function, through a real Agent whose bash runs real commands."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import zeph_nb
from zeph_nb.config import Settings
from zeph_nb.shell import ShellClassifier
from zeph_nb.store import Store
from zeph_nb.tools import containment


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    counts: Counter[str] = Counter()

    def counting(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            counts[name] += 1
            return function(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(ShellClassifier, "analyze", counting("parse", ShellClassifier.analyze))
    scope = counting("scope", containment.scope_of)
    # Every module that scopes a command takes scope_of by name: each one's name is counted.
    import zeph_nb.gates.prepare
    import zeph_nb.tools.shell.executor

    for module in (containment, zeph_nb.gates.prepare, zeph_nb.tools.shell.executor):
        if hasattr(module, "scope_of"):
            monkeypatch.setattr(module, "scope_of", scope)
    return counts


@pytest.mark.parametrize(
    "command",
    [
        "echo hello > out.txt && cat out.txt",  # allowed without asking, writes in the workdir
        "rm -f out.txt",  # asks (destructive), approved
        "pip download nothing-here --no-deps -d /tmp/x || true",  # asks for the network, approved
    ],
)
def test_a_command_is_parsed_once_and_scoped_once(counted: Counter[str], tmp_path: Path, command: str) -> None:
    work = tmp_path / "work"
    work.mkdir()
    settings = Settings().model_copy(update={"home": tmp_path / "home"})
    store = Store(settings, flusher=False)
    provider = zeph_nb.ScriptedProvider([[{"tool": "bash", "params": {"command": command, "timeout": 20}}], "done"])
    agent = zeph_nb.Agent(settings, provider, zeph_nb.AutoApprove(), workdir=work, store=store)
    counted.clear()  # building the agent parses nothing of the call
    result = agent.run_sync("run it")
    (call,) = result.tool_calls
    assert call.attempts == 1, call.text
    assert counted == Counter({"parse": 1, "scope": 1}), (command, counted)
    store.close()


def test_the_executor_alone_prepares_what_it_runs_itself(counted: Counter[str], tmp_path: Path) -> None:
    """Without the gates (a script using ShellExecutor directly) the executor parses and scopes the call itself:
    still once each."""
    import asyncio

    from zeph_nb.tools import ToolCall
    from zeph_nb.tools.shell.executor import ShellExecutor

    executor = ShellExecutor(Settings(), workdir=tmp_path)
    output = asyncio.run(executor.execute(ToolCall("bash", {"command": "echo alone"})))
    assert output is not None and "alone" in output.summary
    assert counted == Counter({"parse": 1, "scope": 1})
