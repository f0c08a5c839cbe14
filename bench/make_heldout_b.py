# ruff: noqa: E501 - the programs recorded here are written out whole; random only makes sample data
"""Record the HELD-OUT filter corpus: real output of real tools, kept apart from ``tests/data/filter_corpus``.

    python -m bench.make_heldout_b            # (re)records tests/data/filter_heldout_b/*.json, keeps the judgement
    python -m bench.make_heldout_b NAME...    # re-records only those samples
    python -m bench.make_heldout_b --apply    # copies JUDGED.json into the recorded samples (no recording)
    python -m bench.make_heldout_b --check    # only checks that every judged must_keep line occurs in its output

Never tune output filters on this corpus: it exists to measure them honestly. Each sample stores the command, its
exit code, its combined stdout+stderr, and a human judgement: ``why`` (what a person wants from the output) and
``must_keep`` (lines, verbatim from ``output.splitlines()``, that a shortened output must still contain). The
judgement lives in ``JUDGED.json`` so that re-recording keeps it; judged lines that no longer occur after a
re-recording (timings, pids, sizes) are dropped from the sample and reported, and must be re-judged by hand.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.judging import apply_judgement, check

REPO = Path(__file__).resolve().parent.parent
if not (REPO / ".venv").exists():  # a staged copy outside the project
    REPO = Path(os.environ.get("ZEPH_NB_REPO", "/work/main"))
OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "filter_heldout_b"
JUDGED = OUT / "JUDGED.json"
VENV = REPO / ".venv"
SITE = ".venv/lib/python3.11/site-packages"
NPM_MODULES = "/usr/lib/node_modules/npm"

SCRATCH = Path(tempfile.mkdtemp(prefix="heldout-home-"))
ENV = {
    **os.environ,
    "PATH": f"{VENV / 'bin'}:{os.environ.get('PATH', '/usr/bin:/bin')}",
    "VIRTUAL_ENV": str(VENV),
    "LANG": "C.UTF-8",
    "NO_COLOR": "1",
    "TERM": "dumb",
    "CARGO_TERM_COLOR": "never",
    "CARGO_NET_OFFLINE": "true",
    "RUST_BACKTRACE": "0",
    "PYTHONDONTWRITEBYTECODE": "1",
    "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    "PIP_NO_INPUT": "1",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "Dana Dev",
    "GIT_AUTHOR_EMAIL": "dana@example.com",
    "GIT_COMMITTER_NAME": "Dana Dev",
    "GIT_COMMITTER_EMAIL": "dana@example.com",
    "JUPYTER_RUNTIME_DIR": str(SCRATCH / "jupyter-runtime"),
    "JUPYTER_DATA_DIR": str(SCRATCH / "jupyter-data"),
    "IPYTHONDIR": str(SCRATCH / "ipython"),
    "MPLCONFIGDIR": str(SCRATCH / "mpl"),
    "npm_config_cache": str(SCRATCH / "npm-cache"),
    "npm_config_update_notifier": "false",
    "npm_config_fund": "false",
}


def record(name: str, command: str, cwd: Path, timeout: int = 600) -> None:
    result = subprocess.run(
        ["bash", "-c", f"{command} 2>&1"], cwd=cwd, env=ENV, capture_output=True, timeout=timeout, check=False
    )
    # bytes, not text mode: text mode would turn the carriage returns of progress bars into newlines
    output = result.stdout.decode("utf-8", "replace").replace(str(cwd), "/work/project")
    output = output.replace(str(SCRATCH), "/root/.cache/heldout")
    sample = {"command": command, "exit_code": result.returncode, "output": output}
    (OUT / f"{name}.json").write_text(json.dumps(sample, indent=1, ensure_ascii=False) + "\n")
    print(f"{name:28s} exit {result.returncode:3d} {len(output):8d} chars {output.count(chr(10)):6d} lines")


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))


def run(root: Path, *cmd: str, env: dict[str, str] | None = None) -> None:
    subprocess.run(cmd, cwd=root, env={**ENV, **(env or {})}, check=True, capture_output=True)


# -- Python applications --------------------------------------------------------------------------------------

APP_PY = """
import random
import sys
import traceback
from datetime import datetime, timedelta

rng = random.Random(11)
t = datetime(2026, 11, 24, 9, 30, 0)
routes = ["/api/orders", "/api/orders/{id}", "/api/users/{id}", "/api/cart", "/healthz"]
errors = 0


def log(level, logger, msg):
    global t
    t += timedelta(milliseconds=rng.randint(3, 40))
    print(f"{t:%Y-%m-%d %H:%M:%S},{t.microsecond // 1000:03d} {level:<7} [{logger}] {msg}")


class PaymentGatewayError(RuntimeError):
    pass


def charge(order_id, amount):
    return authorize(order_id, amount)


def authorize(order_id, amount):
    raise PaymentGatewayError(f"gateway timeout after 30000 ms (order={order_id}, amount={amount:.2f} EUR)")


log("INFO", "app", "starting shop-api 2.7.1 on 0.0.0.0:8080 (workers=4)")
log("INFO", "db", "connected to postgres://shop@db:5432/shop (pool=10)")
for i in range(1, 1101):
    rid = f"{rng.getrandbits(48):012x}"
    route = rng.choice(routes).replace("{id}", str(rng.randint(1000, 9999)))
    ms = rng.randint(2, 60)
    log("INFO", "http", f"req={rid} GET {route} 200 {ms}ms user={rng.randint(100, 999)}")
    if i == 563:
        try:
            charge(48213, 129.9)
        except PaymentGatewayError:
            errors += 1
            log("ERROR", "payments", f"req={rid} POST /api/orders/48213/pay failed")
            traceback.print_exc(file=sys.stdout)
            log("INFO", "http", f"req={rid} POST /api/orders/48213/pay 502 30004ms user=412")
log("INFO", "app", f"shutting down: handled 1101 requests, {errors} errors")
"""

TRAIN_PY = """
import sys
import time

def bar(desc, n, total, elapsed, postfix):
    frac = n / total
    width = 10
    full = int(frac * width)
    rest = int((frac * width - full) * 8)
    partial = " \\u258f\\u258e\\u258d\\u258c\\u258b\\u258a\\u2589"[rest] if full < width else ""
    blocks = ("\\u2588" * full + partial).ljust(width)
    rate = n / elapsed if elapsed else 0.0
    remaining = (total - n) / rate if rate else 0.0
    fmt = lambda s: f"{int(s) // 60:02d}:{int(s) % 60:02d}"
    return (f"{desc}: {frac * 100:3.0f}%|{blocks}| {n}/{total} [{fmt(elapsed)}<{fmt(remaining)}, "
            f"{rate:5.2f}it/s, {postfix}]")

print("Loading dataset: 12000 train / 2000 val images", flush=True)
print("Model: resnet18 (11.2M params), optimizer=AdamW lr=0.001", flush=True)
best = 0.0
for epoch in range(1, 4):
    total = 94
    loss = 1.2 / epoch
    for n in range(total + 1):
        loss = loss * 0.995
        sys.stderr.write("\\r" + bar(f"Epoch {epoch}/3", n, total, n * 0.104 + 0.001, f"loss={loss:.3f}"))
        sys.stderr.flush()
    sys.stderr.write("\\n")
    sys.stderr.flush()
    acc = 0.71 + 0.07 * epoch
    best = max(best, acc)
    print(f"epoch {epoch}: train_loss={loss:.4f} val_loss={loss * 1.1:.4f} val_acc={acc:.4f}", flush=True)
print("saved checkpoint to checkpoints/resnet18-best.pt", flush=True)
print(f"Training finished: best val_acc={best:.4f} (epoch 3)", flush=True)
"""

SUPERVISOR_PY = """
import subprocess
import sys
import time

queues = ["emails", "emails", "thumbnails", "thumbnails", "thumbnails", "exports", "billing", "webhooks"]
children = [subprocess.Popen([sys.executable, "queue_worker.py", "--queue", q, "--concurrency", "2"]) for q in queues]
time.sleep(120)
"""

CHAINED_PY = """
import json


def load_config(path):
    with open(path) as fh:
        return json.load(fh)


def main():
    try:
        cfg = load_config("config/settings.json")
    except FileNotFoundError as exc:
        raise RuntimeError("cannot start worker: configuration missing") from exc
    print(cfg)


if __name__ == "__main__":
    print("worker starting (pid file: /tmp/worker.pid)")
    main()
"""


def python_apps(root: Path) -> None:
    write(
        root,
        {
            "app.py": APP_PY,
            "train.py": TRAIN_PY,
            "worker.py": CHAINED_PY,
            "supervisor.py": SUPERVISOR_PY,
            "queue_worker.py": "import sys\nimport time\n\ntime.sleep(120)\n",
        },
    )


def notebooks(root: Path) -> None:
    nbformat: Any = importlib.import_module("nbformat")  # untyped library

    ok = nbformat.v4.new_notebook()
    ok.cells = [
        nbformat.v4.new_markdown_cell("# Sales summary"),
        nbformat.v4.new_code_cell("import statistics\nsales = [120, 95, 143, 88, 170]\nstatistics.mean(sales)"),
        nbformat.v4.new_code_cell("for month, s in zip('JFMAM', sales):\n    print(month, s)"),
    ]
    bad = nbformat.v4.new_notebook()
    bad.cells = [
        nbformat.v4.new_code_cell("import csv\nrows = [{'region': 'north', 'units': '12'}, {'region': 'south'}]"),
        nbformat.v4.new_code_cell("total = 0\nfor row in rows:\n    total += int(row['units'])\ntotal"),
        nbformat.v4.new_code_cell("print('never reached')"),
    ]
    for nb in (ok, bad):
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(ok, root / "sales.ipynb")
    nbformat.write(bad, root / "regions.ipynb")


# -- pytest / unittest / mypy / ruff ----------------------------------------------------------------------------


def pytest_project(root: Path) -> None:
    write(
        root,
        {
            "inventory/__init__.py": "",
            "inventory/stock.py": """
            class OutOfStock(Exception):
                pass


            class Stock:
                def __init__(self):
                    self.levels = {}

                def add(self, sku, qty):
                    self.levels[sku] = self.levels.get(sku, 0) + qty

                def take(self, sku, qty):
                    have = self.levels.get(sku, 0)
                    if qty > have:
                        raise OutOfStock(f"{sku}: want {qty}, have {have}")
                    self.levels[sku] = have - qty

                def value(self, prices):
                    return sum(prices[s] * q for s, q in self.levels.items())
            """,
            "inventory/pricing.py": """
            def discount(price, percent):
                return round(price * (1 - percent / 100), 2)


            def vat(price, rate=0.19):
                return round(price * rate, 2)


            def parse_price(text):
                return float(text.replace("EUR", "").strip())
            """,
            "tests/conftest.py": """
            import pytest

            from inventory.stock import Stock


            @pytest.fixture
            def stock():
                s = Stock()
                s.add("A-1", 5)
                s.add("B-2", 3)
                return s


            @pytest.fixture
            def price_table():
                return load_prices("prices.csv")
            """,
        },
    )
    rng = random.Random(5)
    stock_tests = ["import pytest\n\nfrom inventory.stock import OutOfStock, Stock\n"]
    for i in range(14):
        q = rng.randint(1, 3)
        stock_tests.append(
            f"def test_take_{i}(stock):\n    stock.take('A-1', {q})\n    assert stock.levels['A-1'] == {5 - q}\n"
        )
    stock_tests.append(
        "def test_take_too_many(stock):\n    stock.take('B-2', 4)\n    assert stock.levels['B-2'] == 0\n"
    )
    stock_tests.append("def test_value(stock, price_table):\n    assert stock.value(price_table) == 42\n")
    stock_tests.append(
        "def test_add_new_sku():\n    s = Stock()\n    s.add('C-3', 2)\n    s.add('C-3', 2)\n"
        "    assert s.levels == {'C-3': 4, 'D-4': 0}\n"
    )
    price_tests = ["import pytest\n\nfrom inventory.pricing import discount, parse_price, vat\n"]
    for i in range(16):
        p = rng.randint(10, 500)
        price_tests.append(f"def test_vat_{i}():\n    assert vat({p}) == {round(p * 0.19, 2)}\n")
    price_tests.append(
        "@pytest.mark.parametrize('price,pct,want', [(100, 10, 90.0), (80, 25, 60.0), (19.99, 15, 16.99)])\n"
        "def test_discount(price, pct, want):\n    assert discount(price, pct) == want\n"
    )
    price_tests.append("def test_parse_price_comma():\n    assert parse_price('12,50 EUR') == 12.5\n")
    price_tests.append("@pytest.mark.skip(reason='currency service not mocked yet')\ndef test_fx_rate():\n    pass\n")
    price_tests.append(
        "@pytest.mark.xfail(reason='rounding mode undecided')\ndef test_half_even():\n    assert vat(0.5) == 0.1\n"
    )
    misc = ["import time\n"]
    for i in range(20):
        misc.append(f"def test_misc_{i}():\n    assert sorted([{i}, 3, 1]) == sorted([1, 3, {i}])\n")
    (root / "tests/test_stock.py").write_text("\n\n".join(stock_tests))
    (root / "tests/test_pricing.py").write_text("\n\n".join(price_tests))
    (root / "tests/test_misc.py").write_text("\n\n".join(misc))
    write(
        root,
        {
            "pytest.ini": "[pytest]\ntestpaths = tests\n",
            "broken/test_reports.py": "from inventory.reports import monthly_report\n\n\ndef test_report():\n    assert monthly_report()\n",
            "broken/test_syntax.py": "def test_ok():\n    assert (1 +\n",
        },
    )


def service_project(root: Path) -> None:
    """Another pytest project, run as `cd svc && python -m pytest 2>&1 | tail -40`."""
    svc = root / "svc"
    write(
        svc,
        {
            "svc/__init__.py": "",
            "svc/auth.py": """
            import hashlib


            def token_for(user, secret="s3"):
                return hashlib.sha256(f"{user}:{secret}".encode()).hexdigest()[:16]


            def check(user, token):
                return token_for(user) == token


            def roles(user):
                return {"admin": ["read", "write", "admin"], "bob": ["read"]}.get(user)
            """,
        },
    )
    tests = ["from svc.auth import check, roles, token_for\n"]
    for i in range(40):
        tests.append(f"def test_token_stable_{i}():\n    assert token_for('u{i}') == token_for('u{i}')\n")
    tests.append("def test_roles_unknown_user():\n    assert roles('eve') == []\n")
    tests.append("def test_check_rejects_other_user():\n    assert check('bob', token_for('alice')) is False\n")
    tests.append("def test_admin_roles():\n    assert 'delete' in roles('admin')\n")
    (svc / "tests").mkdir()
    (svc / "tests/test_auth.py").write_text("\n\n".join(tests))


def unittest_project(root: Path) -> None:
    lines = [
        "import unittest\n\n\ndef slugify(s):\n    return s.lower().replace(' ', '-')\n\n\n"
        "class SlugTests(unittest.TestCase):"
    ]
    for i in range(30):
        lines.append(f"    def test_word_{i}(self):\n        self.assertEqual(slugify('W{i}'), 'w{i}')\n")
    lines.append("    def test_punctuation(self):\n        self.assertEqual(slugify('Hello, World!'), 'hello-world')\n")
    lines.append("    def test_none(self):\n        self.assertEqual(slugify(None), '')\n")
    lines.append(
        "    def test_unicode(self):\n        self.assertTrue(slugify('Ä b').isascii(), 'slug must be ascii')\n"
    )
    (root / "test_slug.py").write_text("\n".join(lines) + "\n")


def mypy_project(root: Path) -> None:
    write(
        root,
        {
            "billing/__init__.py": "",
            "billing/models.py": """
            from dataclasses import dataclass


            @dataclass
            class Invoice:
                number: str
                lines: list
                paid: bool = False

                def total(self):
                    return sum(l["amount"] for l in self.lines)


            def make_invoice(number, lines=None):
                return Invoice(number, lines or [])
            """,
            "billing/service.py": """
            from typing import Optional

            from billing.models import Invoice, make_invoice


            def find(invoices: list[Invoice], number: str) -> Optional[Invoice]:
                for inv in invoices:
                    if inv.number == number:
                        return inv


            def pay(invoices: list[Invoice], number: str) -> Invoice:
                inv = find(invoices, number)
                inv.paid = True
                return inv


            def open_amount(invoices: list[Invoice]) -> int:
                return sum(i.total() for i in invoices if not i.paid)


            def label(inv: Invoice) -> str:
                return inv.number + 1


            def bulk(numbers):
                return [make_invoice(n) for n in numbers]
            """,
            "billing/export.py": """
            import json
            from typing import Any

            from billing.models import Invoice


            def to_json(inv: Invoice) -> str:
                data: dict[str, Any] = {"number": inv.number, "total": inv.total()}
                return json.dumps(data)


            def rows(invoices) -> list[tuple[str, float]]:
                return [(i.number, i.total()) for i in invoices]


            def header() -> list[str]:
                return ("number", "total")


            def write_csv(path: str, invoices: list[Invoice]) -> None:
                with open(path, "w") as fh:
                    for number, total in rows(invoices):
                        fh.write(f"{number},{total}\\n")
                return len(invoices)
            """,
        },
    )


def lint_project(root: Path) -> None:
    write(
        root,
        {
            "etl/__init__.py": "",
            "etl/extract.py": """
            import os, sys
            import json
            from typing import List, Dict, Optional
            import re


            def read_rows(path: str) -> List[Dict]:
                rows = []
                f = open(path)
                for line in f.readlines():
                    if line.strip() == "":
                        continue
                    rows.append(json.loads(line))
                return rows


            def pick(rows: List[Dict], key: Optional[str] = None):
                if key == None:
                    return rows
                return [r for r in rows if r.get(key) != None]


            def env_flag(name):
                value = os.environ.get(name)
                if value == "1":
                    return True
                else:
                    return False
            """,
            "etl/transform.py": """
            from collections import OrderedDict
            import datetime


            def normalize(record, defaults={}):
                out = OrderedDict()
                for k in record.keys():
                    out[k.lower()] = record[k]
                for k, v in defaults.items():
                    if not k in out:
                        out[k] = v
                return out


            def stamp(record):
                record["ts"] = datetime.datetime.now().isoformat()
                print(f"stamped")
                return record


            def batch(records, size=100):
                result = list()
                for i in range(0, len(records), size):
                    result.append(records[i:i + size])
                return result


            def safe_int(v):
                try:
                    return int(v)
                except:
                    return None
            """,
            "etl/load.py": """
            import sqlite3
            from etl.transform import normalize, batch
            from etl.extract import read_rows


            def load(path, db):
                conn = sqlite3.connect(db)
                rows = read_rows(path)
                for chunk in batch(rows):
                    for r in chunk:
                        r = normalize(r)
                        conn.execute("insert into t values (?)", (str(r),))
                conn.commit()
                l = len(rows)
                return l
            """,
        },
    )


# -- Rust -------------------------------------------------------------------------------------------------------


def cargo_new(root: Path, name: str, files: dict[str, str]) -> Path:
    crate = root / name
    write(
        crate,
        {
            "Cargo.toml": f"""
            [package]
            name = "{name}"
            version = "0.3.1"
            edition = "2021"

            [dependencies]
            """,
            **files,
        },
    )
    return crate


def rust_projects(root: Path) -> None:
    units = []
    for i in range(24):
        units.append(
            f'    #[test]\n    fn word_count_{i}() {{\n        assert_eq!(word_count("{" ".join(["w"] * (i + 1))}"), {i + 1});\n    }}\n'
        )
    cargo_new(
        root,
        "textkit",
        {
            "src/lib.rs": """
            pub fn word_count(s: &str) -> usize {
                s.split_whitespace().count()
            }

            pub fn title_case(s: &str) -> String {
                s.split(' ')
                    .map(|w| {
                        let mut c = w.chars();
                        match c.next() {
                            Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
                            None => String::new(),
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            }

            pub fn truncate(s: &str, n: usize) -> &str {
                &s[..n]
            }

            #[cfg(test)]
            mod tests {
                use super::*;
            """
            + "\n".join(units)
            + """
                #[test]
                fn title_case_keeps_spacing() {
                    assert_eq!(title_case("hello  world"), "Hello World");
                }

                #[test]
                fn truncate_multibyte() {
                    assert_eq!(truncate("h\u00e9llo", 2), "h\u00e9");
                }
            }
            """,
        },
    )
    cargo_new(
        root,
        "ledger",
        {
            "src/lib.rs": """
            #[derive(Debug, Clone, PartialEq)]
            pub struct Entry {
                pub account: String,
                pub cents: i64,
            }

            pub fn balance(entries: &[Entry], account: &str) -> i64 {
                entries.iter().filter(|e| e.account == account).map(|e| e.cents).sum()
            }

            pub fn parse(line: &str) -> Option<Entry> {
                let (account, amount) = line.split_once(',')?;
                let cents = (amount.trim().parse::<f64>().ok()? * 100.0) as i64;
                Some(Entry { account: account.to_string(), cents })
            }

            #[cfg(test)]
            mod tests {
                use super::*;

                #[test]
                fn balance_sums_one_account() {
                    let e = vec![parse("cash,10.00").unwrap(), parse("bank,5.00").unwrap(), parse("cash,2.50").unwrap()];
                    assert_eq!(balance(&e, "cash"), 1250);
                }

                #[test]
                fn parse_rejects_missing_amount() {
                    assert_eq!(parse("cash"), None);
                }

                #[test]
                fn parse_rounds_cents() {
                    assert_eq!(parse("cash,0.29").unwrap().cents, 29);
                }

                #[test]
                fn parse_negative() {
                    assert_eq!(parse("cash,-3.00").unwrap().cents, -300);
                }
            }
            """,
            "tests/import.rs": """
            use ledger::{balance, parse};

            #[test]
            fn import_many_lines() {
                let lines = ["a,1.00", "a,2.00", "b,3.00"];
                let entries: Vec<_> = lines.iter().filter_map(|l| parse(l)).collect();
                assert_eq!(balance(&entries, "a"), 300);
            }

            #[test]
            fn import_skips_garbage() {
                assert!(parse("nonsense").is_none());
            }
            """,
        },
    )
    mods = {}
    for name in ("config", "router", "storage", "metrics"):
        mods[f"src/{name}.rs"] = f"""
        pub fn init() -> &'static str {{
            "{name} ready"
        }}

        pub fn checksum(data: &[u8]) -> u32 {{
            data.iter().fold(0u32, |acc, b| acc.wrapping_mul(31).wrapping_add(*b as u32))
        }}
        """
    cargo_new(
        root,
        "gateway",
        {
            "src/main.rs": """
            mod config;
            mod metrics;
            mod router;
            mod storage;

            fn main() {
                for msg in [config::init(), router::init(), storage::init(), metrics::init()] {
                    println!("{msg}");
                }
                println!("checksum {}", storage::checksum(b"gateway"));
            }
            """,
            **mods,
        },
    )
    cargo_new(
        root,
        "scanner",
        {
            "src/main.rs": """
            use std::collections::HashMap;
            use std::fs;
            use std::io::Read;

            struct Report {
                files: usize,
                bytes: u64,
                largest: Option<String>,
            }

            fn unused_helper(x: i32) -> i32 {
                x * 2
            }

            fn scan(dir: &str) -> Report {
                let mut report = Report { files: 0, bytes: 0, largest: None };
                let mut sizes = HashMap::new();
                let limit = 10;
                for entry in fs::read_dir(dir).unwrap() {
                    let entry = entry.unwrap();
                    let meta = entry.metadata().unwrap();
                    report.files += 1;
                    report.bytes += meta.len();
                    sizes.insert(entry.path().display().to_string(), meta.len());
                }
                report
            }

            fn main() {
                let mut r = scan(".");
                println!("{} files, {} bytes", r.files, r.bytes);
            }
            """,
        },
    )


# -- C / make ---------------------------------------------------------------------------------------------------


def c_projects(root: Path) -> None:
    proj = root / "imgtool"
    files = {}
    names = ["decode", "encode", "resize", "crop", "rotate", "blur", "sharpen", "histogram", "palette", "dither"]
    for n in names:
        files[f"src/{n}.c"] = (
            f'#include "imgtool.h"\n\nint img_{n}(int w, int h) {{\n    return w * h + {len(n)};\n}}\n'
        )
    header = (
        "#ifndef IMGTOOL_H\n#define IMGTOOL_H\n" + "".join(f"int img_{n}(int w, int h);\n" for n in names) + "#endif\n"
    )
    files["src/imgtool.h"] = header
    files["src/main.c"] = (
        '#include <stdio.h>\n#include "imgtool.h"\n\nint main(void) {\n'
        + "".join(f'    printf("{n}: %d\\n", img_{n}(4, 3));\n' for n in names[:3])
        + "    return 0;\n}\n"
    )
    files["tests/test_resize.c"] = """
    #include <stdio.h>
    #include "../src/imgtool.h"

    static int failures = 0;
    #define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: check failed: %s\\n", __FILE__, __LINE__, #cond); failures++; } else { printf("ok   %s\\n", #cond); } } while (0)

    int main(void) {
        CHECK(img_resize(2, 2) == 10);
        CHECK(img_resize(0, 5) == 6);
        CHECK(img_crop(1, 1) == 5);
        CHECK(img_rotate(3, 3) == 15);
        CHECK(img_blur(10, 10) == 100);
        CHECK(img_dither(2, 3) == 12);
        printf("%d checks failed\\n", failures);
        return failures ? 1 : 0;
    }
    """
    objs = " ".join(f"build/{n}.o" for n in names)
    files["Makefile"] = f"""
    CC ?= gcc
    CFLAGS ?= -O2 -Wall
    OBJS = {objs}

    all: build/imgtool

    build:
    \tmkdir -p build

    build/%.o: src/%.c src/imgtool.h | build
    \t$(CC) $(CFLAGS) -c $< -o $@

    build/imgtool: $(OBJS) build/main.o
    \t$(CC) $(CFLAGS) -o $@ $^

    build/test_resize: tests/test_resize.c $(OBJS) | build
    \t$(CC) $(CFLAGS) -o $@ $^

    test: build/test_resize
    \t./build/test_resize

    .PHONY: all test
    """
    write(proj, files)
    mk = (proj / "Makefile").read_text()
    (proj / "Makefile").write_text(mk.replace("    \t", "\t"))
    write(
        root / "csrc",
        {
            "parse.c": """
            #include <stdio.h>
            #include <stdlib.h>
            #include <string.h>

            int parse_port(const char *s) {
                int port;
                unsigned int len = strlen(s);
                for (int i = 0; i < len; i++) {
                    if (s[i] < '0' || s[i] > '9') return -1;
                }
                port = atoi(s);
                if (port > 65535) return -1;
            }

            char *copy_name(const char *name) {
                char buf[16];
                strcpy(buf, name);
                return buf;
            }

            int main(int argc, char **argv) {
                int unused;
                printf("%d\\n", parse_port(argv[1]));
                printf("%s\\n", copy_name("abc"));
                return 0;
            }
            """,
            "main.c": """
            #include <stdio.h>

            int compress_block(const char *in, char *out, int n);
            void log_stats(void);

            int main(void) {
                char out[64];
                int n = compress_block("aaabbb", out, 6);
                printf("%d\\n", n);
                log_stats();
                return 0;
            }
            """,
            "compress.c": "int compress_block(const char *in, char *out, int n) {\n    (void)in; (void)out;\n    return n / 2;\n}\n",
        },
    )


# -- node -------------------------------------------------------------------------------------------------------


def node_project(root: Path) -> None:
    write(
        root / "cartjs",
        {
            "package.json": json.dumps(
                {
                    "name": "cartjs",
                    "version": "1.2.0",
                    "private": True,
                    "scripts": {"test": "node --test test/", "lint": "echo lint ok"},
                },
                indent=2,
            ),
            "src/cart.js": """
            function total(items) {
              return items.reduce((s, i) => s + i.price * i.qty, 0);
            }
            function applyCoupon(sum, code) {
              if (code === 'TEN') return sum * 0.9;
              return sum;
            }
            module.exports = { total, applyCoupon };
            """,
            "test/cart.test.js": """
            const test = require('node:test');
            const assert = require('node:assert');
            const { total, applyCoupon } = require('../src/cart.js');

            test('total of empty cart', () => {
              assert.strictEqual(total([]), 0);
            });
            test('total multiplies qty', () => {
              assert.strictEqual(total([{ price: 2, qty: 3 }]), 6);
            });
            test('coupon TEN gives 10 percent', () => {
              assert.strictEqual(applyCoupon(100, 'TEN'), 90);
            });
            test('total with float prices', () => {
              assert.strictEqual(total([{ price: 0.1, qty: 1 }, { price: 0.2, qty: 1 }]), 0.3);
            });
            test('coupon is case insensitive', () => {
              assert.strictEqual(applyCoupon(50, 'ten'), 45);
            });
            """,
            "crash.js": """
            const orders = require('./orders.json');
            function shipTo(order) {
              return order.customer.address.city.toUpperCase();
            }
            for (const o of orders) {
              console.log(`order ${o.id}: ship to ${shipTo(o)}`);
            }
            """,
            "orders.json": json.dumps(
                [
                    {"id": 1, "customer": {"address": {"city": "Berlin"}}},
                    {"id": 2, "customer": {"address": {"city": "Paris"}}},
                    {"id": 3, "customer": {}},
                ]
            ),
        },
    )


# -- git --------------------------------------------------------------------------------------------------------


def git_repos(root: Path) -> None:
    origin = root / "origin"
    origin.mkdir()
    date = [0]

    def git(cwd: Path, *args: str) -> None:
        date[0] += 1
        stamp = f"2026-11-{10 + date[0] // 6:02d}T{9 + date[0] % 6}:15:00+01:00"
        run(cwd, "git", *args, env={"GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp})

    git(origin, "init", "-q", "-b", "main")
    write(
        origin,
        {"README.md": "# notes-api\n", "api/__init__.py": "", "api/notes.py": "def list_notes():\n    return []\n"},
    )
    git(origin, "add", ".")
    git(origin, "commit", "-q", "-m", "Initial commit")
    msgs = [
        ("api/notes.py", "Add create_note endpoint"),
        ("api/search.py", "Add full-text search over notes"),
        ("api/auth.py", "Require bearer token on write endpoints"),
        ("tests/test_notes.py", "Test note creation and listing"),
        ("api/search.py", "Fix search ranking for short queries"),
        ("docs/API.md", "Document pagination parameters"),
        ("api/notes.py", "Paginate list_notes (limit/offset)"),
    ]
    for i, (path, msg) in enumerate(msgs):
        p = origin / path
        p.parent.mkdir(parents=True, exist_ok=True)
        old = p.read_text() if p.exists() else ""
        p.write_text(old + "".join(f"def f_{i}_{j}(x):\n    return x + {j}\n\n" for j in range(i + 2)))
        if i == 6:
            (origin / "api/legacy.py").write_text("OLD = True\n")
        git(origin, "add", ".")
        git(origin, "commit", "-q", "-m", msg)
    for br in ("feature/tags", "fix/login-redirect", "release/1.4"):
        git(origin, "branch", br)
    repo = root / "notes-api"
    git(root, "clone", "-q", str(origin), "notes-api")
    git(repo, "checkout", "-q", "-b", "feature/export")
    (repo / "api/export.py").write_text("def export(fmt='json'):\n    raise NotImplementedError\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "WIP: export notes as json/csv")
    git(repo, "branch", "scratch/perf")
    # working tree: modified, staged, deleted and many untracked files
    (repo / "api/notes.py").write_text((repo / "api/notes.py").read_text() + "# TODO: cache\n")
    (repo / "README.md").write_text("# notes-api\n\nNow with export.\n")
    git(repo, "add", "README.md")
    (repo / "docs/API.md").unlink()
    for i in range(14):
        (repo / f"scratch_{i:02d}.py").write_text("print(1)\n")
    for d in ("exports", "notebooks", "tmp/cache"):
        (repo / d).mkdir(parents=True, exist_ok=True)
        (repo / d / "a.txt").write_text("x\n")
    for name in ("notes.db", "dump.sql", ".env.local", "profile.out", "api/export_test.py"):
        (repo / name).write_text("x\n")


# -- files, archives, tables ------------------------------------------------------------------------------------


def file_projects(root: Path) -> None:
    rng = random.Random(9)
    ws = root / "ws"
    sizes = {
        "data": 3_400_000,
        "models": 5_200_000,
        "src": 90_000,
        "notebooks": 410_000,
        "logs": 1_300_000,
        "docs": 60_000,
        "build": 780_000,
        "dist": 250_000,
        "scripts": 12_000,
    }
    for d, size in sizes.items():
        n = rng.randint(2, 6)
        for i in range(n):
            p = ws / d / f"part{i}.bin"
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(rng.randbytes(size // n))
    for f, size in {"README.md": 3000, "pyproject.toml": 900, "requirements.txt": 400, "Makefile": 1200}.items():
        (ws / f).write_bytes(b"x" * size)
    # a release tarball
    rel = root / "rel" / "notes-api-1.4.2"
    for sub, count in (("api", 9), ("tests", 7), ("docs", 4), ("migrations", 12)):
        for i in range(count):
            p = rel / sub / f"{sub[:-1] if sub.endswith('s') else sub}_{i:02d}.py"
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text("x = 1\n" * rng.randint(5, 400))
    for f in ("README.md", "LICENSE", "pyproject.toml", "CHANGELOG.md"):
        (rel / f).write_text("text\n" * rng.randint(10, 200))
    run(
        root / "rel",
        "tar",
        "--owner=dana",
        "--group=dev",
        "--mtime=2026-11-20 14:02:00",
        "--sort=name",
        "-czf",
        str(root / "notes-api-1.4.2.tar.gz"),
        "notes-api-1.4.2",
    )
    # scrubbed environment for `env | sort`
    env_vars = {
        "HOME": "/home/dana",
        "USER": "dana",
        "LOGNAME": "dana",
        "SHELL": "/bin/bash",
        "LANG": "C.UTF-8",
        "PATH": "/home/dana/.local/bin:/home/dana/.cargo/bin:/usr/local/bin:/usr/bin:/bin",
        "PWD": "/home/dana/src/notes-api",
        "TERM": "xterm-256color",
        "EDITOR": "vim",
        "PAGER": "less",
        "VIRTUAL_ENV": "/home/dana/src/notes-api/.venv",
        "PYTHONPATH": "/home/dana/src/notes-api",
        "NODE_ENV": "development",
        "DATABASE_URL": "postgres://notes:REDACTED@localhost:5432/notes",
        "REDIS_URL": "redis://localhost:6379/0",
        "AWS_REGION": "eu-central-1",
        "AWS_PROFILE": "dev",
        "API_TOKEN": "REDACTED",
        "LOG_LEVEL": "debug",
        "PORT": "8080",
        "WORKERS": "4",
        "CARGO_HOME": "/home/dana/.cargo",
        "RUSTUP_HOME": "/home/dana/.rustup",
        "GOPATH": "/home/dana/go",
        "XDG_RUNTIME_DIR": "/run/user/1000",
        "XDG_CONFIG_HOME": "/home/dana/.config",
        "HOSTNAME": "devbox",
        "TZ": "Europe/Berlin",
        "CI": "false",
        "COLUMNS": "120",
        "LINES": "40",
        "SHLVL": "2",
        "SSH_AUTH_SOCK": "/run/user/1000/ssh-agent.socket",
        "DISPLAY": ":0",
        "HISTSIZE": "10000",
        "JUPYTER_CONFIG_DIR": "/home/dana/.jupyter",
        "MPLBACKEND": "Agg",
        "OMP_NUM_THREADS": "8",
        "CUDA_VISIBLE_DEVICES": "0",
        "HF_HOME": "/home/dana/.cache/huggingface",
        "PIP_INDEX_URL": "https://pypi.org/simple",
    }
    (root / "scrubbed.env").write_text("".join(f"{k}={v}\n" for k, v in env_vars.items()))
    # sqlite database
    conn = sqlite3.connect(root / "shop.db")
    conn.execute(
        "create table orders (id integer primary key, customer text, country text, items int, total real, status text)"
    )
    countries = ["DE", "FR", "NL", "PL", "IT", "ES"]
    statuses = ["paid", "paid", "paid", "shipped", "refunded", "pending"]
    names = ["Ada", "Ben", "Chen", "Dora", "Emil", "Farah", "Gus", "Hana", "Ivo", "Jule", "Kai", "Lena"]
    for i in range(1, 301):
        conn.execute(
            "insert into orders values (?,?,?,?,?,?)",
            (
                i,
                f"{rng.choice(names)} {rng.choice('ABCDEFGHKLMNPRS')}.",
                rng.choice(countries),
                rng.randint(1, 9),
                round(rng.uniform(5, 900), 2),
                rng.choice(statuses),
            ),
        )
    conn.commit()
    conn.close()
    write(
        root,
        {
            "docker_cli.py": DOCKER_PY,
            "report.py": """
            import numpy as np
            import pandas as pd

            rng = np.random.default_rng(7)
            n = 240
            df = pd.DataFrame({
                "date": pd.date_range("2026-07-01", periods=n, freq="D"),
                "store": rng.choice(["berlin", "hamburg", "munich", "cologne"], n),
                "visitors": rng.integers(80, 1400, n),
                "orders": rng.integers(5, 160, n),
                "revenue_eur": rng.normal(4200, 900, n).round(2),
            })
            df["conversion"] = (df["orders"] / df["visitors"]).round(4)
            print(df)
            print()
            print(df.groupby("store")[["visitors", "orders", "revenue_eur"]].sum())
            """,
        },
    )


DOCKER_PY = '''
"""Prints `docker ps -a` / `docker images` tables the way the docker CLI lays them out (no daemon here)."""
import random
import sys

rng = random.Random(4)


def table(header, rows):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    for r in [header] + rows:
        print("   ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip())


if sys.argv[1:] == ["ps", "-a"]:
    images = [("postgres:16", "docker-entrypoint.s\\u2026", "5432/tcp"), ("redis:7-alpine", "docker-entrypoint.s\\u2026", "6379/tcp"),
              ("notes-api:dev", "\\"uvicorn api.main:a\\u2026\\"", "0.0.0.0:8080->8080/tcp"), ("nginx:1.27", "\\"/docker-entrypoint.\\u2026\\"", "0.0.0.0:80->80/tcp"),
              ("grafana/grafana:11.3.0", "\\"/run.sh\\"", "0.0.0.0:3000->3000/tcp"), ("prom/prometheus:v2.55.1", "\\"/bin/prometheus --c\\u2026\\"", "9090/tcp"),
              ("notes-worker:dev", "\\"python -m worker\\"", ""), ("minio/minio:latest", "\\"/usr/bin/docker-ent\\u2026\\"", "9000-9001/tcp")]
    rows = []
    for i in range(26):
        image, cmd, ports = images[i % len(images)]
        if i < 8:
            status = f"Up {rng.randint(2, 50)} hours"
        elif i in (9, 14):
            status = f"Exited (137) {rng.randint(2, 9)} days ago"
        elif i == 11:
            status = "Restarting (1) 12 seconds ago"
        else:
            status = f"Exited (0) {rng.randint(2, 30)} days ago"
            ports = ""
        created = f"{rng.randint(2, 30)} days ago" if i >= 8 else "2 days ago"
        name = f"notes-{image.split(':')[0].split('/')[-1]}-{i // len(images) + 1}"
        rows.append((f"{rng.getrandbits(48):012x}", image, cmd, created, status, ports, name))
    table(("CONTAINER ID", "IMAGE", "COMMAND", "CREATED", "STATUS", "PORTS", "NAMES"), rows)
elif sys.argv[1:] == ["images"]:
    rows = []
    repos = ["notes-api", "notes-worker", "postgres", "redis", "nginx", "grafana/grafana", "prom/prometheus",
             "minio/minio", "python", "node", "rust", "<none>", "<none>", "<none>", "busybox", "alpine"]
    for i, repo in enumerate(repos * 2):
        tag = "<none>" if repo == "<none>" else rng.choice(["dev", "latest", "16", "7-alpine", "3.11-slim", "20-bookworm", f"1.{i}"])
        size = f"{rng.uniform(5, 1600):.1f}MB" if i % 5 else f"{rng.uniform(1.0, 2.4):.2f}GB"
        rows.append((repo, tag, f"{rng.getrandbits(48):012x}", f"{rng.randint(1, 11)} weeks ago", size))
    table(("REPOSITORY", "TAG", "IMAGE ID", "CREATED", "SIZE"), rows)
'''


# -- main -------------------------------------------------------------------------------------------------------

Sample = tuple[str, str, str]  # name, command, subdirectory of the scratch root ("" = root)

SAMPLES: list[Sample] = [
    ("app_log_traceback", "python app.py", "py"),
    ("train_progress", "python train.py", "py"),
    ("python_chained_traceback", "python worker.py", "py"),
    ("nbconvert_execute_ok", "jupyter nbconvert --to notebook --execute sales.ipynb --output sales.out.ipynb", "nb"),
    (
        "nbconvert_execute_error",
        "jupyter nbconvert --to notebook --execute regions.ipynb --output regions.out.ipynb",
        "nb",
    ),
    ("pip_list", "pip list", ""),
    ("pip_show", "pip show requests nbconvert", ""),
    ("pip_install_satisfied", "pip install requests 'pytest>=8'", ""),
    ("pip_install_missing_path", "pip install ./vendor/payments-sdk", ""),
    ("pip_check", "pip check", ""),
    ("pytest_exitfirst", "python -m pytest -x", "pt"),
    ("pytest_tb_line", "python -m pytest --tb=line", "pt"),
    ("pytest_report_all", "python -m pytest -rA", "pt"),
    ("pytest_quiet_fail", "python -m pytest -q", "pt"),
    ("pytest_collect_only", "python -m pytest --collect-only -q", "pt"),
    ("pytest_collect_error", "python -m pytest broken", "pt"),
    ("pytest_pipe_tail", "cd svc && python -m pytest 2>&1 | tail -40", "svc"),
    ("unittest_fail", "python -m unittest", "ut"),
    ("mypy_strict", "mypy --strict billing", "mp"),
    ("ruff_check_fixable", "ruff check --output-format=concise --select E,F,I,UP,B,SIM,E722 .", "lint"),
    ("ruff_format_check", "ruff format --check --diff etl/transform.py etl/load.py", "lint"),
    ("cargo_test_pipe_tail", "cd textkit && cargo test 2>&1 | tail -30", "rs"),
    ("cargo_test_one_fail", "cd ledger && cargo test --no-fail-fast", "rs"),
    ("cargo_build_release", "cd gateway && cargo build --release", "rs"),
    ("cargo_check_warnings", "cd scanner && cargo check", "rs"),
    ("make_j2_build", "make -j2", "c/imgtool"),
    ("make_test_fail", "make test", "c/imgtool"),
    ("gcc_warnings", "gcc -Wall -Wextra -O2 -c parse.c -o parse.o", "c/csrc"),
    ("gcc_link_error", "gcc -o packer main.c compress.c", "c/csrc"),
    ("npm_test_fail", "npm test", "node/cartjs"),
    ("npm_run_missing_script", "npm run build", "node/cartjs"),
    ("node_crash", "node crash.js", "node/cartjs"),
    ("git_log_stat", "git --no-pager log --stat -5", "git/notes-api"),
    ("git_show", "git --no-pager show HEAD~1", "git/notes-api"),
    ("git_branch_all", "git branch -a", "git/notes-api"),
    ("git_status_untracked", "git status", "git/notes-api"),
    ("git_log_graph", "git --no-pager log --oneline --graph --decorate --all", "git/notes-api"),
    ("du_sh_star", "du -sh *", "files/ws"),
    ("df_total", "df --total / /dev /dev/shm", ""),
    # only the processes this script starts: `ps -ef` of the whole machine would show its own machinery
    ("ps_session", "ps -f -s {sid}", "py"),
    ("ls_la_site_packages", f"ls -la {SITE}", ""),
    ("find_site_packages", f"find {SITE}/jupyter_server -name '*.py' | sort", ""),
    ("find_pipe_head", f"find {SITE}/pandas -name '*.py' | sort | head -50", ""),
    (
        "grep_rn_site_packages",
        f"grep -rn 'raise NotImplementedError' {SITE}/pandas/core {SITE}/matplotlib | head -120",
        "",
    ),
    ("rg_site_packages", f"rg -n --sort path 'def __repr__' {SITE}/jinja2 {SITE}/tornado", ""),
    (
        "grep_node_modules",
        f"grep -rn 'process.exitCode' {NPM_MODULES}/lib {NPM_MODULES}/node_modules/@npmcli | head -60",
        "",
    ),
    ("wc_l_many", f"wc -l {SITE}/requests/*.py {SITE}/jinja2/*.py", ""),
    ("tar_tvf", "tar -tvf notes-api-1.4.2.tar.gz", "files"),
    ("env_sort", "env -i $(cat scrubbed.env) env | sort", "files"),
    ("curl_refused", "curl -sS http://127.0.0.1:9/api/health", ""),
    ("docker_no_daemon", "docker ps", ""),
    ("docker_ps_table", "python docker_cli.py ps -a", "files"),
    ("docker_images_table", "python docker_cli.py images", "files"),
    ("pandas_table", "python report.py", "files"),
    (
        "sqlite3_query",
        'sqlite3 -header -column shop.db "SELECT country, status, count(*) AS n, round(sum(total), 2) AS revenue FROM orders GROUP BY country, status ORDER BY country, status"',
        "files",
    ),
    ("sqlite3_error", "sqlite3 shop.db \"SELECT customer, total FROM order WHERE status = 'paid'\"", "files"),
]

BUILDERS: dict[str, Callable[[Path], None]] = {
    "py": python_apps,
    "nb": notebooks,
    "pt": pytest_project,
    "ut": unittest_project,
    "mp": mypy_project,
    "lint": lint_project,
    "rs": rust_projects,
    "c": c_projects,
    "node": node_project,
    "git": git_repos,
    "svc": service_project,
    "files": file_projects,
}


def main() -> None:
    if "--check" in sys.argv[1:]:
        sys.exit(1 if check(OUT) else 0)
    if "--apply" in sys.argv[1:]:
        gone = apply_judgement(OUT)
        sys.exit(1 if check(OUT) or gone else 0)
    OUT.mkdir(parents=True, exist_ok=True)
    only = {a for a in sys.argv[1:] if not a.startswith("-")}
    root = Path(tempfile.mkdtemp(prefix="heldout-"))
    try:
        (root / ".venv").symlink_to(VENV)
        for key, build in BUILDERS.items():
            (root / key).mkdir()
            build(root / key)
        (root / "files" / ".venv").symlink_to(VENV)
        supervisor = subprocess.Popen(
            [str(VENV / "bin" / "python"), "supervisor.py"], cwd=root / "py", env=ENV, start_new_session=True
        )
        time.sleep(2)
        try:
            for name, command, sub in SAMPLES:
                if only and name not in only:
                    continue
                record(name, command.replace("{sid}", str(supervisor.pid)), root / sub if sub else root)
        finally:
            os.killpg(supervisor.pid, signal.SIGTERM)
            supervisor.wait()
    finally:
        shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(SCRATCH, ignore_errors=True)
    gone = apply_judgement(OUT)
    if gone:
        print(f"{gone} judged lines are gone or samples unjudged: re-judge them by hand in JUDGED.json")
    check(OUT)


if __name__ == "__main__":
    main()
