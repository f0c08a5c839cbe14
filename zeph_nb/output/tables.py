"""Tables wherever they appear: a query's result (`sqlite3 -column`, `psql`), a printed DataFrame, a report a
script prints in columns.

A long table is shown the way pandas shows one in a notebook: over 60 rows, its header, its first 5 rows and its
last 5, and how many rows were left out (pandas' ``display.max_rows = 60`` and ``min_rows = 10``). The rows are
the answer, every one different, so nothing else folds them; the whole output stays in the overflow.

A table is recognised by its columns: lines whose column edges (where a cell starts after two spaces, where a
right-aligned cell ends, a ``|`` between cells) fall at the same positions. Lines that are no row (a title, a
``[115 rows x 5 columns]`` footer, a warning) are kept where they are.
"""

from __future__ import annotations

import re
from collections import Counter

__all__ = ["MAX_ROWS", "fold_table"]

MAX_ROWS = 60  # pandas' display.max_rows
HEAD = TAIL = 5  # pandas' display.min_rows (10), half each end
_SHARED = 0.9  # a column edge shared by this share of the table's lines makes them rows
_NEWS = re.compile(r"(?i)\b(error|fatal|panic|exception|traceback|critical|warn|warning|fail|failed|failure)\b")
_TIME = re.compile(r"\W{0,2}(\d{4}-\d\d-\d\d|\d\d:\d\d:\d\d|[A-Z][a-z]{2} [ \d]\d \d\d:\d\d|\d{10})")
_RULE = re.compile(r"^[\s=+|:-]*$")
_GAP = re.compile(r"(?<=[^\s|])( {2,}|\s*\|\s*)(?=[^\s|])")  # between two cells: two spaces or more, or a bar


def _edges(line: str) -> set[int]:
    """Where the line's cells meet: the end of the cell before each gap, the start of the cell after it."""
    edges: set[int] = set()
    for gap in _GAP.finditer(line):
        edges.add(-gap.start())  # a cell ends here (right-aligned columns share these)
        edges.add(gap.end())  # a cell starts here (left-aligned columns share these)
    return edges


def fold_table(text: str) -> str | None:
    """``text`` with a table of more than ``MAX_ROWS`` rows cut to its header, first and last rows; None when it
    holds no such table."""
    lines = text.split("\n")
    if len(lines) <= MAX_ROWS:
        return None
    # Most long outputs are logs, not tables: 200 lines spread over the output say so before every line is
    # looked at (a table's rows are most of its lines, so most of the sample has cells).
    sample = lines[:: max(1, len(lines) // 200)]
    if sum(1 for line in sample if _GAP.search(line)) < 0.5 * len(sample):
        return None
    # A log's lines start with a time, and may align their level and logger in columns: a log is folded where it
    # repeats (generic.py), not cut to its ends.
    if sum(1 for line in sample if _TIME.match(line)) >= 0.5 * len(sample):
        return None
    edges = [_edges(line) for line in lines]
    with_cells = [index for index, found in enumerate(edges) if found]
    if len(with_cells) <= MAX_ROWS:
        return None
    counts: Counter[int] = Counter(edge for index in with_cells for edge in edges[index])
    columns = {edge for edge, seen in counts.items() if seen >= _SHARED * len(with_cells)}
    if not columns:
        return None
    # A rule of dashes under the header has the columns' edges too, but is no row.
    rows = [index for index in with_cells if columns <= edges[index] and not _RULE.match(lines[index])]
    # The header is kept either way: a row itself (a DataFrame's, aligned as its columns are) among the first
    # ones, or no row (sqlite's, whose names end where the values do not) and kept where it is.
    if len(rows) <= MAX_ROWS or _is_tree([lines[index] for index in rows]):
        return None
    body = rows
    # A row that reads like an error or a failure is news, not one more row: it stays where it is.
    hidden = {index for index in body[HEAD:-TAIL] if not _NEWS.search(lines[index])}
    out: list[str] = []
    noted = False
    for index, line in enumerate(lines):
        if index not in hidden:
            out.append(line)
        elif not noted:
            out.append(f"[{len(hidden):,} rows not shown]")
            noted = True
    return "\n".join(out)


def _is_tree(rows: list[str]) -> bool:
    """Whether the last column is indented by depth (`python -X importtime`'s package tree, a call tree): neither
    its start nor its end is aligned. Such rows are a hierarchy read as a whole, not a table's rows."""
    starts: Counter[int] = Counter()
    ends: Counter[int] = Counter()
    for row in rows:
        gaps = list(_GAP.finditer(row))
        if gaps:
            starts[gaps[-1].end() + len(row[gaps[-1].end() :]) - len(row[gaps[-1].end() :].lstrip())] += 1
        ends[len(row.rstrip())] += 1
    aligned = _SHARED * len(rows)
    return starts.most_common(1)[0][1] < aligned and ends.most_common(1)[0][1] < aligned if starts else False
