from inventory.reports import monthly_report


def test_report():
    assert monthly_report()
