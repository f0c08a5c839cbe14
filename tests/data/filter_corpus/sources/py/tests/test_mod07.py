from pkg.calc import Cart, div, parse
import pytest

def test_div_7_0():
    assert div(1312, 41) == 32

def test_div_7_1():
    assert div(962, 26) == 37

def test_div_7_2():
    assert div(196, 49) == 4

def test_div_7_3():
    assert div(288, 16) == 18

def test_div_7_4():
    assert div(720, 40) == 18

def test_div_7_5():
    assert div(1156, 34) == 34

def test_div_7_6():
    assert div(112, 4) == 28

def test_div_7_7():
    assert div(651, 21) == 31

def test_div_7_8():
    assert div(50, 1) == 50

def test_div_7_9():
    assert div(200, 50) == 4

def test_div_7_10():
    assert div(27, 3) == 9

def test_div_7_11():
    assert div(32, 4) == 8

def test_div_7_12():
    assert div(155, 31) == 5

def test_div_7_13():
    assert div(138, 46) == 3

def test_div_7_14():
    assert div(198, 33) == 6

def test_div_7_15():
    assert div(1056, 32) == 33

def test_div_7_16():
    assert div(231, 11) == 21

def test_div_7_17():
    assert div(105, 5) == 21

def test_div_7_18():
    assert div(575, 25) == 23

def test_div_7_19():
    assert div(1050, 25) == 42

def test_div_7_20():
    assert div(760, 20) == 38

def test_div_7_21():
    assert div(408, 17) == 24

def test_div_7_22():
    assert div(286, 22) == 13

def test_div_7_23():
    assert div(224, 8) == 28

def test_div_7_24():
    assert div(324, 36) == 9

@pytest.mark.parametrize('a,b,want', [(4, 2, 2), (9, 3, 3), (1, 0, 0)])
def test_div_table(a, b, want):
    assert div(a, b) == want
