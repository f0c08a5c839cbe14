"""ResultCache: a read-only call asked again with the same arguments is answered without running it.

Keyed by tool and a hash of the canonical JSON of the arguments; entries live ``ttl_secs`` (0: until cleared).
Only tools that opt in (``ToolDef.cacheable``) are cached, so bash, the writing file tools, and any tool added
later (memory, MCP-style) are never served stale. Workspace entries (file reads, listings, grep, diagnostics) are
dropped whenever a call that may change files runs, and at the start of each agent run, since a person may have
edited files in between; network entries (fetch, search) only expire.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from zeph_nb.gates.policy import arguments_json
from zeph_nb.tools.base import ToolDef, ToolOutput

__all__ = ["ResultCache"]


@dataclass(frozen=True)
class _Entry:
    output: ToolOutput
    stored_at: float
    network: bool


class ResultCache:
    def __init__(self, ttl_secs: int = 300, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl = ttl_secs
        self.clock = clock
        self._entries: dict[str, _Entry] = {}
        self.hits = 0
        self.misses = 0

    @staticmethod
    def key(tool: str, params: Mapping[str, Any]) -> str:
        digest = hashlib.sha256(arguments_json(params).encode("utf-8")).hexdigest()
        return f"{tool}:{digest}"

    def get(self, tool: ToolDef, params: Mapping[str, Any]) -> ToolOutput | None:
        """The cached output, or None (counted as a miss) when absent or expired."""
        key = self.key(tool.name, params)
        entry = self._entries.get(key)
        if entry is not None and self.ttl and self.clock() - entry.stored_at >= self.ttl:
            del self._entries[key]
            entry = None
        if entry is None:
            self.misses += 1
            return None
        self.hits += 1
        return entry.output

    def put(self, tool: ToolDef, params: Mapping[str, Any], output: ToolOutput) -> None:
        """Keep a successful output of a cacheable tool; anything else is ignored."""
        if not tool.cacheable or tool.mutates or output.is_error:
            return
        self._entries[self.key(tool.name, params)] = _Entry(output, self.clock(), tool.network)

    def invalidate_workspace(self) -> None:
        """Drop every entry that depends on files (called when something may have changed them)."""
        self._entries = {key: entry for key, entry in self._entries.items() if entry.network}

    def clear(self) -> None:
        """Drop every entry and reset the hit and miss counters."""
        self._entries.clear()
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)
