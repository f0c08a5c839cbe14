import unittest
from decimal import Decimal

from tallyhub.money import Money


class RoundingChecks(unittest.TestCase):
    def test_half_even_down(self):
        self.assertEqual(Money.of("2.345").amount, Decimal("2.34"))

    def test_half_even_up(self):
        self.assertEqual(Money.of("2.355").amount, Decimal("2.36"))

    def test_negative(self):
        self.assertEqual(Money.of("-1.005").amount, Decimal("-1.01"))

    @unittest.skip("multi-currency totals land in 0.5")
    def test_mixed_currency_total(self):
        pass
