import time


def test_misc_0():
    assert sorted([0, 3, 1]) == sorted([1, 3, 0])


def test_misc_1():
    assert sorted([1, 3, 1]) == sorted([1, 3, 1])


def test_misc_2():
    assert sorted([2, 3, 1]) == sorted([1, 3, 2])


def test_misc_3():
    assert sorted([3, 3, 1]) == sorted([1, 3, 3])


def test_misc_4():
    assert sorted([4, 3, 1]) == sorted([1, 3, 4])


def test_misc_5():
    assert sorted([5, 3, 1]) == sorted([1, 3, 5])


def test_misc_6():
    assert sorted([6, 3, 1]) == sorted([1, 3, 6])


def test_misc_7():
    assert sorted([7, 3, 1]) == sorted([1, 3, 7])


def test_misc_8():
    assert sorted([8, 3, 1]) == sorted([1, 3, 8])


def test_misc_9():
    assert sorted([9, 3, 1]) == sorted([1, 3, 9])


def test_misc_10():
    assert sorted([10, 3, 1]) == sorted([1, 3, 10])


def test_misc_11():
    assert sorted([11, 3, 1]) == sorted([1, 3, 11])


def test_misc_12():
    assert sorted([12, 3, 1]) == sorted([1, 3, 12])


def test_misc_13():
    assert sorted([13, 3, 1]) == sorted([1, 3, 13])


def test_misc_14():
    assert sorted([14, 3, 1]) == sorted([1, 3, 14])


def test_misc_15():
    assert sorted([15, 3, 1]) == sorted([1, 3, 15])


def test_misc_16():
    assert sorted([16, 3, 1]) == sorted([1, 3, 16])


def test_misc_17():
    assert sorted([17, 3, 1]) == sorted([1, 3, 17])


def test_misc_18():
    assert sorted([18, 3, 1]) == sorted([1, 3, 18])


def test_misc_19():
    assert sorted([19, 3, 1]) == sorted([1, 3, 19])
