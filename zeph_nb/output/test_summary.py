"""Summaries of test-runner output: every failure with its message, the final summary, nothing that passed.

One line-classifying state machine covers pytest, unittest, go test, cargo test and nextest, jest, vitest,
mocha and node's test runner (spec and TAP reporters). A failure block starts at a runner's failure header
and ends at the next header, a summary line, a section rule or a passing test. Inside a block the first
``max_trace_lines`` lines are kept, and past that only the lines that carry meaning (assertions, errors,
``File "…", line N`` frames, ``path:line`` locations). Past ``max_failures`` blocks only those meaningful lines
are kept. Outside blocks only meaningful lines and summaries survive.
"""

from __future__ import annotations

import re
import string
from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import compress, count, repeat
from operator import itemgetter

from zeph_nb.output.lines import PLACE, quoted
from zeph_nb.security.secrets import keyword_spans

__all__ = ["SKIP_CUES", "TestRunSummary", "summarize_tests"]

_FAIL_START = re.compile(
    "|".join(
        [
            r"^_{3,} .+ _{3,}$",  # pytest: ____ test_name ____
            r"^(FAIL|ERROR): \S",  # unittest
            r"^\s*--- FAIL: ",  # go test
            r"^---- .+ stdout ----$",  # cargo test
            r"^\s*(FAIL|SIGSEGV|SIGABRT|SIGKILL|TIMEOUT) \[",  # nextest
            r"^--- STD(OUT|ERR): ",  # nextest captured output
            r"^\s*● ",  # jest
            r"^ *(FAIL|×|❯) .*(>|›)",  # vitest: FAIL file > suite > test
            r"^\s*✖ ",  # node --test spec reporter
            r"^not ok \d+",  # TAP
            r"^\s+\d+\) \S",  # mocha numbered failures
            r"^(error|ERROR)(\[E\d+\])?: ",  # compiler errors in the middle of a test run
            r'^File ".+", line \d+, in \S+$',  # doctest (a traceback's frames are indented)
        ]
    )
)
_SUMMARY = re.compile(
    "|".join(
        [
            r"^={3,} .*\b(passed|failed|errors?|skipped|xfailed|deselected|no tests ran)\b.* in [\d.]+s.*={3,}$",
            r"^\d+ (passed|failed|errors?|skipped)\b.* in [\d.]+s",  # pytest -q
            r"^Ran \d+ tests? in ",
            r"^(OK|FAILED)( \(.*\))?$",
            r"^(ok|FAIL)\s+\S+\s+(\(cached\)|[\d.]+s)",  # go test package lines
            r"^(PASS|FAIL)$",
            r"^test result: ",
            r"^\s*Summary \[",
            r"^(Tests|Test Suites|Snapshots|Time):\s",
            r"^\s*(Test Files|Tests|Duration|Start at)\s{2,}",
            r"^ℹ (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) \d",
            r"^# (tests|pass|fail|skip|todo|suites|cancelled) \d",
            r"^\s+\d+ (passing|failing|pending)\b",
            r"^error: (test failed|could not compile)",
            r"^!{3,} .*\b(stopping after \d+ failures?|Interrupted)\b.*!{3,}$",  # pytest -x, a collection error
            r"^Interrupted: \d+ errors? during collection",
            # doctest: its verdict, totals and the items that failed
            r"^\*\*\*Test Failed\*\*\* \d+ failures?\.$|^Test passed\.$",
            r"^\d+ tests? in \d+ items?\.$|^\d+ passed and \d+ failed\.$",
            r"^\d+ items? had failures:$|^ +\d+ of +\d+ in \S+$",
        ]
    )
)
_PASS = re.compile(
    "|".join(
        [
            # Not inside a parametrize id: `test_auth[PASSED]` heads its failure's trace, and went as a pass.
            r"(?<![\w\[-])PASSED(?![\w\]-])",
            r"^test \S+ \.\.\. (ok|ignored)$",
            r" \.\.\. (ok|skipped.*)$",
            r"^\s*--- (PASS|SKIP): ",
            r"^=== (RUN|PAUSE|CONT|NAME)\b",
            r"^\s*(PASS|SKIP) \[",
            r"^\s*(✓|✔|√) ",
            r"^ok \d+ ",
            r"^ (PASS|✓) ",
        ]
    )
)
# ``_PASS`` found as fast as ``re`` can: a search for it ran its nine branches at every position of every line,
# 6 us a line of `pytest -v` (a third of the summary's time). Its word branch led by the word itself (``re`` then
# skips ahead to it in C), the branches anchored at the line's start tried there only, and `` ... ok`` led by its
# dots: the same lines, and a test holds them to it.
_PASSED = re.compile(r"PASSED(?<![\w\[-]PASSED)(?![\w\]-])")
_PASS_START = re.compile(
    r"^(?:test \S+ \.\.\. (ok|ignored)$|\s*--- (PASS|SKIP): |=== (RUN|PAUSE|CONT|NAME)\b|\s*(PASS|SKIP) \[|\s*(✓|✔|√) "
    r"|ok \d+ | (PASS|✓) )"
)
_PASS_DOTS = re.compile(r" \.\.\. (ok|skipped.*)$")


def _passes(line: str) -> bool:
    """``_PASS.search(line) is not None``, for a line without a newline."""
    return bool(_PASSED.search(line) or _PASS_START.match(line) or _PASS_DOTS.search(line))


def _skipped(line: str) -> bool:
    """``_SKIP.search(line) is not None``: every match holds one of these words, and most lines none."""
    return ("SKIP" in line or "skipped" in line or "ignored, " in line) and _SKIP.search(line) is not None


_MEANINGFUL_BRANCHES = [
    r"^E\s",  # pytest assertion detail
    r"^>\s",  # pytest: the failing source line
    r"\b(assert|Assert\w*|\w*Error|\w*Exception|panicked|FAILED|FAIL|Failed|failed)\b",
    r"^\s*File \".+\", line \d+",
    r"^Traceback \(most recent call last\)",
    r"^\s*(Expected|Received|expected|received|left|right|got|want)\b.*[:=]",
    r"^\s*\S+\.(py|rs|go|js|ts|jsx|tsx|mjs|cjs|java|rb|c|cc|cpp|h):\d+",
    r"^\s*at .+:\d+:\d+\)?$",
    r"^\s*--> \S+:\d+:\d+",
    r"error\[E\d+\]",
    r"^(error|warning): ",
    r"^(FAIL|ERROR): ",
    # Counts a person reads: pytest's collected items, TAP's plan. (Not libtest's `running N tests`: a
    # workspace prints one per crate, between the `test result:` lines it would keep from folding. It
    # stays with a small run's passing names, below.)
    r"^(collecting \.\.\. )?collected \d+ items?\b",
    r"^\d+\.\.\d+$",
]
_MEANINGFUL = re.compile("|".join(_MEANINGFUL_BRANCHES))
# ``_MEANINGFUL.search``, as fast as ``re`` can: the anchored branches tried at the line's start only, and the word
# branch without its ``\w*`` (10 us a line of a failure's source: at every word's start ``\w*`` ran to the word's end
# and back, twice). A word ending in Error is there exactly when ``Error\b`` is (its word's start is a ``\b``), a
# word starting with Assert when ``\bAssert`` is. The same lines: a test holds them to ``_MEANINGFUL``.
_MEANINGFUL_START = re.compile("|".join(branch for branch in _MEANINGFUL_BRANCHES if branch.startswith("^")))
_MEANINGFUL_WORDS = re.compile(
    r"\b(?:assert|panicked|FAILED|FAIL|Failed|failed)\b|\bAssert|(?:Error|Exception)\b|error\[E\d+\]"
)


def _meaningful(line: str) -> bool:
    """``_MEANINGFUL.search(line) is not None``, for a line without a newline."""
    return bool(_MEANINGFUL_START.match(line) or _MEANINGFUL_WORDS.search(line))


# A skipped test with its reason is news: a test the person counts on did not run. The first few are kept.
_SKIP = re.compile(r"# SKIP\b|\bSKIPPED\b|\.\.\. skipped\b|^\s*--- SKIP: |^\s*SKIP \[|^\s*○ skipped |\.\.\. ignored, ")
_SKIPS_SHOWN = 10
# A run this small is read whole: which tests passed is part of the answer (`cargo test tiers` ran these four).
_FEW_PASSES = 10
_RUNNER_NOISE = re.compile(r"^=== (RUN|PAUSE|CONT|NAME)\b")  # go's start lines: a test's verdict is its --- line
_RUNNING = re.compile(r"^running [1-9]\d* tests?$")
_REPEAT_SHOWN = 3  # a failure this short is shown whole, however alike: a note would be as long
_COMPARED = 10  # failures of one length a failure is compared with: the first ones shown (a run of 1,000 stays linear)
# doctest -v: an example that passed is `Trying:`, its source, `Expecting:` (or `Expecting nothing`), the expected
# lines, `ok`; the indented lines belong to the example.
_DOCTEST_EXAMPLE = re.compile(r"^(Trying:|Expecting:|Expecting nothing|ok)$")
# libtest names each failed test once more at the end, under "failures:"; what survives a `| tail -30`.
_LISTED = re.compile(r"^    [\w:<>\[\]'\- ]+$")
_RULE = re.compile(r"^[=\-_~⎯]{5,}\s*$")
_SECTION = re.compile(r"^[=\-⎯]{3,} (.+?) [=\-⎯]{3,}$")
# Inside a failure block: pytest's frame separators and the caret lines under source, which repeat what
# the line above already says; and what pytest's assertion rewriting adds that says no value: its blank `E`
# lines, its advice (`Omitting 1 identical items, use -vv to show`, `Use -v to get more diff`, `Drill down into
# differing attribute amount:` above the `amount: … != …` line that says it), and an explanation of an
# explanation that spells out a whole object: `+  where datetime.date(2026, 11, 30) = due()` stays, and so does
# `+    where total = <Cart object at 0x…>.total` under one (what was called), but not `+    where due =
# Invoice(number='INV-1', customer='ACME', …` over 160 characters (what wraps twice on a terminal is an object's
# repr: four such lines on the dev halves, none judged needed, 425 tokens). An explanation stands one space further
# in than the assertion (`E       assert`, `E        +  where`; `E   ` and `E    +` under --tb=short), a line of a
# diff two (`E         +     where o.country = 'IT' …`, a string's own line, the test's actual value).
_BLOCK_NOISE = re.compile(
    r"^(_ )+_?\s*$|^\s*[\^~]+\s*$"
    r"|^E\s*$|^E(?: {4}| {8})\+ {3,}(where|and) .{140}"
    r"|^E\s+(Omitting \d+ identical items?, use -vv to show|Use -v to get (more|the full) diff"
    r"|Drill down into differing attribute \w+:)$"
)
_ASKED_SECTION = re.compile(r"^(short test summary info|slowest( \d+)? durations)$")
_AFTER_RUN = 20  # lines after the last summary kept whole; more is a runner's own (cargo's doc-tests), filtered
_PYTEST_PROGRESS = re.compile(r"^\S+ [.sxXEF]+\s*(\[\s*\d+%\])?$|^[.sxXEF]{3,}\s*(\[\s*\d+%\])?$")
# ``_FAIL_START``, ``_SUMMARY`` and ``_PYTEST_PROGRESS`` have every branch anchored at the line's start: they are
# asked with ``match``, not ``search``, which tried each branch at every position of the line (a test holds them
# anchored).


# A plain pass line: one the loop below would only append as a pass (`tests/t.py::test_x PASSED [ 3%]`), whatever
# its state but ``asked``. Most of a `pytest -v` run is such lines, and a run of them is taken at once, not a Python
# step and six regex calls a line (half the summary's time). Such a line has the PASSED word after its first blank
# (so ``_PASSED`` finds it, and ``_PYTEST_PROGRESS``, whose line after its first word is progress marks, cannot), and
# does not start with anything in the lookahead: a blank (a doctest example's source, libtest's list, an indented
# runner's line), or the first characters of every ``_SUMMARY`` branch and of ``_RUNNER_NOISE``. A prefix of each:
# more lines than need be go the slow way, never fewer; a test holds every line those patterns match to it. Nor may
# it hold a skip's words (``_skipped``), nor be doctest's markers, ``failures:`` or libtest's ``running N tests``,
# which hold no PASSED. One ``match`` a line, in C.
_PLAIN = re.compile(
    r"(?![\s\d]|===|!!!|\*\*\*|# |ℹ |Ran |OK|ok|FAIL|PASS|test result: |Test|Summary|Snapshots|Time|Duration|Start at"
    r"|error: |Interrupted)[^ ]*+ PASSED(?![\w\]-])"
)
_SKIP_CUES = ("SKIP", "skipped", "ignored, ")  # what ``_skipped`` looks for first
SKIP_CUES = ("skip", "ignored, ")  # a line holding one of ``_SKIP_CUES`` holds one of these in lower case
_PLAIN_RUN = re.compile(rb"\x01+")
# A line separator ``str.splitlines`` splits at: where the text ends in one, its last line is not followed by "".
_SEPARATORS = ("\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")
# ``_PLAIN`` by C-level passes over the lines, not a regex call a line (10-12 ms of the 41,000 lines of 4 MB of
# `pytest -v`, a third of the summary): a line whose first blank starts " PASSED " and whose first character is one
# of these is a line ``_PLAIN`` matches. The characters are ASCII letters and punctuation but the first of each of
# its lookahead's branches (a blank or a digit cannot be one): "t" stays, since a line starting "test result: " has
# "result", not "PASSED", after its first blank. Fewer lines than ``_PLAIN``'s may be marked (" PASSED" at the
# line's end, a line led by "T"), never more: those go the loop's way. A test holds the marks to ``_PLAIN``.
_PLAIN_FIRST = (string.ascii_letters + string.punctuation).translate(str.maketrans("", "", "=!*#ROoFPTSDeI"))
_PLAIN_FIRST_BYTES = _PLAIN_FIRST.encode("ascii")


def _plain_passes(text: str, lines: list[str], skip_lines: Sequence[tuple[int, int]] | None = None) -> bytearray:
    """A byte per line of ``lines`` (``text.splitlines()``): 1 where it is a plain pass line. ``skip_lines``: the
    (start, end) of the lines of ``text`` holding a ``SKIP_CUES`` word, when the caller's scan found them."""
    plain = bytearray(map(str.startswith, lines, repeat(" PASSED "), map(str.find, lines, repeat(" "))))
    # Each marked line's first character, all of them in one string: the few not among ``_PLAIN_FIRST`` (none in
    # `pytest -v`) are looked for only when there are any.
    heads = "".join(map(itemgetter(0), compress(lines, plain)))
    if not heads.isascii() or heads.encode("ascii").translate(None, _PLAIN_FIRST_BYTES):
        for index, head in zip(list(compress(count(), plain)), heads, strict=True):
            if head not in _PLAIN_FIRST:
                plain[index] = 0
    # The lines holding a skip word found in the text by one Aho-Corasick pass (a few lines hold one), each line's
    # index counted by the line breaks before it: exact when "\n" is the text's only separator.
    if not any(separator in text for separator in _SEPARATORS[1:7]) and (
        text.isascii() or not any(separator in text for separator in _SEPARATORS[7:])
    ):
        index, at = 0, 0
        for start, _ in keyword_spans(text, text, _SKIP_CUES, merge=False) if skip_lines is None else skip_lines:
            index += text.count("\n", at, start)  # at C speed over the gap: a few lines hold a skip word
            at = start
            plain[index] = 0
    else:
        for cue in _SKIP_CUES:
            for index in compress(count(), map(str.__contains__, lines, repeat(cue))):
                plain[index] = 0
    return plain


class _Run(str):
    """A run of plain pass lines in the summary's lines so far, as one item: its last line (what the steps that read
    the line before see), and where it is in the run's lines. The pass lines of a long run are dropped at the end,
    and copying each into the list, then taking each out again, was a Python step a line."""

    start: int
    end: int

    @classmethod
    def of(cls, lines: list[str], start: int, end: int) -> _Run:
        run = cls(lines[end - 1])
        run.start, run.end = start, end
        return run


@dataclass(frozen=True)
class TestRunSummary:
    text: str
    failures: int
    complete: bool  # a final summary line was seen


def summarize_tests(
    text: str,
    *,
    max_failures: int = 10,
    max_trace_lines: int = 50,
    skip_lines: Sequence[tuple[int, int]] | None = None,
) -> TestRunSummary | None:
    """A summary of test-runner output, or None when the output does not look like a test run. ``skip_lines``: the
    (start, end) of the lines of ``text`` holding a ``SKIP_CUES`` word in any case (or more lines), in order, when
    the caller's scan found them."""
    out: list[str] = []
    failures = 0
    complete = False
    in_block = False
    block_lines = 0
    block_omitted = 0

    block_start = 0  # where the current failure's header is in ``out``
    seen: dict[int, list[tuple[str, list[str]]]] = {}  # failures shown whole, by length: header, body
    names: Counter[str] = Counter()  # the failures' names so far, as their headers give them

    def end_block() -> None:
        nonlocal in_block, block_omitted
        if in_block:
            # A failure whose trace is mostly one already shown (a parametrized case failing as its neighbour
            # did, with other values and another country) shows only the lines that differ: every one of them,
            # so nothing is lost, and the note names the failure that holds the rest.
            # Blank lines aside: the same failure listed again at the end has none after it.
            body = [line for line in out[block_start + 1 :] if line.strip()]
            shown_before = seen.get(len(body), [])[:_COMPARED]
            alike = [sum(map(str.__eq__, body, shown)) for _, shown in shown_before]
            best = max(range(len(alike)), key=alike.__getitem__, default=None)  # the first of the most alike
            if best is not None and alike[best] >= max(_REPEAT_SHOWN, len(body) / 2):
                first, shown = shown_before[best]
                said = first.strip(" _")
                # pytest heads a failure with the function's name alone: when two failures shown bear it (a
                # `test_parse` in two files), the note says which, by the last place its trace names.
                if names[said] > 1:
                    place = next((found.group(1) for line in reversed(shown) if (found := PLACE.match(line))), None)
                    said += f", {place}" if place else ""
                differ = [line for line, was in zip(body, shown, strict=True) if line != was]
                out[block_start + 1 :] = [*differ, f"    [the rest as in the failure above: {quoted(said)}]"]
            elif body:
                seen.setdefault(len(body), []).append((out[block_start], body))
            names[out[block_start].strip(" _")] += 1
        if block_omitted:
            out.append(f"    ... ({block_omitted} lines of trace omitted) ...")
        in_block = False
        block_omitted = 0

    listing = False  # inside libtest's closing "failures:" list of test names
    asked = False  # inside a section a flag asked for
    asked_any = False  # a flag chose which tests to list (-rA): the run's own pass lines are not restored
    example = False  # inside a doctest example's indented source or expected lines
    skips = 0
    passes: list[int] = []  # where each passing test's line (and libtest's count) is in ``out``: kept in a small run
    passed = 0  # how many more pass lines there are than ``passes`` (a ``_Run`` is one item of many lines)
    lines = text.splitlines()
    plain = _plain_passes(text, lines, skip_lines) if lines else bytearray()
    after_summary = (0, 0)  # where the last summary line was: in ``lines``, and in ``out`` after it
    number = -1
    while number + 1 < len(lines):
        number += 1
        line = lines[number]
        if plain[number] and not asked:
            # A run of plain pass lines: what the steps below do for each, at once. The first ends a failure
            # block (the rest find none open) and any doctest example or libtest list; each is kept as a pass.
            run = _PLAIN_RUN.match(plain, number)
            end = run.end() if run is not None else number + 1
            end_block()
            example = listing = False
            passes.append(len(out))
            out.append(_Run.of(lines, number, end))
            passed += end - number - 1  # the run's lines after its first, which ``passes`` counts
            number = end - 1
            continue
        # doctest's markers are doctest's outside a failure or after its own; inside another runner's failure
        # (a test's captured stdout printing "Trying:") they are that failure's lines.
        if _DOCTEST_EXAMPLE.match(line) and (not in_block or out[block_start].startswith('File "')):
            end_block()
            example = line != "ok"
            continue
        if example and line[:1] in (" ", "\t"):
            continue
        example = False
        if line == "failures:":
            end_block()
            listing = True
            continue
        if listing and _LISTED.match(line):
            if not out or not (out[-1] == "failures:" or _LISTED.match(out[-1])):
                out.append("failures:")
            out.append(line)
            continue
        listing = listing and not line.strip()  # a blank line may follow the header; anything else ends it
        if _SUMMARY.match(line):
            end_block()
            asked = False
            out.append(line)  # as the runner wrote it: a filter removes lines, it does not rewrite them
            complete = True
            after_summary = (number + 1, len(out))
            continue
        if asked and line.strip() and not (_RULE.match(line) or _SECTION.match(line)):
            out.append(line)  # -rA's PASSED lines too: the flag asked for them
            asked_any = True
            continue
        if _FAIL_START.match(line) and not _passes(line):
            end_block()
            failures += 1
            block_start = len(out)
            out.append(line)
            in_block, block_lines = True, 0
            continue
        if _RUNNING.match(line):
            # A test binary starts: a failure still open is over. (Its place is remembered: a fold of the
            # failure after it had moved the next line there, and that line went with the run's pass lines.)
            end_block()
            passes.append(len(out))
            out.append(line)
            continue
        if not in_block and _skipped(line):
            skips += 1
            if skips <= _SKIPS_SHOWN:
                out.append(line)
            continue
        if _passes(line) or _PYTEST_PROGRESS.match(line):
            end_block()
            if not _PYTEST_PROGRESS.match(line) and not _RUNNER_NOISE.match(line):
                passes.append(len(out))
                out.append(line)
            continue
        section = _SECTION.match(line)
        if _RULE.match(line) and in_block and block_lines == 0:
            continue  # unittest underlines its FAIL: header; the block has only begun
        if section or _RULE.match(line):
            end_block()
            name = section.group(1).strip() if section else ""
            # What a flag asked for is kept whole: -r's short summary (SKIPPED reasons, XFAIL…), --durations.
            asked = _ASKED_SECTION.match(name) is not None
            if asked:
                out.append(line)
            elif name in ("FAILURES", "ERRORS", "warnings summary"):
                out.append(f"== {name} ==")
            continue
        if in_block and _BLOCK_NOISE.match(line):
            continue
        if in_block:
            block_lines += 1
            if (failures <= max_failures and block_lines <= max_trace_lines) or _meaningful(line):
                if line.strip() or (out and out[-1].strip()):
                    out.append(line)
            else:
                block_omitted += 1
            continue
        if asked or _meaningful(line):
            out.append(line)
    end_block()
    if failures == 0 and not complete:
        return None
    if passes and (len(passes) + passed > _FEW_PASSES or asked_any):
        # By C-level passes over a mask, not a comprehension over every line kept: ``passes`` is in order.
        keep = bytearray(b"\x01") * len(out)
        for index in passes:
            keep[index] = 0
        out = list(compress(out, keep))
        after_summary = (after_summary[0], after_summary[1] - bisect_left(passes, after_summary[1]))
    elif passed:
        # A small run's pass lines stay: each run as its lines.
        whole: list[str] = []
        after = after_summary[1] + passed  # where the summary's next line is once every run is its lines
        for index, line in enumerate(out):
            if index == after_summary[1]:  # the lines of the runs before it moved it this far
                after = len(whole)
            if isinstance(line, _Run):
                whole += lines[line.start : line.end]
            else:
                whole.append(line)
        out, after_summary = whole, (after_summary[0], after)
    if complete:
        # What follows the runner's last summary is another command's (`; echo exit=$?`, `&& echo deployed`):
        # kept as it is, up to a screen of it.
        # Not when it holds a failure: that is the runner's own list, after its counts (node's `✖ failing tests:`).
        rest = [line for line in lines[after_summary[0] :] if line.strip()]
        if rest and len(rest) <= _AFTER_RUN and not any(_FAIL_START.match(line) for line in rest):
            out = out[: after_summary[1]] + rest
    return TestRunSummary("\n".join(_fold_repeats(out)).strip("\n"), failures, complete)


def _fold_repeats(lines: list[str]) -> list[str]:
    """Consecutive identical lines (a workspace's twelve ``test result: ok.`` lines) once, with a count."""
    out: list[str] = []
    run = 0
    for line in [*lines, None]:
        if out and line == out[-1] and line.strip():
            run += 1
            continue
        if run:
            out.append(f"  [same line {run} more times]")
            run = 0
        if line is not None:
            out.append(line)
    return out
