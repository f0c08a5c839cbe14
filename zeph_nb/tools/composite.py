"""CompositeExecutor: several executors behind one, asked in a fixed order; the first owner of a call wins."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.tools.base import ToolCall, ToolDef, ToolExecutor, ToolOutput
from zeph_nb.tools.registry import ToolRegistry

__all__ = ["CompositeExecutor"]


class CompositeExecutor:
    """Several executors (toolsets) as one: a call runs on the executor that defines its tool.

    Two executors may not define a tool of the same name: which one the model reached would depend on an order
    nobody sees, so that is a ConfigError here, naming both.

    ``hidden`` maps the names of tools turned off to the setting that did it: they are not offered, and a call to
    one (a model that remembers it from an earlier run) is refused with that setting named.
    """

    def __init__(self, executors: Sequence[ToolExecutor], *, hidden: Mapping[str, str] | None = None) -> None:
        self.executors: tuple[ToolExecutor, ...] = tuple(executors)
        self.hidden: dict[str, str] = dict(hidden or {})
        self.check_names()

    def check_names(self) -> ToolRegistry:
        """The tools of every executor registered once (``ToolRegistry``): ConfigError when two executors define
        one tool name (checked again after a toolset changed its set). Tools turned off are in it too."""
        registry = ToolRegistry()
        for executor in self.executors:
            for tool in executor.tool_definitions():
                registry.register(tool, owner=_name(executor, tool.name))
        return registry

    def tool_definitions(self) -> list[ToolDef]:
        seen: dict[str, ToolDef] = {}
        for executor in self.executors:
            for tool in executor.tool_definitions():
                if tool.name not in self.hidden:
                    seen.setdefault(tool.name, tool)
        return list(seen.values())

    def owner_of(self, tool_id: str) -> ToolExecutor | None:
        """The executor whose definitions include ``tool_id`` first, if any (none for a tool turned off)."""
        if tool_id in self.hidden:
            return None
        for executor in self.executors:
            if isinstance(executor, CompositeExecutor):
                # A nested composite answers for itself, as its definitions would (hidden tools excluded): listing
                # them lists every toolset in it, a skills folder scan among them (~20 us), for a tool its first
                # member has, twice a call.
                if executor.owner_of(tool_id) is not None:
                    return executor
            elif any(tool.name == tool_id for tool in executor.tool_definitions()):
                return executor
        return None

    async def execute(self, call: ToolCall) -> ToolOutput:
        """Run ``call`` on its owner; a tool no executor owns is a ToolNotFound error, never a silent None.

        Dispatch goes by the definitions, so composites nest: an inner composite is only asked for its own tools.
        """
        owner = self.owner_of(call.tool_id)
        output = await owner.execute(call) if owner is not None else None
        if output is None and call.tool_id in self.hidden:
            raise ToolError(ToolErrorCategory.TOOL_NOT_FOUND,
                            f"the {call.tool_id} tool is turned off ({self.hidden[call.tool_id]}); use another "
                            "tool or ask the person to turn it on")  # fmt: skip
        if output is None:
            names = ", ".join(sorted(tool.name for tool in self.tool_definitions())) or "none"
            raise ToolError(
                ToolErrorCategory.TOOL_NOT_FOUND, f"unknown tool {call.tool_id!r}; available tools: {names}"
            )
        return output

    def requires_confirmation(self, call: ToolCall) -> bool:
        owner = self.owner_of(call.tool_id)
        return owner.requires_confirmation(call) if owner is not None else False


def _name(executor: ToolExecutor, tool: str) -> str:
    """Who defines ``tool``: a toolset's own words when it has them (your function ...), else its class."""
    origin_of = getattr(executor, "origin_of", None)
    if callable(origin_of):
        return str(origin_of(tool))
    if isinstance(executor, CompositeExecutor):
        inner = executor.owner_of(tool)
        if inner is not None:
            return _name(inner, tool)
    return type(executor).__name__
