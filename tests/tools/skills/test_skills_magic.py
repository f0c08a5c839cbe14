"""``%zeph skills`` on a real InteractiveShell: the listing, a held skill and the person's trust, then a %%zeph
cell whose scripted model loads the skill."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from IPython.core.interactiveshell import InteractiveShell

from zeph_nb.notebook.magics import ZephMagics


@pytest.fixture
def shell(isolated_env: Path) -> Iterator[tuple[InteractiveShell, ZephMagics]]:
    ip = InteractiveShell.instance()
    magics = ZephMagics(ip)
    ip.register_magics(magics)
    yield ip, magics
    if magics.agent is not None:
        magics.agent.chain.store.close()


def skill(root: Path, name: str, description: str, body: str) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: {description}\n---\n{body}\n")
    return folder


def say(ip: InteractiveShell, line: str, capsys: pytest.CaptureFixture[str]) -> str:
    ip.run_line_magic("zeph", line)
    return capsys.readouterr().out


def test_zeph_skills_lists_holds_and_trusts_and_a_cell_loads_the_trusted_skill(
    shell: tuple[InteractiveShell, ZephMagics], isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ip, _ = shell
    assert "no skills found" in say(ip, "skills", capsys)
    skill(Path.cwd() / ".zeph" / "skills", "weekly-report", "Writes the weekly report.", "Use the template.")
    (isolated_env / "skills").mkdir()
    listing = say(ip, "skills", capsys)
    # Made after this process started: held, and the listing says why and what to do.
    assert "weekly-report  [the project folder]  HELD, changed after this kernel started" in listing
    assert "%zeph skills trust weekly-report" in listing
    assert f"searched: {isolated_env / 'skills'}" in listing
    assert "Use the template." in say(ip, "skills show weekly-report", capsys)
    assert "trusted weekly-report as it is now" in say(ip, "skills trust weekly-report", capsys)
    assert "weekly-report  [the project folder]  offered" in say(ip, "skills", capsys)
    assert "no skill is called 'nope'" in say(ip, "skills trust nope", capsys)
    ip.user_ns["model"] = _model()
    # No loop runs here, so the cell runs to its end and returns the result (as under a plain console).
    result = ip.run_cell_magic("zeph", "--provider model --approve deny", "write the report")
    call = result.tool_calls[0]
    assert (call.tool, call.status) == ("load_skill", "ok") and "Use the template." in call.output.summary


def _model() -> Any:
    from zeph_nb import ScriptedProvider

    return ScriptedProvider([[{"tool": "load_skill", "params": {"name": "weekly-report"}}], "Done."])
