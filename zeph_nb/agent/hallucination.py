"""Hallucination detection (``[agent] hallucination_detection``): after a run, the model's final reply is read
against what the conversation really holds, and what it claims but cannot have is reported as a warning
(``RunResult.warnings``, the transcript). It never changes or withholds the reply.

The reference agent's idea is that a claim about tool output must rest on a tool call that happened (it reports
"fabricated tool references"). What is checked, without asking a model:

- an ``overflow:<id>`` cited in the reply that no tool result of the conversation handed out;
- "I ran / executed / called `X`" where no tool call of the conversation mentions X (its name or arguments);
- a tool named in backticks ("the `deploy` tool") that is neither offered nor was ever called;
- a first-person claim of an action ("I created", "I ran the tests", "I deleted") in a run that called no tool.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence

from zeph_nb.agent.messages import Message, ToolResultBlock, ToolUseBlock

__all__ = ["fabricated_references"]

_OVERFLOW = re.compile(r"overflow:([0-9A-Za-z_-]{6,})")
_RAN = re.compile(r"\bI(?:'ve| have)?\s+(?:ran|run|executed|called|invoked|used)\s+(?:the\s+)?`([^`\n]{1,200})`",
                  re.IGNORECASE)  # fmt: skip
_TOOL = re.compile(r"`([A-Za-z_][\w.-]{0,63})`\s+tool\b")
_ACTED = re.compile(r"\bI(?:'ve| have)?\s+(?:ran|executed|created|wrote|written|edited|modified|deleted|removed|"
                    r"installed|saved|fetched|downloaded|renamed|moved)\b", re.IGNORECASE)  # fmt: skip


def fabricated_references(
    reply: str, conversation: Sequence[Message], tools: Iterable[str], *, calls_this_run: int
) -> list[str]:
    """What ``reply`` claims that the conversation does not bear out, one warning each (none: nothing found)."""
    uses = [b for m in conversation for b in m.content if isinstance(b, ToolUseBlock)]
    called = "\n".join(f"{use.name} {json.dumps(use.input, ensure_ascii=False, default=str)}" for use in uses)
    results = "\n".join(b.content for m in conversation for b in m.content if isinstance(b, ToolResultBlock))
    known = set(tools) | {use.name for use in uses}
    warnings = []
    for ref in dict.fromkeys(_OVERFLOW.findall(reply)):
        if f"overflow:{ref}" not in results:
            warnings.append(f"the reply cites overflow:{ref}, which no tool result handed out")
    for thing in dict.fromkeys(_RAN.findall(reply)):
        if thing.strip() and thing.strip() not in called and json.dumps(thing.strip())[1:-1] not in called:
            warnings.append(f"the reply says it ran `{thing}`, but no tool call in this conversation did")
    for name in dict.fromkeys(_TOOL.findall(reply)):
        if name not in known:
            warnings.append(f"the reply names a `{name}` tool, which is not offered and was never called")
    claim = _ACTED.search(reply)
    if calls_this_run == 0 and claim is not None and not warnings:
        warnings.append(f'the reply says "{claim.group(0)}…", but this run called no tool')
    return warnings
