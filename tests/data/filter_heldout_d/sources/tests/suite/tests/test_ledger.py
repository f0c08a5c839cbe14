import unittest
from decimal import Decimal

from accounts.ledger import Account, InsufficientFunds, interest, monthly_fee


class DepositTests(unittest.TestCase):
    def test_deposit(self):
        a = Account("ana")
        a.deposit("10.00")
        self.assertEqual(a.balance, Decimal("10.00"))

    def test_negative_deposit(self):
        with self.assertRaises(ValueError):
            Account("ana").deposit("-1")

    def test_history(self):
        a = Account("ana")
        a.deposit("5")
        a.deposit("7")
        self.assertEqual([kind for kind, _ in a.history], ["deposit", "deposit"])


class WithdrawTests(unittest.TestCase):
    def test_withdraw(self):
        a = Account("ben", "50.00")
        a.withdraw("20.00")
        self.assertEqual(a.balance, Decimal("30.00"))

    def test_overdraft_allowed(self):
        a = Account("ben", "10.00", overdraft="100.00")
        a.withdraw("60.00")
        self.assertEqual(a.balance, Decimal("-50.00"))

    def test_insufficient(self):
        with self.assertRaises(InsufficientFunds):
            Account("ben", "10.00").withdraw("10.01")

    def test_withdraw_all_then_fee(self):
        a = Account("ben", "1200.00")
        a.withdraw("1200.00")
        self.assertEqual(monthly_fee(a), Decimal("0"))


class TransferTests(unittest.TestCase):
    def test_transfer(self):
        a, b = Account("a", "100"), Account("b")
        a.transfer(b, "40")
        self.assertEqual((a.balance, b.balance), (Decimal("60"), Decimal("40")))

    def test_transfer_is_atomic(self):
        a, b = Account("a", "100"), Account("b")
        with self.assertRaises(ValueError):
            a.transfer(b, "0")
        self.assertEqual(a.balance, Decimal("100"))

    def test_transfer_records_both_sides(self):
        a, b = Account("a", "100"), Account("b")
        a.transfer(b, "1")
        self.assertEqual(len(a.history) + len(b.history), 2)


class InterestTests(unittest.TestCase):
    def test_interest(self):
        self.assertEqual(interest(Account("c", "1200"), "0.03"), Decimal("3.00"))

    def test_interest_rounds_half_even(self):
        self.assertEqual(interest(Account("c", "1000.50"), "0.025"), Decimal("2.09"))

    def test_interest_float_rate(self):
        self.assertEqual(interest(Account("c", "100"), 0.05), Decimal("0.42"))

    @unittest.skip("rates API not wired up yet")
    def test_interest_from_api(self):
        pass


if __name__ == "__main__":
    unittest.main()
