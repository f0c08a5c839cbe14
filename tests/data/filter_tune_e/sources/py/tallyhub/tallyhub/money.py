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
