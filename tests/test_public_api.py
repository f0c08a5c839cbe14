"""The public surface: a pinned __all__, lazy attributes, and an import that stays cheap."""

from __future__ import annotations

import json
import subprocess
import sys

import zeph_nb

PUBLIC = [
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


def test_all_is_pinned() -> None:
    assert sorted(zeph_nb.__all__) == sorted(PUBLIC)


def test_every_public_name_resolves() -> None:
    for name in zeph_nb.__all__:
        assert getattr(zeph_nb, name) is not None, name
    assert callable(zeph_nb.safety.resolve_sandboxed)


def test_import_is_cheap() -> None:
    # `%load_ext zeph_nb` must not pay for pydantic (nor, later, anthropic, pandas or duckdb).
    heavy = ["pydantic", "wcmatch", "anthropic", "pandas", "duckdb", "IPython", "ipywidgets"]
    code = (
        f"import sys, json, zeph_nb\nprint(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {heavy!r})))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = json.loads(result.stdout)
    assert loaded == []


def test_unknown_attribute() -> None:
    import pytest

    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        _ = zeph_nb.Nope  # type: ignore[attr-defined]
