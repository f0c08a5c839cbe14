"""The real anthropic SDK and an httpx client against local fake model servers, driven through the agent."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fake_model_servers import Reply, api_error, completion, message, serve, stalled, stream, text, tool_use

from zeph_nb.agent import Agent
from zeph_nb.agent.providers.anthropic import AnthropicProvider, translate_error
from zeph_nb.agent.providers.openai_compat import OpenAICompatibleProvider
from zeph_nb.config import Settings
from zeph_nb.errors import ConfigError, ModelError, ToolErrorCategory
from zeph_nb.gates import AutoApprove
from zeph_nb.store import Store

FAST_RETRY = "[gates.retry]\nmax_attempts = 2\nbase_ms = 1\nmax_ms = 5\n"


def agent_for(provider: object, workdir: Path, store: Store, toml: str = FAST_RETRY) -> Agent:
    settings = Settings.from_toml(toml).model_copy(update={"home": store.home})
    return Agent(settings, provider, AutoApprove(), workdir, store=store)  # type: ignore[arg-type]


@pytest.mark.parametrize("streaming", [True, False], ids=["sse", "json"])
async def test_claude_tool_use_then_text(tmp_path: Path, store: Store, streaming: bool) -> None:
    (tmp_path / "notes.txt").write_text("alpha\nbeta\n")
    reply = stream if streaming else message
    replies = [
        reply([text("Let me look."), tool_use("toolu_1", "read", {"path": "notes.txt"})], "tool_use"),
        reply([text("The file has two lines: alpha and beta.")]),
    ]
    with serve(replies) as server:
        provider = AnthropicProvider("claude-test", api_key="sk-test", base_url=server.url, stream=streaming)
        agent = agent_for(provider, tmp_path, store)
        deltas: list[str] = []
        result = await agent.run("What is in notes.txt?", on_event=lambda e: deltas.append(getattr(e, "text", "")))
    assert result.stop_reason == "completed" and result.text == "The file has two lines: alpha and beta."
    assert [o.tool for o in result.tool_calls] == ["read"] and result.tool_calls[0].call.call_id == "toolu_1"
    if streaming:
        assert len([d for d in deltas if d]) > 3  # the text arrived in pieces
    first, second = server.bodies
    assert server.received[0].path == "/v1/messages"
    headers = server.received[0].headers
    assert "sk-test" in (headers.get("x-api-key") or headers.get("authorization", ""))  # the SDK's choice of header
    # Prompt caching: the system prompt and the last tool definition carry cache breakpoints.
    assert first["system"][0]["cache_control"] == {"type": "ephemeral"}
    assert first["tools"][-1]["cache_control"] == {"type": "ephemeral"}
    assert all("cache_control" not in tool for tool in first["tools"][:-1])
    # ... and the newest message: the growing conversation is read from the cache by the next request.
    assert first["messages"][-1]["content"][-1]["cache_control"] == {"type": "ephemeral"}
    assert second["messages"][-1]["content"][-1]["cache_control"] == {"type": "ephemeral"}
    assert all("cache_control" not in block for m in second["messages"][:-1] for block in m["content"])
    result_block = second["messages"][-1]["content"][0]
    assert result_block["type"] == "tool_result" and result_block["tool_use_id"] == "toolu_1"
    assert "alpha" in result_block["content"] and result_block["is_error"] is False
    assert (result.usage.input_tokens, result.usage.cache_read_tokens, result.usage.cache_write_tokens) == (
        240,
        200,
        40,
    )


async def test_rate_limits_are_retried_honouring_retry_after(tmp_path: Path, store: Store) -> None:
    replies = [api_error(429, "rate_limit_error", "slow down", {"retry-after-ms": "30"}), stream([text("ok")])]
    with serve(replies) as server:
        provider = AnthropicProvider("claude-test", api_key="sk-test", base_url=server.url)
        result = await agent_for(provider, tmp_path, store).run("hi")
    assert (result.stop_reason, result.text, len(server.received)) == ("completed", "ok", 2)


@pytest.fixture
def quick_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    from zeph_nb.agent import model_calls
    from zeph_nb.config import RetrySettings

    monkeypatch.setattr(model_calls, "MODEL_BACKOFF", RetrySettings(base_ms=100, max_ms=30_000))


async def test_an_overloaded_api_is_retried_until_the_budget_and_says_what_to_do(
    tmp_path: Path, store: Store, quick_backoff: None
) -> None:
    replies = [api_error(529, "overloaded_error", "Overloaded")] * 40
    events: list[Any] = []
    with serve(replies) as server:
        provider = AnthropicProvider("claude-test", api_key="sk-test", base_url=server.url)
        agent = agent_for(provider, tmp_path, store, "[llm]\nretry_budget_secs = 2\n")
        result = await agent.run("hi", on_event=events.append)
    assert result.stop_reason == "model_error" and "overloaded_error: Overloaded" in result.detail
    assert "tries over" in result.detail and "retry_budget_secs = 2); run again later" in result.detail
    assert len(server.received) >= 3  # not three quick tries in a second: backoff within the budget
    retrying = [e for e in events if e.kind == "retrying"]
    assert retrying and {e.reason for e in retrying} == {"overloaded"}


async def test_a_retry_after_beyond_the_budget_says_when_to_come_back(tmp_path: Path, store: Store) -> None:
    with serve([api_error(429, "rate_limit_error", "slow down", {"retry-after": "60"})]) as server:
        provider = AnthropicProvider("claude-test", api_key="sk-test", base_url=server.url)
        result = await agent_for(provider, tmp_path, store, "[llm]\nretry_budget_secs = 5\n").run("hi")
    assert result.stop_reason == "model_error" and len(server.received) == 1
    assert "asked to wait 60 s (retry-after)" in result.detail and "run again after " in result.detail


async def test_a_stalled_stream_ends_with_a_clear_error(tmp_path: Path, store: Store, quick_backoff: None) -> None:
    # message_start, then only pings: without an idle timeout the cell said "running" for ever.
    toml = "[llm]\nidle_timeout_secs = 1\nretry_budget_secs = 6\n"  # room for two tries on a loaded machine
    with serve([stalled()] * 5) as server:
        provider = AnthropicProvider("claude-test", api_key="sk-test", base_url=server.url)
        result = await agent_for(provider, tmp_path, store, toml).run("hi")
    assert result.stop_reason == "model_error"
    assert "no reply for 1 s ([llm] idle_timeout_secs)" in result.detail and "run again later" in result.detail
    assert len(server.received) >= 2  # a stall is retried, like an overload


async def test_a_stall_then_a_reply_completes(tmp_path: Path, store: Store, quick_backoff: None) -> None:
    with serve([stalled(), stream([text("here at last")])]) as server:
        provider = AnthropicProvider("claude-test", api_key="sk-test", base_url=server.url)
        result = await agent_for(provider, tmp_path, store, "[llm]\nidle_timeout_secs = 1\n").run("hi")
    assert (result.stop_reason, result.text, len(server.received)) == ("completed", "here at last", 2)


async def test_a_stall_midway_takes_back_what_it_streamed(tmp_path: Path, store: Store, quick_backoff: None) -> None:
    # The retry's text was glued to the cut-off words: front-ends are told which text to take back, once.
    from io import StringIO

    from zeph_nb.agent.events import StreamAbandoned, TextDelta
    from zeph_nb.notebook.plain import PlainTranscript

    cut = "an answer that will stall h"
    events: list[object] = []
    out = StringIO()
    plain = PlainTranscript(out)

    def on_event(event: object) -> None:
        events.append(event)
        plain.handle(event)  # type: ignore[arg-type]

    with serve([stalled(after_text=cut), stream([text("Recovered after the stall.")])]) as server:
        provider = AnthropicProvider("claude-test", api_key="sk-test", base_url=server.url)
        agent = agent_for(provider, tmp_path, store, "[llm]\nidle_timeout_secs = 1\n")
        result = await agent.run("hi", on_event=on_event)
    assert (result.stop_reason, result.text) == ("completed", "Recovered after the stall.")
    abandoned = [e for e in events if isinstance(e, StreamAbandoned)]
    assert [(e.text, e.reason) for e in abandoned] == [(cut, "no reply for 1 s")]
    shown = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert shown == cut + "Recovered after the stall."  # what was streamed; the event says which part is void
    said = out.getvalue()
    assert "[no reply for 1 s: the reply above was cut off, is not part of the answer, and is asked again]" in said
    assert "hRecovered" not in said  # the retry's text on a line of its own


async def test_refused_credentials_are_a_configuration_error(tmp_path: Path, store: Store) -> None:
    with serve([api_error(401, "authentication_error", "invalid x-api-key")]) as server:
        provider = AnthropicProvider("claude-test", api_key="sk-wrong", base_url=server.url)
        with pytest.raises(ConfigError, match="ANTHROPIC_API_KEY"):
            await agent_for(provider, tmp_path, store).run("hi")


@pytest.mark.parametrize("streaming", [True, False], ids=["sse", "json"])
async def test_malformed_tool_input_becomes_a_reformat_request(tmp_path: Path, store: Store, streaming: bool) -> None:
    if streaming:
        bad = stream([tool_use("toolu_1", "read", {})], "tool_use", raw_inputs={0: '{"path": "notes.txt", oops'})
        done = stream([text("Sorry, I sent broken arguments.")])
    else:
        bad = message([tool_use("toolu_1", "read", "path=notes.txt")], "tool_use")
        done = message([text("Sorry, I sent broken arguments.")])
    replies = [bad, done]
    with serve(replies) as server:
        provider = AnthropicProvider("claude-test", api_key="sk-test", base_url=server.url, stream=streaming)
        result = await agent_for(provider, tmp_path, store).run("read notes.txt")
    assert result.stop_reason == "completed"
    if streaming:
        # The SDK cannot assemble the streamed input and says to retry: the request is sent again, no tool runs.
        assert result.tool_calls == [] and len(server.received) == 2
        assert server.bodies[1]["messages"] == server.bodies[0]["messages"]
    else:
        # Delivered whole but not an object: the model is told, as a quality failure, and may resend once.
        assert result.tool_calls[0].category is ToolErrorCategory.INVALID_PARAMETERS
        sent = server.bodies[1]["messages"][-1]["content"][0]
        assert sent["is_error"] is True and "Send this call once more" in sent["content"]


def test_every_sdk_error_class_is_translated() -> None:
    """The mapping is complete: every exception the SDK defines becomes a ModelError with a fitting category,
    or a ConfigError for credentials."""
    import anthropic
    import httpx2

    request = httpx2.Request("POST", "https://api.anthropic.com/v1/messages")
    seen = 0
    for name in dir(anthropic):
        cls = getattr(anthropic, name)
        if not (isinstance(cls, type) and issubclass(cls, anthropic.AnthropicError)):
            continue
        seen += 1
        if issubclass(cls, anthropic.APIStatusError):
            status = getattr(cls, "status_code", None) or 500
            error: Exception = cls("x", response=httpx2.Response(status, request=request), body=None)
        elif issubclass(cls, anthropic.APIConnectionError):
            error = cls(request=request)
        else:
            attempts = [
                lambda: cls("x", request, body=None),  # noqa: B023 - called at once
                lambda: cls(response=httpx2.Response(200, request=request), body=None),  # noqa: B023
                lambda: cls("x"),  # noqa: B023
            ]
            for attempt in attempts:
                try:
                    error = attempt()
                    break
                except TypeError:
                    continue
            else:
                continue  # needs arguments only the SDK itself supplies
        translated = translate_error(error)
        assert isinstance(translated, ModelError | ConfigError), name
    assert seen > 20
    timeout = translate_error(anthropic.APITimeoutError(request=request))
    assert isinstance(timeout, ModelError) and timeout.category is ToolErrorCategory.TIMEOUT
    offline = translate_error(anthropic.APIConnectionError(request=request))
    assert isinstance(offline, ModelError) and offline.category is ToolErrorCategory.NETWORK_ERROR


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        (429, ToolErrorCategory.RATE_LIMITED),
        (500, ToolErrorCategory.SERVER_ERROR),
        (529, ToolErrorCategory.SERVER_ERROR),  # overloaded
        (503, ToolErrorCategory.SERVER_ERROR),
        (504, ToolErrorCategory.TIMEOUT),
        (400, ToolErrorCategory.INVALID_PARAMETERS),
        (404, ToolErrorCategory.PERMANENT_FAILURE),
    ],
)
def test_status_codes_map_to_categories(status: int, expected: ToolErrorCategory) -> None:
    import anthropic
    import httpx2

    response = httpx2.Response(status, request=httpx2.Request("POST", "https://x/v1/messages"),
                               headers={"retry-after": "7"})  # fmt: skip
    translated = translate_error(anthropic.APIStatusError("x", response=response, body=None))
    assert isinstance(translated, ModelError)
    assert (translated.category, translated.retry_after) == (expected, 7.0)


# -- OpenAI-compatible servers ---------------------------------------------------------------------------------


async def test_openai_compatible_tool_calls_and_results(tmp_path: Path, store: Store) -> None:
    (tmp_path / "a.txt").write_text("from the file\n")
    replies = [
        completion(None, [("call_1", "read", json.dumps({"path": "a.txt"}))]),
        completion("It says: from the file."),
    ]
    with serve(replies) as server:
        provider = OpenAICompatibleProvider(server.url + "/v1", "local-model", api_key="k")
        result = await agent_for(provider, tmp_path, store).run("read a.txt")
    assert result.text == "It says: from the file." and result.tool_calls[0].status == "ok"
    first, second = server.bodies
    assert server.received[0].path == "/v1/chat/completions"
    assert server.received[0].headers.get("authorization") == "Bearer k"
    assert first["messages"][0]["role"] == "system" and first["messages"][1] == {
        "role": "user",
        "content": "read a.txt",
    }
    assert {t["function"]["name"] for t in first["tools"]} >= {"read", "bash"}
    assistant, tool = second["messages"][2], second["messages"][3]
    assert assistant["tool_calls"][0]["function"] == {"name": "read", "arguments": '{"path": "a.txt"}'}
    assert tool["role"] == "tool" and tool["tool_call_id"] == "call_1" and "from the file" in tool["content"]
    assert result.usage.input_tokens == 100


async def test_openai_compatible_errors(tmp_path: Path, store: Store) -> None:
    replies = [Reply(429, {"error": "busy"}, {"retry-after": "0"}), completion(None, [("c1", "read", "{not json")]),
               completion("gave up")]  # fmt: skip
    with serve(replies) as server:
        provider = OpenAICompatibleProvider(server.url + "/v1", "local-model")
        result = await agent_for(provider, tmp_path, store).run("go")
    assert result.text == "gave up" and "authorization" not in server.received[0].headers
    assert result.tool_calls[0].category is ToolErrorCategory.INVALID_PARAMETERS
    with serve([Reply(401, {"error": "no key"})]) as server:
        provider = OpenAICompatibleProvider(server.url + "/v1", "local-model")
        with pytest.raises(ConfigError, match="API key"):
            await agent_for(provider, tmp_path, store).run("go")
    closed = OpenAICompatibleProvider("http://127.0.0.1:9/v1", "m", timeout=5)
    result = await agent_for(closed, tmp_path, store, "[llm]\nretry_budget_secs = 0").run("go")
    assert result.stop_reason == "model_error" and "network_error" in result.detail


# -- named providers ([[llm.providers]]) ----------------------------------------------------------------------

NAMED = """
[llm]
provider = "local"

[[llm.providers]]
name = "local"
kind = "openai"
model = "local-model"
base_url = "{url}"
api_key_env = "LOCAL_LLM_KEY"

[[llm.providers]]
name = "claude"
kind = "anthropic"
model = "claude-sonnet-5"
"""


async def test_a_named_provider_is_chosen_by_name_and_its_key_read_from_its_variable(
    tmp_path: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    from zeph_nb.agent.providers import provider_from_settings, provider_named

    monkeypatch.chdir(tmp_path)
    with serve([completion("Hello from the named one.")]) as server:
        (tmp_path / "zeph.toml").write_text(NAMED.format(url=server.url + "/v1"))
        env = {"ZEPH_HOME": str(store.home), "LOCAL_LLM_KEY": "named-key", "ANTHROPIC_API_KEY": "sk-ant-x"}
        settings = Settings.load(env=env)
        assert "named-key" not in repr(settings) and "named-key" not in (tmp_path / "zeph.toml").read_text()
        provider = provider_from_settings(settings)
        assert isinstance(provider, OpenAICompatibleProvider) and provider.model == "local-model"
        result = await agent_for(provider, tmp_path, store).run("hi")
    assert result.text == "Hello from the named one."
    assert server.received[0].headers.get("authorization") == "Bearer named-key"
    assert isinstance(provider_named(settings, "claude"), AnthropicProvider)  # other features name them too


@pytest.mark.parametrize(
    ("toml", "env", "said"),
    [
        ('[llm]\nprovider = "nope"\n', {}, "neither built in nor an [[llm.providers]] name"),
        ('[[llm.providers]]\nname = "auto"\nkind = "scripted"\n', {}, "is a built-in choice"),
        (
            '[[llm.providers]]\nname = "a"\nkind = "scripted"\n[[llm.providers]]\nname = "a"\nkind = "scripted"\n',
            {},
            "must differ",
        ),
        (NAMED.format(url="http://127.0.0.1:9/v1"), {}, "$LOCAL_LLM_KEY is not set"),
    ],
)
def test_named_provider_mistakes_say_what_to_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toml: str, env: dict[str, str], said: str
) -> None:
    from zeph_nb.agent.providers import provider_from_settings

    monkeypatch.chdir(tmp_path)
    (tmp_path / "zeph.toml").write_text(toml)
    with pytest.raises(ConfigError) as error:
        provider_from_settings(Settings.load(env={"ZEPH_HOME": str(tmp_path), **env}))
    assert said in str(error.value)
