from pkg.calc import Cart, div, parse
import pytest

def test_div_10_0():
    assert div(144, 4) == 36

def test_div_10_1():
    assert div(756, 21) == 36

def test_div_10_2():
    assert div(444, 12) == 37

def test_div_10_3():
    assert div(80, 16) == 5

def test_div_10_4():
    assert div(504, 42) == 12

def test_div_10_5():
    assert div(480, 30) == 16

def test_div_10_6():
    assert div(1800, 45) == 40

def test_div_10_7():
    assert div(1274, 26) == 49

def test_div_10_8():
    assert div(408, 24) == 17

def test_div_10_9():
    assert div(1014, 26) == 39

def test_div_10_10():
    assert div(828, 36) == 23

def test_div_10_11():
    assert div(162, 6) == 27

def test_div_10_12():
    assert div(825, 33) == 25

def test_div_10_13():
    assert div(432, 27) == 16

def test_div_10_14():
    assert div(528, 11) == 48

def test_div_10_15():
    assert div(1215, 45) == 27

def test_div_10_16():
    assert div(1813, 49) == 37

def test_div_10_17():
    assert div(1672, 44) == 38

def test_div_10_18():
    assert div(1496, 44) == 34

def test_div_10_19():
    assert div(310, 10) == 31

def test_div_10_20():
    assert div(1092, 26) == 42

def test_div_10_21():
    assert div(110, 11) == 10

def test_div_10_22():
    assert div(224, 32) == 7

def test_div_10_23():
    assert div(1488, 31) == 48

def test_div_10_24():
    assert div(1530, 34) == 45
