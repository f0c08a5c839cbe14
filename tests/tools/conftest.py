"""Fixtures of the tool tests."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from zeph_nb.tools.shell.panes import TmuxPanes


@pytest.fixture
def fresh_tmux_server() -> Iterator[None]:
    """Each test gets the kernel's tmux server afresh: no panes of another test to pick as "the latest"."""
    yield
    for panes in list(TmuxPanes._instances):
        asyncio.run(panes.close())
    TmuxPanes._instances.clear()
