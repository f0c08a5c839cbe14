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
            fh.write(f"{number},{total}\n")
    return len(invoices)
