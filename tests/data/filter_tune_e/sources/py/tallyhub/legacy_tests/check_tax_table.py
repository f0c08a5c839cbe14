import unittest

from tallyhub.tax import VAT_RATES


class TaxTableChecks(unittest.TestCase):
    def test_all_rates_below_30_percent(self):
        for country, rate in VAT_RATES.items():
            with self.subTest(country=country):
                self.assertLess(rate, 0.3)

    def test_eight_countries(self):
        self.assertEqual(len(VAT_RATES), 8)
