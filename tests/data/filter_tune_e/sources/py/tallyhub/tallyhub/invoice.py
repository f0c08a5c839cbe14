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
