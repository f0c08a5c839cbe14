# ruff: noqa: E501 - the commands recorded here are written out whole; random only makes sample data
"""Record the tunable filter corpus E: real output of real tools, apart from every other corpus.

    python -m bench.make_tune_e            # (re)records tests/data/filter_tune_e/*.json, keeps the judgement
    python -m bench.make_tune_e NAME...    # re-records only those samples
    python -m bench.make_tune_e --apply    # copies JUDGED.json (must_keep, why, split) into the samples
    python -m bench.make_tune_e --check    # checks that every judged must_keep line occurs in its output

Rules MAY be tuned on this corpus, but only on its ``dev`` half: the ``test`` half (every third sample of each size
bin, by name, fixed before anything was scored) is scored, never read while changing a rule. It was recorded and
judged by someone who had not read the filters. Each sample stores the command, its exit code, its combined
stdout+stderr, and a judgement made by reading the output before any filter ran on it: ``why`` and ``must_keep``
(lines verbatim from ``output.splitlines()``). The judgement lives in ``JUDGED.json`` so that re-recording keeps it.

The mix of sizes is a normal session's: about half of the outputs under 30 lines, a few over 300. Commands, flags
and projects were chosen not to be in any other corpus (by their ``command`` fields).
"""

from __future__ import annotations

import random
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from bench import tune_e_programs as P
from bench.recording import Corpus, write

CORPUS = Corpus.start(__file__, "filter_tune_e", ("Noor Haddad", "noor@example.com"))
OUT, VENV, SCRATCH, ENV = CORPUS.out, CORPUS.venv, CORPUS.scratch, CORPUS.env
JUDGED = OUT / "JUDGED.json"
SITE = ".venv/lib/python3.11/site-packages"
record, run = CORPUS.record, CORPUS.run


# ------------------------------------------------------------------------------------------------------ builders
def billing(root: Path) -> None:
    """tallyhub, the billing service: package, CLI, worker, tests (some failing), legacy unittest checks."""
    write(root / "tallyhub", {**P.BILLING, **P.BILLING_LEGACY, "tests/test_rates_matrix.py": P.rates_matrix_test()})


def data_folder(root: Path) -> None:
    data = root / "data"
    data.mkdir()
    (data / "payments.csv").write_text(P.payments_csv())
    (data / "customers.csv").write_text(P.customers_csv())
    (data / "refunds.json").write_text(P.refunds_json())
    (data / "invoice.json").write_text(__import__("json").dumps(P.INVOICE_JSON))
    (data / "refunds_summary.ipynb").write_text(P.notebook(P.NOTEBOOK_CELLS))
    (data / "payment_fees.ipynb").write_text(P.notebook(P.BAD_NOTEBOOK_CELLS))
    make_billing_db(data / "billing.db")


def make_billing_db(path: Path) -> None:
    rng = random.Random(21)
    db = sqlite3.connect(path)
    db.executescript(
        """
        CREATE TABLE customers (id TEXT PRIMARY KEY, name TEXT NOT NULL, country TEXT NOT NULL, terms_days INTEGER);
        CREATE TABLE invoices (id INTEGER PRIMARY KEY, number TEXT UNIQUE NOT NULL, customer_id TEXT REFERENCES customers(id),
                               net_cents INTEGER NOT NULL, vat_cents INTEGER NOT NULL, issued TEXT NOT NULL, due_date TEXT NOT NULL,
                               status TEXT NOT NULL CHECK (status IN ('draft','sent','paid','overdue','void')));
        CREATE TABLE payments (id TEXT PRIMARY KEY, invoice_id INTEGER REFERENCES invoices(id), amount_cents INTEGER, paid_at TEXT);
        CREATE INDEX idx_invoices_due ON invoices(due_date);
        CREATE VIEW overdue AS SELECT * FROM invoices WHERE status = 'overdue';
        """
    )
    for i in range(1, 121):
        db.execute("INSERT INTO customers VALUES (?, ?, ?, ?)",
                   (f"C{i:04d}", f"Customer {i} GmbH", rng.choice(["DE", "FR", "NL", "AT", "PL"]), rng.choice([14, 30, 45])))  # fmt: skip
    for i in range(1, 641):
        month, day = rng.randint(1, 11), rng.randint(1, 28)
        net = rng.randint(2_000, 900_000)
        db.execute("INSERT INTO invoices VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   (i, f"INV-2026-{i:05d}", f"C{rng.randint(1, 120):04d}", net, net * 19 // 100, f"2026-{month:02d}-{day:02d}",
                    f"2026-{min(month + 1, 12):02d}-{day:02d}", rng.choice(["sent", "paid", "paid", "paid", "overdue", "void"])))  # fmt: skip
    db.commit()
    db.close()


def tools_env(root: Path) -> None:
    """A throwaway venv; the recorded `pip install` really downloads flake8 and tqdm from the registry."""
    run(root, sys.executable, "-m", "venv", "venv")
    write(root, {"train.py": P.TRAIN})


def node_package(root: Path) -> None:
    write(root / "slugmint", P.NODE)


def rust_crates(root: Path) -> None:
    for name, files in P.RUST.items():
        write(
            root / name,
            {
                "Cargo.toml": f'[package]\nname = "{name}"\nversion = "0.2.0"\nedition = "2021"\n\n[dependencies]\n',
                **files,
            },
        )


def c_project(root: Path) -> None:
    write(root / "crc", {"crc.c": P.C_CRC, "Makefile": P.C_MAKEFILE})


PEOPLE = [("Priya Raman", "priya@example.org"), ("Jonas Berg", "jonas@example.org"),
          ("Aiko Tanaka", "aiko@example.org"), ("Luis Ortega", "luis@example.org")]  # fmt: skip


def git_repos(root: Path) -> None:
    """fieldnotes: a tide-table app with ten commits by four people, a hotfix branch, a tag, an origin it tracks,
    a stash, staged and untracked changes; and two clones for the cherry-pick and the bisect."""
    repo = root / "fieldnotes"
    repo.mkdir()
    run(repo, "git", "init", "-q", "-b", "main")

    def commit(message: str, who: int, day: int, files: dict[str, str]) -> None:
        write(repo, files)
        name, email = PEOPLE[who]
        stamp = f"2026-10-{day:02d}T09:{day:02d}:00+02:00"
        env = {**ENV, "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email, "GIT_COMMITTER_NAME": name,
               "GIT_COMMITTER_EMAIL": email, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}  # fmt: skip
        run(repo, "git", "add", "-A", env=env)
        run(repo, "git", "commit", "-q", "-m", message, env=env)

    readme = "# fieldnotes\n\nTide tables and observations for the coastal survey.\n"
    usage = "\n## Usage\n\n    python src/cli.py STATION\n\nHeights are printed in feet.\n"
    commit("Initial tide helpers", 0, 1, {"src/tides.py": P.TIDES_V1, "README.md": readme, "check.py": P.CHECK_PY})
    run(repo, "git", "tag", "v0.1")
    commit("Add README usage section", 1, 3, {"README.md": readme + usage})
    run(repo, "git", "branch", "hotfix/readme-units")
    tides = (
        P.TIDES_V1
        + '\n\ndef low_tides(readings):\n    """A low tide is a local minimum."""\n    return [c for p, c, n in zip(readings, readings[1:], readings[2:]) if c[1] < p[1] and c[1] <= n[1]]\n'
    )
    commit("Add low_tides", 2, 5, {"src/tides.py": tides})
    stations = "station,lat,lon\nHelgoland,54.18,7.89\nWilhelmshaven,53.51,8.15\nHusum,54.47,9.03\n"
    commit("notes: add station list", 3, 7, {"stations.csv": stations})
    tides = tides.replace("for prev, cur, nxt in zip", "for before, cur, after in zip").replace(
        "cur[1] > prev[1] and cur[1] >= nxt[1]", "cur[1] > before[1] and cur[1] >= after[1]")  # fmt: skip
    commit("Rename high_tides loop variables", 0, 9, {"src/tides.py": tides})
    tides = tides.replace("return feet * 0.3048", "return round(feet * 0.3047, 4)  # survey foot")
    commit("Use the survey foot for conversions", 1, 12, {"src/tides.py": tides})
    cli = 'import sys\n\nfrom tides import feet_to_m\n\n\ndef main():\n    station = sys.argv[1]\n    print(station, feet_to_m(12.5))\n\n\nif __name__ == "__main__":\n    main()\n'
    commit("Add CLI entry point", 2, 14, {"src/cli.py": cli})
    commit(
        "README: document the CLI", 3, 16, {"README.md": readme + usage.replace("in feet.", "in metres (survey foot).")}
    )
    tides = tides.replace(
        "def high_tides(readings):", "# TODO: accept datetime objects, not strings\ndef high_tides(readings):"
    )
    cli = cli.replace(
        "    station = sys.argv[1]", "    # TODO: validate station against stations.csv\n    station = sys.argv[1]"
    )
    commit("TODO markers for the next sprint", 0, 19, {"src/tides.py": tides, "src/cli.py": cli})
    commit(
        "stations: add Bremerhaven and Cuxhaven",
        1,
        21,
        {"stations.csv": stations + "Bremerhaven,53.54,8.58\nCuxhaven,53.87,8.70\n"},
    )
    run(repo, "git", "checkout", "-q", "hotfix/readme-units")
    commit("README: heights are in metres", 1, 22, {"README.md": readme + usage.replace("in feet.", "in metres.")})
    run(repo, "git", "checkout", "-q", "main")
    # an origin it tracks, one commit behind
    run(root, "git", "clone", "-q", "--bare", str(repo), "origin.git")
    run(repo, "git", "remote", "add", "origin", str(root / "origin.git"))
    run(repo, "git", "fetch", "-q", "origin")
    run(repo, "git", "branch", "-q", "-u", "origin/main", "main")
    commit(
        "stations: add Büsum",
        2,
        24,
        {"stations.csv": stations + "Bremerhaven,53.54,8.58\nCuxhaven,53.87,8.70\nBüsum,54.13,8.86\n"},
    )
    run(repo, "git", "checkout", "-q", "-b", "feature/plots")
    commit("Plot stub", 3, 25, {"src/plot.py": "def plot(readings):\n    raise NotImplementedError\n"})
    run(repo, "git", "checkout", "-q", "main")
    # the clones for cherry-pick and bisect (made before the work tree gets dirty)
    run(root, "git", "clone", "-q", str(repo), "pick")
    run(root, "git", "clone", "-q", str(repo), "bisect")
    # a stash, then staged and untracked changes
    (repo / "src" / "tides.py").write_text(
        tides.replace("return round(feet * 0.3047, 4)", "return round(feet * 0.3048, 3)")
    )
    run(repo, "git", "stash", "push", "-q", "-m", "WIP: metric rounding")
    write(repo, {"stations.csv": stations + "Bremerhaven,53.54,8.58\nCuxhaven,53.87,8.70\nBüsum,54.13,8.86\nNorddeich,53.62,7.16\n",
                 "src/tides.py": tides.replace("    out = []\n", "    out = []\n    if len(readings) < 3:\n        return out\n")})  # fmt: skip
    run(repo, "git", "add", "stations.csv", "src/tides.py")
    write(repo, {"notes/2026-11-02.md": "Helgoland gauge offline 06:00-09:00.\n"})


def web_folder(root: Path) -> None:
    write(root, {"index.html": "<h1>tallyhub exports</h1>\n"})
    (root / "invoices").mkdir()
    (root / "invoices" / "2026-11.csv").write_text(P.payments_csv()[:20_000])


BUILDERS: dict[str, Callable[[Path], None]] = {
    "py": billing,
    "data": data_folder,
    "tools": tools_env,
    "node": node_package,
    "rs": rust_crates,
    "c": c_project,
    "git": git_repos,
    "web": web_folder,
}

# name, command, folder it runs in (relative to the temp root; absolute for a system folder)
SAMPLES: list[tuple[str, str, str]] = [
    # -- the billing service: tests, CLI, worker log, lint
    ("pytest_billing_q", "python -m pytest -p no:cacheprovider -q --ignore=tests/test_rates_matrix.py", "py/tallyhub"),
    (
        "pytest_tb_short_suite",
        "python -m pytest -p no:cacheprovider -q --tb=short --ignore=tests/test_rates_matrix.py",
        "py/tallyhub",
    ),
    (
        "pytest_verbose_locals",
        "python -m pytest -p no:cacheprovider -v -l tests/test_money.py tests/test_invoice.py",
        "py/tallyhub",
    ),
    ("pytest_x_money", "python -m pytest -p no:cacheprovider -x -q tests/test_money.py", "py/tallyhub"),
    ("pytest_k_passing", "python -m pytest -p no:cacheprovider -q -k 'label or month_range'", "py/tallyhub"),
    ("pytest_ra_tax", "python -m pytest -p no:cacheprovider -rA tests/test_tax.py", "py/tallyhub"),
    ("pytest_matrix_verbose", "python -m pytest -p no:cacheprovider -v tests/test_rates_matrix.py", "py/tallyhub"),
    (
        "pytest_tb_line_exit",
        "python -m pytest -p no:cacheprovider --tb=line -q tests/test_invoice.py tests/test_cli.py; echo exit=$?",
        "py/tallyhub",
    ),
    ("pytest_no_match_exit", "python -m pytest -p no:cacheprovider -q -k refund; echo exit=$?", "py/tallyhub"),
    (
        "pytest_matrix_summary",
        "python -m pytest -p no:cacheprovider -q --tb=no tests/test_rates_matrix.py",
        "py/tallyhub",
    ),
    (
        "pytest_matrix_tail40",
        "python -m pytest -p no:cacheprovider -q --tb=short tests/test_rates_matrix.py 2>&1 | tail -40",
        "py/tallyhub",
    ),
    (
        "unittest_legacy_verbose",
        "python -m unittest -v legacy_tests.check_rounding legacy_tests.check_tax_table",
        "py/tallyhub",
    ),
    ("importtime_cli", "python -X importtime -m tallyhub --version", "py/tallyhub"),
    ("cli_issue_ok", "python -m tallyhub issue --customer ACME-7 --amount 1250 --country AT", "py/tallyhub"),
    ("cli_bad_amount", "python -m tallyhub issue --customer ACME-7 --amount 12,50; echo exit=$?", "py/tallyhub"),
    ("cli_month_traceback", "python -m tallyhub export --month 2026-13", "py/tallyhub"),
    ("worker_log_full", "python -m tallyhub.worker --invoices 400", "py/tallyhub"),
    ("worker_short_run", "python -m tallyhub.worker --invoices 40", "py/tallyhub"),
    (
        "worker_grep_problems",
        "python -m tallyhub.worker --invoices 400 2>&1 | grep -n -E 'WARNING|ERROR'",
        "py/tallyhub",
    ),
    ("ruff_default_rules", "ruff check --no-cache tallyhub tests", "py/tallyhub"),
    ("ruff_statistics_all", "ruff check --no-cache --select ALL --statistics tallyhub", "py/tallyhub"),
    ("ruff_all_concise", "ruff check --no-cache --select ALL --output-format=concise tallyhub tests", "py/tallyhub"),
    ("ruff_format_diff_cli", "ruff format --no-cache --diff tallyhub/cli.py tallyhub/worker.py", "py/tallyhub"),
    ("mypy_tallyhub", "mypy --no-incremental tallyhub", "py/tallyhub"),
    ("mypy_strict_with_tests", "mypy --no-incremental --strict tallyhub tests", "py/tallyhub"),
    ("pydoc_money", "python -m pydoc tallyhub.money", "py/tallyhub"),
    # -- throwaway venv: pip against the registry, flake8, tqdm
    ("pip_install_flake8_tqdm", "venv/bin/pip install --no-cache-dir flake8 tqdm==4.67.1", "tools"),
    ("pip_show_files_tqdm", "venv/bin/pip show -f tqdm", "tools"),
    ("pip_install_no_such_version", "venv/bin/pip install tqdm==0.0.1; echo exit=$?", "tools"),
    ("pip_index_versions", "venv/bin/pip index versions flake8", "tools"),
    ("flake8_tallyhub", "venv/bin/flake8 --max-line-length 100 ../py/tallyhub", "tools"),
    ("tqdm_churn_training", "venv/bin/python train.py", "tools"),
    ("pip_show_pytest", "pip show pytest", "py"),
    ("pip_list_verbose", "pip list -v", "py"),
    # -- data folder: csv, json, sqlite, notebooks
    ("ls_la_data", "ls -la data", "data"),
    ("column_customers_head", "column -s, -t data/customers.csv | head -80", "data"),
    ("sqlite_no_such_table", "sqlite3 data/billing.db 'SELECT sum(net_cents) FROM invoice'; echo exit=$?", "data"),
    (
        "sqlite_overdue_column",
        'sqlite3 -header -column data/billing.db "SELECT i.number, c.name, c.country, i.net_cents / 100.0 AS net, i.due_date FROM overdue i JOIN customers c ON c.id = i.customer_id ORDER BY i.due_date"',
        "data",
    ),
    (
        "sqlite_top_customers",
        "sqlite3 -header -column data/billing.db 'SELECT c.id, c.name, c.country, count(*) AS invoices, sum(i.net_cents) / 100 AS net_eur FROM invoices i JOIN customers c ON c.id = i.customer_id GROUP BY c.id ORDER BY net_eur DESC LIMIT 40'",
        "data",
    ),
    ("sqlite_dump_customers", "sqlite3 data/billing.db '.dump customers'", "data"),
    (
        "sqlite_csv_since_may",
        "sqlite3 -header -csv data/billing.db \"SELECT number, customer_id, net_cents, status, due_date FROM invoices WHERE issued >= '2026-05-01' ORDER BY issued\"",
        "data",
    ),
    (
        "sqlite_count_by_status",
        "sqlite3 -header -column data/billing.db 'SELECT status, count(*) AS n, sum(net_cents) / 100 AS net_eur FROM invoices GROUP BY status'",
        "data",
    ),
    ("json_tool_invoice", "python -m json.tool --indent 2 data/invoice.json", "data"),
    ("jq_big_refunds", "jq '.[] | select(.amount > 300)' data/refunds.json", "data"),
    (
        "awk_sum_by_status",
        "awk -F, 'NR > 1 { s[$4] += $5 } END { for (k in s) printf \"%s %.2f\\n\", k, s[k] }' data/payments.csv | sort",
        "data",
    ),
    ("grep_failed_payments", "grep -n ',failed,' data/payments.csv | head -40", "data"),
    (
        "pandas_groupby_methods",
        "python -c \"import pandas as pd; df = pd.read_csv('data/payments.csv'); print(df.groupby(['method', 'status'])['amount'].agg(['count', 'sum', 'mean']).round(2))\"",
        "data",
    ),
    (
        "pandas_sample_40",
        "python -c \"import pandas as pd; print(pd.read_csv('data/payments.csv').sample(40, random_state=1).to_string())\"",
        "data",
    ),
    ("nbconvert_script_stdout", "jupyter nbconvert --to script --stdout data/refunds_summary.ipynb", "data"),
    (
        "nbconvert_inplace_error",
        "cd data && jupyter nbconvert --to notebook --execute --inplace payment_fees.ipynb; echo exit=$?",
        "data",
    ),
    # -- node package
    ("npm_install_deps", "npm install --no-audit minimist@1.2.5 kleur@3.0.3 ms@2.1.3", "node/slugmint"),
    ("npm_outdated_exit", "npm outdated; echo exit=$?", "node/slugmint"),
    ("npm_audit", "npm audit", "node/slugmint"),
    ("npm_pack_dry_run", "npm pack --dry-run", "node/slugmint"),
    ("node_test_spec", "node --test --test-reporter=spec", "node/slugmint"),
    ("node_test_one_file", "node --test test/slug.test.js", "node/slugmint"),
    ("npm_run_lint_fail", "npm run lint", "node/slugmint"),
    ("node_syntax_error", "node src/broken.js", "node/slugmint"),
    ("grep_kleur_exports", "grep -rn 'module.exports' node_modules/kleur node_modules/ms", "node/slugmint"),
    ("find_node_modules_files", "find node_modules -type f | sort", "node/slugmint"),
    ("ls_laR_node_modules", "ls -laR node_modules", "node/slugmint"),
    # -- Rust
    ("cargo_build_warning", "cd ratecard && cargo build", "rs"),
    ("cargo_test_one_fails", "cd ratecard && cargo test", "rs"),
    ("cargo_test_filter_lib", "cd ratecard && cargo test --lib tiers", "rs"),
    ("cargo_clippy_all_targets", "cd ratecard && cargo clippy --all-targets", "rs"),
    (
        "cargo_metadata_targets",
        "cd ratecard && cargo metadata --format-version 1 --no-deps | jq '.packages[0].targets'",
        "rs",
    ),
    ("cargo_fmt_check", "cd ratecard && cargo fmt --check", "rs"),
    ("cargo_check_type_error", "cd meterd && cargo check", "rs"),
    # -- C
    ("gcc_wall_run", "gcc -Wall -Wextra -o crc crc.c && ./crc", "c/crc"),
    ("make_clean_all", "make clean all", "c/crc"),
    # -- git
    ("git_log_graph_oneline", "git --no-pager log --oneline --graph --all", "git/fieldnotes"),
    ("git_show_conversion", "git --no-pager show HEAD~5", "git/fieldnotes"),
    ("git_log_fuller", "git --no-pager log --format=fuller -4", "git/fieldnotes"),
    ("git_diff_src_range", "git --no-pager diff v0.1 main -- src", "git/fieldnotes"),
    ("git_log_stat_all", "git --no-pager log --stat --all", "git/fieldnotes"),
    ("git_log_patch_follow", "git --no-pager log -p --follow -- src/tides.py", "git/fieldnotes"),
    ("git_diff_cached", "git --no-pager diff --cached", "git/fieldnotes"),
    ("git_stash_show", "git stash list && git --no-pager stash show -p stash@{0}", "git/fieldnotes"),
    ("git_branch_vv", "git branch -vv", "git/fieldnotes"),
    ("git_cherry_pick_conflict", "git cherry-pick origin/hotfix/readme-units; echo exit=$?", "git/pick"),
    ("git_bisect_run", "git bisect start HEAD v0.1 && git bisect run python check.py; git bisect reset", "git/bisect"),
    # -- searches in vendored code, web
    ("grep_warn_pandas", f"grep -rn --include='*.py' 'warnings.warn(' {SITE}/pandas", ""),
    ("curl_head", "curl -sI http://127.0.0.1:{port}/invoices/2026-11.csv", "web"),
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def main() -> None:
    port = str(free_port())

    def prepare(root: Path, only: set[str]) -> list[subprocess.Popen[bytes]]:
        return [CORPUS.serve(root / "web", int(port))]

    CORPUS.record_corpus(
        "tune-e-",
        BUILDERS,
        SAMPLES,
        prepare=prepare,
        fill=lambda command: command.replace("{port}", port).replace("{{", "{").replace("}}", "}"),
        split=True,
    )


if __name__ == "__main__":
    main()
