"""AnthropicProvider: Claude through the ``anthropic`` SDK, with native tool use, streaming and prompt caching.

The SDK costs ~2 s to import, so it is imported when the first request is made. Its own retries are switched
off: the agent loop retries rate limits and overloads itself, honouring the server's ``retry-after``, so there is
one retry policy, not two stacked. SDK errors are translated in ``translate_error`` and nowhere else.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from zeph_nb.agent.messages import (
    Block,
    Message,
    ModelRequest,
    ModelResponse,
    TextBlock,
    TextSink,
    ToolUseBlock,
    Usage,
)
from zeph_nb.aio import PerLoop
from zeph_nb.errors import ConfigError, ModelError, ToolErrorCategory, classify_http_status

if TYPE_CHECKING:
    import anthropic
    import httpx2

__all__ = ["DEFAULT_MODEL", "AnthropicProvider", "translate_error"]

DEFAULT_MODEL = "claude-sonnet-5"  # claude-sonnet-4-5 reaches end of life on 2026-11-30

# Error classes the SDK raises without an HTTP status, most specific first (APIStatusError goes by its status).
_CLASS_CATEGORIES: tuple[tuple[str, ToolErrorCategory | None], ...] = (
    ("APITimeoutError", ToolErrorCategory.TIMEOUT),
    ("APIConnectionError", ToolErrorCategory.NETWORK_ERROR),
    ("APIStatusError", None),  # decided by the status code
    ("APIResponseValidationError", ToolErrorCategory.SERVER_ERROR),  # the server sent what the SDK cannot read
    ("APIWebhookValidationError", ToolErrorCategory.PERMANENT_FAILURE),
    ("RetryableError", ToolErrorCategory.SERVER_ERROR),
    ("CredentialsError", None),  # configuration: raised as ConfigError
    ("WorkloadIdentityError", None),
    ("AnthropicError", ToolErrorCategory.PERMANENT_FAILURE),
)
_CONFIG_CLASSES = frozenset({"CredentialsError", "WorkloadIdentityError"})


def _retry_after(headers: Mapping[str, str]) -> float | None:
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is not None:
            try:
                return max(0.0, float(value) * scale)
            except ValueError:
                continue  # an HTTP date: not worth parsing, the backoff applies instead
    return None


def translate_error(error: Exception) -> ModelError | ConfigError:
    """The one place an ``anthropic`` exception becomes ours."""
    import anthropic

    if isinstance(error, anthropic.APIStatusError):
        status = error.status_code
        detail = _detail(error)
        if status in (401, 403):
            return ConfigError(
                f"Anthropic refused the credentials ({status}: {detail}). Check ANTHROPIC_API_KEY, or that the key "
                "may use this model."
            )
        if status in (408, 504):
            category = ToolErrorCategory.TIMEOUT
        elif status == 529:
            category = ToolErrorCategory.SERVER_ERROR  # overloaded
        else:
            category = classify_http_status(status)
        return ModelError(
            category, f"Anthropic API {status}: {detail}", retry_after=_retry_after(error.response.headers)
        )
    for name, by_class in _CLASS_CATEGORIES:
        cls = getattr(anthropic, name, None)
        if cls is None or not isinstance(error, cls):
            continue
        if name in _CONFIG_CLASSES:
            return ConfigError(f"Anthropic credentials could not be used: {error}")
        if by_class is not None:
            return ModelError(by_class, f"Anthropic API: {type(error).__name__}: {error}")
    return ModelError(ToolErrorCategory.PERMANENT_FAILURE, f"Anthropic API: {type(error).__name__}: {error}")


def _detail(error: anthropic.APIStatusError) -> str:
    body = error.body
    if isinstance(body, Mapping):
        inner = body.get("error")
        if isinstance(inner, Mapping) and inner.get("message"):
            return f"{inner.get('type', 'error')}: {inner['message']}"
    return str(error.message)


class AnthropicProvider:
    """Claude. ``api_key`` defaults to ``ANTHROPIC_API_KEY`` (read by Settings); ``base_url`` to Anthropic's."""

    name = "anthropic"

    def __init__(
        self,
        model: str | None = None,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        max_tokens: int | None = None,
        stream: bool = True,
        timeout: float = 120.0,
        http_client: httpx2.AsyncClient | None = None,
    ) -> None:
        if not api_key:
            raise ConfigError(
                "AnthropicProvider needs an API key: set ANTHROPIC_API_KEY, or pass api_key=. Without one, "
                'leave [llm] provider = "auto" to use the offline scripted model.'
            )
        self.model = model or DEFAULT_MODEL
        self.api_key = api_key
        self.base_url = base_url
        self.max_tokens = max_tokens
        self.stream = stream
        self.timeout = timeout
        self.http_client = http_client
        self._client: PerLoop[anthropic.AsyncAnthropic] = PerLoop(self._new_client)

    def _new_client(self) -> anthropic.AsyncAnthropic:
        import anthropic

        return anthropic.AsyncAnthropic(
            api_key=self.api_key,
            base_url=self.base_url,
            max_retries=0,  # the agent loop retries, honouring retry-after
            timeout=self.timeout,
            http_client=self.http_client,
        )

    def client(self) -> anthropic.AsyncAnthropic:
        return self._client.get()

    def request_body(self, request: ModelRequest) -> dict[str, Any]:
        """The Messages API parameters, with three cache breakpoints: the system prompt and the last tool (the same
        in every request) and the newest message. The conversation only grows, so the next request — the next
        round of tools, or the next cell — reads everything up to that breakpoint from Anthropic's cache instead
        of paying for it again (``usage`` shows cache reads and writes)."""
        tools = [dict(schema) for schema in request.tool_schemas]
        if tools:
            tools[-1]["cache_control"] = {"type": "ephemeral"}
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_tokens or request.max_tokens,
            "system": [{"type": "text", "text": request.system, "cache_control": {"type": "ephemeral"}}],
            "messages": [_message(m) for m in request.messages],
        }
        last = body["messages"][-1]["content"] if body["messages"] else []
        if last:
            last[-1] = {**last[-1], "cache_control": {"type": "ephemeral"}}
        if tools:
            body["tools"] = tools
        return body

    async def complete(self, request: ModelRequest, on_text: TextSink) -> ModelResponse:
        import anthropic

        body = self.request_body(request)
        client = self.client()
        try:
            if self.stream:
                async with client.messages.stream(**body) as stream:
                    async for event in stream:
                        if event.type == "text":
                            await on_text(event.text)
                    message = await stream.get_final_message()
            else:
                message = await client.messages.create(**body)
                for block in message.content:
                    if block.type == "text":
                        await on_text(block.text)
        except anthropic.AnthropicError as e:
            raise translate_error(e) from e
        except ValueError as e:  # tool input the SDK could not parse while streaming
            raise ModelError(ToolErrorCategory.SERVER_ERROR, f"Anthropic API: unreadable streamed reply: {e}") from e
        return _response(message)


def _message(message: Message) -> dict[str, Any]:
    return {"role": message.role, "content": [_block(block) for block in message.content]}


def _block(block: Block) -> dict[str, Any]:
    if isinstance(block, TextBlock):
        return {"type": "text", "text": block.text}
    if isinstance(block, ToolUseBlock):
        # The API wants an object; a malformed input the model sent earlier goes back as what it was.
        tool_input = block.input if isinstance(block.input, dict) else {"_unparsed": json.dumps(block.input)}
        return {"type": "tool_use", "id": block.id, "name": block.name, "input": tool_input}
    return {
        "type": "tool_result",
        "tool_use_id": block.tool_use_id,
        "content": block.content,
        "is_error": block.is_error,
    }


def _response(message: Any) -> ModelResponse:
    content: list[Block] = []
    for block in message.content:
        if block.type == "text":
            content.append(TextBlock(block.text))
        elif block.type == "tool_use":
            content.append(ToolUseBlock(block.id, block.name, block.input))
    usage = message.usage
    return ModelResponse(
        content,
        message.stop_reason,
        Usage(
            input_tokens=usage.input_tokens or 0,
            output_tokens=usage.output_tokens or 0,
            cache_read_tokens=getattr(usage, "cache_read_input_tokens", None) or 0,
            cache_write_tokens=getattr(usage, "cache_creation_input_tokens", None) or 0,
        ),
        message.model,
    )
