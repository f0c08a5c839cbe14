"""``[memory]``: what the model saves with ``memory_save`` and finds again with ``memory_search``, kept in the store."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from zeph_nb.config.common import _Section

__all__ = ["MemorySettings"]


class MemorySettings(_Section):
    """``[memory]``: notes that outlive the kernel, one table of the store, per user and per project folder."""

    enabled: bool = Field(
        False,
        description="offer memory_save and memory_search to the model. Off by default: a notebook is expected to do "
        "the same thing each time it is run top to bottom, and memory is state that is in no cell, carried from "
        "earlier kernels (and what a model saved after reading a hostile page would steer later runs); turn it on "
        "where notes across sessions are wanted. %zeph memory shows and deletes what is kept either way",
    )
    scope: Literal["project", "user"] = Field(
        "project",
        description="which entries memory_search reads: project, those saved from the same project folder (the "
        "notebook's working directory) by the same user; user, every entry of the user, from any folder",
    )
    embedding_provider: str | None = Field(
        None,
        description="the [[llm.providers]] name (kind openai) whose /embeddings endpoint embeds entries and queries; "
        "then memory_search blends vector similarity with the full-text score. Unset: full-text (BM25) only",
    )
    vector_weight: float = Field(
        0.5, ge=0.0, le=1.0, description="with embedding_provider: the share of the vector similarity in the score"
    )
    max_chars: int = Field(
        4000, ge=100, le=100_000, description="the longest text one memory_save may keep; longer is refused"
    )
    timeout_secs: float = Field(
        10.0, gt=0, le=300, description="an embeddings request not answered by then: the search is full-text only"
    )
