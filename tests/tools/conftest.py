"""Fixtures of the tool tests."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest

from zeph_nb.tools.shell.pane_watch import pane_watcher
from zeph_nb.tools.shell.panes import TmuxPanes

WATCHER_ENDS_SECS = 30.0  # a bound that tells a hang: the thread ends once its last walk (a large tree's) is done


@pytest.fixture
def fresh_tmux_server() -> Iterator[None]:
    """Each test gets the kernel's tmux server afresh: no panes of another test to pick as "the latest", and no
    pane watcher of another test's panes (with its watches, or a limit a test set) for its own panes to join."""
    yield
    for panes in list(TmuxPanes._instances):
        asyncio.run(panes.close())
    TmuxPanes._instances.clear()
    deadline = time.monotonic() + WATCHER_ENDS_SECS
    while pane_watcher().running and time.monotonic() < deadline:
        time.sleep(0.01)
