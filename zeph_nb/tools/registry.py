"""ToolRegistry: the tools one agent may call, one spec per name, whoever offers them.

Built-ins, installed plugins, MCP servers and a person's ``@zeph_nb.tool`` functions all register here (the
composite executor does it for its toolsets, ``tools/composite.py``): two that take one name is a ConfigError
naming both, because which one the model reached would depend on an order nobody sees. A person's function may not
take a name another tool has in any case either (``Bash`` beside ``bash``): the model would take one for the
other. Everything else reads the specs' traits from here (``ToolDef``), never a table of tool names.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from zeph_nb.errors import ConfigError
from zeph_nb.tools.base import ToolDef

__all__ = ["ToolRegistry"]

# How a person's @zeph_nb.tool function is named as an owner (``FunctionToolset.origin_of``).
PERSONS = "your function"


class ToolRegistry:
    """An ordered set of tool specs, unique by name; ``owner`` says who offered each (for a conflict's message)."""

    def __init__(self, tools: Iterable[ToolDef] = ()) -> None:
        self._tools: dict[str, ToolDef] = {}
        self._owners: dict[str, str] = {}
        for tool in tools:
            self.register(tool)

    def register(self, tool: ToolDef, owner: str = "") -> None:
        """Add ``tool``; a name already taken raises ConfigError naming both owners, and so does a person's
        function whose name differs from another tool's only in case."""
        first = self._owners.get(tool.name)
        if first is not None:
            fix = "rename one of them, or leave one out"
            if owner.startswith(PERSONS) or first.startswith(PERSONS):
                fix = f"give yours another name, e.g. @zeph_nb.tool(name='my_{tool.name}')"
            mine = f" ({first or 'one toolset'} and {owner or 'another'})"
            raise ConfigError(f"two toolsets define a tool named {tool.name!r}{mine}; {fix}")
        folded = tool.name.casefold()
        for name, other in self._owners.items():
            if name.casefold() == folded and (owner.startswith(PERSONS) or other.startswith(PERSONS)):
                yours, theirs = (tool.name, name) if owner.startswith(PERSONS) else (name, tool.name)
                person, by = (owner, other) if owner.startswith(PERSONS) else (other, owner)
                raise ConfigError(f"{person} offers a tool named {yours!r}, which only its case tells from the tool "
                                  f"{theirs!r} ({by or 'another toolset'}): a model would take one for the other; "
                                  f"give yours another name, e.g. @zeph_nb.tool(name='my_{theirs}')")  # fmt: skip
        self._tools[tool.name] = tool
        self._owners[tool.name] = owner

    def get(self, name: str) -> ToolDef | None:
        return self._tools.get(name)

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __iter__(self) -> Iterator[ToolDef]:
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    def schemas(self) -> list[dict[str, Any]]:
        """``{name, description, input_schema}`` for each tool: the shape native tool-use APIs take."""
        return [
            {"name": tool.name, "description": tool.description, "input_schema": tool.input_schema} for tool in self
        ]

    def render_catalog(self) -> str:
        """A plain-text catalog for a system prompt, for models without native tool use."""
        blocks = []
        for tool in self:
            schema = tool.input_schema
            required = set(schema.get("required", []))
            lines = [f"## {tool.name}", tool.description]
            for name, prop in schema.get("properties", {}).items():
                kind = _type_name(prop)
                need = "required" if name in required else f"optional, default {prop.get('default')!r}"
                desc = prop.get("description", "")
                lines.append(f"- {name} ({kind}, {need}){': ' + desc if desc else ''}")
            blocks.append("\n".join(lines))
        return "\n\n".join(blocks)


def _type_name(prop: dict[str, Any]) -> str:
    if "type" in prop:
        return str(prop["type"])
    if "anyOf" in prop:
        return " | ".join(str(option.get("type", "?")) for option in prop["anyOf"])
    if "enum" in prop:
        return " | ".join(repr(v) for v in prop["enum"])
    return "any"
