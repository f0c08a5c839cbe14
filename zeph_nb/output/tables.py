"""Tables wherever they appear: a query's result (`sqlite3 -column`, `psql`), a printed DataFrame, a report a
script prints in columns.

A long table is shown the way pandas shows one in a notebook: over 60 rows, its header, its first 5 rows and its
last 5, and how many rows were left out (pandas' ``display.max_rows = 60`` and ``min_rows = 10``). The rows are
the answer, every one different, so nothing else folds them; the whole output stays in the overflow.

Two kinds of row stay where they are, as a person scanning the table would stop at them: one that reads like an
error, and one that stands out in a column where nearly every row agrees (the 3 pods of 260 whose STATUS is not
``Running``, the one job whose exit code is not 0).

A table is recognised by its columns: lines whose column edges (where a cell starts after two spaces, where a
right-aligned cell ends, a ``|`` between cells) fall at the same positions. Lines that are no row (a title, a
``[115 rows x 5 columns]`` footer, a warning) are kept where they are.
"""

from __future__ import annotations

import re
from collections import Counter
from itertools import accumulate, chain
from operator import neg

from zeph_nb.output.generic import KEEP
from zeph_nb.output.lines import has_lines

__all__ = [
    "AGREE",
    "HEAD",
    "MAX_KINDS",
    "MAX_KIND_CHARS",
    "MAX_ROWS",
    "MIN_RUN",
    "NEWS",
    "OUTLIER_SHARE",
    "RARE_SHARE",
    "TAIL",
    "counts_said",
    "fold_table",
    "spread_lines",
]

MAX_ROWS = 60  # pandas' display.max_rows
MAX_COLUMNS = 64  # wider than any table a person reads in a terminal
MIN_COLUMNS = 3  # fewer cells are a name and what it says: a log
HEAD = TAIL = 5  # pandas' display.min_rows (10), half each end
MAX_KINDS = 4  # a column of at most this many values (a status, a level) is counted in the notes
MAX_KIND_CHARS = 24  # and only where each is short: a value, not a message
MIN_RUN = 3  # fewer hidden rows in a run are shown: their note would say no less than they do
_REACH = 4096  # how far from a sampled place its line's ends are looked for
_SHARED = 0.9  # a column edge shared by this share of the table's lines makes them rows
# What the generic fallback, which this fold stands in for, would keep as news, and a `ValueError` or
# `TimeoutException` anywhere in the row. Run over the lowered row: (?i) is 2.5x slower.
NEWS = re.compile(KEEP.pattern + r"|[a-z](error|exception)\b", re.MULTILINE)
_TIME = re.compile(r"\W{0,2}(\d{4}-\d\d-\d\d|\d\d:\d\d:\d\d|[A-Z][a-z]{2} [ \d]\d \d\d:\d\d|\d{10})")
_RULE = re.compile(r"^[\s=+|:-]*$")
_PLAIN = re.compile(r"[^\s\[\](),;'\"]+(?: [^\s\[\](),;'\"]+)*")  # words a note says unquoted
_NUMBER = re.compile(r"[-+]?[\d.,]*\d[\d.,]*%?")
_GAP = re.compile(r"(?<=[^\s|])( {2,}|\s*\|\s*)(?=[^\s|])")  # between two cells: two spaces or more, or a bar
# A column stands out where one value fills AGREE of its rows; a value in RARE_SHARE of them or fewer (at least
# one row) is then the row's news. Beyond OUTLIER_SHARE of the rows, the column's other half is anything (ids,
# sizes). The JSON fold (records.py) holds a list's items to the same shares.
AGREE = 0.5
RARE_SHARE = 0.02
OUTLIER_SHARE = 0.1


def _edges(line: str) -> set[int]:
    """Where the line's cells meet: the end of the cell before each gap (negated), the start of the cell after it."""
    # Split into cell, gap, cell, … and add up their lengths: every step in C. A Python step per gap ran at
    # 1 MB/s on a crafted `a|a|a|…` output; and a line with more gaps than a table has columns is no row (counted
    # in C before any regex runs: a crafted output of one-character cells took 1-1.5 s per 4 MB).
    if line.count("|") + line.count("  ") > 2 * MAX_COLUMNS:
        return set()
    bounds = list(accumulate(map(len, _GAP.split(line))))
    # bounds[0], bounds[2], … end a cell (a gap starts there); bounds[1], bounds[3], … end a gap.
    return set(map(neg, bounds[0:-1:2])) | set(bounds[1::2])


def fold_table(text: str) -> str | None:
    """``text`` with a table of more than ``MAX_ROWS`` rows cut to its header, first and last rows; None when it
    holds no such table."""
    if not has_lines(text, MAX_ROWS):
        return None
    # Most long outputs are logs, not tables: 200 lines spread over the output say so before the output is split
    # into lines (a table's rows are most of its lines, so most of the sample has cells).
    sample = spread_lines(text, 200)
    if sum(1 for line in sample if _GAP.search(line)) < 0.5 * len(sample):
        return None
    # A log's lines start with a time, and may align their level and logger in columns: a log is folded where it
    # repeats (generic.py), not cut to its ends.
    if sum(1 for line in sample if _TIME.match(line)) >= 0.5 * len(sample):
        return None
    lines = text.split("\n")
    # The columns are found on the sample; every line is then held to them by one regex of lookaheads, in C
    # (a Python step per line and cell ran at 3 MB/s on a real 4 MB table).
    sample_edges = list(map(_edges, sample))
    sampled = [found for found in sample_edges if found]
    if len(sampled) < 0.5 * len(sample):
        return None
    counts: Counter[int] = Counter(chain.from_iterable(sampled))
    columns = sorted(edge for edge, seen in counts.items() if seen >= _SHARED * len(sampled))
    if not columns or _is_tree([(line, found) for line, found in zip(sample, sample_edges, strict=True) if found]):
        return None
    # Two cells are a name and a message (`web-1  | payment 4411 declined`, docker compose's log; `key  value`):
    # a log's lines, each its own news, folded where they repeat (generic.py) and not cut to the ends.
    cells = Counter(len(gaps) + 1 for line in sample if (gaps := _GAP.findall(line)))
    if cells.most_common(1)[0][0] < MIN_COLUMNS:
        return None
    aligned = _aligned(tuple(columns))
    # A rule of dashes under the header has the columns' edges too, but is no row.
    rows = [index for index, line in enumerate(lines) if aligned.match(line) and not _RULE.match(line)]
    # The header is kept either way: a row itself (a DataFrame's, aligned as its columns are) among the first
    # ones, or no row (sqlite's, whose names end where the values do not) and kept where it is.
    if len(rows) <= MAX_ROWS:
        return None
    # A row that reads like an error or a failure is news, not one more row: it stays where it is; so is a row
    # that stands out in its column.
    table = [_GAP.split(lines[index].strip())[0::2] for index in rows]  # each row's cells
    width = Counter(map(len, table)).most_common(1)[0][0]
    odd = _outliers(table, width)
    hidden = {
        index
        for at, index in enumerate(rows[HEAD:-TAIL], HEAD)
        if at not in odd and not NEWS.search(lines[index].lower())
    }
    # One note where each run of hidden rows was, not one for all: a row kept as news, or a line that is no row,
    # stays between the rows it came between (after a single note it would read as coming after all of them).
    # A run of fewer than MIN_RUN rows is shown: a note for one row says less than the row.
    # Each note says what the rows it stands for hold in the columns of a few kinds, where they differ: `STATUS
    # Running (99), Pending (13)` says that 13 pods are pending, which no row shown and no bare count would.
    kinds = _kinds(table, width, _header(lines, rows, width))
    at = {index: position for position, index in enumerate(rows)}
    out: list[str] = []
    run: list[int] = []
    for index, line in enumerate(lines):
        if index in hidden:
            run.append(index)
            continue
        if len(run) < MIN_RUN:
            out += [lines[hid] for hid in run]
        else:
            out.append(f"[{len(run):,} rows not shown{_counted(kinds, [table[at[hid]] for hid in run], width)}]")
        run = []
        out.append(line)
    return "\n".join(out)  # the last TAIL rows are never hidden: no run is left over


def _header(lines: list[str], rows: list[int], width: int) -> list[str] | None:
    """The line above the first row (past a rule of dashes) as cells, when it has as many as the rows: the column
    names of sqlite's table, or of kubectl's, whose names end where the values do not — or a row of values that did
    not align (``_kinds`` tells them apart)."""
    for line in reversed(lines[max(0, rows[0] - 2) : rows[0]]):
        if _RULE.match(line):
            continue
        names = _GAP.split(line.strip())[0::2]
        return names if len(names) == width else None
    return None


def _kinds(cells: list[list[str]], width: int, header: list[str] | None) -> list[tuple[int, str]]:
    """The columns (position, name or "") that hold a few kinds of value, each short: a status, a level, a
    namespace. A column of ids, sizes or times (more than MAX_KINDS values) says nothing counted.
    The names are the ``header``, else the first row (a DataFrame's, `column -t`'s), where they read as names:
    none is a number or a value its column holds in a row below. A line of values above the first rows, one that
    did not align (a DataFrame's first row, whose value is narrower than the rest and right-aligned), had named
    the columns by its values (`Queued Running (53), Pending (26)`)."""
    rows = [row for row in cells if len(row) == width]
    if not rows:
        return []
    below = [{row[column] for row in rows[1:]} for column in range(width)]  # each column's values under the first row
    held = [values | {first} for values, first in zip(below, rows[0], strict=True)]
    names = header if header is not None and _names(header, held) else rows[0] if _names(rows[0], below) else None
    kinds = []
    for column, values in enumerate(below if names is rows[0] else held):
        if 1 < len(values) <= MAX_KINDS and max(map(len, values)) <= MAX_KIND_CHARS:
            name = names[column] if names is not None else ""
            kinds.append((column, name if len(name) <= MAX_KIND_CHARS else ""))
    return kinds


def _names(cells: list[str], held: list[set[str]]) -> bool:
    """Whether a line's cells read as the names of columns that hold ``held``: none is a number, none a value its
    column holds."""
    return not any(_NUMBER.fullmatch(cell) or cell in values for cell, values in zip(cells, held, strict=True))


def _counted(kinds: list[tuple[int, str]], run: list[list[str]], width: int) -> str:
    """The note's counts (``counts_said``) of the hidden rows' values in each column of a few kinds. A row of
    another cell count (a cell left empty: a pending job's exit code) cannot be read by column: it is counted as
    `(unread)`, so that the counts add up to the rows hidden and a `done (77)` is not read as all of them. A value
    that is not plain words is quoted (``_said``)."""
    columns = []
    for column, name in kinds:
        counts = Counter(row[column] if len(row) == width else None for row in run)
        said = Counter({_said(value) if value is not None else "(unread)": count for value, count in counts.items()})
        columns.append((_said(name) if name else "", said))
    return counts_said(columns)


def _said(value: str) -> str:
    """A cell as the note says it: as it is when it is plain words, else quoted (`'a (5), b'`, `'[3 rows not
    shown]'`), so that no cell reads as the note's own counts or brackets, and none spans lines."""
    return value if _PLAIN.fullmatch(value) and value.isprintable() else repr(value)


# Columns and keys whose values a note does not list: a short password found in one row followed no name in
# `PASSWORD p@ss1 (97), K7#pw (12)`, and nothing redacted it.
_SECRET_NAME = re.compile(r"(?i)pass(word|wd|phrase)?\b|passw|pwd|secret|token|credential|api.?key|private.?key")


def counts_said(columns: list[tuple[str, Counter[str]]]) -> str:
    """``: STATUS Running (99), Pending (13)`` for each column (name, the hidden rows' values counted) in which they
    differ, at most two; nothing where they all agree, since the rows shown around the note show that value."""
    said = []
    for name, values in columns:
        if len(values) > 1 and _SECRET_NAME.search(name):
            said.append(f"{name} {len(values):,} different values")  # a password column's values are not said
        elif len(values) > 1:
            counts = ", ".join(f"{value} ({count:,})" for value, count in values.most_common())
            said.append(f"{name} {counts}" if name else counts)
    return f": {'; '.join(said[:2])}" if said else ""


def _outliers(cells: list[list[str]], width: int) -> set[int]:
    """Which of the table's rows (by position) hold a rare value in a column where most rows agree: `Running`
    in 257 of 260 rows makes the other 3 the ones a person reads. Each row is its cells, split at the gaps
    (`_GAP`); rows of another cell count than ``width`` (a cell left empty) are compared with no one."""
    rare = max(1, int(RARE_SHARE * len(cells)))
    odd: set[int] = set()
    for column in range(width):
        values = Counter(row[column] for row in cells if len(row) == width)
        if len(values) < 2 or values.most_common(1)[0][1] < AGREE * len(cells):
            continue
        found = [at for at, row in enumerate(cells) if len(row) == width and values[row[column]] <= rare]
        if len(found) <= OUTLIER_SHARE * len(cells):  # else the column is half one value, half anything (ids, sizes)
            odd.update(found)
    return odd


def spread_lines(text: str, count: int) -> list[str]:
    """About ``count`` whole lines from evenly spread places of ``text``, found without splitting all of it (a long
    line spans more places, and is sampled as often). A line is looked for within ``_REACH`` characters of a place:
    past that, the sample is that much of it (a crafted 6 MB line was found, copied and scanned at each of the 200
    places it spans: 22 s)."""
    step = max(1, len(text) // count)
    lines = []
    for at in range(0, len(text), step):
        start = text.rfind("\n", max(0, at - _REACH), at) + 1 or max(0, at - _REACH)
        end = text.find("\n", at, at + _REACH)
        lines.append(text[start : end if end >= 0 else min(len(text), at + _REACH)])
    return lines


def _aligned(columns: tuple[int, ...]) -> re.Pattern[str]:
    """A line with a cell starting at each positive edge and one ending at each negated one (``_edges``)."""
    ahead = []
    for edge in columns:
        at = abs(edge) - 1  # the character before the edge
        ahead.append(f"(?=.{{{at}}}[\\s|][^\\s|])" if edge > 0 else f"(?=.{{{at}}}[^\\s|][\\s|])")
    return re.compile("".join(ahead))


def _is_tree(rows: list[tuple[str, set[int]]]) -> bool:
    """Whether the last column is indented by depth (`python -X importtime`'s package tree, a call tree): neither
    its start nor its end is aligned. Such rows (each with its ``_edges``) are a hierarchy read as a whole, not a
    table's rows."""
    # The last cell starts where the last gap ends, the largest edge (a cell's ends are negated).
    starts: Counter[int] = Counter(max(edges) for _, edges in rows)
    ends: Counter[int] = Counter(len(row.rstrip()) for row, _ in rows)
    aligned = _SHARED * len(rows)
    return starts.most_common(1)[0][1] < aligned and ends.most_common(1)[0][1] < aligned if rows else False
