"""Ranking memory entries for a query: BM25 over their words, blended with vector similarity when there are vectors.

Why a small scorer here and not DuckDB's ``fts`` extension: extensions are fetched from DuckDB's own site at run
time, which this product cannot count on reaching (offline kernels, locked-down hubs), and the one build on PyPI
(``duckdb-ext-fts``) is for DuckDB 1.4.4 and refuses to load in 2.x. Nor a library (``bm25s``, ``rank-bm25``): one
person's notes are hundreds of short texts, scored in well under a millisecond each by the thirty lines below,
which a dependency with its own index format would not make better. Pure functions: values in, values out.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Ranked", "bm25", "cosine", "rank", "words"]

# Okapi BM25's usual constants: k1 how fast repeats of a word stop counting, b how much a long text is discounted.
K1 = 1.2
B = 0.75

_WORD = re.compile(r"\w+")
# Words nearly every English note and question has: counted, every note would match every query a little.
# fmt: off
STOPWORDS = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "by", "did", "do", "does", "for", "from", "has", "have", "how",
    "in", "is", "it", "its", "of", "on", "or", "that", "the", "this", "to", "was", "what", "when", "where",
    "which", "who", "why", "will", "with"
})
# fmt: on


def words(text: str) -> list[str]:
    """The text's words, case-folded and without accents (``Café`` finds ``cafe``), plurals folded, stop words left
    out; a tag is words like the text."""
    plain = unicodedata.normalize("NFKD", text.casefold())
    found = _WORD.findall("".join(c for c in plain if not unicodedata.combining(c)))
    return [_singular(word) for word in found if word not in STOPWORDS]


def _singular(word: str) -> str:
    """Harman's S-stemmer: plural English nouns fold to one word ("reports" finds "report"), nothing else changes."""
    if len(word) <= 3 or not word.endswith("s"):
        return word
    if word.endswith("ies") and not word.endswith(("eies", "aies")):
        return word[:-3] + "y"
    if word.endswith("es") and not word.endswith(("aes", "ees", "oes")):
        return word[:-1]
    if not word.endswith(("us", "ss")):
        return word[:-1]
    return word


def bm25(query: str, documents: Sequence[str]) -> list[float]:
    """Okapi BM25 of ``query`` against each document (IDF with the +1 that keeps it positive for common words)."""
    docs = [Counter(words(doc)) for doc in documents]
    if not docs:
        return []
    lengths = [sum(doc.values()) for doc in docs]
    average = sum(lengths) / len(docs) or 1.0
    terms = set(words(query))
    having = {term: sum(1 for doc in docs if term in doc) for term in terms}
    idf = {term: math.log(1 + (len(docs) - n + 0.5) / (n + 0.5)) for term, n in having.items()}
    scores = []
    for doc, length in zip(docs, lengths, strict=True):
        score = 0.0
        for term in terms:
            f = doc.get(term, 0)
            if f:
                score += idf[term] * f * (K1 + 1) / (f + K1 * (1 - B + B * length / average))
        scores.append(score)
    return scores


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity; 0 for vectors of different lengths (another model's) or a zero vector."""
    if len(a) != len(b):
        return 0.0
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


@dataclass(frozen=True)
class Ranked:
    """One entry's place: its index in the input, the blended score and the two parts it is made of."""

    index: int
    score: float
    text: float  # BM25, scaled so the best entry for this query is 1
    vector: float | None  # cosine similarity, None when the entry or the query has no vector


def rank(
    query: str,
    documents: Sequence[str],
    vectors: Sequence[Sequence[float] | None] = (),
    query_vector: Sequence[float] | None = None,
    *,
    vector_weight: float = 0.5,
    limit: int = 5,
) -> list[Ranked]:
    """The best ``limit`` entries for ``query``, best first; an entry that matches neither by words nor (with
    vectors) by similarity above zero is left out. BM25 is scaled by the best score of this query so that the two
    parts are on one scale ([0, 1]) before they are blended."""
    text_scores = bm25(query, documents)
    top = max(text_scores, default=0.0) or 1.0
    found = []
    for i, raw in enumerate(text_scores):
        text = raw / top
        vector = None
        if query_vector is not None and i < len(vectors) and vectors[i] is not None:
            vector = max(0.0, cosine(query_vector, vectors[i] or ()))
        score = text if vector is None else (1 - vector_weight) * text + vector_weight * vector
        if score > 0:
            found.append(Ranked(i, score, text, vector))
    found.sort(key=lambda r: (-r.score, r.index))
    return found[:limit]
