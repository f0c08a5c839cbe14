"""A call prepared once: the first thing the gates do with it, and the only place its facts are worked out.

``Preparer.prepare`` finds the tool the call names (unknown or turned off: TOOL_NOT_FOUND, naming what is there or
the setting that turned it off), validates the arguments against the tool's model, parses a command line (the one
parse of it), reads the subjects permission rules are matched against and, for a command, works out its scope:
the sandbox, the network hosts and the environment it would get. The result is a frozen ``Prepared`` every later
gate reads; the executor is handed the same parse and scope (``ToolCall.analysis``/``scope``), so nothing on the
way from the model to the subprocess decides a call twice.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from zeph_nb.config import Settings
from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.gates.call import GateCall, Handler, Prepared
from zeph_nb.gates.policy.subjects import subjects_of
from zeph_nb.shell import ShellClassifier
from zeph_nb.tools.base import ToolCall, ToolDef, ToolOutput, validate_params
from zeph_nb.tools.containment import scope_key, scope_of

__all__ = ["PrepareGate", "Preparer"]


class Preparer:
    """Prepares the calls of one conversation: its tools (``tools``, by name), the settings' classifier, the
    working directory, the tools the settings turned off (name → the setting, for the refusal) and the names to
    list when a call names no tool (``visible``: what the model may call now)."""

    def __init__(
        self,
        settings: Settings,
        *,
        tools: Mapping[str, ToolDef],
        classifier: ShellClassifier,
        workdir: Path,
        turned_off: Mapping[str, str],
        visible: Callable[[], Sequence[str]],
    ) -> None:
        self.settings, self.tools, self.classifier = settings, tools, classifier
        self.workdir, self.turned_off, self.visible = workdir, turned_off, visible
        self.scope_key = scope_key(settings, workdir)  # on each scope: an executor with other settings makes its own

    def tool(self, name: str) -> ToolDef:
        """The tool called ``name``; TOOL_NOT_FOUND naming the setting that turned it off, or what there is."""
        tool = self.tools.get(name)
        if tool is not None:
            return tool
        for tool in self.tools.values():  # another name the tool answers to (bash's "run_shell", the seed's)
            if name in tool.aliases:
                return tool
        if name in self.turned_off:
            raise ToolError(ToolErrorCategory.TOOL_NOT_FOUND,
                            f"the {name} tool is turned off ({self.turned_off[name]}); use another tool or ask the "
                            "person to turn it on")  # fmt: skip
        names = ", ".join(self.visible()) or "none"
        raise ToolError(ToolErrorCategory.TOOL_NOT_FOUND, f"unknown tool {name!r}; available tools: {names}")

    def prepare(self, call: ToolCall, tool: ToolDef | None = None) -> Prepared:
        """``call`` prepared: validated, parsed once, its subjects read and, for a command, scoped once."""
        tool = tool if tool is not None else self.tool(call.tool_id)
        args = validate_params(tool, call.params)
        analysis = scope = None
        if tool.subject_kind == "command" and tool.subject:
            analysis = self.classifier.analyze(str(call.params.get(tool.subject[0])))
            scope = scope_of(self.settings, args, analysis, self.workdir, key=self.scope_key)
        subjects = subjects_of(tool, call.params, workdir=self.workdir, analysis=analysis)
        # The call carries what was worked out, so whoever is handed it (the executor's own say on confirmation,
        # the executor itself) reads this parse and scope instead of making its own.
        call = dataclasses.replace(call, args=args, analysis=(self.classifier.key, analysis) if analysis else None,
                                   scope=scope)  # fmt: skip
        return Prepared(call, tool, args, subjects, analysis, scope)


class PrepareGate:
    """Prepares the call (``Preparer``) before every gate that reads it; the tool is known to the audit even when
    the arguments then fail validation."""

    def __init__(self, inner: Handler, preparer: Preparer) -> None:
        self.inner, self.preparer = inner, preparer

    async def handle(self, gc: GateCall) -> ToolOutput:
        gc.tool = self.preparer.tool(gc.call.tool_id)
        if gc.tool.name != gc.call.tool_id:  # called by an alias: every gate, and the audit, see the tool that runs
            gc.call = dataclasses.replace(gc.call, tool_id=gc.tool.name)
        gc.ctx = self.preparer.prepare(gc.call, gc.tool)
        gc.trace.clock["prepared"] = time.perf_counter()
        return await self.inner.handle(gc)
