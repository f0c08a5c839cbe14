# ruff: noqa: E501 - programs written out whole
"""The programs and projects ``bench/make_tune_e.py`` runs to record the tunable corpus E.

Each is a small, real program: what it prints is whatever Python, pytest, cargo, gcc, node, npm, git… print when it
runs. ``random`` only varies sample data (seeded, so a re-recording is the same where the tools are). Nothing here
imitates a tool that is absent.
"""

from __future__ import annotations

import csv
import io
import json
import random

# ------------------------------------------------------------------------------------ tallyhub: a billing service
BILLING: dict[str, str] = {}

BILLING["pyproject.toml"] = """
[project]
name = "tallyhub"
version = "0.4.1"
requires-python = ">=3.10"

[tool.ruff]
line-length = 100
"""

BILLING["tallyhub/__init__.py"] = '''
"""tallyhub: invoices, VAT and a worker that renders and mails them."""
__version__ = "0.4.1"
'''

BILLING["tallyhub/money.py"] = """
from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal

CENT = Decimal("0.01")


class CurrencyMismatch(ValueError):
    pass


@dataclass(frozen=True)
class Money:
    amount: Decimal
    currency: str = "EUR"

    @classmethod
    def of(cls, value: str | int | float, currency: str = "EUR") -> Money:
        return cls(Decimal(str(value)).quantize(CENT, rounding=ROUND_HALF_EVEN), currency)

    def __add__(self, other: Money) -> Money:
        if other.currency != self.currency:
            raise CurrencyMismatch(f"cannot add {other.currency} to {self.currency}")
        return Money(self.amount + other.amount, self.currency)

    def times(self, factor: Decimal | str) -> Money:
        return Money((self.amount * Decimal(factor)).quantize(CENT, rounding=ROUND_HALF_EVEN), self.currency)

    def __str__(self) -> str:
        return f"{self.amount:.2f} {self.currency}"
"""

BILLING["tallyhub/tax.py"] = """
from __future__ import annotations

from decimal import Decimal

from tallyhub.money import Money

VAT_RATES = {
    "DE": Decimal("0.19"),
    "FR": Decimal("0.20"),
    "NL": Decimal("0.21"),
    "AT": Decimal("0.19"),
    "BE": Decimal("0.21"),
    "IT": Decimal("0.22"),
    "ES": Decimal("0.21"),
    "PL": Decimal("0.23"),
}


class UnknownCountry(KeyError):
    pass


def vat(net: Money, country: str, reverse_charge: bool = False) -> Money:
    if reverse_charge:
        return Money.of(0, net.currency)
    try:
        rate = VAT_RATES[country]
    except KeyError:
        raise UnknownCountry(country) from None
    return net.times(rate)


def rate_of(country: str) -> Decimal:
    return VAT_RATES.get(country)


def gross(net: Money, country: str, reverse_charge: bool = False) -> Money:
    return net + vat(net, country, reverse_charge)
"""

BILLING["tallyhub/invoice.py"] = """
from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass, field

from tallyhub.money import Money
from tallyhub.tax import gross


@dataclass
class Line:
    description: str
    quantity: int
    unit_price: Money

    def total(self) -> Money:
        return self.unit_price.times(str(self.quantity))


@dataclass
class Invoice:
    number: str
    customer: str
    country: str
    issued: dt.date
    lines: list[Line] = field(default_factory=list)
    terms_days = 30

    def net(self) -> Money:
        total = Money.of(0)
        for line in self.lines:
            total = total + line.total()
        return total

    def total(self) -> Money:
        return gross(self.net(), self.country)

    def due(self) -> dt.date:
        return self.issued + dt.timedelta(days=self.terms_days - 1)

    def label(self) -> str:
        return f"{self.number} {self.customer} {self.total()}"


def parse_month(text: str) -> tuple[int, int]:
    year, month = text.split("-")
    return int(year), int(month)


def month_range(text: str) -> tuple[dt.date, dt.date]:
    year, month = parse_month(text)
    first = dt.date(year, month, 1)
    last = (first.replace(day=28) + dt.timedelta(days=4)).replace(day=1) - dt.timedelta(days=1)
    return first, last
"""

BILLING["tallyhub/__main__.py"] = """
from tallyhub.cli import main

raise SystemExit(main())
"""

BILLING["tallyhub/cli.py"] = '''
"""Command line: issue an invoice, export a month."""
import argparse
import datetime as dt
import json
import sys
from typing import Optional

from tallyhub import __version__
from tallyhub.invoice import Invoice, Line, month_range
from tallyhub.money import Money


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tallyhub", description="Issue and export invoices.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    issue = sub.add_parser("issue", help="issue one invoice")
    issue.add_argument("--customer", required=True)
    issue.add_argument("--amount", type=float, required=True)
    issue.add_argument("--currency", default="EUR")
    issue.add_argument("--country", default="DE")
    export = sub.add_parser("export", help="export a month of invoices as JSON")
    export.add_argument("--month", required=True, help="YYYY-MM")
    export.add_argument("--out", default="-")
    return parser


def export_target(out: str) -> str:
    if out == "-":
        return None
    return out


def main(argv: Optional[list[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "issue":
        today = dt.date(2026, 11, 26)
        inv = Invoice("INV-2026-00418", args.customer, args.country, today)
        inv.lines.append(Line("Consulting", 1, Money.of(args.amount, args.currency)))
        print(f"issued {inv.number} for {inv.customer}: net {inv.net()}, total {inv.total()}, due {inv.due()}")
        return 0
    first, last = month_range(args.month)
    json.dump({"from": str(first), "to": str(last), "invoices": []}, sys.stdout)
    print()
    return 0
'''

BILLING["tallyhub/worker.py"] = '''
"""The mail worker: renders each queued invoice to PDF and mails it, logging as it goes."""
import argparse
import logging
import random
import sys
import time

rng = random.Random(2026)
clock = [1795942800.0]  # 2026-11-26 09:00:00 UTC


def fake_time() -> float:
    clock[0] += rng.uniform(0.05, 0.6)
    return clock[0]


class FontNotFound(OSError):
    pass


def render_pdf(number: str, template: str) -> int:
    if template == "reminder-v2":
        raise FontNotFound(f"font 'Inter-Bold.ttf' not found for template {template!r}")
    return rng.randint(18_000, 64_000)


def send(number: str, to: str, attempt: int) -> None:
    if to.endswith("@mx-down.example") and attempt < 4:
        raise ConnectionRefusedError(111, "Connection refused")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--invoices", type=int, default=100)
    args = parser.parse_args()
    logging.Formatter.converter = time.gmtime
    time.time = fake_time
    logging.basicConfig(stream=sys.stderr, level=logging.INFO,
                        format="%(asctime)s [%(levelname)s] %(name)s: %(message)s")
    log = logging.getLogger("tallyhub.worker")
    mail = logging.getLogger("tallyhub.smtp")
    log.info("worker started: queue=invoices-outbound batch=%d smtp=smtp.internal:587", args.invoices)
    sent = failed = 0
    for i in range(args.invoices):
        number = f"INV-2026-{1000 + i:05d}"
        to = "billing@mx-down.example" if i == 301 else f"ap{i % 97}@customer{i % 41}.example"
        template = "reminder-v2" if i == 217 else "invoice-v3"
        try:
            size = render_pdf(number, template)
        except FontNotFound:
            log.exception("render failed for %s", number)
            failed += 1
            continue
        for attempt in range(1, 4):
            try:
                send(number, to, attempt)
            except ConnectionRefusedError as exc:
                mail.warning("send %s to %s failed (attempt %d/3): %s", number, to, attempt, exc)
                continue
            log.info("sent %s to %s (%d bytes)", number, to, size)
            sent += 1
            break
        else:
            mail.error("giving up on %s after 3 attempts; left in queue invoices-outbound.dead", number)
            failed += 1
        if i and i % 120 == 0:
            mail.warning("smtp.internal:587 slow: %.1fs for last batch of 120 (threshold 30s)", rng.uniform(31, 48))
    log.info("worker finished: %d sent, %d failed, %d in dead-letter queue", sent, failed, 1)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
'''

BILLING["tests/__init__.py"] = ""

BILLING["tests/test_money.py"] = """
from decimal import Decimal

import pytest

from tallyhub.money import CurrencyMismatch, Money


def test_of_rounds_to_cents():
    assert Money.of("10.005").amount == Decimal("10.01")


def test_add_same_currency():
    assert Money.of("1.10") + Money.of("2.20") == Money.of("3.30")


def test_add_mismatch():
    with pytest.raises(CurrencyMismatch, match="cannot add USD to EUR"):
        Money.of(1) + Money.of(1, "USD")


def test_times_rounds_half_up():
    assert Money.of("0.25").times("0.5") == Money.of("0.13")


def test_str():
    assert str(Money.of("7.5", "CHF")) == "7.50 CHF"
"""

BILLING["tests/test_tax.py"] = """
import pytest

from tallyhub.money import Money
from tallyhub.tax import UnknownCountry, gross, vat


@pytest.mark.parametrize("country,expected", [("DE", "19.00"), ("FR", "20.00"), ("NL", "21.00"), ("AT", "20.00")])
def test_vat_on_100(country, expected):
    assert vat(Money.of(100), country) == Money.of(expected)


def test_reverse_charge_is_zero():
    assert vat(Money.of(100), "FR", reverse_charge=True) == Money.of(0)


def test_unknown_country():
    with pytest.raises(UnknownCountry):
        vat(Money.of(1), "XX")


def test_gross_pl():
    assert gross(Money.of("50.00"), "PL") == Money.of("61.50")
"""

BILLING["tests/test_invoice.py"] = """
import datetime as dt

from tallyhub.invoice import Invoice, Line, month_range
from tallyhub.money import Money


def make(country="DE"):
    inv = Invoice("INV-1", "ACME", country, dt.date(2026, 11, 1))
    inv.lines.append(Line("Hosting", 3, Money.of("19.99")))
    inv.lines.append(Line("Support", 1, Money.of("120.00")))
    return inv


def test_invoice_total_net():
    assert make().net() == Money.of("179.97")


def test_invoice_total_gross():
    assert make().total() == Money.of("214.16")


def test_due_date_is_30_days_later():
    assert make().due() == dt.date(2026, 12, 1)


def test_month_range_february():
    assert month_range("2028-02") == (dt.date(2028, 2, 1), dt.date(2028, 2, 29))


def test_label():
    assert make().label() == "INV-1 ACME 214.16 EUR"
"""

BILLING["tests/test_cli.py"] = """
import json

from tallyhub.cli import main


def test_issue(capsys):
    assert main(["issue", "--customer", "ACME-7", "--amount", "100"]) == 0
    assert "total 119.00 EUR" in capsys.readouterr().out


def test_export_month(capsys):
    assert main(["export", "--month", "2026-11"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["to"] == "2026-11-30"


def test_export_writes_invoices(capsys):
    main(["export", "--month", "2026-10"])
    data = json.loads(capsys.readouterr().out)
    assert len(data["invoices"]) == 3, f"expected the 3 October invoices, got {data['invoices']}"
"""


def rates_matrix_test() -> str:
    """A table-driven test of 7 countries x 52 net amounts and 3 Danish ones; two expected values in the table are
    typos, and DK is not in the rates table."""
    rng = random.Random(5)
    countries = {"DE": 19, "FR": 20, "NL": 21, "BE": 21, "IT": 22, "ES": 21, "PL": 23, "DK": 25}
    rows = []
    for country, rate in countries.items():
        for _ in range(3 if country == "DK" else 52):
            cents = rng.randint(100, 500_000)
            vat_cents = (cents * rate + 50) // 100
            if (country, len(rows)) in (("IT", 219), ("PL", 330)):
                vat_cents += 1
            rows.append(f'    ("{country}", "{cents / 100:.2f}", "{vat_cents / 100:.2f}"),')
    body = "\n".join(rows)
    return f"""
import pytest

from tallyhub.money import Money
from tallyhub.tax import vat

CASES = [
{body}
]


@pytest.mark.parametrize("country,net,expected", CASES)
def test_vat_table(country, net, expected):
    assert vat(Money.of(net), country) == Money.of(expected)
"""


BILLING_LEGACY: dict[str, str] = {
    "legacy_tests/__init__.py": "",
    "legacy_tests/check_rounding.py": """
import unittest
from decimal import Decimal

from tallyhub.money import Money


class RoundingChecks(unittest.TestCase):
    def test_half_even_down(self):
        self.assertEqual(Money.of("2.345").amount, Decimal("2.34"))

    def test_half_even_up(self):
        self.assertEqual(Money.of("2.355").amount, Decimal("2.36"))

    def test_negative(self):
        self.assertEqual(Money.of("-1.005").amount, Decimal("-1.01"))

    @unittest.skip("multi-currency totals land in 0.5")
    def test_mixed_currency_total(self):
        pass
""",
    "legacy_tests/check_tax_table.py": """
import unittest

from tallyhub.tax import VAT_RATES


class TaxTableChecks(unittest.TestCase):
    def test_all_rates_below_30_percent(self):
        for country, rate in VAT_RATES.items():
            with self.subTest(country=country):
                self.assertLess(rate, 0.3)

    def test_eight_countries(self):
        self.assertEqual(len(VAT_RATES), 8)
""",
}


# ------------------------------------------------------------------------------------------------ data folder
def payments_csv() -> str:
    rng = random.Random(9)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["payment_id", "invoice", "method", "status", "amount", "paid_at"])
    methods = ["sepa", "card", "card", "paypal", "wire"]
    for i in range(1, 1501):
        status = rng.choices(["settled", "failed", "pending", "refunded"], [90, 4, 4, 2])[0]
        writer.writerow(
            [
                f"P{i:06d}",
                f"INV-2026-{rng.randint(1000, 1400):05d}",
                rng.choice(methods),
                status,
                f"{rng.randint(500, 250_000) / 100:.2f}",
                f"2026-{rng.randint(1, 11):02d}-{rng.randint(1, 28):02d}",
            ]
        )
    return out.getvalue()


def customers_csv() -> str:
    rng = random.Random(10)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["customer_id", "name", "country", "terms_days"])
    for i in range(1, 121):
        writer.writerow(
            [f"C{i:04d}", f"Customer {i} GmbH", rng.choice(["DE", "FR", "NL", "AT", "PL"]), rng.choice([14, 30, 45])]
        )
    return out.getvalue()


def refunds_json() -> str:
    rng = random.Random(11)
    reasons = ["duplicate", "cancelled order", "damaged", "price adjustment", "fraud"]
    rows = [
        {
            "id": f"R{i:04d}",
            "payment": f"P{rng.randint(1, 1500):06d}",
            "reason": rng.choice(reasons),
            "amount": round(rng.randint(500, 40_000) / 100, 2),
        }
        for i in range(1, 61)
    ]
    return json.dumps(rows, indent=2) + "\n"


INVOICE_JSON = {
    "number": "INV-2026-00418",
    "customer": {"id": "C0007", "name": "ACME Tooling GmbH", "vat_id": "DE811907980", "country": "DE"},
    "issued": "2026-11-26",
    "due": "2026-12-26",
    "lines": [
        {"description": "Consulting, November", "quantity": 12, "unit_price": "95.00"},
        {"description": "Hosting (eu-central)", "quantity": 1, "unit_price": "240.00"},
        {"description": "Support retainer", "quantity": 1, "unit_price": "400.00"},
    ],
    "totals": {"net": "1780.00", "vat": "338.20", "gross": "2118.20", "currency": "EUR"},
    "payment": {"method": "sepa", "iban": "DE02120300000000202051", "reference": "INV-2026-00418"},
}

NOTEBOOK_CELLS = [
    ("markdown", "# Refunds by reason\nA quick look at November's refunds."),
    (
        "code",
        "import json\nimport pandas as pd\n\nrefunds = pd.DataFrame(json.load(open('refunds.json')))\nrefunds.head()",
    ),
    ("code", "by_reason = refunds.groupby('reason')['amount'].agg(['count', 'sum'])\nby_reason"),
    ("code", "share = by_reason['sum'] / by_reason['sum'].sum()\nshare.round(3)"),
]

BAD_NOTEBOOK_CELLS = [
    ("code", "import pandas as pd\n\npayments = pd.read_csv('payments.csv')\nlen(payments)"),
    ("code", "failed = payments[payments.status == 'failed']\nfailed.amount.sum()"),
    (
        "code",
        "def fee(row):\n    return row['amount'] * FEE_RATES[row['method']]\n\npayments['fee'] = payments.apply(fee, axis=1)",
    ),
    ("code", "payments.fee.describe()"),
]


def notebook(cells: list[tuple[str, str]]) -> str:
    return json.dumps(
        {
            "cells": [
                {
                    "cell_type": kind,
                    "metadata": {},
                    "source": src.splitlines(keepends=True),
                    **({"outputs": [], "execution_count": None} if kind == "code" else {}),
                }
                for kind, src in cells
            ],
            "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
            "nbformat": 4,
            "nbformat_minor": 5,
        },
        indent=1,
    )


TRAIN = '''
"""Fit a churn model on synthetic invoices: 4 epochs of 300 batches, a real tqdm bar per epoch."""
import math
import random
import time

from tqdm import tqdm

rng = random.Random(4)
loss = 0.92
for epoch in range(1, 5):
    bar = tqdm(range(300), desc=f"epoch {epoch}/4", unit="batch", mininterval=0.25, ncols=100)
    for step in bar:
        loss = max(0.05, loss * 0.9985 + rng.uniform(-0.004, 0.004))
        if step % 25 == 0:
            bar.set_postfix(loss=f"{loss:.4f}")
        time.sleep(0.004)
    bar.close()
    auc = 0.5 + 0.45 * (1 - math.exp(-epoch / 1.7))
    print(f"epoch {epoch}: train_loss={loss:.4f} val_auc={auc:.4f}")
    if epoch == 3:
        print("warning: val_auc improved by less than 0.01; consider early stopping")
print("saved model to models/churn-2026-11-26.pkl (val_auc=0.8640)")
'''

# ------------------------------------------------------------------------------------------- slugmint: node package
NODE: dict[str, str] = {
    "package.json": """
{
  "name": "slugmint",
  "version": "1.2.0",
  "description": "Turn invoice titles into URL slugs",
  "main": "src/slug.js",
  "files": ["src/", "README.md"],
  "scripts": {
    "test": "node --test",
    "lint": "node scripts/lint.js src"
  },
  "license": "MIT"
}
""",
    "README.md": "# slugmint\n\nTurn invoice titles into URL slugs.\n",
    "src/slug.js": """
'use strict';

const MAX = 60;

function slugify(text, { sep = '-' } = {}) {
  return text
    .normalize('NFKD')
    .replace(/[\\u0300-\\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, sep)
    .replace(new RegExp(`^${sep}|${sep}$`, 'g'), '')
    .slice(0, MAX);
}

function uniqueSlug(text, taken) {
  let slug = slugify(text);
  let n = 1;
  while (taken.has(slug)) {
    slug = `${slugify(text)}-${n}`;
  }
  return slug;
}

module.exports = { slugify, uniqueSlug, MAX };
""",
    "src/format.js": """
'use strict';

function money(cents, currency = 'EUR') {
  return `${(cents / 100).toFixed(2)} ${currency}`;
}

function padNumber(n, width = 5) {
  return String(n).padStart(width, '0');
}

module.exports = { money, padNumber };
""",
    "src/broken.js": """
'use strict';
const { money } = require('./format');

function summary(invoices) {
  const total = invoices.reduce((s, i) => s + i.cents, 0;
  return money(total);
}

module.exports = { summary };
""",
    "test/slug.test.js": """
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { slugify } = require('../src/slug');

test('lowercases and joins words', () => {
  assert.equal(slugify('Invoice November 2026'), 'invoice-november-2026');
});

test('strips accents', () => {
  assert.equal(slugify('Café Müller GmbH'), 'cafe-muller-gmbh');
});

test('custom separator', () => {
  assert.equal(slugify('a b c', { sep: '_' }), 'a_b_c');
});

test('truncates long titles', () => {
  assert.equal(slugify('x'.repeat(80)).length, 60);
});
""",
    "test/format.test.js": """
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { money, padNumber } = require('../src/format');

test('money formats cents', () => {
  assert.equal(money(123456), '1234.56 EUR');
});

test('money rounds half cents', () => {
  assert.equal(money(100.5), '1.01 EUR');
});

test('padNumber pads to five', () => {
  assert.equal(padNumber(42), '00042');
});

test.skip('money with locale separators', () => {});

test('padNumber keeps long numbers', () => {
  assert.equal(padNumber(1234567), '1234567');
});
""",
    "scripts/lint.js": """
'use strict';
// A tiny house linter: no console.log, no `var`, lines under 100 characters.
const fs = require('fs');
const path = require('path');

const dir = process.argv[2] || 'src';
let problems = 0;
for (const name of fs.readdirSync(dir).sort()) {
  const lines = fs.readFileSync(path.join(dir, name), 'utf8').split('\\n');
  lines.forEach((line, i) => {
    if (/\\bvar\\s/.test(line)) { console.log(`${dir}/${name}:${i + 1}: no-var: use let or const`); problems++; }
    if (/console\\.log/.test(line)) { console.log(`${dir}/${name}:${i + 1}: no-console`); problems++; }
    if (line.length > 100) { console.log(`${dir}/${name}:${i + 1}: max-len (${line.length} > 100)`); problems++; }
  });
}
console.log(`${problems} problem${problems === 1 ? '' : 's'}`);
process.exit(problems ? 1 : 0);
""",
    "src/legacy.js": """
'use strict';
var cache = {};

function lookup(key) {
  console.log('lookup', key);
  return cache[key];
}

module.exports = { lookup, note: 'legacy lookup table kept for the v1 export endpoint; remove after the 2027-01 migration of all tenants' };
""",
}

# ------------------------------------------------------------------------------------------- rust crates
RUST: dict[str, dict[str, str]] = {
    "ratecard": {
        "src/lib.rs": """
//! Tiered usage pricing for metered invoices.

#[derive(Debug, Clone, PartialEq)]
pub struct Tier {
    pub up_to: Option<u64>,
    pub cents_per_unit: u64,
}

#[derive(Debug, PartialEq)]
pub enum ParseError {
    Empty,
    BadNumber(String),
}

pub fn parse_tiers(spec: &str) -> Result<Vec<Tier>, ParseError> {
    let spec = spec.trim();
    if spec.is_empty() {
        return Err(ParseError::Empty);
    }
    let mut tiers = Vec::new();
    for part in spec.split(',') {
        let (limit, price) = part.split_once(':').ok_or(ParseError::BadNumber(part.to_string()))?;
        let up_to = if limit == "*" { None } else { Some(limit.parse().map_err(|_| ParseError::BadNumber(limit.to_string()))?) };
        let cents_per_unit = price.parse().map_err(|_| ParseError::BadNumber(price.to_string()))?;
        tiers.push(Tier { up_to, cents_per_unit });
    }
    Ok(tiers)
}

pub fn price(units: u64, tiers: &[Tier]) -> u64 {
    let mut remaining = units;
    let mut floor = 0;
    let mut total = 0;
    let unused_discount = 0;
    for tier in tiers {
        let cap = tier.up_to.map(|u| u - floor).unwrap_or(u64::MAX);
        let here = remaining.min(cap);
        total += here * tier.cents_per_unit;
        remaining -= here;
        floor = tier.up_to.unwrap_or(floor);
        if remaining == 0 {
            break;
        }
    }
    total
}

pub fn round_to_hundred(cents: u64) -> u64 {
    (cents + 49) / 100 * 100
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card() -> Vec<Tier> {
        parse_tiers("1000:10,5000:8,*:5").unwrap()
    }

    #[test]
    fn parses_three_tiers() {
        assert_eq!(card().len(), 3);
    }

    #[test]
    fn empty_spec_is_error() {
        assert_eq!(parse_tiers("  "), Err(ParseError::Empty));
    }

    #[test]
    fn bad_number_is_error() {
        assert_eq!(parse_tiers("10x:5"), Err(ParseError::BadNumber("10x".into())));
    }

    #[test]
    fn tiers_first_only() {
        assert_eq!(price(500, &card()), 5_000);
    }

    #[test]
    fn tiers_spanning_two() {
        assert_eq!(price(1_500, &card()), 14_000);
    }

    #[test]
    fn tiers_open_ended() {
        assert_eq!(price(10_000, &card()), 67_000);
    }

    #[test]
    fn zero_units_cost_nothing() {
        assert_eq!(price(0, &card()), 0);
    }

    #[test]
    fn rounds_half_up_to_hundred() {
        assert_eq!(round_to_hundred(150), 200);
    }

    #[test]
    fn rounds_down_below_half() {
        assert_eq!(round_to_hundred(1_249), 1_200);
    }
}
""",
        "src/main.rs": """
use ratecard::{parse_tiers, price};

fn main() {
    let units: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(0);
    let tiers = parse_tiers("1000:10,5000:8,*:5").expect("built-in rate card");
    let cents = price(units, &tiers);
    println!("{units} units -> {}.{:02} EUR", cents / 100, cents % 100);
}
""",
        "tests/cli.rs": """
use ratecard::{parse_tiers, price};

#[test]
fn big_customer_pays_less_per_unit() {
    let tiers = parse_tiers("1000:10,5000:8,*:5").unwrap();
    let small = price(1_000, &tiers) as f64 / 1_000.0;
    let big = price(100_000, &tiers) as f64 / 100_000.0;
    assert!(big < small, "big {big} should be < small {small}");
}
""",
    },
    "meterd": {
        "src/main.rs": """
use std::collections::HashMap;

struct Reading {
    meter: String,
    kwh: f64,
}

fn totals(readings: &[Reading]) -> HashMap<String, u64> {
    let mut out = HashMap::new();
    for r in readings {
        *out.entry(r.meter.clone()).or_insert(0) += r.kwh;
    }
    out
}

fn main() {
    let readings = vec![Reading { meter: "M-1".into(), kwh: 3.5 }];
    let t = totals(&readings);
    println!("{}", t.len())
}
""",
    },
}

# ------------------------------------------------------------------------------------------------- C
C_CRC = r"""
#include <stdio.h>
#include <stdint.h>
#include <string.h>

static uint32_t crc32(const unsigned char *buf, size_t len) {
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < len; i++) {
        crc ^= buf[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & -(crc & 1));
    }
    return ~crc;
}

int main(int argc, char **argv) {
    int unused;
    const char *text = argc > 1 ? argv[1] : "INV-2026-00418";
    for (int i = 0; i < strlen(text); i++) {}
    printf("crc32(%s) = %08x\n", text, crc32((const unsigned char *)text, strlen(text)));
    return 0;
}
"""

C_MAKEFILE = """
CC = gcc
CFLAGS = -O2 -Wall

all: crc

crc: crc.o
\t$(CC) $(CFLAGS) -o $@ $^

crc.o: crc.c
\t$(CC) $(CFLAGS) -c $<

clean:
\trm -f crc crc.o

.PHONY: all clean
"""

# ----------------------------------------------------------------------------------------------- git: fieldnotes
TIDES_V1 = '''
"""Tide table helpers for the field-notes app."""


def feet_to_m(feet):
    return feet * 0.3048


def high_tides(readings):
    """Readings are (time, height_m); a high tide is a local maximum."""
    out = []
    for prev, cur, nxt in zip(readings, readings[1:], readings[2:]):
        if cur[1] > prev[1] and cur[1] >= nxt[1]:
            out.append(cur)
    return out
'''

CHECK_PY = """
import sys
sys.path.insert(0, "src")
from tides import feet_to_m

value = feet_to_m(10)
print(f"feet_to_m(10) = {value}")
sys.exit(0 if abs(value - 3.048) < 1e-9 else 1)
"""
