"""The budget for long outputs no rule understood: both ends, what a person looks for, the rest counted.

The generic fallback removes only what repeats *in runs*. An output can stay hundreds of distinct lines after it:
a dependency tree, a verbose doctest run whose "Trying:/Expecting:/ok" blocks alternate with unique code, a
JSON document, a profile. Nobody reads those whole, and the model pays for every line. Over ``LONG`` lines only
these stay, in their places:

- the first ``HEAD`` and last ``TAIL`` lines: a listing's header and first entries, how the run ended;
- lines that look like errors, warnings, failures or tracebacks (the generic fallback's own test), with a few
  lines before them (the place a failure is reported at) and after them (its expected/got, its message);
- lines that look like a summary or a count ("45 passed and 1 failed", "Ran 30 tests", "total 120");
- the generic fallback's own notes ("[1,832 similar lines: …]"), which already stand for many lines.

Each gap becomes one counted note. Nothing is lost: the engine's caller keeps the whole output in overflow and
tells the model how to read it back (``output/pipeline.py``). Its confidence stays FALLBACK.
"""

from __future__ import annotations

import re

from zeph_nb.output.salient import is_salient

__all__ = ["LONG", "budget_filter"]

LONG = 120  # an output this long (after folding repeats) is cut to its salient lines
HEAD = 12  # a listing's header and first entries; a JSON document's top-level fields
TAIL = 12  # how it ended: summaries, totals, the last entries
BEFORE = 2  # lines kept above a salient one: where it happened ("File …, line 111", a test's name)
AFTER = 5  # and below: the message, expected/got, the frames that follow
MIN_GAP = 3  # a gap shorter than this is written out: its note would say no less than its lines

# The generic fallback's notes, kept: each already stands for many lines.
_NOTE = re.compile(r"^\[[\d,]+ (similar lines|more lines)")


def budget_filter(text: str) -> str | None:
    """``text`` cut to its ends and salient lines with counted gaps, or None when it is not over ``LONG`` lines
    or cutting would save nothing."""
    lines = text.split("\n")
    total = len(lines)
    if total <= LONG:
        return None
    keep = bytearray(total)
    keep[:HEAD] = b"\x01" * min(HEAD, total)
    keep[total - TAIL :] = b"\x01" * TAIL
    for index, line in enumerate(lines):
        if _NOTE.match(line):
            keep[index] = 1
        elif is_salient(line):
            start, end = max(0, index - BEFORE), min(total, index + AFTER + 1)
            keep[start:end] = b"\x01" * (end - start)
    out: list[str] = []
    index = 0
    while index < total:
        if keep[index]:
            out.append(lines[index])
            index += 1
            continue
        end = keep.find(1, index)
        end = total if end < 0 else end
        if end - index < MIN_GAP:
            out += lines[index:end]
        else:
            out.append(f"[… {end - index:,} lines not shown …]")
        index = end
    if len(out) >= total:
        return None
    return "\n".join(out)
