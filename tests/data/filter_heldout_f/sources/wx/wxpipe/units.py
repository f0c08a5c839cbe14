"""Unit conversions and the Beaufort scale."""

# Upper bounds (m/s, exclusive) of Beaufort forces 0..11; force 12 above the last.
BEAUFORT_LIMITS = [0.5, 1.6, 3.4, 5.5, 8.0, 10.9, 13.9, 17.2, 20.8, 24.5, 28.5, 32.7]


def f_to_c(f):
    return (f - 32) * 5 / 9


def knots_to_ms(kn):
    return kn * 0.514444


def beaufort(ms):
    for force, limit in enumerate(BEAUFORT_LIMITS):
        if ms < limit:
            return force
    return 12


def dewpoint(temp_c, humidity):
    """Magnus formula."""
    import math
    a, b = 17.62, 243.12
    gamma = math.log(humidity / 100) + a * temp_c / (b + temp_c)
    return round(b * gamma / (a - gamma), 1)
