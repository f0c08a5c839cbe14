"""What the agent loop gets from the keys that name helper models or check the model's output: parameter
reformatting (``[gates.retry] parameter_reformat_provider``), compaction (``[agent] compress_provider``) and
hallucination detection (``[agent] hallucination_detection``). One object, so the loop calls each in one line.

A helper is an ``[[llm.providers]]`` entry, built when the agent is (a name that is not there is a ConfigError
then, as for the adversarial policy check).
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Callable, Sequence
from typing import Any

from zeph_nb.agent.conversation import Conversation, Mark
from zeph_nb.agent.events import ToolCallFinished
from zeph_nb.agent.messages import Message
from zeph_nb.agent.providers import provider_named
from zeph_nb.agent.result import RunResult
from zeph_nb.config import Settings
from zeph_nb.gates.call import CallOutcome
from zeph_nb.gates.chain import GateChain
from zeph_nb.tools.base import ToolCall

__all__ = ["Assist"]

log = logging.getLogger("zeph_nb.agent")

REFORMAT_TIMEOUT_SECS = 30.0  # when [gates.retry] budget_secs is 0 ("no limit"), one helper call still ends


class Assist:
    """The helper models and checks of one agent."""

    def __init__(self, settings: Settings, chain: GateChain) -> None:
        self.settings, self.chain = settings, chain
        reformat, compress = settings.gates.retry.parameter_reformat_provider, settings.agent.compress_provider
        self.reformatter = provider_named(settings, reformat) if reformat else None
        self.compressor = provider_named(settings, compress) if compress else None

    async def execute(self, call: ToolCall, emit: Callable[[Any], None]) -> CallOutcome:
        """Run ``call`` through the chain; a call refused for its parameters is reformatted once, when a helper is
        named, and its corrected form runs through the chain as a call of its own."""
        outcome = await self.chain.execute(call)
        tool = self.chain.tool(call.tool_id)
        if self.reformatter is None or tool is None or outcome.category is None:
            return outcome
        if not outcome.category.needs_parameter_reformat:
            return outcome
        emit(ToolCallFinished(outcome))  # the refused call keeps its card and audit row
        # The helpers' modules are imported by their first use, not by every new Agent (most name no helper).
        from zeph_nb.agent.reformat import corrected_arguments

        budget = self.settings.gates.retry.budget_secs or REFORMAT_TIMEOUT_SECS
        fixed = await corrected_arguments(self.reformatter, tool, call.params, outcome.text, timeout=budget)
        if fixed is None:
            return outcome
        name = self.settings.gates.retry.parameter_reformat_provider
        log.info("zeph-nb: %s's parameters were reformatted by %s", tool.name, name)
        again = dataclasses.replace(call, params=fixed, call_id=f"{call.call_id}-reformat", rewritten_by=name)
        retried = await self.chain.execute(again)
        shown = json.dumps(fixed, ensure_ascii=False, default=str)
        note = f"[your parameters were refused; {name} reformatted them to {shown} and the call was sent again]\n"
        return dataclasses.replace(retried, text=note + retried.text)

    async def compact(self, conversation: Conversation, before: Mark) -> Mark | None:
        """Summarise the runs before this one (see ``compaction``); the run's new mark, or None (stop as before)."""
        if self.compressor is None:
            return None
        from zeph_nb.agent.compaction import compact  # see corrected_arguments above

        return await compact(conversation, before, self.compressor)

    def warnings(self, result: RunResult, messages: Sequence[Message]) -> list[str]:
        """What the final reply claims that the conversation does not hold, when hallucination detection is on."""
        if not self.settings.agent.hallucination_detection or not result.text:
            return []
        from zeph_nb.agent.hallucination import fabricated_references  # at the first reply: its patterns, ~1 ms

        tools = [tool.name for tool in self.chain.tool_definitions()]
        found = fabricated_references(result.text, messages, tools, calls_this_run=len(result.tool_calls))
        for warning in found:
            # INFO, not WARNING: every front end shows them from the result (the transcript under the reply, the
            # console after it); a WARNING also reached the cell as a red stderr box saying the same thing.
            log.info("zeph-nb: possible hallucination: %s", warning)
        return found
