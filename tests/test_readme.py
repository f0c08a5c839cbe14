"""The Python examples of the README and the docs pages run as written (in a scratch directory), and their
settings examples load."""

from __future__ import annotations

import asyncio
import itertools
import re
import warnings
from pathlib import Path

import pytest

import zeph_nb

ROOT = Path(__file__).parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BLOCKS = [block for page in PAGES for block in re.findall(r"```python\n(.*?)```", page.read_text(), flags=re.DOTALL)]


def _printed() -> dict[str, str]:
    """A bare ``` block right after a python block (blank lines between) is the output that block promises."""
    found = {}
    for page in PAGES:
        text = page.read_text()
        fences = list(re.finditer(r"```(\w*)\n(.*?)```", text, flags=re.DOTALL))
        for block, following in itertools.pairwise(fences):
            if (
                block.group(1) == "python"
                and following.group(1) == ""
                and not text[block.end() : following.start()].strip()
            ):
                found[block.group(2)] = following.group(2)
    return found


PRINTED = _printed()


def test_there_are_examples() -> None:
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_example_runs(
    block: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ZEPH_HOME", str(tmp_path / "zeph-home"))  # the audit examples read a store of their own
    namespace: dict[str, object] = {}
    if "# raises" in block:
        with pytest.raises(zeph_nb.ZephError):
            exec(block, namespace)
        return
    exec(block, namespace)
    if block in PRINTED and "print(" in block:
        assert capsys.readouterr().out == PRINTED[block]
    echo = namespace.get("Echo")
    if isinstance(echo, type):  # the custom-tool example: drive it through the composite it builds
        tools = namespace["tools"]
        out = asyncio.run(tools.execute(zeph_nb.ToolCall("echo", {"text": "hi"})))  # type: ignore[attr-defined]
        assert out.summary == "hi"
    stamp = namespace.get("Stamp")
    if isinstance(stamp, type):  # the tool-spec example: its one registration, driven through a real agent run
        provider = zeph_nb.ScriptedProvider([[{"tool": "stamp", "params": {"path": "log.txt", "text": "hi"}}], "ok"])
        agent = zeph_nb.Agent(provider=provider, approver=zeph_nb.AutoApprove(), tools=[stamp()])
        (call,) = agent.run_sync("stamp it").tool_calls
        assert call.status == "ok" and (tmp_path / "log.txt").read_text() == "hi\n", call.text
    filtered = namespace.get("out")
    if isinstance(filtered, zeph_nb.filters.FilteredOutput):  # the filter example says what it prints; check it
        assert filtered.text == "=" * 20 + " 300 passed in 0.52s " + "=" * 20  # the line as pytest wrote it
        assert filtered.stats_line() == "[shell] 301 lines -> 1 lines, 99.4% filtered"


# Every TOML example is a settings file, except the filter rules ([[rules]]), which have their own schema.
TOML_BLOCKS = [block for page in PAGES for block in re.findall(r"```toml\n(.*?)```", page.read_text(), flags=re.DOTALL)]
SETTINGS_BLOCKS = [block for block in TOML_BLOCKS if "[[rules]]" not in block]


@pytest.mark.parametrize("block", SETTINGS_BLOCKS, ids=[f"toml{i}" for i in range(len(SETTINGS_BLOCKS))])
def test_settings_examples_are_valid(block: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)  # nor a key under the old place it moved from
        zeph_nb.Settings.from_toml(block)  # no page shows a key the loader would refuse
