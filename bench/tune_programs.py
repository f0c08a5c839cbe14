# ruff: noqa: E501 - programs written out whole
"""The programs and projects ``bench/make_tune.py`` runs to record the tuning corpus (C).

Each is a small, real program: what it prints is whatever Python, pytest, cargo, gcc, node… print when it runs.
``random`` only varies sample data (seeded, so a re-recording is the same where the tools are).
"""

from __future__ import annotations

import json
import random

PYTHON_APPS: dict[str, str] = {}

PYTHON_APPS["orders_service.py"] = """
import json
import random
import traceback
from datetime import datetime, timedelta, timezone

rng = random.Random(5)
t = datetime(2026, 11, 25, 8, 0, 0, tzinfo=timezone.utc)


def emit(level, event, **fields):
    global t
    t += timedelta(milliseconds=rng.randint(2, 35))
    print(json.dumps({"ts": t.isoformat(timespec="milliseconds"), "level": level, "logger": "orders", "event": event, **fields}))


def reserve(sku, qty):
    stock = {"A-100": 5, "B-200": 0}
    return stock[sku] >= qty


emit("info", "service starting", version="3.4.0", port=9000, workers=4)
emit("info", "connected", db="postgresql://orders@db:5432/orders", pool=12)
for i in range(1, 701):
    trace = f"{rng.getrandbits(64):016x}"
    path = rng.choice(["/v1/orders", "/v1/orders/{id}", "/v1/cart", "/v1/catalog"]).replace("{id}", str(rng.randint(10000, 99999)))
    emit("info", "request completed", method=rng.choice(["GET", "GET", "POST"]), path=path, status=200, duration_ms=rng.randint(3, 80), trace_id=trace)
    if i % 150 == 0:
        emit("warning", "slow query", query="SELECT * FROM order_items WHERE order_id = $1", duration_ms=rng.randint(900, 1500), trace_id=trace)
    if i == 377:
        try:
            reserve("C-300", 2)
        except KeyError:
            emit("error", "reservation failed", path="/v1/orders", status=500, trace_id=trace, exception=traceback.format_exc())
emit("info", "service stopping", handled=700, errors=1)
"""

PYTHON_APPS["batch_worker.py"] = """
import argparse
import logging
import random
import threading

parser = argparse.ArgumentParser()
parser.add_argument("--batches", type=int, default=100)
args = parser.parse_args()
logging.basicConfig(level=logging.INFO, format="%(asctime)s [%(threadName)s] %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("jobs")
rng = random.Random(3)
lock = threading.Lock()
failed = []


def load(batch):
    if batch == 733:
        rows = {"id": 1, "amount": "12,50"}
        return float(rows["amount"])
    return rng.randint(200, 900)


def work(worker, batches):
    for batch in batches:
        try:
            rows = load(batch)
        except ValueError:
            log.exception("batch %d failed while parsing amounts", batch)
            with lock:
                failed.append(batch)
            continue
        if batch % 211 == 0:
            log.warning("batch %d: upstream returned 503, retry 1/3 in 2.0s", batch)
        log.info("processed batch %d (%d rows) in %.2fs", batch, rows, rng.random())


log.info("starting 4 workers for %d batches", args.batches)
threads = [threading.Thread(target=work, args=(n, range(n + 1, args.batches + 1, 4)), name=f"worker-{n}") for n in range(4)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
log.info("done: %d batches, %d failed (%s)", args.batches, len(failed), ", ".join(map(str, failed)))
"""

PYTHON_APPS["crawl.py"] = """
import argparse
import random

parser = argparse.ArgumentParser()
parser.add_argument("--max-pages", type=int, default=100)
args = parser.parse_args()
rng = random.Random(9)
ok = missing = broken = 0
print(f"crawling https://docs.example.org/ (max {args.max_pages} pages, 8 connections)")
for n in range(1, args.max_pages + 1):
    section = rng.choice(["guide", "api", "reference", "blog", "changelog"])
    url = f"https://docs.example.org/{section}/page-{rng.randint(1, 4000)}.html"
    status = 404 if n in (211, 577, 902) else 500 if n == 740 else 200
    size = rng.randint(4, 180)
    print(f"[{n:4d}/{args.max_pages}] GET {url} -> {status} ({size} KB, {rng.randint(20, 900)} ms)")
    if status == 200:
        ok += 1
    elif status == 404:
        missing += 1
        print(f"  broken link: {url} (linked from https://docs.example.org/guide/page-{rng.randint(1, 400)}.html)")
    else:
        broken += 1
        print(f"  server error on {url}: 500 Internal Server Error")
print(f"crawl finished: {ok} ok, {missing} not found, {broken} server errors")
"""

PYTHON_APPS["etl.py"] = """
import warnings


def parse_date(text):
    warnings.warn("parse_date() is deprecated, use datetime.fromisoformat()", DeprecationWarning, stacklevel=2)
    return text


rows = []
for i in range(240):
    rows.append(parse_date(f"2026-11-{i % 28 + 1:02d}"))
    if i % 60 == 0:
        print(f"loaded {i + 1} rows")
print(f"loaded {len(rows)} rows into staging.orders")
"""

PYTHON_APPS["walk_tree.py"] = """
import json
import sys

sys.setrecursionlimit(400)  # the service sets it low on purpose: deep input is an attack


def depth(node):
    return 1 + max((depth(child) for child in node.get("children", [])), default=0)


def build(n):
    node = {"name": "root", "children": []}
    node["children"].append(node)  # a cycle: the tree refers to itself
    return node


print("loading category tree from categories.json")
tree = build(3)
print(json.dumps({"depth": depth(tree)}))
"""

PYTHON_APPS["finetune.py"] = """
import math
import random

rng = random.Random(2)
print("***** Running training *****")
print("  Num examples = 24000")
print("  Num Epochs = 3")
print("  Instantaneous batch size per device = 16")
print("  Total optimization steps = 4500")
lr = 5e-05
for step in range(10, 4501, 10):
    loss = 2.3 * math.exp(-step / 1800) + rng.random() * 0.05
    print({"loss": round(loss, 4), "grad_norm": round(rng.uniform(0.5, 3.0), 4), "learning_rate": lr * (1 - step / 4500), "epoch": round(step / 1500, 2)})
    if step % 1500 == 0:
        print({"eval_loss": round(loss * 1.08, 4), "eval_accuracy": round(0.7 + step / 30000, 4), "eval_runtime": 41.2, "epoch": step // 1500})
print({"train_runtime": 2841.9, "train_samples_per_second": 25.33, "train_loss": 0.5711, "epoch": 3.0})
print("Saving model checkpoint to out/checkpoint-4500")
"""

PYTHON_APPS["hotspots.py"] = """
import csv
import io
import json
import re
import statistics

WORD = re.compile(r"[a-z]+")


def rows(n):
    out = io.StringIO()
    writer = csv.writer(out)
    for i in range(n):
        writer.writerow([i, f"item {i} costs {i * 3 % 97} euros", i % 13])
    return out.getvalue()


def words(text):
    return [m.group(0) for m in WORD.finditer(text)]


def summarize(data):
    reader = csv.reader(io.StringIO(data))
    values = [int(r[2]) for r in reader]
    return {"mean": statistics.mean(values), "stdev": statistics.stdev(values)}


data = rows(20000)
print(len(words(data)), "words")
print(json.dumps(summarize(data)))
"""

NOTEBOOK_CELLS = {
    "report.ipynb": [
        "import pandas as pd\\ndf = pd.DataFrame({'region': ['north', 'south', 'east'], 'sales': [120, 95, 143]})\\nprint(df)",
        "totals = df.groupby('region')['sales'].sum()\\nprint(totals)",
        "share = df['sales'] / df['revenue'].sum()\\nprint(share)",
    ],
    "report_ok.ipynb": [
        "import pandas as pd\\ndf = pd.DataFrame({'region': ['north', 'south'], 'sales': [120, 95]})\\ndf.describe()",
    ],
}


def _notebook(cells: list[str]) -> str:
    return json.dumps(
        {
            "cells": [
                {
                    "cell_type": "code",
                    "execution_count": None,
                    "id": f"c{i}",
                    "metadata": {},
                    "outputs": [],
                    "source": source.replace("\\n", "\n"),
                }
                for i, source in enumerate(cells)
            ],
            "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
            "nbformat": 4,
            "nbformat_minor": 5,
        },
        indent=1,
    )


for _name, _cells in NOTEBOOK_CELLS.items():
    PYTHON_APPS[_name] = _notebook(_cells)

POOL = """
import subprocess
import sys
import time

names = ["ingest", "ingest", "resize", "resize", "resize", "mailer", "scheduler"]
children = [subprocess.Popen([sys.executable, "-c", f"import time; time.sleep(600)  # {n} worker"]) for n in names]
time.sleep(600)
"""

TRAIN_TQDM = """
import time

from tqdm import tqdm

print("training tiny-mlp on 6400 samples, 3 epochs", flush=True)
for epoch in range(1, 4):
    bar = tqdm(range(120), desc=f"epoch {epoch}", mininterval=0, miniters=1, ascii=False, ncols=90)
    loss = 1.0 / epoch
    for step in bar:
        loss *= 0.997
        bar.set_postfix(loss=f"{loss:.4f}")
        time.sleep(0.001)
    bar.close()
    tqdm.write(f"epoch {epoch}: loss={loss:.4f} val_acc={0.80 + epoch * 0.04:.3f}")
print("best model saved to runs/tiny-mlp/best.pt", flush=True)
"""


def inventory_project() -> dict[str, str]:
    files = {
        "pyproject.toml": '[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n\n[project]\nname = "inventory"\nversion = "0.9.1"\n\n[tool.setuptools]\npackages = ["inventory"]\n',
        "inventory/__init__.py": "",
        "inventory/stock.py": """
            def restock(level, amount):
                if amount < 0:
                    raise ValueError(f"negative restock: {amount}")
                return level + amount


            def reserve(level, amount):
                return level - amount if amount <= level else level


            def price_with_tax(net, rate):
                return round(net * (1 + rate), 2)
            """,
        "inventory/sync.py": """
            def sync(items):
                for item in items:
                    print(f"syncing {item} ... ok")
                return len(items)
            """,
        "tests/__init__.py": "",
        "tests/test_stock.py": """
            import pytest

            from inventory.stock import price_with_tax, reserve, restock


            @pytest.mark.parametrize("level", range(120))
            @pytest.mark.parametrize("amount", [0, 1, 5, 10])
            def test_restock(level, amount):
                assert restock(level, amount) == level + amount


            @pytest.mark.parametrize("level", range(60))
            @pytest.mark.parametrize("amount", [1, 3])
            def test_reserve(level, amount):
                expected = level - amount if amount <= level else level
                assert reserve(level, amount) == expected


            @pytest.mark.parametrize(("net", "rate", "gross"), [(10, 0.2, 12.0), (19.99, 0.07, 21.39), (5, 0.19, 5.95), (100, 0.1, 110.0), (0.1, 0.2, 0.13)])
            def test_price_with_tax(net, rate, gross):
                assert price_with_tax(net, rate) == gross


            def test_restock_rejects_negative():
                with pytest.raises(ValueError, match="negative"):
                    restock(3, -1)


            def test_reserve_never_negative():
                assert reserve(2, 5) == -3
            """,
        "tests/test_sync.py": """
            import time

            from inventory.sync import sync


            def test_sync_all():
                assert sync([f"sku-{i:04d}" for i in range(150)]) == 150


            def test_sync_slow():
                time.sleep(0.05)
                assert sync(["sku-slow"]) == 1
            """,
    }
    return files


def unittest_project() -> dict[str, str]:
    body = ["import unittest", "", "from shipping import fee", "", "", "class FeeTests(unittest.TestCase):"]
    for weight in range(1, 301):
        body += [
            f"    def test_fee_{weight:03d}(self):",
            f"        self.assertEqual(fee({weight}), {weight * 2 + (5 if weight > 250 else 0)})",
            "",
        ]
    body += [
        "    def test_fee_rejects_zero(self):",
        "        print('checking zero weight')",
        "        self.assertRaises(ValueError, fee, 0)",
        "",
    ]
    return {
        "shipping.py": "def fee(kg):\n    if kg > 298:\n        return kg * 2\n    return kg * 2 + (5 if kg > 250 else 0)\n",
        "test_fee.py": "\n".join(body) + "\n",
    }


DOCTEST_MODULE = (
    '''
"""Small text helpers.

>>> slug("Hello World")
'hello-world'
"""


def slug(text):
    """
    >>> slug("  A  B ")
    'a-b'
    >>> slug("Crème brûlée")
    'creme-brulee'
    """
    import unicodedata

    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "-".join(text.lower().split())


def words(text):
    """
'''
    + "".join(f"    >>> words('{' '.join(['w'] * n)}')\n    {n}\n" for n in range(1, 41))
    + '''    """
    return len(text.split())


def initials(name):
    """
    >>> initials("ada lovelace")
    'AL'
    >>> initials("grace brewster murray hopper")
    'GBMH'
    >>> initials("")
    ''
    """
    return "".join(part[0].upper() for part in name.split(" ") if part)[:3]
'''
)

_LEDGER_TESTS = "\n".join(
    f"    #[test]\n    fn balance_{i:03d}() {{\n        assert_eq!(balance(&[{i}, {i * 2}, -{i}]), {i * 2});\n    }}\n"
    for i in range(1, 241)
)

RUST_CRATES: dict[str, dict[str, str]] = {
    "ledgerkit": {
        "src/lib.rs": """
            //! Ledger arithmetic in integer cents.

            /// The sum of all entries.
            pub fn balance(entries: &[i64]) -> i64 {
                entries.iter().sum()
            }

            /// Round cents to the nearest multiple of `step`.
            pub fn round_to(cents: i64, step: i64) -> i64 {
                let rest = cents % step;
                if rest * 2 >= step { cents - rest + step } else { cents - rest }
            }

            /// Split an amount into `parts` shares.
            pub fn split(amount: u64, parts: u64) -> Vec<u64> {
                let share = amount / parts;
                let mut out = vec![share; parts as usize];
                out[0] += amount - share * parts;
                out
            }

            pub fn ratio(a: u64, b: u64) -> f32 {
                a as f32 / b as f32
            }

            pub fn as_index(n: i64) -> usize {
                n as usize
            }

            #[cfg(test)]
            mod tests {
                use super::*;

                #[test]
                fn rounding_half_up() {
                    println!("round_to(125, 10) = {}", round_to(125, 10));
                    assert_eq!(round_to(125, 10), 130);
                }

                #[test]
                fn rounding_negative() {
                    println!("round_to(-125, 10) = {}", round_to(-125, 10));
                    assert_eq!(round_to(-125, 10), -130);
                }

                #[test]
                fn split_remainder_goes_last() {
                    assert_eq!(split(100, 3), vec![33, 33, 34]);
                }

            """
        + _LEDGER_TESTS
        + "}\n",
    },
    "panicky": {
        "src/main.rs": """
            use std::collections::HashMap;

            fn rate(rates: &HashMap<&str, f64>, currency: &str) -> f64 {
                *rates.get(currency).expect("no exchange rate for currency")
            }

            fn convert(amount: f64, currency: &str) -> f64 {
                let rates = HashMap::from([("EUR", 1.0), ("USD", 0.92)]);
                amount * rate(&rates, currency)
            }

            fn main() {
                println!("converting 3 invoices");
                for (amount, currency) in [(10.0, "EUR"), (12.5, "USD"), (99.0, "GBP")] {
                    println!("{amount} {currency} = {:.2} EUR", convert(amount, currency));
                }
            }
            """,
    },
}


def c_project() -> dict[str, str]:
    files: dict[str, str] = {}
    names = [f"filter_{i:02d}" for i in range(28)]
    for i, name in enumerate(names):
        body = f'#include <stdio.h>\n#include "img.h"\n\nint {name}(struct image *im, int strength)\n{{\n    int changed = 0;\n'
        if i in (4, 17):
            body += "    int unused;\n"  # -Wunused-variable
        if i == 9:
            body += "    changed = im->pixels[0] + undefined_gain;\n"  # an error: undeclared
        if i == 21:
            body += "    struct pixel p = im->pixels;\n"  # an error: int to struct
        if i == 13:
            body += "    if (strength = 3) changed++;\n"  # -Wparentheses
        body += "    for (int y = 0; y < im->height; y++)\n        changed += im->pixels[y] * strength;\n    return changed;\n}\n"
        files[f"src/{name}.c"] = body
    files["src/img.h"] = "struct image { int width; int height; int *pixels; };\n" + "".join(
        f"int {n}(struct image *im, int strength);\n" for n in names
    )
    objs = " ".join(f"build/{n}.o" for n in names)
    files["Makefile"] = (
        "CC = gcc\nCFLAGS = -Wall -Wextra -O2 -Isrc\n\nall: build/libimg.a\n\n"
        f"build/libimg.a: {objs}\n\tar rcs $@ $^\n\n"
        "build/%.o: src/%.c src/img.h\n\t@mkdir -p build\n\t$(CC) $(CFLAGS) -c $< -o $@\n\n"
        "check: build/test_runner\n\t./build/test_runner\n\n"
        "build/test_runner: tests/runner.c\n\t@mkdir -p build\n\t$(CC) $(CFLAGS) $< -o $@\n\n.PHONY: all check\n"
    )
    tests = ['#include <stdio.h>', "", "static int clamp(int v) { return v < 0 ? 0 : v > 255 ? 255 : v; }", "",
             "int main(void)", "{", "    int failed = 0;", '    printf("TAP version 13\\n1..150\\n");',
             "    for (int i = 1; i <= 150; i++) {", "        int v = i * 2 - 40;", "        int want = v < 0 ? 0 : v > 255 ? 255 : v;",
             "        if (i == 64 || i == 131) want += 1;  /* two expectations written wrong */",
             "        if (clamp(v) == want) printf(\"ok %d - clamp(%d) == %d\\n\", i, v, want);",
             "        else { failed++; printf(\"not ok %d - clamp(%d) == %d\\n#   got %d\\n\", i, v, want, clamp(v)); }",
             "    }", '    printf("# %d of 150 tests failed\\n", failed);', "    return failed != 0;", "}"]  # fmt: skip
    files["tests/runner.c"] = "\n".join(tests) + "\n"
    return files


NODE_PACKAGE: dict[str, str] = {
    "package.json": '{"name": "pricing", "version": "2.1.0", "private": true, "scripts": {"test": "node --test"}}\n',
    "lib/price.js": "exports.discount = (cents, pct) => Math.round(cents * (100 - pct) / 100);\nexports.vat = (cents) => Math.round(cents * 1.2);\n",
    "test/price.test.js": "const test = require('node:test');\nconst assert = require('node:assert');\nconst { discount, vat } = require('../lib/price');\n\n"
    + "".join(
        f"test('discount {c} by 10%', () => {{ assert.strictEqual(discount({c}, 10), {(c * 90 + 50) // 100 + (1 if c in (325, 1000) else 0)}); }});\n"
        for c in range(100, 1400, 9)
    )
    + "test('vat of 0 is 0', () => { assert.strictEqual(vat(0), 0); });\n",
    "fetch_prices.js": "async function fetchPrices(region) {\n  const res = { ok: false, status: 503 };\n  if (!res.ok) throw new Error(`price service returned ${res.status} for region ${region}`);\n}\n\nconsole.log('refreshing prices for 3 regions');\nfetchPrices('eu-west');\n",
}


def pods_table() -> str:
    rng = random.Random(4)
    rows = ["NAMESPACE NAME READY STATUS RESTARTS AGE"]
    for i in range(260):
        ns = rng.choice(["default", "payments", "search", "ingest", "monitoring"])
        app = rng.choice(["api", "worker", "cache", "indexer", "exporter"])
        status, ready, restarts = "Running", "1/1", str(rng.choice([0, 0, 0, 1]))
        if i in (37, 150):
            status, ready, restarts = "CrashLoopBackOff", "0/1", str(14 + i % 5)
        if i == 201:
            status, ready, restarts = "ImagePullBackOff", "0/1", "0"
        rows.append(
            f"{ns} {app}-{rng.getrandbits(32):08x}-{rng.getrandbits(20):05x} {ready} {status} {restarts} {rng.randint(1, 40)}d"
        )
    return "\n".join(rows) + "\n"


HTTP_SERVER = """
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/api/boom":
            raise KeyError("tenant")
        if self.path == "/api/stats":
            body = json.dumps({"service": "catalog", "uptime_s": 8812, "routes": [{"path": f"/api/items/{i}", "hits": i * 37 % 1000, "p95_ms": i % 50 + 3} for i in range(40)]}).encode()
        elif self.path.startswith("/api/items/") or self.path == "/":
            body = b'{"ok": true}'
        else:
            self.send_error(404, "Not Found")
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
"""

HAMMER = """
python - "$1" <<'EOF'
import sys
import urllib.request
from urllib.error import HTTPError

port = sys.argv[1]
for i in range(1400):
    path = "/api/boom" if i == 702 else "/favicon.ico" if i % 250 == 3 else f"/api/items/{i % 97}"
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}{path}").read()
    except (HTTPError, OSError):
        pass
EOF
"""
