"""Due dates for every lending day of the winter season, against the rule as the branch managers wrote it."""

from datetime import date, timedelta

import pytest

from shelfwise.dates import due_date

CLOSED = {date(2026, 12, 24), date(2026, 12, 25), date(2026, 12, 26), date(2027, 1, 1)}
START = date(2026, 11, 1)
CASES = [(kind, START + timedelta(days=i)) for kind in ("book", "dvd") for i in range(150)]


def expected(out, kind):
    due = out + timedelta(days={"book": 21, "dvd": 7}[kind])
    while due in CLOSED or due.weekday() == 6:
        due += timedelta(days=1)
    return due


@pytest.mark.parametrize(("kind", "out"), CASES, ids=[f"{k}-{d.isoformat()}" for k, d in CASES])
def test_due_date_rule(kind, out):
    assert due_date(out, kind) == expected(out, kind)
