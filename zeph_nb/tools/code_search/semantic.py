"""search_code's semantic layer: the project's definitions ranked by meaning against a question in words.

Each definition (its signature, docstring and the start of its body, from tree-sitter) is embedded through
``[index] embedding_provider``'s ``/embeddings`` endpoint and kept in the kernel's memory (the ``embedded``
backend), keyed by its text's hash: a definition is embedded once until its text changes, so a second question
costs one request (the question's). Ranking is cosine similarity; a definition that shares nothing with the
question (similarity 0 or less) is not shown.
"""

from __future__ import annotations

import hashlib
import math
import operator
import threading
from collections.abc import Sequence
from typing import Protocol

from zeph_nb.tools.code_search.structural import Hit, definition_chunks

__all__ = [
    "MAX_CHUNK_CHARS",
    "MAX_VECTORS",
    "EmbeddedIndex",
    "Embedder",
    "VectorIndex",
    "cosine",
    "file_chunks",
    "index_for",
]

MAX_CHUNK_CHARS = 1500  # enough for a signature, a docstring and the start of a body; embedding models cap input
MAX_VECTORS = 100_000  # a kernel's index stays bounded however many projects it searches
MAX_FILES_KEPT = 20_000  # files whose definitions are kept parsed


class Embedder(Protocol):
    """An ``/embeddings`` client: one vector per text, in order."""

    async def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


class VectorIndex(Protocol):
    """A vector backend: ``embedded`` (``EmbeddedIndex``) or ``qdrant`` (``qdrant_index.QdrantIndex``)."""

    embedded: int  # definitions sent to the endpoint so far

    async def scored(
        self, question: str, taken: Sequence[tuple[Hit, str]], read: set[str], threshold: float
    ) -> list[tuple[Hit, float]]:
        """Each definition of ``taken`` (from the files ``read``) whose cosine similarity to ``question`` is at
        least ``threshold``, with it."""
        ...


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    # map(operator.mul) runs the products in C: half the time of a generator over zip, for 2,500 vectors a question.
    dot = sum(map(operator.mul, a, b))
    norm = math.sqrt(sum(map(operator.mul, a, a))) * math.sqrt(sum(map(operator.mul, b, b)))
    return dot / norm if norm else 0.0


_CHUNKS: dict[str, list[tuple[Hit, str]]] = {}
_CHUNKS_LOCK = threading.Lock()


def file_chunks(source: bytes, language: str, path: str) -> list[tuple[Hit, str]]:
    """``definition_chunks`` of one file, kept by its path and content hash: a later question does not parse the
    project again (measured: most of a second question's time), and an edited file is parsed anew."""
    key = f"{language}:{path}:{hashlib.sha256(source).hexdigest()}"
    with _CHUNKS_LOCK:
        kept = _CHUNKS.get(key)
    if kept is not None:
        return kept
    made = list(definition_chunks(source, language, path, MAX_CHUNK_CHARS))
    with _CHUNKS_LOCK:
        if len(_CHUNKS) > MAX_FILES_KEPT:
            _CHUNKS.clear()
        _CHUNKS[key] = made
    return made


class EmbeddedIndex:
    """Vectors of texts, by their hash, in this process's memory: the ``embedded`` vector backend."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self._vectors: dict[str, list[float]] = {}
        self._lock = threading.Lock()
        self.embedded = 0  # texts sent to the endpoint so far (tests and the bench read it)

    async def vectors(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text; only texts not seen before are sent to the endpoint."""
        keys = [hashlib.sha256(text.encode("utf-8")).hexdigest() for text in texts]
        with self._lock:
            known = {key: self._vectors[key] for key in keys if key in self._vectors}
        missing = {key: text for key, text in zip(keys, texts, strict=True) if key not in known}
        if missing:
            fresh = dict(zip(missing, await self.embedder.embed(list(missing.values())), strict=True))
            known.update(fresh)
            with self._lock:
                if len(self._vectors) + len(fresh) > MAX_VECTORS:
                    self._vectors.clear()  # a rare, whole refill beats tracking which project each vector is for
                self._vectors.update(fresh)
                self.embedded += len(fresh)
        return [known[key] for key in keys]

    async def scored(
        self, question: str, taken: Sequence[tuple[Hit, str]], read: set[str], threshold: float
    ) -> list[tuple[Hit, float]]:
        vectors = await self.vectors([question, *(text for _, text in taken)])
        asked, rest = vectors[0], vectors[1:]
        scores = ((hit, cosine(asked, vector)) for (hit, _), vector in zip(taken, rest, strict=True))
        return [(hit, score) for hit, score in scores if score >= threshold]


_INDEXES: dict[str, EmbeddedIndex] = {}
_INDEXES_LOCK = threading.Lock()


def index_for(embedder: Embedder) -> EmbeddedIndex:
    """The kernel's index for one endpoint and model (its ``repr``): shared by every agent, so a new cell's agent
    does not embed the project again."""
    key = repr(embedder)
    with _INDEXES_LOCK:
        index = _INDEXES.get(key)
        if index is None:
            index = _INDEXES[key] = EmbeddedIndex(embedder)
        index.embedder = embedder  # the latest agent's client (same endpoint and model: the same vectors)
        return index
