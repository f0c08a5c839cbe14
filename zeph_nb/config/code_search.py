"""``[index]``: how ``search_code`` searches the project the notebook sits in (the seed's code index section)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from zeph_nb.config.common import _Section

__all__ = ["IndexSettings"]


class IndexSettings(_Section):
    """``[index]``: search_code's layers and bounds. Structural search (tree-sitter) and symbols through a language
    server always work; the semantic layer (a vector index) is what ``enabled`` turns on."""

    enabled: bool = Field(
        False,
        description="build a vector index of the project for semantic search_code queries. Not available yet: true "
        "is refused with a message saying so; structural search (tree-sitter) and symbols and references (a "
        "language server) work without it",
    )
    vector_backend: Literal["embedded", "qdrant"] = Field(
        "embedded",
        description="where the semantic index would be kept: embedded (in the zeph home, no server) or qdrant "
        "(a Qdrant server). Read only when enabled = true",
    )
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
    def _semantic_not_built(self) -> IndexSettings:
        # Refused rather than ignored: a person who turns the index on expects semantic answers, and silently
        # getting structural ones would look like a poor index.
        if self.enabled:
            raise ValueError(
                "semantic code search (a vector index) is not available yet in zeph-nb; remove enabled = true. "
                "search_code works without it: definitions, calls and imports through tree-sitter, symbols and "
                "references through a language server"
            )
        return self
