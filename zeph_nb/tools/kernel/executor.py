"""The kernel tools: the agent sees the person's variables, runs code in their namespace, proposes a cell.

Offered only when the agent runs inside IPython: the notebook layer hands over a ``Kernel`` (the namespace, a way
to run code like a cell, a way to put a cell below the ``%%zeph`` cell); this layer knows nothing of IPython.

``list_variables`` and ``inspect_variable`` only read, and never ask. ``run_python`` runs in the kernel process,
outside every OS sandbox, with everything the kernel can reach: it asks every time unless a permission rule for
``run_python`` allows its code text, and never offers "Always allow" (``ToolDef.in_kernel``). ``propose_cell``
only writes a cell for the person to read and run; it changes nothing until they do, so it does not ask.
"""

from __future__ import annotations

import traceback
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import Field

from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.tools.base import ToolArgs, ToolCall, ToolDef, ToolOutput, checked_args
from zeph_nb.tools.kernel.describe import describe_variable, hidden_name, list_variables

__all__ = ["KERNEL_TOOLS", "CodeResult", "Kernel", "KernelExecutor", "traceback_tail"]

MAX_TIMEOUT = 3600.0


@dataclass
class CodeResult:
    """What running code like a cell gave: its printed output, what it displayed (as text), the last
    expression's value (as text), how many images it showed, and the exception it ended with."""

    stdout: str = ""
    stderr: str = ""
    displayed: list[str] = field(default_factory=list)
    value: str | None = None
    images: int = 0
    error: BaseException | None = None


class Kernel(Protocol):
    """What the notebook layer gives the kernel tools."""

    def namespace(self) -> Mapping[str, Any]: ...

    async def run(self, code: str, timeout: float, call_id: str) -> CodeResult: ...

    async def propose(self, code: str, call_id: str) -> str: ...


class ListVariablesArgs(ToolArgs):
    pass


class InspectVariableArgs(ToolArgs):
    name: str = Field(description="a variable's name in the notebook (as list_variables shows it)", min_length=1)
    rows: int = Field(5, ge=0, le=100, description="rows or items to show (head), 0-100")


class RunPythonArgs(ToolArgs):
    code: str = Field(
        description="Python to run in the notebook's namespace, like a cell: its output, and the value of its last "
        "expression, come back; the variables it sets stay for the person's next cells",
        min_length=1,
    )
    timeout: float = Field(60, gt=0, le=MAX_TIMEOUT, description="seconds before it is interrupted (default 60)")


class ProposeCellArgs(ToolArgs):
    code: str = Field(description="the code of a new cell, put below the %%zeph cell for the person", min_length=1)


LIST_VARIABLES = ToolDef(
    "list_variables",
    "List the variables in the person's notebook (name, type, shape or length, memory) and the functions and "
    "classes they defined. Read-only.",
    ListVariablesArgs,
    enabled_by="kernel_enabled",
)
INSPECT_VARIABLE = ToolDef(
    "inspect_variable",
    "Describe one variable of the person's notebook: a DataFrame's shape, dtypes, null counts, head and describe(); "
    "an array's shape, dtype and statistics; a list's or dict's length and first items; else its type, docstring "
    "and repr. Read-only.",
    InspectVariableArgs,
    subject=("name",),
    enabled_by="kernel_enabled",
)
RUN_PYTHON = ToolDef(
    "run_python",
    "Run Python code in the person's notebook kernel, in their namespace (it can read and change their variables). "
    "Returns stdout, stderr, what it displayed and the last expression's value. The person approves each run.",
    RunPythonArgs,
    subject=("code",),
    subject_kind="code",
    mutates=True,
    in_kernel=True,
    enabled_by="kernel_enabled",
)
PROPOSE_CELL = ToolDef(
    "propose_cell",
    "Put a new code cell below the %%zeph cell for the person to review and run themselves; it is never run for "
    "them. Use it for code they should keep in the notebook.",
    ProposeCellArgs,
    enabled_by="kernel_enabled",
)
KERNEL_TOOLS = (LIST_VARIABLES, INSPECT_VARIABLE, RUN_PYTHON, PROPOSE_CELL)
_FRAMES = 3  # the last frames of a traceback the model reads: where it failed, not the kernel's own machinery


def traceback_tail(error: BaseException, frames: int = _FRAMES) -> str:
    """The exception as Python prints it, with at most ``frames`` frames: the first (the code's own line that
    failed) and the last ones (where it finally broke, often inside a library)."""
    stack = traceback.extract_tb(error.__traceback__)
    lines = []
    if frames and stack:
        lines.append("Traceback (most recent call last):\n")
        if len(stack) > frames:
            skipped = len(stack) - frames
            lines += traceback.StackSummary.from_list(stack[:1]).format()
            lines.append(f"  … {skipped} frame{'s' if skipped > 1 else ''} …\n")
            lines += traceback.StackSummary.from_list(stack[len(stack) - frames + 1 :]).format()
        else:
            lines += stack.format()
    lines += traceback.format_exception_only(type(error), error)
    return "".join(lines).rstrip()


def _result_text(result: CodeResult) -> str:
    parts = []
    if result.stdout:
        parts.append(f"stdout:\n{result.stdout.rstrip()}")
    if result.stderr:
        parts.append(f"stderr:\n{result.stderr.rstrip()}")
    for shown in result.displayed:
        parts.append(f"displayed:\n{shown.rstrip()}")
    if result.images:
        parts.append(f"[{result.images} image{'s' if result.images > 1 else ''} shown to the person in the transcript]")
    if result.value is not None:
        parts.append(f"value:\n{result.value}")
    return "\n".join(parts) if parts else "(ran; no output and no value)"


class KernelExecutor:
    """The four kernel tools over one ``Kernel``."""

    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel

    def tool_definitions(self) -> Sequence[ToolDef]:
        return KERNEL_TOOLS

    def requires_confirmation(self, call: ToolCall) -> bool:
        return call.tool_id == RUN_PYTHON.name  # every run asks, unless a rule for its code text allows it

    async def execute(self, call: ToolCall) -> ToolOutput | None:
        tool = next((t for t in KERNEL_TOOLS if t.name == call.tool_id), None)
        if tool is None:
            return None
        args = checked_args(tool, call)
        try:
            if isinstance(args, InspectVariableArgs):
                return self._inspect(call, args)
            if isinstance(args, RunPythonArgs):
                return await self._run(call, args)
            if isinstance(args, ProposeCellArgs):
                said = await self.kernel.propose(args.code, call.call_id)
                return ToolOutput(tool.name, said, raw={"code": args.code, "result": said}, call_id=call.call_id)
            text = list_variables(self.kernel.namespace())
            return ToolOutput(tool.name, text, raw={"variables": text}, call_id=call.call_id)
        except ToolError as e:
            return ToolOutput.from_error(call, e)

    def _inspect(self, call: ToolCall, args: InspectVariableArgs) -> ToolOutput:
        namespace = self.kernel.namespace()
        if args.name not in namespace or hidden_name(args.name, namespace[args.name]):
            known = [n for n, v in namespace.items() if not hidden_name(n, v)]
            close = ", ".join(sorted(known)[:30]) or "none yet"
            raise ToolError(ToolErrorCategory.INVALID_PARAMETERS,
                            f"no variable {args.name!r} in the notebook; its variables: {close}")  # fmt: skip
        text = describe_variable(args.name, namespace[args.name], args.rows)
        return ToolOutput(INSPECT_VARIABLE.name, text, raw={"name": args.name, "description": text},
                          call_id=call.call_id)  # fmt: skip

    async def _run(self, call: ToolCall, args: RunPythonArgs) -> ToolOutput:
        result = await self.kernel.run(args.code, args.timeout, call.call_id)
        text = _result_text(result)
        raw: dict[str, Any] = {"code": args.code, "stdout": result.stdout, "stderr": result.stderr,
                               "displayed": result.displayed, "value": result.value,
                               "images": result.images}  # fmt: skip
        error = result.error
        if error is None:
            return ToolOutput(RUN_PYTHON.name, text, raw=raw, call_id=call.call_id)
        if isinstance(error, TimeoutError):
            category = ToolErrorCategory.TIMEOUT
            message = f"the code was interrupted after {args.timeout:g} s (timeout); what it printed before:\n{text}"
        elif isinstance(error, KeyboardInterrupt):
            category = ToolErrorCategory.CANCELLED
            message = f"the person interrupted the kernel while the code ran; what it printed before:\n{text}"
        elif isinstance(error, SyntaxError):
            category = ToolErrorCategory.INVALID_PARAMETERS
            message = f"the code does not parse:\n{traceback_tail(error, 0)}"
        else:
            # The code's own failure: the same code fails the same way again, so it is not retried.
            category = ToolErrorCategory.PERMANENT_FAILURE
            message = f"the code raised:\n{traceback_tail(error)}"
            if text != "(ran; no output and no value)":
                message += f"\nbefore that:\n{text}"
        raw["error"] = f"{type(error).__name__}: {error}"
        failed = ToolOutput.from_error(call, ToolError(category, message))
        return ToolOutput(RUN_PYTHON.name, failed.summary, raw=raw, call_id=call.call_id, error=failed.error)
