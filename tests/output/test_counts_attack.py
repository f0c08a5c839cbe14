"""The counted notes of tables.py and records.py, test_summary.py's folds and salient.py's put-back against outputs
that make them say something false or hide a line: each test failed before its fix."""

from __future__ import annotations

import re

from zeph_nb.filters import FilterEngine, default_rules


def _notes(command: str, raw: str) -> list[str]:
    out = FilterEngine(default_rules()).filter(command, raw, 0)
    return [line.strip() for line in out.text.splitlines() if re.match(r"\s*\[\d[\d,]* (rows|items) not shown", line)]


def test_a_data_row_above_the_first_row_is_no_header() -> None:
    """A DataFrame as pandas prints it, whose first row's `Queued` is narrower than `Running`: right-aligned, it
    starts elsewhere and that row is no row. The line above the first row was then a row of values, and named the
    columns: `Queued Running (53), Pending (26); n0 n0 (40), n1 (39)`."""
    states = ["Queued"] + [("Running", "Running", "Pending")[n % 3] for n in range(1, 90)]
    frame = ["       name   status node"]
    frame += [f"{n:<2}  job-{n:03d}  {state:>7}   n{n % 2}" for n, state in enumerate(states)]
    assert _notes("python report.py", "\n".join(frame)) == [
        "[79 rows not shown: Running (53), Pending (26); n0 (40), n1 (39)]"
    ]


def test_a_first_row_of_values_names_no_column() -> None:
    """With no header, the first row's `Queued` (held by no other row) named the column: `Queued Running (159)`."""
    states = ["Queued"] + [("Running", "Running", "Pending")[n % 3] for n in range(1, 200)]
    rows = [f"job-{n:03d}  {state:<7}  n{n % 2}" for n, state in enumerate(states)]
    notes = _notes("cat jobs.txt", "\n".join(rows))
    assert notes and not any("Queued" in note or "n0 n" in note or "n1 n" in note for note in notes)
