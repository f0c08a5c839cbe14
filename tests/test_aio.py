"""PerLoop: one object per running event loop (clients must not outlive the loop their connections use)."""

from __future__ import annotations

import asyncio

import pytest

from zeph_nb.aio import PerLoop


def test_one_object_per_loop() -> None:
    made: list[object] = []
    per_loop: PerLoop[object] = PerLoop(lambda: made.append(object()) or made[-1])

    async def twice() -> tuple[object, object]:
        return per_loop.get(), per_loop.get()

    first, again = asyncio.run(twice())
    assert first is again  # the same loop reuses it
    second, _ = asyncio.run(twice())
    assert second is not first and len(made) == 2 and per_loop.current is second  # a new loop gets its own


def test_it_needs_a_running_loop() -> None:
    with pytest.raises(RuntimeError):
        PerLoop(object).get()
