"""Record the filter corpus: real output of real tools, run on small projects this script builds.

    python -m bench.make_corpus            # (re)writes tests/data/filter_corpus/*.json

Each sample stores the command, its exit code and its combined stdout+stderr. Tools that are not installed are
skipped (go, tree, a network registry for npm/pip). The corpus is committed; tests and benchmarks read it.
The lines a filter must keep are not stored: ``bench/corpus.py`` decides them with its own judge.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import textwrap
import threading
from collections.abc import Callable
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "filter_corpus"
ENV = {**os.environ, "LANG": "C.UTF-8", "NO_COLOR": "1", "CARGO_TERM_COLOR": "never", "PYTHONDONTWRITEBYTECODE": "1"}


def record(name: str, command: str, cwd: Path, timeout: int = 600) -> None:
    result = subprocess.run(
        ["bash", "-c", f"{command} 2>&1"],
        cwd=cwd,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    output = result.stdout.replace(str(cwd), "/work/project")
    sample = {"command": command, "exit_code": result.returncode, "output": output}
    (OUT / f"{name}.json").write_text(json.dumps(sample, indent=1, ensure_ascii=False) + "\n")
    print(f"{name:24s} exit {result.returncode:3d} {len(output):8d} chars {output.count(chr(10)):6d} lines")


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


# -- Python ---------------------------------------------------------------------------------------------------


def python_project(root: Path) -> None:
    rng = random.Random(3)
    write(
        root,
        {
            "pkg/__init__.py": "",
            "pkg/calc.py": """
        def div(a, b):
            return a / b

        def parse(text):
            return int(text.strip())

        class Cart:
            def __init__(self):
                self.items = []
            def add(self, name, price):
                if price < 0:
                    raise ValueError(f"negative price for {name}")
                self.items.append((name, price))
            def total(self):
                return round(sum(p for _, p in self.items), 2)
        """,
        },
    )
    for module in range(12):
        tests = ["from pkg.calc import Cart, div, parse", "import pytest", ""]
        for i in range(25):
            a, b = rng.randint(1, 50), rng.randint(1, 50)
            tests.append(f"def test_div_{module}_{i}():\n    assert div({a * b}, {b}) == {a}\n")
        if module == 3:
            tests.append(
                "def test_total_rounding():\n    cart = Cart()\n    cart.add('a', 0.1)\n    cart.add('b', 0.2)\n"
                "    assert cart.total() == 0.31, 'cart total is off'\n"
            )
        if module == 5:
            tests.append("def test_parse_bad_input():\n    assert parse(' 12x ') == 12\n")
        if module == 7:
            tests.append(
                "@pytest.mark.parametrize('a,b,want', [(4, 2, 2), (9, 3, 3), (1, 0, 0)])\n"
                "def test_div_table(a, b, want):\n    assert div(a, b) == want\n"
            )
        if module == 9:
            tests.append(
                "@pytest.fixture\ndef cart():\n    c = Cart()\n    c.add('bad', -1)\n    return c\n\n"
                "def test_uses_cart(cart):\n    assert cart.total() == -1\n"
            )
        (root / "tests").mkdir(exist_ok=True)
        (root / "tests" / f"test_mod{module:02d}.py").write_text("\n".join(tests))
    ut = ["import unittest", "from pkg.calc import div, parse", ""]
    for cls in range(6):
        ut.append(f"class TestGroup{cls}(unittest.TestCase):")
        for i in range(25):
            ut.append(f"    def test_case_{i}(self):\n        self.assertEqual(div({(i + 1) * 2}, 2), {i + 1})")
        if cls == 2:
            ut.append("    def test_parse(self):\n        self.assertEqual(parse('7'), 8, 'parse is off by one')")
        if cls == 4:
            ut.append("    def test_crash(self):\n        parse(None)")
        ut.append("")
    (root / "ut_tests.py").write_text("\n".join(ut))


def lint_project(root: Path) -> None:
    rng = random.Random(5)
    for n in range(8):
        lines = ["import os, sys", "import json", "from typing import List, Dict", ""]
        for i in range(12):
            kind = rng.choice(["unused", "compare", "lambda", "fstring", "typed"])
            if kind == "unused":
                lines.append(f"def f{i}(x):\n    unused_{i} = x * 2\n    return x == None\n")
            elif kind == "compare":
                lines.append(
                    f"def g{i}(items: List[int]) -> Dict[str, int]:\n    if type(items) == list:\n        return {{'n': len(items)}}\n    return {{}}\n"
                )
            elif kind == "lambda":
                lines.append(f"h{i} = lambda v: v + 1\n")
            elif kind == "fstring":
                lines.append(f"def k{i}(name: str) -> int:\n    print(f'hello')\n    return name\n")
            else:
                lines.append(f"def t{i}(a: int, b: str) -> str:\n    return a + b\n")
        (root / f"mod{n}.py").write_text("\n".join(lines))


# -- Rust -----------------------------------------------------------------------------------------------------


def rust_workspace(root: Path, *, broken: bool = False, failing: bool = False, lints: bool = False) -> None:
    members = [f"crate_{i:02d}" for i in range(12)]
    write(
        root, {"Cargo.toml": '[workspace]\nresolver = "2"\nmembers = [' + ", ".join(f'"{m}"' for m in members) + "]\n"}
    )
    for index, member in enumerate(members):
        write(root, {f"{member}/Cargo.toml": f'[package]\nname = "{member}"\nversion = "0.1.0"\nedition = "2021"\n'})
        body = ["pub fn add(a: i64, b: i64) -> i64 { a + b }\n"]
        if lints:
            body.append(
                "pub fn lints(v: &Vec<i32>) -> usize {\n    let mut n = 0;\n    for i in 0..v.len() {\n"
                "        if v[i] == 0 { n = n + 1; }\n    }\n    return n;\n}\n"
            )
            body.append("pub fn boxed(x: Box<i32>) -> bool { if *x == 1 { true } else { false } }\n")
        if broken and index == 4:
            body.append('pub fn broken() -> i32 { let x: i32 = "five"; x }\n')
            body.append("pub fn unused_var() { let y = 3; }\n")
        tests = ["#[cfg(test)]\nmod tests {\n    use super::*;"]
        for t in range(8):
            tests.append(f"    #[test]\n    fn adds_{t}() {{ assert_eq!(add({t}, {t}), {2 * t}); }}")
        if failing and index == 2:
            tests.append('    #[test]\n    fn adds_wrong() { assert_eq!(add(2, 2), 5, "two plus two"); }')
        if failing and index == 7:
            tests.append("    #[test]\n    fn panics() { let v: Vec<i32> = vec![]; let _ = v[3]; }")
        tests.append("}\n")
        write(root, {f"{member}/src/lib.rs": "".join(body) + "\n".join(tests)})


# -- C, Go, JS ------------------------------------------------------------------------------------------------


def c_project(root: Path) -> None:
    files = {}
    for i in range(10):
        body = f"#include <stdio.h>\nint unit{i}(int x) {{\n    int unused;\n    return x * {i};\n}}\n"
        if i == 6:
            body += "int broken(void) {\n    return undefined_symbol + 1;\n}\n"
        files[f"src/unit{i}.c"] = body
    files["Makefile"] = (
        "CFLAGS=-Wall -Wextra -O2\nSRC=$(wildcard src/*.c)\nOBJ=$(SRC:.c=.o)\n\nall: app\n\n"
        "app: $(OBJ)\n\t$(CC) -o $@ $^\n\n%.o: %.c\n\t$(CC) $(CFLAGS) -c $< -o $@\n"
    )
    write(root, files)


def go_project(root: Path) -> None:
    write(root, {"go.mod": "module example.com/demo\n\ngo 1.19\n"})
    for pkg in ("mathx", "strx", "listx"):
        tests = [f'package {pkg}\n\nimport "testing"\n']
        for i in range(15):
            tests.append(
                f'func TestAdd{i}(t *testing.T) {{\n\tif Add({i}, 1) != {i + 1} {{\n\t\tt.Fatal("bad")\n\t}}\n}}\n'
            )
        if pkg == "strx":
            tests.append(
                "func TestBroken(t *testing.T) {\n\tgot := Add(2, 2)\n\tif got != 5 {\n"
                '\t\tt.Errorf("Add(2, 2) = %d, want 5", got)\n\t}\n}\n'
            )
        write(
            root,
            {
                f"{pkg}/{pkg}.go": f"package {pkg}\n\nfunc Add(a, b int) int {{ return a + b }}\n",
                f"{pkg}/{pkg}_test.go": "\n".join(tests),
            },
        )


def node_project(root: Path) -> None:
    tests = ["const test = require('node:test');", "const assert = require('node:assert');", ""]
    for i in range(40):
        tests.append(f"test('adds {i}', () => {{ assert.strictEqual({i} + 1, {i + 1}); }});")
    tests.append("test('string compare', () => { assert.strictEqual('abc'.toUpperCase(), 'ABD'); });")
    tests.append("test('throws', () => { JSON.parse('{not json'); });")
    write(root, {"sum.test.js": "\n".join(tests) + "\n"})


def jest_project(root: Path) -> None:
    write(root, {"package.json": '{"name": "demo", "version": "1.0.0", "scripts": {"test": "jest"}}\n'})
    for n in range(6):
        tests = ["const add = (a, b) => a + b;", ""]
        tests.append(f"describe('suite {n}', () => {{")
        for i in range(12):
            tests.append(f"  test('adds {i}', () => {{ expect(add({i}, 1)).toBe({i + 1}); }});")
        if n == 2:
            tests.append("  test('adds wrongly', () => { expect(add(1, 2)).toBe(4); });")
            tests.append("  test('objects', () => { expect({a: 1, b: [1, 2]}).toEqual({a: 1, b: [1, 3]}); });")
        tests.append("});")
        write(root, {f"src/s{n}.test.js": "\n".join(tests) + "\n"})


# -- Git, files, logs -----------------------------------------------------------------------------------------


def git_repo(root: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=root, env=ENV, check=True, capture_output=True)

    git("init", "-q", "-b", "main")
    git("config", "user.email", "dev@example.com")
    git("config", "user.name", "Dev")
    rng = random.Random(9)
    for i in range(60):
        path = root / "src" / f"module_{i % 25:02d}.py"
        path.parent.mkdir(exist_ok=True)
        lines = [f"def func_{j}(x):\n    return x + {rng.randint(0, 100)}\n" for j in range(30)]
        path.write_text("\n".join(lines))
        git("add", "-A")
        git(
            "commit",
            "-q",
            "-m",
            f"Change module {i % 25} (round {i})\n\nLonger explanation of change {i}.\n\nSigned-off-by: Dev <dev@example.com>",
        )
    for i in range(0, 25, 2):
        path = root / "src" / f"module_{i:02d}.py"
        text = path.read_text().splitlines()
        text[rng.randint(0, len(text) - 1)] = "    return None  # changed"
        text[rng.randint(0, len(text) - 1)] = "    return 0  # changed too"
        path.write_text("\n".join(text) + "\n")
    for i in range(8):
        (root / "src" / f"new_{i}.py").write_text("x = 1\n")
    git("add", "src/new_0.py", "src/new_1.py", "src/module_00.py")
    for i in range(30):
        (root / f"scratch_{i}.txt").write_text("tmp\n")


def file_tree(root: Path) -> None:
    rng = random.Random(4)
    for d in [
        "src/app",
        "src/lib",
        "tests",
        "docs",
        "node_modules/left-pad",
        "node_modules/lodash/fp",
        ".git/objects",
        "__pycache__",
        ".venv/lib/python3.11/site-packages/pkg",
        "build/lib",
        ".mypy_cache/3.11",
    ]:
        (root / d).mkdir(parents=True, exist_ok=True)
    for i in range(400):
        folder = rng.choice(
            [
                "node_modules/lodash/fp",
                "node_modules/left-pad",
                ".venv/lib/python3.11/site-packages/pkg",
                ".git/objects",
                "__pycache__",
                ".mypy_cache/3.11",
            ]
        )
        (root / folder / f"f{i}.{rng.choice(['js', 'py', 'pyc', 'json'])}").write_text("x\n" * rng.randint(1, 40))
    for i in range(60):
        folder = rng.choice(["src/app", "src/lib", "tests", "docs", "build/lib"])
        text = "\n".join(f"line {j} TODO: tidy" if j % 17 == 0 else f"line {j}" for j in range(rng.randint(5, 80)))
        (root / folder / f"file_{i}.{rng.choice(['py', 'md', 'txt'])}").write_text(text)
    for i in range(90):
        (root / f"top_{i:03d}.txt").write_text("top\n")


def app_log(root: Path) -> None:
    rng = random.Random(11)
    lines = []
    for i in range(1500):
        ts = f"2026-11-22T10:{i // 60 % 60:02d}:{i % 60:02d}.{rng.randint(0, 999):03d}Z"
        roll = rng.random()
        if roll < 0.55:
            lines.append(f"{ts} INFO  http GET /api/items/{rng.randint(1, 500)} 200 {rng.randint(2, 40)}ms")
        elif roll < 0.8:
            lines.append(f"{ts} DEBUG pool connection {rng.randint(1, 8)} checked out (idle={rng.randint(0, 8)})")
        elif roll < 0.97:
            lines.append(f"{ts} INFO  heartbeat ok pid={4242} uptime={i}s")
        elif roll < 0.99:
            lines.append(
                f"{ts} WARN  slow query took {rng.randint(500, 3000)}ms: SELECT * FROM items WHERE id = {rng.randint(1, 500)}"
            )
        else:
            lines.append(f"{ts} ERROR payment failed for order {rng.randint(1000, 9999)}: upstream returned 502")
    (root / "app.log").write_text("\n".join(lines) + "\n")


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        return


def serve(root: Path) -> tuple[ThreadingHTTPServer, int]:
    (root / "payload.bin").write_bytes(os.urandom(3_000_000))
    (root / "index.html").write_text("<html><body>ok</body></html>\n")
    handler = lambda *a, **k: _Quiet(*a, directory=str(root), **k)  # noqa: E731
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


# -- recording ------------------------------------------------------------------------------------------------


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    rg = Path(sys.executable).parent / "rg"
    venv_bin = Path(sys.executable).parent
    steps: list[tuple[str, Callable[[Path], None], list[tuple[str, str]]]] = [
        (
            "py",
            python_project,
            [
                ("pytest_default", f"{venv_bin}/python -m pytest -p no:cacheprovider tests"),
                ("pytest_verbose", f"{venv_bin}/python -m pytest -p no:cacheprovider -v tests"),
                (
                    "pytest_quiet_pass",
                    f"{venv_bin}/python -m pytest -p no:cacheprovider -q tests/test_mod00.py tests/test_mod01.py",
                ),
                ("unittest_verbose", f"{venv_bin}/python -m unittest -v ut_tests"),
            ],
        ),
        (
            "lint",
            lint_project,
            [
                ("ruff_check", f"{venv_bin}/ruff check --no-cache --select E,F,W,UP,B,SIM,E711,E721,E731 ."),
                ("mypy", f"{venv_bin}/mypy --strict --no-incremental ."),
            ],
        ),
        ("rust_fail", lambda r: rust_workspace(r, failing=True), [("cargo_test_fail", "cargo test --offline")]),
        (
            "rust_ok",
            rust_workspace,
            [("cargo_build_ok", "cargo build --offline"), ("cargo_test_pass", "cargo test --offline")],
        ),
        ("rust_broken", lambda r: rust_workspace(r, broken=True), [("cargo_build_error", "cargo build --offline")]),
        ("rust_lints", lambda r: rust_workspace(r, lints=True), [("cargo_clippy", "cargo clippy --offline")]),
        ("c", c_project, [("make_gcc", "make -k")]),
        ("node", node_project, [("node_test", "node --test")]),
        ("git", git_repo, [("git_status", "git status"), ("git_diff", "git diff"), ("git_log", "git log -n 40")]),
        (
            "tree",
            file_tree,
            [
                ("ls_la", "ls -la"),
                ("find_all", "find ."),
                ("grep_todo", "grep -rn TODO ."),
                ("rg_todo", f"{rg} -n --hidden --no-ignore TODO ."),
                ("du_all", "du -ah ."),
            ],
        ),
        ("log", app_log, [("cat_log", "cat app.log")]),
    ]
    if shutil.which("go"):
        steps.append(("go", go_project, [("go_test_verbose", "go test -v ./...")]))
    if shutil.which("tree"):
        steps.append(("tree2", file_tree, [("tree", "tree")]))
    for name, build, commands in steps:
        with tempfile.TemporaryDirectory(prefix=f"corpus-{name}-") as tmp:
            root = Path(tmp)
            build(root)
            for sample, command in commands:
                record(sample, command, root)
    with tempfile.TemporaryDirectory(prefix="corpus-http-") as tmp:
        server, port = serve(Path(tmp))
        record("curl_verbose", f"curl -v -o /dev/null http://127.0.0.1:{port}/payload.bin", Path(tmp))
        record("wget_download", f"wget http://127.0.0.1:{port}/payload.bin -O out.bin", Path(tmp))
        server.shutdown()
    with tempfile.TemporaryDirectory(prefix="corpus-sys-") as tmp:
        record("ps_aux", "ps aux", Path(tmp))
        record("df_h", "df -h", Path(tmp))
    if "--network" in sys.argv:  # samples that need the package registries
        with tempfile.TemporaryDirectory(prefix="corpus-pip-") as tmp:
            subprocess.run([sys.executable, "-m", "venv", f"{tmp}/venv"], check=True)
            record("pip_install", f"{tmp}/venv/bin/pip install --no-cache-dir requests rich", Path(tmp))
        with tempfile.TemporaryDirectory(prefix="corpus-jest-") as tmp:
            jest_project(Path(tmp))
            record("npm_install", "npm install --no-audit jest@29", Path(tmp))
            record("jest", "npx jest", Path(tmp))
    if "--apt" in sys.argv:
        with tempfile.TemporaryDirectory(prefix="corpus-apt-") as tmp:
            record("apt_get_install", "apt-get install --reinstall -y tree", Path(tmp))
    print(f"corpus in {OUT}")


if __name__ == "__main__":
    main()
