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
