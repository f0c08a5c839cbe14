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
