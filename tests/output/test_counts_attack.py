"""The counted notes of tables.py and records.py, test_summary.py's folds and salient.py's put-back against outputs
that make them say something false or hide a line: each test failed before its fix."""

from __future__ import annotations

import json
import re

from zeph_nb.filters import FilterEngine, default_rules
from zeph_nb.output.salient import restore_salient_lines


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


def test_a_value_that_reads_as_the_notes_own_words_is_quoted() -> None:
    """A cell `a (5), b` was said as `a (5), b (28)`: a value `a` of 5 rows and one `b` of 28. And a cell
    `[999 rows not shown]` read as a note inside the note."""
    states = ("ok", "ok", "a (5), b", "[999 rows not shown]")
    rows = ["NAME     STATE                 NODE"]
    rows += [f"job-{n:03d}  {states[n * 7 % 4]:<20}  n{n % 2}" for n in range(100)]
    (note,) = _notes("cat jobs.txt", "\n".join(rows))
    assert (
        note
        == "[90 rows not shown: STATE ok (44), '[999 rows not shown]' (23), 'a (5), b' (23); NODE n1 (45), n0 (45)]"
    )


def test_rows_whose_cells_are_not_the_tables_are_counted_as_unread() -> None:
    """A job still pending has no exit code: its row has a cell fewer, and its columns cannot be told. The note
    counted 77 of the 90 rows it stood for, and said nothing of the 13 others."""
    rows = ["NAME     STATE    EXIT  NODE"]
    rows += [f"job-{n:03d}  {'pending' if n % 7 == 3 else 'done':<7}  {' ' if n % 7 == 3 else '0'}     n{n % 2}"
             for n in range(100)]  # fmt: skip
    (note,) = _notes("cat jobs.txt", "\n".join(rows))
    assert note == "[90 rows not shown: NODE n1 (39), n0 (38), (unread) (13)]"


def test_a_json_key_that_opens_a_block_is_said_as_one() -> None:
    """`"children": [` (a list that goes on below) was said as `[ (20)`: a bracket left open inside the note."""
    items = [{"id": n, "children": [n, n + 1] if n % 3 else [], "meta": {"a": 1} if n % 2 else {}} for n in range(40)]
    notes = _notes("jq . tree.json", json.dumps(items, indent=2))
    assert notes == ['[30 items not shown: "children": […] (20), [] (10); "meta": {…} (15), {} (15)]']


def test_a_diff_line_of_the_value_is_no_nested_where() -> None:
    """pytest -vv's diff of two SQL strings: the `+` lines are the test's actual value. One that starts `+     where`
    or `+     and` and runs long was taken for a nested `where` spelling out an object, and dropped: the diff showed
    the expected `'PL'` and `8`, and not the actual `'IT'` and `7`. A nested where is one space further in than
    the assertion (`E        +    where`), a diff line two."""
    where = "    where o.created_at >= '2026-01-01' and o.status in ('paid', 'shipped', 'delivered') and c.country = {} and o.total > 100 and o.region = 'EU' and o.tax > 0"
    rest = "    and o.channel = 'web' and o.coupon is null and o.refunded = false and o.warehouse_id in (1, 2, 3, 4, 5, 6, {}) and o.archived = false"
    block = [
        "E       AssertionError: assert 'SELECT o.id, o.total, c.name FROM orders o' == 'SELECT o.id, o.total, c.name'",
        "E           SELECT o.id, o.total, c.name FROM orders o",
        "E         - " + where.format("'PL'"),
        "E         + " + where.format("'IT'"),
        f"E         - {rest.format(8)}",
        f"E         + {rest.format(7)}",
    ]
    raw = "\n".join(["=== FAILURES ===", "______ test_query ______", "    def test_query():", *block,
                     "tests/test_sql.py:7: AssertionError", "=== 1 failed in 0.03s ==="])  # fmt: skip
    out = FilterEngine(default_rules()).filter("python -m pytest -vv", raw, 1).text.splitlines()
    assert [line for line in out if line.startswith("E")] == block


def test_a_warning_python_has_no_source_for_takes_no_line_below_as_its_source() -> None:
    """`<frozen importlib._bootstrap>:241: RuntimeWarning: …` (as `sys:1:`, `<string>:3:`) comes with no source
    line: the two-space line under it is the next thing the program printed, an ExceptionGroup's first line."""
    warning = "<frozen importlib._bootstrap>:241: RuntimeWarning: numpy.ndarray size changed"
    group = "  + Exception Group Traceback (most recent call last):"
    original = "\n".join([warning, group, '  |   File "/app/main.py", line 12, in <module>', "end"])
    text, restored = restore_salient_lines(original, f"{warning}\nend")
    assert restored == 1 and text.splitlines()[-1] == group


def test_a_note_names_the_failure_by_its_place_when_two_shown_bear_its_name() -> None:
    """pytest heads a failure with the function's name: two files' `test_parse` are told apart by where."""

    def block(name: str, got: int, place: str) -> list[str]:
        return [f"____ {name} ____", "    def test():", "        rows = parse(load())", f">       assert rows == {got}",
                f"E       assert 1 == {got}", "E    x", f"{place}: AssertionError"]  # fmt: skip

    other = ["____ test_parse ____", ">       assert tokens() == []", "E       assert ['a'] == []", "E    z", "E    w",
             "E    v", "tests/b/test_lex.py:4: AssertionError"]  # fmt: skip
    raw = ["=== FAILURES ===", *block("test_parse", 2, "tests/a/test_csv.py:9"), *other,
           *block("test_parse_header", 3, "tests/a/test_csv.py:9"), "=== 3 failed in 0.1s ==="]  # fmt: skip
    out = FilterEngine(default_rules()).filter("pytest", "\n".join(raw), 1).text.splitlines()
    assert '    [the rest as in the failure above: "test_parse, tests/a/test_csv.py:9"]' in out
    # One failure of that name: its name alone says which.
    raw = ["=== FAILURES ===", *block("test_parse", 2, "tests/a/test_csv.py:9"),
           *block("test_parse_header", 3, "tests/a/test_csv.py:9"), "=== 2 failed in 0.1s ==="]  # fmt: skip
    out = FilterEngine(default_rules()).filter("pytest", "\n".join(raw), 1).text.splitlines()
    assert '    [the rest as in the failure above: "test_parse"]' in out
