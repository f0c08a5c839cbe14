import pytest

from shipping.rates import rate, zone, legacy_rate


@pytest.mark.parametrize(
    ('country', 'weight', 'expected'),
    [
    ('DE', 1, 4.9),
    ('DE', 5, 4.9),
    ('DE', 12, 15.4),
    ('AT', 1, 9.9),
    ('AT', 5, 9.9),
    ('AT', 12, 30.9),
    ('FR', 1, 9.9),
    ('FR', 5, 9.9),
    ('FR', 12, 31.9),
    ('NL', 1, 9.9),
    ('NL', 5, 9.9),
    ('NL', 12, 30.9),
    ('IT', 1, 12.9),
    ('IT', 5, 12.9),
    ('IT', 12, 44.4),
    ('ES', 1, 12.9),
    ('ES', 5, 12.9),
    ('ES', 12, 44.4),
    ('PL', 1, 12.9),
    ('PL', 5, 12.9),
    ('PL', 12, 44.4),
    ('US', 1, 24.9),
    ('US', 5, 24.9),
    ('US', 12, 77.4),
    ('JP', 1, 29.9),
    ('JP', 5, 30.9),
    ('JP', 12, 92.9),
    ],
)
def test_rate(country, weight, expected):
    assert rate(country, weight) == expected


@pytest.mark.parametrize('country', ['de', 'De', 'DE', 'ch', 'at'])
def test_zone_case_insensitive(country):
    assert zone(country) >= 1


def test_too_heavy():
    with pytest.raises(ValueError, match='too heavy'):
        rate('DE', 40)


@pytest.mark.parametrize('weight', [0.5, 2, 4, 7, 9, 14, 20, 25, 30, 31])
def test_legacy_rate_matches(weight):
    assert legacy_rate('DE', weight) == rate('DE', weight)
