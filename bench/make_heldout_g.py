# ruff: noqa: E501 - the commands recorded here are written out whole
"""Record the seventh HELD-APART filter corpus (G): real output of real tools, apart from every other corpus.

    python -m bench.make_heldout_g            # (re)records tests/data/filter_heldout_g/*.json, keeps the judgement
    python -m bench.make_heldout_g NAME...    # re-records only those samples
    python -m bench.make_heldout_g --apply    # copies JUDGED.json (must_keep, why) into the samples
    python -m bench.make_heldout_g --check    # checks that every judged must_keep line occurs in its output

Never tune an output filter on this corpus, nor read its losses while changing one: it exists to measure the filters
on outputs nobody tuned them on. It was recorded and judged by someone who had read neither the filters nor any
result, and who ran no filter. Each sample stores the command, its exit code, its combined stdout+stderr, and a
judgement made by reading the output: ``why`` and ``must_keep`` (lines verbatim from ``output.splitlines()``). The
judgement lives in ``JUDGED.json`` so that re-recording keeps it; judged lines a re-recording no longer prints
(pids, timings, hashes, dates) are dropped from the sample and reported, and must be judged again by reading.

Commands, flags and projects were chosen not to be in any other corpus (by their ``command`` fields).
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from bench import heldout_g_programs as P
from bench.recording import Corpus, write

CORPUS = Corpus.start(__file__, "filter_heldout_g", ("Maren Holloway", "maren@example.org"))
OUT, VENV, SCRATCH, ENV = CORPUS.out, CORPUS.venv, CORPUS.scratch, CORPUS.env
SITE = ".venv/lib/python3.11/site-packages"
NPM_VENDOR = "/usr/lib/node_modules/npm/node_modules"
PORT = 18931  # the local `python -m http.server` that lsof lists (loopback only)
record, run = CORPUS.record, CORPUS.run


def loose(root: Path, *cmd: str) -> None:
    """A setup step that may fail (a test run that primes pytest's cache, a job whose log is read later)."""
    subprocess.run(cmd, cwd=root, env=ENV, check=False, capture_output=True)


# ------------------------------------------------------------------------------------------------------ builders
def shelfwise(root: Path) -> None:
    """The library package: tests, legacy unittest suite, scripts, a notebook, CSV exports, a sqlite db, logs."""
    write(root, P.SW)
    data = root / "data"
    data.mkdir()
    (data / "members.csv").write_text(P.members_csv())
    (data / "loans.csv").write_text(P.loans_csv())
    (data / "returns_batch.csv").write_text(P.returns_batch_csv())
    (data / "old.marc").write_text("020 0306406152\n100 Meyer, Ann\n245 Tide tables of the north coast\n\n")
    (root / "circulation.ipynb").write_text(P.circulation_notebook())
    logs = root / "logs"
    logs.mkdir()
    for day in range(18, 25):
        (logs / f"sync-2026-11-{day}.log").write_text(f"2026-11-{day} 01:00:00,000 INFO  sync start\n" * 40)
    loose(root, sys.executable, "-m", "shelfwise.sync", "--batches", "75")
    loose(root, sys.executable, "-m", "pytest", "-q", "-m", "not slow")  # primes .pytest_cache for --lf
    make_library_db(root / "library.db", data)


def make_library_db(path: Path, data: Path) -> None:
    db = sqlite3.connect(path)
    db.executescript(
        """
        CREATE TABLE branches (code TEXT PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE members (member_id INTEGER PRIMARY KEY, name TEXT NOT NULL, branch TEXT REFERENCES branches(code),
                              joined TEXT, status TEXT CHECK (status IN ('active', 'suspended')));
        CREATE TABLE loans (loan_id INTEGER PRIMARY KEY, member_id INTEGER NOT NULL REFERENCES members(member_id),
                            isbn TEXT NOT NULL, genre TEXT, branch TEXT REFERENCES branches(code), out TEXT NOT NULL,
                            due TEXT NOT NULL, returned TEXT);
        CREATE TABLE returns (loan_id INTEGER, returned TEXT, condition TEXT, desk TEXT);
        """
    )
    for code in P.BRANCHES:
        db.execute("INSERT INTO branches VALUES (?, ?)", (code, code.title() + " Library"))
    for line in (data / "members.csv").read_text().splitlines()[1:]:
        db.execute("INSERT INTO members VALUES (?, ?, ?, ?, ?)", line.split(","))
    for line in (data / "loans.csv").read_text().splitlines()[1:]:
        row = line.split(",")
        db.execute("INSERT INTO loans VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [*row[:7], row[7] or None])
    db.commit()
    db.close()


def tools_env(root: Path) -> None:
    """A throwaway venv with tqdm (from the machine's package index) for the two tqdm scripts."""
    run(root, sys.executable, "-m", "venv", "venv")
    run(root, "venv/bin/pip", "install", "-q", "tqdm")
    write(root, {"reindex.py": P.REINDEX, "train_late.py": P.TRAIN})


def sprout(root: Path) -> None:
    write(root, P.SPROUT)
    (root / "data").mkdir()
    (root / "data" / "beds.json").write_text(P.beds_json())


def quarry(root: Path) -> None:
    for name in ("quarry", "quarry-wip"):
        crate = root / name
        write(crate, {"Cargo.toml": P.QUARRY_TOML})
        (crate / "src").mkdir()
        (crate / "benches").mkdir()
        (crate / "src" / "lib.rs").write_text(P.QUARRY_LIB.lstrip("\n"))
        (crate / "benches" / "convert.rs").write_text(P.QUARRY_BENCH.lstrip("\n"))
    (root / "quarry-wip" / "src" / "bin").mkdir()
    (root / "quarry-wip" / "src" / "bin" / "import.rs").write_text(P.QUARRY_WIP_BIN.lstrip("\n"))
    (root / "quarry-wip" / "routes.tsv").write_text("north-1\t6a\nnorth-2\t6b+\nslab-1\t5c\nroof-1\t7a\n")


def ringq(root: Path) -> None:
    write(root / "ringq", P.RINGQ)


def choir_repo(root: Path) -> None:
    """A choir's repo by three people: setlist, rehearsal planner, a tag, and a branch that conflicts with main."""
    repo = root / "choir"
    repo.mkdir()
    people = [("Maren Holloway", "maren@example.org"), ("Tobias Lind", "tobias@example.org"),
              ("Ines Carvalho", "ines@example.org")]  # fmt: skip
    day = [0]

    def git(*args: str, who: int = 0) -> None:
        name, email = people[who]
        stamp = f"2026-09-{day[0]:02d}T19:{day[0]:02d}:00+01:00"
        env = {**ENV, "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email, "GIT_COMMITTER_NAME": name,
               "GIT_COMMITTER_EMAIL": email, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}  # fmt: skip
        run(repo, "git", *args, env=env)

    def commit(message: str, who: int, files: dict[str, str]) -> None:
        day[0] += 1
        write(repo, files)
        git("add", "-A", who=who)
        git("commit", "-q", "-m", message, who=who)

    setlist, rehearse = P.SETLIST_V1, P.REHEARSE_V1
    git("init", "-q", "-b", "main")
    commit(
        "Winter concert: first setlist",
        0,
        {"setlist.txt": setlist, "README.md": "# choir\n\nSetlists and rehearsal plans.\n"},
    )
    commit("Rehearsal planner", 1, {"rehearse.py": rehearse})
    commit("roster: voices for the winter concert", 2,
           {"roster.csv": "name,voice\nAsha,S1\nBeatrix,S2\nCarmen,A1\nDilys,A2\nEmrys,T1\nFinn,T2\nGideon,B1\nHal,B2\n"})  # fmt: skip
    git("tag", "-a", "v1.0", "-m", "setlist sent to the venue")
    setlist = setlist.replace("Ave Maria | Biebl | TTBB | 6", "Ave Maria | Biebl | TTBB | 7")
    commit("Biebl runs seven minutes with the repeat", 2, {"setlist.txt": setlist})
    rehearse = rehearse.replace("SLOT_MINUTES = 25", "SLOT_MINUTES = 30  # longer slots since October")
    commit("Longer rehearsal slots", 1, {"rehearse.py": rehearse})
    rehearse = rehearse.replace(
        '        need = piece["minutes"] * 3\n',
        '        need = piece["minutes"] * 3\n        if piece["voices"] != "SATB":\n            need += 5  # sectionals first\n',
    )
    commit("planner: time for sectionals before divisi pieces", 0, {"rehearse.py": rehearse})
    git("checkout", "-q", "-b", "feature/encore")
    enc = setlist.replace(
        "Ave Maria | Biebl | TTBB | 7\n", "Ave Maria | Biebl | TTBB | 7\nNorthern Lights | Gjeilo | SATB | 5\n"
    )
    commit("Encore: Northern Lights", 1, {"setlist.txt": enc})
    enc = enc.replace("The Lamb | Tavener | SATB | 4\n", "")
    commit("Drop The Lamb to make room for the encore", 1, {"setlist.txt": enc})
    git("checkout", "-q", "main")
    setlist = setlist.replace(
        "Ave Maria | Biebl | TTBB | 7\n", "Ave Maria | Biebl | TTBB | 7\nSeal Lullaby | Whitacre | SATB | 4\n"
    )
    setlist = setlist.replace("The Lamb | Tavener | SATB | 4", "The Lamb | Tavener | SATB | 3")
    commit("Close with Seal Lullaby; The Lamb at the faster tempo", 2, {"setlist.txt": setlist})
    commit("README: how to run the planner", 0,
           {"README.md": "# choir\n\nSetlists and rehearsal plans.\n\n    python rehearse.py\n\nprints the evening slots.\n"})  # fmt: skip
    shutil.copytree(repo, root / "choir-rebase")


BUILDERS: dict[str, Callable[[Path], None]] = {
    "sw": shelfwise,
    "tools": tools_env,
    "sprout": sprout,
    "rs": quarry,
    "c": ringq,
    "git": choir_repo,
}

# name, command, folder it runs in (relative to the temp root; absolute for a system folder)
SAMPLES: list[tuple[str, str, str]] = [
    # -- shelfwise: pytest with flags the other corpora lack, unittest, doctest
    ("pytest_ra_not_slow", "python -m pytest -p no:cacheprovider -ra -m 'not slow'", "sw"),
    ("pytest_lf_tb_line", "python -m pytest --lf --tb=line -q", "sw"),
    (
        "pytest_k_isbn_short",
        "python -m pytest -p no:cacheprovider --tb=short -q -k 'isbn10 or shelf_mark' tests/test_catalog.py",
        "sw",
    ),
    (
        "pytest_tb_no_rfE",
        "python -m pytest -p no:cacheprovider --tb=no -q -rfE tests/test_catalog.py tests/test_fines.py",
        "sw",
    ),
    (
        "pytest_v_params",
        "python -m pytest -p no:cacheprovider -v --tb=short tests/test_catalog.py tests/test_fines.py",
        "sw",
    ),
    ("pytest_v_calendar_tb_line", "python -m pytest -p no:cacheprovider -v --tb=line tests/test_calendar.py", "sw"),
    (
        "pytest_co_q_not_slow",
        "python -m pytest -p no:cacheprovider --co -q -m 'not slow' tests/test_fines.py tests/test_dates.py tests/test_legacy.py tests/test_catalog.py",
        "sw",
    ),
    ("pytest_xfail_xpass", "python -m pytest -p no:cacheprovider -q --tb=short -rxX tests/test_dates.py", "sw"),
    ("pytest_warnings_summary", "python -m pytest -p no:cacheprovider -q tests/test_legacy.py", "sw"),
    (
        "pytest_W_error_deprecation",
        "python -m pytest -p no:cacheprovider -q -W error::DeprecationWarning tests/test_legacy.py",
        "sw",
    ),
    ("pytest_doctest_modules", "python -m pytest -p no:cacheprovider -q --doctest-modules shelfwise", "sw"),
    ("pytest_tail_25", "python -m pytest -p no:cacheprovider -q --tb=short -m 'not slow' 2>&1 | tail -n 25", "sw"),
    ("pytest_nbval_lax", "python -m pytest -p no:cacheprovider --nbval-lax circulation.ipynb", "sw"),
    ("unittest_k_renew", "python -m unittest -k renew legacy_tests.test_renewals", "sw"),
    ("doctest_dates", "python -m doctest shelfwise/dates.py", "sw"),
    ("doctest_fines_ellipsis", "python -m doctest -o ELLIPSIS shelfwise/fines.py; echo exit=$?", "sw"),
    # -- shelfwise: the user's own scripts failing, in pandas, numpy, the parser, the import system
    ("pandas_merge_dtype_traceback", "python overdue_report.py", "sw"),
    ("numpy_matmul_shape", "python genre_stats.py", "sw"),
    ("syntaxerror_import_marc", "python scripts/import_marc.py data/old.marc", "sw"),
    ("importerror_circular", "python -c 'from shelfwise.holds import fulfil'", "sw"),
    (
        "mypy_untyped_unreachable",
        "mypy --no-incremental --show-error-codes --check-untyped-defs --warn-unreachable --disallow-incomplete-defs --disallow-untyped-defs shelfwise legacy_tests",
        "sw",
    ),
    # -- shelfwise: the nightly sync's log
    ("sync_echo_long_log", "python -m shelfwise.sync --batches 75 --echo; echo exit=$?", "sw"),
    ("grep_B4_error_sync_log", "grep -n -B4 -A1 -E 'ERROR|WARN' logs/sync.log", "sw"),
    ("awk_levels_uniq_c", "awk '{print $3}' logs/sync.log | sort | uniq -c | sort -rn", "sw"),
    ("rotate_logs_unbound", "SHELFWISE_LOG_DIR=logs bash deploy/rotate_logs.sh; echo exit=$?", "sw"),
    ("bash_n_nightly", "bash -n deploy/nightly.sh", "sw"),
    (
        "env_i_staging_sorted",
        "env -i PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 bash --noprofile --norc -c 'set -a; . deploy/staging.env; set +a; env | sort'",
        "sw",
    ),
    # -- shelfwise: notebooks
    ("nbconvert_markdown_error", "jupyter nbconvert --execute --to markdown --output-dir out circulation.ipynb", "sw"),
    # -- shelfwise: sqlite and csv
    ("sqlite_migration_error", "sqlite3 library.db < migrations/004_branch_hours.sql; echo exit=$?", "sw"),
    (
        "sqlite_import_returns",
        "sqlite3 library.db '.import --csv --skip 1 data/returns_batch.csv returns' && sqlite3 library.db 'SELECT count(*) FROM returns'",
        "sw",
    ),
    ("sqlite_fk_check", "sqlite3 library.db 'PRAGMA foreign_key_check'", "sw"),
    (
        "sqlite_markdown_overdue",
        "sqlite3 -markdown library.db \"SELECT branch, count(*) AS open_loans, min(due) AS oldest_due, sum(due < '2026-11-26') AS overdue FROM loans WHERE returned IS NULL GROUP BY branch ORDER BY overdue DESC\"",
        "sw",
    ),
    (
        "sqlite_table_top_borrowers",
        "sqlite3 -table library.db 'SELECT m.member_id, m.name, m.branch, count(*) AS loans, sum(l.returned IS NULL) AS still_out FROM loans l JOIN members m ON m.member_id = l.member_id GROUP BY m.member_id ORDER BY loans DESC, m.member_id LIMIT 30'",
        "sw",
    ),
    # -- shelfwise: packaging and listings
    ("build_sdist_no_isolation", "python -m build --sdist --no-isolation --outdir dist .", "sw"),
    ("tar_tzvf_sdist", "tar -tzvf dist/shelfwise-0.3.0.tar.gz", "sw"),
    (
        "find_tree_sed",
        "find shelfwise tests legacy_tests scripts deploy -not -path '*/__pycache__*' | sort | sed -e 's;[^/]*/;|   ;g; s;|   \\([^|]\\);+-- \\1;'",
        "sw",
    ),
    # -- a throwaway venv: pip, tqdm
    (
        "pip_extras_no_index",
        "venv/bin/pip install --no-index --find-links ../sw/dist 'shelfwise[report]'; echo exit=$?",
        "tools",
    ),
    ("tqdm_reindex", "venv/bin/python reindex.py", "tools"),
    ("tqdm_train_tail", "venv/bin/python train_late.py 2>&1 | tail -n 14", "tools"),
    # -- searches and listings in vendored code where the hits are the answer
    (
        "rg_allow_errors_nbclient",
        f"rg -n --sort path 'allow_errors' {SITE}/nbclient {SITE}/nbconvert/preprocessors",
        "",
    ),
    ("find_py_typed", f"find {SITE} -maxdepth 2 -name py.typed | sort", ""),
    ("grep_l_isc_licenses", f'grep -l --include=package.json -r \'"license": "ISC"\' {NPM_VENDOR} | sort', ""),
    ("ls_l_npm_vendor", f"ls -l --time-style=+%Y-%m {NPM_VENDOR}", ""),
    ("ls_lR_jupyter_server", f"ls -lR --time-style=+%Y-%m {SITE}/jupyter_server", ""),
    (
        "find_size_printf_lexers",
        f"find {SITE}/pygments/lexers -name '*.py' -size +25k -printf '%s %p\\n' | sort -n",
        "",
    ),
    ("du_d1_npm_vendor", f"du -h -d1 {NPM_VENDOR} | sort -hr | head -n 15", ""),
    # -- the machine
    ("df_output_cols", "df -h --output=source,fstype,size,used,avail,pcent,target / /dev/shm", ""),
    ("free_h_w", "free -h -w", ""),
    ("lsof_listen_port", f"lsof -nP -iTCP:{PORT} -sTCP:LISTEN", ""),
    # -- sprout: npm scripts around node's test runner and two house scripts
    ("npm_run_test_unit_dot", "npm run test:unit", "sprout"),
    ("npm_test_name_pattern", "npm test -- --test-name-pattern=median", "sprout"),
    ("npm_run_build_typeerror", "npm run build", "sprout"),
    # -- quarry: Rust
    ("cargo_check_tests_wip", "cd quarry-wip && cargo check --tests --bins", "rs"),
    ("cargo_doc_no_deps_links", "cd quarry && cargo doc --no-deps", "rs"),
    ("cargo_test_doc", "cd quarry && cargo test --doc", "rs"),
    ("cargo_bench_harness_false", "cd quarry && cargo bench", "rs"),
    # -- ringq: C
    ("make_tests_ring", "make tests; echo exit=$?", "c/ringq"),
    ("gcc_fsyntax_only_stats", "gcc -std=c11 -Wall -Wextra -fsyntax-only -Isrc src/ring_stats.c", "c/ringq"),
    ("gcc_fanalyzer_ring", "gcc -std=c11 -fanalyzer -c src/ring.c -o /dev/null", "c/ringq"),
    ("valgrind_demo", "make -s all && valgrind ./build/ringq_demo", "c/ringq"),
    # -- choir: git with the pager off
    ("git_blame_w_L", "git --no-pager blame -w -L 14,32 rehearse.py", "git/choir"),
    ("git_shortlog_n_nomerges", "git --no-pager shortlog -n --no-merges main feature/encore", "git/choir"),
    (
        "git_log_custom_format",
        "git --no-pager log --all --date=iso-strict --pretty=format:'%h %ad %<(15)%an %d %s'",
        "git/choir",
    ),
    ("git_diff_stat_summary_p", "git --no-pager diff --stat --summary -p v1.0 main", "git/choir"),
    (
        "git_log_patch_reverse",
        "git --no-pager log --patch --reverse --format='%h %an%n%s' -- rehearse.py setlist.txt",
        "git/choir",
    ),
    ("git_rebase_conflict", "git rebase main feature/encore", "git/choir-rebase"),
    ("git_diff_during_rebase", "git --no-pager diff", "git/choir-rebase"),
]


def main() -> None:
    def prepare(root: Path, only: set[str]) -> list[subprocess.Popen[bytes]]:
        if only and "build_sdist_no_isolation" not in only:  # what that recorded build would have put in dist/
            run(root / "sw", sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir", "dist", ".")
        if only and "git_rebase_conflict" not in only:  # the conflicted rebase the later git samples look at
            loose(root / "git" / "choir-rebase", "git", "rebase", "main", "feature/encore")
        return [CORPUS.serve(root / "sw" / "data", PORT)]  # a loopback server for lsof to list

    CORPUS.record_corpus("heldout-g-", BUILDERS, SAMPLES, prepare=prepare)


if __name__ == "__main__":
    main()
