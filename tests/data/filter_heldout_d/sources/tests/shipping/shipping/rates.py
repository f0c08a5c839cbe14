import warnings

ZONES = {"DE": 1, "AT": 2, "FR": 2, "NL": 2, "IT": 3, "ES": 3, "PL": 3, "US": 5, "JP": 6}
BASE = {1: 4.90, 2: 9.90, 3: 12.90, 5: 24.90, 6: 29.90}


def zone(country):
    return ZONES[country.upper()]


def rate(country, weight_kg):
    z = zone(country)
    price = BASE[z]
    if weight_kg > 5:
        price += (weight_kg - 5) * 1.5 * z
    if weight_kg > 31.5:
        raise ValueError(f"parcel too heavy: {weight_kg} kg")
    return round(price, 2)


def legacy_rate(country, weight_kg):
    warnings.warn("legacy_rate() is deprecated; use rate()", DeprecationWarning, stacklevel=2)
    return rate(country, weight_kg)
