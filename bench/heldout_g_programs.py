# ruff: noqa: E501 - programs written out whole
"""The programs and projects ``bench/make_heldout_g.py`` runs to record the seventh held-apart corpus (G).

Each is a small, real program: what it prints is whatever Python, pandas, pytest, nbval, tqdm, cargo, gcc, node,
npm, sqlite3, bash and git print when it runs. ``random`` only varies sample data (seeded, so a re-recording is the
same where the tools are). Nothing is simulated.

The projects: ``shelfwise`` (a public library's loans and fines, in Python), ``sprout`` (a greenhouse irrigation
planner, Node without dependencies, driven by npm scripts), ``quarry`` (a Rust crate converting climbing grades),
``ringq`` (a C ring buffer whose Makefile runs its tests), and ``choir`` (a git repo of a choir's setlists).
"""

from __future__ import annotations

import json
import random

# ------------------------------------------------------------------------------------------------ data
BRANCHES = ["central", "eastgate", "harbourside", "millbrook", "northfield", "oakridge", "riverside", "southbank",
            "westend", "willowdale", "brookhaven", "kingsmere"]  # fmt: skip
GENRES = ["fiction", "mystery", "children", "biography", "science", "history", "travel", "cookery", "poetry", "graphic"]


def members_csv() -> str:
    rng = random.Random(7)
    lines = ["member_id,name,branch,joined,status"]
    first = ["Ada", "Bram", "Cleo", "Dario", "Elif", "Femi", "Greta", "Hugo", "Ines", "Jonas", "Kaja", "Luca", "Mira",
             "Nils", "Odile", "Pavel", "Quinn", "Rosa", "Sami", "Tove"]  # fmt: skip
    last = ["Arden", "Birch", "Castell", "Dunmore", "Eklund", "Farrow", "Gale", "Holt", "Ivers", "Juniper"]
    for i in range(1, 241):
        status = "active" if rng.random() > 0.08 else "suspended"
        lines.append(
            f"{i},{rng.choice(first)} {rng.choice(last)},{rng.choice(BRANCHES)},20{rng.randint(12, 26)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d},{status}"
        )
    return "\n".join(lines) + "\n"


def loans_csv() -> str:
    """Loans as the circulation desk exports them: member ids are written with a leading 'M' by one branch."""
    rng = random.Random(11)
    lines = ["loan_id,member_id,isbn,genre,branch,out,due,returned"]
    for i in range(1, 1201):
        member = rng.randint(1, 240)
        branch = rng.choice(BRANCHES)
        day = rng.randint(1, 30)
        due = day + 21
        due_s = f"2026-10-{due:02d}" if due <= 31 else f"2026-11-{due - 31:02d}"
        ret = "" if rng.random() < 0.18 else (f"2026-11-{rng.randint(1, 25):02d}")
        mid = f"M{member}" if branch == "harbourside" else str(member)
        lines.append(
            f"{i},{mid},978{rng.randint(10**9, 10**10 - 1)},{rng.choice(GENRES)},{branch},2026-10-{day:02d},{due_s},{ret}"
        )
    return "\n".join(lines) + "\n"


def returns_batch_csv() -> str:
    """A returns batch for sqlite's .import: two rows carry an extra field, one lacks one."""
    rng = random.Random(3)
    lines = ["loan_id,returned,condition,desk"]
    for i in range(1, 61):
        row = f"{rng.randint(1, 1200)},2026-11-{rng.randint(1, 25):02d},{rng.choice(['good', 'good', 'good', 'worn', 'damaged'])},desk-{rng.randint(1, 4)}"
        if i in (17, 44):
            row += ",water damage noted"
        if i == 52:
            row = f"{rng.randint(1, 1200)},2026-11-19,good"
        lines.append(row)
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------------- shelfwise (Python)
SW: dict[str, str] = {}

SW["pyproject.toml"] = """
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "shelfwise"
version = "0.3.0"
description = "Loans, holds and fines for a public library network"
requires-python = ">=3.10"
dependencies = []

[project.optional-dependencies]
report = ["pandas>=2", "openpyxl>=3.1"]

[tool.setuptools.packages.find]
include = ["shelfwise*"]

[tool.pytest.ini_options]
testpaths = ["tests"]
markers = ["slow: talks to the branch export folder"]
"""

SW["README.md"] = "# shelfwise\n\nLoans, holds and fines for the county library network.\n"

SW["shelfwise/__init__.py"] = '''
"""Loans, holds and fines for a public library network."""
__version__ = "0.3.0"
'''

SW["shelfwise/fines.py"] = '''
"""Overdue fines.

Adults pay 25 cents a day after a two-day grace period, children 10 cents, capped at the item's replacement cost.

>>> fine_cents(days_late=5, child=False)
75
>>> fine_cents(days_late=1, child=False)
0
>>> fine_cents(days_late=40, child=True, cap_cents=300)
300
"""

from __future__ import annotations

GRACE_DAYS = 2
ADULT_CENTS = 25
CHILD_CENTS = 10


def fine_cents(days_late: int, child: bool = False, cap_cents: int | None = None) -> int:
    """The fine for an item returned ``days_late`` days after its due date.

    >>> fine_cents(3)
    25
    >>> fine_cents(0, child=True)
    0
    """
    if days_late <= GRACE_DAYS:
        return 0
    rate = CHILD_CENTS if child else ADULT_CENTS
    fine = (days_late - GRACE_DAYS + 1) * rate
    if cap_cents is not None:
        fine = min(fine, cap_cents)
    return fine


def format_cents(cents: int) -> str:
    """Cents as a price on a receipt.

    >>> format_cents(1250)
    '$12.50'
    >>> format_cents(5)
    '$0.05'
    >>> format_cents(-300)
    '-$3.00'
    """
    return f"${cents // 100}.{cents % 100:02d}"


def waive(fines: dict[str, int], member_ids: list[str]):
    """Remove the fines of members whose fines were waived by a librarian."""
    for mid in member_ids:
        fines.pop(mid)
    return sum(fines.values())
'''

SW["shelfwise/dates.py"] = '''
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
'''

SW["shelfwise/catalog.py"] = '''
"""ISBN checks for the catalogue."""

from __future__ import annotations


def isbn10_ok(isbn: str) -> bool:
    digits = isbn.replace("-", "")
    if len(digits) != 10 or not digits[:9].isdigit():
        return False
    total = sum((10 - i) * int(ch) for i, ch in enumerate(digits[:9]))
    check = digits[9]
    if not check.isdigit():
        return False
    return (total + int(check)) % 11 == 0


def isbn13_ok(isbn: str) -> bool:
    digits = isbn.replace("-", "")
    if len(digits) != 13 or not digits.isdigit():
        return False
    total = sum(int(ch) * (1 if i % 2 == 0 else 3) for i, ch in enumerate(digits))
    return total % 10 == 0


def to_isbn13(isbn10: str) -> str:
    core = "978" + isbn10.replace("-", "")[:9]
    total = sum(int(ch) * (1 if i % 2 == 0 else 3) for i, ch in enumerate(core))
    return core + str((10 - total % 10) % 10)


def shelf_mark(genre: str, author: str) -> str:
    return f"{genre[:3].upper()} {author.split()[-1][:3].upper()}"
'''

SW["shelfwise/legacy.py"] = '''
"""The old desk client's helpers, kept while branches migrate."""

from __future__ import annotations

import warnings

from shelfwise.fines import fine_cents


def old_fine(days: int) -> float:
    warnings.warn("old_fine() returns dollars as float; use shelfwise.fines.fine_cents", DeprecationWarning, stacklevel=2)
    return fine_cents(days) / 100


def card_number(member_id: int) -> str:
    warnings.warn("card numbers are issued by the county system since 2025", UserWarning, stacklevel=2)
    return f"LIB{member_id:07d}"
'''

SW["shelfwise/holds.py"] = '''
"""Holds queue: a member reserves a title, the next copy returned goes to the first in line."""

from __future__ import annotations

from dataclasses import dataclass

from shelfwise.notify import notify_ready


@dataclass
class Hold:
    member_id: int
    isbn: str
    branch: str


def fulfil(queue: list[Hold], isbn: str) -> Hold | None:
    for hold in queue:
        if hold.isbn == isbn:
            queue.remove(hold)
            notify_ready(hold)
            return hold
    return None
'''

SW["shelfwise/notify.py"] = '''
"""Messages to members."""

from __future__ import annotations

from shelfwise.holds import Hold


def notify_ready(hold: Hold) -> str:
    return f"member {hold.member_id}: your hold {hold.isbn} is ready at {hold.branch}"
'''

SW["shelfwise/sync.py"] = '''
"""The nightly sync: pull each branch's circulation export, post loans to the county catalogue, log everything."""

from __future__ import annotations

import argparse
import logging
import random
import sys
from datetime import datetime, timedelta

BRANCHES = ["central", "eastgate", "harbourside", "millbrook", "northfield", "oakridge", "riverside", "southbank",
            "westend", "willowdale", "brookhaven", "kingsmere"]

log = logging.getLogger("shelfwise.sync")


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 25, 1, 0, 0)

    def tick(self, rng: random.Random) -> None:
        self.now += timedelta(milliseconds=rng.randint(40, 900))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="shelfwise.sync")
    parser.add_argument("--batches", type=int, default=60)
    parser.add_argument("--log", default="logs/sync.log")
    parser.add_argument("--echo", action="store_true", help="also log to stderr")
    args = parser.parse_args(argv)
    clock = Clock()

    class ClockFormatter(logging.Formatter):
        def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802
            return clock.now.strftime("%Y-%m-%d %H:%M:%S") + f",{clock.now.microsecond // 1000:03d}"

    fmt = ClockFormatter("%(asctime)s %(levelname)-5s %(message)s")
    handlers: list[logging.Handler] = [logging.FileHandler(args.log, mode="w")]
    if args.echo:
        handlers.append(logging.StreamHandler())
    for handler in handlers:
        handler.setFormatter(fmt)
    logging.basicConfig(level=logging.INFO, handlers=handlers)
    rng = random.Random(2026)
    posted = skipped = 0
    log.info("sync start: %d branches, batch size 50, catalogue api v3", len(BRANCHES))
    for batch in range(1, args.batches + 1):
        branch = BRANCHES[batch % len(BRANCHES)]
        clock.tick(rng)
        log.info("b%04d %-11s fetch export page %d", batch, branch, batch // len(BRANCHES) + 1)
        for _ in range(rng.randint(10, 14)):
            clock.tick(rng)
            loan = rng.randint(100000, 999999)
            log.info("b%04d %-11s loan %d -> 201 (%d ms)", batch, branch, loan, rng.randint(18, 95))
            posted += 1
        if batch == 47:
            clock.tick(rng)
            log.warning("b%04d %-11s loan 552210 -> 409 (barcode 31842009917 already on loan at eastgate)", batch, branch)
            for attempt in range(1, 4):
                clock.tick(rng)
                log.info("b%04d %-11s loan 552210 retry %d/3", batch, branch, attempt)
            clock.tick(rng)
            log.error("b%04d %-11s gave up on loan 552210 after 3 retries: ConflictError('barcode 31842009917 checked out twice')", batch, branch)
            skipped += 1
        clock.tick(rng)
        log.info("b%04d %-11s done", batch, branch)
    clock.tick(rng)
    log.info("sync finished: %d loans posted, %d skipped, %d batches", posted, skipped, args.batches)
    print(f"sync finished: {posted} loans posted, {skipped} skipped (see {args.log})", file=sys.stderr)
    return 1 if skipped else 0


if __name__ == "__main__":
    raise SystemExit(main())
'''

SW["tests/__init__.py"] = ""

SW["tests/test_fines.py"] = """
import pytest

from shelfwise.fines import fine_cents, format_cents, waive


@pytest.mark.parametrize(
    ("days", "child", "expected"),
    [
        (0, False, 0),
        (1, False, 0),
        (2, False, 0),
        (3, False, 25),
        (4, False, 50),
        (10, False, 200),
        (30, False, 700),
        (3, True, 10),
        (12, True, 100),
    ],
)
def test_fine_cents(days, child, expected):
    assert fine_cents(days, child=child) == expected


@pytest.mark.parametrize(("cents", "text"), [(1250, "$12.50"), (5, "$0.05"), (0, "$0.00"), (-300, "-$3.00")])
def test_format_cents(cents, text):
    assert format_cents(cents) == text


def test_cap_is_replacement_cost():
    assert fine_cents(400, cap_cents=2499) == 2499


def test_waive_unknown_member():
    fines = {"17": 250, "42": 75}
    assert waive(fines, ["42", "99"]) == 250
"""

SW["tests/test_catalog.py"] = """
import pytest

from shelfwise.catalog import isbn10_ok, isbn13_ok, shelf_mark, to_isbn13

GOOD_10 = ["0-306-40615-2", "0-19-852663-6", "1-85326-158-0", "0-8044-2957-X", "0-9752298-0-X", "0-684-84328-5", "0-14-044913-5"]
GOOD_13 = ["978-0-306-40615-7", "978-1-86197-876-9", "978-0-14-044913-6", "978-3-16-148410-0"]


@pytest.mark.parametrize("isbn", GOOD_10)
def test_isbn10_ok(isbn):
    assert isbn10_ok(isbn)


@pytest.mark.parametrize("isbn", GOOD_13)
def test_isbn13_ok(isbn):
    assert isbn13_ok(isbn)


@pytest.mark.parametrize("isbn", ["0-306-40615-3", "12345", "978-0-306-40615-8", "abcdefghij"])
def test_bad_isbns(isbn):
    assert not isbn10_ok(isbn) and not isbn13_ok(isbn)


@pytest.mark.parametrize(("old", "new"), [("0-306-40615-2", "9780306406157"), ("0-14-044913-5", "9780140449136"), ("0-8044-2957-X", "9780804429573")])
def test_to_isbn13(old, new):
    assert to_isbn13(old) == new


@pytest.mark.parametrize(
    ("genre", "author", "mark"),
    [("fiction", "Ursula K. Le Guin", "FIC LE "), ("mystery", "Agatha Christie", "MYS CHR"), ("poetry", "Wisława Szymborska", "POE SZY")],
)
def test_shelf_mark(genre, author, mark):
    assert shelf_mark(genre, author) == mark
"""

SW["tests/test_dates.py"] = """
from datetime import date

import pytest

from shelfwise.dates import days_late, due_date, loan_days, parse_due


def test_book_due_in_three_weeks():
    assert due_date(date(2026, 11, 2), "book") == date(2026, 11, 23)


def test_due_date_skips_christmas():
    assert due_date(date(2026, 12, 4), "book") == date(2026, 12, 28)


@pytest.mark.xfail(reason="ebooks are lent by the county platform, not by us")
def test_ebook_loan_days():
    assert loan_days("ebook") == 21


@pytest.mark.xfail(reason="Sunday closing moved to Monday in 2027 (SW-88)")
def test_due_date_sunday_rule_2027():
    assert due_date(date(2027, 3, 1), "dvd") == date(2027, 3, 8)


@pytest.mark.xfail(reason="magazines go out for 14 days from January", strict=True)
def test_magazine_days_2027():
    assert loan_days("magazine") == 7


def test_parse_due_rejects_day_31():
    with pytest.raises(ValueError, match="bad due date"):
        parse_due("2026-11-31")


def test_days_late_never_negative():
    assert days_late(date(2026, 11, 20), date(2026, 11, 10)) == 0


@pytest.mark.slow
def test_branch_export_folder(tmp_path):
    assert (tmp_path / "exports").exists()
"""

SW["tests/test_calendar.py"] = '''
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
'''

SW["tests/test_legacy.py"] = """
from shelfwise.legacy import card_number, old_fine


def test_old_fine_in_dollars():
    assert old_fine(6) == 1.25


def test_old_fine_zero():
    assert old_fine(1) == 0


def test_card_number():
    assert card_number(42) == "LIB0000042"
"""

SW["legacy_tests/__init__.py"] = ""

SW["legacy_tests/test_renewals.py"] = """
import unittest
from datetime import date

from shelfwise.dates import due_date, loan_days


def renew(due, kind, renewals):
    if renewals >= 2:
        raise RuntimeError("renewal limit reached")
    return due_date(due, kind)


class RenewalTests(unittest.TestCase):
    def test_renew_book_once(self):
        self.assertEqual(renew(date(2026, 11, 23), "book", 0), date(2026, 12, 14))

    def test_renew_dvd_twice_is_refused(self):
        with self.assertRaises(RuntimeError):
            renew(date(2026, 11, 23), "dvd", 2)

    def test_renew_audiobook(self):
        self.assertEqual(renew(date(2026, 11, 23), "audiobook", 1), date(2026, 12, 8))

    def test_renew_boardgame(self):
        self.assertEqual(renew(date(2026, 11, 23), "boardgame", 0), date(2026, 11, 30))

    @unittest.skip("needs the county holds API")
    def test_renew_with_hold_waiting(self):
        pass

    def test_loan_days_table(self):
        self.assertDictEqual({k: loan_days(k) for k in ("book", "dvd")}, {"book": 21, "dvd": 14})


if __name__ == "__main__":
    unittest.main()
"""

SW["overdue_report.py"] = '''
"""Overdue items per branch, with the member's home branch, for the Monday meeting."""

import pandas as pd

loans = pd.read_csv("data/loans.csv", parse_dates=["out", "due"])
members = pd.read_csv("data/members.csv")

open_loans = loans[loans["returned"].isna()]
overdue = open_loans[open_loans["due"] < "2026-11-26"]
print(f"{len(overdue)} overdue loans")
joined = overdue.merge(members, on="member_id", how="left", suffixes=("", "_home"))
table = joined.groupby(["branch", "branch_home"]).size().unstack(fill_value=0)
print(table)
'''

SW["genre_stats.py"] = '''
"""Loans by genre and branch, and the share returned late."""

import numpy as np
import pandas as pd

loans = pd.read_csv("data/loans.csv", parse_dates=["out", "due", "returned"])
loans["late"] = loans["returned"] > loans["due"]
by_genre = loans.pivot_table(index="genre", columns="branch", values="loan_id", aggfunc="count")
print(by_genre.iloc[:, :6])
weights = np.array([0.5, 0.3, 0.2])
scores = by_genre.values @ weights
print(scores)
'''

SW["scripts/import_marc.py"] = '''
"""Import MARC records exported by the old catalogue into the county format."""

import sys

FIELDS = {"020": "isbn", "100": "author", "245": "title", "260": "imprint"}


def parse_record(lines):
    record = {}
    for line in lines:
        tag, value = line[:3], line[4:].strip()
        if tag in FIELDS:
            record[FIELDS[tag]] = value
    return record


def main(path):
    with open(path) as fh:
        chunks = fh.read().split("\\n\\n")
    records = [parse_record(chunk.splitlines()) for chunk in chunks if chunk.strip()]
    for rec in records:
        print("{isbn}\\t{title}".format(**rec)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
'''

SW["deploy/staging.env"] = """
SHELFWISE_ENV=staging
SHELFWISE_DB=/srv/shelfwise/staging.db
SHELFWISE_LOG_LEVEL=debug
SHELFWISE_BRANCHES=central,eastgate,harbourside,millbrook
SHELFWISE_EXPORT_DIR=/srv/shelfwise/exports
SHELFWISE_FINE_CAP_CENTS=2500
SHELFWISE_MAIL_FROM=noreply@library.example.org
SHELFWISE_MAIL_HOST=localhost
SHELFWISE_WORKERS=3
TZ=Europe/Dublin
"""

SW["deploy/rotate_logs.sh"] = """
#!/usr/bin/env bash
# Rotate the sync logs: keep seven, compress the rest.
set -euo pipefail

LOG_DIR=${SHELFWISE_LOG_DIR:-logs}
KEEP=7

cd "$LOG_DIR"
count=$(ls -1 sync*.log | wc -l)
echo "found $count logs in $LOG_DIR"
for f in $(ls -1t sync*.log | tail -n +$((KEEP + 1))); do
    gzip -9 "$f"
done
echo "archiving to $ARCHIVE_DIR"
mv ./*.gz "$ARCHIVE_DIR"/
"""

SW["deploy/nightly.sh"] = """
#!/usr/bin/env bash
# Nightly job: sync, then the overdue report, then mail it.
set -e

if [ -z "$SHELFWISE_ENV" ]; then
    echo "SHELFWISE_ENV not set" >&2
    exit 2
fi

for branch in ${SHELFWISE_BRANCHES//,/ }; do
    if [ "$branch" == "harbourside" ] then
        echo "harbourside exports are converted first"
    fi
    echo "syncing $branch"
done

case "$1" in
    --dry-run) echo "dry run";;
    *) python -m shelfwise.sync
esac
"""

SW["migrations/004_branch_hours.sql"] = """
-- 004: opening hours per branch, and the closed days the due-date rule skips
BEGIN;
CREATE TABLE branch_hours (
    branch TEXT NOT NULL REFERENCES branches(code),
    weekday INTEGER NOT NULL CHECK (weekday BETWEEN 0 AND 6),
    opens TEXT NOT NULL,
    closes TEXT NOT NULL,
    PRIMARY KEY (branch, weekday)
);
INSERT INTO branch_hours SELECT code, 0, '09:00', '18:00' FROM branches;
INSERT INTO branch_hours SELECT code, 5, '10:00', '14:00' FROM branches;
UPDATE loans SET due_date = date(due_date, '+1 day') WHERE strftime('%w', due_date) = '0';
CREATE INDEX idx_loans_due ON loans(due);
COMMIT;
"""


def circulation_notebook() -> str:
    """A notebook a librarian runs each week; its fourth cell asks for a column the export does not have."""

    def code(src: str) -> dict[str, object]:
        return {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": src}

    def md(src: str) -> dict[str, object]:
        return {"cell_type": "markdown", "metadata": {}, "source": src}

    cells = [
        md("# Weekly circulation\n\nLoans out, returns and overdue items by branch."),
        code(
            "import pandas as pd\n\nloans = pd.read_csv('data/loans.csv', parse_dates=['out', 'due', 'returned'])\nloans.shape"
        ),
        code("loans.groupby('branch')['loan_id'].count().sort_values(ascending=False).head(5)"),
        code("open_now = loans[loans['returned'].isna()]\nprint(len(open_now), 'items out')"),
        code("late = open_now[open_now['due'] < '2026-11-26']\nlate.groupby(['branch', 'format'])['loan_id'].count()"),
        code("late.groupby('genre')['loan_id'].count()"),
    ]
    for i, cell in enumerate(cells):
        cell["id"] = f"c{i}"
    nb = {
        "cells": cells,
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                     "language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }  # fmt: skip
    return json.dumps(nb, indent=1) + "\n"


REINDEX = '''
"""Rebuild the catalogue search index: normalise titles, compute trigrams, and score duplicates."""

import random
import time

from tqdm import tqdm

rng = random.Random(4)
records = [f"record-{i:05d}" for i in range(4800)]
index = {}
bad = 0
for rec in tqdm(records, desc="normalise", mininterval=0, miniters=60, ncols=90):
    if rec == "record-04411":
        tqdm.write("WARNING record-04411: MARC leader says 'a' but field 245 is empty; record skipped")
        bad += 1
        continue
    index[rec] = rec.upper()
    time.sleep(0.0002)
for rec in tqdm(list(index), desc="trigrams ", mininterval=0, miniters=60, ncols=90):
    index[rec] = {index[rec][i:i + 3] for i in range(len(index[rec]) - 2)}
    time.sleep(0.0001)
pairs = 0
for _ in tqdm(range(40), desc="dedupe   ", unit="block", mininterval=0, ncols=90):
    pairs += rng.randint(0, 3)
    time.sleep(0.01)
print(f"indexed {len(index)} records, {bad} skipped, {pairs} probable duplicate pairs")
'''

TRAIN = '''
"""Train the 'will this loan come back late' model: logistic regression by hand, tqdm per epoch."""

import math
import random

from tqdm import tqdm, trange

rng = random.Random(9)
rows = [(rng.random(), rng.random(), rng.random()) for _ in range(3000)]
labels = [1 if a * 1.5 + b - c > 0.8 else 0 for a, b, c in rows]
w = [0.0, 0.0, 0.0]
bias = 0.0
lr = 0.5
best = math.inf
patience = 0
for epoch in trange(1, 31, desc="epochs", ncols=90, mininterval=0):
    loss = 0.0
    for (a, b, c), y in zip(rows, labels):
        z = w[0] * a + w[1] * b + w[2] * c + bias
        p = 1 / (1 + math.exp(-z))
        loss -= y * math.log(p + 1e-12) + (1 - y) * math.log(1 - p + 1e-12)
        g = p - y
        w = [w[0] - lr * g * a / 50, w[1] - lr * g * b / 50, w[2] - lr * g * c / 50]
        bias -= lr * g / 50
    loss /= len(rows)
    tqdm.write(f"epoch {epoch:2d} loss {loss:.4f} w={[round(x, 3) for x in w]}")
    if loss < best - 1e-3:
        best, patience = loss, 0
    else:
        patience += 1
        if patience == 3:
            tqdm.write(f"early stop at epoch {epoch}: loss has not improved for 3 epochs (best {best:.4f})")
            break
acc = sum((w[0] * a + w[1] * b + w[2] * c + bias > 0) == bool(y) for (a, b, c), y in zip(rows, labels)) / len(rows)
print(f"train accuracy {acc:.3f}")
'''


# --------------------------------------------------------------------------------------------- sprout (Node)
SPROUT: dict[str, str] = {}

SPROUT["package.json"] = (
    json.dumps(
        {
            "name": "sprout",
            "version": "1.4.0",
            "description": "Irrigation planner for the community greenhouse",
            "type": "module",
            "private": True,
            "scripts": {
                "test": "node --test test/",
                "test:unit": "node --test --test-reporter=dot test/",
                "lint": "node scripts/lint.mjs src",
                "build": "node scripts/build.mjs",
                "plan": "node src/cli.mjs plan data/beds.json",
                "check": "npm run lint && npm run test:unit",
            },
            "engines": {"node": ">=20"},
        },
        indent=2,
    )
    + "\n"
)

SPROUT["src/water.mjs"] = """
// Litres per bed per day from the plant's need, the bed's area and the week's forecast.

export const NEED_MM = { tomato: 6, lettuce: 4, basil: 3.5, pepper: 5, cucumber: 7 };

export function litresPerDay(bed, forecastMm = 0) {
  const need = NEED_MM[bed.crop];
  if (need === undefined) throw new Error(`unknown crop '${bed.crop}' in bed ${bed.id}`);
  const net = Math.max(0, need - forecastMm / 7);
  return Math.round(net * bed.areaM2 * 10) / 10;
}

export function schedule(beds, forecastMm) {
  return beds.map((bed) => ({ id: bed.id, litres: litresPerDay(bed, forecastMm), valve: bed.valve }));
}

export function valveMinutes(litres, flowLpm) {
  return Math.ceil(litres / flowLpm);
}
"""

SPROUT["src/moisture.mjs"] = """
// Soil moisture sensors report raw ADC counts; 0% is dry air, 100% is a glass of water.

export function percent(raw, dry = 880, wet = 410) {
  const p = ((dry - raw) / (dry - wet)) * 100;
  return Math.min(100, Math.max(0, Math.round(p)));
}

export function needsWater(raw, threshold = 35) {
  return percent(raw) < threshold;
}

export function median(values) {
  const sorted = [...values].sort();
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
"""

SPROUT["src/cli.mjs"] = """
import { readFileSync } from 'node:fs';
import { schedule, valveMinutes } from './water.mjs';

const [cmd, file] = process.argv.slice(2);
if (cmd !== 'plan') {
  console.error('usage: cli.mjs plan BEDS.json');
  process.exit(2);
}
const beds = JSON.parse(readFileSync(file, 'utf8'));
for (const row of schedule(beds, 9)) {
  console.log(`${row.id.padEnd(6)} ${String(row.litres).padStart(6)} L  valve ${row.valve}  ${valveMinutes(row.litres, 12)} min`);
}
"""

SPROUT["test/water.test.mjs"] = """
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { litresPerDay, schedule, valveMinutes } from '../src/water.mjs';

test('tomatoes in a 2 m2 bed with no rain', () => {
  assert.equal(litresPerDay({ id: 'A1', crop: 'tomato', areaM2: 2 }), 12);
});

test('rain reduces the need', () => {
  assert.equal(litresPerDay({ id: 'A2', crop: 'lettuce', areaM2: 1.5 }, 14), 3);
});

test('unknown crop is an error', () => {
  assert.throws(() => litresPerDay({ id: 'B9', crop: 'kale', areaM2: 1 }), /unknown crop 'kale'/);
});

test('valve minutes round up', () => {
  assert.equal(valveMinutes(25, 12), 3);
});

test('schedule keeps the valve of each bed', () => {
  const beds = [{ id: 'C1', crop: 'basil', areaM2: 1, valve: 3 }, { id: 'C2', crop: 'pepper', areaM2: 2, valve: 4 }];
  assert.deepEqual(schedule(beds, 0), [{ id: 'C1', litres: 3.5, valve: 3 }, { id: 'C2', litres: 10, valve: 5 }]);
});
"""

SPROUT["test/moisture.test.mjs"] = """
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { median, needsWater, percent } from '../src/moisture.mjs';

describe('moisture percent', () => {
  it('dry sensor reads 0', () => assert.equal(percent(880), 0));
  it('wet sensor reads 100', () => assert.equal(percent(410), 100));
  it('half way', () => assert.equal(percent(645), 50));
  it('below the threshold needs water', () => assert.equal(needsWater(800), true));
});

describe('median of readings', () => {
  it('odd count', () => assert.equal(median([512, 498, 530]), 512));
  it('mixed magnitudes', () => assert.equal(median([95, 410, 1020]), 410));
  it.todo('drops readings outside 0..1023');
});
"""

SPROUT["scripts/lint.mjs"] = """
// A small house linter: no console.log in src/ (except the CLI), no 'var', lines <= 100 chars, trailing spaces.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = process.argv[2] ?? 'src';
let problems = 0;
for (const name of readdirSync(root).sort()) {
  if (!name.endsWith('.mjs')) continue;
  const path = join(root, name);
  readFileSync(path, 'utf8').split('\\n').forEach((line, i) => {
    const at = `${path}:${i + 1}`;
    if (/\\bvar\\s/.test(line)) { console.log(`${at}  error  no-var  'var' declaration`); problems++; }
    if (line.length > 100) { console.log(`${at}  warn   max-len  line is ${line.length} chars (max 100)`); problems++; }
    if (/\\s+$/.test(line)) { console.log(`${at}  warn   no-trailing-spaces`); problems++; }
    if (name !== 'cli.mjs' && /console\\.log/.test(line)) { console.log(`${at}  error  no-console`); problems++; }
  });
}
console.log(`\\n${problems} problems`);
process.exitCode = problems ? 1 : 0;
"""

SPROUT["scripts/build.mjs"] = """
// Bundle src/ into dist/sprout.mjs, and write the valve map the controller reads.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';

mkdirSync('dist', { recursive: true });
const parts = readdirSync('src').filter((n) => n.endsWith('.mjs')).sort();
let out = '';
for (const name of parts) {
  const text = readFileSync(`src/${name}`, 'utf8');
  console.log(`bundled src/${name} (${text.length} bytes)`);
  out += `// --- ${name}\\n${text}\\n`;
}
writeFileSync('dist/sprout.mjs', out);
const beds = JSON.parse(readFileSync('data/beds.json', 'utf8'));
const valves = Object.fromEntries(beds.map((b) => [b.valve.toString(16), b.id]));
writeFileSync('dist/valves.json', JSON.stringify(valves, null, 2));
console.log(`wrote dist/valves.json (${beds.length} beds)`);
"""


def beds_json() -> str:
    rng = random.Random(21)
    crops = ["tomato", "lettuce", "basil", "pepper", "cucumber"]
    beds: list[dict[str, object]] = []
    for i in range(1, 19):
        bed: dict[str, object] = {
            "id": f"{'ABC'[i % 3]}{i}",
            "crop": rng.choice(crops),
            "areaM2": rng.choice([1, 1.5, 2, 3]),
            "valve": i,
        }
        beds.append(bed)
    del beds[13]["valve"]  # bed 14 was replumbed and has no valve yet
    return json.dumps(beds, indent=1) + "\n"


# --------------------------------------------------------------------------------------------- quarry (Rust)
QUARRY_TOML = """
[package]
name = "quarry"
version = "0.5.1"
edition = "2021"
description = "Convert climbing grades between French, YDS and V-scale"

[dependencies]

[[bench]]
name = "convert"
harness = false
"""

QUARRY_LIB = r"""
//! Climbing grades: French sport grades, the Yosemite Decimal System and the V-scale for boulders.
//!
//! See [`Grade::parse`] and [`to_yds`]; the tables come from [`TABLE_SOURCE`].

/// One grade in one system.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Grade {
    /// A French grade such as `6a+`.
    French(String),
    /// A YDS grade such as `5.10c`.
    Yds(String),
    /// A boulder grade such as `V4`.
    V(u8),
}

const FRENCH: [&str; 18] = ["5a", "5b", "5c", "6a", "6a+", "6b", "6b+", "6c", "6c+", "7a", "7a+", "7b", "7b+", "7c", "7c+", "8a", "8a+", "8b"];
const YDS: [&str; 18] = ["5.7", "5.8", "5.9", "5.10a", "5.10b", "5.10c", "5.10d", "5.11a", "5.11b", "5.11c", "5.11d", "5.12a", "5.12b", "5.12c", "5.12d", "5.13a", "5.13b", "5.13c"];

impl Grade {
    /// Parse a grade written as on a topo.
    ///
    /// ```
    /// use quarry::Grade;
    /// assert_eq!(Grade::parse("V4"), Some(Grade::V(4)));
    /// assert_eq!(Grade::parse("6a+"), Some(Grade::French("6a+".into())));
    /// assert_eq!(Grade::parse("5.10c"), Some(Grade::Yds("5.10c".into())));
    /// ```
    pub fn parse(text: &str) -> Option<Grade> {
        let t = text.trim();
        if let Some(v) = t.strip_prefix('V') {
            return v.parse().ok().map(Grade::V);
        }
        if FRENCH.contains(&t) {
            return Some(Grade::French(t.to_string()));
        }
        if YDS.contains(&t) {
            return Some(Grade::Yds(t.to_string()));
        }
        None
    }

    /// The index of the grade in the shared table, for comparing across systems. See [`Grade::rank`].
    fn index(&self) -> Option<usize> {
        match self {
            Grade::French(s) => FRENCH.iter().position(|g| g == s),
            Grade::Yds(s) => YDS.iter().position(|g| g == s),
            Grade::V(_) => None,
        }
    }
}

/// Convert a French grade to YDS.
///
/// ```
/// assert_eq!(quarry::to_yds("6a"), Some("5.10a"));
/// assert_eq!(quarry::to_yds("7a"), Some("5.11d"));
/// ```
pub fn to_yds(french: &str) -> Option<&'static str> {
    FRENCH.iter().position(|g| *g == french).map(|i| YDS[i])
}

/// Convert a YDS grade to French; uses [`Grade::index`] internally and [`crate::tables::FONT`].
pub fn to_french(yds: &str) -> Option<&'static str> {
    Grade::Yds(yds.to_string()).index().map(|i| FRENCH[i])
}

/// The V grade a boulder problem of this French route difficulty feels like, rounded down.
///
/// ```
/// assert_eq!(quarry::v_from_french("7a"), Some(6));
/// ```
pub fn v_from_french(french: &str) -> Option<u8> {
    let i = FRENCH.iter().position(|g| *g == french)?;
    Some((i as u8).saturating_sub(4) / 2)
}

/// A pyramid of ticks: how many routes at each grade, hardest first.
pub fn pyramid(ticks: &[&str]) -> Vec<(String, usize)> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for t in ticks {
        match counts.iter_mut().find(|(g, _)| g == t) {
            Some((_, n)) => *n += 1,
            None => counts.push((t.to_string(), 1)),
        }
    }
    counts.sort_by(|a, b| b.0.cmp(&a.0));
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn french_to_yds_low() {
        assert_eq!(to_yds("5c"), Some("5.9"));
    }

    #[test]
    fn yds_round_trip() {
        for g in YDS {
            assert_eq!(to_yds(to_french(g).unwrap()), Some(g));
        }
    }

    #[test]
    fn pyramid_hardest_first() {
        let p = pyramid(&["6a", "6b+", "6a", "7a", "6b+", "6a"]);
        assert_eq!(p[0], ("7a".to_string(), 1));
        assert_eq!(p[2], ("6a".to_string(), 3));
    }

    #[test]
    fn pyramid_orders_plus_grades() {
        let p = pyramid(&["6a+", "6b", "6a"]);
        let order: Vec<&str> = p.iter().map(|(g, _)| g.as_str()).collect();
        assert_eq!(order, ["6b", "6a+", "6a"]);
    }
}
"""

QUARRY_BENCH = r"""
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let ticks: Vec<&str> = ["6a", "6a+", "6b", "6b+", "6c", "7a", "5c", "7a+"].iter().cycle().take(20_000).copied().collect();
    for (name, rounds) in [("parse", 200_000u32), ("to_yds", 200_000), ("pyramid", 50)] {
        let start = Instant::now();
        for i in 0..rounds {
            match name {
                "parse" => { black_box(quarry::Grade::parse(ticks[i as usize % ticks.len()])); }
                "to_yds" => { black_box(quarry::to_yds(ticks[i as usize % ticks.len()])); }
                _ => { black_box(quarry::pyramid(&ticks)); }
            }
        }
        let per = start.elapsed().as_nanos() / rounds as u128;
        println!("bench {:<8} {:>8} rounds {:>10} ns/iter", name, rounds, per);
    }
}
"""

QUARRY_WIP_BIN = r"""
// Import a gym's route list (name<TAB>grade) and print the pyramid.
use std::collections::HashMap;
use std::fs;

use quarry::{pyramid, Grade};

fn load(path: &str) -> Vec<(String, Grade)> {
    let text = fs::read_to_string(path).expect("route list");
    let mut routes = Vec::new();
    for line in text.lines() {
        let (name, grade) = line.split_once('\t')?;
        routes.push((name.to_string(), Grade::parse(grade)));
    }
    routes
}

fn main() {
    let routes = load("routes.tsv");
    let mut by_wall: HashMap<&str, Vec<&str>> = HashMap::new();
    for (name, grade) in &routes {
        let wall = name.split('-').next().unwrap();
        by_wall.entry(wall).or_default().push(grade);
    }
    let first = &mut routes[0];
    routes.push(first.clone());
    let total: u32 = routes.len();
    for (wall, grades) in by_wall {
        println!("{wall}: {:?}", pyramid(&grades));
    }
    println!("{total} routes");
}
"""


# --------------------------------------------------------------------------------------------- ringq (C)
RINGQ: dict[str, str] = {}

RINGQ["Makefile"] = """
CC ?= gcc
CFLAGS ?= -std=c11 -O1 -g -Wall -Wextra
BUILD := build

.PHONY: all tests clean

all: $(BUILD)/ringq_demo

$(BUILD):
\tmkdir -p $(BUILD)

$(BUILD)/ring.o: src/ring.c src/ring.h | $(BUILD)
\t$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/ringq_demo: demo/main.c $(BUILD)/ring.o
\t$(CC) $(CFLAGS) -Isrc $^ -o $@

$(BUILD)/test_ring: tests/test_ring.c $(BUILD)/ring.o
\t$(CC) $(CFLAGS) -Isrc $^ -o $@

tests: $(BUILD)/test_ring
\t./$(BUILD)/test_ring

clean:
\trm -rf $(BUILD)
"""

RINGQ["src/ring.h"] = """
#ifndef RING_H
#define RING_H
#include <stddef.h>
#include <stdbool.h>

typedef struct {
    int *buf;
    size_t cap;
    size_t head; /* next write */
    size_t tail; /* next read */
    size_t len;
} ring_t;

ring_t *ring_new(size_t cap);
void ring_free(ring_t *r);
bool ring_push(ring_t *r, int v);
bool ring_pop(ring_t *r, int *out);
size_t ring_len(const ring_t *r);
int ring_peek_last(const ring_t *r);
char *ring_describe(const ring_t *r);
#endif
"""

RINGQ["src/ring.c"] = """
#include "ring.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ring_t *ring_new(size_t cap) {
    ring_t *r = malloc(sizeof *r);
    if (!r) return NULL;
    r->buf = calloc(cap, sizeof(int));
    if (!r->buf) return NULL;
    r->cap = cap;
    r->head = r->tail = r->len = 0;
    return r;
}

void ring_free(ring_t *r) {
    free(r->buf);
    free(r);
}

bool ring_push(ring_t *r, int v) {
    if (r->len == r->cap) return false;
    r->buf[r->head] = v;
    r->head = (r->head + 1) % r->cap;
    r->len++;
    return true;
}

bool ring_pop(ring_t *r, int *out) {
    if (r->len == 0) return false;
    *out = r->buf[r->tail];
    r->tail = (r->tail + 1) % r->cap;
    r->len--;
    return true;
}

size_t ring_len(const ring_t *r) { return r->len; }

int ring_peek_last(const ring_t *r) {
    /* the most recently pushed value */
    return r->buf[r->head - 1];
}

char *ring_describe(const ring_t *r) {
    char *s = malloc(64);
    snprintf(s, 64, "ring cap=%zu len=%zu head=%zu tail=%zu", r->cap, r->len, r->head, r->tail);
    if (r->len == 0) {
        free(s);
    }
    return s;
}

void ring_log(const ring_t *r, FILE *fp) {
    char *line = ring_describe(r);
    fputs(line, fp);
    free(line);
    if (r->len > r->cap) fprintf(fp, " (corrupt: %s)\\n", line);
}
"""

RINGQ["demo/main.c"] = """
#include <stdio.h>
#include <stdlib.h>
#include "ring.h"

int main(void) {
    ring_t *r = ring_new(4);
    for (int i = 1; i <= 6; i++) {
        if (!ring_push(r, i * 10)) printf("full at %d\\n", i * 10);
    }
    int v;
    while (ring_pop(r, &v)) printf("pop %d\\n", v);
    char *d = ring_describe(r);
    printf("%s\\n", d);
    ring_free(r);
    return 0;
}
"""

RINGQ["tests/test_ring.c"] = """
#include <stdio.h>
#include "ring.h"

static int failures = 0, run = 0;
#define CHECK(cond) do { run++; if (!(cond)) { failures++; printf("FAIL %s:%d: %s\\n", __FILE__, __LINE__, #cond); } else { printf("ok   %s\\n", #cond); } } while (0)

int main(void) {
    ring_t *r = ring_new(3);
    int v = 0;
    CHECK(ring_len(r) == 0);
    CHECK(!ring_pop(r, &v));
    CHECK(ring_push(r, 1));
    CHECK(ring_push(r, 2));
    CHECK(ring_push(r, 3));
    CHECK(ring_peek_last(r) == 3);
    CHECK(!ring_push(r, 4));
    CHECK(ring_len(r) == 3);
    CHECK(ring_pop(r, &v) && v == 1);
    CHECK(ring_push(r, 5));
    CHECK(ring_peek_last(r) == 5);
    CHECK(ring_pop(r, &v) && v == 2);
    CHECK(ring_pop(r, &v) && v == 3);
    CHECK(ring_pop(r, &v) && v == 5);
    CHECK(ring_len(r) == 0);
    ring_free(r);
    printf("%d checks, %d failed\\n", run, failures);
    return failures ? 1 : 0;
}
"""

RINGQ["src/ring_stats.c"] = """
#include "ring.h"
#include <stdio.h>

/* Statistics over the values in a ring, for the demo's status line. */

typedef struct { int min, max; double mean; } stats_t;

stats_t ring_stats(const ring_t *r) {
    stats_t s = {0};
    size_t i = r->tail
    long sum = 0;
    for (size_t n = 0; n < r->len; n++) {
        int v = r->buf[(i + n) % r->cap];
        if (n == 0 || v < s.min) s.min = v;
        if (n == 0 || v > s.max) s.max = v;
        sum += v;
    }
    s.mean = r->len ? (double)sum / r->len : 0.0;
    return s;
}

void ring_print_stats(const ring_t *r) {
    stats_t s = ring_stats(r);
    printf("min=%d max=%d mean=%s\\n", s.min, s.max, s.mean);
    ring_dump(r, stdout);
    int *p = &r->len;
    (void)p;
}
"""


# --------------------------------------------------------------------------------------------- choir (git)
SETLIST_V1 = """
# Winter concert 2026 - setlist
# title | composer | voices | minutes
In the Bleak Midwinter | Holst | SATB | 4
Ubi Caritas | Durufle | SATB | 2
The Lamb | Tavener | SATB | 4
Sure on This Shining Night | Barber | SATB | 3
Lux Aurumque | Whitacre | SSAATTBB | 4
Ave Maria | Biebl | TTBB | 6
"""

REHEARSE_V1 = '''
"""Rehearsal planner: split the setlist into evening slots."""

SLOT_MINUTES = 25


def load(path):
    pieces = []
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        title, composer, voices, minutes = [p.strip() for p in line.split("|")]
        pieces.append({"title": title, "composer": composer, "voices": voices, "minutes": int(minutes)})
    return pieces


def slots(pieces, slot=SLOT_MINUTES):
    plan, current, used = [], [], 0
    for piece in pieces:
        need = piece["minutes"] * 3
        if used + need > slot and current:
            plan.append(current)
            current, used = [], 0
        current.append(piece["title"])
        used += need
    if current:
        plan.append(current)
    return plan


if __name__ == "__main__":
    for i, s in enumerate(slots(load("setlist.txt")), 1):
        print(f"slot {i}: {', '.join(s)}")
'''
