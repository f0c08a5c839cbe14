"""What the tmux code keeps about each pane: the command, how it ended, and the guard over what it may leave."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Protocol

__all__ = ["Guard", "Pane", "PaneState"]


@dataclass(frozen=True)
class PaneState:
    dead: bool
    code: int | None  # exit status, when it exited
    signal: int | None  # the signal that ended it, when one did
    gone: bool = False  # the pane itself was closed

    def describe(self) -> str:
        if not self.dead:
            return "running"
        if self.gone:
            return "closed"
        if self.signal is not None:
            return f"ended by signal {self.signal}"
        return f"ended with exit code {self.code}"


class Guard(Protocol):
    """What a pane's command may not leave behind (``HostGuard``): swept while it runs, closed when it ends."""

    notes: list[str]

    def sweep(self) -> None: ...

    def __exit__(self, *exc: object) -> None: ...


@dataclass
class Pane:
    id: str  # tmux's %N
    command: str
    sandboxed: bool = True
    server: str | None = None  # another tmux server's socket (the person's own pane), None: ours
    guard: Guard | None = None
    started: float = field(default_factory=time.monotonic)
    reported: bool = False  # its end was told to the model
    notes: list[str] = field(default_factory=list)  # what the guard undid, not told to the model yet

    def check(self, ended: bool) -> None:
        """Undo what the command left that it may not (a new zeph.toml, a git hook): at each look, and for good
        when it has ended."""
        guard = self.guard
        if guard is None:
            return
        if ended:
            self.guard = None
            guard.__exit__(None, None, None)  # the last sweep, and the journal let go
        else:
            guard.sweep()
        for note in guard.notes:
            if note not in self.notes:
                self.notes.append(note)

    def take_notes(self) -> list[str]:
        notes, self.notes = self.notes, []
        if self.guard is not None:
            self.guard.notes.clear()
        return notes
