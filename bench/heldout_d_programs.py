# ruff: noqa: E501 - programs written out whole
"""The programs and projects ``bench/make_heldout_d.py`` runs to record the fourth held-apart corpus (D).

Each is a small, real program: what it prints is whatever Python, pytest, cargo, gcc, javac, node, tsc… print when
it runs. ``random`` only varies sample data (seeded, so a re-recording is the same where the tools are). The few
outputs whose tool is not on the recording machine (``journalctl``, Django's ``runserver``) are printed by a script
in that tool's layout; the README says which.
"""

from __future__ import annotations

import json
import random

# --------------------------------------------------------------------------------------------------- python apps
PY: dict[str, str] = {}

PY["etl_pipeline.py"] = '''
"""Nightly ETL: extract CSV exports, normalise, load into the warehouse (logging to stderr, as most jobs do)."""
import logging
import random
import sys
import time

from etl import transform

rng = random.Random(11)
clock = [1795939200.0]  # 2026-11-26 08:00:00 UTC


def fake_time():
    clock[0] += rng.uniform(0.004, 0.09)
    return clock[0]


logging.Formatter.converter = time.gmtime
time.time = fake_time
logging.basicConfig(stream=sys.stderr, level=logging.INFO,
                    format="%(asctime)s %(levelname)-7s %(name)s - %(message)s")
log = logging.getLogger("etl.pipeline")
load_log = logging.getLogger("etl.load")

log.info("pipeline nightly-orders started (run_id=r-20261126-0800, source=s3://exports/orders/2026-11-25/)")
log.info("found 240 export files, 1,196,412 rows")
loaded = rejected = 0
for part in range(240):
    name = f"orders-part-{part:04d}.csv"
    rows = [{"order_id": f"{part}-{i}", "amount": f"{rng.randint(100, 99999) / 100:.2f}", "currency": "EUR",
             "country": rng.choice(["DE", "FR", "NL", "AT", "BE"])} for i in range(3)]
    if part == 131:
        rows[1]["amount"] = "1.234,50"
    log.info("extract %s (%d bytes)", name, rng.randint(180_000, 420_000))
    try:
        clean = transform.normalise(rows, source=name)
    except transform.RowError:
        log.exception("transform failed for %s; file moved to quarantine/", name)
        rejected += 1
        continue
    if part % 37 == 0 and part:
        load_log.warning("warehouse slow: COPY into staging.orders took %.1fs (threshold 5.0s)", rng.uniform(6, 14))
    load_log.info("loaded %s into staging.orders (%d rows, %d ms)", name, rng.randint(4900, 5100), rng.randint(80, 400))
    loaded += 1
    if part == 199:
        load_log.error("lost connection to warehouse (server closed the connection unexpectedly); reconnecting")
        load_log.info("reconnected to warehouse after 2 attempts")
log.info("merge staging.orders -> dw.fact_orders: 1,191,208 rows upserted")
log.info("pipeline finished: %d files loaded, %d quarantined, elapsed 00:14:52", loaded, rejected)
sys.exit(1 if rejected else 0)
'''

PY["etl/__init__.py"] = ""
PY["etl/transform.py"] = """
from decimal import Decimal, InvalidOperation


class RowError(ValueError):
    pass


def parse_amount(text):
    try:
        return Decimal(text)
    except InvalidOperation as exc:
        raise RowError(f"amount {text!r} is not a decimal number") from exc


def normalise_row(row):
    return {**row, "amount": parse_amount(row["amount"]), "country": row["country"].upper()}


def normalise(rows, source):
    return [normalise_row(row) for row in rows]
"""

PY["runserver.py"] = '''
"""Prints what `python manage.py runserver` prints for a morning of traffic on a small shop (Django is not
installed on the recording machine); the traceback's frames follow Django 4.2's request handling."""
import random
from datetime import datetime, timedelta

rng = random.Random(23)
t = datetime(2026, 11, 26, 9, 14, 3)
SITE = "/work/project/.venv/lib/python3.11/site-packages/django"
print("Watching for file changes with StatReloader")
print("Performing system checks...")
print()
print("System check identified no issues (0 silenced).")
print("November 26, 2026 - 09:14:02")
print("Django version 4.2.7, using settings 'shop.settings'")
print("Starting development server at http://127.0.0.1:8000/")
print("Quit the server with CONTROL-C.")
print()
paths = ["/api/products/?page={n}", "/api/products/{id}/", "/api/cart/", "/static/css/app.css", "/static/js/app.js",
         "/api/orders/", "/", "/api/categories/"]
for i in range(820):
    t += timedelta(seconds=rng.randint(0, 3))
    stamp = t.strftime("%d/%b/%Y %H:%M:%S")
    if i in (41, 390, 702):
        print("Not Found: /favicon.ico")
        print(f'[{stamp}] "GET /favicon.ico HTTP/1.1" 404 2279')
        continue
    if i == 517:
        print("Internal Server Error: /api/orders/1842/refund/")
        print("Traceback (most recent call last):")
        print(f'  File "{SITE}/core/handlers/exception.py", line 55, in inner')
        print("    response = get_response(request)")
        print("               ^^^^^^^^^^^^^^^^^^^^^")
        print(f'  File "{SITE}/core/handlers/base.py", line 197, in _get_response')
        print("    response = wrapped_callback(request, *callback_args, **callback_kwargs)")
        print("               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^")
        print(f'  File "{SITE}/views/decorators/csrf.py", line 56, in wrapper_view')
        print("    return view_func(*args, **kwargs)")
        print("           ^^^^^^^^^^^^^^^^^^^^^^^^^^")
        print(f'  File "{SITE}/views/generic/base.py", line 104, in view')
        print("    return self.dispatch(request, *args, **kwargs)")
        print("           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^")
        print('  File "/work/project/shop/orders/views.py", line 88, in post')
        print("    refund = services.refund(order, amount=request.data[\\"amount\\"])")
        print("             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^")
        print('  File "/work/project/shop/orders/services.py", line 41, in refund')
        print("    if amount > order.total - order.refunded_total:")
        print("       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^")
        print("TypeError: '>' not supported between instances of 'str' and 'decimal.Decimal'")
        print(f'[{stamp}] "POST /api/orders/1842/refund/ HTTP/1.1" 500 145821')
        continue
    path = rng.choice(paths).format(n=rng.randint(2, 30), id=rng.randint(1, 900))
    method = "POST" if path == "/api/cart/" and rng.random() < 0.4 else "GET"
    status = 304 if path.startswith("/static") and rng.random() < 0.6 else (201 if method == "POST" else 200)
    size = 0 if status == 304 else rng.randint(300, 24000)
    print(f'[{stamp}] "{method} {path} HTTP/1.1" {status} {size}')
    if i == 640:
        print("Watching for file changes with StatReloader")
        print("/work/project/shop/orders/services.py changed, reloading.")
        print("Performing system checks...")
        print()
        print("System check identified no issues (0 silenced).")
'''

PY["load_config.py"] = '''
"""Start-up of a worker: read the deployment config, then connect (three exceptions, chained)."""
import json
import sqlite3
from pathlib import Path


class ConfigError(RuntimeError):
    pass


class StartupError(RuntimeError):
    pass


def read_config(path):
    text = Path(path).read_text()
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path} is not valid JSON") from exc


def open_store(cfg):
    return sqlite3.connect(f"file:{cfg['db']}?mode=ro", uri=True)


def start(path):
    try:
        cfg = read_config(path)
    except ConfigError:
        cfg = {"db": "missing/state.db"}
        try:
            return open_store(cfg)
        except sqlite3.OperationalError as exc:
            raise StartupError("worker cannot start: no usable config and no fallback store") from exc


if __name__ == "__main__":
    start("deploy/worker.json")
'''

PY["deploy/worker.json"] = '{\n  "db": "state/worker.db",\n  "queues": ["orders", "refunds",],\n  "concurrency": 4\n}\n'

PY["region_table.py"] = """
import numpy as np
import pandas as pd

rng = np.random.default_rng(42)
n = 300
df = pd.DataFrame({
    "store_id": np.arange(1001, 1001 + n),
    "region": rng.choice(["north", "south", "east", "west", "central"], n),
    "opened": pd.date_range("2015-01-01", periods=n, freq="11D").date,
    "revenue_eur": rng.normal(182_000, 41_000, n).round(2),
    "margin": rng.uniform(0.04, 0.31, n).round(3),
    "staff": rng.integers(4, 40, n),
})
df.loc[[57, 211], "revenue_eur"] = np.nan
print(df.to_string())
print()
print(df.describe().round(2).to_string())
"""

PY["pricing_sim.py"] = """
import random
import re
from dataclasses import dataclass
from fractions import Fraction

rng = random.Random(1)
SKU = re.compile(r"^[A-Z]{3}-\\d{4}$")


@dataclass
class Line:
    sku: str
    qty: int
    unit: Fraction


def discount(line):
    if line.qty >= 10:
        return line.unit * Fraction(9, 10)
    return line.unit


def valid(line):
    return bool(SKU.match(line.sku))


def price(lines):
    total = Fraction(0)
    for line in lines:
        if valid(line):
            total += discount(line) * line.qty
    return total


def basket(n):
    return [Line(f"{rng.choice(['ABC', 'XYZ', 'QRS'])}-{rng.randint(1000, 9999)}", rng.randint(1, 20),
                 Fraction(rng.randint(100, 9999), 100)) for _ in range(n)]


totals = [price(basket(40)) for _ in range(1500)]
print(f"priced {len(totals)} baskets, mean {float(sum(totals) / len(totals)):.2f}")
"""

PY["journal.py"] = '''
"""Prints what `journalctl -u orders-worker --since today --no-pager` shows (systemd is not running on the
recording machine): a worker that runs fine, is OOM-killed once, restarts, and later fails a health check."""
import random
import sys
from datetime import datetime, timedelta

rng = random.Random(8)
t = datetime(2026, 11, 26, 0, 0, 1)
host = "app-02"
pid = 2417


def line(unit, text, p=None):
    global t
    t += timedelta(seconds=rng.randint(5, 70), microseconds=rng.randint(0, 999999))
    tag = f"{unit}[{p}]" if p else unit
    print(f"{t.strftime('%b %d %H:%M:%S')} {host} {tag}: {text}")


print("-- Logs begin at Mon 2026-11-23 06:12:40 UTC, end at Thu 2026-11-26 11:47:13 UTC. --")
for i in range(560):
    if i == 230:
        line("kernel", "orders-worker invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, oom_score_adj=0")
        line("kernel", f"Out of memory: Killed process {pid} (python3) total-vm:4318220kB, anon-rss:3876544kB, file-rss:0kB, shmem-rss:0kB, UID:998 pgtables:7820kB oom_score_adj:0")
        line("systemd[1]", "orders-worker.service: Main process exited, code=killed, status=9/KILL")
        line("systemd[1]", "orders-worker.service: Failed with result 'oom-kill'.")
        line("systemd[1]", "orders-worker.service: Consumed 2h 3min 11.402s CPU time.")
        line("systemd[1]", "orders-worker.service: Scheduled restart job, restart counter is at 1.")
        line("systemd[1]", "Stopped Orders queue worker.")
        line("systemd[1]", "Started Orders queue worker.")
        pid = 31877
        line("orders-worker", "worker starting, concurrency=4, prefetch=16", pid)
        continue
    if i == 471:
        line("orders-worker", "WARNING health check /healthz took 4.8s (limit 5s)", pid)
        line("orders-worker", "ERROR health check failed: redis://cache:6379/0 timed out after 5.0s", pid)
        line("orders-worker", "ERROR giving up on batch 88120 after 3 retries: redis.exceptions.TimeoutError: Timeout reading from socket", pid)
        continue
    if i % 97 == 50:
        line("CRON", "pam_unix(cron:session): session opened for user root(uid=0) by (uid=0)", rng.randint(3000, 9000))
        continue
    q = rng.choice(["orders", "orders", "refunds", "emails"])
    line("orders-worker", f"INFO processed batch {88000 + i} from queue={q} items={rng.randint(1, 64)} in {rng.randint(40, 900)}ms", pid)
sys.exit(0)
'''

PY["train.py"] = '''
"""A small training loop with real tqdm bars (epochs outer, batches inner) and per-epoch metrics."""
import math
import random
import time
import warnings

from tqdm import tqdm

rng = random.Random(4)
epochs, batches = 6, 120
best, patience = math.inf, 0
print("model: TinyCNN(params=1.2M)  device: cpu  train=15,360 val=3,840  batch_size=128")
warnings.warn("DataLoader num_workers=0: loading runs in the main process and may be slow", UserWarning)
for epoch in tqdm(range(1, epochs + 1), desc="epochs", position=0):
    loss = 2.3 / epoch + rng.uniform(0, 0.05)
    bar = tqdm(range(batches), desc=f"epoch {epoch}", position=1, leave=False, mininterval=0.05)
    for step in bar:
        time.sleep(0.004)
        if step % 20 == 0:
            bar.set_postfix(loss=f"{loss + rng.uniform(-0.1, 0.1):.4f}", lr=f"{3e-4 * 0.9 ** epoch:.2e}")
    val = 2.1 / epoch + (0.35 if epoch >= 5 else 0) + rng.uniform(0, 0.03)
    acc = min(0.97, 0.42 + 0.11 * epoch - (0.06 if epoch >= 5 else 0))
    tqdm.write(f"epoch {epoch}: train_loss={loss:.4f} val_loss={val:.4f} val_acc={acc:.3f}")
    if val < best:
        best, patience = val, 0
        tqdm.write(f"  saved checkpoint checkpoints/epoch{epoch:02d}.pt (val_loss improved)")
    else:
        patience += 1
        if patience >= 2:
            tqdm.write(f"early stopping at epoch {epoch}: val_loss did not improve for 2 epochs (best {best:.4f})")
            break
print(f"done. best val_loss={best:.4f}")
'''

PY["read_settings.py"] = """
import os
import tomllib
from pathlib import Path

for candidate in (Path.cwd() / "settings.toml", Path.home() / ".config" / "shipper" / "settings.toml",
                  Path("/etc/shipper/settings.toml")):
    if candidate.exists():
        break
with open(os.environ.get("SHIPPER_SETTINGS", "/etc/shipper/settings.toml"), "rb") as fh:
    print(tomllib.load(fh))
"""


def inventory_json() -> str:
    """A ~400-line JSON document (warehouse snapshot) for `python -m json.tool`."""
    rng = random.Random(6)
    items = []
    for i in range(34):
        items.append(
            {
                "sku": f"WH-{4100 + i}",
                "name": rng.choice(["bolt", "nut", "washer", "bracket", "hinge", "spring"])
                + f" {rng.randint(3, 16)}mm",
                "qty": rng.randint(0, 900),
                "bin": f"{rng.choice('ABCDE')}-{rng.randint(1, 40):02d}",
                "reorder": {"min": 50, "supplier": rng.choice(["acme", "fastco", "boltwerk"])},
                "tags": rng.sample(["steel", "zinc", "metric", "bulk", "fragile"], 2),
            }
        )
    doc = {"warehouse": "berlin-2", "generated": "2026-11-26T07:00:00Z", "version": 3, "items": items,
           "totals": {"skus": 34, "units": sum(int(str(x["qty"])) for x in items)}}  # fmt: skip
    return json.dumps(doc, separators=(",", ":")) + "\n"


def jobs_json() -> str:
    rng = random.Random(9)
    jobs = []
    for i in range(300):
        status = "failed" if i in (17, 122, 123, 250) else rng.choice(["ok"] * 9 + ["retried"])
        jobs.append({"id": f"job-{7000 + i}", "status": status, "queue": rng.choice(["emails", "invoices", "exports"]),
                     "attempts": 3 if status == "failed" else 1, "error": "SMTP 421 try again later" if status == "failed" and i < 200 else (None if status != "failed" else "disk quota exceeded")})  # fmt: skip
    return json.dumps(jobs, indent=1) + "\n"


# ---------------------------------------------------------------------------------------------- pytest project
def shipping_project() -> dict[str, str]:
    files: dict[str, str] = {}
    files["pyproject.toml"] = """
        [build-system]
        requires = ["setuptools>=61"]
        build-backend = "setuptools.build_meta"

        [project]
        name = "shipping"
        version = "0.4.0"
        requires-python = ">=3.10"

        [tool.setuptools]
        packages = ["shipping"]

        [tool.pytest.ini_options]
        testpaths = ["tests"]
    """
    files["shipping/__init__.py"] = '__version__ = "0.4.0"\n'
    files["shipping/rates.py"] = """
        import warnings

        ZONES = {"DE": 1, "AT": 2, "FR": 2, "NL": 2, "IT": 3, "ES": 3, "PL": 3, "US": 5, "JP": 6}
        BASE = {1: 4.90, 2: 9.90, 3: 12.90, 5: 24.90, 6: 29.90}


        def zone(country):
            return ZONES[country.upper()]


        def rate(country, weight_kg):
            z = zone(country)
            price = BASE[z]
            if weight_kg > 5:
                price += (weight_kg - 5) * 1.5 * z
            if weight_kg > 31.5:
                raise ValueError(f"parcel too heavy: {weight_kg} kg")
            return round(price, 2)


        def legacy_rate(country, weight_kg):
            warnings.warn("legacy_rate() is deprecated; use rate()", DeprecationWarning, stacklevel=2)
            return rate(country, weight_kg)
    """
    files["shipping/labels.py"] = """
        import re

        POSTCODE = {"DE": re.compile(r"^\\d{5}$"), "NL": re.compile(r"^\\d{4} ?[A-Z]{2}$"), "AT": re.compile(r"^\\d{4}$")}


        def parse_address(text):
            lines = [part.strip() for part in text.strip().splitlines()]
            name, street, city_line, country = lines
            postcode, city = city_line.split(" ", 1)
            if not POSTCODE[country].match(postcode):
                raise ValueError(f"bad postcode {postcode!r} for {country}")
            return {"name": name, "street": street, "postcode": postcode, "city": city, "country": country}


        def label(address):
            a = parse_address(address)
            return f"{a['name'].upper()}\\n{a['street']}\\n{a['postcode']} {a['city'].upper()}\\n{a['country']}"
    """
    files["shipping/tracking.py"] = """
        import json
        from pathlib import Path


        class Carrier:
            def __init__(self, config_path):
                self.config = json.loads(Path(config_path).read_text())

            def url(self, code):
                return self.config["url"].format(code=code)
    """
    cases = []
    rng = random.Random(2)
    for country in ["DE", "AT", "FR", "NL", "IT", "ES", "PL", "US", "JP"]:
        for weight in (1, 5, 12):
            z = {"DE": 1, "AT": 2, "FR": 2, "NL": 2, "IT": 3, "ES": 3, "PL": 3, "US": 5, "JP": 6}[country]
            base = {1: 4.90, 2: 9.90, 3: 12.90, 5: 24.90, 6: 29.90}[z]
            expected = round(base + max(0, weight - 5) * 1.5 * z, 2)
            if (country, weight) in {("FR", 12), ("JP", 5)}:
                expected = round(expected + rng.choice([1.0, 2.5]), 2)  # the tariff sheet changed, the code did not
            cases.append(f"    ({country!r}, {weight}, {expected}),")
    files["tests/__init__.py"] = ""
    files["tests/test_rates.py"] = (
        "import pytest\n\nfrom shipping.rates import rate, zone, legacy_rate\n\n\n"
        "@pytest.mark.parametrize(\n    ('country', 'weight', 'expected'),\n    [\n"
        + "\n".join(cases)
        + "\n    ],\n)\ndef test_rate(country, weight, expected):\n    assert rate(country, weight) == expected\n\n\n"
        "@pytest.mark.parametrize('country', ['de', 'De', 'DE', 'ch', 'at'])\n"
        "def test_zone_case_insensitive(country):\n    assert zone(country) >= 1\n\n\n"
        "def test_too_heavy():\n    with pytest.raises(ValueError, match='too heavy'):\n        rate('DE', 40)\n\n\n"
        "@pytest.mark.parametrize('weight', [0.5, 2, 4, 7, 9, 14, 20, 25, 30, 31])\n"
        "def test_legacy_rate_matches(weight):\n    assert legacy_rate('DE', weight) == rate('DE', weight)\n"
    )
    files["tests/test_labels.py"] = """
        import pytest

        from shipping.labels import label, parse_address

        GOOD = '''
        Erika Mustermann
        Hauptstr. 5
        10115 Berlin
        DE
        '''


        def test_parse_good():
            assert parse_address(GOOD)["postcode"] == "10115"


        def test_label_upper():
            assert label(GOOD).splitlines()[0] == "ERIKA MUSTERMANN"


        def test_dutch_postcode_with_space():
            text = "Jan Jansen\\nKerkstraat 1\\n1017 GC Amsterdam\\nNL"
            assert parse_address(text)["city"] == "Amsterdam"


        def test_address_with_company_line():
            text = "ACME GmbH\\nz. Hd. Frau Weber\\nIndustriestr. 7\\n80331 München\\nDE"
            result = parse_address(text)
            assert result["name"] == "ACME GmbH"


        @pytest.mark.skip(reason="Swiss postcodes not supported yet (SHIP-212)")
        def test_swiss():
            parse_address("A\\nB\\n8001 Zürich\\nCH")
    """
    files["tests/test_tracking.py"] = """
        import pytest

        from shipping.tracking import Carrier


        @pytest.fixture
        def dhl(tmp_path):
            return Carrier("carriers/dhl.json")


        def test_url(dhl):
            assert dhl.url("JD0001") == "https://track.example/dhl/JD0001"


        def test_url_escapes(dhl):
            assert "%20" in dhl.url("JD 0002")
    """
    matrix = []
    for i in range(160):
        matrix.append(f"    ({i}, {(i * 7) % 13}),")
    files["tests/test_matrix.py"] = (
        "import sys\n\nimport pytest\n\nfrom shipping.rates import BASE\n\n\n"
        "@pytest.mark.parametrize(('order', 'slot'), [\n" + "\n".join(matrix) + "\n])\n"
        "def test_slot_in_range(order, slot):\n    assert 0 <= slot < 13\n\n\n"
        "@pytest.mark.parametrize('zone', sorted(BASE))\n"
        "def test_base_positive(zone):\n    assert BASE[zone] > 0\n\n\n"
        "@pytest.mark.skipif(sys.platform == 'linux', reason='Windows path handling only')\n"
        "def test_windows_paths():\n    pass\n\n\n"
        "@pytest.mark.xfail(reason='zone 4 not priced yet (SHIP-198)')\n"
        "def test_zone_four():\n    assert 4 in BASE\n"
    )
    return files


PROPS_PROJECT = {
    "slugify.py": """
        import re
        import unicodedata


        def slugify(text, max_len=40):
            text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
            text = re.sub(r"[^a-zA-Z0-9]+", "-", text).strip("-").lower()
            return text[:max_len]


        def chunk(items, size):
            return [items[i:i + size] for i in range(0, len(items) - size + 1, size)]
    """,
    "test_props.py": """
        from hypothesis import given, strategies as st

        from slugify import chunk, slugify


        @given(st.text())
        def test_slug_has_no_edge_dashes(text):
            slug = slugify(text)
            assert not slug.startswith("-") and not slug.endswith("-")


        @given(st.lists(st.integers()), st.integers(min_value=1, max_value=5))
        def test_chunk_keeps_everything(items, size):
            assert sum(chunk(items, size), []) == items


        @given(st.text(alphabet="abc -", max_size=20))
        def test_slug_idempotent(text):
            assert slugify(slugify(text)) == slugify(text)
    """,
}

UNITTEST_PROJECT = {
    "accounts/__init__.py": "",
    "accounts/ledger.py": """
        from decimal import Decimal


        class InsufficientFunds(Exception):
            pass


        class Account:
            def __init__(self, owner, balance="0.00", overdraft="0.00"):
                self.owner = owner
                self.balance = Decimal(balance)
                self.overdraft = Decimal(overdraft)
                self.history = []

            def deposit(self, amount):
                amount = Decimal(amount)
                if amount <= 0:
                    raise ValueError("deposit must be positive")
                self.balance += amount
                self.history.append(("deposit", amount))

            def withdraw(self, amount):
                amount = Decimal(amount)
                if amount > self.balance + self.overdraft:
                    raise InsufficientFunds(f"{self.owner}: balance {self.balance}, wanted {amount}")
                self.balance -= amount
                self.history.append(("withdraw", amount))

            def transfer(self, other, amount):
                self.withdraw(amount)
                other.deposit(amount)


        def monthly_fee(account):
            return Decimal("2.50") if account.balance < 1000 else Decimal("0")


        def interest(account, rate):
            return (account.balance * Decimal(rate) / 12).quantize(Decimal("0.01"))
    """,
    "tests/__init__.py": "",
    "tests/test_ledger.py": """
        import unittest
        from decimal import Decimal

        from accounts.ledger import Account, InsufficientFunds, interest, monthly_fee


        class DepositTests(unittest.TestCase):
            def test_deposit(self):
                a = Account("ana")
                a.deposit("10.00")
                self.assertEqual(a.balance, Decimal("10.00"))

            def test_negative_deposit(self):
                with self.assertRaises(ValueError):
                    Account("ana").deposit("-1")

            def test_history(self):
                a = Account("ana")
                a.deposit("5")
                a.deposit("7")
                self.assertEqual([kind for kind, _ in a.history], ["deposit", "deposit"])


        class WithdrawTests(unittest.TestCase):
            def test_withdraw(self):
                a = Account("ben", "50.00")
                a.withdraw("20.00")
                self.assertEqual(a.balance, Decimal("30.00"))

            def test_overdraft_allowed(self):
                a = Account("ben", "10.00", overdraft="100.00")
                a.withdraw("60.00")
                self.assertEqual(a.balance, Decimal("-50.00"))

            def test_insufficient(self):
                with self.assertRaises(InsufficientFunds):
                    Account("ben", "10.00").withdraw("10.01")

            def test_withdraw_all_then_fee(self):
                a = Account("ben", "1200.00")
                a.withdraw("1200.00")
                self.assertEqual(monthly_fee(a), Decimal("0"))


        class TransferTests(unittest.TestCase):
            def test_transfer(self):
                a, b = Account("a", "100"), Account("b")
                a.transfer(b, "40")
                self.assertEqual((a.balance, b.balance), (Decimal("60"), Decimal("40")))

            def test_transfer_is_atomic(self):
                a, b = Account("a", "100"), Account("b")
                with self.assertRaises(ValueError):
                    a.transfer(b, "0")
                self.assertEqual(a.balance, Decimal("100"))

            def test_transfer_records_both_sides(self):
                a, b = Account("a", "100"), Account("b")
                a.transfer(b, "1")
                self.assertEqual(len(a.history) + len(b.history), 2)


        class InterestTests(unittest.TestCase):
            def test_interest(self):
                self.assertEqual(interest(Account("c", "1200"), "0.03"), Decimal("3.00"))

            def test_interest_rounds_half_even(self):
                self.assertEqual(interest(Account("c", "1000.50"), "0.025"), Decimal("2.09"))

            def test_interest_float_rate(self):
                self.assertEqual(interest(Account("c", "100"), 0.05), Decimal("0.42"))

            @unittest.skip("rates API not wired up yet")
            def test_interest_from_api(self):
                pass


        if __name__ == "__main__":
            unittest.main()
    """,
    "tests/test_statements.py": """
        import unittest
        from decimal import Decimal

        from accounts.ledger import Account


        class StatementTests(unittest.TestCase):
            def test_statement_line_00(self):
                a = Account("s0", "4186.00")
                a.withdraw("36.00")
                self.assertEqual(a.balance, Decimal("4150.00"))

            def test_statement_line_01(self):
                a = Account("s1", "5875.00")
                a.withdraw("25.00")
                self.assertEqual(a.balance, Decimal("5850.00"))

            def test_statement_line_02(self):
                a = Account("s2", "8685.00")
                a.withdraw("35.00")
                self.assertEqual(a.balance, Decimal("8650.00"))

            def test_statement_line_03(self):
                a = Account("s3", "476.00")
                a.withdraw("26.00")
                self.assertEqual(a.balance, Decimal("450.00"))

            def test_statement_line_04(self):
                a = Account("s4", "7629.00")
                a.withdraw("29.00")
                self.assertEqual(a.balance, Decimal("7600.00"))

            def test_statement_line_05(self):
                a = Account("s5", "4081.00")
                a.withdraw("31.00")
                self.assertEqual(a.balance, Decimal("4050.00"))

            def test_statement_line_06(self):
                a = Account("s6", "850.00")
                a.withdraw("0.00")
                self.assertEqual(a.balance, Decimal("850.00"))

            def test_statement_line_07(self):
                a = Account("s7", "2570.00")
                a.withdraw("20.00")
                self.assertEqual(a.balance, Decimal("2550.00"))

            def test_statement_line_08(self):
                a = Account("s8", "1855.00")
                a.withdraw("5.00")
                self.assertEqual(a.balance, Decimal("1850.00"))

            def test_statement_line_09(self):
                a = Account("s9", "6092.00")
                a.withdraw("42.00")
                self.assertEqual(a.balance, Decimal("6050.00"))

            def test_statement_line_10(self):
                a = Account("s10", "7686.00")
                a.withdraw("36.00")
                self.assertEqual(a.balance, Decimal("7650.00"))

            def test_statement_line_11(self):
                a = Account("s11", "4040.00")
                a.withdraw("40.00")
                self.assertEqual(a.balance, Decimal("4000.00"))

            def test_statement_line_12(self):
                a = Account("s12", "6239.00")
                a.withdraw("39.00")
                self.assertEqual(a.balance, Decimal("6200.00"))

            def test_statement_line_13(self):
                a = Account("s13", "8909.00")
                a.withdraw("9.00")
                self.assertEqual(a.balance, Decimal("8900.00"))

            def test_statement_line_14(self):
                a = Account("s14", "1671.00")
                a.withdraw("21.00")
                self.assertEqual(a.balance, Decimal("1650.00"))

            def test_statement_line_15(self):
                a = Account("s15", "9404.00")
                a.withdraw("4.00")
                self.assertEqual(a.balance, Decimal("9400.00"))

            def test_statement_line_16(self):
                a = Account("s16", "4086.00")
                a.withdraw("36.00")
                self.assertEqual(a.balance, Decimal("4050.00"))

            def test_statement_line_17(self):
                a = Account("s17", "215.00")
                a.withdraw("15.00")
                self.assertEqual(a.balance, Decimal("200.00"))

            def test_statement_line_18(self):
                a = Account("s18", "3551.00")
                a.withdraw("1.00")
                self.assertEqual(a.balance, Decimal("3550.00"))

            def test_statement_line_19(self):
                a = Account("s19", "6688.00")
                a.withdraw("38.00")
                self.assertEqual(a.balance, Decimal("6650.00"))

            def test_statement_line_20(self):
                a = Account("s20", "4580.00")
                a.withdraw("30.00")
                self.assertEqual(a.balance, Decimal("4550.00"))

            def test_statement_line_21(self):
                a = Account("s21", "2984.00")
                a.withdraw("34.00")
                self.assertEqual(a.balance, Decimal("2950.00"))

            def test_statement_line_22(self):
                a = Account("s22", "6381.00")
                a.withdraw("31.00")
                self.assertEqual(a.balance, Decimal("6350.00"))

            def test_statement_line_23(self):
                a = Account("s23", "2615.00")
                a.withdraw("15.00")
                self.assertEqual(a.balance, Decimal("2600.00"))

            def test_statement_line_24(self):
                a = Account("s24", "1179.00")
                a.withdraw("29.00")
                self.assertEqual(a.balance, Decimal("1150.00"))

            def test_statement_line_25(self):
                a = Account("s25", "2274.00")
                a.withdraw("24.00")
                self.assertEqual(a.balance, Decimal("2250.00"))

            def test_statement_line_26(self):
                a = Account("s26", "7289.00")
                a.withdraw("39.00")
                self.assertEqual(a.balance, Decimal("7250.00"))

            def test_statement_line_27(self):
                a = Account("s27", "2076.00")
                a.withdraw("26.00")
                self.assertEqual(a.balance, Decimal("2050.00"))

            def test_statement_line_28(self):
                a = Account("s28", "2167.00")
                a.withdraw("17.00")
                self.assertEqual(a.balance, Decimal("2150.00"))

            def test_statement_line_29(self):
                a = Account("s29", "30.00")
                a.withdraw("30.00")
                self.assertEqual(a.balance, Decimal("0.00"))

            def test_statement_line_30(self):
                a = Account("s30", "88.00")
                a.withdraw("38.00")
                self.assertEqual(a.balance, Decimal("50.00"))

            def test_statement_line_31(self):
                a = Account("s31", "3432.00")
                a.withdraw("32.00")
                self.assertEqual(a.balance, Decimal("3400.00"))

            def test_statement_line_32(self):
                a = Account("s32", "3531.00")
                a.withdraw("31.00")
                self.assertEqual(a.balance, Decimal("3500.00"))

            def test_statement_line_33(self):
                a = Account("s33", "2718.00")
                a.withdraw("18.00")
                self.assertEqual(a.balance, Decimal("2700.00"))

            def test_statement_line_34(self):
                a = Account("s34", "2728.00")
                a.withdraw("28.00")
                self.assertEqual(a.balance, Decimal("2700.00"))

            def test_statement_line_35(self):
                a = Account("s35", "4740.00")
                a.withdraw("40.00")
                self.assertEqual(a.balance, Decimal("4700.00"))

            def test_statement_line_36(self):
                a = Account("s36", "5139.00")
                a.withdraw("39.00")
                self.assertEqual(a.balance, Decimal("5100.00"))

            def test_statement_line_37(self):
                a = Account("s37", "3259.00")
                a.withdraw("9.00")
                self.assertEqual(a.balance, Decimal("3250.00"))

            def test_statement_line_38(self):
                a = Account("s38", "8835.00")
                a.withdraw("35.00")
                self.assertEqual(a.balance, Decimal("8800.00"))

            def test_statement_line_39(self):
                a = Account("s39", "3356.00")
                a.withdraw("6.00")
                self.assertEqual(a.balance, Decimal("3350.00"))

            def test_statement_line_40(self):
                a = Account("s40", "2977.00")
                a.withdraw("27.00")
                self.assertEqual(a.balance, Decimal("2950.00"))

            def test_statement_line_41(self):
                a = Account("s41", "3226.00")
                a.withdraw("26.00")
                self.assertEqual(a.balance, Decimal("3200.00"))

            def test_statement_line_42(self):
                a = Account("s42", "6279.00")
                a.withdraw("29.00")
                self.assertEqual(a.balance, Decimal("6250.00"))

            def test_statement_line_43(self):
                a = Account("s43", "4896.00")
                a.withdraw("46.00")
                self.assertEqual(a.balance, Decimal("4850.00"))

            def test_statement_line_44(self):
                a = Account("s44", "354.00")
                a.withdraw("4.00")
                self.assertEqual(a.balance, Decimal("350.00"))

            def test_statement_line_45(self):
                a = Account("s45", "5918.00")
                a.withdraw("18.00")
                self.assertEqual(a.balance, Decimal("5900.00"))

            def test_statement_line_46(self):
                a = Account("s46", "6798.00")
                a.withdraw("48.00")
                self.assertEqual(a.balance, Decimal("6750.00"))

            def test_statement_line_47(self):
                a = Account("s47", "2720.00")
                a.withdraw("20.00")
                self.assertEqual(a.balance, Decimal("2700.00"))

            def test_statement_line_48(self):
                a = Account("s48", "2388.00")
                a.withdraw("38.00")
                self.assertEqual(a.balance, Decimal("2350.00"))

            def test_statement_line_49(self):
                a = Account("s49", "4323.00")
                a.withdraw("23.00")
                self.assertEqual(a.balance, Decimal("4300.00"))

            def test_statement_line_50(self):
                a = Account("s50", "1068.00")
                a.withdraw("18.00")
                self.assertEqual(a.balance, Decimal("1050.00"))

            def test_statement_line_51(self):
                a = Account("s51", "5438.00")
                a.withdraw("38.00")
                self.assertEqual(a.balance, Decimal("5400.00"))

            def test_statement_line_52(self):
                a = Account("s52", "4938.00")
                a.withdraw("38.00")
                self.assertEqual(a.balance, Decimal("4900.00"))

            def test_statement_line_53(self):
                a = Account("s53", "9882.00")
                a.withdraw("32.00")
                self.assertEqual(a.balance, Decimal("9850.00"))

            def test_statement_line_54(self):
                a = Account("s54", "9604.00")
                a.withdraw("4.00")
                self.assertEqual(a.balance, Decimal("9600.00"))

            def test_statement_line_55(self):
                a = Account("s55", "56.00")
                a.withdraw("6.00")
                self.assertEqual(a.balance, Decimal("50.00"))

            def test_statement_line_56(self):
                a = Account("s56", "9765.00")
                a.withdraw("15.00")
                self.assertEqual(a.balance, Decimal("9750.00"))

            def test_statement_line_57(self):
                a = Account("s57", "5537.00")
                a.withdraw("37.00")
                self.assertEqual(a.balance, Decimal("5500.00"))

            def test_statement_line_58(self):
                a = Account("s58", "1082.00")
                a.withdraw("32.00")
                self.assertEqual(a.balance, Decimal("1050.00"))

            def test_statement_line_59(self):
                a = Account("s59", "5079.00")
                a.withdraw("29.00")
                self.assertEqual(a.balance, Decimal("5050.00"))

            def test_statement_line_60(self):
                a = Account("s60", "5823.00")
                a.withdraw("23.00")
                self.assertEqual(a.balance, Decimal("5800.00"))

            def test_statement_line_61(self):
                a = Account("s61", "5015.00")
                a.withdraw("15.00")
                self.assertEqual(a.balance, Decimal("5000.00"))

            def test_statement_line_62(self):
                a = Account("s62", "7877.00")
                a.withdraw("27.00")
                self.assertEqual(a.balance, Decimal("7850.00"))

            def test_statement_line_63(self):
                a = Account("s63", "5174.00")
                a.withdraw("24.00")
                self.assertEqual(a.balance, Decimal("5150.00"))

            def test_statement_line_64(self):
                a = Account("s64", "3028.00")
                a.withdraw("28.00")
                self.assertEqual(a.balance, Decimal("3000.00"))

            def test_statement_line_65(self):
                a = Account("s65", "7885.00")
                a.withdraw("35.00")
                self.assertEqual(a.balance, Decimal("7850.00"))

            def test_statement_line_66(self):
                a = Account("s66", "7743.00")
                a.withdraw("43.00")
                self.assertEqual(a.balance, Decimal("7700.00"))

            def test_statement_line_67(self):
                a = Account("s67", "2886.00")
                a.withdraw("36.00")
                self.assertEqual(a.balance, Decimal("2850.00"))

            def test_statement_line_68(self):
                a = Account("s68", "934.00")
                a.withdraw("34.00")
                self.assertEqual(a.balance, Decimal("900.00"))

            def test_statement_line_69(self):
                a = Account("s69", "4198.00")
                a.withdraw("48.00")
                self.assertEqual(a.balance, Decimal("4150.00"))

            def test_statement_line_70(self):
                a = Account("s70", "375.00")
                a.withdraw("25.00")
                self.assertEqual(a.balance, Decimal("350.00"))

            def test_statement_line_71(self):
                a = Account("s71", "5860.00")
                a.withdraw("10.00")
                self.assertEqual(a.balance, Decimal("5850.00"))
    """,
}

# ------------------------------------------------------------------------------------------------ typed package
GEO_PACKAGE = {
    "geo/__init__.py": """
        from geo.distance import haversine
        from geo.route import Route
        import os, sys
    """,
    "geo/distance.py": """
        import math
        from typing import Optional

        EARTH_KM = 6371.0


        def haversine(a: tuple[float, float], b: tuple[float, float]) -> float:
            lat1, lon1 = map(math.radians, a)
            lat2, lon2 = map(math.radians, b)
            h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
            return 2 * EARTH_KM * math.asin(math.sqrt(h))


        def parse_point(text: str) -> Optional[tuple[float, float]]:
            if "," not in text:
                return None
            lat, lon = text.split(",")
            return float(lat), float(lon)


        def bearing(a, b):
            lat1, lon1 = map(math.radians, a)
            lat2, lon2 = map(math.radians, b)
            x = math.sin(lon2 - lon1) * math.cos(lat2)
            y = math.cos(lat1)*math.sin(lat2) - math.sin(lat1)*math.cos(lat2)*math.cos(lon2 - lon1)
            return (math.degrees(math.atan2(x, y)) + 360) % 360
    """,
    "geo/route.py": """
        from dataclasses import dataclass, field
        from typing import List, Dict

        from geo.distance import haversine, parse_point


        @dataclass
        class Stop:
            name: str
            point: tuple[float, float]
            eta_min: int = 0


        @dataclass
        class Route:
            stops: List[Stop] = field(default_factory=list)

            def add(self, name: str, text: str) -> None:
                self.stops.append(Stop(name, parse_point(text)))

            def length_km(self) -> float:
                total = 0
                for a, b in zip(self.stops, self.stops[1:]):
                    total += haversine(a.point, b.point)
                return total

            def by_name(self) -> Dict[str, Stop]:
                return {s.name: s for s in self.stops}

            def eta(self, name: str) -> int:
                return self.by_name().get(name).eta_min

            def summary(self) -> str:
                return "%d stops, %.1f km" % (len(self.stops), self.length_km())


        def load(rows: list[dict[str, str]]) -> Route:
            route = Route()
            for row in rows:
                route.add(row["name"], row["point"])
            route.stops.sort(key=lambda s: s.eta_min)
            return route.summary()
    """,
    "geo/export.py": """
        import json
        from collections import OrderedDict
        from geo.route import Route
        from typing import Any


        def to_geojson(route: Route) -> dict[str, Any]:
            features = []
            for stop in route.stops:
                features.append({"type": "Feature", "geometry": {"type": "Point", "coordinates": [stop.point[1], stop.point[0]]},
                                 "properties": {"name": stop.name}})
            return {"type": "FeatureCollection", "features": features}


        def dump(route: Route, path: str) -> None:
            with open(path, "w") as fh:
                json.dump(to_geojson(route), fh, indent=2)
            return len(route.stops)


        def legacy_dict(route):
            d = OrderedDict()
            for i in range(len(route.stops)):
                d[route.stops[i].name] = route.stops[i].point
            return d
    """,
}

# -------------------------------------------------------------------------------------------------------- node
NODE_PROJECT = {
    "package.json": json.dumps(
        {
            "name": "cart-service",
            "version": "2.3.0",
            "private": True,
            "type": "commonjs",
            "scripts": {
                "typecheck": "tsc --noEmit -p .",
                "test:ci": "node --test --test-reporter=spec test/",
                "migrate": "node scripts/migrate.js",
            },
            "devDependencies": {"typescript": "5.6.3"},
        },
        indent=2,
    )
    + "\n",
    "tsconfig.json": json.dumps(
        {
            "compilerOptions": {
                "target": "ES2022",
                "module": "commonjs",
                "strict": True,
                "outDir": "dist",
                "noUnusedLocals": True,
            },
            "include": ["src"],
        },
        indent=2,
    )
    + "\n",
    "src/cart.ts": """
        export interface Item {
          sku: string;
          qty: number;
          priceCents: number;
        }

        export interface Cart {
          id: string;
          items: Item[];
          coupon?: string;
        }

        export function total(cart: Cart): number {
          return cart.items.reduce((sum, item) => sum + item.qty * item.priceCents, 0);
        }

        export function addItem(cart: Cart, sku: string, qty: number, price: string): Cart {
          const items = [...cart.items, { sku, qty, priceCents: price }];
          return { ...cart, items };
        }

        export function couponCode(cart: Cart): string {
          return cart.coupon.toUpperCase();
        }
    """,
    "src/checkout.ts": """
        import { Cart, total } from "./cart";
        import { formatCents } from "./money";

        type PaymentMethod = "card" | "paypal" | "invoice";

        export function checkout(cart: Cart, method: PaymentMethod) {
          const unused = 42;
          if (method === "crypto") {
            throw new Error("not supported");
          }
          return { amount: formatCents(total(cart)), method, lines: cart.items.lenght };
        }
    """,
    "src/money.ts": """
        export function formatCents(cents: number): string {
          return (cents / 100).toFixed(2) + " EUR";
        }

        export function parseCents(text: string): number {
          return Math.round(parseFloat(text) * 100);
        }
    """,
    "lib/cart.js": """
        'use strict';
        function total(cart) {
          return cart.items.reduce((sum, item) => sum + item.qty * item.priceCents, 0);
        }
        function applyCoupon(cart, coupons) {
          const rule = coupons[cart.coupon];
          if (rule.kind === 'percent') {
            return Math.round(total(cart) * (100 - rule.value) / 100);
          }
          return total(cart) - rule.value;
        }
        function mergeCarts(a, b) {
          const items = new Map();
          for (const item of [...a.items, ...b.items]) {
            const prev = items.get(item.sku);
            items.set(item.sku, prev ? { ...prev, qty: prev.qty + item.qty } : item);
          }
          return { id: a.id, items: [...items.values()] };
        }
        module.exports = { total, applyCoupon, mergeCarts };
    """,
    "test/cart.test.js": """
        'use strict';
        const { describe, it } = require('node:test');
        const assert = require('node:assert/strict');
        const { total, applyCoupon, mergeCarts } = require('../lib/cart');

        const cart = { id: 'c1', items: [{ sku: 'A', qty: 2, priceCents: 1250 }, { sku: 'B', qty: 1, priceCents: 499 }] };

        describe('total', () => {
          it('sums quantity times price', () => assert.equal(total(cart), 2999));
          it('is zero for an empty cart', () => assert.equal(total({ items: [] }), 0));
        });

        describe('applyCoupon', () => {
          const coupons = { TEN: { kind: 'percent', value: 10 }, FIVE: { kind: 'fixed', value: 500 } };
          it('applies a percent coupon', () => assert.equal(applyCoupon({ ...cart, coupon: 'TEN' }, coupons), 2699));
          it('applies a fixed coupon', () => assert.equal(applyCoupon({ ...cart, coupon: 'FIVE' }, coupons), 2499));
          it('ignores an unknown coupon', () => assert.equal(applyCoupon({ ...cart, coupon: 'NOPE' }, coupons), 2999));
          it('never goes below zero', () => {
            const small = { items: [{ sku: 'C', qty: 1, priceCents: 300 }], coupon: 'FIVE' };
            assert.equal(applyCoupon(small, coupons), 0);
          });
        });

        describe('mergeCarts', () => {
          it('adds quantities of the same sku', () => {
            const merged = mergeCarts(cart, { items: [{ sku: 'A', qty: 1, priceCents: 1250 }] });
            assert.deepEqual(merged.items.map((i) => i.qty), [3, 1]);
          });
          it('keeps the first cart id', () => assert.equal(mergeCarts(cart, { id: 'c2', items: [] }).id, 'c1'));
          it('does not mutate its inputs', () => {
            const a = { id: 'x', items: [{ sku: 'A', qty: 1, priceCents: 1 }] };
            mergeCarts(a, { items: [{ sku: 'A', qty: 1, priceCents: 1 }] });
            assert.deepEqual(a.items, [{ sku: 'A', qty: 1, priceCents: 1 }]);
          });
        });
    """,
    "scripts/migrate.js": """
        'use strict';
        const fs = require('node:fs');
        const path = require('node:path');

        function loadMigrations(dir) {
          return fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()
            .map((f) => ({ name: f, ...JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) }));
        }

        function applyStep(db, step) {
          const table = db.tables[step.table];
          for (const column of step.addColumns) {
            table.columns.push(column);
          }
        }

        function migrate(db, migrations) {
          for (const m of migrations) {
            console.log(`applying ${m.name} (${m.steps.length} steps)`);
            m.steps.forEach((step) => applyStep(db, step));
          }
        }

        const db = { tables: { carts: { columns: ['id', 'created'] }, items: { columns: ['sku', 'qty'] } } };
        migrate(db, loadMigrations(path.join(__dirname, '..', 'migrations')));
        console.log('done', JSON.stringify(db));
    """,
    "migrations/001_items_price.json": '{"steps": [{"table": "items", "addColumns": ["price_cents"]}]}\n',
    "migrations/002_cart_owner.json": '{"steps": [{"table": "carts", "addColumns": ["owner"]}]}\n',
    "migrations/003_coupons.json": '{"steps": [{"table": "coupons", "addColumns": ["code", "value"]}]}\n',
}

# -------------------------------------------------------------------------------------------------------- rust
RUST_CRATES: dict[str, dict[str, str]] = {
    "invoice": {
        "src/main.rs": """
            use std::collections::HashMap;
            use std::fmt;

            #[derive(Debug, Clone)]
            struct Line {
                sku: String,
                qty: u32,
                unit_cents: u64,
            }

            struct Invoice {
                number: String,
                lines: Vec<Line>,
                notes: Option<String>,
            }

            impl fmt::Display for Invoice {
                fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
                    write!(f, "{} ({} lines)", self.number, self.lines.len())
                }
            }

            fn total(inv: &Invoice) -> u64 {
                inv.lines.iter().map(|l| l.qty * l.unit_cents).sum()
            }

            fn by_sku(inv: &Invoice) -> HashMap<&str, u32> {
                let mut map = HashMap::new();
                for line in &inv.lines {
                    *map.entry(line.sku.as_str()).or_insert(0) += line.qty;
                }
                map
            }

            fn main() {
                let unused_rate = 0.19;
                let inv = Invoice { number: "INV-1".into(), lines: vec![], notes: None };
                let moved = inv;
                println!("{} total {}", inv, total(&moved));
                let counts = by_sku(&moved);
                let mut keys: Vec<_> = counts.keys().collect();
                keys.sort();
            }
        """,
    },
    "tally": {
        "src/lib.rs": """
            pub fn word_count(text: &str) -> usize {
                text.split(' ').filter(|w| !w.is_empty()).count()
            }

            pub fn top_words(text: &str, n: usize) -> Vec<(String, usize)> {
                let mut counts = std::collections::HashMap::new();
                for w in text.split_whitespace() {
                    *counts.entry(w.to_lowercase()).or_insert(0) += 1;
                }
                let mut v: Vec<_> = counts.into_iter().collect();
                v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
                v.truncate(n);
                v
            }

            pub fn mean(xs: &[f64]) -> Option<f64> {
                if xs.is_empty() { None } else { Some(xs.iter().sum::<f64>() / xs.len() as f64) }
            }

            #[cfg(test)]
            mod tests {
                use super::*;

                #[test] fn counts_words() { assert_eq!(word_count("a b c"), 3); }
                #[test] fn counts_words_with_newlines() { assert_eq!(word_count("one two\\nthree\\tfour"), 4); }
                #[test] fn empty_text() { assert_eq!(word_count(""), 0); }
                #[test] fn top_two() { assert_eq!(top_words("b a b c b a", 2), vec![("b".to_string(), 3), ("a".to_string(), 2)]); }
                #[test] fn top_is_case_insensitive() { assert_eq!(top_words("A a", 1)[0].1, 2); }
                #[test] fn mean_of_values() { assert_eq!(mean(&[1.0, 2.0, 3.0]), Some(2.0)); }
                #[test] fn mean_of_nothing() { assert_eq!(mean(&[]), None); }
                #[test] #[ignore] fn huge_corpus() { assert!(word_count(&"x ".repeat(10_000_000)) > 0); }
            }
        """,
        "tests/cli.rs": """
            #[test]
            fn lib_is_usable_from_outside() {
                assert_eq!(tally::word_count("x y"), 2);
            }
        """,
    },
    "csvsum": {
        "src/main.rs": """
            use std::env;
            use std::error::Error;
            use std::fs;

            fn parse_row(line: &str, lineno: usize) -> Result<(String, f64), Box<dyn Error>> {
                let mut parts = line.split(',');
                let name = parts.next().ok_or("missing name")?.trim().to_string();
                let value = parts
                    .next()
                    .ok_or_else(|| format!("line {lineno}: missing value column"))?
                    .trim()
                    .parse::<f64>()
                    .map_err(|e| format!("line {lineno}: {e}"))?;
                Ok((name, value))
            }

            fn main() -> Result<(), Box<dyn Error>> {
                let path = env::args().nth(1).ok_or("usage: csvsum FILE")?;
                let text = fs::read_to_string(&path)?;
                let mut total = 0.0;
                for (i, line) in text.lines().enumerate().skip(1) {
                    let (name, value) = parse_row(line, i + 1)?;
                    println!("{name:>12} {value:>10.2}");
                    total += value;
                }
                println!("{:>12} {:>10.2}", "TOTAL", total);
                Ok(())
            }
        """,
        "data.csv": "name,value\nalpha,10.5\nbeta,3.25\ngamma,7\ndelta,1.2.3\nepsilon,4\n",
    },
}

# ----------------------------------------------------------------------------------------------------------- C
C_PROJECT = {
    "Makefile": """
        SUBDIRS = lib tools app

        .PHONY: all clean $(SUBDIRS)

        all: $(SUBDIRS)

        app tools: lib

        $(SUBDIRS):
        \t$(MAKE) -C $@

        clean:
        \tfor d in $(SUBDIRS); do $(MAKE) -C $$d clean; done
    """,
    "lib/Makefile": """
        CFLAGS = -O2 -Wall -Wextra -std=c11
        OBJS = ringbuf.o strutil.o crc32.o

        libcore.a: $(OBJS)
        \tar rcs $@ $^

        %.o: %.c
        \t$(CC) $(CFLAGS) -c $< -o $@

        clean:
        \trm -f *.o libcore.a
    """,
    "lib/ringbuf.c": """
        #include <stdlib.h>
        #include <string.h>

        typedef struct { unsigned char *buf; size_t cap, head, tail; } ringbuf;

        int rb_init(ringbuf *rb, size_t cap) {
            rb->buf = malloc(cap);
            rb->cap = cap;
            rb->head = rb->tail = 0;
            return rb->buf != NULL;
        }

        int rb_push(ringbuf *rb, const unsigned char *data, int len) {
            for (int i = 0; i < len; i++) {
                if ((rb->head + 1) % rb->cap == rb->tail) return i;
                rb->buf[rb->head] = data[i];
                rb->head = (rb->head + 1) % rb->cap;
            }
            return len;
        }

        size_t rb_used(const ringbuf *rb) {
            int used = rb->head - rb->tail;
            if (used < 0) used += rb->cap;
            return used;
        }
    """,
    "lib/strutil.c": """
        #include <ctype.h>
        #include <stdio.h>
        #include <string.h>

        char *trim(char *s) {
            char *end;
            while (isspace((unsigned char)*s)) s++;
            end = s + strlen(s) - 1;
            while (end > s && isspace((unsigned char)*end)) end--;
            end[1] = '\\0';
            return s;
        }

        void fmt_size(char *out, long bytes, const char *unit) {
            char tmp[8];
            sprintf(tmp, "%ld %s", bytes, unit);
            strcpy(out, tmp);
        }

        int count_char(const char *s, char c) {
            int n = 0;
            unsigned i;
            for (i = 0; i < strlen(s); i++)
                if (s[i] = c) n++;
            return n;
        }
    """,
    "lib/crc32.c": """
        #include <stdint.h>
        #include <stddef.h>

        uint32_t crc32(const unsigned char *data, size_t len) {
            uint32_t crc = 0xFFFFFFFF;
            for (size_t i = 0; i < len; i++) {
                crc ^= data[i];
                for (int k = 0; k < 8; k++)
                    crc = (crc >> 1) ^ (0xEDB88320 & -(crc & 1));
            }
            return ~crc;
        }
    """,
    "tools/Makefile": """
        CFLAGS = -O2 -Wall -std=c11 -I../lib

        hexsum: hexsum.c ../lib/libcore.a
        \t$(CC) $(CFLAGS) $< ../lib/libcore.a -o $@

        clean:
        \trm -f hexsum
    """,
    "tools/hexsum.c": """
        #include <stdio.h>
        #include <stdint.h>
        #include <stddef.h>

        uint32_t crc32(const unsigned char *data, size_t len);

        int main(int argc, char **argv) {
            unsigned char buf[4096];
            FILE *f = fopen(argv[1], "rb");
            size_t n = fread(buf, 1, sizeof buf, f);
            printf("%08x  %zu bytes\\n", crc32(buf, n), n);
            return 0;
        }
    """,
    "app/Makefile": """
        CFLAGS = -O2 -Wall -Wextra -std=c11 -I../lib

        pktd: main.o config.o ../lib/libcore.a
        \t$(CC) $^ -o $@

        %.o: %.c
        \t$(CC) $(CFLAGS) -c $< -o $@

        clean:
        \trm -f *.o pktd
    """,
    "app/main.c": """
        #include <stdio.h>
        #include <stdlib.h>

        int load_config(const char *path, int *port);

        int main(int argc, char **argv) {
            int port;
            if (load_config(argc > 1 ? argv[1] : "pktd.conf", &port) != 0) {
                fprintf(stderr, "bad config\\n");
                return 1;
            }
            printf("listening on %d\\n", port);
            start_server(port);
            return 0;
        }
    """,
    "app/config.c": """
        #include <stdio.h>
        #include <string.h>

        int load_config(const char *path, int *port) {
            FILE *f = fopen(path, "r");
            char line[64];
            if (!f) return -1;
            while (fgets(line, sizeof line, f)) {
                if (strncmp(line, "port=", 5) == 0) *port = atoi(line + 5);
            }
            return 0;
        }
    """,
}

CMAKE_PROJECT = {
    "CMakeLists.txt": """
        cmake_minimum_required(VERSION 3.16)
        project(imgstat VERSION 0.9.1 LANGUAGES C)

        set(CMAKE_C_STANDARD 11)
        set(CMAKE_EXPORT_COMPILE_COMMANDS ON)
        option(IMGSTAT_WERROR "Treat warnings as errors" OFF)

        find_package(Threads REQUIRED)
        find_package(PkgConfig)
        find_package(ZLIB)
        if(NOT ZLIB_FOUND)
          message(WARNING "zlib not found: PNG chunk checksums will not be verified")
        endif()
        include(CheckIncludeFile)
        check_include_file(sys/mman.h HAVE_MMAN_H)

        add_library(imgcore src/histogram.c src/header.c)
        target_include_directories(imgcore PUBLIC include)
        target_compile_options(imgcore PRIVATE -Wall -Wextra -Wshadow)
        add_executable(imgstat src/main.c)
        target_link_libraries(imgstat PRIVATE imgcore Threads::Threads m)
        add_executable(leaky src/leaky.c)
        enable_testing()
        add_test(NAME header_roundtrip COMMAND imgstat --selftest)
    """,
    "include/imgcore.h": """
        #pragma once
        #include <stddef.h>
        #include <stdint.h>

        typedef struct { uint32_t width, height; uint8_t channels; } img_header;

        int read_header(const uint8_t *data, size_t len, img_header *out);
        void histogram(const uint8_t *px, size_t n, unsigned long bins[256]);
        double mean_brightness(const unsigned long bins[256]);
    """,
    "src/header.c": """
        #include "imgcore.h"
        #include <string.h>

        static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3]; }

        int read_header(const uint8_t *data, size_t len, img_header *out) {
            int width;
            if (len < 24 || memcmp(data, "\\x89PNG", 4) != 0) return -1;
            width = be32(data + 16);
            out->width = width;
            out->height = be32(data + 20);
            if (out->width < 0) return -2;
            return 0;
        }
    """,
    "src/histogram.c": """
        #include "imgcore.h"

        void histogram(const uint8_t *px, size_t n, unsigned long bins[256]) {
            for (int i = 0; i < 256; i++) bins[i] = 0;
            for (int i = 0; i < n; i++) bins[px[i]]++;
        }

        double mean_brightness(const unsigned long bins[256]) {
            unsigned long total = 0, n = 0;
            for (int i = 0; i < 256; i++) {
                unsigned long n = bins[i];
                total += n * i;
            }
            return n ? (double)total / n : 0.0;
        }
    """,
    "src/main.c": """
        #include <stdio.h>
        #include <string.h>
        #include "imgcore.h"

        int main(int argc, char **argv) {
            unsigned long bins[256];
            uint8_t px[] = {0, 10, 10, 200, 255};
            histogram(px, sizeof px, bins);
            printf("mean brightness %.2f\\n", mean_brightness(bins));
            return argc > 1 && strcmp(argv[1], "--selftest") == 0 ? 0 : 0;
        }
    """,
    "src/leaky.c": """
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>

        typedef struct node { char *key; struct node *next; } node;

        static node *push(node *head, const char *key) {
            node *n = malloc(sizeof *n);
            n->key = strdup(key);
            n->next = head;
            return n;
        }

        static void free_list(node *head) {
            while (head) {
                node *next = head->next;
                free(head);
                head = next;
            }
        }

        int main(void) {
            node *list = NULL;
            char name[16];
            int *counts = malloc(8 * sizeof(int));
            for (int i = 0; i < 40; i++) {
                snprintf(name, sizeof name, "key-%02d", i);
                list = push(list, name);
            }
            counts[8] = 1;
            printf("first key %s, sum %d\\n", list->key, counts[0] + counts[8]);
            free_list(list);
            return 0;
        }
    """,
}

# -------------------------------------------------------------------------------------------------------- java
JAVA_BROKEN = {
    "src/app/Main.java": """
        package app;

        import java.util.List;
        import java.util.Map;

        public class Main {
            public static void main(String[] args) {
                Inventory inv = new Inventory();
                inv.add("bolt", 12);
                int count = inv.count("bolt")
                System.out.println("bolts: " + count);
                List<String> names = inv.names();
                String first = names.get(0).toUpperCase(Locale.ROOT);
            }
        }
    """,
    "src/app/Inventory.java": """
        package app;

        import java.util.ArrayList;
        import java.util.HashMap;
        import java.util.List;
        import java.util.Map;

        public class Inventory {
            private final Map<String, Integer> stock = new HashMap<>();

            public void add(String sku, int qty) {
                stock.merge(sku, qty, Integer::sum);
            }

            public int count(String sku) {
                return stock.getOrDefault(sku, "0");
            }

            public List<String> names() {
                List<String> out = new ArrayList<>(stock.keySet());
                out.sort(null);
                return out;
            }

            public long total() {
                long sum = 0;
                for (int q : stock.values()) sum += q;
                return sum
            }
        }
    """,
}

JAVA_OK = {
    "src/app/Main.java": """
        package app;

        import java.io.IOException;
        import java.io.UncheckedIOException;
        import java.nio.file.Files;
        import java.nio.file.Path;
        import java.util.List;

        public class Main {
            static List<String> readOrders(Path path) {
                try {
                    return Files.readAllLines(path);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read orders from " + path, e);
                }
            }

            static int parseQty(String line) {
                String[] parts = line.split(";");
                return Integer.parseInt(parts[2].trim());
            }

            public static void main(String[] args) {
                List<String> lines = readOrders(Path.of("orders.csv"));
                int total = 0;
                for (int i = 1; i < lines.size(); i++) {
                    try {
                        total += parseQty(lines.get(i));
                    } catch (NumberFormatException e) {
                        throw new IllegalStateException("orders.csv line " + (i + 1) + ": bad quantity", e);
                    }
                }
                System.out.println("total qty " + total);
            }
        }
    """,
    "orders.csv": "id;sku;qty\n1;bolt;12\n2;nut;40\n3;washer;1O\n4;hinge;2\n",
}


# ------------------------------------------------------------------------------------------------------ notebook
def forecast_notebook() -> str:
    """A notebook (nbformat 4 JSON) whose fourth cell fails (a column renamed upstream), as `nbconvert --execute`
    meets it."""

    def cell(kind: str, source: str) -> dict[str, object]:
        extra: dict[str, object] = {"execution_count": None, "outputs": []} if kind == "code" else {}
        return {"cell_type": kind, "id": "", "metadata": {}, "source": source, **extra}

    cells = [
        cell("markdown", "# Weekly demand forecast\n\nReads the sales extract and fits a moving average."),
        cell("code", "import numpy as np\nimport pandas as pd\n\nrng = np.random.default_rng(3)"),
        cell(
            "code",
            "sales = pd.DataFrame({\n"
            "    'week': pd.date_range('2026-01-05', periods=40, freq='W-MON'),\n"
            "    'units_sold': rng.poisson(120, 40),\n"
            "    'region': rng.choice(['north', 'south'], 40),\n"
            "})\nsales.head()",
        ),
        cell(
            "code",
            "def moving_average(df, window=4):\n"
            "    out = df.sort_values('week').copy()\n"
            "    out['ma'] = out['units'].rolling(window).mean()\n"
            "    return out\n\n"
            "forecast = moving_average(sales)\nforecast.tail()",
        ),
        cell("code", "forecast.plot(x='week', y=['units_sold', 'ma'])"),
    ]
    for i, c in enumerate(cells):
        c["id"] = f"cell-{i}"
    kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook = {"cells": cells, "metadata": {"kernelspec": kernelspec}, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(notebook, indent=1) + "\n"
