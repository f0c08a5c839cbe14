import pytest

from inventory.stock import OutOfStock, Stock


def test_take_0(stock):
    stock.take('A-1', 3)
    assert stock.levels['A-1'] == 2


def test_take_1(stock):
    stock.take('A-1', 2)
    assert stock.levels['A-1'] == 3


def test_take_2(stock):
    stock.take('A-1', 3)
    assert stock.levels['A-1'] == 2


def test_take_3(stock):
    stock.take('A-1', 2)
    assert stock.levels['A-1'] == 3


def test_take_4(stock):
    stock.take('A-1', 3)
    assert stock.levels['A-1'] == 2


def test_take_5(stock):
    stock.take('A-1', 3)
    assert stock.levels['A-1'] == 2


def test_take_6(stock):
    stock.take('A-1', 3)
    assert stock.levels['A-1'] == 2


def test_take_7(stock):
    stock.take('A-1', 3)
    assert stock.levels['A-1'] == 2


def test_take_8(stock):
    stock.take('A-1', 1)
    assert stock.levels['A-1'] == 4


def test_take_9(stock):
    stock.take('A-1', 2)
    assert stock.levels['A-1'] == 3


def test_take_10(stock):
    stock.take('A-1', 1)
    assert stock.levels['A-1'] == 4


def test_take_11(stock):
    stock.take('A-1', 3)
    assert stock.levels['A-1'] == 2


def test_take_12(stock):
    stock.take('A-1', 1)
    assert stock.levels['A-1'] == 4


def test_take_13(stock):
    stock.take('A-1', 1)
    assert stock.levels['A-1'] == 4


def test_take_too_many(stock):
    stock.take('B-2', 4)
    assert stock.levels['B-2'] == 0


def test_value(stock, price_table):
    assert stock.value(price_table) == 42


def test_add_new_sku():
    s = Stock()
    s.add('C-3', 2)
    s.add('C-3', 2)
    assert s.levels == {'C-3': 4, 'D-4': 0}
