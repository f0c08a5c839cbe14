"""``[agent.tool_filter]``: send the model only the tools relevant to the request (seed 003, off by default)."""

from __future__ import annotations

from pydantic import Field, model_validator

from zeph_nb.config.common import _Section

__all__ = ["ToolFilterSettings"]


class ToolFilterSettings(_Section):
    """``[agent.tool_filter]``: with many tools (fifty from MCP servers), each request carries every schema; the
    filter keeps the ones the prompt needs, ranked by embedding similarity (``agent/tool_filter.py``)."""

    enabled: bool = False
    """offer only the tools relevant to the request (needs provider)"""
    provider: str | None = None
    """the [[llm.providers]] name (kind openai) whose /embeddings endpoint embeds the prompt and the tools"""
    top_k: int = Field(10, ge=1, le=1000)
    """tools chosen by similarity, besides those always included"""
    min_description_words: int = Field(3, ge=0, le=100)
    """a tool described in fewer words is always included: too little text to rank by"""
    always_on: list[str] = Field(default_factory=lambda: ["read_overflow"])
    """tools always offered (read_overflow: results name overflow ids whatever the prompt asked)"""
    timeout_secs: float = Field(10.0, gt=0, le=300)
    """an embeddings request not answered by then offers every tool for the run"""

    @model_validator(mode="after")
    def _has_a_provider(self) -> ToolFilterSettings:
        if self.enabled and not self.provider:
            raise ValueError("enabled needs provider: the name of an [[llm.providers]] entry with an /embeddings API")
        return self
