import logging
from datetime import date

import pytest

from larder.rota import Shift, assign, build_week, cover_rate, parcels_per_shift

log = logging.getLogger("tests")
MONDAY = date(2026, 11, 23)
SITES = {"depot": 3, "church-hall": 2, "annex": 2}
AVAIL = {"Ada": {0, 1, 2}, "Bo": {0, 3, 4, 5}, "Cyd": {1, 2, 3}, "Dee": {4, 5}, "Eli": {0, 1, 2, 3, 4, 5}}


@pytest.fixture
def week():
    shifts = build_week(MONDAY, SITES)
    assign(shifts, AVAIL)
    return shifts


def test_build_week_skips_sunday():
    shifts = build_week(MONDAY, SITES)
    assert len(shifts) == 18


def test_build_week_from_wednesday():
    shifts = build_week(date(2026, 11, 25), SITES)
    assert {s.day.weekday() for s in shifts} == {0, 1, 2, 3, 4, 5}


@pytest.mark.parametrize("day", range(6))
def test_every_day_has_depot(week, day):
    assert any(s.site == "depot" and s.day.weekday() == day for s in week)


@pytest.mark.parametrize("day", range(6))
def test_depot_fully_covered(week, day):
    depot = next(s for s in week if s.site == "depot" and s.day.weekday() == day)
    log.debug("depot on %s: %s", depot.day, depot.volunteers)
    assert depot.short <= 0


@pytest.mark.parametrize("site,expected", [("depot", 36), ("church-hall", 24), ("annex", 12)])
def test_parcels_per_full_shift(site, expected):
    shift = Shift(MONDAY, site, 3, ["Ada", "Bo", "Cyd"][: SITES[site]])
    assert parcels_per_shift(shift) == expected


def test_cover_rate(week):
    assert cover_rate(week) == pytest.approx(0.5, abs=0.2)


def test_cover_rate_empty():
    assert cover_rate([]) == 0.0


def test_no_volunteer_twice_a_day(week):
    for day in range(6):
        names = [n for s in week if s.day.weekday() == day for n in s.volunteers]
        assert len(names) == len(set(names)), f"double-booked on day {day}: {names}"
