import pytest

from shelfwise.fines import fine_cents, format_cents, waive


@pytest.mark.parametrize(
    ("days", "child", "expected"),
    [
        (0, False, 0),
        (1, False, 0),
        (2, False, 0),
        (3, False, 25),
        (4, False, 50),
        (10, False, 200),
        (30, False, 700),
        (3, True, 10),
        (12, True, 100),
    ],
)
def test_fine_cents(days, child, expected):
    assert fine_cents(days, child=child) == expected


@pytest.mark.parametrize(("cents", "text"), [(1250, "$12.50"), (5, "$0.05"), (0, "$0.00"), (-300, "-$3.00")])
def test_format_cents(cents, text):
    assert format_cents(cents) == text


def test_cap_is_replacement_cost():
    assert fine_cents(400, cap_cents=2499) == 2499


def test_waive_unknown_member():
    fines = {"17": 250, "42": 75}
    assert waive(fines, ["42", "99"]) == 250
