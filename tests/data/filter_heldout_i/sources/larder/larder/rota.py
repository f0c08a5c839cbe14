"""The volunteers' rota: shifts, who covers them, and the parcels each shift can pack."""

import logging
from dataclasses import dataclass, field
from datetime import date, timedelta

log = logging.getLogger("larder.rota")


@dataclass
class Shift:
    day: date
    site: str
    needed: int
    volunteers: list[str] = field(default_factory=list)

    @property
    def short(self) -> int:
        return self.needed - len(self.volunteers)


def build_week(start: date, sites: dict[str, int]) -> list[Shift]:
    shifts = []
    for offset in range(7):
        day = start + timedelta(days=offset)
        if day.weekday() == 6:
            log.debug("skipping %s (Sunday)", day)
            continue
        for site, needed in sites.items():
            shifts.append(Shift(day, site, needed))
            log.debug("shift %s %s needs %d", day, site, needed)
    log.info("built %d shifts from %s", len(shifts), start)
    return shifts


def assign(shifts: list[Shift], availability: dict[str, set[int]]) -> None:
    for shift in shifts:
        for name, days in sorted(availability.items()):
            if shift.day.weekday() in days and len(shift.volunteers) < shift.needed:
                shift.volunteers.append(name)
                log.debug("assigned %s to %s %s", name, shift.day, shift.site)
        if shift.short > 0:
            log.warning("%s %s is short by %d", shift.day, shift.site, shift.short)


def parcels_per_shift(shift: Shift, per_volunteer: int = 12) -> int:
    packed = len(shift.volunteers) * per_volunteer
    if shift.site == "annex":
        packed = packed // 2  # half the annex's tables are the café's
    log.debug("%s %s packs %d parcels", shift.day, shift.site, packed)
    return packed


def cover_rate(shifts: list[Shift]) -> float:
    covered = sum(1 for s in shifts if s.short <= 0)
    rate = covered / len(shifts)
    log.info("cover rate %.2f (%d/%d)", rate, covered, len(shifts))
    return rate
