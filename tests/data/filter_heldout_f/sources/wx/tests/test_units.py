import pytest

from wxpipe.units import beaufort, knots_to_ms

# WMO: the highest speed (m/s, one decimal) of each force 0..11
UPPER = [0.2, 1.5, 3.3, 5.4, 7.9, 10.7, 13.8, 17.1, 20.7, 24.4, 28.4, 32.6]


def expected(ms):
    for force, upper in enumerate(UPPER):
        if ms <= upper:
            return force
    return 12


SPEEDS = [round(i * 0.1, 1) for i in range(0, 341)]


@pytest.mark.parametrize("ms", SPEEDS)
def test_beaufort(ms):
    assert beaufort(ms) == expected(ms)


@pytest.mark.parametrize("kn,ms", [(0, 0.0), (1, 0.514), (10, 5.144), (33.7, 17.337)])
def test_knots(kn, ms):
    assert knots_to_ms(kn) == pytest.approx(ms, abs=1e-3)
