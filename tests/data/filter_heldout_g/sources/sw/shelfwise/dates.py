"""Due dates: loan periods by item type, skipping the days a branch is closed.

>>> from datetime import date
>>> due_date(date(2026, 11, 20), "book")
datetime.date(2026, 12, 11)
>>> due_date(date(2026, 11, 20), "dvd")
datetime.date(2026, 11, 27)
>>> parse_due("2026-11-31")
Traceback (most recent call last):
    ...
ValueError: bad due date: 2026-11-31
>>> loan_days("magazine")
7
>>> loan_days("ebook")
21
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

LOAN_DAYS = {"book": 21, "dvd": 7, "magazine": 7, "audiobook": 14}
CLOSED = {date(2026, 12, 25), date(2026, 12, 26), date(2027, 1, 1)}


def loan_days(kind: str) -> int:
    return LOAN_DAYS[kind]


def due_date(out: date, kind: str) -> date:
    due = out + timedelta(days=loan_days(kind))
    while due in CLOSED or due.weekday() == 6:
        due += timedelta(days=1)
    return due


def parse_due(text: str) -> date:
    try:
        return datetime.strptime(text, "%Y-%m-%d").date()
    except ValueError:
        raise ValueError(f"bad due date: {text}") from None


def days_late(due: date, returned: date) -> int:
    return max(0, (returned - due).days)
