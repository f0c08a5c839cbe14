"""AuditLog: one row per tool call, secrets redacted, durable before the caller goes on."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

from zeph_nb.security.secrets import redact
from zeph_nb.store.store import Store, utc_now

__all__ = ["AuditLog", "AuditRecord"]


@dataclass
class AuditRecord:
    """What happened to one call. ``params`` are redacted when recorded."""

    tool: str
    params: dict[str, Any]
    call_id: str
    conversation_id: str | None = None
    caller_id: str | None = None
    status: str = "ok"  # ok | error | denied | cancelled | abandoned
    decision: str | None = None  # allow | ask | deny
    matched_rule: str | None = None
    approved_by: str | None = None
    exit_code: int | None = None
    truncated: bool = False
    error_category: str | None = None
    duration_ms: float | None = None  # checks and execution
    waited_ms: float | None = None  # waiting for a person's approval; None when nobody was asked
    raw_bytes: int | None = None
    filtered_bytes: int | None = None
    tokens_saved: int | None = None
    overflow_id: str | None = None
    filter_rule: str | None = None
    reason: str | None = None
    cached: bool = False
    attempts: int | None = None
    sandbox: str | None = None  # commands: bwrap | none | unsandboxed
    network_hosts: str | None = None  # commands granted the network: JSON list of host:port reached
    ts: str = field(default_factory=lambda: utc_now().isoformat())


class AuditLog:
    def __init__(self, store: Store) -> None:
        self.store = store

    def record(self, record: AuditRecord) -> None:
        """Append the row to this process's spool: once this returns, a SIGKILL cannot lose it."""
        row = dict(vars(record))  # shallow: asdict() would deep-copy params only to serialise them below
        row["params"] = redact(json.dumps(record.params, ensure_ascii=False, default=str, sort_keys=True))
        row["pid"] = os.getpid()
        self.store.append("tool_calls", row)
