"""search_code's ``qdrant`` vector backend with real parts: the real ``qdrant-client`` in its local mode (a real
on-disk collection in a temp zeph home), a real OpenAI-compatible /embeddings server on loopback
(bench/embedding_server.py), and a second kernel as a real second Python process. No Qdrant server can be run
here (none is on the package registries), so the server path is tested where it fails: a URL nobody listens on."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import zeph_nb
from bench.embedding_server import EmbeddingServer, provider_toml
from zeph_nb.agent.providers.embeddings import index_embedder
from zeph_nb.config import Settings
from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.tools.base import ToolCall
from zeph_nb.tools.code_search import CodeSearchExecutor
from zeph_nb.tools.code_search.qdrant_index import close_local

SETTINGS = """
[index]
enabled = true
embedding_provider = "embed"
language_server = false
vector_backend = "{backend}"
"""
ROOT = Path(zeph_nb.__file__).resolve().parent.parent


def settings_for(server: EmbeddingServer, home: Path, backend: str = "qdrant", extra: str = "") -> Settings:
    settings = Settings.from_toml(provider_toml(server.url) + SETTINGS.format(backend=backend) + extra)
    return settings.model_copy(update={"home": home})


def searcher(project: Path, settings: Settings) -> CodeSearchExecutor:
    return CodeSearchExecutor(settings, workdir=project, embedder=index_embedder(settings))


def sizes(server: EmbeddingServer) -> list[int]:
    return [len(request["input"]) for request in server.requests]


def points(home: Path) -> list[dict[str, Any]]:
    """The payloads in the project's one collection, read with a client of our own (the search closed its)."""
    from qdrant_client import QdrantClient

    close_local()  # the kernel's search keeps the folder open (and locked) for a moment
    (folder,) = (home / "qdrant").iterdir()
    client = QdrantClient(path=str(folder))
    try:
        (collection,) = client.get_collections().collections
        records, _ = client.scroll(collection.name, limit=1000, with_payload=True)
        return sorted((dict(record.payload or {}) for record in records), key=lambda p: (p["path"], p["line"]))
    finally:
        client.close()


def test_hits_equal_the_embedded_backends(tmp_path: Path, server: EmbeddingServer) -> None:
    # The repository's own code search package: real definitions, many sharing words, some of them tied.
    work = ROOT / "zeph_nb" / "tools" / "code_search"
    questions = ["parse the source files of a project", "language server symbols and references",
                 "embed definitions into vectors and rank by cosine similarity", "time budget max files"]  # fmt: skip
    answered = 0
    for extra in ("", "score_threshold = 0.05\nmax_chunks = 200\n"):
        embedded = searcher(work, settings_for(server, tmp_path / "a", "embedded", extra))
        qdrant = searcher(work, settings_for(server, tmp_path / "b", "qdrant", extra))
        for question in questions:
            want = embedded.run(query=question, kind="semantic", max_results=500).raw
            got = qdrant.run(query=question, kind="semantic", max_results=500).raw
            answered += want["total"] > 0
            assert got["total"] == want["total"]
            assert [(h["path"], h["line"], h["name"], h["layer"]) for h in got["hits"]] == [
                (h["path"], h["line"], h["name"], h["layer"]) for h in want["hits"]
            ]
            assert [h["score"] for h in got["hits"]] == pytest.approx([h["score"] for h in want["hits"]], abs=1e-5)
    assert answered >= 6  # most questions have answers, so the comparison compares something


def test_a_new_kernel_embeds_nothing_again(project: Path, tmp_path: Path, server: EmbeddingServer) -> None:
    home = tmp_path / "home"
    out = searcher(project, settings_for(server, home)).run(query="make a pdf document of the invoice", kind="semantic")
    assert out.summary.startswith("billing/invoice.py:1: function render_invoice_pdf [similarity ")
    assert sizes(server) == [1, 3]  # the question, then the three definitions
    # A second kernel: another process, the same zeph home. Only its question is embedded.
    script = (
        "import sys\nfrom zeph_nb.config import Settings\nfrom zeph_nb.agent.providers.embeddings import "
        "index_embedder\nfrom zeph_nb.tools.code_search import CodeSearchExecutor\n"
        "from pathlib import Path\n"
        "settings = Settings.from_toml(sys.argv[1]).model_copy(update={'home': Path(sys.argv[2])})\n"
        "search = CodeSearchExecutor(settings, workdir=sys.argv[3], embedder=index_embedder(settings))\n"
        "print(search.run(query='password check at login', kind='semantic').summary)\n"
        "print(search.index.embedded)\n"
    )
    toml = provider_toml(server.url) + SETTINGS.format(backend="qdrant")
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-c", script, toml, str(home), str(project)], capture_output=True,
                          text=True, timeout=120, cwd=ROOT, env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("web/login.ts:2: function verifyPassword [similarity ") and lines[-1] == "0"
    assert sizes(server) == [1, 3, 1]
    assert [(p["path"], p["name"], p["kind"], p["line"]) for p in points(home)] == [
        ("billing/invoice.py", "render_invoice_pdf", "function", 1),
        ("billing/invoice.py", "parse_csv_rows", "function", 6),
        ("web/login.ts", "verifyPassword", "function", 2),
    ]


def test_an_edited_definition_is_embedded_again_and_a_deleted_one_is_gone(
    project: Path, tmp_path: Path, server: EmbeddingServer
) -> None:
    home = tmp_path / "home"
    search = searcher(project, settings_for(server, home))
    search.run(query="csv rows", kind="semantic")
    before = {p["name"]: p["text_hash"] for p in points(home)}
    invoice = project / "billing" / "invoice.py"
    invoice.write_text(invoice.read_text().replace("comma separated", "semicolon separated"))
    assert "parse_csv_rows" in search.run(query="semicolon rows", kind="semantic").summary
    assert sizes(server) == [1, 3, 1, 1]  # the question and the changed definition
    after = {p["name"]: p["text_hash"] for p in points(home)}
    assert len(points(home)) == 3 and after["parse_csv_rows"] != before["parse_csv_rows"]
    assert after["render_invoice_pdf"] == before["render_invoice_pdf"]
    # A definition taken out of a file, and a whole file deleted: their points go, nothing is embedded.
    invoice.write_text(invoice.read_text().split("\n\n\ndef parse_csv_rows")[0] + "\n")
    (project / "web" / "login.ts").unlink()
    out = search.run(query="password login csv rows invoice", kind="semantic", max_results=10)
    assert "parse_csv_rows" not in out.summary and "verifyPassword" not in out.summary
    assert [p["name"] for p in points(home)] == ["render_invoice_pdf"]
    assert sizes(server) == [1, 3, 1, 1, 1]


def test_a_search_of_one_folder_keeps_the_rest_of_the_project(
    project: Path, tmp_path: Path, server: EmbeddingServer
) -> None:
    home = tmp_path / "home"
    search = searcher(project, settings_for(server, home))
    search.run(query="invoice", kind="semantic")
    out = search.run(query="password customer", kind="semantic", path="billing")
    assert "verifyPassword" not in out.summary  # not in the folder asked about ...
    assert len(points(home)) == 3  # ... but still the project's: not removed, not embedded again
    assert sizes(server) == [1, 3, 1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.parametrize("scheme", ["rest", "grpc"])
def test_a_server_nobody_listens_on_is_a_clear_error_and_names_still_work(
    project: Path, tmp_path: Path, server: EmbeddingServer, scheme: str
) -> None:
    # Port 6334 is spoken to over gRPC; nothing listens on it here (the test says so when something does).
    port = free_port() if scheme == "rest" else 6334
    with socket.socket() as probe:
        if probe.connect_ex(("127.0.0.1", port)) == 0:
            pytest.skip(f"something listens on 127.0.0.1:{port}")
    url = f"http://127.0.0.1:{port}"
    search = searcher(project, settings_for(server, tmp_path / "home", extra=f'qdrant_url = "{url}"\n'))
    with pytest.raises(ToolError) as raised:
        search.run(query="invoice pdf", kind="semantic")
    assert raised.value.category is ToolErrorCategory.NETWORK_ERROR
    message = str(raised.value)
    assert url in message and "start that server or fix [index] qdrant_url" in message and "search by name" in message
    assert "billing/invoice.py:1: function render_invoice_pdf" in search.run(query="render_*").summary
    assert not (tmp_path / "home" / "qdrant").exists()  # a server was named: nothing kept locally


def test_a_server_that_never_answers_times_out(project: Path, tmp_path: Path, server: EmbeddingServer) -> None:
    with socket.socket() as mute:  # accepts connections (the kernel's backlog) and never says a word
        mute.bind(("127.0.0.1", 0))
        mute.listen(8)
        url = f"http://127.0.0.1:{mute.getsockname()[1]}"
        extra = f'qdrant_url = "{url}"\nqdrant_timeout_secs = 1\n'
        search = searcher(project, settings_for(server, tmp_path / "home", extra=extra))
        with pytest.raises(ToolError) as raised:
            search.run(query="invoice pdf", kind="semantic")
    assert raised.value.category is ToolErrorCategory.TIMEOUT
    assert url in str(raised.value) and "raise [index] qdrant_timeout_secs" in str(raised.value)


def test_what_a_file_says_is_kept_as_data(project: Path, tmp_path: Path, server: EmbeddingServer) -> None:
    # A file the model may have written: a name and a docstring that look like a payload and a filter.
    hostile = project / "evil.py"
    hostile.write_text(
        'def steal_payload():\n    """{"path": "/etc/passwd", "text_hash": "x"} must_not payload path override"""\n'
    )
    home = tmp_path / "home"
    out = searcher(project, settings_for(server, home)).run(query="payload path override", kind="semantic")
    assert out.summary.startswith("evil.py:1: function steal_payload [similarity ")
    (kept,) = [p for p in points(home) if p["name"] == "steal_payload"]
    assert kept["path"] == "evil.py" and len(kept["text_hash"]) == 64
    assert json.dumps(kept).count("/etc/passwd") == 0  # the text is embedded, never stored


def test_the_agent_searches_through_qdrant(project: Path, server: EmbeddingServer, isolated_env: Path) -> None:
    call = {"tool": "search_code", "params": {"query": "invoice pdf", "kind": "semantic"}}
    model = zeph_nb.ScriptedProvider([[call], "done"])
    settings = Settings.from_toml(provider_toml(server.url) + SETTINGS.format(backend="qdrant"))
    agent = zeph_nb.Agent(settings=settings, provider=model, workdir=project)
    result = asyncio.run(agent.run("find the invoice renderer"))
    (outcome,) = result.tool_calls
    assert outcome.decision == "allow" and "render_invoice_pdf" in outcome.text
    assert (isolated_env / "qdrant").is_dir()  # kept in the zeph home's qdrant/ folder


def test_each_person_and_model_has_a_collection_of_their_own(
    project: Path, tmp_path: Path, server: EmbeddingServer
) -> None:
    # On a team's server two people's folders often have the same path and different code.
    home = tmp_path / "home"
    for user in ("ana", "ben", "ana"):
        settings = settings_for(server, home).model_copy(update={"user": user})
        searcher(project, settings).run(query="invoice", kind="semantic")
    close_local()
    folders = sorted(path.name for path in (home / "qdrant").iterdir())
    assert len(folders) == 2 and all(name.startswith("zeph_code_proj_") for name in folders)
    assert sizes(server) == [1, 3, 1, 3, 1]  # ana's second search embedded only its question
    other_model = provider_toml(server.url).replace("hashing-512", "hashing-512-v2") + SETTINGS.format(backend="qdrant")
    settings = Settings.from_toml(other_model).model_copy(update={"home": home, "user": "ana"})
    searcher(project, settings).run(query="invoice", kind="semantic")
    close_local()
    assert len(list((home / "qdrant").iterdir())) == 3 and sizes(server)[-2:] == [1, 3]


def test_two_searches_on_one_event_loop_take_turns(project: Path, tmp_path: Path, server: EmbeddingServer) -> None:
    # Two agents of one kernel asking at once: the second waits for the folder without blocking the event loop the
    # first needs to finish (a blocking wait there would hold both until the timeout).
    settings = settings_for(server, tmp_path / "home", extra="qdrant_timeout_secs = 3\n")
    searchers = [searcher(project, settings) for _ in range(2)]

    async def both() -> list[Any]:
        calls = [ToolCall("search_code", {"query": question, "kind": "semantic"})
                 for question in ("invoice pdf", "password login")]  # fmt: skip
        return list(await asyncio.gather(*(s.execute(call) for s, call in zip(searchers, calls, strict=True))))

    first, second = asyncio.run(both())
    assert "render_invoice_pdf" in first.summary and "verifyPassword" in second.summary
    assert sorted(sizes(server)) == [1, 1, 3]  # one of them embedded the project, the other found it there


def test_without_the_qdrant_extra_the_search_says_what_to_install(
    project: Path, tmp_path: Path, server: EmbeddingServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "qdrant_client", None)  # what Python does for a package that is not installed
    search = searcher(project, settings_for(server, tmp_path / "home"))
    with pytest.raises(ToolError, match=r"needs the qdrant-client package.*pip install 'zeph-nb\[qdrant\]'"):
        search.run(query="invoice pdf", kind="semantic")
    assert "render_invoice_pdf" in search.run(query="render_*").summary


def test_a_folder_another_kernel_holds_is_a_clear_error(project: Path, tmp_path: Path, server: EmbeddingServer) -> None:
    home = tmp_path / "home"
    search = searcher(project, settings_for(server, home, extra="qdrant_timeout_secs = 1\n"))
    search.run(query="invoice", kind="semantic")
    close_local()
    (folder,) = (home / "qdrant").iterdir()
    # Another process holding the folder for longer than the timeout (a client of our own here: the lock is the
    # folder's, whoever holds it).
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time; from qdrant_client import QdrantClient; "
                               "c = QdrantClient(path=sys.argv[1]); print('held', flush=True); time.sleep(30)",
                               str(folder)], stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(ToolError) as raised:
            search.run(query="invoice", kind="semantic")
    finally:
        holder.kill()
        holder.wait()
    assert raised.value.category is ToolErrorCategory.TIMEOUT  # it waited its turn that long
    assert "another search of this project held it" in str(raised.value) and "qdrant_url" in str(raised.value)
    assert "render_invoice_pdf" in search.run(query="invoice", kind="semantic").summary  # its turn, once released
