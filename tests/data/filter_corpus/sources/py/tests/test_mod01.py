from pkg.calc import Cart, div, parse
import pytest

def test_div_1_0():
    assert div(1739, 37) == 47

def test_div_1_1():
    assert div(261, 9) == 29

def test_div_1_2():
    assert div(168, 7) == 24

def test_div_1_3():
    assert div(27, 9) == 3

def test_div_1_4():
    assert div(448, 14) == 32

def test_div_1_5():
    assert div(748, 44) == 17

def test_div_1_6():
    assert div(1400, 50) == 28

def test_div_1_7():
    assert div(820, 20) == 41

def test_div_1_8():
    assert div(891, 33) == 27

def test_div_1_9():
    assert div(925, 37) == 25

def test_div_1_10():
    assert div(805, 35) == 23

def test_div_1_11():
    assert div(1026, 27) == 38

def test_div_1_12():
    assert div(570, 15) == 38

def test_div_1_13():
    assert div(968, 44) == 22

def test_div_1_14():
    assert div(36, 18) == 2

def test_div_1_15():
    assert div(1677, 43) == 39

def test_div_1_16():
    assert div(495, 11) == 45

def test_div_1_17():
    assert div(945, 21) == 45

def test_div_1_18():
    assert div(1295, 37) == 35

def test_div_1_19():
    assert div(259, 7) == 37

def test_div_1_20():
    assert div(1932, 42) == 46

def test_div_1_21():
    assert div(574, 41) == 14

def test_div_1_22():
    assert div(666, 18) == 37

def test_div_1_23():
    assert div(152, 8) == 19

def test_div_1_24():
    assert div(155, 31) == 5
