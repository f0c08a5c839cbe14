"""Shapes any command's output may hold, whatever the rule: unified and rustfmt diffs (output/diffs.py), Python
tracebacks (output/tracebacks.py), tables (output/tables.py), import profiles and dependency trees
(output/profiles.py)."""

from __future__ import annotations

import pydoc
import textwrap
from collections.abc import Callable

from bench.corpus import load
from bench.heldout import TUNE, TUNE_E, load_heldout
from zeph_nb.filters import FilterConfidence, FilterEngine, default_rules
from zeph_nb.output import shapes
from zeph_nb.output.diffs import DIFF_CUES, diff_lines, has_diff, without_context
from zeph_nb.output.helptext import INHERITED_CUE
from zeph_nb.output.profiles import IMPORT_CUE
from zeph_nb.output.tracebacks import NODE_CUE, PYTHON_CUE, fold_library_frames


def _filter(command: str, raw: str, exit_code: int = 0) -> tuple[list[str], str | None, FilterConfidence]:
    out = FilterEngine(default_rules()).filter(command, raw, exit_code)
    return out.text.splitlines(), out.rule, out.confidence


SHOW = textwrap.dedent("""\
    commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f
    Author: Ana Ruiz <ana@example.com>
    Date:   Mon Nov 23 10:00:00 2026 +0000

        Reject negative quantities in the cart

     cart.py | 4 +++-
     1 file changed, 3 insertions(+), 1 deletion(-)

    diff --git a/cart.py b/cart.py
    index 1111111..2222222 100644
    --- a/cart.py
    +++ b/cart.py
    @@ -10,6 +10,8 @@ class Cart:
         def add(self, sku, qty):
             if sku not in self.catalog:
                 raise KeyError(sku)
    --- old comment
    +-- new comment
    +        if qty < 0:
    +            raise ValueError(qty)

             self.items[sku] += qty
    \\ No newline at end of file
    """)


def test_a_diff_keeps_what_changed_and_everything_outside_its_hunks() -> None:
    kept, rule, _ = _filter("git show HEAD", SHOW)
    assert rule == "git-diff"
    # The commit's message and --stat lines are outside every hunk: a person reads them.
    assert "    Reject negative quantities in the cart" in kept and " cart.py | 4 +++-" in kept
    # `-- old comment` is a removed line (the hunk's counts say so), not a file header.
    hunk = kept[kept.index("@@ -10,6 +10,8 @@ class Cart:") + 1 :]
    assert hunk == ["--- old comment", "+-- new comment", "+        if qty < 0:", "+            raise ValueError(qty)"]
    assert not any(line.startswith("     def add") or "self.items" in line for line in kept)
    assert "\\ No newline at end of file" not in kept


def test_hunk_counts_decide_what_is_context_and_a_wrong_count_ends_the_hunk() -> None:
    walked = diff_lines("@@ -1,2 +1,2 @@\n a\n-b\n+c\n after the hunk\n@@ -5 +5 @@\n-x\n+y\n z")
    assert walked.roles == ["hunk", "context", "-", "+", "other", "hunk", "-", "+", "other"]
    # An empty line inside a hunk is a context line whose space was trimmed.
    assert without_context("@@ -1,3 +1,3 @@\n a\n\n-b\n+c") == ("@@ -1,3 +1,3 @@\n-b\n+c", 2)


BLACK = "\n".join([
    "--- src/billing/invoice.py\t2026-11-26 10:00:00.000000+00:00",
    "+++ src/billing/invoice.py\t2026-11-26 10:00:01.000000+00:00",
    "@@ -1,9 +1,9 @@",
    " import decimal",
    "-from typing import List,Dict",
    "+from typing import Dict, List",
    " ", " ",  # black writes a blank context line as one space
    " def total(lines):",
    "-    return sum([l['amount'] for l in lines ])",
    '+    return sum([l["amount"] for l in lines])',
    " ", " ",
    " def tax(amount):",
    "would reformat src/billing/invoice.py",
    "",
    "Oh no! 💥 💔 💥",
    "1 file would be reformatted.",
])  # fmt: skip


def test_a_diff_from_a_command_no_rule_knows_loses_only_its_context() -> None:
    kept, rule, confidence = _filter("black --check --diff src", BLACK, 1)
    assert rule == "diff" and confidence == FilterConfidence.FULL
    assert kept[:3] == BLACK.splitlines()[:3]
    assert "-from typing import List,Dict" in kept and '+    return sum([l["amount"] for l in lines])' in kept
    assert "1 file would be reformatted." in kept and "would reformat src/billing/invoice.py" in kept
    assert " import decimal" not in kept and " def tax(amount):" not in kept
    # What was asked for is shown as it is: a patch file printed with cat.
    assert " import decimal" in _filter("cat fix.patch", BLACK)[0]


def _frame(path: str, line: int, name: str, source: str) -> str:
    return f'  File "{path}", line {line}, in {name}\n    {source}\n'


SITE = "/work/project/.venv/lib/python3.11/site-packages"
STDLIB = "/usr/lib/python3.11"
TRACEBACK = (
    "loading prices\n"
    "Traceback (most recent call last):\n"
    + _frame("/work/project/report.py", 41, "<module>", "main()")
    + _frame("/work/project/report.py", 37, "main", 'frame = load("prices.csv")["price"]')
    + "                                  ~~~~~~~~~~~~~~~~~~^^^^^^^^^\n"
    + _frame(f"{SITE}/pandas/core/frame.py", 3761, "__getitem__", "indexer = self.columns.get_loc(key)")
    + _frame(f"{SITE}/pandas/core/indexes/base.py", 3655, "get_loc", "raise KeyError(key) from err")
    + "KeyError: 'price'\n"
)


def test_library_frames_of_a_traceback_become_one_line_and_the_programs_own_stay() -> None:
    kept, rule, _ = _filter("python report.py", TRACEBACK, 1)
    assert rule == "traceback"
    assert kept == [
        "loading prices",
        "Traceback (most recent call last):",
        '  File "/work/project/report.py", line 41, in <module>',
        "    main()",
        '  File "/work/project/report.py", line 37, in main',
        '    frame = load("prices.csv")["price"]',
        "                                  ~~~~~~~~~~~~~~~~~~^^^^^^^^^",
        "  [2 frames in pandas]",
        "KeyError: 'price'",
    ]


def test_a_traceback_of_library_code_only_keeps_where_it_was_raised_and_chains_fold_apart() -> None:
    crash = (
        "Traceback (most recent call last):\n"
        + _frame(f"{STDLIB}/runpy.py", 198, "_run_module_as_main", "return _run_code(code, main_globals, None,")
        + _frame(f"{SITE}/pip/__main__.py", 22, "<module>", "sys.exit(_main())")
        + _frame(f"{SITE}/pip/_internal/cli/main.py", 79, "main", "return command.main(cmd_args)")
        + "OSError: [Errno 28] No space left on device\n\n"
        "During handling of the above exception, another exception occurred:\n\n"
        "Traceback (most recent call last):\n"
        + _frame("app.py", 3, "<module>", "run()")
        + _frame(f"{STDLIB}/json/__init__.py", 346, "loads", "return _default_decoder.decode(s)")
        + "ValueError: bad\n"
    )
    folded = fold_library_frames(crash).splitlines()
    assert folded[:4] == [
        "Traceback (most recent call last):",
        "  [2 frames in the standard library, pip]",
        f'  File "{SITE}/pip/_internal/cli/main.py", line 79, in main',
        "    return command.main(cmd_args)",
    ]
    assert folded[-4:] == ['  File "app.py", line 3, in <module>', "    run()",
                           "  [1 frame in the standard library]", "ValueError: bad"]  # fmt: skip


def test_tracebacks_are_not_folded_in_listings_nor_in_what_was_asked_for() -> None:
    assert _filter("cat crash.txt", TRACEBACK)[0] == TRACEBACK.splitlines()
    grep = "\n".join(f'logs/m{n}.txt:{n}:  File "{SITE}/x.py", line 1, in f' for n in range(5))
    assert _filter("grep -rn File logs", "Traceback (most recent call last):\n" + grep)[0][1:] == grep.splitlines()
    lines = 'Traceback (most recent call last):\n  File "{SITE}/x.py", line 1, in f\n    g()\n' * 2
    assert _filter("grep -rn -A2 Traceback logs", lines)[0] == lines.splitlines()
    # No traceback, or nothing to fold: the very same text.
    plain = "all good\n"
    assert fold_library_frames(plain) is plain


_WORDS = [
    "Alder",
    "Birch",
    "Cedar",
    "Dune",
    "Elm",
    "Fjord",
    "Glen",
    "Heath",
    "Isle",
    "Juniper",
    "Kestrel",
    "Larch",
    "Moor",
]


def _sqlite_rows(count: int) -> list[str]:
    rows = ["number          name                    country  net      due_date  ",
            "--------------  ----------------------  -------  -------  ----------"]  # fmt: skip
    for n in range(count):
        name = f"{_WORDS[n % 13]} {_WORDS[n * 7 % 11]} GmbH"
        rows.append(f"INV-2026-{n * 37 % 997:05d}  {name:<22}  {'DEFRNLATPL'[n % 5 * 2:][:2]:<7}  "
                    f"{n * 123.45 % 9000:<7.2f}  2026-{1 + n % 12:02d}-{1 + n % 28:02d}")  # fmt: skip
    return rows


def test_a_long_table_is_shown_as_pandas_shows_one() -> None:
    rows = _sqlite_rows(115)
    rows[60] = rows[60].replace("GmbH", "FAILED")  # a row that reads like a failure stays
    kept, rule, confidence = _filter("sqlite3 -header -column billing.db 'SELECT * FROM overdue'", "\n".join(rows))
    assert rule == "table" and confidence == FilterConfidence.PARTIAL
    # The failing row stays between the rows it came between, each run of hidden rows noted where it was.
    assert kept == [*rows[:7], "[53 rows not shown]", rows[60], "[51 rows not shown]", *rows[-5:]]
    # Up to 60 rows, a table is shown whole, whoever printed it.
    assert _filter("sqlite3 billing.db 'SELECT 1'", "\n".join(_sqlite_rows(58)))[0] == _sqlite_rows(58)
    assert _filter("column -t customers.txt", "\n".join(_sqlite_rows(58)))[0] == _sqlite_rows(58)


def test_a_long_table_that_was_asked_for_is_cut_as_pandas_cuts_a_frame_asked_for() -> None:
    """`column -t` or `head -80` print what was asked for, as `df.head(80)` does; pandas shows 10 of those rows."""
    rows = _sqlite_rows(115)
    kept, rule, _ = _filter("column -t customers.txt | head -115", "\n".join(rows))
    assert rule == "table" and kept == [*rows[:7], "[105 rows not shown]", *rows[-5:]]
    # Asked-for lines that are no table are never cut: a source file, a log's tail.
    source = [f"    total += rates[{n}] * weights[{n}]  # step {n}" for n in range(200)]
    assert _filter("sed -n 1,200p model.py", "\n".join(source))[0] == source


def test_a_row_that_stands_out_in_its_column_stays() -> None:
    """What a person scanning `kubectl get pods` stops at: the 3 pods of 200 that are not Running, the one job that
    restarted 16 times. A column of ids or ages, where everything differs, marks nothing."""
    pods = ["NAMESPACE  NAME                 READY  STATUS            RESTARTS  AGE"]
    pods += [f"{_WORDS[n % 5]:<9}  api-{n * 7919 % 99991:05x}-{n:05d}  1/1    Running           0         {n % 40}d"
             for n in range(200)]  # fmt: skip
    pods[90] = pods[90].replace("1/1    Running         ", "0/1    CrashLoopBackOff").replace("  0  ", "  16 ")
    pods[150] = pods[150].replace("1/1    Running         ", "0/1    ImagePullBackOff")
    kept, rule, _ = _filter("column -t pods.txt", "\n".join(pods))
    assert rule == "table"
    assert kept == [*pods[:6], "[84 rows not shown]", pods[90], "[59 rows not shown]", pods[150],
                    "[45 rows not shown]", *pods[-5:]]  # fmt: skip
    # Half the rows agreeing and the rest all different (sizes beside a common one) is no outlier column.
    sizes = [f"file{n:03d}.bin  {4096 if n % 2 else n * 37:>8}  {_WORDS[n % 13]}" for n in range(120)]
    kept, _, _ = _filter("sqlite3 -column files.db 'SELECT * FROM f'", "\n".join(sizes))
    assert kept == [*sizes[:5], "[110 rows not shown]", *sizes[-5:]]


def test_a_note_counts_what_the_rows_it_stands_for_hold_where_they_differ() -> None:
    """13 pods of 260 `Pending` is no rare value, and those rows are cut with the rest: the note says they are
    there. A column of ids or ages (more than a few values) and one where the hidden rows agree say nothing."""
    pods = ["NAME                 READY  STATUS   RESTARTS  AGE"]
    pods += [f"api-{n:05d}            1/1    {'Pending' if n % 20 == 7 else 'Running'}  0         {n % 40}d"
             for n in range(260)]  # fmt: skip
    kept, rule, _ = _filter("column -t pods.txt", "\n".join(pods))
    assert rule == "table"
    assert kept == [*pods[:6], "[250 rows not shown: STATUS Running (237), Pending (13)]", *pods[-5:]]
    # sqlite's header is no row (its names end where the values do not): the name comes from above the rule.
    jobs = ["id     state     owner", "-----  --------  -----"]
    jobs += [f"{n:<5}  {'failed' if n % 25 == 3 else 'done':<8}  {'ana' if n % 2 else 'bo'}" for n in range(100)]
    kept, _, _ = _filter("sqlite3 -header -column jobs.db 'SELECT * FROM jobs'", "\n".join(jobs))
    # The failed rows stay as news, between notes; the hidden rows are all `done`, so `state` goes unsaid.
    assert kept[:9] == [*jobs[:8], "[22 rows not shown: owner bo (11), ana (11)]"] and kept[9] == jobs[30]


def test_a_json_note_counts_what_its_items_hold_where_they_differ() -> None:
    jobs = ["["]
    for n in range(40):
        state = "retrying" if n % 8 == 3 else "done"
        jobs += [
            "    {",
            f'        "id": "job-{n:03d}",',
            f'        "state": "{state}",',
            '        "queue": "q1"',
            "    },",
        ]
    jobs[-1] = "    }"
    jobs.append("]")
    kept, rule, _ = _filter("jq . jobs.json", "\n".join(jobs))
    assert rule == "json-lists"
    assert '    [30 items not shown: "state": "done" (27), "retrying" (3)]' in kept


def _routes(count: int, indent: str = "        ") -> list[str]:
    lines = []
    for n in range(count):
        lines += [f"{indent}{{", f'{indent}    "path": "/api/items/{n}",', f'{indent}    "hits": {n * 37}',
                  f"{indent}}},"]  # fmt: skip
    lines[-1] = lines[-1].rstrip(",")
    return lines


def test_a_long_list_of_objects_in_json_keeps_its_first_and_last_items() -> None:
    routes = _routes(40)
    doc = ["{", '    "service": "catalog",', '    "routes": [', *routes, "    ],", '    "total": 40', "}"]
    kept, rule, confidence = _filter("curl -s localhost:8000/api/stats | python -m json.tool", "\n".join(doc))
    assert rule == "json-lists" and confidence == FilterConfidence.PARTIAL
    assert kept == [*doc[:3], *routes[:20], "        [30 items not shown]", *routes[-20:], *doc[-3:]]
    # jq's stream of documents, one after another; an item that reads like an error stays where it was.
    stream = [line.replace("        ", "", 1).replace("},", "}") for line in _routes(30)]
    stream[15 * 4 + 2] = '    "hits": "error: upstream timed out"'
    kept, rule, _ = _filter("jq '.routes[]' stats.json", "\n".join(stream))
    assert rule == "json-lists"
    assert kept == [*stream[:20], "[10 items not shown]", *stream[60:64], "[9 items not shown]", *stream[-20:]]


def test_json_is_cut_only_when_all_of_the_output_is_json_and_a_list_is_long() -> None:
    short = ["[", *_routes(10, "    "), "]"] * 2  # two documents of 10 items: nothing to cut
    assert _filter("jq . a.json b.json", "\n".join(short))[0] == short
    broken = ["[", *_routes(40, "    "), "]", "curl: (18) transfer closed with 120 bytes remaining"]
    assert _filter("jq . a.json", "\n".join(broken))[0] == broken
    inner = [
        "    [",
        *_routes(15, "        ")[:-1],
        "        },",
        "        {",
        '            "n": 0',
        "        }",
        "    ],",
    ]
    nested = ["[", *inner * 14, "    []", "]"]
    kept = _filter("python -m json.tool nested.json", "\n".join(nested))[0]
    # The outer list of 14 keeps its first 5 and last 5, each with its own list of 16 cut; the 4 left out are
    # one note, not cut again inside.
    assert kept.count("    [4 items not shown]") == 1 and kept.count("        [6 items not shown]") == 10
    assert len(kept) == 1 + 10 * 42 + 3  # `[`, 10 lists of 42 lines, the note, `[]` and `]`


def test_a_right_aligned_frame_is_a_table_and_a_tree_or_a_log_is_not() -> None:
    frame = ["        amount  status", *(f"{n:>5}  {n * 3.25:>7.2f}  {_WORDS[n % 13]:>7}" for n in range(90))]
    kept, rule, _ = _filter("python -c 'print(df)'", "\n".join([*frame, "", "[90 rows x 2 columns]"]))
    assert rule == "table" and kept[:6] == frame[:6] and kept[-7:] == [*frame[-5:], "", "[90 rows x 2 columns]"]
    tree = ["import time: self [us] | cumulative | imported package"]
    for n in range(80):
        tree.append(f"import time: {n * 13 % 900:>9} | {n * 41 % 9000:>10} | {'  ' * (n % 4)}pkg{n}.mod")
    assert _filter("python -X importtime -c 'import app'", "\n".join(tree))[1] != "table"
    log = [f"2026-11-26 10:{n // 60:02d}:{n % 60:02d}  INFO   worker {n % 4}  handled job {n}" for n in range(200)]
    log[120] = "2026-11-26 10:02:00  ERROR  worker 1  job 120 failed: disk full"
    kept, rule, _ = _filter("python worker.py", "\n".join(log))
    assert rule == "generic" and log[120] in kept


def test_a_notebooks_traceback_folds_its_library_frames_too() -> None:
    """IPython's format (a notebook run by nbconvert or papermill): frames with numbered source, blank-separated."""
    raw = "\n".join([
        "NameError                                 Traceback (most recent call last)",
        "Cell In[3], line 4",
        "----> 4 payments['fee'] = payments.apply(fee, axis=1)",
        "",
        f"File {SITE}/pandas/core/frame.py:15427, in DataFrame.apply(self, func, axis)",
        "> 15427             return op.apply().__finalize__(self, method='apply')",
        "",
        f"File {SITE}/pandas/core/apply.py:1106, in FrameApply.apply(self)",
        "-> 1106 return self.apply_standard()",
        "",
        "Cell In[3], line 2, in fee(row)",
        "----> 2     return row['amount'] * FEE_RATES[row['method']]",
        "",
        "NameError: name 'FEE_RATES' is not defined",
    ])  # fmt: skip
    assert fold_library_frames(raw).splitlines() == [
        *raw.splitlines()[:4], "[2 frames in pandas]", "", *raw.splitlines()[-4:]
    ]  # fmt: skip


def test_an_error_line_a_diff_shape_took_for_context_goes_back() -> None:
    """A deploy script's output that only looks like a diff: its indented error line is not lost as context."""
    body = [f" step {n} ok" for n in range(48)]
    body[20] = " ERROR: migration 0042 failed"
    raw = "\n".join(["--- config", "+++ config", "@@ -1,50 +1,50 @@", *body, "-old", "+new"])
    kept, rule, _ = _filter("python deploy.py", raw)
    assert rule == "diff" and " ERROR: migration 0042 failed" in kept and " step 3 ok" not in kept


def test_a_long_diff_keeps_every_changed_line_however_alike() -> None:
    """A diff understood is not folded again where its added lines look alike: each one is a change."""
    added = [f"+    rate_{n} = Decimal('0.{n:02d}')" for n in range(80)]
    raw = "\n".join(["--- a/rates.py", "+++ b/rates.py", f"@@ -1,1 +1,{len(added) + 1} @@", " RATES = {}", *added])
    kept, rule, confidence = _filter("python make_patch.py", raw)
    assert rule == "diff" and confidence == FilterConfidence.FULL and kept[3:] == added


def test_the_persons_own_python_c_code_is_no_library_frame() -> None:
    raw = (
        "Traceback (most recent call last):\n"
        + _frame("<string>", 1, "<module>", "pd.read_csv('prices.csv')['price']")
        + _frame(f"{SITE}/pandas/core/frame.py", 3761, "__getitem__", "indexer = self.columns.get_loc(key)")
        + _frame(f"{SITE}/pandas/core/indexes/base.py", 3655, "get_loc", "raise KeyError(key) from err")
        + "KeyError: 'price'"
    )
    assert fold_library_frames(raw).splitlines()[1:4] == [
        '  File "<string>", line 1, in <module>', "    pd.read_csv('prices.csv')['price']", "  [2 frames in pandas]"
    ]  # fmt: skip


def test_rustfmts_diff_keeps_its_places_and_changed_lines_not_its_context() -> None:
    raw = "\n".join([
        "Diff in /work/project/src/lib.rs:19:",
        "     let mut tiers = Vec::new();",
        "-        let up_to = if limit == \"*\" { None } else { Some(limit) };",
        "+        let up_to = if limit == \"*\" {",
        "+            None",
        "     for part in spec.split(',') {",
        "Diff in /work/project/src/main.rs at line 1:",
        "-    let units: u64 = args().nth(1).unwrap_or(0);",
        "+    let units: u64 = args()",
        "     println!(\"{units}\");",
        "",
        "error: rustfmt exited with 1",
    ])  # fmt: skip
    out, rule, _ = _filter("cd ratecard && cargo fmt --check", raw, 1)
    assert rule == "diff"
    assert out == [line for line in raw.splitlines() if not line.startswith(" ")]


def test_an_import_profile_keeps_its_slowest_imports_and_the_programs_own_lines() -> None:
    rows = [f"import time: {n:>9} | {n:>10} | {'  ' * (n % 4)}mod{n}" for n in range(1, 101)]
    raw = "\n".join(["import time: self [us] | cumulative | imported package", *rows, "tallyhub 0.4.1"])
    out, rule, _ = _filter("python -X importtime -m tallyhub --version", raw)
    assert rule == "import-profile" and out[0] == raw.splitlines()[0] and out[-1] == "tallyhub 0.4.1"
    assert out[1].startswith("[import profile: the 20 slowest of 100 imports") and out[1].endswith("80 left out]")
    assert out[2:-1] == rows[80:]  # the slowest twenty, in the profile's order
    assert _filter("python -X importtime -c 'import json'", "\n".join(rows[:30]))[1] is None  # short: read whole


def test_a_dependency_tree_keeps_its_root_first_level_and_problems() -> None:
    lines = ["app@1.0.0 /work/project"]
    for n in range(30):
        lines += [f"├─┬ dep{n}@1.0.0", f"│ ├── sub{n}a@2.0.0", f"│ └─┬ sub{n}b@2.0.0", f"│   └── leaf{n}@3.0.0"]
    lines[50] = '│ ├── sub12a@1.0.0 invalid: "^2.0.0" from node_modules/dep12'
    lines += ["└── UNMET DEPENDENCY left-pad@^1.3.0", "", "npm error code ELSPROBLEMS"]
    out, rule, _ = _filter("npm ls --all", "\n".join(lines), 1)
    assert rule == "tree-depth"
    first_level = [line for line in lines if not line.startswith("│")]
    assert [line for line in out if line in first_level] == first_level and lines[50] in out
    assert out[2] == "[3 deeper lines not shown]" and "│   └── leaf3@3.0.0" not in out
    # The two lines between a problem and the next dependency are shown: a note would say no less.
    assert out[out.index(lines[50]) + 1 : out.index(lines[50]) + 3] == lines[51:53]
    # parse-conflict-json is a package's name, not a problem; a log is no tree.
    quiet = ["root", *(f"├─┬ d{n}\n│ ├── a\n│ ├── parse-conflict-json@5.0.1\n│ └── b" for n in range(40))]
    assert not any("parse-conflict" in line for line in _filter("npm ls --all", "\n".join(quiet))[0])
    log = "\n".join(f"2026-11-26 12:00:{n % 60:02d} INFO worker {n} heartbeat ok" for n in range(300))
    assert _filter("python app.py", log)[1] != "tree-depth"


def test_a_node_stack_folds_its_internal_and_installed_frames_and_keeps_the_programs_own() -> None:
    raw = "\n".join([
        "TypeError: Cannot read properties of undefined (reading 'id')",
        "    at getUser (/app/src/users.js:12:20)",
        "    at Layer.handle [as handle_request] (/app/node_modules/express/lib/router/layer.js:95:5)",
        "    at next (/app/node_modules/express/lib/router/route.js:149:13)",
        "    at run (/app/node_modules/@babel/core/lib/run.js:1:2)",
        "    at /app/src/server.js:10:3",
        "    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)",
        "    at async Promise.all (index 0)",
    ])  # fmt: skip
    out, rule, _ = _filter("node src/server.js", raw, 1)
    assert out == [*raw.splitlines()[:2], "    [3 frames in express, @babel/core]", *raw.splitlines()[5:]]
    assert rule == "traceback"
    # In a listing the frames are what was searched for.
    assert _filter("grep -rn 'at ' logs", raw)[0] == raw.splitlines()


def test_a_java_stack_folds_the_jdks_and_the_test_runners_frames_and_keeps_the_programs_own() -> None:
    raw = "\n".join([
        "[ERROR] testRefund(com.example.shop.RefundTest)  Time elapsed: 0.01 s  <<< ERROR!",
        "java.lang.IndexOutOfBoundsException: Index 3 out of bounds for length 3",
        "\tat java.base/jdk.internal.util.Preconditions.outOfBounds(Preconditions.java:100)",
        "\tat java.base/java.util.Objects.checkIndex(Objects.java:385)",
        "\tat java.base/java.util.ArrayList.get(ArrayList.java:427)",
        "\tat com.example.shop.Refunds.last(Refunds.java:41)",
        "\tat com.example.shop.RefundTest.testRefund(RefundTest.java:18)",
        "\tat java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)",
        "\tat org.junit.platform.commons.util.ReflectionUtils.invokeMethod(ReflectionUtils.java:728)",
        "\tat org.apache.maven.surefire.booter.ForkedBooter.main(ForkedBooter.java:495)",
        "Caused by: java.lang.IllegalStateException: empty ledger",
        "\tat com.example.shop.Ledger.open(Ledger.java:12)",
        "\t... 12 more",
    ])  # fmt: skip
    lines = raw.splitlines()
    out, rule, _ = _filter("java -cp target/classes com.example.shop.Main", raw, 1)
    assert out == [*lines[:2], "\t[3 frames in the JDK]", *lines[5:7], "\t[3 frames in the JDK, JUnit, Maven]",
                   *lines[10:]]  # fmt: skip
    assert rule == "traceback"
    # A package the filter does not know may be the person's own: com.fasterxml's frames stay.
    jackson = "\tat com.fasterxml.jackson.databind.ObjectMapper.readValue(ObjectMapper.java:3604)"
    assert _filter("java -jar app.jar", "\n".join([lines[1], jackson, jackson]), 1)[0] == [lines[1], jackson, jackson]


def test_a_rust_backtrace_folds_the_standard_librarys_and_crates_frames_and_keeps_the_programs_own() -> None:
    std = "/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library"
    raw = "\n".join([
        "thread 'main' panicked at src/main.rs:4:26:",
        "no exchange rate for currency",
        "stack backtrace:",
        "   0: __rustc::rust_begin_unwind",
        f"             at {std}/std/src/panicking.rs:689:5",
        "   1: core::panicking::panic_fmt",
        f"             at {std}/core/src/panicking.rs:80:14",
        "   2: core::option::expect_failed",
        "   3: panicky::rate",
        "             at ./src/main.rs:4:26",
        "   4: tokio::runtime::park::CachedParkThread::block_on",
        "             at /root/.cargo/registry/src/index.crates.io-6f17d22bba15001f/tokio-1.38.0/src/runtime/park.rs:281:63",
        "   5: tokio::runtime::context::runtime::enter_runtime",
        "             at /root/.cargo/registry/src/index.crates.io-6f17d22bba15001f/tokio-1.38.0/src/runtime/context.rs:65:16",
        "   6: panicky::main",
        "             at ./src/main.rs:15:53",
        "   7: core::ops::function::FnOnce::call_once",
        f"             at {std}/core/src/ops/function.rs:250:5",
        "note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.",
    ])  # fmt: skip
    lines = raw.splitlines()
    out, _, _ = _filter("cargo run -q", raw, 101)
    assert out == [*lines[:3], "   [3 frames in the standard library]", *lines[8:10], "   [2 frames in tokio]",
                   *lines[14:]]  # fmt: skip
    # `0: …` lines with no backtrace above them are no frames.
    numbered = "\n".join(["steps:", "   0: core::init", "   1: core::run", "   2: std::exit"])
    assert _filter("./steps", numbered)[0] == numbered.splitlines()


def test_nodes_failure_list_after_its_counts_is_the_runners_own_and_folds_as_a_repeat() -> None:
    failure = [
        "✖ money rounds half cents (1.12ms)",
        "  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:",
        "  + '1.00 EUR'",
        "  - '1.01 EUR'",
        "      at TestContext.<anonymous> (/work/project/test/format.test.js:11:10)",
    ]
    raw = "\n".join([
        "✔ money formats cents (1.2ms)", *failure, "ℹ tests 2", "ℹ pass 1", "ℹ fail 1", "",
        "✖ failing tests:", "", "test at test/format.test.js:10:1", *failure,
    ])  # fmt: skip
    out, _, _ = _filter("node --test --test-reporter=spec", raw, 1)
    assert out[-1] == '    [the rest as in the failure above: "✖ money rounds half cents (1.12ms)"]'
    assert out.count("  - '1.01 EUR'") == 1


class CurrencyMismatch(ValueError):
    """Two amounts in different currencies."""

    def currencies(self) -> tuple[str, str]:
        """The two currencies, as given."""
        return ("EUR", "USD")


def test_help_text_names_inherited_members_instead_of_repeating_their_bases_docs() -> None:
    """What `python -m pydoc` or `help(x)` prints: BaseException's documentation again under each exception."""
    raw = pydoc.render_doc(CurrencyMismatch, renderer=pydoc.plaintext)
    kept, rule, confidence = _filter("python -c 'import money; help(money.CurrencyMismatch)'", raw)
    assert rule == "help-inherited" and confidence == FilterConfidence.PARTIAL
    # What the class defines stays whole; each inherited section becomes its members' names, under the same bar.
    assert " |  currencies(self) -> 'tuple[str, str]'" in kept and " |      The two currencies, as given." in kept
    inherited = [line for line in kept if "inherited from" in line]
    assert " |  [Methods inherited from builtins.BaseException: " in inherited[2] and "with_traceback" in inherited[2]
    assert all(line.startswith(" |  [") and line.endswith("]") for line in inherited)
    assert len(kept) < len(raw.splitlines()) / 2
    assert not any(line.startswith(" |      Implement delattr") for line in kept)


def test_a_shape_leaves_alone_an_output_without_its_cue() -> None:
    # The engine skips a fold when one scan of the output did not find its cue; that is only right while every
    # fold leaves an output without its cue as it is. Checked on every recorded output a rule may be tuned on.
    outputs = [sample.output for sample in load()]
    outputs += [sample.output for folder in (TUNE, TUNE_E) for sample in load_heldout(folder, "dev")]
    folds: list[tuple[Callable[[str], str | None], str]] = [(fold, cue) for fold, _, cue in shapes.SHAPES if cue]
    folds += shapes.STACKS
    fired = dict.fromkeys([cue for _, cue in folds], 0)
    for fold, cue in folds:
        for text in outputs:
            folded = fold(text)
            if cue.lower() not in text.lower():
                assert folded is None or folded == text, (fold.__name__, text[:200])
            elif folded is not None and folded != text:
                fired[cue] += 1
    assert all(fired[cue] for cue in (IMPORT_CUE, INHERITED_CUE, PYTHON_CUE, NODE_CUE)), fired  # not vacuous
    for text in outputs:
        if not any(cue.lower() in text.lower() for cue in DIFF_CUES):
            assert not has_diff(text)
