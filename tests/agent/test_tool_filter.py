"""[agent.tool_filter] with real parts: an OpenAI-compatible embeddings server on loopback (bench/embedding_server),
the agent loop with the scripted model recording each request, tools written with @zeph_nb.tool, the gate chain."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest

import zeph_nb
from bench.embedding_server import EmbeddingServer, provider_toml, serve_embeddings
from zeph_nb.agent.events import ToolsOffered
from zeph_nb.agent.providers.embeddings import OpenAIEmbeddings
from zeph_nb.config import Settings
from zeph_nb.errors import ConfigError, ModelError
from zeph_nb.store import Store

FILTERED = """
[agent.tool_filter]
enabled = true
provider = "embed"
top_k = {top_k}
{extra}
"""


@zeph_nb.tool(register=False)
def notes_search(query: str) -> str:
    """Search the team notes for a word and list the matching notes with their titles."""
    return f"2 notes match {query}"


@zeph_nb.tool(register=False)
def weather_forecast(city: str) -> str:
    """Tell tomorrow's weather forecast for a city: temperature, rain and wind."""
    return f"sunny in {city}"


@zeph_nb.tool(register=False)
def currency_convert(amount: float, currency: str) -> str:
    """Convert an amount of money from euros into another currency at today's exchange rate."""
    return f"{amount} {currency}"


@zeph_nb.tool(register=False)
def calendar_events(day: str) -> str:
    """List the calendar events and meetings planned for a given day."""
    return f"no meetings on {day}"


@zeph_nb.tool(register=False)
def ping(host: str) -> str:
    """Ping."""  # one word: too little to rank, always offered
    return f"{host} answers"


TOOLS = [notes_search, weather_forecast, currency_convert, calendar_events, ping]


@pytest.fixture
def server() -> Iterator[EmbeddingServer]:
    with serve_embeddings() as running:
        yield running


def make(server: EmbeddingServer, store: Store, workdir: Path, turns: list[Any], *, top_k: int = 1,
         extra: str = "", more: str = "") -> tuple[zeph_nb.Agent, zeph_nb.ScriptedProvider]:  # fmt: skip
    toml = provider_toml(server.url) + FILTERED.format(top_k=top_k, extra=extra) + more
    settings = Settings.from_toml(toml).model_copy(update={"home": store.home})
    model = zeph_nb.ScriptedProvider(turns)
    agent = zeph_nb.Agent(settings, model, zeph_nb.AutoApprove(), workdir, store=store, tools=TOOLS)
    return agent, model


def offered(request: Any) -> set[str]:
    return {tool.name for tool in request.tools}


def test_only_the_most_similar_tools_are_offered_with_the_ones_always_included(
    server: EmbeddingServer, store: Store, tmp_path: Path
) -> None:
    agent, model = make(server, store, tmp_path, ["Done."], top_k=1)
    events: list[Any] = []
    result = agent.run_sync("What will the weather forecast be in Paris tomorrow?", on_event=events.append)
    assert result.stop_reason == "completed"
    (request,) = model.requests
    # weather_forecast by similarity (top_k = 1), ping for its one-word description, read_overflow always on.
    assert offered(request) == {"weather_forecast", "ping", "read_overflow"}
    assert {schema["name"] for schema in request.tool_schemas} == offered(request)
    (event,) = [e for e in events if isinstance(e, ToolsOffered)]
    assert event.note is None and event.total == len(agent.chain.tool_definitions()) > 20
    assert server.requests[0]["model"] == "hashing-512"  # the entry's embedding_model, not its chat model


@pytest.mark.parametrize(
    ("words", "always", "ranked"),
    [
        (0, set(), {"ping", "calendar_events"}),  # every description is ranked: "Ping." falls out of the top 1
        (12, {"ping", "calendar_events"}, {"notes_search", "currency_convert"}),  # 1 and 11 words: under 12
    ],
)
def test_a_tool_described_in_fewer_than_min_description_words_is_always_offered(
    server: EmbeddingServer, store: Store, tmp_path: Path, words: int, always: set[str], ranked: set[str]
) -> None:
    agent, model = make(server, store, tmp_path, ["Done."], top_k=1, extra=f"min_description_words = {words}")
    agent.run_sync("What will the weather forecast be in Paris tomorrow?")
    (request,) = model.requests
    assert {"weather_forecast", "read_overflow"} | always <= offered(request)
    assert offered(request).isdisjoint(ranked)


def test_a_tool_named_in_the_prompt_and_a_tool_used_before_stay(
    server: EmbeddingServer, store: Store, tmp_path: Path
) -> None:
    turns: list[Any] = [[{"tool": "notes_search", "params": {"query": "budget"}}], "Found two.", "Sunny."]
    agent, model = make(server, store, tmp_path, turns, top_k=1)
    first = agent.run_sync("Use notes_search to find the budget")
    assert [o.status for o in first.tool_calls] == ["ok"]
    assert "notes_search" in offered(model.requests[0])
    agent.run_sync("And what will the weather forecast be in Oslo tomorrow?")
    # Not named and not similar any more, but the conversation used it: it stays offered.
    assert {"notes_search", "weather_forecast"} <= offered(model.requests[-1])
    assert "currency_convert" not in offered(model.requests[-1])


def test_descriptions_are_embedded_once_and_the_prompt_once_per_run(
    server: EmbeddingServer, store: Store, tmp_path: Path
) -> None:
    agent, _ = make(server, store, tmp_path, [[{"tool": "time", "params": {}}], "One.", "Two."], top_k=2)
    agent.run_sync("convert 10 euros into dollars")
    embedded_first = len(server.inputs())
    agent.run_sync("what meetings are in my calendar on Monday")
    later = server.inputs()[embedded_first:]
    assert later == ["what meetings are in my calendar on Monday"]  # the tools' vectors came from the cache
    assert embedded_first > 20  # the prompt and each tool's "name: description" (three rounds asked nothing more)


def test_the_dependency_boost_lifts_a_preferred_tool_into_the_top_k(
    server: EmbeddingServer, store: Store, tmp_path: Path
) -> None:
    turns: list[Any] = [[{"tool": "weather_forecast", "params": {"city": "Rome"}}], "ok"]
    prefers = (
        "[gates.dependencies]\nenabled = true\nboost_per_dep = 1.0\nmax_total_boost = 1.0\n"
        '[gates.dependencies.rules.currency_convert]\nprefers = ["weather_forecast"]'
    )
    agent, model = make(server, store, tmp_path, turns, top_k=2, more=prefers)
    agent.run_sync("What will the weather forecast be in Rome tomorrow?")
    before, after = offered(model.requests[0]), offered(model.requests[1])
    assert "currency_convert" not in before
    assert "currency_convert" in after  # weather_forecast completed: its follower moved up past the others


@pytest.mark.parametrize("failure", ["status", "garbage", "timeout", "trickle"])
def test_without_the_prompts_embedding_every_tool_is_offered_and_the_run_says_why(
    server: EmbeddingServer, store: Store, tmp_path: Path, failure: str
) -> None:
    if failure == "status":
        server.status = 503
    elif failure == "garbage":
        server.garbage = True
    elif failure == "trickle":
        server.trickle = True
    else:
        server.delay = 2.0
    agent, model = make(server, store, tmp_path, ["Answered anyway."], extra="timeout_secs = 0.5")
    events: list[Any] = []
    result = agent.run_sync("weather in Paris", on_event=events.append)
    assert (result.stop_reason, result.text) == ("completed", "Answered anyway.")
    assert offered(model.requests[0]) == {tool.name for tool in agent.chain.tool_definitions()}
    (event,) = [e for e in events if isinstance(e, ToolsOffered)]
    assert event.note is not None and "could not be embedded" in event.note
    why = {"status": "503", "garbage": "not an embeddings reply", "timeout": "in 0.5s",
           "trickle": "no embeddings in 0.5s"}[failure]  # fmt: skip
    assert why in event.note


def test_a_key_from_its_variable_is_sent_and_replies_are_put_back_in_order(server: EmbeddingServer) -> None:
    import asyncio

    embeddings = OpenAIEmbeddings(server.url, "hashing-512", api_key="sk-embed")
    texts = [f"text number {i} about {word}" for i, word in enumerate(["cats", "dogs", "cars"] * 30)]
    vectors = asyncio.run(embeddings.embed(texts))  # 90 texts: two batches, each answered in reverse order
    assert len(server.requests) == 2 and server.requests[0]["authorization"] == "Bearer sk-embed"
    from bench.embedding_server import hashed_embedding

    assert vectors == [hashed_embedding(text) for text in texts]
    server.status = 401
    with pytest.raises(ModelError, match="HTTP 401"):
        asyncio.run(embeddings.embed(["x"]))


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ("[agent.tool_filter]\nenabled = true", "enabled needs provider"),
        ('[agent.tool_filter]\nenabled = true\nprovider = "nope"', "no \\[\\[llm.providers\\]\\] entry named 'nope'"),
        ('[[llm.providers]]\nname = "claude"\nkind = "anthropic"\n[agent.tool_filter]\nenabled = true\n'
         'provider = "claude"', "kind anthropic, which has no embeddings API"),
        ('[[llm.providers]]\nname = "e"\nkind = "openai"\nbase_url = "http://127.0.0.1:9/v1"\n'
         '[agent.tool_filter]\nenabled = true\nprovider = "e"', "needs base_url and embedding_model"),
    ],
)  # fmt: skip
def test_a_filter_that_cannot_embed_is_a_config_error_that_says_what_to_set(
    toml: str, message: str, store: Store, tmp_path: Path
) -> None:
    with pytest.raises(ConfigError, match=message):
        settings = Settings.from_toml(toml).model_copy(update={"home": store.home})
        zeph_nb.Agent(settings, zeph_nb.ScriptedProvider(["x"]), workdir=tmp_path, store=store)


def test_status_shows_the_filter(server: EmbeddingServer, store: Store, tmp_path: Path) -> None:
    from zeph_nb.notebook.views import print_status

    agent, _ = make(server, store, tmp_path, ["ok"], top_k=7, extra='always_on = ["time", "read_overflow"]')
    out = io.StringIO()
    with redirect_stdout(out):
        print_status(agent, 1, None, None)
    line = next(line for line in out.getvalue().splitlines() if line.startswith("Filter:"))
    embeddings = f"embed (hashing-512 at {server.url})"
    assert line == f"Filter:       top_k=7, always_on=time,read_overflow, embeddings={embeddings}"
    assert "(0 messages, 1 run)" in out.getvalue()


async def test_vectors_too_long_or_too_large_to_rank_are_refused_not_ranked() -> None:
    from zeph_nb.agent.providers.embeddings import MAX_DIMENSIONS
    from zeph_nb.agent.tool_filter import cosine

    with serve_embeddings(dims=MAX_DIMENSIONS + 1) as huge, pytest.raises(ModelError, match="usable vectors"):
        await OpenAIEmbeddings(huge.url, "hash").embed(["read a file"])
    # Each value is finite, but squaring it is not: the score would be NaN, which sorts anywhere.
    assert cosine([1e200, 1e200], [1e200, 1.0]) == -1.0
    assert cosine([1.0, 0.0], [1.0, 0.0]) == 1.0


def test_a_tool_not_offered_but_called_anyway_still_meets_every_gate(
    server: EmbeddingServer, store: Store, tmp_path: Path
) -> None:
    # An injected model calls a tool the filter left out: the filter only trims the schemas, the chain decides.
    turns: list[Any] = [[{"tool": "write", "params": {"path": "x.txt", "content": "pwned"}}], "Done."]
    more = '[gates.permissions]\nwrite = [{pattern = "*", action = "deny"}]\n'
    agent, model = make(server, store, tmp_path, turns, top_k=1, more=more)
    result = agent.run_sync("What will the weather forecast be in Paris tomorrow?")
    assert "write" not in offered(model.requests[0])
    (outcome,) = result.tool_calls
    assert outcome.status == "denied" and not (tmp_path / "x.txt").exists()


async def test_a_filter_kept_across_rounds_and_runs_chooses_as_a_fresh_one_would(server: EmbeddingServer) -> None:
    # The filter keeps each tool's similarity to the run's prompt for the run: every round (with a boost that
    # changes between rounds) and every later run (another prompt) must choose what a new filter chooses.
    from zeph_nb.agent.tool_filter import ToolFilter
    from zeph_nb.config.tool_filter import ToolFilterSettings
    from zeph_nb.tools.functions import ATTRIBUTE

    tools = [getattr(tool, ATTRIBUTE).definition for tool in TOOLS]
    config = ToolFilterSettings(enabled=True, provider="embed", top_k=2, min_description_words=0)
    kept = ToolFilter(config, OpenAIEmbeddings(server.url, "hashing-512"))
    prompts = ["weather forecast for Paris", "convert euros", "ping the host, then notes_search", "meetings"]
    for prompt in prompts:
        await kept.begin(prompt)
        for round_ in range(3):
            used = ["calendar_events"] if round_ == 2 else []
            boost = (lambda name: 0.5 if name == "ping" else 0.0) if round_ == 1 else (lambda _: 0.0)
            fresh = ToolFilter(config, OpenAIEmbeddings(server.url, "hashing-512"))
            await fresh.begin(prompt)
            assert await kept.select(tools, used, boost) == await fresh.select(tools, used, boost), (prompt, round_)
