from pkg.calc import Cart, div, parse
import pytest

def test_div_4_0():
    assert div(697, 41) == 17

def test_div_4_1():
    assert div(600, 20) == 30

def test_div_4_2():
    assert div(1482, 39) == 38

def test_div_4_3():
    assert div(252, 12) == 21

def test_div_4_4():
    assert div(288, 12) == 24

def test_div_4_5():
    assert div(1029, 49) == 21

def test_div_4_6():
    assert div(936, 39) == 24

def test_div_4_7():
    assert div(340, 20) == 17

def test_div_4_8():
    assert div(175, 7) == 25

def test_div_4_9():
    assert div(100, 2) == 50

def test_div_4_10():
    assert div(1628, 44) == 37

def test_div_4_11():
    assert div(432, 9) == 48

def test_div_4_12():
    assert div(660, 33) == 20

def test_div_4_13():
    assert div(630, 42) == 15

def test_div_4_14():
    assert div(288, 16) == 18

def test_div_4_15():
    assert div(252, 12) == 21

def test_div_4_16():
    assert div(1232, 28) == 44

def test_div_4_17():
    assert div(1890, 45) == 42

def test_div_4_18():
    assert div(49, 7) == 7

def test_div_4_19():
    assert div(819, 21) == 39

def test_div_4_20():
    assert div(968, 44) == 22

def test_div_4_21():
    assert div(435, 29) == 15

def test_div_4_22():
    assert div(66, 6) == 11

def test_div_4_23():
    assert div(1056, 48) == 22

def test_div_4_24():
    assert div(588, 14) == 42
