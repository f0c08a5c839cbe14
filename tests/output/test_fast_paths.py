"""The fast paths of the line strategies give what the slow definitions give, line for line.

Each fast path (kinds grouped by a digit-blind key, noise patterns split into anchored and loose, keywords found
by one Aho-Corasick pass) is checked against the plain definition it replaces, on generated lines built to hit
their edges: digits the patterns tell apart, digits in words, hex, blank and whitespace-only lines, non-ASCII.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Sequence

import pytest

from zeph_nb.output.engine import FilterEngine
from zeph_nb.output.generic import _NORMALIZE, _PATHS, _SPANS, _TABLE, KEEP_CUES, _rests, generic_filter, line_kinds
from zeph_nb.output.generic import KEEP as _KEEP
from zeph_nb.output.kinds import LineKinds, digit_blind_table, matched_chars
from zeph_nb.output.loading import default_rules
from zeph_nb.output.noise import _noise_lines
from zeph_nb.output.rules import Dedup, Normalize, StripNoise
from zeph_nb.output.strategies import _KEEP_IN_LOGS, _LOG_CUES, _dedup_capped, _normalizer, apply_strategy, dedup
from zeph_nb.output.templates import fold_long_output
from zeph_nb.security.secrets import _ASCII_LOWER, ascii_lower, keyword_line_groups, keyword_spans

_WORDS = ["INFO", "DEBUG", "error", "v2beta", "0x1f", "0x2F", "1x1f", "worker-7", "id=3fa85f64", "ms", "İstanbul",
          "192.168.0.12", "12:30:01", "2026-11-22T10:00:00.463Z", "3fa85f64-5717-4562-b3fc-2c963f66afa6", "  ", "#"]  # fmt: skip
# Words the error patterns look for, in other cases and shapes; the last one matches (?i)critical and is not ASCII.
_ALARMS = ["ERROR", "Failed", "warning:", "ValueError:", "KILLED", "aborted", '  File "a.py"', "\tat main", "crıtıcal"]


def _lines(seed: int, n: int = 400) -> list[str]:
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        words = [rnd.choice(_WORDS) if rnd.random() < 0.6 else str(rnd.randint(0, 10**rnd.randint(1, 6)))
                 for _ in range(rnd.randint(0, 6))]  # fmt: skip
        out.append(" ".join(words) if rnd.random() > 0.05 else " " * rnd.randint(0, 3))
    return out


def test_the_table_maps_only_digits_no_pattern_tells_apart() -> None:
    assert digit_blind_table([r"\d+"]) == {d: ord("0") for d in range(ord("1"), ord("9") + 1)}
    # The 0 of "0x" is a literal: it stays itself, the others map to 1.
    assert digit_blind_table([r"\b0x[0-9a-f]+\b", r"\d+"]) == {d: ord("1") for d in range(ord("2"), ord("9") + 1)}
    # A class holding some digits sets them apart from the rest.
    assert set(digit_blind_table([r"[0-4]x"]) or {}) == {ord(d) for d in "6789"}
    assert digit_blind_table([r"(\d)\1"]) is None  # a backreference tells any two digits apart
    assert digit_blind_table([r"[0-8]", r"9"]) is None  # nothing left to map


@pytest.mark.parametrize("seed", range(6))
def test_line_kinds_are_the_normalised_lines(seed: int) -> None:
    lines = _lines(seed)
    text = "\n".join(lines)
    normalize, table, _ = _normalizer(tuple((n.pattern, n.replacement) for n in Dedup(type="dedup").normalize_patterns))
    assert table is not None
    kinds = LineKinds(text, lines, normalize, table)
    assert kinds.kinds == [normalize(line).translate(table) for line in lines]
    assert kinds.lines_matching(_KEEP_IN_LOGS) == {i for i, line in enumerate(lines) if _KEEP_IN_LOGS.search(line)}
    generic = LineKinds(text, lines, lambda t: _NORMALIZE.sub("#", t), _TABLE)
    assert generic.kinds == [_NORMALIZE.sub("#", line).translate(_TABLE or {}) for line in lines]
    lowered = {i for i, line in enumerate(lines) if _KEEP.search(line.lower())}
    assert generic.lines_matching(_KEEP, lower=True) == lowered


@pytest.mark.parametrize(("seed", "ascii"), [(0, True), (1, True), (2, False), (3, False)])
def test_cues_only_spare_searching_lines_no_match_could_be_in(seed: int, ascii: bool) -> None:
    rnd = random.Random(seed)
    lines = [" ".join(rnd.choice([line, *_ALARMS[: -1 if ascii else None]]) for _ in range(3)) for line in _lines(seed)]
    lines = [line.encode("ascii", "ignore").decode() if ascii else line for line in lines]
    text = "\n".join(lines)
    normalize, table, _ = _normalizer(tuple((n.pattern, n.replacement) for n in Dedup(type="dedup").normalize_patterns))
    kinds = LineKinds(text, lines, normalize, table)
    errors = {i for i, line in enumerate(lines) if _KEEP_IN_LOGS.search(line)}
    assert errors and kinds.lines_matching(_KEEP_IN_LOGS, cues=_LOG_CUES) == errors
    # Given the engine's scan of the put-back's keywords (which hold every cue) instead of scanning for the cues.
    from zeph_nb.output.salient import SCANNED

    assert set(_LOG_CUES) <= set(SCANNED)
    scanned = keyword_spans(text, ascii_lower(text), SCANNED, merge=False)
    assert kinds.lines_matching(_KEEP_IN_LOGS, cues=_LOG_CUES, holding=scanned) == errors
    generic = LineKinds(text, lines, lambda t: _NORMALIZE.sub("#", t), _TABLE)
    wanted = {i for i, line in enumerate(lines) if _KEEP.search(line.lower())}
    assert wanted and generic.lines_matching(_KEEP, lower=True, cues=KEEP_CUES) == wanted
    if not ascii:  # the dotless i: found though lowering cannot make it "critical"
        assert any("crıtıcal" in lines[i] for i in errors)


def test_dedup_counts_lines_differing_only_in_digits_as_one_kind() -> None:
    lines = [
        f"2026-11-22T10:00:{i % 60:02d}Z worker {i % 7} handled request {i * 37} in {i % 90}ms" for i in range(300)
    ]
    lines.insert(150, "2026-11-22T10:02:30Z worker 3 ERROR request 5550 failed")
    out = dedup("\n".join(lines), Dedup(type="dedup"), 0).text.splitlines()
    # And how the log ends. The error shown falls among the kind's lines: the note says some come after it, or 296
    # "more like this" would read as all before it.
    assert out == [lines[0], "  [296 more like this, some further down]", lines[150], *lines[-3:]]


@pytest.mark.parametrize("seed", range(6))
def test_noise_lines_are_the_lines_a_pattern_matches(seed: int) -> None:
    lines = _lines(seed)
    patterns = (r"^\s*$", r"^DEBUG\b", r"error", r"\d+ms$", r"(?i)^info ", r"^#|^\s+#")
    expected = {i for i, line in enumerate(lines) if any(re.search(p, line) for p in patterns)}
    assert _noise_lines(patterns, "\n".join(lines), lines) == expected


def test_a_top_level_alternation_is_not_taken_for_an_anchored_pattern() -> None:
    lines = ["x DEBUG", "DEBUG y", "z"]
    assert _noise_lines((r"^z|DEBUG",), "\n".join(lines), lines) == {0, 1, 2}


def test_a_pattern_with_flags_for_all_of_it_works_next_to_others() -> None:
    # Each pattern compiles alone (the rule's schema checks that); in one alternation Python would refuse "(?i)".
    rule = StripNoise(type="strip_noise", patterns=[r"(?i)^info ", r"^debug", r"(?x) heart  beat"])
    out = apply_strategy("INFO a\ndebug b\nWARN c\nheartbeat\n", rule, 0)
    assert out.text == "WARN c"


@pytest.mark.parametrize(("seed", "ascii"), [(0, True), (1, True), (2, False), (3, False)])
def test_keyword_lines_are_every_line_with_a_keyword(seed: int, ascii: bool) -> None:
    keywords = ("error", "ms", "ssl", "0x", "debug")
    lines = [line.encode("ascii", "ignore").decode() if ascii else line for line in _lines(seed)]
    text = "\n".join(lines)
    lowered = text.translate(_ASCII_LOWER)
    assert lowered.isascii() is ascii  # both of keyword_spans' paths: bytes offsets and character offsets
    spans = keyword_spans(text, lowered, keywords, merge=False)
    wanted = [line for line in lines if any(k in line.translate(_ASCII_LOWER) for k in keywords)]
    assert [text[a:b] for a, b in spans] == wanted


@pytest.mark.parametrize(("seed", "ascii"), [(0, True), (1, True), (2, False), (3, False)])
def test_one_scan_finds_each_groups_lines_and_the_cues_anywhere(seed: int, ascii: bool) -> None:
    # "ms" is a group's keyword and a cue at once; "error" is in two groups, "debug" in three.
    groups = (("error", "ssl"), ("ms", "debug", "error"), ("debug",), ("zzz", "debug"))
    cues = ("0x", "ms", "req 4", "zzz")
    lines = [line.encode("ascii", "ignore").decode() if ascii else line for line in _lines(seed)]
    text = "\n".join(lines)
    lowered = text.translate(_ASCII_LOWER)
    spans, found = keyword_line_groups(text, lowered, groups, cues)
    for group, group_spans in zip(groups, spans, strict=True):
        wanted = [line for line in lines if any(k in line.translate(_ASCII_LOWER) for k in group)]
        assert [text[a:b] for a, b in group_spans] == wanted
    assert found == {cue for cue in cues if cue in lowered}


def test_a_lone_surrogate_is_filtered_not_raised_on() -> None:
    # Text decoded with "surrogateescape" (or JSON's "\ud800") holds lone surrogates, which the character
    # automaton cannot encode: the up-front scan raised UnicodeEncodeError on an output the filter used to pass
    # through whole, and a long one raised wherever the security pass ran.
    engine = FilterEngine(default_rules())
    short = "build of caf\udce9 ok\n"
    assert engine.filter("python app.py", short, 0).text == short
    long = "\n".join(
        [f"INFO worker sent item {i} to caf\udce9" for i in range(200)] + ["ssl: certificate verify failed"]
    )
    filtered = engine.filter("python app.py", long, 1)
    assert "similar lines" in filtered.text and "ssl: certificate verify failed" in filtered.text
    lowered = long.translate(_ASCII_LOWER)
    assert [long[a:b] for a, b in keyword_spans(long, lowered, ("ssl",), merge=False)] == [long.split("\n")[-1]]


@pytest.mark.parametrize("seed", range(4))
def test_the_security_lines_quick_check_turns_away_no_security_line(seed: int) -> None:
    # MAYBE_SECURITY_LINE skips the exact pattern on lowered ASCII lines it does not match: it must match every
    # line the exact pattern does. Lines built from the pattern's own words, in any case, with noise around them.
    from zeph_nb.output.security import MAYBE_SECURITY_LINE, SECURITY_LINE

    rng = random.Random(seed)
    words = ["panic", "panicked", "authentication failed", "Unauthorized", "forbidden", "access denied", "HTTP/1.1 ",
             "status: ", "401", "403", "permission denied", "RUSTSEC-2024-0001", "CVE-2024-12345", "PYSEC-2023-7",
             "GHSA-2c3f-4g5h-6j7m", "vulnerabilities found", "3 high severity vulnerabilities", "weak cipher",
             "deprecated hash", "insecure crypto", "md5 is weak", "certificate verify failed", "SSLError",
             "SSL handshake failed", "warning", "item 17", " ", ":", "-", "x"]  # fmt: skip
    hits = 0
    for _ in range(3000):
        line = "".join(rng.choice(words) for _ in range(rng.randint(1, 5)))
        line = "".join(c.upper() if rng.random() < 0.3 else c for c in line)
        if SECURITY_LINE.search(line):
            hits += 1
            assert MAYBE_SECURITY_LINE.search(line.lower()), line
    assert hits > 300


def _same_partition(a: Sequence[object], b: Sequence[object]) -> bool:
    """Whether two lists of kinds group the lines alike (which lines share a kind), whatever the kinds are."""
    return [list(a).index(x) for x in a] == [list(b).index(x) for x in b]


@pytest.mark.parametrize("seed", range(6))
def test_lines_like_no_other_are_kinds_of_their_own_as_normalising_says(seed: int) -> None:
    # Lines alone once what the patterns read or write is deleted skip the regexes; the lines of a kind must be the
    # same as when every line is normalised. Lines built to be near one another: ids of hex letters, digits of
    # every length, times, an "x" that is and is not "0x", words the replacements hold ("<N>", "TS").
    rnd = random.Random(seed)
    parts = [
        *(w for w in _WORDS if w.isascii()),
        "<N>",
        "<TS>",
        "TS",
        "x",
        "0x",
        "fade",
        "Fade",
        "cafe12",
        "abc-def",
        "1.2.3.4:80",
        ".",
        "-",
    ]
    lines = [" ".join(rnd.choice(parts) if rnd.random() < 0.7 else str(rnd.randint(0, 10**rnd.randint(1, 5)))
                      for _ in range(rnd.randint(0, 5))) for _ in range(600)]  # fmt: skip
    text = "\n".join(lines)
    normalize, table, matched = _normalizer(
        tuple((n.pattern, n.replacement) for n in Dedup(type="dedup").normalize_patterns)
    )
    assert matched is not None and "\n" not in matched
    every = LineKinds(text, lines, normalize, table).kinds
    spared = LineKinds(text, lines, normalize, table, matched).kinds
    assert any(isinstance(kind, int) for kind in spared)  # some lines were spared the regexes
    assert _same_partition(every, spared)
    assert dedup(text, Dedup(type="dedup"), 0) == dedup(text, Dedup(type="dedup", normalize_patterns=[
        Normalize(pattern=n.pattern + "|(?i:zzzz)", replacement=n.replacement) for n in Dedup(type="dedup").normalize_patterns
    ]), 0)  # fmt: skip


@pytest.mark.parametrize("seed", range(6))
def test_the_generic_fallbacks_lines_like_no_other_are_the_kinds_normalising_every_line_finds(seed: int) -> None:
    # The generic fallback's kinds read paths as "#", and a path holds any word: its rests write the paths "#" before
    # deleting what other spans hold. Lines built to be near one another: paths of two parts or one, paths after a
    # number ("12/34/56"), hex words at and not at word boundaries, whitespace that a stripped kind drops.
    rnd = random.Random(seed)
    parts = [*(w for w in _WORDS if w.isascii()), "/usr/lib/x", "/home/u/y", "/a", "/a/", "12/34/56", "a/b/c", "x/",
             "GET", "/api/v1/items", "deadbeef", "xdeadbeef1", "0xff", "v2/", "/@x/+y", "\t", "\t\t", " "]  # fmt: skip

    # Words of letters no span holds make most lines unlike the others, as in a log of requests (else every line
    # would be normalised, as in a log that repeats).
    def word() -> str:
        return "".join(rnd.choices("ghijklmnopqrstuvwyz", k=3))

    lines = [rnd.choice(["", " ", "\t"]) + " ".join(rnd.choice(parts) if rnd.random() < 0.5 else word()
             if rnd.random() < 0.6 else str(rnd.randint(0, 10**rnd.randint(1, 5)))
             for _ in range(rnd.randint(0, 5))) + (f" {word()}{word()}" if rnd.random() < 0.85 else "")
             for _ in range(800)]  # fmt: skip
    lines += [lines[rnd.randrange(len(lines))] for _ in range(40)]  # groups of several lines, alone by their rest
    text = "\n".join(lines)
    every = [_NORMALIZE.sub("#", line).translate(_TABLE or {}) for line in lines]
    kinds = line_kinds(text, lines)
    assert any(kind.startswith("\x00") for kind in map(str, kinds.kinds))  # some lines were spared the regexes
    assert _same_partition(every, kinds.kinds)
    # A kind given to a line alone is never a normalised text, and only a line alone in the output is given one.
    counts = Counter(every)
    for kind, normalised in zip(kinds.kinds, every, strict=True):
        assert kind == normalised or (isinstance(kind, str) and kind.startswith("\x00") and counts[normalised] == 1)
    # And the stripped kinds, which the fallback compares, are as alike: a line like no other stays alone stripped.
    stripped = Counter(kind.strip() for kind in every)
    for kind, normalised in zip(kinds.kinds, every, strict=True):
        if isinstance(kind, str) and kind.startswith("\x00"):
            assert stripped[normalised.strip()] == 1


def test_every_line_of_a_log_unlike_the_others_is_told_so_and_nothing_folds() -> None:
    def name(i: int) -> str:  # a user name of letters no span holds, one per line
        return "".join("ghijklmnopqrstuvwyz"[i // 19**at % 19] for at in range(3))

    lines = [f"2026-11-29T10:{i // 60 % 60:02d}:{i % 60:02d}Z GET /api/v1/u{i * 7919 % 10007:x}q/items user={name(i)} "
             f"took {i}ms" for i in range(3000)]  # fmt: skip
    text = "\n".join(lines)
    kinds = line_kinds(text, lines)
    assert kinds.distinct
    assert generic_filter(text, kinds) is None
    assert fold_long_output(text) is None  # not mined by template either: no line was normalised
    # The same log with one line repeated four times: that kind folds, as when every line is normalised.
    again = "\n".join([*lines[:1000], *[lines[500]] * 4, *lines[1000:]])
    assert not line_kinds(again, again.split("\n")).distinct
    assert generic_filter(again) is not None


def test_the_generic_fallbacks_rests_delete_what_no_span_but_a_path_holds() -> None:
    # Built from the patterns: a span other than a path never holds "/", a path always starts with one.
    for source in _SPANS:
        assert "/" not in (matched_chars([(source, "#")], None) or "/")
    assert _PATHS.pattern.startswith("/")
    assert _rests("x 12 /a/b y") == _rests("x 3 /c/d/e/ y") == _rests("\tx 9 /q/r y  ")
    assert _rests("x /q y") != _rests("x /r y")  # one part is not a path: "/q" is the line's own


def test_only_patterns_matching_a_few_known_characters_spare_lines() -> None:
    assert matched_chars([(r"\d+", "#")], None) == "#0123456789"
    # A lookbehind reads characters it does not replace: they are not the pattern's.
    assert matched_chars([(r"(?<![A-Za-z])0x[0-9a-f]{2}\b", "<H>")], None) == "0123456789<>Habcdefx"
    for pattern in (r"\w+", r"a.b", r"[^a]", r"(?i)x", r"(?i:x)", r"\s", r"(a)\1", "é"):
        assert matched_chars([(pattern, "#")], None) is None, pattern
    assert matched_chars([("a", "é")], None) is None


def test_the_split_searches_find_the_lines_the_whole_patterns_find() -> None:
    from zeph_nb.output.salient import _RESTORE, restored_lines
    from zeph_nb.output.test_summary import _PASS, _SKIP, _passes, _skipped

    rnd = random.Random(45)
    parts = ["PASSED", "[PASSED]", "-PASSED", "xPASSED", "PASSED-", "PASSED]", "test x ... ok", " ... ok", " ... skipped",
             "--- PASS: ", "--- SKIP: ", "=== RUN", "=== RUNX", "PASS [", "SKIP [", "✓ ", "✔ ", "√ ", "ok 12 ", " PASS ",
             " ✓ ", "# SKIP", "SKIPPED", "xSKIPPED", "... skipped", "○ skipped ", "... ignored, ", "ok", "test", " ",
             "\t", "\x1c", "12", "1,234", "3.5", " passed", " failed", "passed", "failed", " errors", "error", "warnings", "total",
             "summary", "ran", "overall", "assertionerror", "segmentation fault", "panicked", "x", "_", "é"]  # fmt: skip
    lines = ["".join(rnd.choice(parts) for _ in range(rnd.randint(0, 6))) for _ in range(20_000)]
    for line in lines:
        assert _passes(line) == (_PASS.search(line) is not None), line
        assert _skipped(line) == (_SKIP.search(line) is not None), line
    # The put-back's search runs over the lines joined: a count's blanks must not reach into the next line.
    for some in (lines, [line for line in lines if line.isascii()]):  # beyond ASCII, and the ASCII gate
        assert restored_lines(some) == {i for i, line in enumerate(some) if _RESTORE.search(line)}


def _capped_line_by_line(lines: list[str], keys: list[object], errors: set[int], end: int, cap: int) -> list[str]:
    """dedup's capped lines as first written: a loop over every line, the kinds seen in a set."""
    counts = Counter(keys[:end])
    out: list[str] = []
    shown: set[object] = set()
    for index, (line, key) in enumerate(zip(lines, keys, strict=True)):
        first = key not in shown and len(shown) < cap
        if first or index in errors or index >= end:
            out.append(line)
            if first and counts[key] > 1 and index not in errors:
                out.append(f"  [{counts[key] - 1} more like this]")
            shown.add(key)
    return out


@pytest.mark.parametrize("seed", range(8))
def test_capped_dedup_shows_the_lines_the_line_by_line_loop_showed(seed: int) -> None:
    rnd = random.Random(seed)
    n = rnd.choice((0, 1, 2, 3, 4, 50, 400))
    keys: list[object] = [rnd.choice(("a", "b", "c", 1, 2, "d", "e")) if rnd.random() < 0.5 else f"k{rnd.randint(0, 60)}"
                          for _ in range(n)]  # fmt: skip
    lines = [f"line {i}" for i in range(n)]
    errors = {i for i in range(n) if rnd.random() < 0.1}
    end = n - 3
    for cap in (1, 2, 3, 5, 10, 100):
        counts = Counter(keys[:end])
        first = dict(zip(reversed(keys), range(n - 1, -1, -1), strict=True))
        fast = _dedup_capped(lines, keys, counts, errors, end, first, cap)  # type: ignore[arg-type]
        assert fast == _capped_line_by_line(lines, keys, errors, end, cap)


@pytest.mark.parametrize("seed", range(4))
def test_the_put_back_without_the_scan_finding_passed_puts_back_what_it_did_with_it(seed: int) -> None:
    """The scan no longer looks for "passed" (every `pytest -v` line holds it) nor "warn" (every WARN line of a
    log): the put-back finds the lines those alone make salient itself, and puts back what it did when given every
    line holding a KEYWORDS word."""
    from zeph_nb.output.salient import KEYWORDS, SCANNED, restore_salient_lines

    rnd = random.Random(seed)
    parts = ["passed", "PASSED", "xpassed", "3 passed", "1,200 passed", "3\tpassed", "3  xpassed", "ran", "ran\t",
             "Ran", "  ran", "\x0bran", "ran.", "ran 3", "\u2007ran", "xran", " \x85ran\t", "3\n passed", "\u2007passed", "٣ passed", "warn", "WARN", "warns", "warnings", "3 warnings", "Warning:", "total", "error", "t::x", "3", " ", "\t", "é", "İ", "5 failed",
             "warning", "in 0.1s", "summary", "=", "rand", "grant", "\r"]  # fmt: skip
    for many in (False, True):
        lines = ["".join(rnd.choice(parts) for _ in range(rnd.randint(0, 5))) for _ in range(3_000 if many else 300)]
        lines += ["t::x PASSED"] * (1_000 if many else 0)
        rnd.shuffle(lines)
        for text in ("\n".join(lines), "\n".join(line for line in lines if line.isascii())):
            lowered = ascii_lower(text)
            spans = keyword_spans(text, lowered, SCANNED, merge=False)
            every = keyword_spans(text, lowered, KEYWORDS, merge=False)
            for filtered in ("", "t::x PASSED", "ran\nsummary"):
                assert restore_salient_lines(text, filtered, lowered, spans) == restore_salient_lines(
                    text, filtered, lowered, every
                ), (many, filtered)


def test_the_put_back_skips_its_searches_only_in_texts_without_their_word() -> None:
    """``_not_scanned`` runs its count and "ran" searches only where ``in`` finds "passed" or "ran": each short text
    alone (a long one holds every word somewhere) puts back what it did given every KEYWORDS line."""
    from zeph_nb.output.salient import KEYWORDS, SCANNED, restore_salient_lines

    parts = ["3\tpassed", "1,200 passed", "3  xpassed", "ran\twarn", "  ran", "ran.", "\u2007ran", "RAN\twarn",
             "warn", "passed", "t::x PASSED", "3 Passed", "error", "ran"]  # fmt: skip
    for first in parts:
        for second in parts:
            for text in (first, f"{first}\n{second}", f"x\n{first}{second}"):
                lowered = ascii_lower(text)
                spans = keyword_spans(text, lowered, SCANNED, merge=False)
                every = keyword_spans(text, lowered, KEYWORDS, merge=False)
                assert restore_salient_lines(text, "", lowered, spans) == restore_salient_lines(
                    text, "", lowered, every
                ), text


@pytest.mark.parametrize("seed", range(6))
def test_the_put_back_searches_only_the_lines_the_scan_found_a_cue_in(seed: int) -> None:
    """Given the lines the scan found a NOT_SCANNED_CUES keyword in, ``_not_scanned`` searches those (and the line
    after each) for counts and lines led by "ran": the same lines as its searches of the whole text, whatever
    blank or break stands before the count's blank, before "ran" or at the text's start; beyond ASCII it searches
    the whole text as before."""
    from zeph_nb.output.salient import NOT_SCANNED_CUES, SCANNED, _not_scanned, restore_salient_lines

    rnd = random.Random(seed)
    blanks = [" ", "\t", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f", "\n"]
    parts = ["passed", "PASSED", "xpassed", "3", "1,200", ".", ",", "x", "ran", "RAN", "ran.", "rand", "grant", "warn",
             "error", "t::x", "\u2007", "٣", "é", *blanks, *blanks]  # fmt: skip
    for _ in range(60):
        made = "".join(rnd.choice(parts) for _ in range(rnd.randint(0, 40)))
        for text in (made, made.replace("é", "").replace("\u2007", "").replace("٣", "")):
            lowered = ascii_lower(text)
            spans = keyword_line_groups(text, lowered, (SCANNED, NOT_SCANNED_CUES))[0]
            assert set(_not_scanned(text, lowered, spans[1])) == set(_not_scanned(text, lowered)), repr(text)
            assert restore_salient_lines(text, "", lowered, spans[0], spans[1]) == restore_salient_lines(
                text, "", lowered, spans[0]
            ), repr(text)


@pytest.mark.parametrize("seed", range(4))
def test_dedup_gives_on_its_lines_only_as_its_text_splits(seed: int) -> None:
    """dedup hands its lines to the cap after it (``StageResult.lines``) only when they are the text's
    ``splitlines``: not when a line holds another line break, nor when the last is empty."""
    rnd = random.Random(seed)
    breaks = ["\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "\r\n", "é"]
    rule = Dedup(type="dedup", max_lines=20, head=10, tail=5)
    given = 0
    for _ in range(40):
        lines = [
            f"{rnd.randint(0, 3)} line {rnd.choice('abcdefgh')}{rnd.choice('xyz')}" for _ in range(rnd.randint(1, 80))
        ]
        if rnd.random() < 0.5:
            lines[rnd.randrange(len(lines))] += rnd.choice(breaks)
        text = "\n".join(lines) + rnd.choice(["", "\n", "\n\n", "\n \n"])
        result = dedup(text, rule, 0)
        given += result.lines is not None
        assert result.lines is None or result.lines == result.text.splitlines(), text
        capped = apply_strategy(text, rule, 0)
        whole = result.text.splitlines()
        if len(whole) > rule.max_lines:
            assert capped.text == "\n".join([*whole[:10], f"... ({len(whole) - 15} lines omitted) ...", *whole[-5:]])
    assert given  # the hand-off was made


@pytest.mark.parametrize("seed", range(6))
def test_kinds_by_every_lines_rest_are_the_kinds_by_group_first(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """``LineKinds._by_rest`` (a log whose lines are mostly unlike) gives the kinds, groups and group firsts the
    steps by group give: lines built mostly unlike (a word of letters no pattern reads), with some of one kind
    (digits, hex, times differing), some whose rests meet across kinds, and lines exactly alike."""
    from zeph_nb.output import kinds as kinds_module

    rnd = random.Random(seed)
    normalize, table, matched = _normalizer(
        tuple((n.pattern, n.replacement) for n in Dedup(type="dedup").normalize_patterns)
    )
    assert matched is not None
    lines = []
    for _ in range(rnd.randint(1, 3_000)):
        roll = rnd.random()
        if roll < 0.8:
            word = "".join(rnd.choices("ghijklmnopqrtvwy", k=8))
            lines.append(
                f"2026-11-{rnd.randint(10, 28)} 12:0{rnd.randint(0, 9)}:11 INFO {word} took {rnd.randint(1, 999)}ms"
            )
        elif roll < 0.9:
            lines.append(
                rnd.choice(
                    [
                        "retry 3 of 5",
                        "retry 12 of 5",
                        "id 0x1f",
                        "id 0xfa2",
                        "id fa2",
                        "at 10.0.0.1",
                        "at 10.0.0.12:80",
                        "gc 1.5",
                        "gc 15",
                        "<N>",
                        "",
                        "x",
                        "2026-11-22 ok",
                        "ok 4",
                    ]
                )
            )
        else:
            lines.append(rnd.choice(lines) if lines else "alone")
    text = "\n".join(lines)
    fast = kinds_module.LineKinds(text, lines, normalize, table, matched)
    monkeypatch.setattr(kinds_module, "_SHARED_AT_MOST", -1.0)  # the steps by group, always
    slow = kinds_module.LineKinds(text, lines, normalize, table, matched)
    assert (fast.kinds, fast.group, fast.firsts) == (slow.kinds, slow.group, slow.firsts)
    monkeypatch.setattr(kinds_module, "_SHARED_AT_MOST", 2.0)  # by every line's rest, always
    again = kinds_module.LineKinds(text, lines, normalize, table, matched)
    assert (again.kinds, again.group, again.firsts) == (slow.kinds, slow.group, slow.firsts)
    assert _same_partition(LineKinds(text, lines, normalize, table).kinds, fast.kinds)


@pytest.mark.parametrize("seed", range(4))
def test_dedup_of_lines_all_unlike_shows_what_counting_their_kinds_shows(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A log whose every line is a kind of its own (``LineKinds.distinct``) is shown without counting its kinds:
    the same text as the kinds counted one by one, under the cap and over it, with error lines anywhere."""
    from zeph_nb.output import kinds as kinds_module

    rnd = random.Random(seed)
    lines = []
    for number in range(rnd.randint(1, 400)):
        word = "".join(rnd.choices("ghijklmnopqrtvwy", k=8))
        level = "ERROR" if rnd.random() < 0.05 else "INFO"
        lines.append(f"2026-11-22 12:00:{number % 60:02d} {level} {word} took {rnd.randint(1, 999)}ms")
    texts = ["\n".join(lines) + rnd.choice(["", "\n"]), "\n".join(lines + lines[: rnd.randint(1, 9)])]  # and not
    caps = sorted({1, 2, 3, len(lines) - 4, len(lines) - 3, len(lines) - 1, len(lines), len(lines) + 1} - {0})
    fast = [dedup(text, Dedup(type="dedup", max_unique_patterns=cap), None) for text in texts for cap in caps]
    seen = []
    by_rest = kinds_module.LineKinds._by_rest

    def counted(self: LineKinds, *args: object) -> bool:
        taken = by_rest(self, *args)  # type: ignore[arg-type]
        seen.append(self.distinct)
        self.distinct = False
        return taken

    monkeypatch.setattr(kinds_module.LineKinds, "_by_rest", counted)
    assert fast == [dedup(text, Dedup(type="dedup", max_unique_patterns=cap), None) for text in texts for cap in caps]
    assert any(seen)  # the fast path was taken
