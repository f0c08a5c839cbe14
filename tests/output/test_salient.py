"""A rule never silently drops an error or a verdict: what a report's rule dropped is put back, one of each kind."""

from __future__ import annotations

import pytest

from zeph_nb.filters import FilterEngine, default_rules
from zeph_nb.output.rules import load_rules
from zeph_nb.output.salient import HEADING, MAX_LINE, MAX_RESTORED, restore_salient_lines

ENGINE = FilterEngine(default_rules())


RULE = '[[rules]]\nname = "tool"\nmatch = { prefix = "tool" }\nstrategy = { type = "truncate", max_lines = 4, head = 2, tail = 2 }\n'


def test_a_rule_that_drops_an_error_or_a_verdict_gets_it_put_back_once() -> None:
    engine = FilterEngine(load_rules(RULE).rules)
    lines = ["start", "step 1", "error: disk full on /dev/sda1", "step 2", "error: disk full on /dev/sdb1",
             "Ran 12 tests", "FAILED (failures=2)", "step 3", "step 4", "end"]  # fmt: skip
    kept = engine.filter("tool run", "\n".join(lines), 1).text.splitlines()
    assert kept[:2] == ["start", "step 1"] and HEADING in kept
    restored = kept[kept.index(HEADING) + 1 :]
    # One of each kind: the second disk is the same error in another place.
    assert restored == ["error: disk full on /dev/sda1", "Ran 12 tests", "FAILED (failures=2)"]


def test_the_source_line_python_prints_under_a_kept_warning_is_not_put_back() -> None:
    """`  warnings.warn(DeprecationWarning(...))` says "warn", but it is the kept warning's own second line."""
    warning = "/site/plugin.py:306: PytestDeprecationWarning: The option is unset."
    original = "\n".join([warning, "Set it explicitly.", "", "  warnings.warn(PytestDeprecationWarning(UNSET))",
                          "step", "warning: cache stale", "  error reading /var/cache/x", "end"])  # fmt: skip
    text, restored = restore_salient_lines(original, f"{warning}\nend")
    # An indented error under a line that is no Python warning's is news, and comes back.
    assert restored == 2 and text.splitlines()[-2:] == ["warning: cache stale", "  error reading /var/cache/x"]


def test_a_listing_rule_gets_nothing_put_back() -> None:
    """A search for "error" finds lines saying error: they are matches the listing's cap left out, not news."""
    matches = "\n".join(f"src/m{n}.py:{n}: raise ValueError('error {n}')" for n in range(200))
    kept = ENGINE.filter("grep -rn error src", matches, 0).text
    assert HEADING not in kept


@pytest.mark.parametrize("count", [MAX_RESTORED - 1, MAX_RESTORED * 3])
def test_restored_lines_are_bounded(count: int) -> None:
    # Names that differ in more than digits: each warning is a kind of its own.
    original = "\n".join(["head", *(f"warning: {'x' * (n + 1)} is unused" for n in range(count)), "tail"])
    text, restored = restore_salient_lines(original, "head\ntail")
    shown = text.splitlines()[text.splitlines().index(HEADING) + 1 :]
    assert restored == count
    if count <= MAX_RESTORED:
        assert len(shown) == count
    else:
        assert (
            len(shown) == MAX_RESTORED + 1 and f"{count - MAX_RESTORED:,} more such lines" in shown[MAX_RESTORED // 2]
        )


def test_a_huge_line_a_rule_dropped_comes_back_cut() -> None:
    """A hostile or minified output: one 2 MB line holding "error" that the rule left out must not return whole."""
    blob = "error " + "A" * 2_000_000
    text, restored = restore_salient_lines("start\n" + blob + "\nend", "start\nend")
    shown = text.splitlines()[-1]
    assert restored == 1 and shown.startswith("error AAA") and len(shown) < MAX_LINE + 40
    assert shown.endswith(f"…[{len(blob) - MAX_LINE:,} more characters]")


GH = "ghp_" + "a1B2c3D4" * 4 + "e5F6"


def test_the_cut_of_a_put_back_line_never_leaves_part_of_a_secret() -> None:
    """Redaction runs after the filters and knows a token whole: the first half of one would reach the model."""
    for at in range(MAX_LINE - len(GH) + 1, MAX_LINE):  # every cut through the token
        # The token named (a github token) and a value no pattern knows, both through the cut.
        for value in (GH, "zq" + "Xy7Kp2Lm9" * 5):
            line = "warning: " + "x" * (at - 9 - 1) + " " + value + " rejected"
            assert line.index(value) == at and len(line) > MAX_LINE
            text, _ = restore_salient_lines(f"start\n{line}\nend", "start\nend")
            shown = text.splitlines()[-1]
            assert value[:6] not in shown, (at, shown[-60:])
            assert shown.endswith(f"x …[{len(line) - at:,} more characters]")


def test_a_heading_the_rule_kept_in_its_own_words_is_not_put_back() -> None:
    original = "=" * 20 + " FAILURES " + "=" * 20 + "\nE   assert 1 == 2\nreport.py:3: error: bad\n"
    restored, count = restore_salient_lines(original, "== FAILURES ==\nE   assert 1 == 2")
    assert count == 1 and restored.splitlines()[-1] == "report.py:3: error: bad"


def test_a_line_whose_place_the_report_lists_was_counted_not_dropped() -> None:
    """ruff's grouped report keeps one line per code and lists where the rest are (`3x at a.py:9:7, …`): the others
    say "Exception name" but are counted there. A line at a place the report does not name is still put back."""
    original = "\n".join([
        "tallyhub/money.py:9:7: N818 Exception name `CurrencyMismatch` should be named with an Error suffix",
        "tallyhub/tax.py:19:7: N818 Exception name `UnknownCountry` should be named with an Error suffix",
        "tallyhub/worker.py:17:7: N818 Exception name `FontNotFound` should be named with an Error suffix",
        "tallyhub/rates.py:1:1: E902 No such file or directory (os error 2)",
        "Found 4 errors.",
    ])  # fmt: skip
    filtered = "\n".join([
        original.splitlines()[0],
        "    3x at tallyhub/money.py:9:7, tallyhub/tax.py:19:7, tallyhub/worker.py:17:7",
        "Found 4 errors.",
    ])  # fmt: skip
    text, restored = restore_salient_lines(original, filtered)
    assert restored == 1 and text.splitlines()[-2:] == [HEADING, original.splitlines()[3]]
