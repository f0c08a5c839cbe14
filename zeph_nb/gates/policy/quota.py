"""Quota: at most ``max_tool_calls_per_session`` logical calls per conversation (0: no limit).

A logical call is what the model asked for: retries inside the chain do not count again, and a call refused by
a later gate still counts (the model spent it). ``reset()`` starts a new conversation's count.
"""

from __future__ import annotations

__all__ = ["Quota"]


class Quota:
    def __init__(self, limit: int = 0) -> None:
        self.limit = limit
        self.used = 0

    def take(self) -> bool:
        """Count one call; False when the quota was already used up (the call must not run)."""
        if self.limit and self.used >= self.limit:
            return False
        self.used += 1
        return True

    @property
    def exhausted(self) -> bool:
        return bool(self.limit) and self.used >= self.limit

    @property
    def remaining(self) -> int | None:
        return None if not self.limit else max(0, self.limit - self.used)

    def reset(self) -> None:
        self.used = 0
