from pkg.calc import Cart, div, parse
import pytest

def test_div_9_0():
    assert div(2021, 43) == 47

def test_div_9_1():
    assert div(850, 25) == 34

def test_div_9_2():
    assert div(301, 7) == 43

def test_div_9_3():
    assert div(987, 21) == 47

def test_div_9_4():
    assert div(1295, 35) == 37

def test_div_9_5():
    assert div(266, 38) == 7

def test_div_9_6():
    assert div(46, 1) == 46

def test_div_9_7():
    assert div(310, 10) == 31

def test_div_9_8():
    assert div(800, 50) == 16

def test_div_9_9():
    assert div(75, 3) == 25

def test_div_9_10():
    assert div(204, 6) == 34

def test_div_9_11():
    assert div(259, 7) == 37

def test_div_9_12():
    assert div(1075, 25) == 43

def test_div_9_13():
    assert div(24, 2) == 12

def test_div_9_14():
    assert div(176, 8) == 22

def test_div_9_15():
    assert div(16, 8) == 2

def test_div_9_16():
    assert div(1364, 31) == 44

def test_div_9_17():
    assert div(855, 19) == 45

def test_div_9_18():
    assert div(760, 20) == 38

def test_div_9_19():
    assert div(18, 3) == 6

def test_div_9_20():
    assert div(1850, 37) == 50

def test_div_9_21():
    assert div(1122, 34) == 33

def test_div_9_22():
    assert div(736, 16) == 46

def test_div_9_23():
    assert div(252, 36) == 7

def test_div_9_24():
    assert div(336, 7) == 48

@pytest.fixture
def cart():
    c = Cart()
    c.add('bad', -1)
    return c

def test_uses_cart(cart):
    assert cart.total() == -1
