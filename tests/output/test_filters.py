"""The filter engine: sanitizing, rule loading, segment matching, each strategy, and the bar on real outputs."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.corpus import evaluate, head_tail, load
from zeph_nb.config import Settings
from zeph_nb.filters import FilterConfidence, FilterEngine, default_rules, filter_output, producing_segments
from zeph_nb.output.loading import engine_for
from zeph_nb.output.rules import MAX_FILE_BYTES, Dedup, load_rules
from zeph_nb.output.sanitize import sanitize
from zeph_nb.output.strategies import apply_strategy

# The Zeph agent's rules, from the shared/ folder beside this repository (where CI puts it).
ANCHOR = Path(__file__).resolve().parents[3] / "shared" / "anchors" / "zeph-default-filters.toml"
needs_anchor = pytest.mark.skipif(not ANCHOR.is_file(), reason=f"anchor rules not found at {ANCHOR}")


def engine(toml: str) -> FilterEngine:
    loaded = load_rules(toml)
    assert not loaded.warnings, loaded.warnings
    return FilterEngine(loaded.rules)


# -- sanitize ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("\x1b[31mred\x1b[0m text", "red text"),
        ("\x1b[1;32m✓\x1b[39;49m ok", "✓ ok"),
        ("\x1b]8;;https://x\x07link\x1b]8;;\x07", "link"),
        ("\x1b]0;title\x1b\\after", "after"),
        ("10%\r50%\r100% done\nnext", "100% done\nnext"),
        ("a\r\nb\r\n", "a\nb\n"),
        ("a\n\n\n\n\nb", "a\n\nb"),
        ("a\n  \n\t\n\nb", "a\n\nb"),
        ("a\n  \n  \n  \nb", "a\n\nb"),  # lines of two spaces: no three-newline run, still padding
        ("plain", "plain"),
    ],
)
def test_sanitize(raw: str, clean: str) -> None:
    assert sanitize(raw) == clean


# -- rule files ----------------------------------------------------------------------------------------------


@needs_anchor
def test_the_anchor_rules_load_unchanged() -> None:
    loaded = load_rules(ANCHOR.read_text(), str(ANCHOR))
    assert loaded.warnings == () and len(loaded.rules) == 25


def test_the_builtin_rules_load_without_warnings() -> None:
    names = [rule.name for rule in default_rules()]
    assert len(names) == len(set(names)) >= 30
    for tool in ["cargo-test", "pytest", "unittest", "go-test", "js-test", "git-status", "git-diff", "git-log",
                 "git-push-pull", "ls", "find", "tree", "logs", "docker-build", "docker-compose", "npm-install",
                 "pip-install", "make", "c-compiler", "ruff", "mypy", "eslint", "terraform", "kubectl", "brew",
                 "apt", "curl-wget", "grep-rg", "system", "cargo-clippy", "cargo-build"]:  # fmt: skip
        assert tool in names


def test_invalid_rules_are_skipped_and_the_rest_load() -> None:
    long = "a" * 513
    loaded = load_rules(
        f"""
        [[rules]]
        name = "good"
        match = {{ prefix = "ls" }}
        strategy = {{ type = "truncate", max_lines = 5, head = 2, tail = 2 }}

        [[rules]]
        name = "two-matchers"
        match = {{ prefix = "ls", regex = "^ls" }}
        strategy = {{ type = "dedup" }}

        [[rules]]
        name = "long-regex"
        match = {{ regex = "{long}" }}
        strategy = {{ type = "dedup" }}

        [[rules]]
        name = "bad-regex"
        match = {{ regex = "(" }}
        strategy = {{ type = "dedup" }}

        [[rules]]
        name = "unknown-strategy"
        match = {{ prefix = "x" }}
        strategy = {{ type = "summarise_with_ai" }}

        [[rules]]
        name = "head-tail-too-big"
        match = {{ prefix = "x" }}
        strategy = {{ type = "truncate", max_lines = 5, head = 4, tail = 4 }}

        [[rules]]
        name = "off"
        enabled = false
        match = {{ prefix = "x" }}
        strategy = {{ type = "dedup" }}
        """,
        "user.toml",
    )
    assert [rule.name for rule in loaded.rules] == ["good"]
    text = "\n".join(loaded.warnings)
    assert "rule 'two-matchers' skipped: match: Value error, match needs exactly one" in text
    assert "rule 'long-regex' skipped" in text and "at most 512" in text
    assert "rule 'bad-regex' skipped" in text and "invalid regex" in text
    assert "rule 'unknown-strategy' skipped" in text
    assert "head + tail must not exceed max_lines" in text
    assert all(w.startswith("user.toml: ") for w in loaded.warnings)


def test_oversized_or_malformed_files_are_refused() -> None:
    with pytest.raises(ValueError, match="over 1048576 bytes"):
        load_rules("#" * (MAX_FILE_BYTES + 1))
    with pytest.raises(ValueError, match="malformed TOML"):
        load_rules("[[rules]\nname=")
    with pytest.raises(ValueError, match="array of tables"):
        load_rules('rules = "no"')


# -- which segment ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "segment"),
    [
        ("pytest -q", "pytest -q"),
        ("cd proj && pytest -q 2>&1 | tail -50", "pytest -q"),
        ("cd proj; export X=1; cargo test --all 2>&1 | grep -v Compiling | head", "cargo test --all"),
        ("FOO=1 BAR=2 make -j4", "make -j4"),
        ("timeout 60 uv run pytest -x", "pytest -x"),
        ("env CI=1 npm test", "npm test"),
        ("/usr/bin/git status --short", "git status --short"),
        ("/work/.venv/bin/python -m pytest tests", "python -m pytest tests"),
        ("cat app.log | grep ERROR | sort | uniq -c", "cat app.log"),
        ("(cd sub && go test ./...)", "go test ./..."),
        ("echo 'unterminated", "echo 'unterminated"),
        ("git --no-pager log -p -2", "git log -p -2"),  # git's own options come before what decides the output
        ("git -C repo -c core.pager=cat diff HEAD~1", "git diff HEAD~1"),
    ],
)
def test_the_producing_segment(command: str, segment: str) -> None:
    assert producing_segments(command)[0] == segment


def test_pipes_and_redirections_are_ignored_for_matching() -> None:
    rules = engine('[[rules]]\nname = "py"\nmatch = { regex = "^pytest" }\nstrategy = { type = "dedup" }\n')
    assert rules.match("cd a && pytest -q 2>&1 | tee log | tail -5") is not None
    assert rules.match("tail -5 log") is None


# -- strategies ---------------------------------------------------------------------------------------------


def test_strip_noise_and_cap() -> None:
    rules = engine(
        '[[rules]]\nname = "n"\nmatch = { prefix = "x" }\n'
        'strategy = { type = "strip_noise", patterns = ["^noise"], max_lines = 4, head = 2, tail = 1 }\n'
    )
    small = rules.filter("x", "noise 1\nkeep 1\nnoise 2\nkeep 2")
    assert small.text == "keep 1\nkeep 2" and small.confidence is FilterConfidence.FULL
    big = rules.filter("x", "\n".join(["noise"] + [f"keep {i}" for i in range(10)]))
    assert big.text == "keep 0\nkeep 1\n... (7 lines omitted) ...\nkeep 9"
    assert big.confidence is FilterConfidence.PARTIAL  # stripped fully, then cut: the worst stage wins
    # Nothing stripped, then cut by position: PARTIAL, as a truncate rule's cut is (the card said "fallback", not
    # understood, for a find cut to its head and tail).
    nothing_stripped = rules.filter("x", "\n".join(f"keep {i}" for i in range(10)))
    assert nothing_stripped.confidence is FilterConfidence.PARTIAL
    assert rules.filter("x", "keep").confidence is FilterConfidence.FALLBACK


def test_keep_matching_and_truncate() -> None:
    keep = engine(
        '[[rules]]\nname = "k"\nmatch = { prefix = "git push" }\nstrategy = { type = "keep_matching", patterns = ["->", "^To "] }\n'
    )
    out = keep.filter("git push", "Enumerating objects: 5\nTo github.com:x/y.git\n   abc..def  main -> main\n")
    assert out.text == "To github.com:x/y.git\n   abc..def  main -> main"
    assert keep.filter("git push", "nothing relevant").confidence is FilterConfidence.FALLBACK
    cut = engine(
        '[[rules]]\nname = "t"\nmatch = { exact = "seq" }\nstrategy = { type = "truncate", max_lines = 6, head = 2, tail = 2 }\n'
    )
    assert cut.filter("seq", "\n".join(map(str, range(10)))).text == "0\n1\n... (6 lines omitted) ...\n8\n9"
    assert cut.filter("seq 2", "1\n2").rule is None  # exact means exact


def test_strip_annotated() -> None:
    rules = engine(
        '[[rules]]\nname = "c"\nmatch = { prefix = "cargo build" }\n'
        'strategy = { type = "strip_annotated", patterns = ["^\\\\s*Compiling "], summary_pattern = "^\\\\s*Finished " }\n'
    )
    raw = "   Compiling a v0.1.0\n   Compiling b v0.1.0\nwarning: unused variable\n    Finished dev in 1.2s\n"
    assert (
        rules.filter("cargo build", raw).text
        == "Finished dev in 1.2s\n(3 noise lines removed)\n\nwarning: unused variable"
    )


def test_group_by_rule_same_line_and_next_line_locations() -> None:
    rules = engine(
        '[[rules]]\nname = "lint"\nmatch = { prefix = "lint" }\n'
        'strategy = { type = "group_by_rule", location_pattern = "^(\\\\S+:\\\\d+):|^\\\\s*--> (\\\\S+)", '
        'rule_pattern = "^\\\\S+:\\\\d+: ([A-Z]\\\\d+)|^warning: (.+)$" }\n'
    )
    raw = "a.py:1: F401 unused import os\nb.py:7: F401 unused import re\na.py:3: E711 comparison to None\nwarning: needless return\n --> src/x.rs:4\n"
    out = rules.filter("lint", raw).text.splitlines()
    # The tool's first line as it wrote it; how often and where on the line under it.
    assert out[0] == "a.py:1: F401 unused import os" and out[1] == "  2x at a.py:1, b.py:7"
    # A single place the lines above already show is not said again.
    assert out[2:] == ["a.py:3: E711 comparison to None", "warning: needless return", " --> src/x.rs:4"]


def test_git_status_groups_and_drops_advice() -> None:
    raw = """On branch main
Changes to be committed:
  (use "git restore --staged <file>..." to unstage)
\tnew file:   a.py

Changes not staged for commit:
  (use "git add <file>..." to update what will be committed)
\tmodified:   b.py
\tdeleted:    c.py

Untracked files:
  (use "git add <file>..." to include in what will be committed)
\td.txt
"""
    out = filter_output("git status", raw)
    assert out.text == (
        "On branch main\nstaged (1):\n  new file: a.py\nunstaged (2):\n  modified: b.py\n  deleted: c.py\n"
        "untracked (1):\n  d.txt"
    )
    assert filter_output("git status --short", " M b.py\n?? d.txt\nA  a.py\n").text == (
        "staged (1):\n  A a.py\nunstaged (1):\n  M b.py\nuntracked (1):\n  ?? d.txt"
    )


def test_git_diff_keeps_every_header_even_past_the_limit() -> None:
    files = []
    for n in range(3):
        body = "\n".join(f"-old {i}\n+new {i}\n context" for i in range(10))
        files.append(f"diff --git a/f{n} b/f{n}\nindex 1..2 100644\n--- a/f{n}\n+++ b/f{n}\n@@ -1,30 +1,30 @@\n{body}")
    rules = engine(
        '[[rules]]\nname = "d"\nmatch = { prefix = "git diff" }\nstrategy = { type = "git_diff", max_diff_lines = 25 }\n'
    )
    out = rules.filter("git diff", "\n".join(files))
    assert out.text.count("diff --git") == 3 and out.text.count("@@ -1,30") == 3
    assert " context" not in out.text
    assert sum(1 for line in out.text.splitlines() if line[:1] in "+-" and not line.startswith(("+++", "---"))) == 25
    assert out.text.endswith("[35 changed lines over max_diff_lines not shown, in 2 files]")
    assert out.confidence is FilterConfidence.PARTIAL


def test_dedup_normalises_and_counts() -> None:
    raw = "\n".join(
        [f"2026-11-22T10:00:{i:02d}Z INFO GET /items/{i} 200 {i}ms" for i in range(50)]
        + ["2026-11-22T10:01:00Z ERROR db down", "2026-11-22T10:01:01Z ERROR db down"]
        + [f"heartbeat pid={i} up={i}s id=123e4567-e89b-12d3-a456-42661417400{i % 10}" for i in range(20)]
    )
    out = filter_output("journalctl -u app", raw).text.splitlines()
    assert (
        out
        == [
            "2026-11-22T10:00:00Z INFO GET /items/0 200 0ms",
            "  [49 more like this]",
            "2026-11-22T10:01:00Z ERROR db down",
            "2026-11-22T10:01:01Z ERROR db down",  # errors are all kept
            "heartbeat pid=0 up=0s id=123e4567-e89b-12d3-a456-426614174000",
            "  [16 more like this]",
            *raw.splitlines()[-3:],  # how the log ends: the state it was left in
        ]
    )


def test_dedup_tells_a_python_frame_by_its_line_number() -> None:
    """Two tracebacks through one function at two lines are two places to look: the second frame is not "one more
    like" the first. The very same traceback again is still counted."""

    def failed(line: int) -> list[str]:
        return ["[2026-11-29 08:51:02,118: ERROR/ForkPoolWorker-1] Task shed.tasks.remind raised unexpected error",
                "Traceback (most recent call last):", f'  File "/srv/shed/tasks.py", line {line}, in remind',
                "    send(member)", "KeyError: 'member 13'"]  # fmt: skip

    beats = [f"[2026-11-29 08:51:{i % 60:02d},000: DEBUG/MainProcess] heartbeat {i}" for i in range(40)]
    raw = "\n".join([*beats[:10], *failed(17), *beats[10:20], *failed(19), *beats[20:30], *failed(17), *beats[30:]])
    out = apply_strategy(raw, Dedup(type="dedup"), 0).text.splitlines()
    for line in (17, 19):
        assert out.count(f'  File "/srv/shed/tasks.py", line {line}, in remind') == 1, line


def test_dedup_shows_at_most_max_unique_patterns_kinds_but_every_error_and_the_end() -> None:
    raw = "\n".join(
        [
            *("GET /a 200", "GET /a 200", "POST /b 201", "ERROR db down", "PUT /c 204", "PUT /c 204", "POST /b 201"),
            *("DELETE /d 204", "ERROR db down", "x1", "x2", "x3"),
        ]
    )
    out = apply_strategy(raw, Dedup(type="dedup", max_unique_patterns=3), 0).text.splitlines()
    assert out == [
        "GET /a 200",
        "  [1 more like this]",
        "POST /b 201",
        "  [1 more like this]",
        "ERROR db down",  # a third kind: the cap is reached, PUT and DELETE are not shown
        "ERROR db down",  # errors are all kept
        "x1",
        "x2",
        "x3",  # how the log ends
    ]


@pytest.mark.parametrize(
    ("name", "kept"),
    [
        ("pytest_verbose", ["test_total_rounding", "E       AssertionError: cart total is off", "test_uses_cart"]),
        ("unittest_verbose", ["FAIL: test_parse", "AssertionError: 7 != 8 : parse is off by one", "Ran 152 tests"]),
        ("cargo_test_fail", ["---- tests::adds_wrong stdout ----", "test result: FAILED"]),
        ("go_test_verbose", ["--- FAIL: TestBroken", "Add(2, 2) = 4, want 5", "FAIL\texample.com/demo/strx"]),
        ("node_test", ["not ok 41 - string compare", "# fail 2"]),  # TAP: node's reporter without a TTY
        ("jest", ["● suite 2 › adds wrongly", "Tests:       2 failed, 72 passed, 74 total"]),
    ],
)
def test_test_summaries_keep_failures(name: str, kept: list[str]) -> None:
    sample = next(s for s in load() if s.name == name)
    out = filter_output(sample.command, sample.output, sample.exit_code)
    for fragment in kept:
        assert fragment in out.text, fragment
    assert "PASSED" not in out.text and "... ok" not in out.text and "--- PASS" not in out.text
    assert out.confidence is FilterConfidence.FULL


def test_unrecognised_output_passes_through() -> None:
    out = filter_output("my-tool --flag", "\x1b[32mhello\x1b[0m\nworld\n")
    assert out.text == "hello\nworld\n" and out.rule is None and out.confidence is FilterConfidence.FALLBACK
    assert out.stats_line() is None


def test_stats_line() -> None:
    sample = next(s for s in load() if s.name == "pytest_verbose")
    out = filter_output(sample.command, sample.output, sample.exit_code)
    line = out.stats_line()
    assert line is not None and line.startswith(f"[shell] {out.raw_lines} lines -> {out.filtered_lines} lines, ")
    assert line.endswith("% filtered")
    assert out.tokens_saved > 0


def test_security_lines_survive_any_rule() -> None:
    rules = engine(
        '[[rules]]\nname = "all"\nmatch = { prefix = "audit" }\nstrategy = { type = "truncate", max_lines = 2, head = 1, tail = 0 }\n'
    )
    raw = "header\nok\nCVE-2024-3094 in xz-utils\nok\nfetch failed: 403 Forbidden\nok\nthread 'main' panicked at src/x.rs:3\n"
    out = rules.filter("audit", raw)
    assert out.text.splitlines()[-4:] == [
        "[security-relevant lines kept]",
        "CVE-2024-3094 in xz-utils",
        "fetch failed: 403 Forbidden",
        "thread 'main' panicked at src/x.rs:3",
    ]
    assert out.security_lines_kept == 3


def test_security_lines_are_found_after_letters_that_lower_into_two() -> None:
    # "İ".lower() is two characters: offsets found in a str.lower() copy point at the wrong line of the original.
    rules = engine(
        '[[rules]]\nname = "all"\nmatch = { prefix = "ssh" }\nstrategy = { type = "truncate", max_lines = 1, head = 1, tail = 0 }\n'
    )
    raw = "İ" * 40 + " banner\nhello\nuser@host: Permission denied (publickey).\nbye\n"
    out = rules.filter("ssh host", raw)
    assert out.text.splitlines()[-1] == "user@host: Permission denied (publickey)."
    assert out.security_lines_kept == 1


def test_user_filters_next_to_the_config_override_by_name(isolated_env: Path) -> None:
    (isolated_env / "config.toml").write_text("")
    (isolated_env / "filters.toml").write_text(
        '[[rules]]\nname = "pytest"\nmatch = { regex = "^pytest" }\n'
        'strategy = { type = "keep_matching", patterns = ["passed|failed"] }\n'
    )
    settings = Settings.load()
    out = filter_output("pytest -q", "..F.\nsome detail\n1 failed, 3 passed in 0.1s\n", 1, settings)
    assert out.rule == "pytest" and out.text == "1 failed, 3 passed in 0.1s"
    off = settings.model_copy(
        update={
            "output": settings.output.model_copy(
                update={"filters": settings.output.filters.model_copy(update={"enabled": False})}
            )
        }
    )
    assert filter_output("pytest -q", "..F.\n", 1, off).rule is None


def test_filters_path_names_the_user_rules_file_in_place_of_the_one_beside_the_config(
    isolated_env: Path, tmp_path: Path
) -> None:
    rule = '[[rules]]\nname = "pytest"\nmatch = {{ regex = "^pytest" }}\n' \
           'strategy = {{ type = "keep_matching", patterns = ["{keep}"] }}\n'  # fmt: skip
    # Lines that are no verdict: a report rule's dropped errors and summaries would be put back (test_salient.py).
    (isolated_env / "filters.toml").write_text(rule.format(keep="alpha"))
    elsewhere = tmp_path / "team-rules" / "filters-for-ci.toml"
    elsewhere.parent.mkdir()
    elsewhere.write_text(rule.format(keep="beta"))
    output = "..F.\nalpha one\nbeta two\n"
    (isolated_env / "config.toml").write_text("")
    assert filter_output("pytest -q", output, 1, Settings.load()).text == "alpha one"  # beside the config
    (isolated_env / "config.toml").write_text(f'[output.filters]\nfilters_path = "{elsewhere}"\n')
    out = filter_output("pytest -q", output, 1, Settings.load())
    assert (out.rule, out.text) == ("pytest", "beta two")  # the file filters_path names, not the one beside


def test_broken_user_filters_warn_and_builtins_still_apply(isolated_env: Path) -> None:
    (isolated_env / "config.toml").write_text("")
    (isolated_env / "filters.toml").write_text(
        '[[rules]]\nname = "bad"\nmatch = { regex = "(" }\nstrategy = { type = "dedup" }\n'
    )
    with pytest.warns(UserWarning, match="rule 'bad' skipped"):
        out = filter_output("git status", "On branch main\n\tmodified:   a.py\n", 0, Settings.load())
    assert out.rule == "git-status"


# -- the bar -----------------------------------------------------------------------------------------------


def test_the_bar_on_real_outputs() -> None:
    """>= 85% fewer tokens over the corpus and every judged line kept; the judge is not trivially satisfied."""
    samples = load()
    assert len(samples) >= 30
    ours = FilterEngine(default_rules())
    mine = evaluate(samples, lambda s: ours.filter(s.command, s.output, s.exit_code).text)
    assert mine.lost == {}
    assert mine.recall == 1.0 and mine.critical >= 150
    assert mine.reduction >= 0.85
    assert evaluate(samples, head_tail).recall < 0.6


@needs_anchor
def test_better_than_the_anchor_rules_on_both_axes() -> None:
    samples = load()
    ours = FilterEngine(default_rules())
    anchor = FilterEngine(load_rules(ANCHOR.read_text()).rules)
    mine = evaluate(samples, lambda s: ours.filter(s.command, s.output, s.exit_code).text)
    theirs = evaluate(samples, lambda s: anchor.filter(s.command, s.output, s.exit_code).text)
    assert mine.reduction > theirs.reduction and mine.recall > theirs.recall


def test_apt_keeps_what_a_broken_package_needs_and_drops_the_names_it_lists() -> None:
    """apt's "unmet dependencies" lines are indented like the package names it lists, and say why it failed."""
    out = "\n".join([
        "Reading package lists...",
        "The following NEW packages will be installed:",
        "  exim4-base exim4-config postfix",
        "Some packages could not be installed. This may mean that you have",
        "The following packages have unmet dependencies:",
        " exim4-config : Conflicts: postfix but 3.7.11-0+deb12u1 is to be installed",
        " postfix : Conflicts: mail-transport-agent",
        "           Depends: libsasl2-2 but it is not going to be installed",
        "E: Unable to correct problems, you have held broken packages.",
    ])  # fmt: skip
    kept = FilterEngine(default_rules()).filter("apt-get install -y postfix exim4", out, 100).text.splitlines()
    assert " exim4-config : Conflicts: postfix but 3.7.11-0+deb12u1 is to be installed" in kept
    assert " postfix : Conflicts: mail-transport-agent" in kept
    assert "           Depends: libsasl2-2 but it is not going to be installed" in kept
    assert "  exim4-base exim4-config postfix" not in kept


def test_what_people_read_at_the_end_is_kept() -> None:
    """Final status lines, counts and per-package results survive the built-in rules."""
    builtin = FilterEngine(default_rules())
    ruff = "a.py:1:8: F401 [*] `os` imported but unused\nFound 1 error.\n[*] 1 fixable with the `--fix` option.\n"
    assert "[*] 1 fixable with the `--fix` option." in builtin.filter("ruff check .", ruff, 1).text
    clippy = "warning: unneeded `return` statement\n --> src/lib.rs:7:5\n    Finished `dev` profile [unoptimized] target(s) in 0.37s\n"
    assert "Finished `dev` profile" in builtin.filter("cargo clippy", clippy, 0).text
    apt = "Reading package lists...\nUnpacking tree (2.1.0-1) ...\nSetting up tree (2.1.0-1) ...\n"
    assert builtin.filter("apt-get install -y tree", apt, 0).text == "Setting up tree (2.1.0-1) ..."
    ls = "total 12\ndrwxr-xr-x 2 a a 4096 Nov 1 10:00 .\ndrwxr-xr-x 9 a a 4096 Nov 1 10:00 ..\n-rw-r--r-- 1 a a 4 Nov 1 10:00 x\n"
    assert builtin.filter("ls -la", ls, 0).text.splitlines() == ["total 12", "-rw-r--r-- 1 a a 4 Nov 1 10:00 x"]
    pip = (
        "Building wheels for collected packages: demo\n  Building wheel for demo (pyproject.toml): started\n"
        "  Building wheel for demo (pyproject.toml): finished with status 'done'\nSuccessfully installed demo-1.0\n"
    )
    assert builtin.filter("pip install .", pip, 0).text.splitlines() == [
        "  Building wheel for demo (pyproject.toml): finished with status 'done'",
        "Successfully installed demo-1.0",
    ]


def test_failure_listings_survive_a_tail() -> None:
    builtin = FilterEngine(default_rules())
    tail = (
        "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n\n\nfailures:\n"
        "    tests::empty_average\n    tests::negative\n\ntest result: FAILED. 2 passed; 2 failed; 0 ignored\n"
    )
    out = builtin.filter("cd ledger && cargo test 2>&1 | tail -8", tail, 101).text.splitlines()
    assert out[-4:-1] == ["failures:", "    tests::empty_average", "    tests::negative"]
    stopped = "tests/t.py F\n=== FAILURES ===\nE   assert 1 == 2\n!!!!!!!!!! stopping after 1 failures !!!!!!!!!!\n"
    assert any(
        "stopping after 1 failures" in line for line in builtin.filter("pytest -x", stopped, 1).text.splitlines()
    )


def test_the_family_settings_tune_the_built_in_rules() -> None:
    """[output.filters.test|git|clippy|dir_listing|log_dedup] (the seed's keys) map onto the rules they describe."""
    log = "".join(f"commit {i:040x}\nAuthor: Ann <a@x>\nDate:   today\n\n    change {i}\n\n" for i in range(1, 9))
    settings = Settings.from_toml("[output.filters.git]\nmax_log_entries = 2\n")
    out = filter_output("git log", log, 0, settings).text.splitlines()
    entry = ("Author: Ann <a@x>",)  # who made a commit is kept; its date is not
    assert out == [f"commit {1:040x}", *entry, "    change 1", f"commit {2:040x}", *entry, "    change 2",
                   "[3 more commits not shown (output.filters.git.max_log_entries)]",
                   *(line for i in (6, 7, 8) for line in (f"commit {i:040x}", *entry, f"    change {i}"))]  # fmt: skip
    listing = "".join(f"src/node_modules/m{i}.js\n" for i in range(3)) + "src/app.js\n"
    assert filter_output("find src", listing, 0).text == "src/app.js"
    off = Settings.from_toml("[output.filters.dir_listing]\nenabled = false\n")
    assert filter_output("find src", listing, 0, off).text == listing
    beats = "".join(f"10:00:{i % 60:02d} INFO worker {i} heartbeat ok\n" for i in range(200))
    assert filter_output("python app.py", beats, 0).rule == "generic"
    no_dedup = Settings.from_toml("[output.filters.log_dedup]\nenabled = false\n")
    assert filter_output("python app.py", beats, 0, no_dedup).text == beats
    failures = "".join(f"FAILED t.py::test_{i} - assert 0\n" for i in range(5)) + "5 failed in 0.1s\n"
    tight = Settings.from_toml("[output.filters.test]\nmax_failures = 1\ntruncate_stack_trace = 3\n")
    rule = next(r for r in engine_for(tight).rules if r.name == "pytest")
    assert (rule.strategy.max_failures, rule.strategy.truncate_stack_trace) == (1, 3)  # type: ignore[union-attr]
    assert "5 failed in 0.1s" in filter_output("pytest", failures, 1, tight).text


@pytest.mark.parametrize(
    ("command", "raw", "kept"),
    [
        ("yarn install", "[1/4] Resolving packages...\nProgress: resolved 10\nDone in 3.21s.\n", "Done in 3.21s."),
        ("terraform apply -auto-approve",
         "aws_s3_bucket.a: Creating...\naws_s3_bucket.a: Still creating... [10s elapsed]\n"
         "aws_s3_bucket.a: Creation complete after 12s [id=a]\n\nApply complete! Resources: 1 added.\n",
         "aws_s3_bucket.a: Creation complete after 12s [id=a]"),
        ("cargo install ripgrep", "  Compiling rg v14.1.0\n  Installing /root/.cargo/bin/rg\n"
         "   Installed package `ripgrep v14.1.0` (executable `rg`)\n",
         "   Installed package `ripgrep v14.1.0` (executable `rg`)"),
        ("wget https://example.org/x", "Resolving example.org... 93.184.215.14\n"
         "HTTP request sent, awaiting response... 404 Not Found\n2026-11-24 ERROR 404: Not Found.\n",
         "HTTP request sent, awaiting response... 404 Not Found"),
    ],
)  # fmt: skip
def test_per_item_results_and_statuses_are_kept(command: str, raw: str, kept: str) -> None:
    """A package's, a resource's or a request's own result is what the person reads; only the progress goes."""
    out = FilterEngine(default_rules()).filter(command, raw, 0).text.splitlines()
    assert kept in out


def test_a_long_log_keeps_its_oldest_commits_and_a_patch_loses_its_context() -> None:
    """The range's start is part of the answer; in `log -p`, as in a diff, unchanged context lines can go."""
    log = "".join(f"{i:07x} change {i}\n" for i in range(1, 41))
    out = FilterEngine(default_rules()).filter("git --no-pager log --oneline", log, 0).text.splitlines()
    assert out[:20] == [f"{i:07x} change {i}" for i in range(1, 21)] and out[-3:] == [
        f"{i:07x} change {i}" for i in (38, 39, 40)
    ]
    assert out[20] == "[17 more commits not shown (output.filters.git.max_log_entries)]"
    patch = (f"commit {1:040x}\nAuthor: Ann <a@x>\nDate:   today\n\n    fix rounding\n\n"
             "diff --git a/m.py b/m.py\nindex 1..2 100644\n--- a/m.py\n+++ b/m.py\n@@ -1,3 +1,3 @@\n"
             " def r(x):\n-    return x\n+    return round(x)\n \n")  # fmt: skip
    kept = FilterEngine(default_rules()).filter("git log -p -1", patch, 0).text.splitlines()
    assert kept == [f"commit {1:040x}", "Author: Ann <a@x>", "    fix rounding", "diff --git a/m.py b/m.py", "index 1..2 100644",
                    "--- a/m.py", "+++ b/m.py", "@@ -1,3 +1,3 @@", "-    return x", "+    return round(x)"]  # fmt: skip


# -- what C-dev (tests/data/filter_tune, the tunable corpus) showed was lost --------------------------------

SITE_PKGS = ".venv/lib/python3.11/site-packages"


def _kept(command: str, raw: str, exit_code: int = 0) -> list[str]:
    return FilterEngine(default_rules()).filter(command, raw, exit_code).text.splitlines()


def test_pytest_keeps_what_its_flags_asked_for_and_its_lines_as_written() -> None:
    raw = (
        "..........F.s.                                  [100%]\n"
        "=================== FAILURES ===================\n______ test_tax ______\n"
        "    def test_tax():\n>       assert tax(1) == 2\nE       assert 1 == 2\n\ntests/t.py:3: AssertionError\n"
        "============= slowest 3 durations =============\n0.51s call     tests/t.py::test_sync\n"
        "0.02s setup    tests/t.py::test_tax\n\n(1 durations < 0.005s hidden.  Use -vv to show these durations.)\n"
        "=========== short test summary info ===========\n"
        "SKIPPED [1] tests/t.py:9: could not import 'pytz': No module named 'pytz'\n"
        "FAILED tests/t.py::test_tax - assert 1 == 2\n"
        "============ 1 failed, 12 passed, 1 skipped in 0.61s ============\n"
    )
    out = _kept("python -m pytest -rs --durations=3", raw, 1)
    for line in ("0.51s call     tests/t.py::test_sync", "0.02s setup    tests/t.py::test_tax",
                 "SKIPPED [1] tests/t.py:9: could not import 'pytz': No module named 'pytz'",
                 "============ 1 failed, 12 passed, 1 skipped in 0.61s ============"):  # fmt: skip
        assert line in out, line


def test_pytest_drops_what_its_assertion_rewriting_adds_that_says_no_value() -> None:
    """Blank `E` lines, pytest's advice, and a nested `where` that spells out a whole object; the assertion, the
    first-level `where` and a short nested one (what was called) stay."""
    invoice = "Invoice(number='INV-1', customer='ACME', " + ", ".join(f"line{n}=Line(qty={n})" for n in range(9)) + ")"
    block = [
        "E   AssertionError: assert datetime.date(2026, 11, 30) == datetime.date(2026, 12, 1)",
        "E    +  where datetime.date(2026, 11, 30) = due()",
        f"E    +    where due = {invoice}.due",
        "E    +    where total = <pkg.Cart object at 0x7f23aed440d0>.total",
        "E     ",
        "E     Omitting 1 identical items, use -vv to show",
        "E     Drill down into differing attribute amount:",
        "E       amount: Decimal('0.12') != Decimal('0.13')",
        "E     Use -v to get more diff",
    ]
    raw = "\n".join(["=== FAILURES ===", "______ test_due ______", *block, "tests/t.py:3: AssertionError",
                     "=== 1 failed, 3 passed in 0.10s ==="])  # fmt: skip
    out = _kept("python -m pytest -q", raw, 1)
    assert [line for line in out if line.startswith("E")] == [block[0], block[1], block[3], block[7]]


def test_a_listing_below_a_searched_noise_folder_keeps_lines_that_do_not_start_with_the_path() -> None:
    """`find <site-packages/pkg> -exec wc -l {} +` puts a count before each path: still the answer."""
    counts = [f"   {n * 7} {SITE_PKGS}/requests/m{n}.py" for n in range(1, 6)]
    out = _kept(f"find {SITE_PKGS}/requests -name '*.py' -exec wc -l {{}} +", "\n".join([*counts, "  105 total"]))
    assert out == [*counts, "  105 total"]


@pytest.mark.parametrize(
    ("command", "lines", "must"),
    [
        # sorted ascending: the largest are last
        (f"du -h --max-depth=1 {SITE_PKGS} | sort -h", [f"{n}K\t{SITE_PKGS}/p{n}" for n in range(1, 61)],
         [f"{n}K\t{SITE_PKGS}/p{n}" for n in range(52, 61)]),
        # rg's closing counts
        ("rg -n --stats TODO src", [f"src/m{n}.py:{n}:# TODO {n}" for n in range(100)]
         + ["", "100 matches", "100 matched lines", "31 files contained matches", "40 files searched",
            "4000 bytes printed", "90000 bytes searched", "0.01 seconds spent searching", "0.01 seconds"],
         ["src/m99.py:99:# TODO 99", "100 matches", "100 matched lines", "31 files contained matches"]),
        ("find . -name '*.py'", [f"./pkg/m{n:03d}.py" for n in range(200)], [f"./pkg/m{n:03d}.py" for n in range(188, 200)]),
    ],
)  # fmt: skip
def test_both_ends_of_a_long_listing_are_kept(command: str, lines: list[str], must: list[str]) -> None:
    out = _kept(command, "\n".join(lines))
    assert len(out) < len(lines) and all(line in out for line in must)


def test_ruff_format_check_names_the_files_and_counts_them() -> None:
    raw = (
        "unformatted: File would be reformatted\n   --> pkg/loaders.py:253:60\n    |\n"
        '252 |             raise TypeError(\n    -                 "a"\n    -                 " b"\n'
        '253 +                 "a b"\n254 |             ) from e\n\n'
        "unformatted: File would be reformatted\n   --> pkg/ast.py:7:1\n    |\n7   | x = 'a'\n    -\n\n"
        "2 files would be reformatted, 1 file already formatted\n"
    )
    assert _kept("ruff format --check pkg", raw, 1) == [
        "unformatted: File would be reformatted", "   --> pkg/loaders.py:253:60",
        "unformatted: File would be reformatted", "   --> pkg/ast.py:7:1",
        "2 files would be reformatted, 1 file already formatted",
    ]  # fmt: skip


def test_a_failed_build_step_of_pip_is_kept() -> None:
    raw = (
        "Processing ./.\n  Preparing metadata (pyproject.toml): started\n  error: invalid command 'bdist_wheel'\n"
        "  Preparing metadata (pyproject.toml): finished with status 'error'\nerror: metadata-generation-failed\n"
    )
    out = _kept("pip wheel --no-deps .", raw, 1)
    assert "  Preparing metadata (pyproject.toml): finished with status 'error'" in out
    assert "  Preparing metadata (pyproject.toml): started" not in out


def test_make_check_drops_the_passes_of_a_tap_runner() -> None:
    raw = "./build/test_runner\nTAP version 13\n1..150\n" + "".join(
        f"ok {i} - clamp({i}) == {i}\n" if i != 64 else f"not ok {i} - clamp(88) == 89\n#   got 88\n" for i in range(1, 151)
    ) + "# 1 of 150 tests failed\nmake: *** [Makefile:14: check] Error 1\n"  # fmt: skip
    out = _kept("make check", raw, 2)
    assert (
        "not ok 64 - clamp(88) == 89" in out and "#   got 88" in out and "make: *** [Makefile:14: check] Error 1" in out
    )
    assert not any(line.startswith("ok ") for line in out)


def test_a_lint_group_keeps_its_first_finding_as_the_tool_wrote_it() -> None:
    raw = "".join(
        f"warning: this function could have a `#[must_use]` attribute\n --> src/lib.rs:{n}:20\n  |\n{n} | pub fn f{n}() {{}}\n\n"
        for n in (4, 9, 15)
    ) + "warning: `ledgerkit` (lib) generated 3 warnings\n"  # fmt: skip
    out = _kept("cargo clippy -- -W clippy::pedantic", raw)
    assert out[:3] == ["warning: this function could have a `#[must_use]` attribute", " --> src/lib.rs:4:20",
                       "  3x at src/lib.rs:4:20, src/lib.rs:9:20, src/lib.rs:15:20"]  # fmt: skip


def test_a_package_listing_is_capped_like_other_listings() -> None:
    listing = ["Package    Version", "---------- -------", *(f"pkg{n:03d}     1.{n}.0" for n in range(150))]
    out = _kept("pip list", "\n".join(listing))
    assert out[:3] == listing[:3] and out[-12:] == listing[-12:] and len(out) == 73


def test_the_judged_corpora_load_and_the_tunable_one_is_split() -> None:
    """A to H load with a judgement for every sample; C and E are split once into dev and test (about a third)."""
    from bench.heldout import HELDOUT, HELDOUT_B, HELDOUT_D, HELDOUT_F, HELDOUT_G, HELDOUT_H, TUNE, TUNE_E, load_heldout

    corpora = (
        (HELDOUT, 40),
        (HELDOUT_B, 50),
        (TUNE, 50),
        (HELDOUT_D, 70),
        (TUNE_E, 80),
        (HELDOUT_F, 60),
        (HELDOUT_G, 60),
        (HELDOUT_H, 55),
    )
    for folder, least in corpora:
        samples = load_heldout(folder)
        assert len(samples) >= least and all(s.must_keep and s.output.strip() for s in samples), folder
        assert all(set(s.must_keep) <= set(s.output.splitlines()) for s in samples), folder
    for tunable in (TUNE, TUNE_E):
        dev, test = load_heldout(tunable, "dev"), load_heldout(tunable, "test")
        assert len(dev) + len(test) == len(load_heldout(tunable)) and 0.25 < len(test) / (len(dev) + len(test)) < 0.4


def test_a_test_run_keeps_its_counts_what_r_a_asked_for_and_what_a_later_command_printed() -> None:
    raw = "\n".join([
        "============================= test session starts ==============================",
        "collecting ... collected 3 items",
        "",
        "tests/test_tax.py::test_vat PASSED                                        [ 33%]",
        "tests/test_tax.py::test_gross PASSED                                      [ 66%]",
        "tests/test_tax.py::test_net FAILED                                        [100%]",
        "=================================== FAILURES ===================================",
        "___________________________________ test_net ___________________________________",
        "E   assert 1 == 2",
        "tests/test_tax.py:9: AssertionError",
        "==================================== PASSES ====================================",
        "=========================== short test summary info ============================",
        "PASSED tests/test_tax.py::test_vat",
        "PASSED tests/test_tax.py::test_gross",
        "FAILED tests/test_tax.py::test_net - assert 1 == 2",
        "========================= 1 failed, 2 passed in 0.05s ==========================",
        "exit=1",
    ])  # fmt: skip
    out = _kept("python -m pytest -v -rA tests/test_tax.py; echo exit=$?", raw, 0)
    assert "collecting ... collected 3 items" in out
    assert "PASSED tests/test_tax.py::test_vat" in out and "PASSED tests/test_tax.py::test_gross" in out
    assert out[-2:] == ["========================= 1 failed, 2 passed in 0.05s ==========================", "exit=1"]
    # Passing tests outside what -r asked for are still dropped.
    assert not any(line.startswith("tests/test_tax.py::test_vat PASSED") for line in out)


def test_a_small_test_run_keeps_which_tests_passed_and_a_large_one_does_not() -> None:
    """`cargo test tiers` selected four tests: their names are the answer. Forty passing names are not."""
    small = "\n".join([
        "running 4 tests",
        *(f"test tests::tiers_{n} ... ok" for n in range(4)),
        "",
        "test result: ok. 4 passed; 0 failed; 0 ignored; 0 measured; 5 filtered out; finished in 0.00s",
    ])  # fmt: skip
    out = _kept("cd ratecard && cargo test --lib tiers", small)
    assert out[:5] == small.splitlines()[:5] and out[-1].startswith("test result: ok. 4 passed")
    large = "\n".join([
        "running 40 tests",
        *(f"test tests::case_{n} ... ok" for n in range(39)),
        "test tests::case_39 ... FAILED",
        "",
        "test result: FAILED. 39 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s",
    ])  # fmt: skip
    out = _kept("cargo test", large, 101)
    assert not any(line.endswith("... ok") or line.startswith("running ") for line in out)


def test_a_skipped_test_keeps_its_reason_up_to_ten_of_them() -> None:
    raw = "\n".join([
        "test_a (t.Checks.test_a) ... ok",
        "test_b (t.Checks.test_b) ... skipped 'multi-currency totals land in 0.5'",
        *(f"test_c{n} (t.Checks.test_c{n}) ... skipped 'slow'" for n in range(12)),
        "",
        "Ran 14 tests in 0.001s",
        "",
        "OK (skipped=13)",
    ])  # fmt: skip
    out = _kept("python -m unittest -v t", raw)
    assert "test_b (t.Checks.test_b) ... skipped 'multi-currency totals land in 0.5'" in out
    assert sum("skipped 'slow'" in line for line in out) == 9 and out[-1] == "OK (skipped=13)"
    spec = (
        "✔ formats cents (1.2ms)\n﹣ money with locale separators (0.13ms) # SKIP\nℹ tests 2\nℹ pass 1\nℹ skipped 1\n"
    )
    assert "﹣ money with locale separators (0.13ms) # SKIP" in _kept("node --test --test-reporter=spec", spec)


def test_doctest_keeps_the_failed_example_and_the_totals_not_the_examples_that_passed() -> None:
    raw = "\n".join([
        "Trying:", '    slug("Hello World")', "Expecting:", "    'hello-world'", "ok",
        "Trying:", '    parse("x")', "Expecting:", "    Traceback (most recent call last):",
        "    ValueError: not a number", "ok",
        "Trying:", '    initials("grace hopper")', "Expecting:", "    'GH'",
        "*" * 70,
        'File "/work/project/textutil.py", line 11, in textutil.initials',
        "Failed example:", '    initials("grace hopper")', "Expected:", "    'GH'", "Got:", "    'G'",
        "Trying:", "    pad(5)", "Expecting nothing", "ok",
        "2 items passed all tests:", "   1 tests in textutil.slug", "   1 tests in textutil.parse",
        "*" * 70,
        "1 items had failures:", "   1 of   2 in textutil.initials",
        "4 tests in 4 items.", "3 passed and 1 failed.", "***Test Failed*** 1 failures.",
    ])  # fmt: skip
    out = _kept("python -m doctest -v textutil.py", raw, 1)
    # The example that expects a ValueError passed; the put-back still returns an error line of it, under its heading.
    assert out[12] == "[lines the filter dropped that look like errors, warnings or summaries]"
    assert set(out[13:]) <= {"    Traceback (most recent call last):", "    ValueError: not a number"}
    assert out[:12] == [
        'File "/work/project/textutil.py", line 11, in textutil.initials',
        "Failed example:", '    initials("grace hopper")', "Expected:", "    'GH'", "Got:", "    'G'",
        "1 items had failures:", "   1 of   2 in textutil.initials",
        "4 tests in 4 items.", "3 passed and 1 failed.", "***Test Failed*** 1 failures.",
    ]  # fmt: skip


def test_an_install_keeps_what_was_asked_for_not_what_it_pulled_in() -> None:
    pip = "\n".join([
        "Collecting flake8",
        "  Downloading flake8-7.1.1-py2.py3-none-any.whl (57 kB)",
        "Collecting mccabe<0.8.0,>=0.7.0 (from flake8)",
        "Requirement already satisfied: tqdm in ./venv/lib/python3.11/site-packages (4.67.1)",
        "Requirement already satisfied: colorama in ./venv/lib/python3.11/site-packages (from tqdm) (0.4.6)",
        "Installing collected packages: mccabe, flake8",
        "Successfully installed flake8-7.1.1 mccabe-0.7.0",
    ])  # fmt: skip
    out = _kept("pip install flake8 tqdm", pip)
    assert out[:2] == ["Collecting flake8", pip.splitlines()[3]] and "Successfully installed" in out[2]
    assert not any("(from " in line for line in out)
    cargo = "\n".join([
        "   Compiling serde v1.0.210",
        "   Compiling ledgerkit v0.3.0 (/work/project/rs/ledgerkit)",
        "    Finished `release` profile [optimized] target(s) in 3.02s",
    ])  # fmt: skip
    # A workspace compiles a dozen crates of its own: the Compiling lines are not what a person reads.
    assert _kept("cargo build --release", cargo)[0] == cargo.splitlines()[2].strip()


def test_a_failure_like_one_shown_above_keeps_only_its_values() -> None:
    """Parametrized cases failing as their neighbour did: the trace once, then each case's differing lines."""

    def block(net: str) -> list[str]:
        return [
            f"____ test_vat[DK-{net}] ____",
            "",
            f"country = 'DK', net = '{net}'",
            "",
            "    def test_vat(country, net):",
            ">       assert vat(net, country) == 1",
            "",
            "tallyhub/tax.py:29: in vat",
            "    raise UnknownCountry(country)",
            "E   tallyhub.tax.UnknownCountry: 'DK'",
        ]

    raw = "\n".join([
        "=================== FAILURES ===================",
        *block("1420.27"), *block("3778.04"), *block("145.81"),
        "=================== short test summary info ===================",
        "=========== 3 failed, 362 passed in 0.30s ===========",
    ])  # fmt: skip
    out = _kept("python -m pytest -q", raw, 1)
    first = [line for line in block("1420.27") if line]
    assert [line for line in out[: out.index("____ test_vat[DK-3778.04] ____")] if line][1:] == first
    note = '    [the rest as in the failure above: "test_vat[DK-1420.27]"]'
    assert out[out.index("____ test_vat[DK-3778.04] ____") + 1 :][:2] == ["country = 'DK', net = '3778.04'", note]
    assert out.count(note) == 2 and out.count("E   tallyhub.tax.UnknownCountry: 'DK'") == 1


def test_a_failure_that_differs_in_words_too_keeps_every_line_that_differs() -> None:
    """Another country and another value: the lines that differ stay, the ones alike are named by the failure above.
    A failure mostly unlike any before it is shown whole."""

    def block(country: str, got: str, error: str = "AssertionError") -> list[str]:
        return [f"____ test_vat[{country}] ____", f"country = '{country}'", "    def test_vat(country):",
                ">       assert vat(country) == Money.of(1)", f"E       amount: Decimal('{got}') != Decimal('1')",
                f"tests/test_tax.py:9: {error}"]  # fmt: skip

    raw = "\n".join(["=== FAILURES ===", *block("IT", "0.99"), *block("PL", "0.98"), *block("DK", "0", "KeyError"),
                     "=== 3 failed in 0.30s ==="])  # fmt: skip
    out = _kept("python -m pytest -q", raw, 1)
    pl = out.index("____ test_vat[PL] ____")
    assert out[pl + 1 : pl + 4] == ["country = 'PL'", "E       amount: Decimal('0.98') != Decimal('1')",
                                    '    [the rest as in the failure above: "test_vat[IT]"]']  # fmt: skip
    # The KeyError one has two lines of five like the others': shown whole.
    dk = out.index("____ test_vat[DK] ____")
    assert out[dk + 1 : dk + 6] == block("DK", "0", "KeyError")[1:]


def test_a_corpus_recorder_builds_records_judges_and_cleans_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """What every corpus is recorded with (bench/record.py): its sources copied into a temp folder and a setup step
    run there, a real loopback server started and stopped after, real bash, a sample left out replaced by its
    stand-in, the judgement applied to what was recorded, and no temp folder left behind."""
    import json
    import socket
    import tempfile

    from bench.record import main

    corpus = tmp_path / "corpus"
    (corpus / "sources" / "p").mkdir(parents=True)
    (corpus / "sources" / "p" / "ok.txt").write_text("served ok\n")
    (corpus / "RECIPES.toml").write_text(f"""
[recording]
shown_as = [["root", "/work/project"]]
[recording.env]
GREETING = "hello from"

[[step]]
folder = "p"
run = "echo made > made.txt"
[[step]]
folder = "p"
start = "{{python}} -m http.server {{port}} --bind 127.0.0.1"
[[step]]
run = "sleep 1"

[sample.greet]
folder = "p"
command = 'echo "$GREETING $PWD: $(cat made.txt)"'
[sample.left_out]
command = "echo never"
stand_in = "touch {tmp_path}/stood-in"
[sample.served]
folder = "p"
command = "curl -s http://127.0.0.1:{{port}}/ok.txt"
""")  # fmt: skip
    (corpus / "JUDGED.json").write_text(json.dumps({
        "greet": {"why": "the greeting", "must_keep": ["hello from /work/project/p: made"]},
        "served": {"why": "the file came back", "must_keep": ["served ok"]},
    }))  # fmt: skip
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))

    assert main([str(corpus), "greet", "served"]) == 0
    greet = json.loads((corpus / "greet.json").read_text())
    assert greet["must_keep"] == ["hello from /work/project/p: made"] and greet["exit_code"] == 0
    served = json.loads((corpus / "served.json").read_text())
    assert served["output"] == "served ok\n" and not (corpus / "left_out.json").exists()
    assert (tmp_path / "stood-in").exists() and not list((tmp_path / "tmp").iterdir())
    port = int(served["command"].split(":")[2].split("/")[0])
    with socket.socket() as probe, pytest.raises(ConnectionRefusedError):
        probe.connect(("127.0.0.1", port))
    assert "GONE" not in capsys.readouterr().out
    assert main([str(corpus), "--check"]) == 1  # left_out has a recipe but no sample


def test_mypy_over_200_lines_shows_a_message_said_at_many_places_at_its_first_three() -> None:
    """400 "missing a type annotation" are one finding at many places; every different message stays whole."""
    lines = []
    for i in range(400):
        lines.append(f"pkg/mod{i % 40}.py:{i + 3}: error: Function is missing a type annotation  [no-untyped-def]")
        if i % 10 == 4:
            lines.append(f'pkg/mod{i % 40}.py:{i + 4}: error: Name "helper_{i}" is not defined  [name-defined]')
    lines.append("Found 440 errors in 40 files (checked 52 source files)")
    text = "\n".join(lines)
    out = FilterEngine(default_rules()).filter("mypy --strict pkg", text, 1)
    kept = out.text.splitlines()
    assert [line for line in kept if "is not defined" in line] == [line for line in lines if "is not defined" in line]
    missing = [line for line in lines if "missing a type annotation" in line]
    assert [line for line in kept if "missing a type annotation" in line] == missing[:3]
    note = kept[kept.index(missing[2]) + 1]
    assert note.startswith("[+397 more of the same, at pkg/mod3.py:6, pkg/mod4.py:7, ")
    assert kept[-1] == lines[-1]
    # 200 lines or fewer: every error is a place to fix, each shown (bench corpus: 64 errors of 4 messages).
    few = "\n".join(missing[:150])
    assert FilterEngine(default_rules()).filter("mypy pkg", few, 1).text.count("missing a type annotation") == 150


def test_the_logs_rule_keeps_an_event_in_the_middle_of_a_debug_log_of_many_kinds() -> None:
    """A debug log's kinds are many (each extension loaded, each kernel): deduplicated, 281 first lines of kinds
    are left, and the cut after dedup kept the first 150 and the last 40, taking the event between (corpus I)."""
    names = [a + b for a in "bcdfghjklmnpqrstvwxz" for b in ("ax", "el", "io", "um", "yr", "on", "ek")]  # 140 words
    loaded = [
        f"[D 2026-11-29 03:52:05.{i:03d} ServerApp] Extension package {name} loaded" for i, name in enumerate(names)
    ]
    kernels = [f"[D 2026-11-29 03:52:07.{i:03d} ServerApp] Kernel {name} restarted" for i, name in enumerate(names)]
    event = "[I 2026-11-29 03:52:06.281 ServerApp] Kernel started: 1ed4d10c-4406-46a1-9137-2543d66a0988"
    lines = [*loaded, *kernels[:60], event, *kernels[60:]]
    text = "\n".join(lines + lines)  # the whole again: dedup counts the second time
    out = FilterEngine(default_rules()).filter("cat jupyter.log", text, 0)
    assert out.rule == "logs"
    assert event in out.text.splitlines()
