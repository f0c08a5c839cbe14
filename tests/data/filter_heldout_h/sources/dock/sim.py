"""A week of rides through the fleet, to see where rebalancing time goes."""

import random

from dockside.fleet import Station, rebalance
from dockside.geo import haversine

rng = random.Random(4)
stations = {}
for i in range(120):
    sid = f"S{i:03d}"
    cap = rng.choice([12, 16, 20, 24])
    stations[sid] = Station(sid, f"Dock {i}", 51.40 + rng.random() / 10, -2.65 + rng.random() / 10, cap,
                            [f"{sid}-{n}" for n in range(rng.randint(0, cap))])


def nearest(lat, lon):
    return min(stations.values(), key=lambda s: haversine(lat, lon, s.lat, s.lon))


def ride(rng):
    src = rng.choice(list(stations.values()))
    if not src.bikes:
        return 0.0
    dst = nearest(51.40 + rng.random() / 10, -2.65 + rng.random() / 10)
    if dst.free_docks() <= 0:
        return 0.0
    dst.bikes.append(src.bikes.pop())
    return haversine(src.lat, src.lon, dst.lat, dst.lon)


km = 0.0
vans = 0
for day in range(7):
    for _ in range(1500):
        km += ride(rng)
    vans += len(rebalance(stations, moves=[]))
print(f"{km:.1f} km ridden, {vans} van trips")
