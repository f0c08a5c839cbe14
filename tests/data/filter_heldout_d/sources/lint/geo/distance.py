import math
from typing import Optional

EARTH_KM = 6371.0


def haversine(a: tuple[float, float], b: tuple[float, float]) -> float:
    lat1, lon1 = map(math.radians, a)
    lat2, lon2 = map(math.radians, b)
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH_KM * math.asin(math.sqrt(h))


def parse_point(text: str) -> Optional[tuple[float, float]]:
    if "," not in text:
        return None
    lat, lon = text.split(",")
    return float(lat), float(lon)


def bearing(a, b):
    lat1, lon1 = map(math.radians, a)
    lat2, lon2 = map(math.radians, b)
    x = math.sin(lon2 - lon1) * math.cos(lat2)
    y = math.cos(lat1)*math.sin(lat2) - math.sin(lat1)*math.cos(lat2)*math.cos(lon2 - lon1)
    return (math.degrees(math.atan2(x, y)) + 360) % 360
