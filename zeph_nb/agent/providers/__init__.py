"""Model providers: Claude (anthropic SDK), OpenAI-compatible servers (httpx), and the offline scripted model.

Each module imports its SDK on first use, so choosing a provider costs nothing until a request is made.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from zeph_nb.agent.providers.scripted import ScriptedProvider
from zeph_nb.config import Settings
from zeph_nb.config.managed import url_allowed
from zeph_nb.errors import ConfigError

if TYPE_CHECKING:
    from zeph_nb.agent.messages import Provider

__all__ = [
    "ScriptedProvider",
    "ask",
    "endpoint",
    "judge_from_settings",
    "provider_from_settings",
    "provider_named",
]


ANTHROPIC_API = "https://api.anthropic.com"


def endpoint(settings: Settings, base_url: str | None, kind: str, name: str) -> str | None:
    """The endpoint a provider of ``kind`` talks to, checked against ``[llm] allowed_base_urls`` when that is set
    (then Claude's default is written out, so nothing else can redirect it). A ConfigError names the key."""
    allowed = settings.llm.allowed_base_urls
    if allowed is None or kind == "scripted":
        return base_url
    url = base_url or (ANTHROPIC_API if kind == "anthropic" else None)
    if url is None or not url_allowed(url, allowed):
        raise ConfigError(f"{name} would use the model endpoint {url or '(none)'}, which is not allowed: "
                          f"{settings.set_by('llm.allowed_base_urls')}")  # fmt: skip
    return url


def provider_named(settings: Settings, name: str) -> Provider:
    """The ``[[llm.providers]]`` entry called ``name``, built: what ``[llm] provider`` and later features (a
    policy gate's own model) refer to. A ConfigError names what is missing."""
    entry = next((p for p in settings.llm.providers if p.name == name), None)
    if entry is None:
        known = ", ".join(p.name for p in settings.llm.providers) or "none configured"
        raise ConfigError(f"no [[llm.providers]] entry named {name!r} (named: {known})")
    key_secret = settings.provider_keys.get(name)
    if key_secret is None and not entry.api_key_env:  # no variable of its own: the kind's usual one
        key_secret = settings.anthropic_api_key if entry.kind == "anthropic" else settings.openai_api_key
    key = key_secret.get_secret_value() if key_secret is not None else None
    if entry.api_key_env and key is None and entry.kind != "scripted":
        raise ConfigError(f"provider {name!r}: ${entry.api_key_env} is not set; set it before starting Jupyter "
                          f"(or %env {entry.api_key_env}=… in the kernel)")  # fmt: skip
    llm = settings.llm
    max_tokens = entry.max_tokens or llm.max_tokens
    if entry.kind == "scripted":
        return ScriptedProvider(entry.replies or None)
    if entry.kind == "anthropic":
        from zeph_nb.agent.providers.anthropic import AnthropicProvider

        url = endpoint(settings, entry.base_url, "anthropic", f"provider {name!r}")
        return AnthropicProvider(entry.model, api_key=key, base_url=url, max_tokens=max_tokens,
                                 stream=llm.stream, timeout=llm.timeout_secs)  # fmt: skip
    from zeph_nb.agent.providers.openai_compat import OpenAICompatibleProvider

    if not entry.base_url or not entry.model:
        raise ConfigError(f"provider {name!r} (kind openai) needs base_url and model, e.g. http://localhost:11434/v1")
    endpoint(settings, entry.base_url, "openai", f"provider {name!r}")
    return OpenAICompatibleProvider(entry.base_url, entry.model, api_key=key, max_tokens=max_tokens,
                                    timeout=llm.timeout_secs,
                                    detect_reasoning=settings.agent.reasoning_model_detection)  # fmt: skip


def provider_from_settings(settings: Settings) -> Provider:
    """The provider ``[llm]`` names. ``auto``: an OpenAI-compatible server when ``base_url`` is set, else Claude
    when an Anthropic key is set, else the scripted model saying that no model is configured; a name of an
    ``[[llm.providers]]`` entry: that one."""
    llm = settings.llm
    choice = llm.provider
    if choice not in ("auto", "anthropic", "openai", "scripted"):
        return provider_named(settings, choice)
    if choice == "auto":
        if llm.base_url:
            choice = "openai"
        elif settings.anthropic_api_key is not None:
            choice = "anthropic"
        else:
            choice = "scripted"
    if choice == "scripted":
        return ScriptedProvider()
    if choice == "anthropic":
        from zeph_nb.agent.providers.anthropic import AnthropicProvider

        key = settings.anthropic_api_key.get_secret_value() if settings.anthropic_api_key else None
        url = endpoint(settings, llm.base_url, "anthropic", "[llm] provider anthropic")
        return AnthropicProvider(llm.model, api_key=key, base_url=url, max_tokens=llm.max_tokens,
                                 stream=llm.stream, timeout=llm.timeout_secs)  # fmt: skip
    from zeph_nb.agent.providers.openai_compat import OpenAICompatibleProvider

    if not llm.base_url or not llm.model:
        raise ConfigError('[llm] provider = "openai" needs base_url and model (e.g. http://localhost:11434/v1)')
    endpoint(settings, llm.base_url, "openai", "[llm] provider openai")
    key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else None
    return OpenAICompatibleProvider(llm.base_url, llm.model, api_key=key, max_tokens=llm.max_tokens,
                                    timeout=llm.timeout_secs,
                                    detect_reasoning=settings.agent.reasoning_model_detection)  # fmt: skip


def judge_from_settings(settings: Settings) -> Callable[[str, str], Awaitable[str]] | None:
    """The second model ``[gates.adversarial]`` asks (its named provider), as the gate wants it: system
    and prompt in, the reply's text out; None when the check is off."""
    config = settings.gates.adversarial
    if not config.enabled or not config.provider:
        return None
    provider = provider_named(settings, config.provider)

    async def judge(system: str, prompt: str) -> str:
        return await ask(provider, system, prompt, max_tokens=200)

    return judge


async def ask(provider: Provider, system: str, prompt: str, *, max_tokens: int) -> str:
    """One question to a helper model, without tools: the reply's text, read whole (nothing is streamed)."""
    from zeph_nb.agent.messages import Message, ModelRequest, TextBlock

    request = ModelRequest(system=system, messages=[Message("user", [TextBlock(prompt)])], tools=[],
                           max_tokens=max_tokens)  # fmt: skip

    async def ignore(_text: str) -> None:
        return None

    response = await provider.complete(request, ignore)
    return "".join(block.text for block in response.content if isinstance(block, TextBlock))
