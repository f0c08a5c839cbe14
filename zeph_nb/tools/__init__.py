"""What the model can call: the typed tool core and the built-in executors."""

from zeph_nb.tools.base import ToolArgs, ToolCall, ToolDef, ToolExecutor, ToolOutput, validate_params
from zeph_nb.tools.composite import CompositeExecutor
from zeph_nb.tools.registry import ToolRegistry

__all__ = [
    "CompositeExecutor",
    "ToolArgs",
    "ToolCall",
    "ToolDef",
    "ToolExecutor",
    "ToolOutput",
    "ToolRegistry",
    "validate_params",
]
