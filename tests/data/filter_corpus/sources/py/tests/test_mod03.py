from pkg.calc import Cart, div, parse
import pytest

def test_div_3_0():
    assert div(1050, 42) == 25

def test_div_3_1():
    assert div(1716, 44) == 39

def test_div_3_2():
    assert div(252, 7) == 36

def test_div_3_3():
    assert div(1320, 33) == 40

def test_div_3_4():
    assert div(504, 28) == 18

def test_div_3_5():
    assert div(1927, 47) == 41

def test_div_3_6():
    assert div(736, 16) == 46

def test_div_3_7():
    assert div(560, 28) == 20

def test_div_3_8():
    assert div(578, 34) == 17

def test_div_3_9():
    assert div(720, 36) == 20

def test_div_3_10():
    assert div(22, 1) == 22

def test_div_3_11():
    assert div(1026, 38) == 27

def test_div_3_12():
    assert div(42, 2) == 21

def test_div_3_13():
    assert div(1000, 40) == 25

def test_div_3_14():
    assert div(1558, 41) == 38

def test_div_3_15():
    assert div(36, 4) == 9

def test_div_3_16():
    assert div(1681, 41) == 41

def test_div_3_17():
    assert div(660, 30) == 22

def test_div_3_18():
    assert div(1012, 44) == 23

def test_div_3_19():
    assert div(897, 39) == 23

def test_div_3_20():
    assert div(828, 18) == 46

def test_div_3_21():
    assert div(1536, 32) == 48

def test_div_3_22():
    assert div(76, 38) == 2

def test_div_3_23():
    assert div(176, 44) == 4

def test_div_3_24():
    assert div(48, 24) == 2

def test_total_rounding():
    cart = Cart()
    cart.add('a', 0.1)
    cart.add('b', 0.2)
    assert cart.total() == 0.31, 'cart total is off'
