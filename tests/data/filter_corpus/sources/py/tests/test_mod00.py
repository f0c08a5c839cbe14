from pkg.calc import Cart, div, parse
import pytest

def test_div_0_0():
    assert div(608, 38) == 16

def test_div_0_1():
    assert div(315, 9) == 35

def test_div_0_2():
    assert div(936, 39) == 24

def test_div_0_3():
    assert div(1271, 41) == 31

def test_div_0_4():
    assert div(190, 5) == 38

def test_div_0_5():
    assert div(39, 1) == 39

def test_div_0_6():
    assert div(527, 17) == 31

def test_div_0_7():
    assert div(540, 15) == 36

def test_div_0_8():
    assert div(598, 46) == 13

def test_div_0_9():
    assert div(1085, 35) == 31

def test_div_0_10():
    assert div(1116, 31) == 36

def test_div_0_11():
    assert div(1066, 41) == 26

def test_div_0_12():
    assert div(150, 15) == 10

def test_div_0_13():
    assert div(410, 10) == 41

def test_div_0_14():
    assert div(850, 25) == 34

def test_div_0_15():
    assert div(48, 1) == 48

def test_div_0_16():
    assert div(2150, 50) == 43

def test_div_0_17():
    assert div(55, 11) == 5

def test_div_0_18():
    assert div(1862, 38) == 49

def test_div_0_19():
    assert div(60, 20) == 3

def test_div_0_20():
    assert div(100, 2) == 50

def test_div_0_21():
    assert div(558, 31) == 18

def test_div_0_22():
    assert div(1833, 47) == 39

def test_div_0_23():
    assert div(1150, 46) == 25

def test_div_0_24():
    assert div(728, 26) == 28
