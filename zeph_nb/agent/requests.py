"""What one model request carries: the system prompt, the conversation, and the tools offered — every visible
one, or those ``[agent.tool_filter]`` chose for the run's prompt — with TAFC's thinking field in complex schemas."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from zeph_nb.agent import tafc
from zeph_nb.agent.messages import Message, ModelRequest, ToolUseBlock

if TYPE_CHECKING:
    from zeph_nb.agent.tool_filter import ToolFilter
    from zeph_nb.config import Settings
    from zeph_nb.tools.base import ToolDef

__all__ = ["SYSTEM_PROMPT", "build_request", "tool_filter_from_settings", "used_tools"]

SYSTEM_PROMPT = """\
You are {name}, an agent working inside a Jupyter kernel on the user's machine.
Working directory: {workdir}

To act, call a tool: a command or code written in a fenced block in your reply is shown to the user as text and \
never runs. Use the tools to look before you change anything, and prefer small, checkable steps. Some calls need \
the user's approval; if one is refused, say what you wanted to do and why instead of retrying it. Tool errors come \
back as a [tool_error] block with a category and a suggestion: follow the suggestion. Long outputs are shortened; \
an overflow:<id> in a result can be read in full with read_overflow. When you are done, answer briefly with what \
you did and what you found."""


def build_request(
    settings: Settings, workdir: Path, messages: Sequence[Message], tools: Sequence[ToolDef]
) -> ModelRequest:
    """The request for ``tools`` (already chosen): TAFC adds its field after the choice, as the seed orders it
    (the filter decides which tools, TAFC what their schemas ask), so only offered schemas are augmented."""
    config = settings.agent.tafc
    schemas = []
    for tool in tools:
        schema = tool.input_schema
        if config.enabled:
            schema = tafc.augment(schema, config.complexity_threshold)
        schemas.append({"name": tool.name, "description": tool.description, "input_schema": schema})
    system = SYSTEM_PROMPT.format(name=settings.agent.name, workdir=workdir)
    if settings.llm.system_prompt:
        system += "\n\n" + settings.llm.system_prompt
    return ModelRequest(system, list(messages), list(tools), schemas, settings.llm.max_tokens)


def used_tools(messages: Iterable[Message]) -> set[str]:
    """The tools the conversation has called: the filter never takes them away (``agent/tool_filter.py``). The
    loop keeps this set as it grows (``Conversation.used_tools``); this is what it must equal."""
    return {block.name for message in messages for block in message.content if isinstance(block, ToolUseBlock)}


def tool_filter_from_settings(settings: Settings) -> ToolFilter | None:
    """``[agent.tool_filter]`` built on its named provider's embeddings endpoint; None when it is off."""
    config = settings.agent.tool_filter
    if not config.enabled or not config.provider:
        return None
    from zeph_nb.agent.providers.embeddings import embeddings_named
    from zeph_nb.agent.tool_filter import ToolFilter

    embedder = embeddings_named(settings, config.provider, config.timeout_secs)
    return ToolFilter(config, embedder, label=f"{config.provider} ({embedder!r})")
