"""The test summary's runs of plain pass lines give what its line-by-line loop gives.

``_plain_passes`` marks the lines the loop would only keep as passes; the loop takes a run of them at once. With
the marks all cleared the loop is the line-by-line one it was, so that is the reference, on generated runs built
to put pass lines where the state is not plain: inside failures, doctest examples, libtest's list, a section a
flag asked for, after a summary; with skips, progress lines and separators other than "\\n".
"""

from __future__ import annotations

import random

import pytest

from zeph_nb.output import test_summary
from zeph_nb.output.test_summary import (
    _PASSED,
    _PLAIN,
    _PYTEST_PROGRESS,
    _RUNNER_NOISE,
    _SUMMARY,
    _plain_passes,
    _skipped,
    summarize_tests,
)

_PIECES = [
    "tests/a.py::test_x PASSED [ 10%]", "tests/b.py::T::test_y[p-1] PASSED", "tests/c.py::test_z FAILED [ 20%]",
    "tests/s.py::test_s SKIPPED (needs net) [ 30%]", "tests/k.py::test_skipped_case PASSED", "a/PASSED/b ....",
    "ok PASSED", "Test PASSED", "a/b PASSED ....", "x  PASSED", "x PASSED ....", "  indented PASSED", "\tTAB PASSED", "=== RUN   TestX PASSED", "12 PASSED",
    "=================================== FAILURES ===================================",
    "_______________________ test_x ________________________", "E       assert 1 == 2", ">       assert x",
    "tests/a.py:12: AssertionError", "=========================== short test summary info ============================",
    "FAILED tests/a.py::test_x - AssertionError", "SKIPPED [1] tests/s.py:5: needs network",
    "========== 1 failed, 3 passed, 1 skipped in 0.12s ==========", "3 passed in 0.10s", "failures:",
    "    tests::parse_empty", "running 3 tests", "Trying:", "    f(1)", "Expecting:", "    2", "ok", "",
    "FAIL: test_a (t.T)", "----------------------------------------------------------------------",
    "Ran 3 tests in 0.001s", "OK", "FAILED (failures=1)", "tests/a.py ....F.s [ 50%]", "....", "x [PASSED] y",
    "echo done", "File \"t.py\", line 3, in t", "--- FAIL: TestY (0.00s)", "Summary [ 0.1s ] 3 tests PASSED",
    "test result: ok. 3 passed", "PASSED", "not PASSED ... ok", "x PASSED\r", "ignored, PASSED",
]  # fmt: skip


def _runs(seed: int) -> list[str]:
    rnd = random.Random(seed)
    texts = []
    for _ in range(60):
        lines = [rnd.choice(_PIECES) if rnd.random() < 0.5 else f"tests/t{rnd.randint(0, 9)}.py::test_{rnd.randint(0, 99)} PASSED"
                 for _ in range(rnd.randint(0, 80))]  # fmt: skip
        text = rnd.choice(["\n", "\n", "\r\n", "\x0b"]).join(lines) + rnd.choice(["", "\n", "\r\n"])
        texts.append(text)
    return texts


@pytest.mark.parametrize("seed", range(6))
def test_runs_of_plain_passes_summarize_as_line_by_line(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    texts = _runs(seed)
    fast = [summarize_tests(text, max_failures=2, max_trace_lines=3) for text in texts]
    assert any(any(_plain_passes(text, text.splitlines())) for text in texts)  # the fast path was taken
    monkeypatch.setattr(test_summary, "_plain_passes", lambda text, lines, skips=None: bytearray(len(lines)))
    assert fast == [summarize_tests(text, max_failures=2, max_trace_lines=3) for text in texts]


def test_a_plain_pass_line_is_one_the_loop_keeps_as_a_pass_only() -> None:
    lines = [line for seed in range(6) for text in _runs(seed) for line in text.splitlines()] + _PIECES
    for text in ("\n".join(lines), "\r\n".join(lines)):
        split = text.splitlines()
        plain = _plain_passes(text, split)
        for line, mark in zip(split, plain, strict=True):
            # The patterns its prefixes stand in for, whole.
            if _SUMMARY.search(line) or _RUNNER_NOISE.match(line):
                assert not _PLAIN.match(line), line
            if mark:
                assert _PASSED.search(line) and not _skipped(line) and line[:1] not in (" ", "\t"), line
                assert not (_SUMMARY.search(line) or _PYTEST_PROGRESS.search(line) or _RUNNER_NOISE.match(line)), line


def test_the_marks_by_first_blank_and_first_character_are_lines_plain_matches() -> None:
    """``_plain_passes`` marks by C-level passes (the first blank starts " PASSED ", the first character one of
    ``_PLAIN_FIRST``) only lines ``_PLAIN`` matches and holding no skip word, whatever they start with: every
    branch of its lookahead, every ASCII character, blanks, digits and characters beyond ASCII."""
    starts = [*map(chr, range(32, 127)), "\t", "\x1f", "\u2007", "٣", "ℹ", "é", "Ω", ""]
    branches = ["===", "!!!", "***", "# ", "ℹ ", "Ran ", "OK", "ok", "FAIL", "PASS", "test result: ", "Test", "Summary",
                "Snapshots", "Time", "Duration", "Start at", "error: ", "Interrupted", "tests/", "t"]  # fmt: skip
    ends = [" PASSED [ 1%]", " PASSED ", " PASSED", " PASSED\t", " PASSED]", " PASSED-x", " PASSED skipped", " PASSEDx"]
    lines = [f"{start}{middle}{end}" for start in starts for middle in ("", "x", "::a[b c]") for end in ends]
    lines += [f"{branch}{middle}{end}" for branch in branches for middle in ("", "x", " ") for end in ends]
    lines += [f"{branch}{end[1:]}" for branch in branches for end in ends]  # `error: PASSED`, `# PASSED`
    lines += ["tests/a.py::test_SKIP PASSED [ 1%]", "t::ignored, PASSED x", "a.py::t PASSED [ 9%] SKIPPED"] * 3
    ascii_lines = [line for line in lines if line.isascii()]
    # Each separator ``str.splitlines`` knows (a skip word's line is found by the line breaks before it: only "\n").
    texts = [separator.join(lines) for separator in ("\n", "\r\n", "\r", "\x0b", "\u2028", "\x85")]
    for text in [*texts, *(separator.join(ascii_lines) for separator in ("\n", "\r", "\x0c", "\x1c", "\x1e"))]:
        split = text.splitlines()
        plain = _plain_passes(text, split)
        for line, mark in zip(split, plain, strict=True):
            if mark:
                assert _PLAIN.match(line) and not any(cue in line for cue in test_summary._SKIP_CUES), line
        assert plain[split.index("tests/x PASSED [ 1%]")]  # the common line is taken at once


@pytest.mark.parametrize("seed", range(6))
def test_skip_lines_from_the_scan_mark_what_the_own_search_marks(seed: int) -> None:
    """The lines the engine's scan found a ``SKIP_CUES`` word in (lowered: "skip" stands for "SKIP" and "skipped")
    clear the marks ``_plain_passes``'s own search of the skip words clears, and maybe more ("Skip"), on every
    separator; the summary is the same."""
    from zeph_nb.security.secrets import ascii_lower, keyword_spans

    rnd = random.Random(seed)
    skips = ["t::test_SKIP PASSED [ 1%]", "t::skipped PASSED x", "t::ignored, PASSED x", "t::Skip PASSED x",
             "t::SKIPPED PASSED x", "t::ignored PASSED x"]  # fmt: skip
    for text in _runs(seed):
        lines = text.splitlines() + [rnd.choice(skips) for _ in range(rnd.randint(0, 5))]
        rnd.shuffle(lines)
        for joined in ("\n".join(lines), "\n".join(lines) + "\n", text):
            found = keyword_spans(joined, ascii_lower(joined), test_summary.SKIP_CUES, merge=False)
            split = joined.splitlines()
            marks = _plain_passes(joined, split, found)
            for line, mark, own in zip(split, marks, _plain_passes(joined, split), strict=True):
                assert mark <= own and not (mark and any(cue in line for cue in test_summary._SKIP_CUES)), line
            assert summarize_tests(joined, skip_lines=found) == summarize_tests(joined)


def test_the_patterns_asked_with_match_are_anchored_in_every_branch() -> None:
    """``match`` for ``search`` finds the same lines only when every branch starts at the line's start."""
    import importlib

    parser = importlib.import_module("re._parser")
    constants = importlib.import_module("re._constants")
    for pattern in (test_summary._FAIL_START, test_summary._SUMMARY, test_summary._PYTEST_PROGRESS):
        tree = list(parser.parse(pattern.pattern, pattern.flags))
        branches = tree[0][1][1] if len(tree) == 1 and tree[0][0] is constants.BRANCH else [tree]
        for branch in branches:
            first = next(iter(branch))
            assert first == (constants.AT, constants.AT_BEGINNING), (pattern.pattern, first)


def test_the_split_meaningful_search_finds_the_lines_the_whole_pattern_finds() -> None:
    rnd = random.Random(45)
    parts = ["assert", "Assert", "AssertionError", "xAssert", "assertx", "Error", "ValueError", "Errors", "ErrorX",
             "_Error", "Exception", "MyException:", "panicked", "FAILED", "FAIL", "Failed", "failed", "failedx",
             "E ", ">  ", "E", "  File \"a.py\", line 3", "Traceback (most recent call last)", "Expected", " got: ",
             "left", "=", "a.py:12", " src/x.rs:3", "  at f (a.js:1:2)", " --> src/a.rs:1:2", "error[E0308]",
             "error: ", "warning: ", "FAIL: ", "ERROR: ", "collected 3 items", "1..4", " ", "\t", "x", "_", "é",
             "É", "1", "."]  # fmt: skip
    lines = ["".join(rnd.choice(parts) for _ in range(rnd.randint(0, 5))) for _ in range(20_000)]
    for line in lines:
        assert test_summary._meaningful(line) == (test_summary._MEANINGFUL.search(line) is not None), line
