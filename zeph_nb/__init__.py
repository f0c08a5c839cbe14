"""zeph-nb: a notebook-native agent toolkit.

Names are loaded on first use: ``import zeph_nb`` stays cheap, so ``%load_ext zeph_nb`` does not pay for
pydantic (or, later, anthropic, pandas and duckdb) until something needs them.
"""

from __future__ import annotations

import importlib
import warnings
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# The public names, each with the module that defines it: __all__ is made from this and _FACES, and
# tests/test_public_api.py checks against them. Everything else is reached through its own module.
_EXPORTS: dict[str, str] = {
    # running an agent
    "Agent": "zeph_nb.agent.loop",
    "RunResult": "zeph_nb.agent.result",
    "CallOutcome": "zeph_nb.gates.call",
    "Settings": "zeph_nb.config",
    # models
    "AnthropicProvider": "zeph_nb.agent.providers.anthropic",
    "OpenAICompatibleProvider": "zeph_nb.agent.providers.openai_compat",
    "ScriptedProvider": "zeph_nb.agent.providers.scripted",
    # who answers an approval
    "ApprovalRequest": "zeph_nb.gates.approval.approvers",
    "ApprovalDecision": "zeph_nb.gates.approval.approvers",
    "Approver": "zeph_nb.gates.approval.approvers",
    "AutoApprove": "zeph_nb.gates.approval.approvers",
    "ConsoleApprover": "zeph_nb.gates.approval.approvers",
    "DenyAll": "zeph_nb.gates.approval.approvers",
    "InboxApprover": "zeph_nb.gates.approval.inbox",
    "ScriptedApprover": "zeph_nb.gates.approval.approvers",
    # your own functions as tools
    "tool": "zeph_nb.tools.functions",
    # calling tools without a model (the tutorials' first steps)
    "ToolCall": "zeph_nb.tools.base",
    "FileExecutor": "zeph_nb.tools.files.executor",
    "builtin_executor": "zeph_nb.tools.builtin",
    "build_chain": "zeph_nb.gates.chain",
    # errors
    "ZephError": "zeph_nb.errors",
    "ConfigError": "zeph_nb.errors",
    "ModelError": "zeph_nb.errors",
    "ToolError": "zeph_nb.errors",
    "ToolErrorCategory": "zeph_nb.errors",
    "SandboxViolation": "zeph_nb.errors",  # what the file tools raise for a path outside the sandbox
}
# The public faces of the layers below: zeph_nb.audit (pandas over the audit log), zeph_nb.filters, zeph_nb.safety
# (the validators), zeph_nb.tools (the types a custom tool is written with).
_FACES = frozenset({"audit", "filters", "safety", "tools"})
# Names this module had before it kept to the ones above: they still work, with a DeprecationWarning that says
# where each lives now.
_MOVED: dict[str, tuple[str, str]] = {
    "Decision": ("zeph_nb.gates.approval.approvers", "ApprovalDecision"),
    "CompositeExecutor": ("zeph_nb.tools", "CompositeExecutor"),
    "ToolDef": ("zeph_nb.tools", "ToolDef"),
    "ToolExecutor": ("zeph_nb.tools", "ToolExecutor"),
    "ToolOutput": ("zeph_nb.tools", "ToolOutput"),
    "ToolRegistry": ("zeph_nb.tools", "ToolRegistry"),
    "ShellExecutor": ("zeph_nb.tools.shell.executor", "ShellExecutor"),
    "DiagnosticsExecutor": ("zeph_nb.tools.diagnostics", "DiagnosticsExecutor"),
    "TimeExecutor": ("zeph_nb.tools.time", "TimeExecutor"),
    "GateChain": ("zeph_nb.gates.chain", "GateChain"),
    "ToolErrorFeedback": ("zeph_nb.errors", "ToolErrorFeedback"),
}
_MOVED_MODULES = frozenset({"agent", "gates", "errors", "config", "store"})

# What `from zeph_nb import *` gives: the names above, the faces, the version and the extension hook
# (tests/test_public_api.py checks it against _EXPORTS and _FACES).
__all__ = [
    "Agent",
    "AnthropicProvider",
    "ApprovalDecision",
    "ApprovalRequest",
    "Approver",
    "AutoApprove",
    "CallOutcome",
    "ConfigError",
    "ConsoleApprover",
    "DenyAll",
    "FileExecutor",
    "InboxApprover",
    "ModelError",
    "OpenAICompatibleProvider",
    "RunResult",
    "SandboxViolation",
    "ScriptedApprover",
    "ScriptedProvider",
    "Settings",
    "ToolCall",
    "ToolError",
    "ToolErrorCategory",
    "ZephError",
    "__version__",
    "audit",
    "build_chain",
    "builtin_executor",
    "filters",
    "load_ipython_extension",
    "safety",
    "tool",
    "tools",
]

if TYPE_CHECKING:
    from zeph_nb import audit, filters, safety, tools
    from zeph_nb.agent.loop import Agent
    from zeph_nb.agent.providers.anthropic import AnthropicProvider
    from zeph_nb.agent.providers.openai_compat import OpenAICompatibleProvider
    from zeph_nb.agent.providers.scripted import ScriptedProvider
    from zeph_nb.agent.result import RunResult
    from zeph_nb.config import Settings
    from zeph_nb.errors import ConfigError, ModelError, SandboxViolation, ToolError, ToolErrorCategory, ZephError
    from zeph_nb.gates.approval import (
        ApprovalDecision,
        ApprovalRequest,
        Approver,
        AutoApprove,
        ConsoleApprover,
        DenyAll,
        ScriptedApprover,
    )
    from zeph_nb.gates.approval.inbox import InboxApprover
    from zeph_nb.gates.call import CallOutcome
    from zeph_nb.gates.chain import build_chain
    from zeph_nb.tools.base import ToolCall
    from zeph_nb.tools.builtin import builtin_executor
    from zeph_nb.tools.files.executor import FileExecutor
    from zeph_nb.tools.functions import tool


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext zeph_nb``: register the ``zeph`` magics (nothing heavy is imported until the first run)."""
    from zeph_nb.notebook.magics import load_ipython_extension as load

    load(ipython)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        value = getattr(importlib.import_module(_EXPORTS[name]), name)
        globals()[name] = value
        return value
    if name in _FACES:
        return importlib.import_module(f"zeph_nb.{name}")
    if name in _MOVED:
        module, new = _MOVED[name]
        said = f"{module}.{new}" if new != name else f"from {module} import {name}"
        warnings.warn(f"zeph_nb.{name} is no longer a top-level name; use {said}", DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(module), new)
    if name in _MOVED_MODULES:  # a subpackage, not a public face: reached as zeph_nb.<name> by import, quietly
        return importlib.import_module(f"zeph_nb.{name}")
    raise AttributeError(f"module 'zeph_nb' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
