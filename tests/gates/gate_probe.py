"""A real tool for chain tests: it counts its runs and fails when told to (the composite runs it like any other)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.tools.base import SingleToolExecutor, ToolArgs, ToolCall, ToolDef, ToolOutput


class ProbeArgs(ToolArgs):
    text: str = Field("x", max_length=100)
    count: int = 1


class Probe(SingleToolExecutor):
    def __init__(
        self,
        name: str = "probe",
        *,
        failures: list[ToolErrorCategory | Exception] | None = None,
        mutates: bool = False,
        cacheable: bool = False,
        retry_after: float | None = None,
    ) -> None:
        self.tool = ToolDef(name, "A probe for tests.", ProbeArgs, mutates=mutates, cacheable=cacheable)
        self.failures = list(failures or [])
        self.retry_after = retry_after
        self.runs = 0

    async def run(self, args: Any, call: ToolCall) -> ToolOutput:
        self.runs += 1
        if self.failures:
            failure = self.failures.pop(0)
            if isinstance(failure, Exception):
                raise failure
            details = {"retry_after": self.retry_after} if self.retry_after else {}
            raise ToolError(failure, f"scripted {failure.label}", details=details)
        summary = f"{self.tool.name} ran with {args.text} (run {self.runs})"
        return ToolOutput(self.tool.name, summary, call_id=call.call_id)
