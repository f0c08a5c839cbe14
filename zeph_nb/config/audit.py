"""``[audit]`` (``[tools.audit]`` until 0.x): the reference's audit keys. zeph-nb always keeps its audit log (a
DuckDB table); these keys say where a copy of each row goes as well."""

from __future__ import annotations

from pydantic import field_validator

from zeph_nb.config.common import _Section

__all__ = ["AuditSettings"]


class AuditSettings(_Section):
    """``[audit]``: a JSON-lines copy of every audit row, for a log shipper or a terminal."""

    enabled: bool = True
    """the audit log is always kept: false is refused (every call is a row; that is the record of what happened)"""
    destination: str | None = None
    """also write each row as a JSON line: "stdout" (the kernel process's own output, which the terminal that
    started Jupyter shows, never a cell) or a file path (~ expanded; relative: inside the zeph home)"""

    @field_validator("enabled")
    @classmethod
    def _always_on(cls, value: bool) -> bool:
        if not value:
            raise ValueError(
                "zeph-nb always keeps its audit log (every tool call is a row, the record of what the agent did); "
                'remove the key, or set destination = "stdout" or a file to get a copy of each row as well'
            )
        return value
