"""The shell policy reloads when its file changes (seed 004: no restart): ``[tools.shell]`` ``blocked_commands``,
``confirm_patterns``, ``allowed_commands`` and ``allow_network``, the values the command classifier decides by.

Each classifier built from settings read from a file asks ``PolicyFile`` before every analysis; that costs one
``stat`` (about a microsecond) until the file's modification time or size changes. Then the settings are loaded
again the way they were first (``Settings.load``: the same file, the ``ZEPH_*`` variables, the managed settings
over them, so a managed blocklist still holds), and the classifier takes the four values from them. A file that
no longer loads (a typo half-way through an edit) keeps the policy in force and says why, once per change.
Everything else in the file (the sandbox, permissions, providers) is read when an agent starts, as before.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING

from zeph_nb.errors import ConfigError
from zeph_nb.shell.classifier import PolicyValues

if TYPE_CHECKING:
    from zeph_nb.config import Settings

__all__ = ["PolicyFile", "policy_values"]

log = logging.getLogger("zeph_nb.tools")


def policy_values(settings: Settings) -> PolicyValues:
    shell = settings.tools.shell
    return PolicyValues(shell.allow_network, tuple(shell.blocked_commands), tuple(shell.confirm_patterns),
                        tuple(shell.allowed_commands))  # fmt: skip


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        found = path.stat()
    except OSError:
        return None
    return found.st_mtime_ns, found.st_size


class PolicyFile:
    """``settings``' config file, watched: called, it answers new policy values when the file changed since the
    last call (None otherwise). ``for_settings`` gives None for settings that came from no file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.stamp = _stamp(path)

    @classmethod
    def for_settings(cls, settings: Settings) -> PolicyFile | None:
        source = settings.source
        if not source or not os.path.isfile(source):
            return None  # Settings.from_toml / Settings(): nothing on disk to follow
        return cls(Path(source))

    def __call__(self) -> PolicyValues | None:
        stamp = _stamp(self.path)
        if stamp == self.stamp:
            return None
        self.stamp = stamp
        if stamp is None:
            log.warning("zeph-nb: %s is gone; the shell policy read from it stays in force", self.path)
            return None
        from zeph_nb.config import Settings

        try:
            settings = Settings.load(self.path)
        except ConfigError as e:
            log.warning("zeph-nb: %s changed but does not load, so the shell policy stays as it was: %s",
                        self.path, e)  # fmt: skip
            return None
        log.info("zeph-nb: the shell policy was read again from %s", self.path)
        return policy_values(settings)
