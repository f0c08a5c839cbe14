# ruff: noqa: E501 - the programs recorded here are written out whole, as their long lines print
"""Record the held-apart filter corpus: real outputs of commands and projects the bench corpus does not have.

    python -m bench.make_heldout            # (re)writes tests/data/filter_heldout/<name>.json
    python -m bench.make_heldout --check    # every judged line still occurs in its output

The lines a person needs from each output were judged by reading it, before any filter ran on it, and are kept in
``JUDGED.json``; re-recording keeps a judged line that still occurs and names the ones that no longer do (judge
those again by reading). Never tune a rule on this corpus (``tests/data/filter_heldout/README.md``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "filter_heldout"
JUDGED = OUT / "JUDGED.json"
ENV = {
    "PATH": f"{Path(sys.executable).parent}:{os.environ.get('HOME', '/root')}/.cargo/bin:/usr/local/bin:/usr/bin:/bin",
    "HOME": os.environ.get("HOME", "/root"),
    "LANG": "C.UTF-8",
    "NO_COLOR": "1",
    "CARGO_TERM_COLOR": "never",
    "PYTHONDONTWRITEBYTECODE": "1",
    "CARGO_NET_OFFLINE": "true",
}
PREFIX = str(Path(sys.prefix))  # the virtualenv the commands run in, written /work/project/.venv in the samples
SITE = Path(PREFIX) / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}"


def record(name: str, command: str, cwd: Path, timeout: int = 600) -> None:
    result = subprocess.run(["bash", "-c", f"{command} 2>&1"], cwd=cwd, env=ENV, capture_output=True, text=True,
                            timeout=timeout, check=False)  # fmt: skip
    output = result.stdout.replace(PREFIX, "/work/project/.venv").replace(str(cwd), "/work/project")
    sample = {"command": command.replace(PREFIX, "/work/project/.venv").replace(str(cwd), "/work/project"),
              "exit_code": result.returncode, "output": output}  # fmt: skip
    (OUT / f"{name}.json").write_text(json.dumps(sample, indent=1, ensure_ascii=False) + "\n")
    print(f"{name:28s} exit {result.returncode:3d} {len(output):8d} chars {output.count(chr(10)):6d} lines")


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


APP = """\
import random, sys, time
rng = random.Random(11)
t0 = 1764000000
for i in range(1400):
    ts = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(t0 + i)) + f",{rng.randrange(1000):03d}"
    kind = rng.random()
    if kind < 0.55:
        print(f"{ts} INFO  [worker-{rng.randrange(8)}] processed batch {i} rows={rng.randrange(900, 1100)} in {rng.randrange(5, 90)}ms")
    elif kind < 0.85:
        print(f"{ts} DEBUG [pool] connection {rng.randrange(16)} returned to pool (idle={rng.randrange(16)})")
    else:
        print(f"{ts} INFO  [http] GET /api/v2/orders/{rng.randrange(10**6)} 200 {rng.randrange(2, 40)}ms")
    if i == 700:
        print(f"{ts} ERROR [worker-3] batch {i} failed")
        print("Traceback (most recent call last):")
        print('  File "/srv/app/pipeline.py", line 88, in run_batch')
        print("    rows = transform(chunk)")
        print('  File "/srv/app/transform.py", line 41, in transform')
        print("    return [normalize(r) for r in rows]")
        print('  File "/srv/app/transform.py", line 29, in normalize')
        print("    amount = Decimal(row['amount'])")
        print("decimal.InvalidOperation: [<class 'decimal.ConversionSyntax'>]")
print("shutting down: 1399 batches, 1 failed")
sys.exit(1)
"""

TRAIN = """\
import sys, random
rng = random.Random(5)
loss = 2.3
for epoch in range(1, 4):
    for step in range(0, 101, 4):
        loss *= 0.995
        bar = "#" * (step // 10)
        sys.stdout.write(f"\\rEpoch {epoch}/3: {step:3d}%|{bar:<10}| {step * 4}/400 [00:{step // 10:02d}<00:10, 41.2it/s, loss={loss:.4f}]")
        sys.stdout.flush()
    sys.stdout.write("\\n")
    print(f"epoch {epoch}: train_loss={loss:.4f} val_loss={loss * 1.1:.4f} val_acc={0.7 + epoch * 0.05:.3f}")
print("saved checkpoint to runs/exp3/model.pt")
"""


def python_projects(root: Path) -> None:
    tests = root / "calc"
    write(tests, {
        "calc/__init__.py": "",
        "calc/ops.py": """\
            def add(a, b):
                return a + b

            def div(a, b):
                return a / b

            def mean(xs):
                return sum(xs) / len(xs)
            """,
        "tests/test_ops.py": "from calc.ops import add, div, mean\n\n"
        + "".join(f"def test_add_{i}():\n    assert add({i}, 1) == {i + 1}\n\n" for i in range(40))
        + "def test_div_zero():\n    assert div(1, 0) == 0\n\n"
        + "def test_mean_empty():\n    assert mean([]) == 0\n\n"
        + "def test_mean():\n    assert mean([1, 2, 4]) == 2\n",
    })  # fmt: skip
    record("pytest_x", "python -m pytest -x", tests)
    record("pytest_tb_line", "python -m pytest --tb=line -q", tests)
    record("pytest_ra", "python -m pytest -rA -q", tests)
    record("pytest_tail", "cd /work/project && python -m pytest 2>&1 | tail -25".replace("/work/project", str(tests)),
           root)  # fmt: skip
    record("unittest_discover", "python -m unittest discover -s tests -v", tests)

    app = root / "svc"
    write(app, {"app.py": APP, "train.py": TRAIN})
    record("app_log", "cd svc && python app.py", root)
    record("train_progress", "python train.py", app)

    lint = root / "lintme"
    write(lint, {
        "pkg/__init__.py": "",
        "pkg/a.py": "import os, sys\nimport json\n\ndef f(x):\n    if x == None:\n        return []\n    l = [1]\n"
        "    return l\n\ndef g(y: int) -> str:\n    return y\n",
        "pkg/b.py": "from typing import *\n\ndef h(a, b=[]):\n    b.append(a)\n    return b\n\n"
        "def k(n: int) -> int:\n    return str(n)\n\nx: int = 'a'\n",
    })  # fmt: skip
    record("ruff_fixable", "ruff check --select E,F,B,UP,I pkg", lint)
    record("ruff_stats", "ruff check --select E,F,B,UP --statistics pkg", lint)
    record("mypy_strict", "mypy --strict --no-incremental pkg", lint)
    record("pip_list", "pip list --format=columns", root)
    record("pip_show", "pip show duckdb pandas", root)
    record("pip_check", "pip check", root)
    record("pip_install_again", "pip install --no-index duckdb pandas", root)
    record("pip_install_missing", "pip install --no-index ./no-such-package", root)

    nb = root / "nb"
    cell = lambda source: {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,  # noqa: E731
                           "source": source}  # fmt: skip
    meta = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
    ok = {"cells": [cell("x = sum(range(10))\nprint(x)"), cell("x * 2")], "metadata": meta, "nbformat": 4,
          "nbformat_minor": 5}  # fmt: skip
    bad = {"cells": [cell("import math\nprint(math.pi)"), cell("rows = {'a': 1}\nrows['b']")], "metadata": meta,
           "nbformat": 4, "nbformat_minor": 5}  # fmt: skip
    nb.mkdir()
    (nb / "ok.ipynb").write_text(json.dumps(ok))
    (nb / "bad.ipynb").write_text(json.dumps(bad))
    record("nbconvert_ok", "jupyter nbconvert --to notebook --execute ok.ipynb --output ok.out.ipynb", nb)
    record("nbconvert_error", "jupyter nbconvert --to notebook --execute bad.ipynb --output bad.out.ipynb", nb)
    record(
        "python_table",
        'python -c "import pandas as pd, numpy as np; rng = np.random.default_rng(1); '
        "print(pd.DataFrame(rng.integers(0, 1000, (40, 5)), columns=list('abcde')).describe())\"",
        root,
    )
    record("sqlite_table", "sqlite3 -header -column :memory: \"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
           "SELECT i + 1 FROM n WHERE i < 60) SELECT i AS id, 'user' || i AS name, i * 37 % 100 AS score "
           "FROM n;\"", root)  # fmt: skip


def vendored(root: Path) -> None:
    site = SITE / "site-packages"
    record("find_in_site_packages", f"find {site}/httpx -name '*.py' | sort", root)
    record("grep_in_site_packages",
           f"grep -rn 'raise NotImplementedError' {site}/httpx {site}/anyio | head -120", root)  # fmt: skip
    record("grep_count_vendored", f"grep -rc 'def ' {site}/pydantic/v1 | sort -t: -k2 -n | tail -20", root)
    record("find_newer", f"find {site}/wcmatch -type f -newer {site}/wcmatch/__init__.py | head -30", root)
    record("ls_la_big", f"ls -la {site}/pandas/core", root)
    record("du_sh", f"cd {site} && du -sh pandas numpy duckdb pydantic jupyterlab 2>/dev/null | sort -h", root)
    record("wc_files", f"wc -l {site}/httpx/*.py", root)
    record("tar_tv", f"tar -cf - -C {site} wcmatch 2>/dev/null | tar -tvf - | head -60", root)


def rust(root: Path) -> None:
    if shutil.which("cargo", path=ENV["PATH"]) is None:
        print("cargo missing: rust samples skipped")
        return
    crate = root / "ledger"
    write(crate, {
        "Cargo.toml": '[package]\nname = "ledger"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
        "src/lib.rs": """\
            pub fn balance(entries: &[i64]) -> i64 { entries.iter().sum() }
            pub fn average(entries: &[i64]) -> i64 { balance(entries) / entries.len() as i64 }
            #[cfg(test)]
            mod tests {
                use super::*;
                #[test] fn sums() { assert_eq!(balance(&[1, 2, 3]), 6); }
                #[test] fn empty_average() { assert_eq!(average(&[]), 0); }
                #[test] fn negative() { assert_eq!(balance(&[-1, -2]), -4); }
                #[test] fn big() { assert_eq!(balance(&[1_000_000, 2]), 1_000_002); }
            }
            """,
        "src/main.rs": "fn main() { let unused = 3; println!(\"{}\", ledger::balance(&[1, 2])); }\n",
    })  # fmt: skip
    record("cargo_release", "cargo build --release", crate)
    record("cargo_test_tail", f"cd {crate} && cargo test 2>&1 | tail -30", root)


def js_c_make_git(root: Path) -> None:
    js = root / "web"
    write(js, {
        "package.json": '{"name": "web", "version": "1.0.0", "scripts": {"test": "node --test test/"}}\n',
        "lib/slug.js": "exports.slug = s => s.toLowerCase().replace(/ /g, '-');\n",
        "test/slug.test.js": """\
            const test = require('node:test');
            const assert = require('node:assert');
            const { slug } = require('../lib/slug');
            test('lowercases', () => assert.strictEqual(slug('Hello'), 'hello'));
            test('dashes', () => assert.strictEqual(slug('a b'), 'a-b'));
            test('trims', () => assert.strictEqual(slug(' a '), 'a'));
            test('collapses', () => assert.strictEqual(slug('a  b'), 'a-b'));
            """,
    })  # fmt: skip
    record("npm_test", "npm test", js)

    c = root / "cproj"
    write(c, {
        "Makefile": "CFLAGS=-Wall -Wextra -O2\nOBJS=" + " ".join(f"m{i}.o" for i in range(12)) + "\n"
        "all: app\napp: $(OBJS)\n\t$(CC) -o $@ $^\nclean:\n\trm -f *.o app\n"
        "test: app\n\t./app 3 && ./app 0\n",
        **{f"m{i}.c": f"int f{i}(int x) {{ int unused{i}; return x * {i}; }}\n" for i in range(12)},
        "main.c": "",
    })  # fmt: skip
    (c / "m0.c").write_text(
        "#include <stdio.h>\n#include <stdlib.h>\nint f0(int x) { int unused0; return x; }\n"
        'int main(int c, char **v) { int n = atoi(v[1]); if (n == 0) { fprintf(stderr, "error: n must be > 0\\n");'
        ' return 2; } printf("ok %d\\n", n); return 0; }\n'
    )
    record("make_j2_test", "make -j2 test", c)
    record("gcc_warnings", "gcc -Wall -Wextra -c m3.c m4.c m5.c", c)

    repo = root / "repo"
    repo.mkdir()
    git = "git -c user.name=Ann -c user.email=ann@example.org"
    script = f"""
        git init -q -b main && {git} commit -q --allow-empty -m 'Initial commit'
        for i in 1 2 3 4 5 6; do echo "line $i" >> notes.txt; printf 'def f%s():\\n    return %s\\n' $i $i > mod$i.py
          git add -A && {git} commit -q -m "Add module $i and a note"; done
        git branch feature/export && git branch fix/rounding
        for i in $(seq 1 40); do echo x > untracked_$i.tmp; done; echo change >> notes.txt
    """
    subprocess.run(["bash", "-c", textwrap.dedent(script)], cwd=repo, env=ENV, check=True, capture_output=True)
    record("git_log_stat", "git --no-pager log --stat -5", repo)
    record("git_show", "git --no-pager show HEAD~1", repo)
    record("git_branch", "git branch -a -v", repo)
    record("git_status_untracked", "git status", repo)


def system(root: Path) -> None:
    record("df_t", "df -T", root)
    record("ps_ef", "ps -ef", root)
    record("curl_refused", "curl -sS http://127.0.0.1:9/health", root)
    record("env_sorted", "env | sort", root)
    table = "\n".join(
        [
            "CONTAINER ID   IMAGE                COMMAND                  CREATED        STATUS"
            "                    PORTS                    NAMES"
        ]
        + [
            f'{i:012x}   registry.local/svc{i % 4}:1.{i}   "python -m svc{i % 4}"   {i + 1} hours ago   '
            f"{'Up ' + str(i + 1) + ' hours' if i % 9 else 'Exited (1) 3 minutes ago'}   0.0.0.0:{8000 + i}->8000/tcp   svc{i}"
            for i in range(1, 36)
        ]
    )
    (root / "docker_ps.txt").write_text(table + "\n")
    record("docker_ps_table", "cat docker_ps.txt  # a `docker ps -a` table, printed as the daemon would", root)


def check() -> int:
    judged = json.loads(JUDGED.read_text()) if JUDGED.is_file() else {}
    bad = 0
    for path in sorted(OUT.glob("*.json")):
        if path == JUDGED:
            continue
        data = json.loads(path.read_text())
        lines = set(data["output"].splitlines())
        missing = [line for line in judged.get(path.stem, {}).get("must_keep", []) if line not in lines]
        if path.stem not in judged:
            print(f"{path.stem}: not judged yet")
            bad += 1
        for line in missing:
            print(f"{path.stem}: judged line no longer in the output: {line!r}")
            bad += 1
    return 1 if bad else 0


def merge() -> None:
    """Write each sample's judgement (from JUDGED.json) into its file, where bench/heldout.py reads it."""
    judged = json.loads(JUDGED.read_text()) if JUDGED.is_file() else {}
    for name, judgement in judged.items():
        path = OUT / f"{name}.json"
        if path.is_file():
            data = json.loads(path.read_text())
            lines = set(data["output"].splitlines())
            data["why"] = judgement.get("why", "")
            data["must_keep"] = [line for line in judgement["must_keep"] if line in lines]
            path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")


def main() -> None:
    if "--check" in sys.argv:
        sys.exit(check())
    if "--merge" in sys.argv:
        merge()
        sys.exit(check())
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="zeph-heldout-") as tmp:
        root = Path(tmp)
        for build in (python_projects, vendored, rust, js_c_make_git, system):
            build(root)
    merge()
    check()


if __name__ == "__main__":
    main()
