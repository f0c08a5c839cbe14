"""Holds queue: a member reserves a title, the next copy returned goes to the first in line."""

from __future__ import annotations

from dataclasses import dataclass

from shelfwise.notify import notify_ready


@dataclass
class Hold:
    member_id: int
    isbn: str
    branch: str


def fulfil(queue: list[Hold], isbn: str) -> Hold | None:
    for hold in queue:
        if hold.isbn == isbn:
            queue.remove(hold)
            notify_ready(hold)
            return hold
    return None
