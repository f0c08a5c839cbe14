"""No rule drops an error or a verdict silently.

A rule is written for the outputs its author saw; on the next tool version or flag it drops a line it never
expected. Measured on C-test, outputs no rule was tuned on: the built-in rules kept 113 of 122 must-keep lines
where the generic fallback alone kept 121. So after a rule for a program's report (not a listing, whose lines are
content), every error, warning, failure or summary line of the original that the rule dropped, one of each kind,
is put back under a heading.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from itertools import accumulate, compress, count

from zeph_nb.output.generic import normalize
from zeph_nb.output.lines import PLACE
from zeph_nb.security.secrets import ascii_lower, clear_cut, keyword_spans

__all__ = ["KEYWORDS", "MAX_LINE", "MAX_RESTORED", "NOT_SCANNED_CUES", "SCANNED", "restore_salient_lines"]

# Every line the pattern below can match holds one of these (lowered): one Aho-Corasick pass finds the few lines
# worth a regex in a long output, shared with the security pass (``keyword_line_groups``).
KEYWORDS = (
    "error", "fatal", "panic", "exception", "traceback", "critical", "warn", "fail", "denied", "refused", "abort",
    "killed", "segmentation fault", "assert", "passed", "skipped", "deselected", "succeeded", "total", "summary",
    "finished", "ran ", "overall",
)  # fmt: skip
# The keywords the scan looks for (``spans`` of ``restore_salient_lines``): not "passed", which every line of
# `pytest -v` holds, nor "warn", which every WARN line of a log holds: each cost a step of the scan's Python loop a
# line (30 ms of 4 MB of `pytest -v`). Every ``_RESTORE`` word of warning holds "warning", looked for instead. A
# line holding one of the two and no other keyword can then only be a count of passed tests or start with "ran"
# not followed by a blank (``_RESTORE_START``): the put-back finds those itself, in the whole text at once
# (``_not_scanned``).
SCANNED = (*(keyword for keyword in KEYWORDS if keyword not in ("passed", "warn")), "warning")
# What a rule must not drop: an error or a verdict. Counts of ordinary things ("12 files") a rule that drops them
# knew about.
_RESTORE = re.compile(
    r"\b(error|errors|fatal|panic|panicked|exception|traceback|critical|warning|warnings|failed|failure|failures|"
    r"denied|refused|aborted|killed|segmentation fault|assertionerror)\b"
    r"|\b\d[\d,.]*\s+(passed|failed|errors?|warnings?|skipped|xfailed|xpassed|deselected|succeeded)\b"
    r"|^\s*(total|summary|finished|ran|overall)\b",
)
# ``_RESTORE.search`` branch by branch over all the keyword lines at once, each found as fast as ``re`` can: the
# alternation was tried at every position of every keyword line, and every line of `pytest -v` holds "passed"
# (10 us a line, half the filter's time there). The words searched for only in the lines one Aho-Corasick pass
# finds one of them in; the counts led by their digit (``re`` skips ahead to one in C), over the lines joined (a
# count's blanks never cross a line's end: ``[^\S\n]``); the line's start tried there only. The same lines: a
# test holds them to ``_RESTORE``.
_RESTORE_WORDS = re.compile(_RESTORE.pattern.split("\\b|", 1)[0] + "\\b")
_WORD_CUES = ("error", "fatal", "panic", "exception", "traceback", "critical", "warning", "fail", "denied", "refused",
              "abort", "killed", "segmentation fault")  # fmt: skip
_RESTORE_COUNTS = re.compile(
    r"\d(?<=\b\d)[\d,.]*[^\S\n]+(passed|failed|errors?|warnings?|skipped|xfailed|xpassed|deselected|succeeded)\b"
)
_RESTORE_START = re.compile(r"\s*(total|summary|finished|ran|overall)\b")
# ASCII digits, "," and "." as "0", and ASCII blanks but the newline (what ``\s`` matches there) as " "; then a
# count's end is "0 " or "  " before one of the words.
_DIGITS_AND_BLANKS = str.maketrans(
    {**dict.fromkeys("0123456789,.", "0"), **dict.fromkeys(" \t\r\x0b\x0c\x1c\x1d\x1e\x1f", " ")}
)
_COUNT_CUES = tuple(
    f"{before}{word}"
    for before in ("0 ", "  ")
    for word in ("passed", "failed", "error", "warning", "skipped", "xfailed", "xpassed", "deselected", "succeeded")
)


def restored_lines(lines: list[str]) -> set[int]:
    """The indices of ``lines`` (lowered, none holding a newline) that ``_RESTORE`` finds something in."""
    if not lines:
        return set()
    joined = "\n".join(lines)
    starts = list(accumulate(map((1).__add__, map(len, lines)), initial=0))
    hit = {
        index
        for index in (
            bisect_right(starts, start) - 1 for start, _ in keyword_spans(joined, joined, _WORD_CUES, merge=False)
        )
        if _RESTORE_WORDS.search(lines[index])
    }
    if joined.isascii():
        # A count's last digit (or its comma or dot), blanks, the word: the same Aho-Corasick pass finds the lines
        # where one may be, with the digits and blanks each made one character first. A count's blanks may be
        # several: two blanks before the word stand in for them.
        gate = joined.translate(_DIGITS_AND_BLANKS)
        for start, _ in keyword_spans(gate, gate, _COUNT_CUES, merge=False):
            index = bisect_right(starts, start) - 1
            if _RESTORE_COUNTS.search(lines[index]):
                hit.add(index)
    else:
        hit.update(bisect_right(starts, found.start()) - 1 for found in _RESTORE_COUNTS.finditer(joined))
    hit.update(compress(count(), map(_RESTORE_START.match, lines)))
    return hit


# Where a count of passed tests may end (`3 passed`, `1,200\txpassed`; ``_RESTORE_COUNTS``): "passed" or "xpassed"
# after a blank after a digit, "," or "." or another blank. Led by the word, so ``re`` skips to each in C and
# only checks what is behind it: a Python step per hit was what the scan cost on `pytest -v`.
_PASSED_COUNT = re.compile(r"passed(?:(?<=[\d,.\s][^\S\n]passed)|(?<=[\d,.\s][^\S\n]xpassed))")
# Where ``_RESTORE_START`` may find "ran": the word, then only blanks before it on its line (``str.isspace`` is
# what ``\s`` matches). Led by the word, not by each line's start: a regex tried after every newline was 4 ms of
# 4 MB of `pytest -v`, which holds no "ran".
_RAN = re.compile(r"ran\b")


# What ``_not_scanned`` looks for, as keywords the scan's one Aho-Corasick pass finds (``keyword_line_groups``), on
# ASCII text: every count ``_PASSED_COUNT`` finds is a digit, "," or "." or blank, a blank, then "passed" or
# "xpassed"; every "ran" a line leads with (``_RAN``, blanks only before it) follows a blank or a line break, or
# starts the text. Each blank spelled out (``\s`` and ``str.isspace`` in ASCII): 406 keywords cost the automaton
# (a DFA) what 48 did, where the searches of the whole text for "passed" and "ran" cost 4-8 ms of 4 MB.
_ASCII_SPACE = " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"
NOT_SCANNED_CUES = (
    *(
        f"{before}{blank}{word}"
        for before in "0123456789,." + _ASCII_SPACE
        for blank in _ASCII_SPACE.replace("\n", "")
        for word in ("passed", "xpassed")
    ),
    *(f"{blank}ran" for blank in _ASCII_SPACE),
)


def _not_scanned(text: str, lowered: str, cue_lines: list[tuple[int, int]] | None = None) -> list[tuple[int, int]]:
    """The (start, end) of the lines of ``text`` holding a ``KEYWORDS`` word that ``_RESTORE`` may find something
    in but the scan (``SCANNED``) did not give: a count of passed tests, or a line led by "ran" (``ran\twarn``).
    More lines may be given (``restored_lines`` decides), never fewer. ``cue_lines``: the (start, end) of the
    lines holding a ``NOT_SCANNED_CUES`` keyword, when the caller's scan found them."""
    if cue_lines is not None and lowered.isascii():
        counts, ran = _cued(lowered, cue_lines)
    else:
        # Each regex only where its word is: ``in`` finds that at C speed, a regex's search for a word ran at a
        # third of it (2 ms each on 4 MB holding neither).
        passed = _PASSED_COUNT.finditer(lowered) if "passed" in lowered else ()
        counts = [lowered.rfind("\n", 0, found.start()) + 1 for found in passed]
        ran = _led_by_ran(lowered, _RAN.finditer(lowered) if "ran" in lowered else ())
    spans = []
    for start in [*counts, *ran]:
        end = text.find("\n", start)
        spans.append((start, end if end >= 0 else len(text)))
    # A "ran" line is the put-back's only if it holds a keyword, as every line it is given does (the counts do).
    counted, led = spans[: len(counts)], spans[len(counts) :]
    return counted + [(start, end) for start, end in led if any(word in lowered[start:end] for word in KEYWORDS)]


def _led_by_ran(lowered: str, found: Iterable[re.Match[str]]) -> list[int]:
    """The starts of the lines where a "ran" of ``found`` has only blanks before it."""
    ran = []
    for match in found:
        start = lowered.rfind("\n", 0, match.start()) + 1
        if start == match.start() or lowered[start : match.start()].isspace():
            ran.append(start)
    return ran


def _cued(lowered: str, cue_lines: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """``_not_scanned``'s counts and "ran" lines, each line's start once, searched only in the lines a cue is in and
    the line after each (a cue led by a line break is given as the line before the break)."""
    counts: dict[int, None] = {}
    ran: dict[int, None] = {}
    if _RAN.match(lowered):  # "ran" starting the text: no blank or break before it
        ran[0] = None
    for start, end in cue_lines:
        stop = lowered.find("\n", end + 1)
        stop = stop if stop >= 0 else len(lowered)
        # The lookbehinds see before ``start`` (the break before a line is a count's blank's "before").
        for found in _PASSED_COUNT.finditer(lowered, start, stop):
            counts[lowered.rfind("\n", 0, found.start()) + 1] = None
        ran.update(dict.fromkeys(_led_by_ran(lowered, _RAN.finditer(lowered, start, stop))))
    return list(counts), list(ran)


MAX_RESTORED = 20  # one of each kind, this many at most: the first half and the last half of them
# A put-back line is cut at this length: a rule may have dropped a line for being huge (a minified bundle, a
# base64 blob that happens to hold "error"), and the put-back must not bring back what the rule kept out.
MAX_LINE = 2_000  # a compiler command line runs to ~1,000 characters; 20 of these stay under the overflow threshold
HEADING = "[lines the filter dropped that look like errors, warnings or summaries]"
# A report's line that starts with where it is (``PLACE``): when the kept text names that place (a linter's
# `3x at src/app.py:12:5, …`), the line was counted there, not dropped silently.
_PLACES = re.compile(r"(?<![\w./\\-])[\w./\\-]++:\d{1,9}+(?::\d{1,9}+)?")


# Python prints a warning as `path:12: DeprecationWarning: message` (the message may run over more lines, or
# end in a blank one) and then the source line that raised it, indented by two (`  warnings.warn(...)`). Under
# a warning line the filtered text kept, that source is no news of its own, whatever words it holds.
_WARNING_AT = re.compile(r"\S[^\n]*:\d+: \w*Warning: ")
# Where Python has no source to print (a frozen module, exec'd code, the interpreter's exit): the line under such
# a warning is the next thing the program printed (`<frozen importlib._bootstrap>:241: RuntimeWarning: …` over an
# ExceptionGroup's `  + Exception Group Traceback …`).
_NO_SOURCE = re.compile(r"<frozen |<string>:|<stdin>:|sys:\d")
_MESSAGE_LINES = 5  # how far above its source line a warning's first line is looked for


def _source_of_kept_warning(original: str, start: int, line: str, present: set[str]) -> bool:
    """Whether ``line``, at ``start`` in ``original``, is the source line Python prints under a warning line that
    the filtered text kept."""
    if not line.startswith("  ") or line.startswith("   "):
        return False
    end = start - 1
    for _ in range(_MESSAGE_LINES):
        if end < 0:
            return False
        begin = original.rfind("\n", 0, end) + 1
        above = original[begin:end].rstrip("\r")
        if _WARNING_AT.match(above):
            return above in present and not _NO_SOURCE.match(above)
        if above.startswith("  "):  # another warning's source: this one is not under a warning line
            return False
        end = begin - 1
    return False


def _undecorated(line: str) -> str:
    return line.strip().strip("=-_*#~ ")


def _cut(line: str) -> str:
    if len(line) <= MAX_LINE:
        return line
    # Never through a secret: redaction, which comes after the filters, knows a token whole, not its first half.
    at = clear_cut(line, MAX_LINE)
    return f"{line[:at]}…[{len(line) - at:,} more characters]"


def restore_salient_lines(
    original: str,
    filtered: str,
    lowered: str | None = None,
    spans: list[tuple[int, int]] | None = None,
    cue_lines: list[tuple[int, int]] | None = None,
) -> tuple[str, int]:
    """``filtered`` plus, under a heading, the error, warning and summary lines of ``original`` it lost (one of
    each kind that ``filtered`` does not already show); and how many. ``lowered`` is ``ascii_lower(original)``
    and ``spans`` the lines of ``original`` holding a ``SCANNED`` word, ``cue_lines`` those holding a
    ``NOT_SCANNED_CUES`` one, when the caller has them already."""
    if filtered is original:
        return filtered, 0
    if lowered is None:
        lowered = ascii_lower(original)
    if spans is None:
        spans = keyword_spans(original, lowered, SCANNED, merge=False)
    more = _not_scanned(original, lowered, cue_lines)
    if more:  # in order, each line once: as the lines holding a KEYWORDS word would be
        spans = sorted({*spans, *more})
    present = set(filtered.split("\n"))
    # A rule may keep a section's heading in its own words (pytest's `=== FAILURES ===` as `== FAILURES ==`).
    # Worked out when first asked (two strips a kept line: 4 ms of a 4 MB log's 10,000 kept lines, mostly unasked).
    headings: set[str] | None = None
    lost: dict[str, None] = {}  # the distinct salient lines of original that filtered lacks, in order
    shown: set[str] = set()  # the kinds of those it kept: a lost line of a kind already shown is no news
    # A log repeats its error lines: each distinct one is looked at once, where it first is.
    lines = [lowered[start:end] for start, end in spans]
    first = dict(zip(reversed(lines), reversed(spans), strict=True))
    distinct = list(dict.fromkeys(lines))
    for index in sorted(restored_lines(distinct)):
        start, end = first[distinct[index]]
        kept = original[start:end].rstrip("\r")
        bare = kept.strip()
        # A rule may keep a line without its indentation ("    Finished" as "Finished").
        found = kept in present or bare in present
        if not found and bare != _undecorated(bare):
            if headings is None:
                headings = {_undecorated(line) for line in present if line.strip() != _undecorated(line)}
            found = _undecorated(bare) in headings
        if found:
            shown.add(normalize(bare))
        elif bare and not _source_of_kept_warning(original, start, kept, present):
            lost[kept] = None
    missing: list[str] = []
    places: set[str] | None = None
    for line in lost:
        kind = normalize(line.strip())
        place = PLACE.match(line)
        if place is not None:
            if places is None:  # found once, and only for a report whose lost lines say where they are
                places = set(_PLACES.findall(filtered))
            if place.group(1) in places:
                continue
        if kind not in shown:
            shown.add(kind)
            missing.append(_cut(line))
    if not missing:
        return filtered, 0
    count = len(missing)
    if count > MAX_RESTORED:
        half = MAX_RESTORED // 2
        missing = [*missing[:half], f"[… {count - MAX_RESTORED:,} more such lines …]", *missing[-half:]]
    return filtered.rstrip("\n") + "\n" + HEADING + "\n" + "\n".join(missing), count
