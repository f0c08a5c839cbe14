# ruff: noqa: E501 - the commands recorded here are written out whole; random only makes sample data
"""Record the fourth HELD-APART filter corpus (D): real output of real tools, apart from every other corpus.

    python -m bench.make_heldout_d            # (re)records tests/data/filter_heldout_d/*.json, keeps the judgement
    python -m bench.make_heldout_d NAME...    # re-records only those samples
    python -m bench.make_heldout_d --apply    # copies JUDGED.json (must_keep, why) into the samples
    python -m bench.make_heldout_d --check    # checks that every judged must_keep line occurs in its output

Never tune an output filter on this corpus, nor read its losses while changing one: it exists to measure the filters
on outputs nobody tuned them on. It was recorded and judged by someone who had not read the filters. Each sample
stores the command, its exit code, its combined stdout+stderr, and a judgement made by reading the output before any
filter ran on it: ``why`` and ``must_keep`` (lines verbatim from ``output.splitlines()``). The judgement lives in
``JUDGED.json`` so that re-recording keeps it; judged lines a re-recording no longer prints (pids, timings, sizes,
dates) are dropped from the sample and reported, and must be judged again by reading.

Commands, flags and projects were chosen not to be in the bench corpus, A, B or C (by their ``command`` fields).
"""

from __future__ import annotations

import random
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from bench import heldout_d_programs as P
from bench.recording import Corpus, write

CORPUS = Corpus.start(__file__, "filter_heldout_d", ("Mara Lind", "mara@example.com"))
OUT, VENV, SCRATCH, ENV = CORPUS.out, CORPUS.venv, CORPUS.scratch, CORPUS.env
JUDGED = OUT / "JUDGED.json"
SITE_ABS = VENV / "lib" / "python3.11" / "site-packages"
SITE = ".venv/lib/python3.11/site-packages"
record, run = CORPUS.record, CORPUS.run


# ------------------------------------------------------------------------------------------------------ builders
def python_apps(root: Path) -> None:
    write(root, P.PY)
    (root / "inventory.json").write_text(P.inventory_json())
    (root / "jobs.json").write_text(P.jobs_json())
    (root / "worker.py").write_text("import sys, time\nwhile True:\n    time.sleep(60)\n")
    # A log folder for `grep -c`: the access log the dev server prints, the ETL job's log, a quiet one.
    logs = root / "logs"
    logs.mkdir()
    for script, log in (("runserver.py", "access.log"), ("etl_pipeline.py", "etl.log"), ("journal.py", "worker.log")):
        with open(logs / log, "wb") as fh:
            subprocess.run(
                [sys.executable, script], cwd=root, env=ENV, stdout=fh, stderr=subprocess.STDOUT, check=False
            )
    (logs / "cron.log").write_text("".join(f"2026-11-26 0{h}:00:01 cron: backup done\n" for h in range(8)))
    shutil.copy(logs / "access.log", root / "access.log")
    make_shop_db(root / "shop.db")
    (root / "forecast.ipynb").write_text(P.forecast_notebook())
    run(root, "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "key.pem", "-out", "cert.pem",
        "-days", "365", "-subj", "/C=DE/ST=Berlin/O=Example Shop GmbH/CN=shop.internal",
        "-addext", "subjectAltName=DNS:shop.internal,DNS:localhost,IP:127.0.0.1")  # fmt: skip


def make_shop_db(path: Path) -> None:
    rng = random.Random(12)
    db = sqlite3.connect(path)
    db.executescript(
        """
        CREATE TABLE customers (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE, name TEXT, country TEXT NOT NULL,
                                created_at TEXT DEFAULT CURRENT_TIMESTAMP);
        CREATE TABLE products (id INTEGER PRIMARY KEY, sku TEXT NOT NULL UNIQUE, title TEXT NOT NULL,
                               price_cents INTEGER NOT NULL CHECK (price_cents >= 0), active INTEGER DEFAULT 1);
        CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id),
                             status TEXT NOT NULL CHECK (status IN ('new','paid','shipped','refunded','cancelled')),
                             total_cents INTEGER NOT NULL, placed_at TEXT NOT NULL);
        CREATE TABLE order_items (order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
                                  product_id INTEGER NOT NULL REFERENCES products(id), qty INTEGER NOT NULL,
                                  PRIMARY KEY (order_id, product_id));
        CREATE TABLE audit_log (id INTEGER PRIMARY KEY AUTOINCREMENT, entity TEXT, entity_id INTEGER, action TEXT,
                                at TEXT DEFAULT CURRENT_TIMESTAMP);
        CREATE INDEX idx_orders_customer ON orders(customer_id);
        CREATE INDEX idx_orders_status_placed ON orders(status, placed_at);
        CREATE VIEW revenue_by_country AS
            SELECT c.country, count(o.id) AS orders, sum(o.total_cents) / 100.0 AS revenue
            FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.status IN ('paid', 'shipped')
            GROUP BY c.country;
        CREATE TRIGGER orders_audit AFTER UPDATE OF status ON orders
        BEGIN
            INSERT INTO audit_log (entity, entity_id, action) VALUES ('order', NEW.id, 'status:' || NEW.status);
        END;
        """
    )
    countries = ["DE", "FR", "NL", "AT", "IT", "ES", "PL", "BE"]
    for i in range(1, 201):
        db.execute("INSERT INTO customers (id, email, name, country, created_at) VALUES (?, ?, ?, ?, ?)",
                   (i, f"user{i}@example.com", f"Customer {i}", rng.choice(countries), f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"))  # fmt: skip
    for i in range(1, 41):
        db.execute(
            "INSERT INTO products VALUES (?, ?, ?, ?, ?)",
            (i, f"SKU-{1000 + i}", f"Product {i}", rng.randint(199, 19999), 1),
        )
    for i in range(1, 1201):
        db.execute("INSERT INTO orders VALUES (?, ?, ?, ?, ?)",
                   (i, rng.randint(1, 200), rng.choice(["new", "paid", "paid", "shipped", "shipped", "refunded", "cancelled"]),
                    rng.randint(500, 60000), f"2026-{rng.randint(1, 11):02d}-{rng.randint(1, 28):02d}"))  # fmt: skip
    db.commit()
    db.close()


def tools_env(root: Path) -> None:
    """A throwaway venv with tools the project venv lacks, installed from the registry (pip prints real lines)."""
    run(root, sys.executable, "-m", "venv", "venv")
    run(
        root,
        "venv/bin/pip",
        "install",
        "--no-cache-dir",
        "hypothesis",
        "black",
        "isort",
        "pylint",
        "pytest",
        "tqdm==4.66.4",
    )
    write(root, {"train.py": P.PY["train.py"]})
    write(root / "props", P.PROPS_PROJECT)
    (root / "requirements.txt").write_text("black\nisort>=5\npylint\nhypothesis\ntqdm==4.66.4\n")


def test_projects(root: Path) -> None:
    write(root / "shipping", P.shipping_project())
    write(root / "shipping", {"carriers/ups.json": '{"url": "https://track.example/ups/{code}"}\n'})
    # a first full run, so that `--lf` has failures to re-run
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q"], cwd=root / "shipping", env=ENV, capture_output=True, check=False
    )
    write(root / "suite", P.UNITTEST_PROJECT)


def lint_projects(root: Path) -> None:
    write(root, P.GEO_PACKAGE)
    for package in ("mistune", "bleach"):
        shutil.copytree(SITE_ABS / package, root / package, ignore=shutil.ignore_patterns("__pycache__"))
    (root / "venv").symlink_to(root.parent / "tools" / "venv")


def node_project(root: Path) -> None:
    write(root, P.NODE_PROJECT)


def rust_projects(root: Path) -> None:
    for name, files in P.RUST_CRATES.items():
        write(
            root / name,
            {
                "Cargo.toml": f'[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
                **files,
            },
        )


def c_projects(root: Path) -> None:
    write(root / "pktd", P.C_PROJECT)
    write(root / "imgstat", P.CMAKE_PROJECT)
    run(root / "imgstat", "gcc", "-g", "-O0", "src/leaky.c", "-o", "leaky")


def java_projects(root: Path) -> None:
    write(root / "broken", P.JAVA_BROKEN)
    write(root / "orders", P.JAVA_OK)


def git_repos(root: Path) -> None:
    """A repo with a history by several people (markdown_it's sources as the project), a dirty work tree, and a
    small second repo whose feature branch conflicts with main on rebase."""
    repo = root / "mdtool"
    repo.mkdir()
    run(repo, "git", "init", "-q", "-b", "main")
    shutil.copytree(
        SITE_ABS / "markdown_it", repo / "src" / "markdown_it", ignore=shutil.ignore_patterns("__pycache__")
    )
    write(
        repo,
        {
            "README.md": "# mdtool\n\nMarkdown rendering service.\n",
            "pyproject.toml": '[project]\nname = "mdtool"\nversion = "0.1.0"\n',
        },
    )
    people = [("Mara Lind", "mara@example.com"), ("Tomasz Nowak", "tomasz@example.com"), ("Ines Duarte", "ines@example.com"),
              ("Kwame Mensah", "kwame@example.com")]  # fmt: skip

    def commit(message: str, who: int, day: int) -> None:
        name, email = people[who]
        env = {**ENV, "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email, "GIT_COMMITTER_NAME": name,
               "GIT_COMMITTER_EMAIL": email, "GIT_AUTHOR_DATE": f"2026-11-{day:02d}T10:{day:02d}:00+01:00",
               "GIT_COMMITTER_DATE": f"2026-11-{day:02d}T10:{day:02d}:00+01:00"}  # fmt: skip
        run(repo, "git", "add", "-A", env=env)
        run(repo, "git", "commit", "-q", "-m", message, env=env)

    commit("Import markdown_it as the rendering core", 0, 2)
    src = repo / "src" / "markdown_it"

    def edit(rel: str, old: str, new: str, count: int = 1) -> None:
        path = src / rel
        text = path.read_text()
        assert old in text, (rel, old)
        path.write_text(text.replace(old, new, count))

    edit(
        "ruler.py",
        "class Ruler(Generic[RuleFuncTv]):",
        "class Ruler(Generic[RuleFuncTv]):\n    # rules are looked up by name on every render; keep the cache small\n",
    )
    commit("ruler: note on cache size", 1, 4)
    edit("ruler.py", "def __init__(self) -> None:", "def __init__(self) -> None:\n        self._lookups = 0")
    edit("main.py", "def render(", "def render(  # noqa: D102\n")
    commit("Count rule lookups for the /metrics endpoint", 2, 6)
    edit(
        "ruler.py",
        "    def __find__(self, name: str) -> int:",
        "    def __find__(self, name: str) -> int:\n        self._lookups += 1",
    )
    (repo / "src" / "mdtool_service.py").write_text(
        "from markdown_it import MarkdownIt\n\nmd = MarkdownIt('commonmark')\n\n\ndef render(text: str) -> str:\n    return md.render(text)\n"
    )
    commit("Add the service entry point", 0, 9)
    edit(
        "utils.py",
        "from __future__ import annotations",
        "from __future__ import annotations\n\nimport logging\n\nlog = logging.getLogger(__name__)",
    )
    commit("utils: module logger", 3, 11)
    edit(
        "renderer.py",
        '        result = ""',
        '        result = ""  # built up piecewise; joined once at the end would be faster',
    )
    edit(
        "ruler.py",
        "# rules are looked up by name on every render; keep the cache small",
        "# rules are looked up by name on every render; the cache is rebuilt lazily",
    )
    commit("Clarify comments in renderer and ruler", 1, 14)
    (src / "presets" / "zero.py").unlink()
    edit("presets/__init__.py", "from . import commonmark, default, zero", "from . import commonmark, default")
    edit(
        "presets/__init__.py",
        "js_default = default",
        "js_default = default\nzero = commonmark  # zero preset removed; alias kept for callers",
    )
    commit("Drop the zero preset (unused by the service)", 2, 17)
    (repo / "src" / "mdtool_service.py").write_text(
        "import logging\n\nfrom markdown_it import MarkdownIt\n\nlog = logging.getLogger('mdtool')\nmd = MarkdownIt('commonmark', {'html': False})\n\n\ndef render(text: str) -> str:\n    log.debug('render %d chars', len(text))\n    return md.render(text)\n"
    )
    commit("Service: disable raw HTML, log render sizes", 3, 20)
    edit("ruler.py", "        self._lookups = 0", "        self._lookups = 0\n        self._misses = 0")
    commit("ruler: count cache misses too", 0, 23)
    # the work tree before a commit: edits, a staged rename, deletions, new untracked files
    edit(
        "parser_block.py",
        "from __future__ import annotations",
        "from __future__ import annotations\n# TODO: table plugin hook",
    )
    edit(
        "parser_inline.py",
        "from __future__ import annotations",
        "from __future__ import annotations\n# TODO: strikethrough hook",
    )
    for rel in (
        "token.py",
        "tree.py",
        "helpers/parse_link_label.py",
        "rules_block/table.py",
        "rules_inline/emphasis.py",
    ):
        (src / rel).write_text((src / rel).read_text() + "\n# reviewed 2026-11-25\n")
    run(repo, "git", "mv", "src/markdown_it/cli/parse.py", "src/markdown_it/cli/main.py")
    (src / "port.yaml").unlink()
    (src / "rules_core" / "smartquotes.py").unlink()
    for rel in ("tests/test_service.py", "tests/test_ruler.py", "tests/conftest.py", "tests/fixtures/basic.md",
                "tests/fixtures/tables.md", "tests/fixtures/links.md", "docs/index.md", "docs/api.md", "docs/deploy.md",
                "scripts/bench.py", "scripts/release.sh", ".env.example", "Dockerfile", "notes/ideas.txt"):  # fmt: skip
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(f"# {rel}\n")

    cfg = root / "cfg"
    cfg.mkdir()
    run(cfg, "git", "init", "-q", "-b", "main")
    write(cfg, {"settings.py": "DEBUG = False\nTIMEOUT_S = 30\nMAX_RETRIES = 3\nALLOWED_HOSTS = ['shop.example.com']\n",
                "README.md": "# settings\n"})  # fmt: skip
    run(cfg, "git", "add", ".")
    run(cfg, "git", "commit", "-q", "-m", "Initial settings")
    run(cfg, "git", "checkout", "-q", "-b", "feature/timeouts")
    write(
        cfg, {"settings.py": "DEBUG = False\nTIMEOUT_S = 90\nMAX_RETRIES = 3\nALLOWED_HOSTS = ['shop.example.com']\n"}
    )
    run(cfg, "git", "commit", "-q", "-am", "Raise the timeout for slow payment providers")
    write(cfg, {"README.md": "# settings\n\nTIMEOUT_S is in seconds.\n"})
    run(cfg, "git", "commit", "-q", "-am", "Document TIMEOUT_S")
    run(cfg, "git", "checkout", "-q", "main")
    write(
        cfg, {"settings.py": "DEBUG = False\nTIMEOUT_S = 15\nMAX_RETRIES = 5\nALLOWED_HOSTS = ['shop.example.com']\n"}
    )
    run(cfg, "git", "commit", "-q", "-am", "Fail fast and retry more")
    run(cfg, "git", "checkout", "-q", "feature/timeouts")


BUILDERS: dict[str, Callable[[Path], None]] = {
    "py": python_apps,
    "tools": tools_env,
    "tests": test_projects,
    "lint": lint_projects,
    "node": node_project,
    "rs": rust_projects,
    "c": c_projects,
    "java": java_projects,
    "git": git_repos,
}

# name, command, folder it runs in (relative to the temp root; absolute for a system folder)
SAMPLES: list[tuple[str, str, str]] = [
    # -- application output: logs, tracebacks, tables, profiles
    ("etl_log_exit", "python etl_pipeline.py; echo exit=$?", "py"),
    ("runserver_log", "python runserver.py", "py"),
    ("chained_config_error", "python load_config.py", "py"),
    ("pandas_300_rows", "python region_table.py", "py"),
    ("json_tool_sort_keys", "python -m json.tool --sort-keys inventory.json", "py"),
    (
        "timeit_json",
        "python -m timeit -n 2000 -r 5 -s 'import json; d = {\"k\": list(range(200))}' 'json.dumps(d)'",
        "py",
    ),
    ("cprofile_tottime", "python -m cProfile -s tottime pricing_sim.py", "py"),
    ("journal_unit", "python journal.py -u orders-worker --since today", "py"),
    ("status_counts", "grep -o '\" [0-9][0-9][0-9] ' access.log | sort | uniq -c | sort -rn", "py"),
    ("grep_c_logs", "grep -c -E 'ERROR|Traceback' logs/*.log", "py"),
    ("tqdm_epochs", "venv/bin/python train.py", "tools"),
    ("sqlite_schema", "sqlite3 shop.db .schema", "py"),
    (
        "sqlite_box",
        'sqlite3 -box shop.db "SELECT c.country, o.status, count(*) AS orders, round(sum(o.total_cents) / 100.0, 2) AS eur FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY 1, 2 ORDER BY 1, 2"',
        "py",
    ),
    (
        "sqlite_csv_refunds",
        "sqlite3 -header -csv shop.db \"SELECT id, customer_id, total_cents, placed_at FROM orders WHERE status = 'refunded' ORDER BY placed_at\"",
        "py",
    ),
    ("jq_failed_jobs", "jq -c '.[] | select(.status == \"failed\")' jobs.json", "py"),
    ("openssl_x509_text", "openssl x509 -in cert.pem -noout -text", "py"),
    ("strace_settings", "strace -e trace=openat,newfstatat python read_settings.py", "py"),
    ("tail_access_log", "tail -n 400 logs/access.log", "py"),
    ("ps_auxww_grep", "ps auxww | grep '[w]orker.py'", "py"),
    # -- tests
    ("pytest_param_tb_short", "python -m pytest -q --tb=short tests/test_rates.py", "tests/shipping"),
    ("pytest_lf_verbose", "python -m pytest --lf -v", "tests/shipping"),
    ("pytest_collect_tree", "python -m pytest -p no:cacheprovider --collect-only", "tests/shipping"),
    ("pytest_deprecation_warnings", "python -m pytest -p no:cacheprovider -q -k legacy", "tests/shipping"),
    ("pytest_maxfail_head", "python -m pytest -p no:cacheprovider --maxfail=4 2>&1 | head -100", "tests/shipping"),
    (
        "pytest_vv_native",
        "python -m pytest -p no:cacheprovider -vv --tb=native tests/test_rates.py tests/test_labels.py tests/test_tracking.py",
        "tests/shipping",
    ),
    (
        "pytest_fixture_error_exit",
        "python -m pytest -p no:cacheprovider -q tests/test_tracking.py; echo exit=$?",
        "tests/shipping",
    ),
    ("pytest_showlocals", "python -m pytest -p no:cacheprovider -l tests/test_labels.py", "tests/shipping"),
    ("pytest_matrix_rxs", "python -m pytest -p no:cacheprovider -v -rxXs tests/test_matrix.py", "tests/shipping"),
    ("pytest_hypothesis", "venv/bin/python -m pytest -p no:cacheprovider -q props/test_props.py", "tools"),
    ("unittest_locals", "python -m unittest --locals -v", "tests/suite"),
    # -- pip against the registry, in a throwaway venv
    ("pip_install_editable", "venv/bin/pip install -e ../tests/shipping", "tools"),
    ("pip_requirements_satisfied", "venv/bin/pip install -r requirements.txt", "tools"),
    ("pip_list_outdated", "venv/bin/pip list --outdated", "tools"),
    ("pip_show_linters", "venv/bin/pip show black isort pylint astroid", "tools"),
    ("pip_download_no_deps", "venv/bin/pip download --no-deps -d wheels attrs==23.2.0 packaging==24.1", "tools"),
    # -- linters and type checkers
    ("mypy_pretty", "mypy --pretty --no-incremental geo", "lint"),
    ("mypy_untyped_defs", "mypy --no-incremental --disallow-untyped-defs --warn-return-any bleach", "lint"),
    ("ruff_grouped", "ruff check --no-cache --select D,N,ANN,ARG,RET --output-format=grouped mistune", "lint"),
    ("ruff_diff", "ruff check --no-cache --select I,UP,F401 --diff geo", "lint"),
    ("pylint_geo", "venv/bin/pylint geo", "lint"),
    ("pylint_mistune_plugins", "venv/bin/pylint mistune/plugins", "lint"),
    ("ruff_pylint_format", "ruff check --no-cache --select E,W,F --output-format=pylint bleach", "lint"),
    ("black_check_diff", "venv/bin/black --check --diff geo mistune/plugins", "lint"),
    ("isort_check_diff", "venv/bin/isort --check-only --diff geo mistune/renderers", "lint"),
    # -- node and TypeScript
    ("npm_install_typescript", "npm install --no-audit", "node"),
    ("npm_typecheck", "npm run typecheck", "node"),
    ("npm_test_spec", "npm run test:ci", "node"),
    ("node_migrate_crash", "node scripts/migrate.js; echo exit=$?", "node"),
    ("ls_typescript_lib", "ls -la node_modules/typescript/lib", "node"),
    # -- Rust
    ("cargo_build_borrow_error", "cd invoice && cargo build", "rs"),
    ("cargo_check_short", "cd invoice && cargo check --message-format=short", "rs"),
    ("cargo_test_quiet", "cd tally && cargo test -q", "rs"),
    ("cargo_run_err", "cd csvsum && cargo run -q -- data.csv; echo exit=$?", "rs"),
    # -- C, CMake, valgrind, Java
    ("make_recursive_compile_error", "make", "c/pktd"),
    ("cmake_configure", "cmake -S . -B build -G Ninja", "c/imgstat"),
    ("cmake_build_warnings", "cmake --build build", "c/imgstat"),
    (
        "valgrind_leak_check",
        "valgrind --leak-check=full --show-leak-kinds=all --track-origins=yes ./leaky",
        "c/imgstat",
    ),
    ("javac_errors", "javac -d out src/app/*.java", "java/broken"),
    ("java_exception_cause", "javac -d out src/app/*.java && java -cp out app.Main", "java/orders"),
    # -- git
    ("git_status_all_untracked", "git status --untracked-files=all", "git/mdtool"),
    ("git_diff_stat_range", "git --no-pager diff --stat HEAD~8 HEAD", "git/mdtool"),
    ("git_log_name_status", "git --no-pager log --name-status", "git/mdtool"),
    ("rg_context", "rg -n -C2 'raise (ValueError|TypeError)' src/markdown_it", "git/mdtool"),
    ("git_blame_ruler", "git --no-pager blame src/markdown_it/ruler.py", "git/mdtool"),
    ("git_diff_head_150", "git --no-pager diff HEAD~7 HEAD -- src | head -150", "git/mdtool"),
    ("git_shortlog", "git --no-pager shortlog -sne HEAD", "git/mdtool"),
    ("git_rebase_conflict", "git rebase main", "git/cfg"),
    # -- files, packages, system
    ("xargs_wc_sort_tail", "find src -name '*.py' | xargs wc -l | sort -n | tail -40", "git/mdtool"),
    ("tar_czvf", "tar -czvf ../vendor.tgz --exclude=__pycache__ geo bleach mistune", "lint"),
    ("nbconvert_markdown_error", "jupyter nbconvert --execute --to markdown --stdout forecast.ipynb", "py"),
    ("find_pyi_head_200", f"find {SITE}/numpy -type f -name '*.pyi' | head -n 200", ""),
    ("du_sort_head", f"du -sh {SITE}/* | sort -rh | head -25", ""),
    ("dpkg_l_head_150", "dpkg -l | head -n 150", ""),
    ("apt_cache_policy", "apt-cache policy python3 git openssl", ""),
]


def main() -> None:
    def prepare(root: Path, only: set[str]) -> list[subprocess.Popen[bytes]]:
        (root / "py" / "venv").symlink_to(root / "tools" / "venv")
        # processes for `ps aux | grep` to find: the recorder's own workers (the rest of `ps aux` is the machine's)
        return [
            subprocess.Popen(
                [sys.executable, "worker.py", "--queue", queue], cwd=root / "py", env=ENV, start_new_session=True
            )
            for queue in ("orders", "refunds", "emails")
        ]

    CORPUS.record_corpus("heldout-d-", BUILDERS, SAMPLES, prepare=prepare)


if __name__ == "__main__":
    main()
