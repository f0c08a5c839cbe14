"""zeph-nb: a notebook-native agent toolkit.

Names are loaded on first use: ``import zeph_nb`` stays cheap, so ``%load_ext zeph_nb`` does not pay for
pydantic (or, later, anthropic, pandas and duckdb) until something needs them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# public name -> module that defines it
_EXPORTS: dict[str, str] = {
    "Settings": "zeph_nb.config",
    "ZephError": "zeph_nb.errors",
    "ConfigError": "zeph_nb.errors",
    "ToolError": "zeph_nb.errors",
    "SandboxViolation": "zeph_nb.errors",
    "ToolErrorCategory": "zeph_nb.errors",
    "ToolErrorFeedback": "zeph_nb.errors",
    "ToolCall": "zeph_nb.tools.base",
    "ToolDef": "zeph_nb.tools.base",
    "ToolOutput": "zeph_nb.tools.base",
    "ToolExecutor": "zeph_nb.tools.base",
    "CompositeExecutor": "zeph_nb.tools.composite",
    "ToolRegistry": "zeph_nb.tools.registry",
    "FileExecutor": "zeph_nb.tools.files.executor",
    "ShellExecutor": "zeph_nb.tools.shell.executor",
    "DiagnosticsExecutor": "zeph_nb.tools.diagnostics",
    "TimeExecutor": "zeph_nb.tools.time",
    "builtin_executor": "zeph_nb.tools.builtin",
    "ApprovalRequest": "zeph_nb.gates.approval",
    "Approver": "zeph_nb.gates.approval",
    "AutoApprove": "zeph_nb.gates.approval",
    "ConsoleApprover": "zeph_nb.gates.approval",
    "Decision": "zeph_nb.gates.approval",
    "DenyAll": "zeph_nb.gates.approval",
    "ScriptedApprover": "zeph_nb.gates.approval",
    "InboxApprover": "zeph_nb.gates.inbox",
    "build_chain": "zeph_nb.gates.chain",
    "GateChain": "zeph_nb.gates.chain",
    "CallOutcome": "zeph_nb.gates.call",
    "Agent": "zeph_nb.agent.loop",
    "RunResult": "zeph_nb.agent.result",
    "ScriptedProvider": "zeph_nb.agent.providers.scripted",
    "AnthropicProvider": "zeph_nb.agent.providers.anthropic",
    "OpenAICompatibleProvider": "zeph_nb.agent.providers.openai_compat",
    "ModelError": "zeph_nb.errors",
}
_SUBMODULES = frozenset({"safety", "errors", "config", "tools", "audit", "store", "filters", "gates", "agent"})

__all__ = [
    "Agent",
    "AnthropicProvider",
    "ApprovalRequest",
    "Approver",
    "AutoApprove",
    "CallOutcome",
    "CompositeExecutor",
    "ConfigError",
    "ConsoleApprover",
    "Decision",
    "DenyAll",
    "DiagnosticsExecutor",
    "FileExecutor",
    "GateChain",
    "InboxApprover",
    "ModelError",
    "OpenAICompatibleProvider",
    "RunResult",
    "SandboxViolation",
    "ScriptedApprover",
    "ScriptedProvider",
    "Settings",
    "ShellExecutor",
    "TimeExecutor",
    "ToolCall",
    "ToolDef",
    "ToolError",
    "ToolErrorCategory",
    "ToolErrorFeedback",
    "ToolExecutor",
    "ToolOutput",
    "ToolRegistry",
    "ZephError",
    "__version__",
    "agent",
    "audit",
    "build_chain",
    "builtin_executor",
    "filters",
    "gates",
    "safety",
]

if TYPE_CHECKING:
    from zeph_nb import agent, audit, filters, gates, safety
    from zeph_nb.agent.loop import Agent
    from zeph_nb.agent.providers.anthropic import AnthropicProvider
    from zeph_nb.agent.providers.openai_compat import OpenAICompatibleProvider
    from zeph_nb.agent.providers.scripted import ScriptedProvider
    from zeph_nb.agent.result import RunResult
    from zeph_nb.config import Settings
    from zeph_nb.errors import (
        ConfigError,
        ModelError,
        SandboxViolation,
        ToolError,
        ToolErrorCategory,
        ToolErrorFeedback,
        ZephError,
    )
    from zeph_nb.gates.approval import (
        ApprovalRequest,
        Approver,
        AutoApprove,
        ConsoleApprover,
        Decision,
        DenyAll,
        ScriptedApprover,
    )
    from zeph_nb.gates.call import CallOutcome
    from zeph_nb.gates.chain import GateChain, build_chain
    from zeph_nb.gates.inbox import InboxApprover
    from zeph_nb.tools.base import ToolCall, ToolDef, ToolExecutor, ToolOutput
    from zeph_nb.tools.builtin import builtin_executor
    from zeph_nb.tools.composite import CompositeExecutor
    from zeph_nb.tools.diagnostics import DiagnosticsExecutor
    from zeph_nb.tools.files.executor import FileExecutor
    from zeph_nb.tools.registry import ToolRegistry
    from zeph_nb.tools.shell.executor import ShellExecutor
    from zeph_nb.tools.time import TimeExecutor


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext zeph_nb``: register the ``zeph`` magics (nothing heavy is imported until the first run)."""
    from zeph_nb.notebook.magics import load_ipython_extension as load

    load(ipython)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        value = getattr(importlib.import_module(_EXPORTS[name]), name)
        globals()[name] = value
        return value
    if name in _SUBMODULES:
        return importlib.import_module(f"zeph_nb.{name}")
    raise AttributeError(f"module 'zeph_nb' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
