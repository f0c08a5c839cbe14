from shelfwise.legacy import card_number, old_fine


def test_old_fine_in_dollars():
    assert old_fine(6) == 1.25


def test_old_fine_zero():
    assert old_fine(1) == 0


def test_card_number():
    assert card_number(42) == "LIB0000042"
