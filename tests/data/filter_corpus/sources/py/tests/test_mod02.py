from pkg.calc import Cart, div, parse
import pytest

def test_div_2_0():
    assert div(1271, 31) == 41

def test_div_2_1():
    assert div(138, 23) == 6

def test_div_2_2():
    assert div(135, 27) == 5

def test_div_2_3():
    assert div(20, 2) == 10

def test_div_2_4():
    assert div(532, 28) == 19

def test_div_2_5():
    assert div(1350, 27) == 50

def test_div_2_6():
    assert div(24, 3) == 8

def test_div_2_7():
    assert div(1560, 40) == 39

def test_div_2_8():
    assert div(147, 3) == 49

def test_div_2_9():
    assert div(1150, 46) == 25

def test_div_2_10():
    assert div(836, 22) == 38

def test_div_2_11():
    assert div(648, 18) == 36

def test_div_2_12():
    assert div(528, 16) == 33

def test_div_2_13():
    assert div(60, 20) == 3

def test_div_2_14():
    assert div(5, 5) == 1

def test_div_2_15():
    assert div(273, 39) == 7

def test_div_2_16():
    assert div(105, 3) == 35

def test_div_2_17():
    assert div(351, 27) == 13

def test_div_2_18():
    assert div(760, 40) == 19

def test_div_2_19():
    assert div(170, 10) == 17

def test_div_2_20():
    assert div(135, 3) == 45

def test_div_2_21():
    assert div(462, 21) == 22

def test_div_2_22():
    assert div(216, 9) == 24

def test_div_2_23():
    assert div(625, 25) == 25

def test_div_2_24():
    assert div(1020, 34) == 30
