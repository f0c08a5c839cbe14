"""The README's Python examples run as written (in a scratch directory)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

import zeph_nb

README = Path(__file__).parent.parent / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.DOTALL)


def test_there_are_examples() -> None:
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_example_runs(block: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ZEPH_HOME", str(tmp_path / "zeph-home"))  # the audit examples read a store of their own
    namespace: dict[str, object] = {}
    if "# raises" in block:
        with pytest.raises(zeph_nb.ZephError):
            exec(block, namespace)
        return
    exec(block, namespace)
    echo = namespace.get("Echo")
    if isinstance(echo, type):  # the custom-tool example: drive it through the composite it builds
        tools = namespace["tools"]
        out = asyncio.run(tools.execute(zeph_nb.ToolCall("echo", {"text": "hi"})))  # type: ignore[attr-defined]
        assert out.summary == "hi"
    filtered = namespace.get("out")
    if isinstance(filtered, zeph_nb.filters.FilteredOutput):  # the filter example says what it prints; check it
        assert filtered.text == "300 passed in 0.52s"
        assert filtered.stats_line() == "[shell] 301 lines -> 1 lines, 99.8% filtered"
