"""Messages to members."""

from __future__ import annotations

from shelfwise.holds import Hold


def notify_ready(hold: Hold) -> str:
    return f"member {hold.member_id}: your hold {hold.isbn} is ready at {hold.branch}"
