"""What the model can call: the typed tool core, the built-in executors, and your own functions as tools."""

from zeph_nb.tools.base import (
    SingleToolExecutor,
    Tool,
    ToolArgs,
    ToolCall,
    ToolDef,
    ToolExecutor,
    ToolOutput,
    validate_params,
)
from zeph_nb.tools.composite import CompositeExecutor
from zeph_nb.tools.function_toolset import FunctionToolset
from zeph_nb.tools.functions import FunctionTool, registered_tools, tool, unregister
from zeph_nb.tools.registry import ToolRegistry

__all__ = [
    "CompositeExecutor",
    "FunctionTool",
    "FunctionToolset",
    "SingleToolExecutor",
    "Tool",
    "ToolArgs",
    "ToolCall",
    "ToolDef",
    "ToolExecutor",
    "ToolOutput",
    "ToolRegistry",
    "registered_tools",
    "tool",
    "unregister",
    "validate_params",
]
