"""``[index]``: how ``search_code`` searches the project the notebook sits in (the seed's code index section)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from zeph_nb.config.common import _Section

__all__ = ["NOT_HERE", "IndexSettings"]

_NO_INJECTION = "zeph-nb puts no code into the prompt by itself; the model asks search_code for what it needs"
# The reference's [index] keys that have no meaning here, and why (refused with the reason, never ignored).
NOT_HERE: dict[str, str] = {
    "watch": "there is no index kept up to date in the background: each search reads the files as they are "
    "(unchanged definitions are not embedded again)",
    "budget_ratio": _NO_INJECTION,
    "repo_map_tokens": _NO_INJECTION,
    "repo_map_ttl_secs": _NO_INJECTION,
    "embed_provider": "it is called embedding_provider here, as in [memory]",
}


class IndexSettings(_Section):
    """``[index]``: search_code's layers and bounds. Structural search (tree-sitter) and symbols through a language
    server always work; the semantic layer (vectors of the definitions) is what ``enabled`` turns on."""

    not_here = NOT_HERE
    _table = "index"

    enabled: bool = Field(
        False,
        description="offer kind='semantic' in search_code: the project's definitions ranked by meaning against a "
        "question in words, each embedded through embedding_provider's /embeddings endpoint (code is sent there: "
        "name a local server for private code). Off: definitions, calls, imports and references only",
    )
    embedding_provider: str | None = Field(
        None,
        description="with enabled: the [[llm.providers]] name (kind openai, with embedding_model) whose /embeddings "
        "endpoint embeds the definitions and the question",
    )
    vector_backend: Literal["embedded", "sqlite", "qdrant"] = Field(
        "embedded",
        description="where the vectors are kept: embedded, in the kernel's memory, each definition embedded once "
        "until its text changes (no server); sqlite, the reference's name for its embedded backend, means the same; "
        "qdrant, in a Qdrant collection per project folder and embedding model, at qdrant_url or (no URL) in "
        "Qdrant's local mode in the zeph home's qdrant/ folder: the vectors outlive the kernel, so a new kernel "
        "embeds only the definitions that changed (needs pip install 'zeph-nb[qdrant]')",
    )
    qdrant_url: str | None = Field(
        None,
        pattern=r"^https?://[^\s/]+(/\S*)?$",
        description="(the reference's, in its [memory], default http://localhost:6334) with vector_backend qdrant: "
        "the server; port 6334 is spoken to over gRPC, any other (6333 is Qdrant's) over REST. Unset: Qdrant's "
        "local mode on disk in the zeph home, no server (a kernel keeps it open 2 s after a search, then closes it "
        "so that kernels on the same project take turns)",
    )
    qdrant_api_key_env: str | None = Field(
        None,
        pattern=r"^[A-Z_][A-Z0-9_]*$",
        description="the environment variable holding qdrant_url's API key (the key itself is never written in a "
        "file; read when the settings are loaded)",
    )
    qdrant_timeout_secs: float = Field(
        10.0,
        gt=0,
        le=600,
        description="a Qdrant request not answered by then fails the semantic search, naming the server (the other "
        "kinds still work); whole seconds, at least 1, as the client counts them",
    )
    embedding_timeout_secs: float = Field(
        30.0, gt=0, le=600, description="an /embeddings request not answered by then fails the semantic search"
    )
    max_chunks: int = Field(
        12, ge=1, le=500, description="(the reference's) the most definitions one semantic query returns; the "
        "model's max_results can only lower it"
    )  # fmt: skip
    score_threshold: float = Field(
        0.25, ge=0.0, le=1.0, description="(the reference's) the lowest cosine similarity a semantic hit may have; "
        "below it a definition is not shown"
    )  # fmt: skip
    language_server: bool = Field(
        True,
        description="resolve Python symbols and references through jedi-language-server, started in the OS sandbox "
        "on the first search_code call and stopped with the kernel; false: tree-sitter results only",
    )
    server_timeout_secs: float = Field(
        20.0,
        gt=0,
        le=300,
        description="a language server request not answered by then ends the server and the call says so (the "
        "structural results still come back); the next call starts a new one",
    )
    max_files: int = Field(
        5000, ge=1, le=1_000_000, description="the most files one search_code call parses; the rest are not read, "
        "and the result says so"
    )  # fmt: skip
    max_file_bytes: int = Field(
        1_000_000, ge=1024, le=100_000_000, description="a source file larger than this is skipped (generated code, "
        "bundles), and the result says how many were"
    )  # fmt: skip
    time_budget_secs: float = Field(
        10.0, gt=0, le=600, description="how long one search_code call parses files; past it, the files not yet "
        "parsed are left out and the result says so"
    )  # fmt: skip

    @model_validator(mode="after")
    def _semantic_needs(self) -> IndexSettings:
        # Refused rather than ignored: a person who turns the index on expects semantic answers.
        # A Qdrant key beside another backend would do nothing: said, not ignored.
        for key in ("qdrant_url", "qdrant_api_key_env"):
            if getattr(self, key) is not None and self.vector_backend != "qdrant":
                raise ValueError(
                    f'{key} is read only with vector_backend = "qdrant" (here "{self.vector_backend}"): set '
                    f'vector_backend = "qdrant" to keep the vectors in Qdrant, or remove {key}'
                )
        if self.enabled and not self.embedding_provider:
            raise ValueError(
                "enabled = true needs embedding_provider: the [[llm.providers]] name (kind openai, with "
                "embedding_model) whose /embeddings endpoint embeds the code, e.g. a local Ollama or vLLM"
            )
        return self
