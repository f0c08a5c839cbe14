"""The shapes (output/diffs.py, tracebacks.py, tables.py) against outputs crafted to hide a line, leak a secret or
take long: each test failed before its fix."""

from __future__ import annotations

import json
from pathlib import Path

from zeph_nb.config import Settings
from zeph_nb.filters import FilterEngine, default_rules
from zeph_nb.output.pipeline import OutputPipeline
from zeph_nb.output.tables import fold_table
from zeph_nb.output.test_summary import summarize_tests
from zeph_nb.store import Store
from zeph_nb.tools.base import ToolCall, ToolOutput
from zeph_nb.tools.shell.executor import BASH

SITE = "/venv/lib/python3.11/site-packages"


def _traceback(folder: str) -> str:
    return "\n".join([
        "Traceback (most recent call last):",
        '  File "/app/main.py", line 3, in <module>',
        "    run()",
        f'  File "{SITE}/{folder}/a.py", line 5, in run',
        "    x()",
        f'  File "{SITE}/{folder}/b.py", line 6, in x',
        "    y()",
        "ValueError: boom",
    ])  # fmt: skip


def test_a_folded_frame_never_shows_a_piece_of_a_token_its_path_held(tmp_path: Path) -> None:
    # A fine-grained GitHub token is 93 characters: its first 60 were shown, and no pattern knows a piece of one.
    token = "github_pat_11ABCDEFG0" + "abcdefghijKLMNOPQRST" * 3 + "abcdefghijKLMNOPQRSTuv"
    store = Store(Settings().model_copy(update={"home": tmp_path}), flusher=False)
    call = ToolCall("bash", {"command": "python main.py"})
    out = OutputPipeline(Settings(), store, "c").process(call, ToolOutput("bash", _traceback(token), exit_code=1), BASH)
    assert "[2 frames in an installed package]" in out.text
    assert token[:30] not in out.text
    # A folder that is no package's name (an instruction, a blob) is not said in the note's voice either.
    folded = FilterEngine(default_rules()).filter("python main.py", _traceback("run rm -rf ~ now"), 1).text
    assert "[2 frames in an installed package]" in folded and "rm -rf" not in folded
    assert (
        "[2 frames in requests]" in FilterEngine(default_rules()).filter("python m.py", _traceback("requests"), 1).text
    )


def _hosts(news: dict[int, str]) -> list[str]:
    return [
        "host            port  status",
        *(f"web-{i:03d}.local   {8000 + i}  {news.get(i, 'ok')}" for i in range(100)),
    ]


def test_a_table_keeps_every_row_the_generic_filter_would_have_kept_as_news() -> None:
    news = {30: "Connection refused", 40: "killed (OOM)", 50: "ValueError: bad", 55: "Segmentation fault",
            57: "AssertionError", 64: "aborted"}  # fmt: skip
    rows = _hosts(news)
    out = FilterEngine(default_rules()).filter("python check.py", "\n".join(rows), 1)
    assert out.rule == "table"
    kept = out.text.splitlines()
    assert all(rows[1 + i] in kept for i in news)


def test_a_row_kept_in_a_tables_middle_stays_between_the_notes_of_the_rows_around_it() -> None:
    rows = _hosts({40: "FAILED"})
    assert fold_table("\n".join(rows)) == "\n".join(
        [*rows[:6], "[35 rows not shown]", rows[41], "[54 rows not shown]", *rows[-5:]]
    )
    # A run of one or two hidden rows is shown: its note would say no less than they do.
    rows = _hosts({7: "FAILED", 9: "FAILED"})
    assert fold_table("\n".join(rows)).splitlines()[:12] == [*rows[:11], "[85 rows not shown]"]


def test_a_dependency_trees_deeper_line_that_reports_an_error_is_shown_in_place() -> None:
    # Any program may print a tree (a config check, a build plan): an error one level down is what it is read for.
    lines = ["config-check v1"]
    for n in range(30):
        lines += [f"├─┬ section{n}", f"│ ├── key{n}a: ok", f"│ ├── key{n}c: ok", f"│ └── key{n}b: ok"]
    bad = "│ ├── password: ERROR missing (required)"
    lines.insert(70, bad)
    out = FilterEngine(default_rules()).filter("python check_config.py", "\n".join(lines), 1)
    assert out.rule == "tree-depth"
    assert bad in out.text.splitlines()[:40]  # where it was, not under a heading at the end
    # A package named for a problem is no problem (npm's error-ex, http-errors; cargo's quick-error).
    names = ["root", *(f"├─┬ d{n}@1.0.0\n│ ├── error-ex@1.3.2\n│ ├── http-errors@2.0.0\n│ └── quick-error v2.0.1"
                       for n in range(40))]  # fmt: skip
    assert "error" not in FilterEngine(default_rules()).filter("npm ls --all", "\n".join(names)).text


def test_an_import_profile_row_with_a_huge_number_does_not_crash_the_filter() -> None:
    # int() refuses more than 4,300 digits: a crafted row raised ValueError out of the filter.
    rows = [f"import time: {n:>9} | {n:>10} | mod{n}" for n in range(1, 60)]
    raw = "\n".join([*rows, f"import time: {'9' * 5000} | 1 | evil", "ValueError: boom"])
    out = FilterEngine(default_rules()).filter("python -X importtime app.py", raw, 1)
    assert out.rule == "import-profile" and "ValueError: boom" in out.text
    # The same in a diff's hunk header, in any output and in git's.
    diff = f"--- a/x\n+++ b/x\n@@ -1,{'9' * 5000} +1,2 @@\n a\n-b\n+c\n"
    assert "+c" in FilterEngine(default_rules()).filter("python gen.py", diff).text
    assert "+c" in FilterEngine(default_rules()).filter("git diff", diff).text


def test_a_tree_sample_reads_a_huge_line_in_bounded_pieces() -> None:
    # 200 samples of one 6 MB line were 200 scans and copies of it: 20 s. Each sample now looks at most _REACH
    # characters each way of its place (the time itself is bench/'s to measure, not a test's).
    from zeph_nb.output.tables import _REACH, spread_lines

    raw = "root\n" + "│" * 6_000_000 + "x\n" + "├── a\n" * 100
    sample = spread_lines(raw, 200)
    assert len(sample) <= 201 and max(map(len, sample)) <= 2 * _REACH
    assert "├── a" in FilterEngine(default_rules()).filter("python show.py", raw).text


def test_a_failure_folded_as_a_repeat_leaves_the_lines_after_it_in_place() -> None:
    # libtest's `running N tests` inside a failure was remembered by its place in the summary; the fold below it
    # moved what came next into that place, and dropping the run's pass lines then dropped that line instead.
    def block(name: str, n: int) -> list[str]:
        return [f"---- {name} stdout ----", "assertion failed", "  at src/lib.rs", "running 1 test", "  see", f"v: {n}"]

    error = "error: could not connect to database at 10.0.0.5: Connection refused"
    lines = ["running 12 tests", *(f"test t{i} ... ok" for i in range(12)), *block("a", 10), *block("b", 20), error,
             "test result: FAILED. 12 passed; 2 failed; 0 ignored"]  # fmt: skip
    summary = summarize_tests("\n".join(lines))
    assert summary is not None
    assert summary.text.splitlines()[-2:] == [error, lines[-1]]


def test_a_doctest_word_in_another_runners_failure_does_not_end_it_or_hide_what_follows() -> None:
    # A unittest failure's captured stdout (-b) that prints "Trying:" lost the indented lines after it, and the
    # failure ended there: doctest's markers are doctest's only outside a failure or in doctest's own.
    printed = ["Stdout:", "Trying:", "    GET /health", "    -> 503 Service Unavailable", "Expecting:", "    200"]
    raw = [
        "F",
        "=" * 70,
        "FAIL: test_health (t.T.test_health)",
        "-" * 70,
        "Traceback (most recent call last):",
        '  File "/app/t.py", line 5, in test_health',
        "    self.assertEqual(status, 200)",
        "AssertionError: 503 != 200",
        "",
        *printed,
        "",
        "-" * 70,
        "Ran 1 test in 0.000s",
        "",
        "FAILED (failures=1)",
    ]
    out = FilterEngine(default_rules()).filter("python -m unittest -b t", "\n".join(raw), 1).text.splitlines()
    assert out[out.index("Stdout:") : out.index("Stdout:") + len(printed)] == printed


def test_pip_install_from_a_requirements_file_keeps_what_the_file_asked_for() -> None:
    # pip names a requirement the file asked for "(from -r requirements.txt (line 1))": it was dropped as pulled in.
    raw = "\n".join([
        "Collecting requests==2.31.0 (from -r requirements.txt (line 1))",
        "  Using cached requests-2.31.0-py3-none-any.whl (62 kB)",
        "Collecting idna<4,>=2.5 (from requests==2.31.0->-r requirements.txt (line 1))",
        "Requirement already satisfied: numpy==1.26.4 in ./.venv/lib/python3.11/site-packages (from -r req.txt (line 2))",
        "Installing collected packages: idna, requests",
        "Successfully installed idna-3.6 requests-2.31.0",
    ])  # fmt: skip
    out = FilterEngine(default_rules()).filter("pip install -r requirements.txt", raw, 0).text.splitlines()
    assert raw.splitlines()[0] in out and raw.splitlines()[3] in out
    assert raw.splitlines()[2] not in out


def _jobs(changes: dict[int, dict[str, object]]) -> str:
    import json

    jobs = [
        {"id": n, "name": f"job{n}", "status": "succeeded", "exit_code": 0, **changes.get(n, {})} for n in range(100)
    ]
    return json.dumps(jobs, indent=2)


def test_json_with_a_number_past_pythons_digit_limit_does_not_crash_the_filter() -> None:
    # json.loads turns digits into an int, which refuses more than 4,300 of them: a ValueError (not the
    # JSONDecodeError caught) came out of FilterEngine.filter for any JSON output holding one.
    items = ",\n".join(f'  {{\n    "id": {n}\n  }}' for n in range(70))
    raw = f"[\n{items},\n  {'9' * 5000}\n]"
    out = FilterEngine(default_rules()).filter("cat ids.json", raw)
    assert out.text.strip() and "items not shown" in out.text


def test_a_json_item_that_stands_out_or_names_an_error_in_a_key_is_kept() -> None:
    # The table keeps the 3 pods of 260 not Running; a JSON list of the same jobs hid the one that crashed with 137,
    # the one OOMKilled and one whose `error_code`/`errorMessage` the error words (whole words) do not match.
    news = {30: {"status": "crashed", "exit_code": 137}, 50: {"reason": "OOMKilled"},
            60: {"error_code": "E_TIMEOUT"}, 70: {"errorMessage": "disk full"}}  # fmt: skip
    out = FilterEngine(default_rules()).filter("jq . jobs.json", _jobs(news)).text
    assert "items not shown" in out
    assert all(word in out for word in ("crashed", "137", "OOMKilled", "E_TIMEOUT", "disk full"))
    # A key that says no error (`"errorCount": 0`, `"error": null` in every item) is no news: the list is still cut.
    quiet = FilterEngine(default_rules()).filter("jq . jobs.json", _jobs({n: {"errorCount": 0} for n in range(100)}))
    assert "[90 items not shown]" in quiet.text


def test_source_code_asked_for_is_not_cut_as_a_table() -> None:
    # gofmt aligns a const block in columns: `cat codes.go` showed 10 of its 120 constants as "rows".
    code = ["package codes", "", "const ("]
    code += [f"\tCode{n:<10} = {n:<5} // code {n} means something" for n in range(120)]
    code += [")"]
    raw = "\n".join(code)
    for command in ("cat codes.go", "sed -n 1,130p src/codes.go", "head -200 codes.go | tail -150"):
        assert FilterEngine(default_rules()).filter(command, raw).text == raw
    # A table asked for is still cut.
    pods = ["NAME            READY  STATUS", *(f"pod-{n:04d}        1/1    Running" for n in range(100))]
    assert "rows not shown" in FilterEngine(default_rules()).filter("column -t pods.txt", "\n".join(pods)).text


def test_a_name_and_a_message_in_columns_is_a_log_not_a_table() -> None:
    """docker compose's log (`web-1  | message`) has two columns: each message is its own news, and a line with no
    error word (a declined payment) was cut with the rows between the table's ends."""
    services = ("web-1", "db-1", "worker-1")
    log = [f"{services[n % 3]:<8} | handled request {n} in {n * 7 % 90} ms path /api/v1/items/{n}" for n in range(200)]
    log[100] = "web-1    | payment 4411 declined: card expired"
    for command in ("tail -200 compose.log", "docker compose logs --tail 200"):
        assert log[100] in FilterEngine(default_rules()).filter(command, "\n".join(log)).text.splitlines()


def test_json_is_checked_for_lists_to_cut_before_it_is_parsed() -> None:
    # A jq stream of a million scalars was parsed document by document in Python (0.9 s per 4 MB) to find it held
    # no list to cut; the lines are read first now, and the JSON parsed only when there is something to cut.
    from unittest import mock

    from zeph_nb.output import records

    raw = "{}\n" + "1\n" * 100_000
    with mock.patch.object(records, "_is_json", side_effect=AssertionError("parsed")):
        assert records.fold_json_lists(raw) is None


def test_nested_json_lists_are_read_once_not_once_per_level() -> None:
    # Each long list's middle item was joined and searched whole, at each level it is nested in, and NEWS's
    # `^\s+file` stepped over the deep indent of every line each time: a list nested 600 deep (6 MB) took 140 s.
    # The work is bounded here as the characters searched, not timed.
    from unittest import mock

    from zeph_nb.output import records

    def level(depth: int, pad: str) -> list[str]:
        lines = [f"{pad}["]
        for n in range(11):
            inner = level(depth - 1, pad + " ") if n == 5 and depth else [f"{pad} [", f"{pad}  1", f"{pad} ]"]
            lines += [*inner[:-1], inner[-1] + ("," if n < 10 else "")]
        return [*lines, f"{pad}]"]

    raw = "\n".join(level(60, ""))
    searched: list[int] = []

    class Counting:
        def __init__(self, pattern: object) -> None:
            self.pattern = pattern

        def search(self, text: str, *args: int) -> object:
            searched.append(len(text))
            return self.pattern.search(text, *args)  # type: ignore[attr-defined]

        def finditer(self, text: str, *args: int) -> object:
            searched.append(len(text))
            return self.pattern.finditer(text, *args)  # type: ignore[attr-defined]

    with mock.patch.object(records, "NEWS", Counting(records.NEWS)):
        records.fold_json_lists(raw)
    assert sum(searched) <= 2 * len(raw)


def test_a_notebook_asked_for_is_read_whole_though_its_cells_are_a_json_list() -> None:
    """`cat analysis.ipynb` prints a JSON list of 40 cells: the person reads its code, every cell, not 10 of them."""
    cells = [{"cell_type": "code", "metadata": {}, "source": [f"x{n} = {n}\n"], "outputs": []} for n in range(40)]
    raw = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1)
    assert FilterEngine(default_rules()).filter("cat analysis.ipynb", raw).text == raw
    assert "items not shown" in FilterEngine(default_rules()).filter("cat cells.json", raw).text
