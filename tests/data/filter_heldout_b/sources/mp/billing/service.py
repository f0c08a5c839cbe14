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
