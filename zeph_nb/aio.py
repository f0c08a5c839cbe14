"""PerLoop: one object per running event loop.

An async HTTP client's connections belong to the loop that opened them, and ``Agent.run_sync`` starts a new
loop for each run, so the providers and the web client keep one client per loop instead of one for ever.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["PerLoop"]

T = TypeVar("T")


class PerLoop(Generic[T]):
    def __init__(self, make: Callable[[], T]) -> None:
        self._make = make
        self._value: T | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def get(self) -> T:
        """The object for the running loop, made on first use in that loop."""
        loop = asyncio.get_running_loop()
        if self._value is None or self._loop is not loop:
            self._value, self._loop = self._make(), loop
        return self._value

    @property
    def current(self) -> T | None:
        """The last object made, if any (to close it)."""
        return self._value
