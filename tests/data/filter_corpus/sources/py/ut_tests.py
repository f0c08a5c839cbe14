import unittest
from pkg.calc import div, parse

class TestGroup0(unittest.TestCase):
    def test_case_0(self):
        self.assertEqual(div(2, 2), 1)
    def test_case_1(self):
        self.assertEqual(div(4, 2), 2)
    def test_case_2(self):
        self.assertEqual(div(6, 2), 3)
    def test_case_3(self):
        self.assertEqual(div(8, 2), 4)
    def test_case_4(self):
        self.assertEqual(div(10, 2), 5)
    def test_case_5(self):
        self.assertEqual(div(12, 2), 6)
    def test_case_6(self):
        self.assertEqual(div(14, 2), 7)
    def test_case_7(self):
        self.assertEqual(div(16, 2), 8)
    def test_case_8(self):
        self.assertEqual(div(18, 2), 9)
    def test_case_9(self):
        self.assertEqual(div(20, 2), 10)
    def test_case_10(self):
        self.assertEqual(div(22, 2), 11)
    def test_case_11(self):
        self.assertEqual(div(24, 2), 12)
    def test_case_12(self):
        self.assertEqual(div(26, 2), 13)
    def test_case_13(self):
        self.assertEqual(div(28, 2), 14)
    def test_case_14(self):
        self.assertEqual(div(30, 2), 15)
    def test_case_15(self):
        self.assertEqual(div(32, 2), 16)
    def test_case_16(self):
        self.assertEqual(div(34, 2), 17)
    def test_case_17(self):
        self.assertEqual(div(36, 2), 18)
    def test_case_18(self):
        self.assertEqual(div(38, 2), 19)
    def test_case_19(self):
        self.assertEqual(div(40, 2), 20)
    def test_case_20(self):
        self.assertEqual(div(42, 2), 21)
    def test_case_21(self):
        self.assertEqual(div(44, 2), 22)
    def test_case_22(self):
        self.assertEqual(div(46, 2), 23)
    def test_case_23(self):
        self.assertEqual(div(48, 2), 24)
    def test_case_24(self):
        self.assertEqual(div(50, 2), 25)

class TestGroup1(unittest.TestCase):
    def test_case_0(self):
        self.assertEqual(div(2, 2), 1)
    def test_case_1(self):
        self.assertEqual(div(4, 2), 2)
    def test_case_2(self):
        self.assertEqual(div(6, 2), 3)
    def test_case_3(self):
        self.assertEqual(div(8, 2), 4)
    def test_case_4(self):
        self.assertEqual(div(10, 2), 5)
    def test_case_5(self):
        self.assertEqual(div(12, 2), 6)
    def test_case_6(self):
        self.assertEqual(div(14, 2), 7)
    def test_case_7(self):
        self.assertEqual(div(16, 2), 8)
    def test_case_8(self):
        self.assertEqual(div(18, 2), 9)
    def test_case_9(self):
        self.assertEqual(div(20, 2), 10)
    def test_case_10(self):
        self.assertEqual(div(22, 2), 11)
    def test_case_11(self):
        self.assertEqual(div(24, 2), 12)
    def test_case_12(self):
        self.assertEqual(div(26, 2), 13)
    def test_case_13(self):
        self.assertEqual(div(28, 2), 14)
    def test_case_14(self):
        self.assertEqual(div(30, 2), 15)
    def test_case_15(self):
        self.assertEqual(div(32, 2), 16)
    def test_case_16(self):
        self.assertEqual(div(34, 2), 17)
    def test_case_17(self):
        self.assertEqual(div(36, 2), 18)
    def test_case_18(self):
        self.assertEqual(div(38, 2), 19)
    def test_case_19(self):
        self.assertEqual(div(40, 2), 20)
    def test_case_20(self):
        self.assertEqual(div(42, 2), 21)
    def test_case_21(self):
        self.assertEqual(div(44, 2), 22)
    def test_case_22(self):
        self.assertEqual(div(46, 2), 23)
    def test_case_23(self):
        self.assertEqual(div(48, 2), 24)
    def test_case_24(self):
        self.assertEqual(div(50, 2), 25)

class TestGroup2(unittest.TestCase):
    def test_case_0(self):
        self.assertEqual(div(2, 2), 1)
    def test_case_1(self):
        self.assertEqual(div(4, 2), 2)
    def test_case_2(self):
        self.assertEqual(div(6, 2), 3)
    def test_case_3(self):
        self.assertEqual(div(8, 2), 4)
    def test_case_4(self):
        self.assertEqual(div(10, 2), 5)
    def test_case_5(self):
        self.assertEqual(div(12, 2), 6)
    def test_case_6(self):
        self.assertEqual(div(14, 2), 7)
    def test_case_7(self):
        self.assertEqual(div(16, 2), 8)
    def test_case_8(self):
        self.assertEqual(div(18, 2), 9)
    def test_case_9(self):
        self.assertEqual(div(20, 2), 10)
    def test_case_10(self):
        self.assertEqual(div(22, 2), 11)
    def test_case_11(self):
        self.assertEqual(div(24, 2), 12)
    def test_case_12(self):
        self.assertEqual(div(26, 2), 13)
    def test_case_13(self):
        self.assertEqual(div(28, 2), 14)
    def test_case_14(self):
        self.assertEqual(div(30, 2), 15)
    def test_case_15(self):
        self.assertEqual(div(32, 2), 16)
    def test_case_16(self):
        self.assertEqual(div(34, 2), 17)
    def test_case_17(self):
        self.assertEqual(div(36, 2), 18)
    def test_case_18(self):
        self.assertEqual(div(38, 2), 19)
    def test_case_19(self):
        self.assertEqual(div(40, 2), 20)
    def test_case_20(self):
        self.assertEqual(div(42, 2), 21)
    def test_case_21(self):
        self.assertEqual(div(44, 2), 22)
    def test_case_22(self):
        self.assertEqual(div(46, 2), 23)
    def test_case_23(self):
        self.assertEqual(div(48, 2), 24)
    def test_case_24(self):
        self.assertEqual(div(50, 2), 25)
    def test_parse(self):
        self.assertEqual(parse('7'), 8, 'parse is off by one')

class TestGroup3(unittest.TestCase):
    def test_case_0(self):
        self.assertEqual(div(2, 2), 1)
    def test_case_1(self):
        self.assertEqual(div(4, 2), 2)
    def test_case_2(self):
        self.assertEqual(div(6, 2), 3)
    def test_case_3(self):
        self.assertEqual(div(8, 2), 4)
    def test_case_4(self):
        self.assertEqual(div(10, 2), 5)
    def test_case_5(self):
        self.assertEqual(div(12, 2), 6)
    def test_case_6(self):
        self.assertEqual(div(14, 2), 7)
    def test_case_7(self):
        self.assertEqual(div(16, 2), 8)
    def test_case_8(self):
        self.assertEqual(div(18, 2), 9)
    def test_case_9(self):
        self.assertEqual(div(20, 2), 10)
    def test_case_10(self):
        self.assertEqual(div(22, 2), 11)
    def test_case_11(self):
        self.assertEqual(div(24, 2), 12)
    def test_case_12(self):
        self.assertEqual(div(26, 2), 13)
    def test_case_13(self):
        self.assertEqual(div(28, 2), 14)
    def test_case_14(self):
        self.assertEqual(div(30, 2), 15)
    def test_case_15(self):
        self.assertEqual(div(32, 2), 16)
    def test_case_16(self):
        self.assertEqual(div(34, 2), 17)
    def test_case_17(self):
        self.assertEqual(div(36, 2), 18)
    def test_case_18(self):
        self.assertEqual(div(38, 2), 19)
    def test_case_19(self):
        self.assertEqual(div(40, 2), 20)
    def test_case_20(self):
        self.assertEqual(div(42, 2), 21)
    def test_case_21(self):
        self.assertEqual(div(44, 2), 22)
    def test_case_22(self):
        self.assertEqual(div(46, 2), 23)
    def test_case_23(self):
        self.assertEqual(div(48, 2), 24)
    def test_case_24(self):
        self.assertEqual(div(50, 2), 25)

class TestGroup4(unittest.TestCase):
    def test_case_0(self):
        self.assertEqual(div(2, 2), 1)
    def test_case_1(self):
        self.assertEqual(div(4, 2), 2)
    def test_case_2(self):
        self.assertEqual(div(6, 2), 3)
    def test_case_3(self):
        self.assertEqual(div(8, 2), 4)
    def test_case_4(self):
        self.assertEqual(div(10, 2), 5)
    def test_case_5(self):
        self.assertEqual(div(12, 2), 6)
    def test_case_6(self):
        self.assertEqual(div(14, 2), 7)
    def test_case_7(self):
        self.assertEqual(div(16, 2), 8)
    def test_case_8(self):
        self.assertEqual(div(18, 2), 9)
    def test_case_9(self):
        self.assertEqual(div(20, 2), 10)
    def test_case_10(self):
        self.assertEqual(div(22, 2), 11)
    def test_case_11(self):
        self.assertEqual(div(24, 2), 12)
    def test_case_12(self):
        self.assertEqual(div(26, 2), 13)
    def test_case_13(self):
        self.assertEqual(div(28, 2), 14)
    def test_case_14(self):
        self.assertEqual(div(30, 2), 15)
    def test_case_15(self):
        self.assertEqual(div(32, 2), 16)
    def test_case_16(self):
        self.assertEqual(div(34, 2), 17)
    def test_case_17(self):
        self.assertEqual(div(36, 2), 18)
    def test_case_18(self):
        self.assertEqual(div(38, 2), 19)
    def test_case_19(self):
        self.assertEqual(div(40, 2), 20)
    def test_case_20(self):
        self.assertEqual(div(42, 2), 21)
    def test_case_21(self):
        self.assertEqual(div(44, 2), 22)
    def test_case_22(self):
        self.assertEqual(div(46, 2), 23)
    def test_case_23(self):
        self.assertEqual(div(48, 2), 24)
    def test_case_24(self):
        self.assertEqual(div(50, 2), 25)
    def test_crash(self):
        parse(None)

class TestGroup5(unittest.TestCase):
    def test_case_0(self):
        self.assertEqual(div(2, 2), 1)
    def test_case_1(self):
        self.assertEqual(div(4, 2), 2)
    def test_case_2(self):
        self.assertEqual(div(6, 2), 3)
    def test_case_3(self):
        self.assertEqual(div(8, 2), 4)
    def test_case_4(self):
        self.assertEqual(div(10, 2), 5)
    def test_case_5(self):
        self.assertEqual(div(12, 2), 6)
    def test_case_6(self):
        self.assertEqual(div(14, 2), 7)
    def test_case_7(self):
        self.assertEqual(div(16, 2), 8)
    def test_case_8(self):
        self.assertEqual(div(18, 2), 9)
    def test_case_9(self):
        self.assertEqual(div(20, 2), 10)
    def test_case_10(self):
        self.assertEqual(div(22, 2), 11)
    def test_case_11(self):
        self.assertEqual(div(24, 2), 12)
    def test_case_12(self):
        self.assertEqual(div(26, 2), 13)
    def test_case_13(self):
        self.assertEqual(div(28, 2), 14)
    def test_case_14(self):
        self.assertEqual(div(30, 2), 15)
    def test_case_15(self):
        self.assertEqual(div(32, 2), 16)
    def test_case_16(self):
        self.assertEqual(div(34, 2), 17)
    def test_case_17(self):
        self.assertEqual(div(36, 2), 18)
    def test_case_18(self):
        self.assertEqual(div(38, 2), 19)
    def test_case_19(self):
        self.assertEqual(div(40, 2), 20)
    def test_case_20(self):
        self.assertEqual(div(42, 2), 21)
    def test_case_21(self):
        self.assertEqual(div(44, 2), 22)
    def test_case_22(self):
        self.assertEqual(div(46, 2), 23)
    def test_case_23(self):
        self.assertEqual(div(48, 2), 24)
    def test_case_24(self):
        self.assertEqual(div(50, 2), 25)
