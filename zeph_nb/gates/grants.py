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
from typing import TYPE_CHECKING

from zeph_nb.errors import ZephError
from zeph_nb.gates.policy import Rule, exact_pattern

if TYPE_CHECKING:
    from zeph_nb.store.store import Store

__all__ = ["Grant", "PermissionGrants"]

log = logging.getLogger("zeph_nb.gates")


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
                    "SELECT id, tool, pattern, granted_by, granted_at, reason FROM permission_rules "
                    "WHERE action = 'allow' AND revoked_at IS NULL AND id NOT IN "
                    "(SELECT id FROM permission_rules WHERE revoked_at IS NOT NULL) ORDER BY granted_at"
                )
            except StoreBusy:
                log.warning("zeph-nb: the store is busy; only grants made in this session apply for now")
            else:
                # The store has every grant made here too (spooled rows are read back), revocations included.
                grants = {
                    str(row.id): Grant(str(row.id), str(row.tool), str(row.pattern), str(row.granted_by),
                                       row.granted_at.to_pydatetime(), None if row.reason is None else str(row.reason))
                    for row in frame.itertuples(index=False)
                }  # fmt: skip
        return [g for g in sorted(grants.values(), key=lambda g: g.granted_at) if g.id not in self._revoked]

    def rules(self) -> list[Rule]:
        return [grant.as_rule() for grant in self.active()]

    def grant(self, tool: str, subjects: tuple[str, ...], *, by: str, reason: str | None = None) -> list[Grant]:
        """Allow each subject of ``tool`` exactly, from now on."""
        from zeph_nb.store.store import utc_now

        made = []
        for subject in dict.fromkeys(subjects):
            grant = Grant(uuid.uuid4().hex, tool, exact_pattern(subject), by, utc_now(), reason)
            if self.store is not None:
                self.store.append(
                    "permission_rules",
                    {
                        "id": grant.id,
                        "tool": tool,
                        "pattern": grant.pattern,
                        "action": "allow",
                        "granted_by": by,
                        "granted_at": grant.granted_at.isoformat(),
                        "reason": reason,
                    },
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
            self.store.append(
                "permission_rules",
                {
                    "id": grant.id,
                    "tool": grant.tool,
                    "pattern": grant.pattern,
                    "action": "allow",
                    "granted_by": grant.granted_by,
                    "granted_at": grant.granted_at.isoformat(),
                    "revoked_at": utc_now().isoformat(),
                    "reason": f"revoked by {by}",
                },
            )
        self._revoked.add(grant.id)
        self._local.pop(grant.id, None)
