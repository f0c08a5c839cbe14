"""``[memory]``: what the model saves with ``memory_save`` and finds again with ``memory_search``, kept in the store."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from zeph_nb.config.common import _Section

__all__ = ["NOT_HERE", "MemorySettings"]

_CONTEXT = (
    "the conversation's own context is kept within [agent] context_budget_tokens (and summarised by [agent] "
    "compress_provider); [memory] here is the notes the model saves with memory_save"
)
_NEVER_ON_ITS_OWN = (
    "zeph-nb saves nothing on its own: a note is kept only when the model calls memory_save, a call the gates see "
    "and the audit log records"
)
_STORE = "notes live in the store's memories table (the zeph home's zeph.duckdb; [store] path moves it)"
# The reference agent's [memory] keys, which are about its conversation history and its vector database, each with
# why it does not apply here (a config ported from it hears this, not "unknown key").
NOT_HERE: dict[str, str] = {
    **dict.fromkeys(("sqlite_path", "database_url"), _STORE),
    **dict.fromkeys(("history_limit", "summarization_threshold", "auto_budget", "soft_compaction_threshold",
                     "hard_compaction_threshold", "compaction_preserve_tail", "compaction_cooldown_turns",
                     "prune_protect_tokens", "token_safety_margin", "context_budget_tokens"), _CONTEXT),
    **dict.fromkeys(("autosave_assistant", "autosave_min_length", "shutdown_summary", "shutdown_summary_min_messages",
                     "shutdown_summary_max_messages"), _NEVER_ON_ITS_OWN),
    **dict.fromkeys(("qdrant_url", "vector_backend"), "notes are ranked in the kernel (BM25, blended with vectors "
                    "from embedding_provider): there is no vector database to name"),
    "cross_session_score_threshold": "memory_search returns the best notes of the project (or, with scope = "
    "\"user\", of every folder), ranked; there is no cut-off score",
    "redact_credentials": "always on: every note passes the store's redaction before it is kept or embedded",
    "sessions": "conversations are the store's conversations table, read with pandas (zeph_nb.audit.sql)",
    "documents": "there is no document ingestion (RAG) here: the file tools, grep and search_code read the project",
    "semantic": "memory_search is the semantic memory: embedding_provider and vector_weight are its keys here",
    "graph": "there is no knowledge graph: a note is the text the model saves with memory_save",
    **dict.fromkeys(("compression", "compression_guidelines", "sidequest"), _CONTEXT + "; there are no pruning "
                    "strategies, probes or eviction passes to set"),
    **dict.fromkeys(("tiers", "admission"), "a note is kept as the model saved it with memory_save; it is never "
                    "scored, promoted or merged on its own"),
}  # fmt: skip


class MemorySettings(_Section):
    """``[memory]``: notes that outlive the kernel, one table of the store, per user and per project folder."""

    not_here = NOT_HERE

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
