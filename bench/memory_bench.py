"""Memory: how well memory_search ranks notes, and what it costs as the notes grow.

Quality: twelve notes of a data-science project and twelve questions a later session asks about them, each question
worded apart from its note (a few shared words, most not). Measured against a baseline in the same run: a substring
search (every word of the question in the note, SQL's ``ILIKE``, what a person would write over the table) — hit@1
and mean reciprocal rank of the right note. The vector part uses bench/embedding_server (word hashing, not a neural
model: nothing can be downloaded here), so it shows the blending's plumbing, not what a real embedding adds.

Cost: the store's read of N notes (DuckDB file plus spool, the floor every search pays) against the ranking of the
same N notes, for N = 100, 1,000 and 5,000. Run: ``python -m bench.memory_bench``.
"""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path

from bench.embedding_server import hashed_embedding
from zeph_nb.config import Settings
from zeph_nb.store.memories import MemoryRow, MemoryRows, new_memory_id
from zeph_nb.store.store import Store
from zeph_nb.tools.memory.ranking import rank, words

NOTES = [
    "The training data is data/train.parquet, one row per session; the label column is churned.",
    "Plots use seaborn with the colorblind palette; the person dislikes pie charts.",
    "The warehouse export runs nightly at 02:00 UTC and lands in s3://exports/daily/.",
    "Batch size 64 fits on one A100; 128 runs out of GPU memory.",
    "The baseline model is gradient boosting (LightGBM) with AUC 0.81 on the validation split.",
    "Use the holdout set only once, for the final report; tune on the validation split.",
    "Timestamps in the events table are local time (Europe/Berlin), not UTC.",
    "The customer id column is cust_id in orders and customer_id in sessions; join on both.",
    "Reports go to the #analytics channel as PDF, never as notebooks.",
    "Feature engineering lives in features.py; do not add features inside the notebook.",
    "Python 3.11 and pandas 2.2 are pinned in requirements.txt; do not upgrade pandas.",
    "Late-arriving events can be up to three days old; wait before closing a day's numbers.",
]
QUESTIONS = [
    ("where do the training rows come from and which column is the target label", 0),
    ("what chart style does the person want", 1),
    ("when does the nightly warehouse export run", 2),
    ("how large a batch fits in GPU memory", 3),
    ("what AUC does the current baseline reach", 4),
    ("may I tune the model on the holdout set", 5),
    ("which time zone are the event timestamps in", 6),
    ("how do I join orders with sessions by customer", 7),
    ("where should the finished report be posted", 8),
    ("where should new features be written", 9),
    ("can I upgrade pandas", 10),
    ("how long until a day's event numbers are complete", 11),
]


def substring_rank(question: str, notes: list[str]) -> list[int]:
    """The baseline: notes holding every word of the question (ILIKE '%w%' for each), in table order; if none, those
    holding the most words first."""
    terms = words(question)
    counts = [sum(term in note.casefold() for term in terms) for note in notes]
    every = [i for i, n in enumerate(counts) if n == len(terms)]
    return every or sorted((i for i, n in enumerate(counts) if n), key=lambda i: -counts[i])


def quality() -> list[tuple[str, float, float]]:
    vectors = [hashed_embedding(note) for note in NOTES]
    systems = {
        "substring (every word, ILIKE)": lambda q: substring_rank(q, NOTES),
        "BM25 (memory_search)": lambda q: [r.index for r in rank(q, NOTES, limit=len(NOTES))],
        "BM25 + hashed vectors, weight 0.5": lambda q: [
            r.index for r in rank(q, NOTES, vectors, hashed_embedding(q), limit=len(NOTES))
        ],
    }
    rows = []
    for name, ranked in systems.items():
        hits, reciprocal = 0, 0.0
        for question, right in QUESTIONS:
            order = ranked(question)
            hits += bool(order) and order[0] == right
            reciprocal += 1 / (order.index(right) + 1) if right in order else 0.0
        rows.append((name, hits / len(QUESTIONS), reciprocal / len(QUESTIONS)))
    return rows


def cost(sizes: tuple[int, ...] = (100, 1_000, 5_000)) -> list[tuple[int, float, float]]:
    rows = []
    generator = random.Random(7)
    vocabulary = sorted({w for note in NOTES for w in words(note)})
    for size in sizes:
        home = Path(tempfile.mkdtemp(prefix="zeph-memory-bench-"))
        store = Store(Settings().model_copy(update={"home": home}), flusher=False)
        notes = MemoryRows(store)
        for _ in range(size):
            text = " ".join(generator.choice(vocabulary) for _ in range(generator.randint(8, 30)))
            notes.save(MemoryRow(id=new_memory_id(), user_name="ada", project="/p", text=text))
        store.flush()
        read = ranking = float("inf")
        for _ in range(5):
            started = time.perf_counter()
            frame = notes.live("ada", "/p")
            read = min(read, time.perf_counter() - started)
            texts = list(frame["text"])
            started = time.perf_counter()
            rank("batch size GPU memory", texts)
            ranking = min(ranking, time.perf_counter() - started)
        store.close()
        rows.append((size, read * 1000, ranking * 1000))
    return rows


def main() -> None:
    print("| ranking | hit@1 | MRR |\n|---|---|---|")
    for name, hit, mrr in quality():
        print(f"| {name} | {hit:.2f} | {mrr:.2f} |")
    print()
    print("| notes | store read (ms) | ranking (ms) | ranking / read |\n|---|---|---|---|")
    for size, read_ms, rank_ms in cost():
        print(f"| {size:,} | {read_ms:.1f} | {rank_ms:.1f} | {rank_ms / read_ms:.2f} |")


if __name__ == "__main__":
    main()
