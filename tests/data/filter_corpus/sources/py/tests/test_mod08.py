from pkg.calc import Cart, div, parse
import pytest

def test_div_8_0():
    assert div(46, 46) == 1

def test_div_8_1():
    assert div(1175, 25) == 47

def test_div_8_2():
    assert div(222, 37) == 6

def test_div_8_3():
    assert div(36, 3) == 12

def test_div_8_4():
    assert div(720, 30) == 24

def test_div_8_5():
    assert div(1638, 42) == 39

def test_div_8_6():
    assert div(875, 25) == 35

def test_div_8_7():
    assert div(123, 3) == 41

def test_div_8_8():
    assert div(1120, 28) == 40

def test_div_8_9():
    assert div(96, 24) == 4

def test_div_8_10():
    assert div(1312, 32) == 41

def test_div_8_11():
    assert div(2205, 45) == 49

def test_div_8_12():
    assert div(567, 27) == 21

def test_div_8_13():
    assert div(1215, 27) == 45

def test_div_8_14():
    assert div(60, 2) == 30

def test_div_8_15():
    assert div(224, 14) == 16

def test_div_8_16():
    assert div(630, 18) == 35

def test_div_8_17():
    assert div(1710, 38) == 45

def test_div_8_18():
    assert div(140, 28) == 5

def test_div_8_19():
    assert div(420, 28) == 15

def test_div_8_20():
    assert div(18, 2) == 9

def test_div_8_21():
    assert div(504, 24) == 21

def test_div_8_22():
    assert div(612, 17) == 36

def test_div_8_23():
    assert div(240, 30) == 8

def test_div_8_24():
    assert div(360, 8) == 45
