"""When this process started: what "changed since the kernel started" is measured from (installed toolsets, skills).

A module of its own, below the toolsets and the skills, so both read the same moment without importing each other.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

__all__ = ["STARTED"]


def _process_started() -> float:
    """When this process started (Linux: from /proc), else now: the moment this module was first imported."""
    try:
        boot = next(float(line.split()[1]) for line in Path("/proc/stat").read_text().splitlines()
                    if line.startswith("btime "))  # fmt: skip
        ticks = float(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19])
        return boot + ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, StopIteration):
        return time.time()


STARTED = _process_started()
