"""Filesystem primitives shared by the tools: the process umask, read without changing it."""

from __future__ import annotations

__all__ = ["current_umask"]


def current_umask() -> int:
    """The process umask, read without setting it (os.umask would race with other threads creating files)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return 0o022
