"""Model providers: Claude (anthropic SDK), OpenAI-compatible servers (httpx), and the offline scripted model.

Each module imports its SDK on first use, so choosing a provider costs nothing until a request is made.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from zeph_nb.agent.providers.scripted import ScriptedProvider
from zeph_nb.config import Settings
from zeph_nb.errors import ConfigError

if TYPE_CHECKING:
    from zeph_nb.agent.messages import Provider

__all__ = ["ScriptedProvider", "provider_from_settings"]


def provider_from_settings(settings: Settings) -> Provider:
    """The provider ``[llm]`` names. ``auto``: an OpenAI-compatible server when ``base_url`` is set, else Claude
    when an Anthropic key is set, else the scripted model saying that no model is configured."""
    llm = settings.llm
    choice = llm.provider
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
        return AnthropicProvider(llm.model, api_key=key, base_url=llm.base_url, max_tokens=llm.max_tokens,
                                 stream=llm.stream, timeout=llm.timeout_secs)  # fmt: skip
    from zeph_nb.agent.providers.openai_compat import OpenAICompatibleProvider

    if not llm.base_url or not llm.model:
        raise ConfigError('[llm] provider = "openai" needs base_url and model (e.g. http://localhost:11434/v1)')
    key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else None
    return OpenAICompatibleProvider(llm.base_url, llm.model, api_key=key, max_tokens=llm.max_tokens,
                                    timeout=llm.timeout_secs)  # fmt: skip
