"""Pretty-printed JSON wherever it appears: ``curl … | python -m json.tool``, ``jq '.[]' x.json``, an API's reply.

A long list of objects in JSON is a table written one field per line: 40 routes of 5 lines each are 200 lines
that a person reads as pandas shows a DataFrame of 40 rows, by its first items and its last. Over 60 lines
(pandas' ``display.max_rows``), each list of more than 10 objects or lists (``min_rows``) keeps its first 5 and
last 5, and an item that reads like an error, wherever it is; one note per run of items left out says how many.
Every key outside those lists (a reply's ``"service"``, ``"total"``, ``"next_page"``) stays, and the whole output
is in the overflow.

The output is only read this way when all of it is JSON: one document, or a stream of them as ``jq`` prints.
JSON holds no raw line break inside a string, so a pretty-printed document's lines are its structure: an item
opens with a bare ``{`` or ``[`` and closes at the same indent.
"""

from __future__ import annotations

import json
import re

from zeph_nb.output.tables import HEAD, MAX_ROWS, MIN_RUN, NEWS, TAIL

__all__ = ["fold_json_lists"]

_OPENERS = frozenset("{[")
_CLOSERS = frozenset("}]")
_STARTS = re.compile(r"\s*[{[]")


def fold_json_lists(text: str) -> str | None:
    """``text`` with each long list of objects in its JSON cut to its ends; None when it is not JSON or holds no
    such list."""
    # The first character first: a log is told apart without a pass over it.
    if not _STARTS.match(text) or text.count("\n") < MAX_ROWS or not _is_json(text):
        return None
    lines = text.split("\n")
    # Each item (an object or list that is a list's element, or a document of a stream) as (first, last) line;
    # an item's siblings are those that start on the line after it ends, at its indent.
    items: list[tuple[int, int]] = []
    opened: list[tuple[int, int, bool]] = []  # (line, indent, whether it opened with no key: an item)
    for index, line in enumerate(lines):
        stripped = line.strip()
        if not stripped:
            continue
        indent = len(line) - len(line.lstrip())
        if stripped[0] in _CLOSERS and opened and opened[-1][1] == indent:
            start, _, bare = opened.pop()
            if bare:
                items.append((start, index))
        # `{`, `[`, or `"key": {` open a block; `[]`/`{}` and a closer followed by an opener (`}, {` in one
        # line is not how json.tool or jq write) do not.
        if stripped[-1] in _OPENERS:
            opened.append((index, indent, stripped in _OPENERS))
    hidden: list[tuple[int, int]] = []
    for run in _runs(items):
        if len(run) <= HEAD + TAIL:
            continue
        middle = run[HEAD:-TAIL]
        cut: list[tuple[int, int]] = []
        for start, end in middle:
            if NEWS.search("\n".join(lines[start : end + 1]).lower()):
                _close(cut, hidden)
                cut = []
            else:
                cut.append((start, end))
        _close(cut, hidden)
    if not hidden:
        return None
    out: list[str] = []
    at = 0
    for start, end, count in _spans(hidden):
        margin = lines[start][: len(lines[start]) - len(lines[start].lstrip())]
        out += lines[at:start]
        out.append(f"{margin}[{count:,} items not shown]")
        at = end + 1
    out += lines[at:]
    return "\n".join(out)


def _is_json(text: str) -> bool:
    """Whether all of ``text`` is JSON: one document, or several one after another (``jq``'s stream)."""
    decoder = json.JSONDecoder()
    at, end = 0, len(text)
    try:
        while True:
            while at < end and text[at].isspace():
                at += 1
            if at == end:
                return True
            _, at = decoder.raw_decode(text, at)
    except (json.JSONDecodeError, RecursionError):
        return False


def _runs(items: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """The items grouped into lists: consecutive siblings, each starting on the line after the one before ends
    (a comma ends that line) at the same indent. Items are found by their last line, inner before outer."""
    by_start = sorted(items)
    runs: list[list[tuple[int, int]]] = []
    following = {start: (start, end) for start, end in by_start}
    taken: set[int] = set()
    for start, end in by_start:
        if start in taken:
            continue
        run = [(start, end)]
        while run[-1][1] + 1 in following:
            run.append(following[run[-1][1] + 1])
            taken.add(run[-1][0])
        runs.append(run)
    return runs


def _close(cut: list[tuple[int, int]], hidden: list[tuple[int, int]]) -> None:
    """Keep a run of items left out when it is long enough for a note to say less than the items would."""
    if len(cut) >= MIN_RUN:
        hidden.extend(cut)


def _spans(hidden: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """The hidden items merged into spans of consecutive ones, each as (first line, last line, items); an item
    inside one already hidden is not counted again."""
    spans: list[tuple[int, int, int]] = []
    for start, end in sorted(hidden):
        if spans and start <= spans[-1][1]:
            continue
        if spans and spans[-1][1] + 1 == start:
            spans[-1] = (spans[-1][0], end, spans[-1][2] + 1)
        else:
            spans.append((start, end, 1))
    return spans
