"""``[llm]`` and its ``[[llm.providers]]`` entries: which model the agent asks, and the named models other
features ask (a policy check, embeddings for the tool filter, helpers)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from zeph_nb.config.common import _Section, empty_list, require_unique

__all__ = ["BUILTIN_PROVIDERS", "LLMSettings", "NamedProvider"]

BUILTIN_PROVIDERS = ("auto", "anthropic", "openai", "scripted")


_THINKING = (
    "zeph-nb asks for no extended thinking or reasoning effort; a reasoning model's own <think> block is dropped "
    "from its reply ([agent] reasoning_model_detection)"
)
_ANTHROPIC_BETA = (
    "zeph-nb turns on no beta feature of the Anthropic API: the system prompt and tools are cached with the default "
    "lifetime, and near [agent] context_budget_tokens compress_provider summarises the earlier runs"
)
_SPEECH = "zeph-nb takes typed prompts only: there is no speech-to-text"
# The reference agent's [[llm.providers]] keys that mean nothing here, each with why (a config ported from it
# hears this, not "unknown key").
PROVIDER_NOT_HERE: dict[str, str] = {
    "type": 'it is called kind here: "anthropic" for claude; "openai" for openai, ollama and compatible servers '
    "(with base_url: http://localhost:11434/v1 for Ollama); gemini and candle have no kind of their own (serve the "
    'model behind an OpenAI-compatible endpoint and use "openai"); every entry also needs a name',
    "default": "[llm] provider names the entry the agent asks (or %%zeph --provider NAME for one cell)",
    "embed": "each feature names the entry that embeds for it: [memory] embedding_provider, [index] "
    "embedding_provider, [agent.tool_filter] provider",
    "tool_use": "tools are always offered through the provider's own tool-calling API",
    "vision_model": "one model answers a run: there is no second model for images",
    "instruction_file": "extra instructions are [llm] system_prompt, the same for every model",
    "server_compaction": _ANTHROPIC_BETA,
    "enable_extended_context": _ANTHROPIC_BETA,
    "prompt_cache_ttl": _ANTHROPIC_BETA,
    "thinking": _THINKING,
    "reasoning_effort": _THINKING,
    "thinking_level": _THINKING,
    "thinking_budget": _THINKING,
    "candle": "zeph-nb runs no model inside the kernel: serve it locally (Ollama, vLLM, llama.cpp's server) and "
    'name it with kind = "openai" and its base_url',
    "stt_model": _SPEECH,
}
_ONE_MODEL = (
    "one model answers each run, the one [llm] provider (or %%zeph --provider NAME) names: there is no routing "
    "between models"
)
# The reference agent's [llm] keys that mean nothing here, each with why.
LLM_NOT_HERE: dict[str, str] = {
    "routing": _ONE_MODEL,
    "router": _ONE_MODEL,
    "complexity_routing": _ONE_MODEL,
    "summary_model": "the model that summarises earlier runs is [agent] compress_provider here (an [[llm.providers]] "
    "name)",
    "summary_provider": "the model that summarises earlier runs is [agent] compress_provider here (an "
    "[[llm.providers]] name)",
    "response_cache_enabled": "the model's replies are never cached: a cell run again asks again; repeated tool "
    "reads are what is cached ([gates.cache])",
    "response_cache_ttl_secs": "the model's replies are never cached: a cell run again asks again; repeated tool "
    "reads are what is cached ([gates.cache])",
    "stt": _SPEECH,
}


class NamedProvider(_Section):
    """One ``[[llm.providers]]`` entry: a model other settings (``[llm] provider``, later features) name."""

    not_here = PROVIDER_NOT_HERE

    name: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_-]{0,63}$")
    """what ``[llm] provider`` and ``%%zeph --provider`` call it"""
    kind: Literal["anthropic", "openai", "scripted"]
    """anthropic (the Claude SDK), openai (any OpenAI-compatible server) or scripted"""
    model: str | None = None
    """the model; required for openai"""
    base_url: str | None = None
    """the server (openai: required, e.g. http://localhost:11434/v1; anthropic: a proxy or gateway)"""
    api_key_env: str | None = Field(None, pattern=r"^[A-Z_][A-Z0-9_]*$")
    """the variable holding its key, read when the settings load (default: ANTHROPIC_API_KEY or OPENAI_API_KEY)"""
    max_tokens: int | None = Field(None, ge=1, le=200_000)
    """the most tokens one reply may have (default: [llm] max_tokens)"""
    embedding_model: str | None = None
    """the model its /embeddings endpoint uses, for [agent.tool_filter] (default: model)"""
    replies: list[str] = Field(default_factory=empty_list)
    """kind scripted: what it answers, one reply per request in order (a policy check's ALLOW or DENY, a demo's
    words); none: it says that no model is configured"""

    @field_validator("name")
    @classmethod
    def _not_builtin(cls, value: str) -> str:
        if value in BUILTIN_PROVIDERS:
            raise ValueError(f"{value!r} is a built-in choice of [llm] provider; name this entry otherwise")
        return value

    @model_validator(mode="after")
    def _replies_are_scripted(self) -> NamedProvider:
        if self.replies and self.kind != "scripted":
            raise ValueError(f"provider {self.name!r}: replies are for kind scripted; a {self.kind} model answers "
                             "for itself")  # fmt: skip
        return self


class LLMSettings(_Section):
    """``[llm]``: which model the agent asks.

    ``provider = "auto"`` picks an OpenAI-compatible server when ``base_url`` is set, else Claude when an Anthropic
    API key is set, else the offline scripted model (which says plainly that no model is configured).
    """

    not_here = LLM_NOT_HERE

    provider: str = "auto"
    """auto: an OpenAI-compatible server when base_url is set, else Claude with an API key, else the scripted model; or
    anthropic, openai, scripted, or the name of an [[llm.providers]] entry"""
    model: str | None = Field(None, description="default: claude-sonnet-5 for anthropic; required for openai")
    base_url: str | None = Field(None, description="an OpenAI-compatible server, e.g. http://localhost:11434/v1")
    allowed_base_urls: list[str] | None = None
    """set (in a managed file): the only model endpoints any provider may use, each a URL prefix
    (https://api.anthropic.com for Claude's own); unset: any"""
    max_tokens: int = Field(4096, ge=1, le=200_000)
    """the most tokens one model reply may have"""
    timeout_secs: float = Field(120.0, gt=0, le=3600, description="connecting and waiting for the first byte")
    idle_timeout_secs: float = Field(
        60.0, gt=0, le=3600, description="a streamed reply with no new content for this long is retried"
    )
    deadline_secs: float = Field(600.0, gt=0, le=7200, description="one request, however it streams, ends by then")
    retry_budget_secs: float = Field(
        120.0, ge=0, le=3600, description="overloads, rate limits, 5xx and timeouts are retried within this time"
    )
    stream: bool = Field(True, description="stream the reply as it is written (anthropic)")
    system_prompt: str | None = Field(None, description="extra instructions appended to the built-in ones")
    providers: list[NamedProvider] = Field(default_factory=empty_list)
    """named models: [[llm.providers]] name, kind, model, base_url, api_key_env, max_tokens, embedding_model, replies"""

    @model_validator(mode="after")
    def _provider_is_known(self) -> LLMSettings:
        names = [entry.name for entry in self.providers]
        require_unique(names, "[[llm.providers]]")
        if self.provider not in BUILTIN_PROVIDERS and self.provider not in names:
            known = ", ".join([*BUILTIN_PROVIDERS, *names])
            raise ValueError(f"provider {self.provider!r} is neither built in nor an [[llm.providers]] name ({known})")
        return self
