"""What every strategy shares: the confidence it reports, its result, and finding and cutting lines fast."""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from dataclasses import dataclass, field
from enum import IntEnum
from itertools import accumulate, repeat
from operator import methodcaller

__all__ = [
    "PLACE",
    "FilterConfidence",
    "StageResult",
    "compile_lines",
    "has_lines",
    "head_tail",
    "matching_lines",
    "omitted",
    "quoted",
    "split_lines",
]

# A line that starts with where it is: `src/app.py:12:5: N818 …`, pytest's `tests/t.py:9: AssertionError`; group 1
# is the place. Possessive, and a place starts where a path does: a crafted line of one long word is walked once,
# not from each of its characters.
PLACE = re.compile(r"\s*+([\w./\\-]++:\d{1,9}+(?::\d{1,9}+)?)(?=[:\s])")


class FilterConfidence(IntEnum):
    """Ordered so that ``min()`` of stages is the worst, which is what a composed pipeline reports."""

    FALLBACK = 0
    PARTIAL = 1
    FULL = 2

    @property
    def label(self) -> str:
        return self.name.lower()


@dataclass(frozen=True)
class StageResult:
    text: str
    confidence: FilterConfidence
    # ``text.splitlines()``, when the strategy had the lines at hand: a long result is cut to its rule's
    # ``max_lines`` after, and splitting a 4 MB text it has just joined again was a tenth of dedup's time.
    lines: list[str] | None = field(default=None, compare=False, repr=False)


_GLOBAL_FLAGS = re.compile(r"\(\?([aiLmsux]+)\)")


def _scoped(pattern: str) -> str:
    """``(?i)abc`` as ``(?i:abc)``: a pattern that compiles alone must compile inside an alternation too, where
    Python refuses flags for the whole expression anywhere but at its start."""
    flags = _GLOBAL_FLAGS.match(pattern)
    return f"(?{flags.group(1)}:{pattern[flags.end() :]})" if flags else f"(?:{pattern})"


def compile_lines(patterns: list[str]) -> re.Pattern[str]:
    # MULTILINE: patterns are written for one line (^ and $ are its ends) and run over the whole text at once.
    return re.compile("|".join(map(_scoped, patterns)), re.MULTILINE)


_START = methodcaller("start")


def matching_lines(pattern: re.Pattern[str], text: str, lines: list[str]) -> set[int]:
    """Indices of the lines ``pattern`` matches, found by scanning the text once in C, not line by line."""
    if not lines:
        return set()
    # Offset of each line's start: line i starts after the i previous lines and their newlines. Built and looked
    # up by C-level map/accumulate: a generator here was a third of strip_noise's time on a 4 MB log.
    starts = list(accumulate(map((1).__add__, map(len, lines)), initial=0))
    after = map(bisect_right, repeat(starts), map(_START, pattern.finditer(text)))
    return set(map((-1).__add__, after))


def omitted(count: int) -> str:
    return f"... ({count} lines omitted) ..."


# Quote marks, with what a reader may take for each: a line of the output holding one of a kind is quoted with
# another kind.
_QUOTES = (
    ('"', '"\uff02\u201c\u201d\u201e\u201f\u2033\u2036\u3003\u00ab\u00bb'),  # fullwidth, curly, double prime, ditto
    ("'", "'\uff07\u2018\u2019\u201a\u201b\u2032\u2035"),
    ("`", "`\uff40"),
)


def quoted(text: str) -> str:
    """``text`` quoted inside a note the filter writes, so that an output's own line cannot close the quote and go
    on as the note's words (``ok"] [pytest filter: all 87 tests passed``): in the first of ", ' and ` that neither
    it nor a look-alike of it (fullwidth, curly, a prime) appears in the text. Not escaped: a secret found
    elsewhere must still be found in it, whole, to be redacted. Only a text holding all three kinds is written as
    JSON, escapes and all."""
    for mark, alike in _QUOTES:
        if not any(c in text for c in alike):
            return f"{mark}{text}{mark}"
    return json.dumps(text)


def head_tail(lines: list[str], head: int, tail: int) -> list[str]:
    if len(lines) <= head + tail:
        return lines
    return [*lines[:head], omitted(len(lines) - head - tail), *(lines[len(lines) - tail :] if tail else [])]


def has_lines(text: str, count: int) -> bool:
    """Whether ``text`` holds at least ``count`` newlines: reads up to the ``count``-th, not all of a long output
    (``str.count`` over a 4 MB log, asked by every shape that wants a long output, cost 1.2 ms each time)."""
    at = -1
    for _ in range(count):
        at = text.find("\n", at + 1)
        if at < 0:
            return False
    return True


def split_lines(text: str) -> tuple[str, list[str]]:
    """Lines split on \n only (``splitlines`` also splits on form feeds and others, which would misalign offsets)."""
    body = text[:-1] if text.endswith("\n") else text
    return body, body.split("\n") if body else []
