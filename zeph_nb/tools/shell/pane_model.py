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
    """What a pane's command may not leave behind (``HostGuard``): swept while it runs (at each look, and by the
    pane watcher's thread as things appear), closed when it ends."""

    stopped: str | None  # why the pane watcher stopped the command, if it did

    def sweep(self) -> None: ...

    def take_notes(self) -> list[str]: ...

    def __exit__(self, *exc: object) -> None: ...


@dataclass
class Pane:
    id: str  # tmux's %N
    command: str
    sandboxed: bool = True
    server: str | None = None  # another tmux server's socket (the person's own pane), None: ours
    pid: int | None = None  # the process tmux started for it, on this machine (None: elsewhere, or unknown)
    guard: Guard | None = None
    started: float = field(default_factory=time.monotonic)
    reported: bool = False  # its end was told to the model
    notes: list[str] = field(default_factory=list)  # what the guard undid, not told to the model yet
    stopped: str | None = None  # why zeph-nb stopped its command: said at every look from then on

    def status(self, state: PaneState) -> str:
        """The first line of every look at the pane, and why zeph-nb stopped it (if it did) once it has ended."""
        line = f"pane {self.id}: {state.describe()}: `{self.command[:200]}`"
        if self.guard is not None and self.guard.stopped:
            self.stopped = self.guard.stopped
        return f"{line}\n[{self.stopped}]" if self.stopped and state.dead else line

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
        self._collect(guard)

    def _collect(self, guard: Guard) -> None:
        if guard.stopped:
            self.stopped = guard.stopped
        for note in guard.take_notes():
            if note not in self.notes:
                self.notes.append(note)

    def take_notes(self) -> list[str]:
        """What was undone and not yet told to the model: at the looks, and by the watcher in between."""
        if self.guard is not None:
            self._collect(self.guard)
        notes, self.notes = self.notes, []
        return notes
