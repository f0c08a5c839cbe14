"""Parameter reformatting (``[gates.retry] parameter_reformat_provider``): a call refused for its parameters
(``invalid_parameters``, ``type_mismatch``) is shown to a named helper model with the tool's schema and the error;
the arguments it proposes are sent once, as a new call through every gate (rules, approval, audit).

What the helper must answer is a JSON object ``{"arguments": {...}}`` (a code fence around it is tolerated).
Anything else — an error, a timeout, prose, arguments that are not an object or equal the old ones — keeps the
original error, and the model is asked to resend the call itself, as without a helper.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from typing import Any

from zeph_nb.agent.messages import Provider
from zeph_nb.tools.base import ToolDef

__all__ = ["SYSTEM", "corrected_arguments", "reformat_prompt"]

log = logging.getLogger("zeph_nb.agent")

SYSTEM = (
    "A tool call failed parameter validation. Propose corrected arguments that satisfy the JSON schema and keep "
    "the call's intent; never add an action the original did not ask for. Reply with only a JSON object of the "
    'form {"arguments": {...}}.'
)
_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL)


def reformat_prompt(tool: ToolDef, arguments: Any, error: str) -> str:
    schema = json.dumps(tool.input_schema, indent=2, default=str)
    given = json.dumps(arguments, indent=2, ensure_ascii=False, default=str)
    return f"Tool: {tool.name}\nJSON schema:\n{schema}\n\nOriginal arguments:\n{given}\n\nError: {error}"


async def corrected_arguments(
    provider: Provider, tool: ToolDef, arguments: Any, error: str, *, timeout: float
) -> dict[str, Any] | None:
    """The helper's corrected arguments, or None when it gave none that are usable."""
    from zeph_nb.agent.providers import ask

    try:
        reply = await asyncio.wait_for(ask(provider, SYSTEM, reformat_prompt(tool, arguments, error),
                                           max_tokens=1024), timeout)  # fmt: skip
    except Exception as e:  # the helper failed: the original error stands
        log.warning("zeph-nb: parameter reformat for %s failed (%s: %s)", tool.name, type(e).__name__, e)
        return None
    text = reply.strip()
    fenced = _FENCE.match(text)
    try:
        answer = json.loads(fenced.group(1) if fenced else text)
    except ValueError:
        log.warning("zeph-nb: parameter reformat for %s: the helper's reply is not JSON", tool.name)
        return None
    fixed = answer.get("arguments") if isinstance(answer, dict) else None
    if not isinstance(fixed, dict) or fixed == arguments:
        return None
    return fixed
