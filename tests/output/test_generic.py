"""The engine's two promises: an output with something in it never reaches the model empty, and an output no rule
knows is still shortened where it repeats itself, with every error kept."""

from __future__ import annotations

from zeph_nb.filters import FilterEngine, default_rules
from zeph_nb.output.generic import MIN_LINES, generic_filter
from zeph_nb.output.strategies import FilterConfidence

ENGINE = FilterEngine(default_rules())
SITE = ".venv/lib/python3.11/site-packages"


def test_a_search_inside_a_noise_folder_keeps_its_answer() -> None:
    found = "".join(f"{SITE}/requests/{name}.py\n" for name in ("api", "models", "sessions"))
    found += f"{SITE}/requests/__pycache__/api.cpython-311.pyc\n"
    out = ENGINE.filter(f"find {SITE}/requests -name '*.py' | sort", found, 0)
    assert out.text.splitlines() == [f"{SITE}/requests/{name}.py" for name in ("api", "models", "sessions")]
    # Below the root, the folder is still noise; from the project's root, site-packages is too.
    vendored = f"src/app.py\n{SITE}/x/y.py\n"
    assert ENGINE.filter("find . -name '*.py'", vendored, 0).text == "src/app.py"


def test_grep_and_rg_inside_site_packages_keep_their_matches() -> None:
    lines = [f"{SITE}/a/b.py:{n}:    raise NotImplementedError" for n in range(1, 6)]
    text = "\n".join(lines) + "\n"
    assert ENGINE.filter(f"grep -rn 'raise NotImplementedError' {SITE}/a | head -120", text, 0).text.splitlines() == (
        lines
    )
    assert ENGINE.filter(f"rg -n 'raise NotImplementedError' ./{SITE}/a/", text, 0).text.splitlines() == lines


def test_a_rule_that_would_leave_nothing_gives_way() -> None:
    # Run from inside the folder, with no root argument: every line names a noise folder, and none may be lost.
    text = "".join(f"node_modules/pkg{i}/index.js:1:TODO\n" for i in range(5))
    out = ENGINE.filter("grep -rn TODO", text, 0)
    assert out.text.strip() and out.confidence == FilterConfidence.FALLBACK
    assert out.text.splitlines() == text.splitlines()


def test_a_long_log_no_rule_knows_keeps_its_exception() -> None:
    beats = [f"2026-11-24 10:{i // 60:02d}:{i % 60:02d},123 INFO worker {i % 7} heartbeat ok id=0x{i:08x}"
             for i in range(2000)]  # fmt: skip
    trace = ["Traceback (most recent call last):", '  File "app.py", line 12, in run', "    step()",
             "ValueError: bad row 17"]  # fmt: skip
    text = "\n".join([*beats[:1000], *trace, *beats[1000:]]) + "\n"
    out = ENGINE.filter("cd logs && python app.py", text, 1)
    assert out.rule == "generic" and out.confidence == FilterConfidence.FALLBACK
    kept = out.text.splitlines()
    assert all(line in kept for line in trace)
    assert beats[0] in kept and beats[-1] in kept
    assert any(line.startswith("[9") and "similar lines" in line for line in kept)  # ~990 beats said as one line
    assert len(out.text) < len(text) / 20


def test_errors_that_differ_only_in_where_are_all_kept() -> None:
    errors = [f"mod{i}.py:{i * 3}: error: Function is missing a type annotation  [no-untyped-def]" for i in range(80)]
    shortened = generic_filter("\n".join(errors))
    assert shortened is None  # nothing repeats: every error is its own


def test_short_outputs_pass_as_they_are() -> None:
    text = "\n".join(["same line"] * (MIN_LINES - 1))
    assert generic_filter(text) is None
    assert ENGINE.filter("my-tool", text, 0).text == text


def test_what_was_asked_for_is_not_folded() -> None:
    beats = "".join(f"2026-11-24 10:00:{i % 60:02d} INFO worker {i} heartbeat ok\n" for i in range(300))
    assert ENGINE.filter("python app.py", beats, 0).rule == "generic"
    # Bounded by the command itself: those lines were asked for.
    for command in ("python app.py | tail -300", "head -300 app.out", "sed -n 1,300p app.out"):
        assert ENGINE.filter(command, beats, 0).text == beats, command
    # Numbers alone are the answer, however alike the lines look once numbers are normalised.
    figures = "".join(f"{i},{i * 0.5}\n" for i in range(500))
    assert ENGINE.filter("python export.py", figures, 0).text == figures


def test_words_of_success_do_not_stop_a_service_log_from_folding() -> None:
    """A service logs "request completed" on every line: that is repetition, not a summary to keep each time."""
    lines = [f'{{"ts": "2026-11-25T08:00:{i % 60:02d}", "level": "info", "event": "request completed", "ms": {i}}}'
             for i in range(400)]  # fmt: skip
    error = '{"ts": "2026-11-25T08:01:00", "level": "error", "event": "reservation failed", "status": 500}'
    text = "\n".join([*lines[:200], error, *lines[200:]])
    out = generic_filter(text)
    assert out is not None and error in out.splitlines()
    assert len(out) < len(text) / 10


def test_a_kind_seen_only_a_few_times_is_kept_whole() -> None:
    """Three broken links among a thousand fetched pages are the answer, not repetition."""
    lines = [f"[{n:4d}/1000] GET https://docs.example.org/page-{n}.html -> 200 ({n % 90} KB)" for n in range(1000)]
    broken = [f"  broken link: https://docs.example.org/gone-{n}.html (linked from /guide/{n}.html)" for n in (1, 2, 3)]
    text = "\n".join([*lines[:300], broken[0], *lines[300:600], broken[1], *lines[600:], broken[2], "done"])
    out = generic_filter(text)
    assert out is not None and all(line in out.splitlines() for line in broken)


def test_a_recursing_traceback_folds_with_its_caret_lines() -> None:
    frames = ['  File "walk.py", line 8, in depth', "    return 1 + max(depth(c) for c in node)", "           ^^^^^^^^"]
    text = "\n".join(["Traceback (most recent call last):", *frames * 300, "RecursionError: maximum recursion depth"])
    out = generic_filter(text)
    assert out is not None and len(out) < len(text) / 20
    assert "RecursionError: maximum recursion depth" in out and frames[0] in out and frames[1] in out


def test_folding_never_lengthens_an_output() -> None:
    """A tree where kinds repeat once or twice each: notes for single lines would be longer than the lines."""
    names = [f"pkg{chr(97 + i % 26)}{chr(97 + i // 26)}" for i in range(120)]
    lines = [f"│ ├── {name}@1.0.0 deduped" for name in names] * 2 + ["│ └── semver@7.8.5 deduped"] * 10
    text = "\n".join(["npm@11.0.0 /usr/lib/node_modules/npm", *lines, "└── which@6.0.1"])
    out = generic_filter(text)
    assert out is None or (len(out) < len(text) and "[1 similar lines" not in out)


def test_the_first_lines_kept_beyond_each_kinds_first_are_few() -> None:
    """Past the first five lines a repeat of a kind already shown says nothing new, at the start as anywhere."""
    beats = [f"2026-11-25 10:00:{i % 60:02d} INFO worker {i % 4} processed batch {i}" for i in range(300)]
    out = generic_filter("\n".join(beats))
    assert out is not None and out.splitlines()[:5] == beats[:5] and beats[5] not in out.splitlines()


def test_the_example_of_a_folded_kind_is_never_cut_through_a_secret() -> None:
    """Redaction runs after the filters and knows a token whole: a cut through one would leave its first half."""
    token = "ghp_" + "a1B2c3D4" * 4 + "e5F6"
    lines = [f"step {i} ok" for i in range(30)]
    lines += [f"req {i:04d} sent with header value {'y' * 60} {token} ok" for i in range(80)]
    lines += [f"step {i} ok" for i in range(30)]
    out = generic_filter("\n".join(lines))
    assert out is not None
    folded = next(line for line in out.splitlines() if "similar lines" in line and "req" in line)
    assert folded.endswith(f'{"y" * 60} …"]') and "ghp_" not in folded


def test_a_run_of_one_line_of_each_kind_is_written_out_not_noted_line_by_line() -> None:
    """A table's rows: kinds seen often overall, but a run between two rare rows holds one of each. A note for
    each would be as long as the row it stands for."""
    kinds = ["paid  invoice {n}  by card", "open  invoice {n}  reminder sent", "void  invoice {n}  credit note"]
    rows = ["number  status  note", *(f"worker {n} heartbeat ok, queue depth {n * 7}" for n in range(60))]
    for n in range(20):
        rows += [f"unique row {'abcdefghijklmnopqrstuvwxyz'[n]}{'xyz'[n % 3]} stands alone"]
        rows += [kind.format(n=n) for kind in kinds]
    out = generic_filter("\n".join(rows))
    assert out is None or not any(line.startswith("[1 similar") for line in out.splitlines())


def test_kinds_whose_notes_would_read_alike_are_one_note() -> None:
    # A JSON log's lines differ past the 120 characters a note shows (`"method": "GET"` or `"POST"`): two notes
    # that read the same but for their times would say no more than one.
    head = (
        '{"ts": "2026-11-25T08:00:%02d.%03d+00:00", "level": "info", "logger": "orders", "event": "request completed"'
    )
    lines = [
        head % (n // 1000, n % 1000) + f', "method": "{("GET", "POST")[n % 3 == 0]}", "status": 200}}'
        for n in range(90)
    ]
    lines[45] = '{"ts": "2026-11-25T08:00:00.045+00:00", "level": "error", "event": "reservation failed"}'
    out = generic_filter("\n".join(lines))
    assert out is not None
    notes = [line for line in out.splitlines() if line.startswith("[")]
    assert [note.split(":", 1)[0] for note in notes] == ["[40 similar lines", "[39 similar lines"], notes
    assert lines[45] in out.splitlines()


def test_a_note_for_one_line_says_line() -> None:
    # A run holding many lines of one kind seen before and one line of another says "1 similar line".
    sent, flushed = "worker 1 sent batch", "disk 7 flushed cache"
    lines = [sent] * 3 + [flushed] * 4 + ["ERROR one"] + [sent] * 20 + [flushed] + [sent] * 20 + ["ERROR two"]
    lines += [f"step {n} of the end" for n in range(5)]
    out = generic_filter("\n".join(lines))
    assert out is not None
    assert any(line.startswith('[1 similar line: "disk 7 flushed cache"]') for line in out.splitlines()), out
    assert "[1 similar lines" not in out


def test_a_flood_of_one_warning_folds_around_the_one_error() -> None:
    # Error-like lines were kept however many: 4,000 `warning: item N is deprecated` were 40,000 characters of the
    # model's text, and the head-and-tail cut after the filter dropped the one error among them.
    flood = [f"warning: item {i} is deprecated" for i in range(1, 4001)]
    lines = [*flood[:3000], "ERROR: the ledger did not balance", *flood[3000:], "done"]
    out = generic_filter("\n".join(lines))
    assert out is not None and len(out) < 3_000
    kept = out.splitlines()
    assert "ERROR: the ledger did not balance" in kept and kept[-1] == "done"
    assert kept[:40] == flood[:40] and kept[-11:-1] == flood[-10:]
    assert sum(int(line[1:].split(" ")[0].replace(",", "")) for line in kept if "similar lines" in line) + len(
        [line for line in kept if line.startswith("warning:")]
    ) == len(flood)


def test_error_lines_that_differ_in_words_are_each_kept_however_many() -> None:
    # Only lines alike but for numbers fold: 100 different errors are 100 facts.
    errors = [f"error: module {_word(i)} has no attribute {_word(i + 7)}" for i in range(100)]
    out = generic_filter("\n".join(["start", *errors, "end"]))
    assert out is None or all(line in out.splitlines() for line in errors)


def _word(i: int) -> str:
    """``i`` in letters: a word no normalising turns into another's."""
    return "".join(chr(97 + (i // 26**k) % 26) for k in range(3))


def test_a_flood_folds_only_lines_alike_but_for_numbers() -> None:
    # The kinds' normalising of paths made an upload of the production backup one of 300 uploads of data parts.
    flood = [f"ERROR upload failed: /bucket/data/part-{i}.parquet status 503" for i in range(300)]
    odd = "ERROR upload failed: /etc/backup/prod-db.sql.gz status 413"
    out = generic_filter("\n".join(["start", *flood[:150], odd, *flood[150:], "end"]))
    assert out is not None and odd in out.splitlines() and len(out) < 6_000
