"""The ``permission_rules`` table: the Always-allow grants, one row per grant and one more when it is revoked.

Every row is signed with the store's key (``security/mac.py``); a row whose signature does not check was not
written by zeph-nb (a command that reached the spool or the file), so reading leaves it out, with a warning
once. Nothing outside ``store/`` writes or queries the table; ``gates/policy/grants.py`` decides what a grant
means.
"""

from __future__ import annotations

import logging
from dataclasses import asdict
from typing import Any

from zeph_nb.store.records import GrantRow
from zeph_nb.store.store import Store, StoreBusy

__all__ = ["GrantRow", "GrantRows"]

log = logging.getLogger("zeph_nb.store")

TABLE = "permission_rules"
SIGNED = ("id", "tool", "pattern", "action", "granted_by", "granted_at", "revoked_at")


def _present(value: object) -> bool:
    return value is not None and value == value and str(value) != "NaT"


class GrantRows:
    def __init__(self, store: Store) -> None:
        self.store = store

    def add(self, row: GrantRow) -> None:
        """Append one signed row: a grant, or (with ``revoked_at``) its revocation."""
        data: dict[str, Any] = asdict(row)
        for key in ("granted_at", "revoked_at"):
            if data[key] is not None:
                data[key] = data[key].isoformat()
        if data["revoked_at"] is None:
            del data["revoked_at"]
        self.store.append_signed(TABLE, data, SIGNED)

    def read(self) -> list[GrantRow] | None:
        """Every signed row, oldest grant first; None when the store stayed busy (the caller falls back)."""
        try:
            frame = self.store.query(
                "SELECT id, tool, pattern, action, granted_by, granted_at, revoked_at, reason, mac "
                "FROM permission_rules ORDER BY granted_at"
            )
        except StoreBusy:
            return None
        signer, rows = self.store.signer, []
        for raw in (row._asdict() for row in frame.itertuples(index=False)):
            if not signer.verify(TABLE, raw, SIGNED, raw["mac"]):
                signer.warn_once("grant row", str(raw["id"]))
                continue
            rows.append(
                GrantRow(
                    id=str(raw["id"]),
                    tool=str(raw["tool"]),
                    pattern=str(raw["pattern"]),
                    granted_by=str(raw["granted_by"]),
                    granted_at=raw["granted_at"].to_pydatetime(),
                    reason=str(raw["reason"]) if _present(raw["reason"]) else None,
                    action=str(raw["action"]),
                    revoked_at=raw["revoked_at"].to_pydatetime() if _present(raw["revoked_at"]) else None,
                    mac=str(raw["mac"]),
                )
            )
        return rows
