"""search_code against grep on the same tree, in the same process: zeph_nb's own source (a real project of ~250
Python files; never tests/, whose data folder holds held-apart corpora).

Rows: the structural layer (every file listed with ``rg --files``, read through the sandbox and parsed by
tree-sitter) for definitions, calls and imports, against the grep tool's regex search for the same names (the
baseline: it reads every file too, without parsing); then the language server: the first ``references`` call
(the process started in the OS sandbox, jedi's first look at the project) and the same call again; then the semantic
layer against a loopback /embeddings server (bench/embedding_server.py): the first question (every definition
embedded) and a second one (only the question embedded); then the two vector backends side by side (``backends``).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path

from bench.embedding_server import provider_toml, serve_embeddings
from zeph_nb.agent.providers.embeddings import index_embedder
from zeph_nb.config import Settings
from zeph_nb.tools.code_search import CodeSearchExecutor
from zeph_nb.tools.code_search.lsp import stop_all
from zeph_nb.tools.files.executor import FileExecutor

ROOT = Path(__file__).resolve().parent.parent / "zeph_nb"


def _median_ms(run: Callable[[], object], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    structural = CodeSearchExecutor(Settings.from_toml("[index]\nlanguage_server = false\n"), workdir=ROOT)
    grep = FileExecutor(Settings(), workdir=ROOT)
    rows = [
        ("definitions of `*` (every one)", {"query": "*", "max_results": 500}, r"^\s*(async )?(def|class) \w+"),
        ("definitions of `run*`", {"query": "run*"}, r"^\s*(async )?def run\w*"),
        ("calls of `resolve`", {"query": "resolve", "kind": "calls"}, r"resolve\("),
        ("imports of `asyncio`", {"query": "asyncio", "kind": "imports"}, r"^\s*(import|from) asyncio"),
    ]
    files = structural.run(query="*").raw["files"]
    print(f"search_code over zeph_nb/ ({files} Python files), median of 5, against grep in the same process\n")
    print("| query | search_code ms | grep ms (baseline) | ratio | hits |")
    print("|---|---:|---:|---:|---:|")
    for label, params, pattern in rows:
        ours = _median_ms(lambda params=params: structural.run(**params))
        theirs = _median_ms(lambda pattern=pattern: grep.run("grep", pattern=pattern))
        hits = structural.run(**params).raw["total"]
        print(f"| {label} | {ours:.0f} | {theirs:.0f} | {ours / theirs:.1f}x | {hits} |")

    served = CodeSearchExecutor(Settings(), workdir=ROOT)
    started = time.perf_counter()
    first = served.run(query="canonicalize", kind="references")
    cold = (time.perf_counter() - started) * 1000
    warm = _median_ms(lambda: served.run(query="canonicalize", kind="references"))
    stop_all()
    print(f"\nlanguage server (jedi-language-server in the OS sandbox), references of `canonicalize` "
          f"({first.raw['total']} hits):\n")  # fmt: skip
    print("| call | ms |")
    print("|---|---:|")
    print(f"| first (server started) | {cold:.0f} |")
    print(f"| again (median of 5) | {warm:.0f} |")
    print(f"| ratio first / again | {cold / warm:.1f}x |")

    with serve_embeddings() as server:
        settings = Settings.from_toml(provider_toml(server.url) + SEMANTIC)
        semantic = CodeSearchExecutor(settings, workdir=ROOT, embedder=index_embedder(settings))
        started = time.perf_counter()
        semantic.run(query="where are tool results cached", kind="semantic")
        first_ms = (time.perf_counter() - started) * 1000
        again_ms = _median_ms(lambda: semantic.run(query="how is a shell command sandboxed", kind="semantic"))
        embedded = semantic.index.embedded if semantic.index is not None else 0
    print(f"\nsemantic layer (loopback hashing embedder), {embedded - 6} definitions embedded once:\n")
    print("| call | ms |")
    print("|---|---:|")
    print(f"| first question (every definition embedded) | {first_ms:.0f} |")
    print(f"| another question (median of 5; only it embedded) | {again_ms:.0f} |")
    print(f"| ratio first / another | {first_ms / again_ms:.1f}x |")
    backends()


def backends() -> None:
    """The two vector backends on the same tree and endpoint: ``embedded`` (the baseline) and ``qdrant`` in the
    client's local mode (on disk in a temporary zeph home). A new kernel is this process with the kernel's caches
    emptied (the parsed files and, for embedded, the vectors); it costs embedded every definition again, qdrant
    only the question."""
    import tempfile

    from zeph_nb.tools.code_search import qdrant_index, semantic

    def fresh_kernel() -> None:
        semantic._INDEXES.clear()
        semantic._CHUNKS.clear()
        qdrant_index.close_local()  # a new kernel opens the local folder again (it reads every vector)

    rows: dict[str, list[str]] = {}
    with serve_embeddings() as server, tempfile.TemporaryDirectory() as home:
        for backend in ("embedded", "qdrant"):
            toml = provider_toml(server.url) + SEMANTIC + f'vector_backend = "{backend}"\n'
            settings = Settings.from_toml(toml).model_copy(update={"home": Path(home)})

            def search(question: str, settings: Settings = settings) -> tuple[float, int]:
                searcher = CodeSearchExecutor(settings, workdir=ROOT, embedder=index_embedder(settings))
                sent = sum(len(request["input"]) for request in server.requests)
                started = time.perf_counter()
                searcher.run(query=question, kind="semantic")
                took = (time.perf_counter() - started) * 1000
                return took, sum(len(request["input"]) for request in server.requests) - sent

            fresh_kernel()
            first, first_texts = search("where are tool results cached")
            again = _median_ms(lambda search=search: search("how is a shell command sandboxed"))
            fresh_kernel()
            new_kernel, new_texts = search("what does the audit log record")
            rows[backend] = [f"{first:.0f} ({first_texts})", f"{again:.0f} (1)", f"{new_kernel:.0f} ({new_texts})"]
    fresh_kernel()
    print("\nvector backends on the same tree and endpoint: ms (texts sent to /embeddings)\n")
    print("| call | embedded (baseline) | qdrant, local mode | ratio qdrant / embedded |")
    print("|---|---:|---:|---:|")
    labels = ("first question (every definition embedded)", "another question, same kernel (median of 5)",
              "first question of a new kernel")  # fmt: skip
    for at, label in enumerate(labels):
        ours, base = (float(rows[b][at].split()[0]) for b in ("qdrant", "embedded"))
        print(f"| {label} | {rows['embedded'][at]} | {rows['qdrant'][at]} | {ours / base:.2f}x |")


SEMANTIC = """
[index]
enabled = true
embedding_provider = "embed"
"""

if __name__ == "__main__":
    main()
