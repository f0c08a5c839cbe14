import unittest
from datetime import date

from shelfwise.dates import due_date, loan_days


def renew(due, kind, renewals):
    if renewals >= 2:
        raise RuntimeError("renewal limit reached")
    return due_date(due, kind)


class RenewalTests(unittest.TestCase):
    def test_renew_book_once(self):
        self.assertEqual(renew(date(2026, 11, 23), "book", 0), date(2026, 12, 14))

    def test_renew_dvd_twice_is_refused(self):
        with self.assertRaises(RuntimeError):
            renew(date(2026, 11, 23), "dvd", 2)

    def test_renew_audiobook(self):
        self.assertEqual(renew(date(2026, 11, 23), "audiobook", 1), date(2026, 12, 8))

    def test_renew_boardgame(self):
        self.assertEqual(renew(date(2026, 11, 23), "boardgame", 0), date(2026, 11, 30))

    @unittest.skip("needs the county holds API")
    def test_renew_with_hold_waiting(self):
        pass

    def test_loan_days_table(self):
        self.assertDictEqual({k: loan_days(k) for k in ("book", "dvd")}, {"book": 21, "dvd": 14})


if __name__ == "__main__":
    unittest.main()
