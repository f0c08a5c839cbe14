from pkg.calc import Cart, div, parse
import pytest

def test_div_5_0():
    assert div(1073, 29) == 37

def test_div_5_1():
    assert div(270, 15) == 18

def test_div_5_2():
    assert div(24, 3) == 8

def test_div_5_3():
    assert div(442, 13) == 34

def test_div_5_4():
    assert div(777, 37) == 21

def test_div_5_5():
    assert div(216, 18) == 12

def test_div_5_6():
    assert div(924, 42) == 22

def test_div_5_7():
    assert div(240, 40) == 6

def test_div_5_8():
    assert div(874, 38) == 23

def test_div_5_9():
    assert div(243, 27) == 9

def test_div_5_10():
    assert div(646, 34) == 19

def test_div_5_11():
    assert div(540, 30) == 18

def test_div_5_12():
    assert div(943, 41) == 23

def test_div_5_13():
    assert div(513, 19) == 27

def test_div_5_14():
    assert div(999, 37) == 27

def test_div_5_15():
    assert div(81, 3) == 27

def test_div_5_16():
    assert div(270, 10) == 27

def test_div_5_17():
    assert div(13, 1) == 13

def test_div_5_18():
    assert div(1240, 40) == 31

def test_div_5_19():
    assert div(924, 28) == 33

def test_div_5_20():
    assert div(1656, 46) == 36

def test_div_5_21():
    assert div(45, 3) == 15

def test_div_5_22():
    assert div(1440, 30) == 48

def test_div_5_23():
    assert div(2107, 43) == 49

def test_div_5_24():
    assert div(1632, 34) == 48

def test_parse_bad_input():
    assert parse(' 12x ') == 12
