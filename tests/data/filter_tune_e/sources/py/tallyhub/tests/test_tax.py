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
