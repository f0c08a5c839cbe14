"""ScriptedProvider: an offline model that replays a list of turns, for tests, tutorials and demos.

A turn is the reply text (``"Done."``), or the tool calls of one response (``[{"tool": "bash", "params":
{"command": "ls"}}]``, optionally with ``"text"`` before them and an ``"id"``), or a callable that receives the
conversation so far and returns either. With no turns left it answers that it has nothing more to say.

With no turns at all it is the stand-in used when no model is configured, and its reply says exactly that
instead of pretending to be a model.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from zeph_nb.agent.messages import (
    Block,
    Message,
    ModelRequest,
    ModelResponse,
    RunningSize,
    TextBlock,
    TextSink,
    ToolUseBlock,
    Usage,
)
from zeph_nb.output.sanitize import tokens_for_chars

__all__ = ["NO_MODEL_REPLY", "ScriptedProvider", "Turn"]

ToolCallSpec = Mapping[str, Any]
Turn = str | Sequence[ToolCallSpec] | Callable[[Sequence[Message]], "str | Sequence[ToolCallSpec]"]

NO_MODEL_REPLY = (
    "No model is configured, so this reply comes from zeph-nb's offline scripted model and nothing was done. "
    "To use Claude, set ANTHROPIC_API_KEY; for an OpenAI-compatible server (Ollama, vLLM, llama.cpp) set "
    "[llm] base_url and model in zeph.toml. To try zeph-nb offline, put zeph_nb.ScriptedProvider([...]) in a "
    "variable and run %%zeph --provider NAME (the quickstart tutorial shows how)."
)


class ScriptedProvider:
    """Replays ``turns`` in order, one per request."""

    name = "scripted"

    def __init__(self, turns: Iterable[Turn] | None = None, *, model: str = "scripted") -> None:
        self.unconfigured = turns is None
        self.turns: list[Turn] = list(turns or [])
        self.model = model
        self.requests: list[ModelRequest] = []  # what the loop sent, for tests and tutorials
        self._sizes = RunningSize()

    async def complete(self, request: ModelRequest, on_text: TextSink) -> ModelResponse:
        self.requests.append(request)
        if self.unconfigured:
            turn: Turn = NO_MODEL_REPLY
        elif self.turns:
            turn = self.turns.pop(0)
        else:
            turn = "(The scripted model has no more turns.)"
        if callable(turn):
            turn = turn(request.messages)
        content = self._blocks(turn)
        for block in content:
            if isinstance(block, TextBlock):
                for piece in re.findall(r"\S+\s*|\s+", block.text):  # stream it word by word, like a model
                    await on_text(piece)
        # A running total: joining the whole prompt's text every turn made long offline runs quadratic.
        prompt = len(request.system) + self._sizes.chars(request.messages)
        reply = sum(block.chars for block in content)
        usage = Usage(input_tokens=tokens_for_chars(prompt), output_tokens=tokens_for_chars(reply))
        stop = "tool_use" if any(isinstance(b, ToolUseBlock) for b in content) else "end_turn"
        return ModelResponse(content, stop, usage, self.model)

    @staticmethod
    def _blocks(turn: str | Sequence[ToolCallSpec]) -> list[Block]:
        if isinstance(turn, str):
            return [TextBlock(turn)]
        blocks: list[Block] = []
        for spec in turn:
            if not isinstance(spec, Mapping) or "tool" not in spec:
                raise ValueError(
                    f"ScriptedProvider: a tool call is a dict like {{'tool': 'bash', 'params': {{...}}}}, got {spec!r}"
                )
            if spec.get("text"):
                blocks.append(TextBlock(str(spec["text"])))
            call_id = str(spec.get("id") or f"toolu_{uuid.uuid4().hex[:20]}")
            blocks.append(ToolUseBlock(call_id, str(spec["tool"]), spec.get("params", {})))
        return blocks
