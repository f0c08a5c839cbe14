"""Always-allow grants: permission rules a person added by answering "Always allow", kept in the store.

A grant is an exact pattern for one subject (one simple command, one canonical path, one URL) of one tool, with
who granted it and when. It is written through the store's spool, so it is durable at once, visible to every
kernel that reads the store, and still there after a restart. Grants are read again whenever a call would ask,
so one granted in another notebook applies here from the next call on. Revoking appends a row with
``revoked_at``; rows are never updated.
"""

from __future__ import annotations

import logging
import re
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING

from zeph_nb.errors import ZephError
from zeph_nb.gates.policy import Rule, exact_pattern
from zeph_nb.security.secrets import scan_secrets
from zeph_nb.store.grants import GrantRow, GrantRows

if TYPE_CHECKING:
    from zeph_nb.store.store import Store

__all__ = ["Grant", "PermissionGrants", "shown_pattern"]

log = logging.getLogger("zeph_nb.gates")


@dataclass(frozen=True)
class Grant(GrantRow):
    """A grant in force: the table's row (store/grants.py), read as a permission rule."""

    @property
    def shown(self) -> str:
        """The pattern as the person granted it: an exact grant is stored glob-escaped (``rm \\-f b.txt`` matches
        only ``rm -f b.txt``), which is no way to show it (the dashboard's Rule column, the audit API, %zeph tools)."""
        return shown_pattern(self.pattern)

    def as_rule(self) -> Rule:
        when = self.granted_at.strftime("%Y-%m-%d %H:%M")
        return Rule(self.tool, self.pattern, "allow", f'Always allow "{self.shown}" by {self.granted_by} at {when}')


def shown_pattern(pattern: str) -> str:
    """A grant's pattern without its glob escapes (``exact_pattern``'s backslashes)."""
    return re.sub(r"\\(.)", r"\1", pattern)


class PermissionGrants:
    """The grants in force. With ``store=None`` they live only as long as this object (tests, throwaway runs)."""

    def __init__(self, store: Store | None) -> None:
        self.store = store
        self._local: dict[str, Grant] = {}  # granted here: all there is without a store, a fallback with one
        self._revoked: set[str] = set()

    def active(self) -> list[Grant]:
        """Every grant in force, oldest first: the store's (any kernel's), or this object's without a store."""
        grants = dict(self._local)
        rows = GrantRows(self.store).read() if self.store is not None else None
        if self.store is not None and rows is None:
            log.warning("zeph-nb: the store is busy; only grants made in this session apply for now")
        if rows is not None:
            # The store has every grant made here too (spooled rows are read back), revocations included; rows
            # not signed by zeph-nb were left out by the store, so they neither grant nor revoke.
            revoked = {row.id for row in rows if row.revoked_at is not None}
            grants = {
                row.id: Grant(
                    id=row.id,
                    tool=row.tool,
                    pattern=row.pattern,
                    granted_by=row.granted_by,
                    granted_at=row.granted_at,
                    reason=row.reason,
                )
                for row in rows
                if row.action == "allow" and row.revoked_at is None and row.id not in revoked
            }
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
            grant = Grant(id=uuid.uuid4().hex, tool=tool, pattern=pattern, granted_by=by, granted_at=utc_now(),
                          reason=reason)  # fmt: skip
            if self.store is not None:
                row = GrantRow(id=grant.id, tool=tool, pattern=grant.pattern, granted_by=by,
                               granted_at=grant.granted_at, reason=reason)  # fmt: skip
                GrantRows(self.store).add(row)
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
            row = GrantRow(id=grant.id, tool=grant.tool, pattern=grant.pattern, granted_by=grant.granted_by,
                           granted_at=grant.granted_at, reason=f"revoked by {by}", revoked_at=utc_now())  # fmt: skip
            GrantRows(self.store).add(row)
        self._revoked.add(grant.id)
        self._local.pop(grant.id, None)
