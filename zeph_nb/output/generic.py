"""The generic fallback: what every long output gets when no rule knows its command, or a rule would leave nothing.

It knows no tool, so it removes only what repeats. Lines are compared after normalising what changes between
otherwise equal lines (numbers, hex ids, UUIDs, times, paths); the first line of each kind is kept in place, and
the ones that repeat it are counted and said where they were (``[1,832 similar lines: "INFO worker 17 …"]``).
Lines that look like errors, warnings, tracebacks or failures are always kept (only the very same line again is
counted, and a flood of over 200 alike but for numbers keeps its first 40 and last 10), and so are the first and
last lines. A kind seen only a few times is an event, not repetition, and is
kept whole; a fold of one or two lines is no saving and is not made. Its confidence is FALLBACK: nothing was
understood, only repetition removed.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, cast

from zeph_nb.output.kinds import LineKinds, digit_blind_table, first_indices, matched_chars
from zeph_nb.output.lines import quoted
from zeph_nb.security.secrets import clear_cut

__all__ = ["KEEP", "MIN_LINES", "generic_filter", "line_kinds", "normalize"]

_EXAMPLE_CHARS = 120  # of a line shown for the lines like it
# Shorter outputs pass as they are: every line may matter. 40, not 60: a 42-line run of a worker logging one
# "sent" line per item is the repetition this filter is for (measured on tunable corpora C-dev and E-dev: no
# must-keep line lost at 40; at 30 a listing of 31 paths lost one).
MIN_LINES = 40
EDGE = 5  # first and last lines always kept (the first of every kind is kept anyway)
_MAX_SAID = 3  # kinds named in one "similar" note; more are counted together

# Order matters: a UUID or a time would otherwise be read as several numbers. The lookahead lets the many
# positions where none can start fail at once (2.5x faster on log lines). Kept in parts: no span but a path can
# hold a "/", and a path starts with one (``_rests`` relies on both).
_SPANS = (
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",  # UUID
    r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2})?(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?",  # ISO time
    r"\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?",  # clock time
    r"\b0x[0-9a-fA-F]+\b|\b[0-9a-f]{7,64}\b",  # addresses, hashes
)
_PATH = r"/[\w.@+-]+(?:/[\w.@+-]+)+/?"  # two parts or more; led by its "/", which ``re`` skips to in C
_NUMBER = r"\d+(?:\.\d+)?"
_NORMALIZE = re.compile(r"(?=[\d/a-fA-F])(?:" + "|".join([*_SPANS, _PATH, _NUMBER]) + ")")
# What a person looks for in a log: kept wherever it is, however often it repeats. Written in lower case and
# run over the lowered line. Words of success and summary ("completed", "done", "total") are not here: a service
# logs "request completed" on every line, and a summary line is rare, so the rarity rule below keeps it.
KEEP = re.compile(
    r"\b(error|errors|fatal|panic|panicked|exception|traceback|critical|warn|warning|fail|failed|failure|"
    r"denied|refused|abort|aborted|killed|segmentation fault|assert\w*)\b"
    r"|^\s+file \"|^\s+at \S|^\w+(error|exception|warning):",
    re.MULTILINE,
)
# Words every KEEP match holds one of (``LineKinds.lines_matching``): its words, a frame's `file "` and `at `.
KEEP_CUES = (
    "error", "fatal", "panic", "exception", "traceback", "critical", "warn", "fail", "denied", "refused", "abort",
    "killed", "segmentation fault", "assert", 'file "', "at ",
)  # fmt: skip
# Error-like lines of one kind over this many are a flood: the first and last are kept, the rest fold
# (``_many_alike``). Not fewer: 80 mypy errors that differ only in where they are are 80 places to fix.
MANY_ERRORS, ERRORS_SHOWN, ERRORS_LAST = 200, 40, 10
RARE = 3  # a kind seen this often or less in the whole output is kept whole: an event, not repetition
MIN_FOLD = 3  # a run of fewer skipped lines is written out: its note would say no less than the lines
_RUNS = re.compile(rb"\x01+")  # runs of skipped lines, in a byte per line


# A kind is collapsed only when words, not just numbers, make it what it is: `seq 1 1000`, a column of figures or
# rows of numbers are the answer itself, every line different. A line with neither letters nor digits (the
# carets under a traceback's source, a rule of dashes) is decoration, folded with the run it repeats in.
# (A kind holds "#" where its lines held a number, so "#" counts as content here.)
_WORDS = re.compile(r"[A-Za-z]{2,}.*?[A-Za-z]{2,}|^[^A-Za-z0-9#]*$")


def _many_alike(keys: list[str], wanted: set[int]) -> None:
    """Error-like lines alike but for their numbers, many of them (`warning: item 17 is deprecated` 4,000 times):
    the first ``ERRORS_SHOWN`` and the last ``ERRORS_LAST`` are kept as lines, the rest fold as one kind. Kept
    whole, a flood of one warning was 40,000 characters of the model's text, and the head-and-tail cut after the
    filter could then drop the one different error among them. Only numbers: the kinds' normalising of paths made
    `upload failed: /etc/backup/prod-db.sql.gz` one of 300 `upload failed: /bucket/data/part-N`."""
    by_kind: dict[str, list[int]] = {}
    for index in wanted:
        by_kind.setdefault(_DIGITS.sub("#", keys[index]), []).append(index)
    for kind, found in by_kind.items():
        # Told apart by more than numbers: the very same line again already folds as itself.
        if len(found) > MANY_ERRORS and len({keys[index] for index in found}) > MANY_ERRORS:
            found.sort()
            for index in found[ERRORS_SHOWN:-ERRORS_LAST]:
                keys[index] = kind


_DIGITS = re.compile(r"\d+")


def _said(keys: list[str], lines: list[str], start: int, end: int) -> list[str]:
    """The note for the run of skipped lines ``lines[start:end]`` (of kinds ``keys``), or the lines themselves when
    there are too few to be worth one."""
    run = lines[start:end]
    if len(run) < MIN_FOLD:
        return run
    # Kinds the notes would show alike but for numbers and times (they differ past the example's cut: a JSON
    # log's `"method": "GET"` and `"POST"`) are one note: two notes that read the same say no more than one. A
    # Counter keeps kinds in the order they first appear, the sort is stable: the most common first, then the
    # earliest, each shown by the first line of its first kind in the run.
    kinds = Counter(keys[start:end])
    first = first_indices(keys[start:end])
    shown: dict[str, list[Any]] = {}  # [count, example] by the example with its numbers and times normalised
    for key, count in kinds.items():
        example = _example(run[first[key]])
        shown.setdefault(normalize(example), [0, example])[0] += count
    notes = sorted(shown.values(), key=lambda note: -note[0])
    out = [f"[{_counted(count, 'similar line')}: {quoted(example)}]" for count, example in notes[:_MAX_SAID]]
    if len(notes) > _MAX_SAID:
        rest = sum(count for count, _ in notes[_MAX_SAID:])
        out.append(f"[{_counted(rest, 'more line')} of {_counted(len(notes) - _MAX_SAID, 'other kind')} seen above]")
    # Rows of a table, each a kind seen before once or twice: notes as long as the rows say less than the rows.
    if len(out) * 2 > len(run) or sum(map(len, out)) >= sum(map(len, run)):
        return run
    return out


def _counted(count: int, noun: str) -> str:
    """``1 similar line``, ``1,832 similar lines``."""
    return f"{count:,} {noun}" + ("" if count == 1 else "s")


def _example(line: str) -> str:
    """A line shown for its kind, cut at 120 characters but never through a secret (``clear_cut``): redaction,
    after the filters, knows a token whole, not its first half. A cut line ends in "…": cut inside a quoted value,
    `"method": "` would read as an empty method."""
    line = line.strip()
    cut = clear_cut(line, _EXAMPLE_CHARS)
    return line if cut >= len(line) else line[:cut] + "…"


def normalize(text: str) -> str:
    """``text`` with what changes between otherwise equal lines (numbers, ids, times, paths) written ``#``."""
    return _NORMALIZE.sub("#", text)


# The digits none of the patterns tells apart (all but the 0 of "0x"): lines equal once those are mapped are one
# kind, and are normalised and searched once (output/kinds.py).
_TABLE = digit_blind_table([_NORMALIZE, KEEP, _WORDS])


# What a line's kind cannot tell from its rest (``LineKinds``): every character a span but a path may hold, the "#"
# spans are written as, and whitespace (kinds are compared stripped). A path holds any word, so no set of
# characters deleted would make two lines of one kind read the same: paths are written "#" first (``_rests``).
_PATHS = re.compile(_PATH, re.ASCII)  # rests are of ASCII text only: \w is the same, and 20% faster
_NOT_PATHS = matched_chars([("|".join([*_SPANS, _NUMBER]), "#")], _TABLE)
assert _NOT_PATHS is not None, "a span's pattern may match any character: LineKinds' rests would be wrong"
_REST_DELETED = (_NOT_PATHS + " \t\r\x0b\x0c\x1c\x1d\x1e\x1f").encode("ascii")


def _rests(joined: str) -> bytes:
    """What normalising cannot change in ``joined`` (ASCII lines joined by "\\n"): its paths written "#" (a path
    starts at a "/" no other span holds, so they are the paths ``_NORMALIZE`` finds there), then every character
    another span may hold, "#" and whitespace deleted. Two lines of one kind read the same; a line reading like no
    other is a kind of its own, found by one regex pass over the paths (a few a line) and one ``bytes.translate``,
    not ``_NORMALIZE``'s pass over every number, time and id (156 ms of a 4 MB log of unlike lines)."""
    return _PATHS.sub("#", joined).encode("ascii").translate(None, _REST_DELETED)


# The kind of a line no other line shares one with: never a normalised text, which holds no ASCII digit.
_lone = "\x00{}".format


def line_kinds(text: str, lines: list[str]) -> LineKinds:
    """The kinds the generic fallback groups ``lines`` (``text`` split on "\\n") by; the fold by template
    (output/templates.py) groups by the same, and hands them on when it gives way. A line whose rest (``_rests``)
    no other line has is a kind of its own, not normalised; its kind is a text no normalised line reads."""
    return LineKinds(text, lines, normalize, _TABLE, rests=_rests, lone=_lone)


def generic_filter(text: str, kinds: LineKinds | None = None) -> str | None:
    """``text`` with repeated lines collapsed, or None when it is short or nothing repeats; ``kinds``: its lines'
    ``line_kinds``, when worked out already."""
    lines = text.split("\n") if kinds is None else kinds.lines
    if len(lines) < MIN_LINES:
        return None
    kinds = line_kinds(text, lines) if kinds is None else kinds
    if kinds.distinct:
        return None  # no two lines of a kind, even stripped (whitespace is no part of a rest): nothing repeats
    # Run over the lowered line: (?i) makes Python's re 2.5x slower here.
    wanted = kinds.lines_matching(KEEP, lower=True, cues=KEEP_CUES)
    # An error-like line is told apart by all of it (mypy's errors differ only in where they are); only the very
    # same line again is a repeat.
    # Built by C-level map over the distinct kinds, not a comprehension over every line (10% of the filter's time).
    texts = cast("list[str]", kinds.kinds)  # no ``matched`` given: every kind is its line's normalised text
    stripped = {kind: kind.strip() for kind in set(texts)}
    keys = list(map(stripped.__getitem__, texts))
    for index in wanted:
        keys[index] = lines[index].strip()
    _many_alike(keys, wanted)
    common = {key for key, times in Counter(keys).items() if times > RARE}
    # Decided once per distinct kind, not per line.
    foldable = {key for key in common if _WORDS.search(key) is not None}
    # A line is skipped when its kind folds, it is not the first of its kind, and it is not at either end. Worked
    # out by C-level passes, not a Python loop over every line (a third of the filter's time on a long log): the
    # loop below is over runs of skipped lines.
    skip = bytearray(map(foldable.__contains__, keys))
    first = first_indices(keys)
    for key in foldable:
        skip[first[key]] = 0
    last = len(lines) - EDGE
    skip[:EDGE] = bytes(EDGE)
    skip[last:] = bytes(len(lines) - last)
    out: list[str] = []
    kept_from = 0
    for run in _RUNS.finditer(skip):
        out += lines[kept_from : run.start()]
        out += _said(keys, lines, run.start(), run.end())
        kept_from = run.end()
    out += lines[kept_from:]
    shorter = "\n".join(out)
    # Folding that saves nothing (or costs: notes longer than the lines they stand for) is not done.
    return shorter if len(out) < len(lines) and len(shorter) < len(text) else None
