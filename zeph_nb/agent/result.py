"""What a run gives back: ``RunResult`` (its text, why it stopped, every tool call, tokens), the stop reasons
and token ``Usage``. Front-ends and events import these from here; nothing here imports the loop."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from zeph_nb.gates.call import CallOutcome

__all__ = ["RunResult", "StopReason", "Usage"]

StopReason = Literal[
    "completed",  # the model answered without asking for tools
    "max_tokens",  # the model's reply was cut at [llm] max_tokens
    "max_iterations",  # [agent] max_tool_iterations rounds of tool calls
    "doom_loop",  # [agent] doom_loop_threshold rounds in a row with identical tool output
    "context_budget",  # the next request would pass 80% of [agent] context_budget_tokens
    "quota",  # [gates.quota] max_tool_calls_per_session used up
    "cancelled",  # Stop / agent.stop()
    "model_error",  # the model could not be asked (after retries)
]


@dataclass
class Usage:
    """Tokens as the provider counted them (estimated for the scripted model)."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0

    def add(self, other: Usage) -> None:
        self.input_tokens += other.input_tokens
        self.output_tokens += other.output_tokens
        self.cache_read_tokens += other.cache_read_tokens
        self.cache_write_tokens += other.cache_write_tokens

    @property
    def total(self) -> int:
        return self.input_tokens + self.output_tokens + self.cache_read_tokens + self.cache_write_tokens


@dataclass
class RunResult:
    """What one run did. ``tool_calls`` holds every call with its decision, category, sizes and duration."""

    text: str
    stop_reason: StopReason
    tool_calls: list[CallOutcome] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    iterations: int = 0
    conversation_id: str = ""
    run_id: str = ""  # what %zeph undo RUN_ID names
    detail: str = ""  # why it stopped, in words a person reads
    warnings: list[str] = field(default_factory=list)  # [agent] hallucination_detection: claims with nothing behind

    def __repr__(self) -> str:
        return (
            f"RunResult(stop_reason={self.stop_reason!r}, tool_calls={len(self.tool_calls)}, "
            f"iterations={self.iterations}, text={self.text[:60]!r})"
        )
