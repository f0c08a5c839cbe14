# ruff: noqa: E501 - the programs recorded here are written out whole; random only makes sample data
"""Record the TUNING filter corpus (C): real output of real tools, apart from the bench corpus and from A and B.

    python -m bench.make_tune            # (re)records tests/data/filter_tune/*.json, keeps the judgement
    python -m bench.make_tune NAME...    # re-records only those samples
    python -m bench.make_tune --apply    # copies JUDGED.json (must_keep, why, split) into the samples
    python -m bench.make_tune --check    # checks that every judged must_keep line occurs in its output

Unlike A and B, rules MAY be tuned on this corpus, but only on its ``dev`` part: the ``test`` part (about a third,
chosen by size before anything was scored) is scored once before and once after tuning. Each sample stores the
command, its exit code, its combined stdout+stderr, and a judgement made by reading the output before any filter
ran on it: ``why`` and ``must_keep`` (lines verbatim from ``output.splitlines()``). The judgement lives in
``JUDGED.json`` so that re-recording keeps it.

Commands, flags and projects were chosen not to be in the bench corpus, A or B (by their ``command`` fields), with
weight on the large outputs that dominate a token count: long application logs in other formats (JSON lines,
threads, access logs), training logs with a real tqdm, test suites of hundreds of tests (pandas' own among them),
linters and type checkers over real packages, verbose builds, big diffs and searches.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench import tune_programs as P
from bench.judging import apply_judgement, check
from bench.recording import record as shared_record
from bench.recording import recording_env, write
from bench.recording import run as shared_run

REPO = Path(__file__).resolve().parent.parent
if not (REPO / ".venv").exists():  # a worktree or staged copy: the shared venv lives with the main checkout
    REPO = Path(os.environ.get("ZEPH_NB_REPO", "/work/main"))
OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "filter_tune"
JUDGED = OUT / "JUDGED.json"
VENV = REPO / ".venv"
SITE_ABS = VENV / "lib" / "python3.11" / "site-packages"
SITE = ".venv/lib/python3.11/site-packages"

SCRATCH = Path(tempfile.mkdtemp(prefix="tune-home-"))
ENV = recording_env(VENV, SCRATCH, ("Robin Ops", "robin@example.com"))


def record(name: str, command: str, cwd: Path, root: Path, timeout: int = 900) -> None:
    shown_as = {str(root): "/work/project", str(SCRATCH): "/root/.cache/tune", str(VENV): "/work/project/.venv"}
    shared_record(OUT, name, command, cwd, ENV, shown_as, timeout)


def run(root: Path, *cmd: str) -> None:
    shared_run(root, ENV, *cmd)


def python_apps(root: Path) -> None:
    write(root, P.PYTHON_APPS)


def tqdm_env(root: Path) -> None:
    """A throwaway venv, so `pip install tqdm` really downloads from the registry and tqdm draws real bars."""
    run(root, sys.executable, "-m", "venv", "venv")
    write(root, {"train.py": P.TRAIN_TQDM})


def test_projects(root: Path) -> None:
    write(root / "inventory", P.inventory_project())
    write(root / "suite", P.unittest_project())
    write(root / "textutil", {"textutil.py": P.DOCTEST_MODULE})


def lint_projects(root: Path) -> None:
    for package in ("tinycss2", "webencodings"):
        shutil.copytree(SITE_ABS / package, root / package, ignore=shutil.ignore_patterns("__pycache__"))
    for package, copy in (("jinja2", "jinja2copy"), ("requests", "requests")):
        shutil.copytree(SITE_ABS / package, root / copy, ignore=shutil.ignore_patterns("__pycache__"))
    (root / "jinja2copy" / "broken_ext.py").write_text("def render(ctx:\n    return ctx\n")


def rust_projects(root: Path) -> None:
    for name, files in P.RUST_CRATES.items():
        crate = root / name
        write(
            crate,
            {
                "Cargo.toml": f'[package]\nname = "{name}"\nversion = "0.3.0"\nedition = "2021"\n\n[dependencies]\n',
                **files,
            },
        )


def c_projects(root: Path) -> None:
    write(root / "imgtool", P.c_project())


def node_projects(root: Path) -> None:
    write(root / "pricing", P.NODE_PACKAGE)
    write(root / "leftpad", {"package.json": '{"name": "leftpad-demo", "version": "1.0.0", "private": true}\n'})


def git_repos(root: Path) -> None:
    run(root, "git", "clone", "-q", "--no-local", str(REPO), "zeph")
    zeph = root / "zeph"
    run(zeph, "git", "checkout", "-q", "-b", "work", "HEAD~40")
    # A working tree with edits and new files, as one has before a commit.
    for path in sorted((zeph / "zeph_nb").rglob("*.py"))[:25]:
        path.write_text(path.read_text() + "\n# reviewed\n")
    for i in range(12):
        (zeph / "notes" / f"draft-{i:02d}.md").parent.mkdir(exist_ok=True)
        (zeph / "notes" / f"draft-{i:02d}.md").write_text(f"draft {i}\n")
    run(root, "git", "init", "-q", "-b", "main", "merge")
    merge = root / "merge"
    write(merge, {"config.py": "TIMEOUT = 30\nRETRIES = 3\nURL = 'https://api.example.com'\n"})
    run(merge, "git", "add", ".")
    run(merge, "git", "commit", "-q", "-m", "config")
    run(merge, "git", "checkout", "-q", "-b", "feature")
    write(merge, {"config.py": "TIMEOUT = 60\nRETRIES = 3\nURL = 'https://api.example.com'\n"})
    run(merge, "git", "commit", "-q", "-am", "longer timeout")
    run(merge, "git", "checkout", "-q", "main")
    write(merge, {"config.py": "TIMEOUT = 10\nRETRIES = 5\nURL = 'https://api.example.com'\n"})
    run(merge, "git", "commit", "-q", "-am", "fail fast, retry more")


def data_files(root: Path) -> None:
    write(root, {"pods.txt": P.pods_table()})
    shutil.copytree(SITE_ABS / "requests", root / "requests", ignore=shutil.ignore_patterns("__pycache__"))
    run(root, "zip", "-qr", "requests.zip", "requests")


def web_server(root: Path) -> None:
    write(root, {"server.py": P.HTTP_SERVER, "hammer.sh": P.HAMMER})


BUILDERS: dict[str, Callable[[Path], None]] = {
    "py": python_apps,
    "venv": tqdm_env,
    "tests": test_projects,
    "lint": lint_projects,
    "rs": rust_projects,
    "c": c_projects,
    "node": node_projects,
    "git": git_repos,
    "data": data_files,
    "web": web_server,
}

# name, command, folder it runs in (relative to the temp root)
SAMPLES: list[tuple[str, str, str]] = [
    # -- long application logs in formats A and B do not have
    ("jsonl_service_log", "python orders_service.py", "py"),
    ("threaded_worker_log", "python batch_worker.py --batches 1200", "py"),
    ("crawler_progress", "python crawl.py --max-pages 1000", "py"),
    ("access_log_cat", "cat server.log", "web"),
    ("warnings_always", "python -W always etl.py", "py"),
    ("recursion_error", "python walk_tree.py", "py"),
    ("hf_style_training", "python finetune.py", "py"),
    ("importtime_pandas", "python -X importtime -c 'import pandas'", "py"),
    ("cprofile_cumtime", "python -m cProfile -s cumtime hotspots.py", "py"),
    ("doctest_verbose", "python -m doctest -v textutil.py", "tests/textutil"),
    # -- real tqdm, pip against the registry
    ("pip_install_registry", "venv/bin/pip install --no-cache-dir tqdm==4.66.5", "venv"),
    ("tqdm_training", "venv/bin/python train.py", "venv"),
    ("pip_uninstall", "venv/bin/pip uninstall -y tqdm", "venv"),
    ("pip_freeze", "pip freeze", "py"),
    ("pip_show_files", "pip show -f requests", "py"),
    ("pip_wheel_verbose", "pip wheel -v --no-deps --no-build-isolation -w dist .", "tests/inventory"),
    # -- test runners: real suites and big generated ones
    (
        "pandas_tslibs_verbose",
        "python -m pytest -p no:cacheprovider -v --pyargs pandas.tests.tslibs.test_parsing pandas.tests.tslibs.test_timezones",
        "py",
    ),
    ("pandas_rs_skips", "python -m pytest -p no:cacheprovider -q -rs --pyargs pandas.tests.tslibs", "py"),
    ("numpy_collect_error", "python -m pytest -p no:cacheprovider -q --pyargs numpy.linalg.tests.test_linalg", "py"),
    ("pytest_v_tb_short", "python -m pytest -p no:cacheprovider -v --tb=short", "tests/inventory"),
    ("pytest_tb_no_rf", "python -m pytest -p no:cacheprovider -q --tb=no -rf", "tests/inventory"),
    ("pytest_s_prints", "python -m pytest -p no:cacheprovider -s -q tests/test_sync.py", "tests/inventory"),
    ("pytest_durations", "python -m pytest -p no:cacheprovider -q --durations=8 -k 'not sync'", "tests/inventory"),
    (
        "coverage_report",
        "coverage run -m pytest -p no:cacheprovider -q -k 'not sync' >/dev/null; coverage report -m",
        "tests/inventory",
    ),
    ("unittest_buffer", "python -m unittest -v -b", "tests/suite"),
    # -- linters and type checkers over real packages
    ("ruff_select_all", "ruff check --no-cache --select ALL --output-format=concise tinycss2", "lint"),
    ("ruff_full_format", "ruff check --no-cache --select E,W,F,B,C4,UP,SIM,PTH --output-format=full requests", "lint"),
    (
        "ruff_format_check",
        "ruff format --no-cache --check jinja2copy/ext.py jinja2copy/loaders.py jinja2copy/broken_ext.py tinycss2/ast.py",
        "lint",
    ),
    ("ruff_fix", "ruff check --no-cache --select F401,I,UP --fix webencodings", "lint"),
    ("mypy_strict_tinycss2", "mypy --strict --no-incremental tinycss2", "lint"),
    ("compileall_error", "python -m compileall -f jinja2copy", "lint"),
    # -- Rust
    ("cargo_test_many", "cd ledgerkit && cargo test", "rs"),
    ("cargo_test_nocapture", "cd ledgerkit && cargo test rounding -- --nocapture --test-threads=1", "rs"),
    ("cargo_build_verbose", "cd ledgerkit && cargo build -v --release", "rs"),
    ("cargo_clippy_pedantic", "cd ledgerkit && cargo clippy -- -W clippy::pedantic", "rs"),
    ("cargo_run_backtrace", "cd panicky && RUST_BACKTRACE=1 cargo run -q", "rs"),
    ("cargo_doc", "cd ledgerkit && cargo doc --no-deps", "rs"),
    # -- C
    ("make_k_errors", "make -k", "c/imgtool"),
    ("make_check_tap", "make check", "c/imgtool"),
    # -- node
    ("node_test_tap", "node --test --test-reporter=tap", "node/pricing"),
    ("node_unhandled_rejection", "node fetch_prices.js", "node/pricing"),
    ("npm_ls_all", "npm ls --all", "/usr/lib/node_modules/npm"),
    ("npm_install_registry", "npm install --no-audit left-pad@1.3.0", "node/leftpad"),
    # -- git on a real repository (this project's own history)
    ("git_log_patch", "git --no-pager log -p -2", "git/zeph"),
    ("git_diff_range", "git --no-pager diff HEAD~6 HEAD -- zeph_nb", "git/zeph"),
    ("git_log_format", "git --no-pager log --format='%h %ad %an %s' --date=short", "git/zeph"),
    ("git_status_short", "git status --short", "git/zeph"),
    ("git_grep_defs", "git --no-pager grep -n 'def ' -- 'zeph_nb/tools/*.py' 'zeph_nb/gates/*.py'", "git/zeph"),
    ("git_merge_conflict", "git merge feature", "git/merge"),
    # -- files, searches, archives, tables
    ("grep_defs_jinja2", f"grep -rn --include='*.py' 'def ' {SITE}/jinja2", ""),
    ("rg_stats_todo", f"rg -n --stats 'TODO|FIXME|XXX' {SITE}/pandas/core", ""),
    ("find_exec_wc", f"find {SITE}/requests {SITE}/idna -name '*.py' -exec wc -l {{}} +", ""),
    ("du_max_depth_sort", f"du -h --max-depth=1 {SITE} | sort -h", ""),
    ("ls_lR_requests", "ls -lR requests", "data"),
    ("unzip_list", "unzip -l requests.zip", "data"),
    ("column_pods_table", "column -t pods.txt", "data"),
    ("strace_summary", "strace -c -f python -c 'import json, csv, sqlite3'", "py"),
    ("free_vmstat", "free -m && vmstat 1 3", "py"),
    ("ps_forest_session", "ps -o pid,ppid,stat,rss,args --forest -s {sid}", "py"),
    # -- jupyter, http
    ("jupyter_execute_error", "jupyter execute report.ipynb", "py"),
    ("nbconvert_html", "jupyter nbconvert --to html report_ok.ipynb", "py"),
    ("curl_404_verbose", "curl -sv http://127.0.0.1:{port}/no/such/page", "web"),
    ("curl_json_pretty", "curl -s http://127.0.0.1:{port}/api/stats | python -m json.tool", "web"),
]


def main() -> None:
    if {"--check", "--apply"} & set(sys.argv[1:]):
        shutil.rmtree(SCRATCH, ignore_errors=True)  # made at import for the recording's environment; unused here
    if "--check" in sys.argv[1:]:
        sys.exit(1 if check(OUT, split=True) else 0)
    if "--apply" in sys.argv[1:]:
        gone = apply_judgement(OUT, split=True)
        sys.exit(1 if check(OUT, split=True) or gone else 0)
    OUT.mkdir(parents=True, exist_ok=True)
    only = {a for a in sys.argv[1:] if not a.startswith("-")}
    root = Path(tempfile.mkdtemp(prefix="tune-"))
    try:
        (root / ".venv").symlink_to(VENV)
        for key, build in BUILDERS.items():
            (root / key).mkdir()
            build(root / key)
        # Processes for `ps` to show: a session of the recorder's own (a full `ps` would show the machine's).
        pool = subprocess.Popen([sys.executable, "-c", P.POOL], cwd=root / "py", env=ENV, start_new_session=True)
        with open(root / "web" / "server.log", "w") as log:  # the access log `cat server.log` shows
            server = subprocess.Popen([sys.executable, "server.py"], cwd=root / "web", env=ENV,
                                      stdout=subprocess.PIPE, stderr=log, start_new_session=True)  # fmt: skip
        assert server.stdout is not None
        port = server.stdout.readline().decode().strip()
        subprocess.run(["bash", "hammer.sh", port], cwd=root / "web", env=ENV, check=True, capture_output=True)
        time.sleep(2)
        try:
            for name, command, sub in SAMPLES:
                if only and name not in only:
                    continue
                cwd = Path(sub) if sub.startswith("/") else root / sub if sub else root
                record(name, command.replace("{sid}", str(pool.pid)).replace("{port}", port), cwd, root)
        finally:
            for process in (pool, server):
                os.killpg(process.pid, signal.SIGTERM)
                process.wait()
    finally:
        shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(SCRATCH, ignore_errors=True)
    gone = apply_judgement(OUT, split=True)
    if gone:
        print(f"{gone} judged lines are gone or samples unjudged: judge them by reading, in JUDGED.json")
    check(OUT, split=True)


if __name__ == "__main__":
    main()
