"""search_code's semantic layer against a real OpenAI-compatible /embeddings server on loopback
(bench/embedding_server.py: a lexical embedding by feature hashing, so texts that share words are near)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import zeph_nb
from bench.embedding_server import EmbeddingServer, provider_toml
from zeph_nb.agent.providers.embeddings import index_embedder
from zeph_nb.config import Settings
from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.tools.code_search import CodeSearchExecutor

SETTINGS = """
[index]
enabled = true
embedding_provider = "embed"
language_server = false
"""


def searcher(project: Path, server: EmbeddingServer) -> CodeSearchExecutor:
    settings = Settings.from_toml(provider_toml(server.url) + SETTINGS)
    return CodeSearchExecutor(settings, workdir=project, embedder=index_embedder(settings))


def test_definitions_ranked_by_meaning_each_embedded_once(project: Path, server: EmbeddingServer) -> None:
    search = searcher(project, server)
    out = search.run(query="make a pdf document of the invoice", kind="semantic").summary.splitlines()
    assert out[0].startswith("billing/invoice.py:1: function render_invoice_pdf [similarity ")
    assert not any("verifyPassword" in line for line in out)  # shares no word with the question: no answer
    out = search.run(query="password check at login", kind="semantic").summary.splitlines()
    assert out[0].startswith("web/login.ts:2: function verifyPassword [similarity ")
    # Three definitions and two questions embedded; the second question cost one text, not the project again.
    assert search.index is not None and search.index.embedded == 5
    assert [len(r["input"]) for r in server.requests] == [4, 1]


def test_an_edited_definition_is_embedded_again(project: Path, server: EmbeddingServer) -> None:
    search = searcher(project, server)
    search.run(query="csv rows", kind="semantic")
    (project / "billing" / "invoice.py").write_text(
        (project / "billing" / "invoice.py").read_text().replace("comma separated", "semicolon separated")
    )
    assert "parse_csv_rows" in search.run(query="semicolon rows", kind="semantic").summary
    assert [len(r["input"]) for r in server.requests] == [4, 2]  # the question and the changed definition


def test_an_endpoint_that_fails_is_a_clear_error(project: Path, server: EmbeddingServer) -> None:
    server.status = 503
    with pytest.raises(ToolError) as raised:
        searcher(project, server).run(query="invoice", kind="semantic")
    assert raised.value.category is ToolErrorCategory.SERVER_ERROR
    assert "[index] embedding_provider" in str(raised.value) and "search by name instead" in str(raised.value)


def test_semantic_is_refused_while_the_index_is_off(project: Path) -> None:
    with pytest.raises(ToolError, match=r"semantic search is off here \(\[index\] enabled = false"):
        CodeSearchExecutor(Settings(), workdir=project).run(query="invoice", kind="semantic")


def test_the_agent_gets_the_index_from_the_settings(project: Path, server: EmbeddingServer, isolated_env: Path) -> None:
    call = {"tool": "search_code", "params": {"query": "invoice pdf", "kind": "semantic"}}
    model = zeph_nb.ScriptedProvider([[call], "done"])
    settings = Settings.from_toml(provider_toml(server.url) + SETTINGS)
    agent = zeph_nb.Agent(settings=settings, provider=model, workdir=project)
    result = asyncio.run(agent.run("find the invoice renderer"))
    (outcome,) = result.tool_calls
    assert outcome.decision == "allow" and "render_invoice_pdf" in outcome.text


def test_the_references_max_chunks_and_score_threshold(project: Path, server: EmbeddingServer) -> None:
    def run(extra: str) -> str:
        settings = Settings.from_toml(provider_toml(server.url) + SETTINGS + extra)
        search = CodeSearchExecutor(settings, workdir=project, embedder=index_embedder(settings))
        return search.run(query="invoice pdf csv rows customer password", kind="semantic").summary

    assert len([line for line in run("score_threshold = 0.0\n").splitlines() if "similarity" in line]) == 3
    out = run("score_threshold = 0.0\nmax_chunks = 1\n").splitlines()
    assert len(out) == 2 and out[1] == "[first 1 of 3 hits shown; narrow the query or the path ([index] max_chunks)]"
    assert run("score_threshold = 0.99\n").startswith("No semantic of")


@pytest.mark.parametrize("key", ["watch = true", "budget_ratio = 0.4", "repo_map_tokens = 500", 'embed_provider = "e"'])
def test_the_references_other_index_keys_are_refused_saying_why(key: str) -> None:
    with pytest.raises(zeph_nb.ConfigError, match=r"does not apply to zeph-nb: .*; remove it"):
        Settings.from_toml(f"[index]\n{key}\n")
