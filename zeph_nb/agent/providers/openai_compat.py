"""OpenAICompatibleProvider: chat completions with tools, for OpenAI, Ollama, vLLM and llama.cpp servers.

Plain httpx against ``{base_url}/chat/completions``. Tool definitions go out as ``{"type": "function"}``
entries, tool calls come back in ``message.tool_calls`` (arguments as a JSON string), and results are sent as
``role: tool`` messages. Errors are translated in ``_raise_for`` and nowhere else.

A reasoning model, recognised by name (``[agent] reasoning_model_detection``), gets ``max_completion_tokens``
(OpenAI's o-series refuse ``max_tokens``), and the ``<think>…</think>`` block local ones (DeepSeek-R1, QwQ) write
before their answer is dropped from the reply: it is neither shown nor kept in the conversation.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from zeph_nb.agent.messages import (
    Block,
    Message,
    ModelRequest,
    ModelResponse,
    TextBlock,
    TextSink,
    ToolResultBlock,
    ToolUseBlock,
    Usage,
)
from zeph_nb.aio import PerLoop
from zeph_nb.errors import ConfigError, ModelError, ToolErrorCategory, classify_http_status

if TYPE_CHECKING:
    import httpx

__all__ = ["OpenAICompatibleProvider", "is_reasoning_model", "without_think"]

# By the model's own name (after any "vendor/" prefix): o1, o3-mini, o4-mini, gpt-5*, DeepSeek-R1 and its distills,
# deepseek-reasoner, QwQ, and names that say they reason or think.
_REASONING = re.compile(r"^(o\d+(-|$)|gpt-5)|deepseek-r1|(^|[-_:.])r1([-_:.]|$)|qwq|reason|thinking", re.IGNORECASE)
# Only the block a reasoning model opens its reply with: a <think> later in the reply is the model's choice of
# words, and dropping it would let a model hide text from the person reading the transcript.
_THINK = re.compile(r"\A\s*<think>.*?(</think>\s*|\Z)", re.DOTALL)


def is_reasoning_model(model: str) -> bool:
    return _REASONING.search(model.rsplit("/", 1)[-1]) is not None


def without_think(text: str) -> str:
    """The reply without the ``<think>`` block it opens with (one never closed runs to the end: the answer never
    came); any later one is left for the person to see."""
    return _THINK.sub("", text, count=1)


class OpenAICompatibleProvider:
    name = "openai"

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        max_tokens: int | None = None,
        timeout: float = 120.0,
        http_client: httpx.AsyncClient | None = None,
        detect_reasoning: bool = True,
    ) -> None:
        if not base_url or not model:
            raise ConfigError(
                "OpenAICompatibleProvider needs base_url and model, e.g. [llm] base_url = "
                '"http://localhost:11434/v1" and model = "qwen2.5-coder"'
            )
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key = api_key  # optional: local servers take none
        self.max_tokens = max_tokens
        self.reasoning = detect_reasoning and is_reasoning_model(model)
        self.timeout = timeout
        self._given = http_client
        self._client: PerLoop[httpx.AsyncClient] = PerLoop(self._new_client)

    def _new_client(self) -> httpx.AsyncClient:
        import httpx

        return httpx.AsyncClient(timeout=self.timeout)

    def client(self) -> httpx.AsyncClient:
        return self._given if self._given is not None else self._client.get()

    def request_body(self, request: ModelRequest) -> dict[str, Any]:
        messages: list[dict[str, Any]] = [{"role": "system", "content": request.system}]
        for message in request.messages:
            messages.extend(_messages(message))
        limit = "max_completion_tokens" if self.reasoning else "max_tokens"
        body: dict[str, Any] = {"model": self.model, "messages": messages, limit: self.max_tokens or request.max_tokens}
        if request.tool_schemas:
            body["tools"] = [
                {
                    "type": "function",
                    "function": {"name": s["name"], "description": s["description"], "parameters": s["input_schema"]},
                }
                for s in request.tool_schemas
            ]
        return body

    async def complete(self, request: ModelRequest, on_text: TextSink) -> ModelResponse:
        import httpx

        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        try:
            response = await self.client().post(
                f"{self.base_url}/chat/completions", json=self.request_body(request), headers=headers
            )
        except httpx.TimeoutException as e:
            raise ModelError(ToolErrorCategory.TIMEOUT, f"{self.base_url}: no answer in {self.timeout:g}s") from e
        except httpx.TransportError as e:
            raise ModelError(ToolErrorCategory.NETWORK_ERROR, f"{self.base_url}: {type(e).__name__}: {e}") from e
        if response.status_code >= 400:
            raise _raise_for(response, self.base_url)
        try:
            data = response.json()
            message = data["choices"][0]["message"]
        except (ValueError, KeyError, IndexError, TypeError) as e:
            raise ModelError(
                ToolErrorCategory.SERVER_ERROR, f"{self.base_url}: not a chat completion: {response.text[:200]!r}"
            ) from e
        content: list[Block] = []
        text = str(message.get("content") or "")
        if text and self.reasoning:
            text = without_think(text).strip()
        if text:
            await on_text(text)
            content.append(TextBlock(text))
        for call in message.get("tool_calls") or []:
            function = call.get("function", {})
            raw = function.get("arguments") or "{}"
            try:
                arguments: Any = json.loads(raw) if isinstance(raw, str) else raw
            except ValueError:
                arguments = raw  # validation tells the model its arguments were not JSON
            content.append(
                ToolUseBlock(str(call.get("id") or f"call_{len(content)}"), str(function.get("name")), arguments)
            )
        usage = data.get("usage") or {}
        return ModelResponse(
            content,
            data["choices"][0].get("finish_reason"),
            Usage(
                input_tokens=int(usage.get("prompt_tokens") or 0),
                output_tokens=int(usage.get("completion_tokens") or 0),
            ),
            data.get("model"),
        )


def _raise_for(response: httpx.Response, base_url: str) -> ModelError | ConfigError:
    status = response.status_code
    detail = response.text[:300]
    if status in (401, 403):
        return ConfigError(
            f"{base_url} refused the request ({status}: {detail}); check the API key ([llm], OPENAI_API_KEY)"
        )
    if status == 404:
        return ConfigError(
            f"{base_url}/chat/completions: 404 ({detail}); check [llm] base_url (it usually ends in /v1) and model"
        )
    retry_after = response.headers.get("retry-after")
    seconds = float(retry_after) if retry_after and retry_after.replace(".", "", 1).isdigit() else None
    return ModelError(classify_http_status(status), f"{base_url}: HTTP {status}: {detail}", retry_after=seconds)


def _messages(message: Message) -> list[dict[str, Any]]:
    if message.role == "assistant":
        calls = [
            {
                "id": block.id,
                "type": "function",
                "function": {"name": block.name, "arguments": json.dumps(block.input, default=str)},
            }
            for block in message.tool_uses
        ]
        out: dict[str, Any] = {"role": "assistant", "content": message.text or None}
        if calls:
            out["tool_calls"] = calls
        return [out]
    results = [b for b in message.content if isinstance(b, ToolResultBlock)]
    text = message.text
    out_list: list[dict[str, Any]] = [
        {"role": "tool", "tool_call_id": block.tool_use_id, "content": block.content} for block in results
    ]
    if text:
        out_list.append({"role": "user", "content": text})
    return out_list
