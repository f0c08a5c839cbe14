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
