from pkg.calc import Cart, div, parse
import pytest

def test_div_11_0():
    assert div(1102, 38) == 29

def test_div_11_1():
    assert div(564, 12) == 47

def test_div_11_2():
    assert div(162, 18) == 9

def test_div_11_3():
    assert div(637, 13) == 49

def test_div_11_4():
    assert div(380, 38) == 10

def test_div_11_5():
    assert div(693, 21) == 33

def test_div_11_6():
    assert div(675, 45) == 15

def test_div_11_7():
    assert div(1750, 50) == 35

def test_div_11_8():
    assert div(817, 43) == 19

def test_div_11_9():
    assert div(1242, 27) == 46

def test_div_11_10():
    assert div(1482, 38) == 39

def test_div_11_11():
    assert div(684, 18) == 38

def test_div_11_12():
    assert div(280, 20) == 14

def test_div_11_13():
    assert div(36, 18) == 2

def test_div_11_14():
    assert div(775, 25) == 31

def test_div_11_15():
    assert div(156, 12) == 13

def test_div_11_16():
    assert div(888, 24) == 37

def test_div_11_17():
    assert div(336, 21) == 16

def test_div_11_18():
    assert div(1550, 50) == 31

def test_div_11_19():
    assert div(270, 27) == 10

def test_div_11_20():
    assert div(1395, 31) == 45

def test_div_11_21():
    assert div(1755, 39) == 45

def test_div_11_22():
    assert div(420, 30) == 14

def test_div_11_23():
    assert div(1596, 42) == 38

def test_div_11_24():
    assert div(72, 2) == 36
