"""What one shell call gets: its ``CommandScope`` (sandboxed or not, the network to which hosts, an environment it
may write, the paths it names outside). Worked out once, when the call is prepared (``tools/containment.scope_of``),
and carried with the call to the executor; a value of its own, below every tool, so the call can carry it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from zeph_nb.security.os_sandbox import SandboxStatus
from zeph_nb.shell.escalations import ANY_HOST
from zeph_nb.tools.shell.path_scope import OutsidePath

__all__ = ["CommandScope"]


@dataclass(frozen=True)
class CommandScope:
    """What one shell call will get, in the words the approval card uses.

    ``sandboxed`` False means the command runs as the kernel's own user with nothing between it and the machine:
    because the person approved ``sandbox: false``, or because no sandbox works here (``status`` says why).
    """

    status: SandboxStatus
    sandboxed: bool
    hosts: tuple[str, ...] = ()  # the network it gets: () none, ("*",) any host
    environment: Path | None = None  # an environment prefix it may write
    environment_label: str = "the kernel's environment"  # what the card calls it ("the environment" for a project's)
    unsandboxed_requested: bool = False
    # Path arguments outside the working directory and allowed_paths; the call asks about them.
    outside: tuple[OutsidePath, ...] = ()
    # (the setting, why) when the configuration forbids this call outright; the policy gate and the shell
    # executor (used without the chain) both refuse it with these words.
    refusal: tuple[str, str] | None = None
    # What it was worked out from (``containment.scope_key``: the settings and working directory ``scope_of``
    # reads): an executor whose own differ works out its own scope rather than run with this one.
    key: str = field(default="", compare=False, repr=False)

    @property
    def extras(self) -> tuple[str, ...]:
        """What the call gets beyond the sandbox's default, one line each (empty: nothing)."""
        lines = []
        if self.unsandboxed_requested:
            lines.append("runs WITHOUT the OS sandbox: it can read, write and reach everything you can")
        elif self.sandboxed and self.hosts:
            shown = "any host" if ANY_HOST in self.hosts else ", ".join(self.hosts)
            lines.append(f"this command will have network access to {shown}")
        if self.sandboxed and self.environment is not None and not self.unsandboxed_requested:
            lines.append(f"this command can install into {self.environment_label} ({self.environment})")
        return tuple(lines)

    @property
    def opened(self) -> tuple[Path, ...]:
        """The folders an approval of this call makes writable in the sandbox: where it writes outside."""
        return tuple(dict.fromkeys(o.folder for o in self.outside if o.mode != "read" and o.folder is not None))

    @property
    def refused(self) -> str | None:
        """Why the configuration forbids this call outright, or None."""
        return self.refusal[1] if self.refusal is not None else None

    @property
    def label(self) -> str:
        """For the audit row: bwrap, none (no sandbox works here) or unsandboxed (approved outside it)."""
        if self.unsandboxed_requested:
            return "unsandboxed"
        return "bwrap" if self.sandboxed else "none"
