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
from bisect import bisect_left
from collections import Counter

from zeph_nb.output.lines import has_lines
from zeph_nb.output.tables import (
    AGREE,
    HEAD,
    MAX_KIND_CHARS,
    MAX_KINDS,
    MAX_ROWS,
    MIN_RUN,
    NEWS,
    OUTLIER_SHARE,
    RARE_SHARE,
    TAIL,
    counts_said,
)

__all__ = ["fold_json_lists"]

_OPENERS = frozenset("{[")
_CLOSERS = frozenset("}]")
_CLOSING = {"{": "}", "[": "]"}
_STARTS = re.compile(r"\s*[{[]")
_NONSPACE = re.compile(r"\S")
# A key that names a problem and holds one: `"error_code": "E_TIMEOUT"`, `"errorMessage": "disk full"`,
# `"failures": 2` (NEWS reads whole words: `errormessage` is none). Not `"errorCount": 0`, `"error": null`.
# Run over the lowered item.
# The blanks after the colon are taken possessively: given back, the value's own place would fail the lookahead.
_KEY_NEWS = re.compile(
    r'"[^"\n]*(?:error|fail|exception|fatal|panic|crash|warn)[^"\n]*"[ \t]*:[ \t]*+'
    r'(?!(?:null|false|0|0\.0+|""|\[\]|\{\}),?[ \t\r]*$)',
    re.MULTILINE,
)
# A line of an item that holds a key and its value (a scalar, or the opener of a block): `"status": "ok",`.
_FIELD = re.compile(r'^([ \t]*)("(?:[^"\\\n]|\\.)*")\s*:\s*(.*?),?[ \t\r]*$', re.MULTILINE)


def fold_json_lists(text: str) -> str | None:
    """``text`` with each long list of objects in its JSON cut to its ends; None when it is not JSON or holds no
    such list."""
    # The first character first: a log is told apart without a pass over it. Whether all of it is JSON is asked
    # last, when there is a list to cut: parsing a stream of a million scalars took 0.9 s per 4 MB to find none.
    if not _STARTS.match(text) or not has_lines(text, MAX_ROWS):
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
    hidden: list[tuple[int, int, int, str]] = []  # (first line, last line, items, what the note adds)
    runs = [run for run in _runs(items) if len(run) > HEAD + TAIL]
    if not runs:
        return None
    # Which lines hold news, found in one pass over the output: an item's own text was searched at each level it
    # is nested in, and NEWS's `^\s+file` steps over a deep indent at each line (a crafted list nested 600 deep,
    # 6 MB, took 140 s). An item holds one when the first news line from its start is before its end.
    news = sorted(_news_lines(text))
    ends = dict(items)
    for run in runs:
        # An item is kept where it says it failed (NEWS, or a key naming a problem that holds one), and where it
        # stands out among its siblings as a table's row does in its column (the one job of 100 whose exit_code
        # is 137, whose status is "crashed", the one with a "reason": "OOMKilled" the others lack).
        fields = [_own_fields(lines, ends, start, end) for start, end in run]
        odd = _standing_out(fields)
        # Each note counts what its items hold in the keys of a few kinds where they differ, as a table's note
        # does: `"status": "done" (25), "retrying" (5)`.
        kinds = _kinds(fields)
        cut: list[int] = []
        for at, (start, end) in enumerate(run[HEAD:-TAIL], HEAD):
            first = bisect_left(news, start)  # the first news line from the item's first line on
            if at in odd or (first < len(news) and news[first] <= end):
                _close(run, cut, fields, kinds, hidden)
                cut = []
            else:
                cut.append(at)
        _close(run, cut, fields, kinds, hidden)
    if not hidden or not _is_json(text):
        return None
    out: list[str] = []
    at = 0
    for start, end, count, counts in _spans(hidden):
        margin = lines[start][: len(lines[start]) - len(lines[start].lstrip())]
        out += lines[at:start]
        out.append(f"{margin}[{count:,} items not shown{counts}]")
        at = end + 1
    out += lines[at:]
    return "\n".join(out)


def _is_json(text: str) -> bool:
    """Whether all of ``text`` is JSON: one document, or several one after another (``jq``'s stream)."""
    # Numbers are not made ints or floats: a value is not read, and int() refuses more than 4,300 digits (a
    # ValueError, not the JSONDecodeError caught, came out of the filter for a crafted number). Whitespace between
    # documents is skipped in C: a step per character in Python took 0.6 s over 4 MB of blank lines.
    decoder = json.JSONDecoder(parse_int=len, parse_float=len, parse_constant=len)
    at = 0
    try:
        while True:
            found = _NONSPACE.search(text, at)
            if found is None:
                return True
            at = found.start()
            _, at = decoder.raw_decode(text, at)
    except (ValueError, RecursionError):  # JSONDecodeError is a ValueError
        return False


def _news_lines(text: str) -> set[int]:
    """The lines (by number) where NEWS or ``_KEY_NEWS`` finds something in the lowered text."""
    lowered = text.lower()  # no character lowers to a line break: the lines are the same
    found: set[int] = set()
    for pattern in (NEWS, _KEY_NEWS):
        at = line = 0
        for match in pattern.finditer(lowered):
            end = max(match.start(), match.end() - 1)  # `^\s+file "` may start on a blank line above
            line += lowered.count("\n", at, end)
            at = end
            found.add(line)
    return found


def _own_fields(lines: list[str], ends: dict[int, int], start: int, end: int) -> dict[tuple[int, str], list[str]]:
    """The keys an item holds and their values, by indent from the item's and key; not those of the items in its
    own lists (``ends``: each item's last line by its first), which are theirs: each line is read for one item."""
    base = len(lines[start]) - len(lines[start].lstrip())
    own: list[str] = []
    index = start + 1
    while index < end:  # the item's lines between its own items, read in one regex call each
        child = next((at for at in range(index, end) if at in ends), end)
        own += lines[index:child]
        index = ends[child] + 1 if child < end else end
    fields: dict[tuple[int, str], list[str]] = {}
    for field in _FIELD.finditer("\n".join(own)):
        fields.setdefault((len(field[1]) - base, field[2]), []).append(field[3])
    return fields


def _standing_out(items: list[dict[tuple[int, str], list[str]]]) -> set[int]:
    """Which of a list's items (by position; each as its ``_own_fields``) hold a rare value for a key most of them
    agree on, as ``_outliers`` finds a table's rows: a key an item lacks counts as one more value. Keys are told
    apart by their indent in the item, so a nested ``"status"`` is not its parent's."""
    count = len(items)
    rare = max(1, int(RARE_SHARE * count))
    seen: dict[tuple[int, str], dict[str, list[int]]] = {}
    for at, fields in enumerate(items):
        for key, said in fields.items():
            seen.setdefault(key, {}).setdefault("\n".join(said), []).append(at)
    odd: set[int] = set()
    for values in seen.values():
        missing = count - sum(map(len, values.values()))
        sizes = [len(ats) for ats in values.values()] + ([missing] if missing else [])
        if len(sizes) < 2 or max(sizes) < AGREE * count:
            continue
        found = [at for ats in values.values() if len(ats) <= rare for at in ats]
        if 0 < missing <= rare:  # at most the few keys nearly every item has: a pass each stays linear
            holding = {at for ats in values.values() for at in ats}
            found += [at for at in range(count) if at not in holding]
        if len(found) <= OUTLIER_SHARE * count:  # else half one value, half anything (ids, sizes)
            odd.update(found)
    return odd


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


def _kinds(fields: list[dict[tuple[int, str], list[str]]]) -> list[tuple[int, str]]:
    """The keys (indent, key) that at least half of a list's items hold, with a few short values between them (a
    status, a level), shallowest first. A key of ids, amounts or times has more than MAX_KINDS values."""
    values: dict[tuple[int, str], set[str]] = {}
    held: Counter[tuple[int, str]] = Counter()
    for item in fields:
        for key, said in item.items():
            held[key] += 1
            if len(values.setdefault(key, set())) <= MAX_KINDS:  # past that the key is out: stop collecting
                values[key].add(" ".join(said))
    return sorted(
        key
        for key, seen in values.items()
        if held[key] >= AGREE * len(fields)
        and 1 < len(seen) <= MAX_KINDS
        and max(map(len, [key[1], *seen])) <= MAX_KIND_CHARS  # a name and values, not a message
    )


def _close(
    run: list[tuple[int, int]],
    cut: list[int],
    fields: list[dict[tuple[int, str], list[str]]],
    kinds: list[tuple[int, str]],
    hidden: list[tuple[int, int, int, str]],
) -> None:
    """Leave out the run's items at positions ``cut`` (consecutive) when they are enough for a note to say less
    than the items would, with what they hold in the keys of a few kinds (a key given twice in one item is said
    as its values joined by a space: the note stays one line; ``_said``)."""
    if len(cut) >= MIN_RUN:
        counted = [(f"{key}:", Counter(" ".join(map(_said, fields[at].get((indent, key), ["(none)"]))) for at in cut))
                   for indent, key in kinds]  # fmt: skip
        hidden.append((run[cut[0]][0], run[cut[-1]][1], len(cut), counts_said(counted)))


def _said(value: str) -> str:
    """A key's value as a note says it: a block it opens (`"children": [`, its items below) as `[…]`, not as a
    bracket the note leaves open."""
    return f"{value}…{_CLOSING[value]}" if value in _CLOSING else value


def _spans(hidden: list[tuple[int, int, int, str]]) -> list[tuple[int, int, int, str]]:
    """The runs of hidden items in the order of the output, without a run inside an item already hidden (an inner
    list's items are found before the list that holds them, and are not counted again). Two runs never touch: items
    that start on the line after one ends are one list."""
    spans: list[tuple[int, int, int, str]] = []
    for span in sorted(hidden):
        if not spans or span[0] > spans[-1][1]:
            spans.append(span)
    return spans
