"""OpenAIEmbeddings: vectors from an OpenAI-compatible ``/embeddings`` endpoint (OpenAI, Ollama, vLLM, llama.cpp).

What ``[agent.tool_filter]`` ranks tools with. One POST embeds a batch; the reply's ``data`` entries carry an
``index``, and are put back in the order asked (a server may answer in any order). Errors are ModelErrors of the
taxonomy, so a caller can say why it went on without them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from zeph_nb.errors import ConfigError, ModelError, ToolErrorCategory, classify_http_status

if TYPE_CHECKING:
    import httpx

    from zeph_nb.config import Settings

__all__ = ["OpenAIEmbeddings", "embeddings_named", "index_embedder", "memory_embedder"]

# Requests stay small whatever the number of tools: servers cap a batch (OpenAI at 2048 inputs, some local
# servers far lower).
BATCH = 64
# Real embedding models have at most a few thousand dimensions; a server sending more (a fault or a hostile
# endpoint) would make every ranking cost seconds on the kernel's event loop.
MAX_DIMENSIONS = 16_384


class OpenAIEmbeddings:
    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        timeout: float = 10.0,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key = api_key
        self.timeout = timeout
        self._given = http_client

    def __repr__(self) -> str:  # what %zeph status shows; never the key
        return f"{self.model} at {self.base_url}"

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, in order."""
        import httpx

        vectors: list[list[float]] = []
        client = self._given or httpx.AsyncClient(timeout=self.timeout)
        try:
            for start in range(0, len(texts), BATCH):
                vectors.extend(await self._batch(client, list(texts[start : start + BATCH])))
        finally:
            if self._given is None:
                await client.aclose()
        return vectors

    async def _batch(self, client: httpx.AsyncClient, texts: list[str]) -> list[list[float]]:
        import httpx

        url = f"{self.base_url}/embeddings"
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        try:
            response = await client.post(url, json={"model": self.model, "input": texts}, headers=headers,
                                         timeout=self.timeout)  # fmt: skip
        except httpx.TimeoutException as e:
            raise ModelError(ToolErrorCategory.TIMEOUT, f"{url}: no answer in {self.timeout:g}s") from e
        except httpx.TransportError as e:
            raise ModelError(ToolErrorCategory.NETWORK_ERROR, f"{url}: {type(e).__name__}: {e}") from e
        if response.status_code >= 400:
            raise ModelError(classify_http_status(response.status_code),
                             f"{url}: HTTP {response.status_code}: {response.text[:200]}")  # fmt: skip
        try:
            data = sorted(response.json()["data"], key=lambda item: int(item["index"]))
            vectors = [[float(x) for x in item["embedding"]] for item in data]
        except (ValueError, KeyError, TypeError) as e:
            raise ModelError(ToolErrorCategory.SERVER_ERROR,
                             f"{url}: not an embeddings reply: {response.text[:200]!r}") from e  # fmt: skip
        if len(vectors) != len(texts) or any(
            not v or len(v) > MAX_DIMENSIONS or not all(map(math.isfinite, v)) for v in vectors
        ):
            raise ModelError(ToolErrorCategory.SERVER_ERROR,
                             f"{url}: {len(vectors)} usable vectors for {len(texts)} inputs")  # fmt: skip
        return vectors


def embeddings_named(
    settings: Settings, name: str, timeout: float, *, setting: str = "[agent.tool_filter] provider"
) -> OpenAIEmbeddings:
    """The ``[[llm.providers]]`` entry ``name`` as an embeddings client; a ConfigError says what is missing (and
    names ``setting``, the key that named it)."""
    entry = next((p for p in settings.llm.providers if p.name == name), None)
    if entry is None:
        known = ", ".join(p.name for p in settings.llm.providers) or "none configured"
        raise ConfigError(f"{setting}: no [[llm.providers]] entry named {name!r} (named: {known})")
    if entry.kind != "openai":
        raise ConfigError(f"{setting} {name!r} is kind {entry.kind}, which has no embeddings API; "
                          "name a kind = \"openai\" entry (OpenAI, Ollama, vLLM) with embedding_model")  # fmt: skip
    model = entry.embedding_model or entry.model
    if not entry.base_url or not model:
        raise ConfigError(f"provider {name!r} needs base_url and embedding_model (or model) to embed, e.g. "
                          'base_url = "http://localhost:11434/v1", embedding_model = "nomic-embed-text"')  # fmt: skip
    secret = settings.provider_keys.get(name) or (None if entry.api_key_env else settings.openai_api_key)
    key = secret.get_secret_value() if secret is not None else None
    if entry.api_key_env and key is None:
        raise ConfigError(f"provider {name!r}: ${entry.api_key_env} is not set; set it before starting Jupyter "
                          f"(or %env {entry.api_key_env}=… in the kernel)")  # fmt: skip
    from zeph_nb.agent.providers import endpoint  # the package imports this module: here, not at the top

    url = endpoint(settings, entry.base_url, entry.kind, name) or entry.base_url  # [llm] allowed_base_urls holds
    return OpenAIEmbeddings(url, model, api_key=key, timeout=timeout)


def memory_embedder(settings: Settings) -> OpenAIEmbeddings | None:
    """What embeds the memory tools' notes: ``[memory] embedding_provider``'s endpoint; None when memory is off or
    no provider is named (then memory_search ranks by words only)."""
    config = settings.memory
    if not config.enabled or not config.embedding_provider:
        return None
    return embeddings_named(settings, config.embedding_provider, config.timeout_secs,
                            setting="[memory] embedding_provider")  # fmt: skip


def index_embedder(settings: Settings) -> OpenAIEmbeddings | None:
    """What embeds search_code's definitions and questions: ``[index] embedding_provider``'s endpoint; None when
    the semantic layer is off."""
    config = settings.index
    if not config.enabled or not config.embedding_provider:
        return None
    return embeddings_named(settings, config.embedding_provider, config.embedding_timeout_secs,
                            setting="[index] embedding_provider")  # fmt: skip
