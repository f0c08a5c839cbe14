"""Two promises about long outputs and rules: a long output nobody's rule understood is cut to its ends and what a
person looks for, with every gap counted; and a rule never silently drops an error or a verdict."""

from __future__ import annotations

import pytest

from zeph_nb.filters import FilterEngine, default_rules
from zeph_nb.output.budget import HEAD, LONG, TAIL, budget_filter
from zeph_nb.output.rules import load_rules
from zeph_nb.output.salient import HEADING, MAX_RESTORED, restore_salient_lines

ENGINE = FilterEngine(default_rules())


def _doctest_run(examples: int, failing: int) -> str:
    """What ``python -m doctest -v`` prints: blocks that alternate with unique code, so nothing repeats in runs."""
    out: list[str] = []
    for n in range(examples):
        out += ["Trying:", f"    slug('word {n}')", "Expecting:", f"    'word-{n}'"]
        if n == failing:
            out += ["*" * 70, f'File "/work/project/text.py", line {100 + n}, in text.slug', "Failed example:",
                    f"    slug('word {n}')", "Expected:", f"    'word-{n}'", "Got:", f"    'word_{n}'"]  # fmt: skip
        else:
            out.append("ok")
    out += ["1 items had failures:", f"   1 of {examples} in text.slug", f"{examples} tests in 1 items.",
            f"{examples - 1} passed and 1 failed.", "***Test Failed*** 1 failures."]  # fmt: skip
    return "\n".join(out)


def test_a_long_output_no_rule_knows_keeps_its_ends_its_failure_and_its_totals() -> None:
    text = _doctest_run(80, failing=40)
    out = ENGINE.filter("python -m doctest -v text.py", text, 1)
    kept = out.text.splitlines()
    lines = text.splitlines()
    assert kept[:HEAD] == lines[:HEAD] and kept[-TAIL:] == lines[-TAIL:]
    # The failure with where it happened above it and what it got below it.
    for line in ['File "/work/project/text.py", line 140, in text.slug', "Failed example:", "Got:", "    'word_40'"]:
        assert line in kept
    assert "79 passed and 1 failed." in kept
    # Every gap is one counted line, and together they account for every line left out.
    gaps = [line for line in kept if line.startswith("[… ") and line.endswith(" lines not shown …]")]
    assert gaps and sum(int(g[3:].split()[0].replace(",", "")) for g in gaps) == len(lines) - (len(kept) - len(gaps))
    assert len(out.text) < len(text) / 4
    assert out.rule == "generic"


def test_a_short_output_or_one_with_nothing_to_cut_is_left_alone() -> None:
    assert budget_filter("\n".join(f"line {n}" for n in range(LONG))) is None
    errors = "\n".join(f"src/m{n}.py:{n}: error: missing annotation" for n in range(LONG * 2))
    assert budget_filter(errors) is None  # every line is one a person looks for


def test_what_was_asked_for_and_what_a_rule_understood_are_not_cut() -> None:
    text = "\n".join(f"row {n} value {n * 7}" for n in range(400))
    for command in ("cat data.txt", "head -400 data.txt", "sed -n 1,400p data.txt"):
        assert ENGINE.filter(command, text, 0).text == text, command
    # A diff is a listing: every changed line is wanted alike, so only its own rule's cap applies.
    diff = "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,300 +1,300 @@\n" + "\n".join(
        f"-old {n}\n+new {n}" for n in range(300)
    )
    kept = ENGINE.filter("git diff", diff, 0).text.splitlines()
    assert sum(line[:1] in "+-" for line in kept) >= 500  # its own cap, max_diff_lines


def test_the_generic_notes_survive_the_budget() -> None:
    beats = [f"10:00:{n % 60:02d} INFO worker {n % 5} heartbeat ok" for n in range(3000)]
    words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]
    unique = [f"loaded {a} {b} {c}" for a in words for b in words for c in words[:2]]  # distinct: not folded
    text = "\n".join([*beats[:1500], *unique, *beats[1500:]])
    kept = ENGINE.filter("python service.py", text, 0).text.splitlines()
    assert any("similar lines" in line for line in kept) and any("lines not shown" in line for line in kept)


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
