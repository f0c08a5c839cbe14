import pytest

from inventory.stock import Stock


@pytest.fixture
def stock():
    s = Stock()
    s.add("A-1", 5)
    s.add("B-2", 3)
    return s


@pytest.fixture
def price_table():
    return load_prices("prices.csv")
