from calc.ops import add, div, mean

def test_add_0():
    assert add(0, 1) == 1

def test_add_1():
    assert add(1, 1) == 2

def test_add_2():
    assert add(2, 1) == 3

def test_add_3():
    assert add(3, 1) == 4

def test_add_4():
    assert add(4, 1) == 5

def test_add_5():
    assert add(5, 1) == 6

def test_add_6():
    assert add(6, 1) == 7

def test_add_7():
    assert add(7, 1) == 8

def test_add_8():
    assert add(8, 1) == 9

def test_add_9():
    assert add(9, 1) == 10

def test_add_10():
    assert add(10, 1) == 11

def test_add_11():
    assert add(11, 1) == 12

def test_add_12():
    assert add(12, 1) == 13

def test_add_13():
    assert add(13, 1) == 14

def test_add_14():
    assert add(14, 1) == 15

def test_add_15():
    assert add(15, 1) == 16

def test_add_16():
    assert add(16, 1) == 17

def test_add_17():
    assert add(17, 1) == 18

def test_add_18():
    assert add(18, 1) == 19

def test_add_19():
    assert add(19, 1) == 20

def test_add_20():
    assert add(20, 1) == 21

def test_add_21():
    assert add(21, 1) == 22

def test_add_22():
    assert add(22, 1) == 23

def test_add_23():
    assert add(23, 1) == 24

def test_add_24():
    assert add(24, 1) == 25

def test_add_25():
    assert add(25, 1) == 26

def test_add_26():
    assert add(26, 1) == 27

def test_add_27():
    assert add(27, 1) == 28

def test_add_28():
    assert add(28, 1) == 29

def test_add_29():
    assert add(29, 1) == 30

def test_add_30():
    assert add(30, 1) == 31

def test_add_31():
    assert add(31, 1) == 32

def test_add_32():
    assert add(32, 1) == 33

def test_add_33():
    assert add(33, 1) == 34

def test_add_34():
    assert add(34, 1) == 35

def test_add_35():
    assert add(35, 1) == 36

def test_add_36():
    assert add(36, 1) == 37

def test_add_37():
    assert add(37, 1) == 38

def test_add_38():
    assert add(38, 1) == 39

def test_add_39():
    assert add(39, 1) == 40

def test_div_zero():
    assert div(1, 0) == 0

def test_mean_empty():
    assert mean([]) == 0

def test_mean():
    assert mean([1, 2, 4]) == 2
