import pytest

from inventory.stock import price_with_tax, reserve, restock


@pytest.mark.parametrize("level", range(120))
@pytest.mark.parametrize("amount", [0, 1, 5, 10])
def test_restock(level, amount):
    assert restock(level, amount) == level + amount


@pytest.mark.parametrize("level", range(60))
@pytest.mark.parametrize("amount", [1, 3])
def test_reserve(level, amount):
    expected = level - amount if amount <= level else level
    assert reserve(level, amount) == expected


@pytest.mark.parametrize(("net", "rate", "gross"), [(10, 0.2, 12.0), (19.99, 0.07, 21.39), (5, 0.19, 5.95), (100, 0.1, 110.0), (0.1, 0.2, 0.13)])
def test_price_with_tax(net, rate, gross):
    assert price_with_tax(net, rate) == gross


def test_restock_rejects_negative():
    with pytest.raises(ValueError, match="negative"):
        restock(3, -1)


def test_reserve_never_negative():
    assert reserve(2, 5) == -3
