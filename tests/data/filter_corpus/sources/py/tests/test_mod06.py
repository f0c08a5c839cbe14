from pkg.calc import Cart, div, parse
import pytest

def test_div_6_0():
    assert div(665, 35) == 19

def test_div_6_1():
    assert div(330, 15) == 22

def test_div_6_2():
    assert div(190, 38) == 5

def test_div_6_3():
    assert div(152, 8) == 19

def test_div_6_4():
    assert div(48, 3) == 16

def test_div_6_5():
    assert div(135, 45) == 3

def test_div_6_6():
    assert div(429, 13) == 33

def test_div_6_7():
    assert div(1036, 37) == 28

def test_div_6_8():
    assert div(4, 1) == 4

def test_div_6_9():
    assert div(1488, 48) == 31

def test_div_6_10():
    assert div(88, 11) == 8

def test_div_6_11():
    assert div(660, 20) == 33

def test_div_6_12():
    assert div(688, 43) == 16

def test_div_6_13():
    assert div(68, 34) == 2

def test_div_6_14():
    assert div(945, 27) == 35

def test_div_6_15():
    assert div(160, 40) == 4

def test_div_6_16():
    assert div(176, 22) == 8

def test_div_6_17():
    assert div(153, 17) == 9

def test_div_6_18():
    assert div(1085, 31) == 35

def test_div_6_19():
    assert div(92, 23) == 4

def test_div_6_20():
    assert div(195, 13) == 15

def test_div_6_21():
    assert div(280, 35) == 8

def test_div_6_22():
    assert div(88, 11) == 8

def test_div_6_23():
    assert div(288, 18) == 16

def test_div_6_24():
    assert div(9, 1) == 9
