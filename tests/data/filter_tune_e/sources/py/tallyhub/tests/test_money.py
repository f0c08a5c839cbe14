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
