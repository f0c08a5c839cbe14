import unittest
from decimal import Decimal

from accounts.ledger import Account


class StatementTests(unittest.TestCase):
    def test_statement_line_00(self):
        a = Account("s0", "4186.00")
        a.withdraw("36.00")
        self.assertEqual(a.balance, Decimal("4150.00"))

    def test_statement_line_01(self):
        a = Account("s1", "5875.00")
        a.withdraw("25.00")
        self.assertEqual(a.balance, Decimal("5850.00"))

    def test_statement_line_02(self):
        a = Account("s2", "8685.00")
        a.withdraw("35.00")
        self.assertEqual(a.balance, Decimal("8650.00"))

    def test_statement_line_03(self):
        a = Account("s3", "476.00")
        a.withdraw("26.00")
        self.assertEqual(a.balance, Decimal("450.00"))

    def test_statement_line_04(self):
        a = Account("s4", "7629.00")
        a.withdraw("29.00")
        self.assertEqual(a.balance, Decimal("7600.00"))

    def test_statement_line_05(self):
        a = Account("s5", "4081.00")
        a.withdraw("31.00")
        self.assertEqual(a.balance, Decimal("4050.00"))

    def test_statement_line_06(self):
        a = Account("s6", "850.00")
        a.withdraw("0.00")
        self.assertEqual(a.balance, Decimal("850.00"))

    def test_statement_line_07(self):
        a = Account("s7", "2570.00")
        a.withdraw("20.00")
        self.assertEqual(a.balance, Decimal("2550.00"))

    def test_statement_line_08(self):
        a = Account("s8", "1855.00")
        a.withdraw("5.00")
        self.assertEqual(a.balance, Decimal("1850.00"))

    def test_statement_line_09(self):
        a = Account("s9", "6092.00")
        a.withdraw("42.00")
        self.assertEqual(a.balance, Decimal("6050.00"))

    def test_statement_line_10(self):
        a = Account("s10", "7686.00")
        a.withdraw("36.00")
        self.assertEqual(a.balance, Decimal("7650.00"))

    def test_statement_line_11(self):
        a = Account("s11", "4040.00")
        a.withdraw("40.00")
        self.assertEqual(a.balance, Decimal("4000.00"))

    def test_statement_line_12(self):
        a = Account("s12", "6239.00")
        a.withdraw("39.00")
        self.assertEqual(a.balance, Decimal("6200.00"))

    def test_statement_line_13(self):
        a = Account("s13", "8909.00")
        a.withdraw("9.00")
        self.assertEqual(a.balance, Decimal("8900.00"))

    def test_statement_line_14(self):
        a = Account("s14", "1671.00")
        a.withdraw("21.00")
        self.assertEqual(a.balance, Decimal("1650.00"))

    def test_statement_line_15(self):
        a = Account("s15", "9404.00")
        a.withdraw("4.00")
        self.assertEqual(a.balance, Decimal("9400.00"))

    def test_statement_line_16(self):
        a = Account("s16", "4086.00")
        a.withdraw("36.00")
        self.assertEqual(a.balance, Decimal("4050.00"))

    def test_statement_line_17(self):
        a = Account("s17", "215.00")
        a.withdraw("15.00")
        self.assertEqual(a.balance, Decimal("200.00"))

    def test_statement_line_18(self):
        a = Account("s18", "3551.00")
        a.withdraw("1.00")
        self.assertEqual(a.balance, Decimal("3550.00"))

    def test_statement_line_19(self):
        a = Account("s19", "6688.00")
        a.withdraw("38.00")
        self.assertEqual(a.balance, Decimal("6650.00"))

    def test_statement_line_20(self):
        a = Account("s20", "4580.00")
        a.withdraw("30.00")
        self.assertEqual(a.balance, Decimal("4550.00"))

    def test_statement_line_21(self):
        a = Account("s21", "2984.00")
        a.withdraw("34.00")
        self.assertEqual(a.balance, Decimal("2950.00"))

    def test_statement_line_22(self):
        a = Account("s22", "6381.00")
        a.withdraw("31.00")
        self.assertEqual(a.balance, Decimal("6350.00"))

    def test_statement_line_23(self):
        a = Account("s23", "2615.00")
        a.withdraw("15.00")
        self.assertEqual(a.balance, Decimal("2600.00"))

    def test_statement_line_24(self):
        a = Account("s24", "1179.00")
        a.withdraw("29.00")
        self.assertEqual(a.balance, Decimal("1150.00"))

    def test_statement_line_25(self):
        a = Account("s25", "2274.00")
        a.withdraw("24.00")
        self.assertEqual(a.balance, Decimal("2250.00"))

    def test_statement_line_26(self):
        a = Account("s26", "7289.00")
        a.withdraw("39.00")
        self.assertEqual(a.balance, Decimal("7250.00"))

    def test_statement_line_27(self):
        a = Account("s27", "2076.00")
        a.withdraw("26.00")
        self.assertEqual(a.balance, Decimal("2050.00"))

    def test_statement_line_28(self):
        a = Account("s28", "2167.00")
        a.withdraw("17.00")
        self.assertEqual(a.balance, Decimal("2150.00"))

    def test_statement_line_29(self):
        a = Account("s29", "30.00")
        a.withdraw("30.00")
        self.assertEqual(a.balance, Decimal("0.00"))

    def test_statement_line_30(self):
        a = Account("s30", "88.00")
        a.withdraw("38.00")
        self.assertEqual(a.balance, Decimal("50.00"))

    def test_statement_line_31(self):
        a = Account("s31", "3432.00")
        a.withdraw("32.00")
        self.assertEqual(a.balance, Decimal("3400.00"))

    def test_statement_line_32(self):
        a = Account("s32", "3531.00")
        a.withdraw("31.00")
        self.assertEqual(a.balance, Decimal("3500.00"))

    def test_statement_line_33(self):
        a = Account("s33", "2718.00")
        a.withdraw("18.00")
        self.assertEqual(a.balance, Decimal("2700.00"))

    def test_statement_line_34(self):
        a = Account("s34", "2728.00")
        a.withdraw("28.00")
        self.assertEqual(a.balance, Decimal("2700.00"))

    def test_statement_line_35(self):
        a = Account("s35", "4740.00")
        a.withdraw("40.00")
        self.assertEqual(a.balance, Decimal("4700.00"))

    def test_statement_line_36(self):
        a = Account("s36", "5139.00")
        a.withdraw("39.00")
        self.assertEqual(a.balance, Decimal("5100.00"))

    def test_statement_line_37(self):
        a = Account("s37", "3259.00")
        a.withdraw("9.00")
        self.assertEqual(a.balance, Decimal("3250.00"))

    def test_statement_line_38(self):
        a = Account("s38", "8835.00")
        a.withdraw("35.00")
        self.assertEqual(a.balance, Decimal("8800.00"))

    def test_statement_line_39(self):
        a = Account("s39", "3356.00")
        a.withdraw("6.00")
        self.assertEqual(a.balance, Decimal("3350.00"))

    def test_statement_line_40(self):
        a = Account("s40", "2977.00")
        a.withdraw("27.00")
        self.assertEqual(a.balance, Decimal("2950.00"))

    def test_statement_line_41(self):
        a = Account("s41", "3226.00")
        a.withdraw("26.00")
        self.assertEqual(a.balance, Decimal("3200.00"))

    def test_statement_line_42(self):
        a = Account("s42", "6279.00")
        a.withdraw("29.00")
        self.assertEqual(a.balance, Decimal("6250.00"))

    def test_statement_line_43(self):
        a = Account("s43", "4896.00")
        a.withdraw("46.00")
        self.assertEqual(a.balance, Decimal("4850.00"))

    def test_statement_line_44(self):
        a = Account("s44", "354.00")
        a.withdraw("4.00")
        self.assertEqual(a.balance, Decimal("350.00"))

    def test_statement_line_45(self):
        a = Account("s45", "5918.00")
        a.withdraw("18.00")
        self.assertEqual(a.balance, Decimal("5900.00"))

    def test_statement_line_46(self):
        a = Account("s46", "6798.00")
        a.withdraw("48.00")
        self.assertEqual(a.balance, Decimal("6750.00"))

    def test_statement_line_47(self):
        a = Account("s47", "2720.00")
        a.withdraw("20.00")
        self.assertEqual(a.balance, Decimal("2700.00"))

    def test_statement_line_48(self):
        a = Account("s48", "2388.00")
        a.withdraw("38.00")
        self.assertEqual(a.balance, Decimal("2350.00"))

    def test_statement_line_49(self):
        a = Account("s49", "4323.00")
        a.withdraw("23.00")
        self.assertEqual(a.balance, Decimal("4300.00"))

    def test_statement_line_50(self):
        a = Account("s50", "1068.00")
        a.withdraw("18.00")
        self.assertEqual(a.balance, Decimal("1050.00"))

    def test_statement_line_51(self):
        a = Account("s51", "5438.00")
        a.withdraw("38.00")
        self.assertEqual(a.balance, Decimal("5400.00"))

    def test_statement_line_52(self):
        a = Account("s52", "4938.00")
        a.withdraw("38.00")
        self.assertEqual(a.balance, Decimal("4900.00"))

    def test_statement_line_53(self):
        a = Account("s53", "9882.00")
        a.withdraw("32.00")
        self.assertEqual(a.balance, Decimal("9850.00"))

    def test_statement_line_54(self):
        a = Account("s54", "9604.00")
        a.withdraw("4.00")
        self.assertEqual(a.balance, Decimal("9600.00"))

    def test_statement_line_55(self):
        a = Account("s55", "56.00")
        a.withdraw("6.00")
        self.assertEqual(a.balance, Decimal("50.00"))

    def test_statement_line_56(self):
        a = Account("s56", "9765.00")
        a.withdraw("15.00")
        self.assertEqual(a.balance, Decimal("9750.00"))

    def test_statement_line_57(self):
        a = Account("s57", "5537.00")
        a.withdraw("37.00")
        self.assertEqual(a.balance, Decimal("5500.00"))

    def test_statement_line_58(self):
        a = Account("s58", "1082.00")
        a.withdraw("32.00")
        self.assertEqual(a.balance, Decimal("1050.00"))

    def test_statement_line_59(self):
        a = Account("s59", "5079.00")
        a.withdraw("29.00")
        self.assertEqual(a.balance, Decimal("5050.00"))

    def test_statement_line_60(self):
        a = Account("s60", "5823.00")
        a.withdraw("23.00")
        self.assertEqual(a.balance, Decimal("5800.00"))

    def test_statement_line_61(self):
        a = Account("s61", "5015.00")
        a.withdraw("15.00")
        self.assertEqual(a.balance, Decimal("5000.00"))

    def test_statement_line_62(self):
        a = Account("s62", "7877.00")
        a.withdraw("27.00")
        self.assertEqual(a.balance, Decimal("7850.00"))

    def test_statement_line_63(self):
        a = Account("s63", "5174.00")
        a.withdraw("24.00")
        self.assertEqual(a.balance, Decimal("5150.00"))

    def test_statement_line_64(self):
        a = Account("s64", "3028.00")
        a.withdraw("28.00")
        self.assertEqual(a.balance, Decimal("3000.00"))

    def test_statement_line_65(self):
        a = Account("s65", "7885.00")
        a.withdraw("35.00")
        self.assertEqual(a.balance, Decimal("7850.00"))

    def test_statement_line_66(self):
        a = Account("s66", "7743.00")
        a.withdraw("43.00")
        self.assertEqual(a.balance, Decimal("7700.00"))

    def test_statement_line_67(self):
        a = Account("s67", "2886.00")
        a.withdraw("36.00")
        self.assertEqual(a.balance, Decimal("2850.00"))

    def test_statement_line_68(self):
        a = Account("s68", "934.00")
        a.withdraw("34.00")
        self.assertEqual(a.balance, Decimal("900.00"))

    def test_statement_line_69(self):
        a = Account("s69", "4198.00")
        a.withdraw("48.00")
        self.assertEqual(a.balance, Decimal("4150.00"))

    def test_statement_line_70(self):
        a = Account("s70", "375.00")
        a.withdraw("25.00")
        self.assertEqual(a.balance, Decimal("350.00"))

    def test_statement_line_71(self):
        a = Account("s71", "5860.00")
        a.withdraw("10.00")
        self.assertEqual(a.balance, Decimal("5850.00"))
