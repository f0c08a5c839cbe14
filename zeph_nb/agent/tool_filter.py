"""ToolFilter: offer the model only the tools a request needs (``[agent.tool_filter]``, seed 003; off by default).

Every request carries every tool's schema. With fifty MCP tools that is thousands of tokens a request, and a
model chooses worse among many. The filter embeds the run's prompt once and each tool's name and description
once (cached by that text), and offers, in the seed's order of inclusion:

1. the tools in ``always_on``;
2. tools the conversation already used: a later request must not lose a tool the model is in the middle of
   using (the seed keeps the turn's; a notebook conversation goes on across cells, "now the other file", so
   zeph keeps the conversation's until ``%zeph clear``);
3. tools named in the prompt ("use mcp_notes_search");
4. tools whose description has fewer than ``min_description_words`` words: too little text to rank by;
5. tools that have no embedding (the endpoint failed for them);
6. then the ``top_k`` of the rest by cosine similarity to the prompt, plus the dependency graph's ``prefers``
   boost for tools whose preferred predecessors completed (``[gates.dependencies] boost_per_dep``).

Without the prompt's embedding (the endpoint is down, slow or answers nonsense) nothing is filtered: a run with
every tool is better than a run missing the one it needs. The selection says why (``note``), and the run shows
it. Which tools are offered never changes what a call may do: every call still passes the whole gate chain.
"""

from __future__ import annotations

import asyncio
import logging
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from zeph_nb.config.tool_filter import ToolFilterSettings
from zeph_nb.errors import ModelError, ToolErrorCategory
from zeph_nb.tools.base import ToolDef

__all__ = ["Embedder", "Selection", "ToolFilter"]

log = logging.getLogger("zeph_nb.agent")


class Embedder(Protocol):
    async def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


@dataclass(frozen=True)
class Selection:
    names: list[str]  # offered, in the order they came
    total: int  # how many there were to choose from
    why: dict[str, str] = field(default_factory=dict)  # offered name -> why it was kept
    note: str | None = None  # why every tool is offered, when the filter could not choose


def tool_text(tool: ToolDef) -> str:
    """What is embedded for a tool: its name carries meaning too (``mcp_notes_search``)."""
    return f"{tool.name}: {tool.description}"


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    if len(a) != len(b):
        return -1.0  # another model's vector (the provider changed): never similar
    dot = math.fsum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(math.fsum(x * x for x in a)) * math.sqrt(math.fsum(y * y for y in b))
    score = dot / norm if norm else -1.0
    # Finite inputs can still overflow (1e200 squared): a NaN would sort anywhere, so it is never similar.
    return score if math.isfinite(score) else -1.0


class ToolFilter:
    def __init__(self, config: ToolFilterSettings, embedder: Embedder, *, label: str = "") -> None:
        self.config = config
        self.embedder = embedder
        self.label = label or repr(embedder)  # what %zeph status says embeds
        self._vectors: dict[str, list[float]] = {}  # tool_text -> its embedding, for the agent's life
        self._failed: set[str] = set()  # texts the endpoint failed on this run: not asked again until the next
        self._query: list[float] | None = None
        self._prompt = ""
        self._note: str | None = None
        # This run's similarity of each tool text to the prompt, and whether each name is in it: select runs every
        # round with the same prompt, and recomputing them (15 cosines over 512 dimensions) cost 1-2 ms a round.
        self._similar: dict[str, float] = {}
        self._in_prompt: dict[str, bool] = {}

    async def begin(self, prompt: str) -> None:
        """A new run: embed its prompt (a failure is remembered as the run's note, never raised)."""
        self._prompt, self._query, self._note, self._failed = prompt, None, None, set()
        self._similar, self._in_prompt = {}, {}
        try:
            (self._query,) = await self._embed([prompt])
        except (ModelError, ValueError) as e:
            self._note = f"every tool offered: the prompt could not be embedded ({e})"
            log.warning("zeph-nb: [agent.tool_filter] %s", self._note)

    async def select(
        self, tools: Sequence[ToolDef], used: Iterable[str], boost: Callable[[str], float] = lambda _: 0.0
    ) -> Selection:
        """Which of ``tools`` to offer now, and why each one."""
        names = [tool.name for tool in tools]
        if self._query is None:
            return Selection(names, len(tools), note=self._note or "every tool offered: no prompt embedded")
        await self._embed_missing(tools)
        config, used = self.config, set(used)
        why: dict[str, str] = {}
        ranked: list[tuple[float, int, str]] = []
        for position, tool in enumerate(tools):
            text = tool_text(tool)
            if tool.name in config.always_on:
                why[tool.name] = "always on"
            elif tool.name in used:
                why[tool.name] = "used in this conversation"
            elif self._named(tool.name):
                why[tool.name] = "named in the prompt"
            elif len(tool.description.split()) < config.min_description_words:
                why[tool.name] = "description too short to rank"
            elif text not in self._vectors:
                why[tool.name] = "no embedding"
            else:
                if (similar := self._similar.get(text)) is None:
                    similar = self._similar[text] = cosine(self._query, self._vectors[text])
                score = similar + boost(tool.name)
                ranked.append((-score, position, tool.name))
        for negative, _, name in sorted(ranked)[: config.top_k]:
            why[name] = f"similar ({-negative:.2f})"
        return Selection([name for name in names if name in why], len(tools), why)

    def _named(self, name: str) -> bool:
        if (named := self._in_prompt.get(name)) is None:
            named = self._in_prompt[name] = _named(name, self._prompt)
        return named

    async def _embed_missing(self, tools: Sequence[ToolDef]) -> None:
        texts = list(dict.fromkeys(tool_text(t) for t in tools))
        missing = [text for text in texts if text not in self._vectors and text not in self._failed]
        if not missing:
            return
        try:
            vectors = await self._embed(missing)
        except (ModelError, ValueError) as e:
            self._failed.update(missing)  # offered as "no embedding"; asked again next run
            log.warning("zeph-nb: [agent.tool_filter] %d tool descriptions could not be embedded: %s", len(missing), e)
            return
        self._vectors.update(zip(missing, vectors, strict=True))

    async def _embed(self, texts: list[str]) -> list[list[float]]:
        """The embedder's vectors, by a deadline for the whole batch: a server that trickles bytes would keep a
        client's per-read timeout from ever firing."""
        deadline = self.config.timeout_secs * max(1, math.ceil(len(texts) / 64))
        try:
            return await asyncio.wait_for(self.embedder.embed(texts), deadline)
        except TimeoutError:
            raise ModelError(ToolErrorCategory.TIMEOUT, f"no embeddings in {deadline:g}s") from None


def _named(name: str, prompt: str) -> bool:
    """``name`` appears in the prompt as a word of its own (``grep``, not ``grepping``)."""
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", prompt, re.IGNORECASE) is not None
