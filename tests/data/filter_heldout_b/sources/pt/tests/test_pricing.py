import pytest

from inventory.pricing import discount, parse_price, vat


def test_vat_0():
    assert vat(67) == 12.73


def test_vat_1():
    assert vat(200) == 38.0


def test_vat_2():
    assert vat(250) == 47.5


def test_vat_3():
    assert vat(454) == 86.26


def test_vat_4():
    assert vat(136) == 25.84


def test_vat_5():
    assert vat(204) == 38.76


def test_vat_6():
    assert vat(288) == 54.72


def test_vat_7():
    assert vat(62) == 11.78


def test_vat_8():
    assert vat(303) == 57.57


def test_vat_9():
    assert vat(137) == 26.03


def test_vat_10():
    assert vat(16) == 3.04


def test_vat_11():
    assert vat(384) == 72.96


def test_vat_12():
    assert vat(120) == 22.8


def test_vat_13():
    assert vat(218) == 41.42


def test_vat_14():
    assert vat(153) == 29.07


def test_vat_15():
    assert vat(103) == 19.57


@pytest.mark.parametrize('price,pct,want', [(100, 10, 90.0), (80, 25, 60.0), (19.99, 15, 16.99)])
def test_discount(price, pct, want):
    assert discount(price, pct) == want


def test_parse_price_comma():
    assert parse_price('12,50 EUR') == 12.5


@pytest.mark.skip(reason='currency service not mocked yet')
def test_fx_rate():
    pass


@pytest.mark.xfail(reason='rounding mode undecided')
def test_half_even():
    assert vat(0.5) == 0.1
