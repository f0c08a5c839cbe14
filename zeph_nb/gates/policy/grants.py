"""Always-allow grants: permission rules a person added by answering "Always allow", kept in the store.

A grant is an exact pattern for one subject (one simple command, one canonical path, one URL) of one tool, with
who granted it and when. It is written through the store's spool, so it is durable at once, visible to every
kernel that reads the store, and still there after a restart. Grants are read again whenever a call would ask,
so one granted in another notebook applies here from the next call on. Revoking appends a row with
``revoked_at``; rows are never updated.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from zeph_nb.errors import ZephError
from zeph_nb.gates.policy import Rule, exact_pattern
from zeph_nb.security.secrets import scan_secrets

if TYPE_CHECKING:
    from zeph_nb.security.mac import RowSigner
    from zeph_nb.store.store import Store

__all__ = ["Grant", "PermissionGrants"]

log = logging.getLogger("zeph_nb.gates")

TABLE = "permission_rules"
SIGNED = ("id", "tool", "pattern", "action", "granted_by", "granted_at", "revoked_at")


def _present(value: object) -> bool:
    return value is not None and value == value and str(value) != "NaT"


def _ignored(signer: RowSigner, row: dict[str, Any]) -> bool:
    signer.warn_once("grant row", str(row["id"]))
    return False


@dataclass(frozen=True)
class Grant:
    id: str
    tool: str
    pattern: str
    granted_by: str
    granted_at: datetime
    reason: str | None = None

    def as_rule(self) -> Rule:
        when = self.granted_at.strftime("%Y-%m-%d %H:%M")
        return Rule(self.tool, self.pattern, "allow", f'Always allow "{self.pattern}" by {self.granted_by} at {when}')


class PermissionGrants:
    """The grants in force. With ``store=None`` they live only as long as this object (tests, throwaway runs)."""

    def __init__(self, store: Store | None) -> None:
        self.store = store
        self._local: dict[str, Grant] = {}  # granted here: all there is without a store, a fallback with one
        self._revoked: set[str] = set()

    def active(self) -> list[Grant]:
        """Every grant in force, oldest first: the store's (any kernel's), or this object's without a store."""
        grants = dict(self._local)
        if self.store is not None:
            from zeph_nb.store.store import StoreBusy

            try:
                frame = self.store.query(
                    "SELECT id, tool, pattern, action, granted_by, granted_at, revoked_at, reason, mac "
                    "FROM permission_rules ORDER BY granted_at"
                )
            except StoreBusy:
                log.warning("zeph-nb: the store is busy; only grants made in this session apply for now")
            else:
                # The store has every grant made here too (spooled rows are read back), revocations included.
                # A row whose MAC does not check was not written by zeph-nb: it neither grants nor revokes.
                signer = self.store.signer
                rows = [row._asdict() for row in frame.itertuples(index=False)]
                rows = [r for r in rows if signer.verify(TABLE, r, SIGNED, r["mac"]) or _ignored(signer, r)]
                revoked = {str(r["id"]) for r in rows if _present(r["revoked_at"])}
                grants = {
                    str(r["id"]): Grant(str(r["id"]), str(r["tool"]), str(r["pattern"]), str(r["granted_by"]),
                                        r["granted_at"].to_pydatetime(),
                                        None if not _present(r["reason"]) else str(r["reason"]))
                    for r in rows
                    if r["action"] == "allow" and not _present(r["revoked_at"]) and str(r["id"]) not in revoked
                }  # fmt: skip
        return [g for g in sorted(grants.values(), key=lambda g: g.granted_at) if g.id not in self._revoked]

    def rules(self) -> list[Rule]:
        return [grant.as_rule() for grant in self.active()]

    def grant(
        self,
        tool: str,
        subjects: tuple[str, ...],
        *,
        by: str,
        reason: str | None = None,
        patterns: tuple[str, ...] | None = None,
    ) -> list[Grant]:
        """Allow each subject of ``tool`` exactly, from now on; or, with ``patterns``, those patterns as given
        (a web host: ``https://example.com/*``)."""
        from zeph_nb.store.store import utc_now

        made = []
        wanted = patterns if patterns is not None else tuple(exact_pattern(subject) for subject in subjects)
        for pattern in dict.fromkeys(wanted):
            if scan_secrets(pattern) or scan_secrets(pattern.replace("\\", "")):  # escaped: sk\-ant\-…
                # Keeping it would store the credential (the store redacts it, and a redacted pattern would
                # match something else): the call was approved once, and asks again next time.
                log.info("zeph-nb: Always allow not kept for a pattern that carries a credential")
                continue
            grant = Grant(uuid.uuid4().hex, tool, pattern, by, utc_now(), reason)
            if self.store is not None:
                self._append(
                    {
                        "id": grant.id,
                        "tool": tool,
                        "pattern": grant.pattern,
                        "action": "allow",
                        "granted_by": by,
                        "granted_at": grant.granted_at.isoformat(),
                        "reason": reason,
                    }
                )
            self._local[grant.id] = grant
            made.append(grant)
        return made

    def revoke(self, grant_id: str, *, by: str) -> None:
        """Take a grant back (it stays in the log, marked revoked)."""
        from zeph_nb.store.store import utc_now

        grant = next((g for g in self.active() if g.id == grant_id), None)
        if grant is None:
            raise ZephError(f"no grant {grant_id!r} is in force; see PermissionGrants.active() for the ids")
        if self.store is not None:
            self._append(
                {
                    "id": grant.id,
                    "tool": grant.tool,
                    "pattern": grant.pattern,
                    "action": "allow",
                    "granted_by": grant.granted_by,
                    "granted_at": grant.granted_at.isoformat(),
                    "revoked_at": utc_now().isoformat(),
                    "reason": f"revoked by {by}",
                }
            )
        self._revoked.add(grant.id)
        self._local.pop(grant.id, None)

    def _append(self, row: dict[str, Any]) -> None:
        assert self.store is not None
        self.store.append_signed(TABLE, row, SIGNED)
