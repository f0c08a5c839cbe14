"""Managed settings in a notebook: a ``%%zeph`` option or a traitlet that would loosen a managed key is refused
with one line naming it, ``%zeph config`` marks the managed keys, and a managed ask offers no Always allow."""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from IPython.core.interactiveshell import InteractiveShell
from traitlets.config import Config

import zeph_nb
from zeph_nb.notebook.magics import ZephMagics

ManagedFile = Callable[[str], Path]

MANAGED = """
[agent]
max_tool_iterations = 10

[tools.execution]
backend = "local"

[tools.shell]
sandbox = "bwrap"

[[gates.permissions.bash]]
pattern = "git push *"
action = "ask"
"""


@pytest.fixture
def shell(isolated_env: Path, managed_file: ManagedFile) -> Iterator[tuple[InteractiveShell, ZephMagics, Path]]:
    path = managed_file(MANAGED)
    (Path.cwd() / "zeph.toml").write_text('[tools.shell]\nsandbox = "off"\n[agent]\nmax_tool_iterations = 40\n')
    ip = InteractiveShell.instance()
    magics = ZephMagics(ip)
    ip.register_magics(magics)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the zeph.toml refusals: tested in tests/config/test_managed.py
        yield ip, magics, path
    if magics.agent is not None:
        magics.agent.chain.store.close()


def model(ip: InteractiveShell, *turns: Any) -> str:
    ip.user_ns["model"] = zeph_nb.ScriptedProvider(list(turns))
    return "--provider model"


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ("--ssh alice@gpu", 'tools.execution.backend is set to "local" by {path} (managed); %%zeph --ssh alice@gpu '
                            'would make it "ssh" and is refused'),
        ("--tmux", 'tools.execution.backend is set to "local" by {path} (managed); %%zeph --tmux would make it '
                   '"tmux" and is refused'),
        ("--max-iterations 50", "agent.max_tool_iterations is set to 10 by {path} (managed); %%zeph "
                                "--max-iterations 50 would make it 50 and is refused"),
    ],
)  # fmt: skip
def test_a_cell_option_that_would_loosen_a_managed_key_is_refused_by_name(
    shell: tuple[InteractiveShell, ZephMagics, Path], capsys: pytest.CaptureFixture[str], options: str, said: str
) -> None:
    ip, _, path = shell
    assert ip.run_cell_magic("zeph", f"{options} {model(ip, 'never')}", "go") is None
    assert capsys.readouterr().out.strip() == "%%zeph: " + said.format(path=path)


def test_a_tighter_cell_option_is_fine(
    shell: tuple[InteractiveShell, ZephMagics, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    ip, magics, _ = shell
    result = ip.run_cell_magic("zeph", "--max-iterations 3 " + model(ip, "done"), "go")
    assert result.text == "done"
    assert magics.agent is not None and magics.agent.settings.tools.shell.sandbox == "bwrap"  # zeph.toml's off: no


def test_a_traitlet_is_refused_like_an_option(
    shell: tuple[InteractiveShell, ZephMagics, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    ip, _, path = shell
    config = Config()
    config.ZephMagics.container = "web"
    magics = ZephMagics(ip, config=config)
    ip.register_magics(magics)
    assert ip.run_cell_magic("zeph", model(ip, "never"), "go") is None
    assert capsys.readouterr().out.strip() == (
        f'%%zeph: tools.execution.backend is set to "local" by {path} (managed); c.ZephMagics.container would make '
        'it "container" and is refused'
    )


def test_a_provider_of_your_own_is_refused_when_the_endpoints_are_managed(
    isolated_env: Path, managed_file: ManagedFile, capsys: pytest.CaptureFixture[str]
) -> None:
    path = managed_file('[llm]\nallowed_base_urls = ["https://llm.corp.example/v1"]\n')
    ip = InteractiveShell.instance()
    magics = ZephMagics(ip)
    ip.register_magics(magics)
    assert ip.run_cell_magic("zeph", model(ip, "never"), "go") is None
    assert capsys.readouterr().out.strip() == (
        f'%%zeph: llm.allowed_base_urls is capped at ["https://llm.corp.example/v1"] by {path} (managed); '
        "%%zeph --provider model (a provider of your own) is refused"
    )


def test_zeph_config_marks_the_managed_keys_and_says_what_was_ignored(
    shell: tuple[InteractiveShell, ZephMagics, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    ip, _, path = shell
    config = ip.run_line_magic("zeph", "config").set_index("key")
    out = capsys.readouterr().out
    assert f"managed:     {path} sets 4 keys (managed = True below); yours cannot loosen them" in out
    assert f'  tools.shell.sandbox is set to "bwrap" by {path} (managed); {Path.cwd() / "zeph.toml"}\'s "off" is ' \
           "ignored" in out  # fmt: skip
    assert config.loc["tools.shell.sandbox", "value"] == "bwrap"
    assert config.loc["tools.shell.sandbox", "from"] == f"managed:{path}"
    assert bool(config.loc["tools.shell.sandbox", "managed"]) and not bool(config.loc["tools.shell.timeout", "managed"])


async def test_a_managed_ask_offers_no_always_allow_button(shell: tuple[InteractiveShell, ZephMagics, Path]) -> None:
    ip, _, _ = shell
    turns = [{"tool": "bash", "params": {"command": "git push origin main"}}]
    run = ip.run_cell_magic("zeph", model(ip, turns, "ok"), "push it")
    for _ in range(500):
        waiting = [c for c in run.transcript.cards.values() if c.buttons and not c.buttons["approve"].disabled]
        if waiting:
            break
        await asyncio.sleep(0.01)
    [card] = waiting
    assert set(card.buttons) == {"approve", "deny"}
    card.buttons["deny"].click()
    await run


@pytest.mark.parametrize(
    ("options", "shown"), [("--ssh ann@gpu", "--ssh ann@gpu"), ("--container web", "--container web")]
)
def test_under_a_managed_bwrap_another_machine_is_refused_at_the_cell(
    isolated_env: Path, managed_file: ManagedFile, capsys: pytest.CaptureFixture[str], options: str, shown: str
) -> None:
    # Only the sandbox is managed (the backend is not pinned): every command there would be denied, so the cell
    # says so instead of a banner saying each command asks.
    path = managed_file('[tools.shell]\nsandbox = "bwrap"\n')
    ip = InteractiveShell.instance()
    magics = ZephMagics(ip)
    ip.register_magics(magics)
    assert ip.run_cell_magic("zeph", f"{options} {model(ip, 'never')}", "go") is None
    assert capsys.readouterr().out.strip() == (
        f'%%zeph: tools.shell.sandbox is set to "bwrap" by {path} (managed): nothing runs outside it; %%zeph {shown} '
        "would run commands on another machine and is refused"
    )


async def test_a_managed_ask_autoapprove_may_not_answer_says_why_on_its_card(
    shell: tuple[InteractiveShell, ZephMagics, Path],
) -> None:
    ip, _, _ = shell
    turns = [{"tool": "bash", "params": {"command": "git push origin main"}}]
    run = ip.run_cell_magic("zeph", "--approve auto " + model(ip, turns, "ok"), "push it")
    await run
    [card] = run.transcript.cards.values()
    assert card.status == "denied"
    assert "a person must answer it, and AutoApprove may not" in card.stats.value
