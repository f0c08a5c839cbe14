"""Asking the model once, robustly: an idle timeout on streams, a deadline per request, and retries with backoff
within a budget, counted down for the person watching.

A stream with no new content for ``[llm] idle_timeout_secs`` (a connection that only sends pings) and a request past
``deadline_secs`` are timeouts. Timeouts, overloads, rate limits and 5xx are tried again with the project's one
backoff formula (``gates.wrappers.backoff``: exponential, jittered), honouring ``retry-after``, within
``retry_budget_secs``; while waiting, a ``Retrying`` event each second lets a transcript count down. The error at
the end says how long it tried and what to do.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from zeph_nb.agent.events import Retrying, StreamAbandoned
from zeph_nb.agent.messages import ModelRequest, ModelResponse, Provider, TextSink
from zeph_nb.config import LLMSettings, RetrySettings
from zeph_nb.errors import ModelError, ToolErrorCategory
from zeph_nb.gates.wrappers import backoff

__all__ = ["MODEL_BACKOFF", "call_model"]

# 1 s before the second try, doubling to 30 s (the tools' retry gate waits milliseconds: a model overload lasts).
MODEL_BACKOFF = RetrySettings(base_ms=1_000, max_ms=30_000)


async def call_model(
    provider: Provider, request: ModelRequest, on_text: TextSink, emit: Callable[[Any], None], llm: LLMSettings
) -> ModelResponse:
    started = time.monotonic()
    give_up_at = started + llm.retry_budget_secs
    attempt = 0
    while True:
        streamed: list[str] = []  # what this try showed: taken back if it is tried again
        try:
            return await _try_once(provider, request, _recording(on_text, streamed), llm)
        except ModelError as e:
            if not e.category.is_retryable:
                raise
            pause = backoff(MODEL_BACKOFF, attempt)
            if e.retry_after is not None:
                pause = max(pause, e.retry_after)
            left = give_up_at - time.monotonic()
            if pause > left:
                raise _gave_up(e, attempt + 1, time.monotonic() - started, left, llm.retry_budget_secs) from e
            attempt += 1
            if streamed:  # the retry's text starts over: a front-end must not glue it to this try's
                emit(StreamAbandoned("".join(streamed), _why(e)))
            await _count_down(pause, _why(e), attempt + 1, emit)


def _recording(on_text: TextSink, streamed: list[str]) -> TextSink:
    async def shown(text: str) -> None:
        streamed.append(text)
        await on_text(text)

    return shown


async def _try_once(provider: Provider, request: ModelRequest, on_text: TextSink, llm: LLMSettings) -> ModelResponse:
    idle = _IdleWatch(llm.idle_timeout_secs)

    async def watched(text: str) -> None:
        idle.touch()
        await on_text(text)

    task = asyncio.ensure_future(provider.complete(request, watched))
    try:
        return await idle.run(task, llm.deadline_secs)
    finally:
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


class _IdleWatch:
    """Ends a model request that stops producing content: a stream that sends nothing (or only pings) for
    ``idle`` seconds, or any request past its deadline, becomes a retryable timeout."""

    def __init__(self, idle: float) -> None:
        self.idle = idle
        self.last = time.monotonic()

    def touch(self) -> None:
        self.last = time.monotonic()

    async def run(self, task: asyncio.Future[ModelResponse], deadline: float) -> ModelResponse:
        ends = time.monotonic() + deadline
        while True:
            now = time.monotonic()
            wait = min(self.last + self.idle, ends) - now
            if wait <= 0:
                if now >= ends:
                    raise ModelError(
                        ToolErrorCategory.TIMEOUT, f"no complete reply within {deadline:g} s ([llm] deadline_secs)"
                    )
                raise ModelError(ToolErrorCategory.TIMEOUT, f"no reply for {self.idle:g} s ([llm] idle_timeout_secs)")
            done, _ = await asyncio.wait({task}, timeout=wait)
            if done:
                return task.result()


def _why(error: ModelError) -> str:
    text = error.message.lower()
    if "529" in text or "overloaded" in text:
        return "overloaded"
    if error.category is ToolErrorCategory.RATE_LIMITED:
        return "rate limited"
    if error.category is ToolErrorCategory.TIMEOUT:
        return error.message.split(" ([")[0]
    if error.category is ToolErrorCategory.NETWORK_ERROR:
        return "network trouble"
    return "server error"


async def _count_down(pause: float, reason: str, attempt: int, emit: Callable[[Any], None]) -> None:
    """Sleep ``pause`` seconds, saying each second how many are left."""
    ends = time.monotonic() + pause
    while (left := ends - time.monotonic()) > 0:
        emit(Retrying(math.ceil(left), reason, attempt))
        await asyncio.sleep(min(1.0, left))


def _gave_up(error: ModelError, tries: int, spent: float, left: float, budget: float) -> ModelError:
    """The last error, saying what happened over all the tries and what to do now."""
    if error.retry_after is not None and error.retry_after > left:
        when = (datetime.now(UTC) + timedelta(seconds=error.retry_after)).strftime("%H:%M:%S UTC")
        advice = (f"the API asked to wait {error.retry_after:g} s (retry-after), more than the {max(left, 0):.0f} s "
                  f"left of [llm] retry_budget_secs = {budget:g}; run again after {when}")  # fmt: skip
    else:
        advice = (f"gave up after {tries} tr{'y' if tries == 1 else 'ies'} over {spent:.0f} s ([llm] "
                  f"retry_budget_secs = {budget:g}); run again later, or raise the budget")  # fmt: skip
    return ModelError(error.category, f"{error.message}; {advice}", retry_after=error.retry_after)
