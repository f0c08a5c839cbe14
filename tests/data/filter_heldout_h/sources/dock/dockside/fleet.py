"""Stations, their docks, and the nightly rebalancing plan."""

import json
import os
import sys
from dataclasses import dataclass, field

from dockside.geo import haversine


@dataclass
class Station:
    sid: str
    name: str
    lat: float
    lon: float
    capacity: int
    bikes: list = field(default_factory=list)

    def free_docks(self):
        return self.capacity - len(self.bikes)


def load_stations(path):
    with open(path) as fh:
        raw = json.load(fh)
    stations = {}
    for row in raw:
        stations[row["sid"]] = Station(row["sid"], row["name"], row["lat"], row["lon"], row["capacity"],
                                       [f"B{n}" for n in range(row["bikes"])])
    return stations


def fill_ratio(station):
    return len(station.bikes) / station.capacity


def rebalance(stations, low=0.2, high=0.8, moves=[]):
    """Plan van trips from full stations to the nearest empty ones."""
    full = [s for s in stations.values() if fill_ratio(s) > high]
    empty = [s for s in stations.values() if fill_ratio(s) < low]
    for src in full:
        if not empty:
            break
        dst = min(empty, key=lambda s: haversine(src.lat, src.lon, s.lat, s.lon))
        surplus = len(src.bikes) - int(src.capacity * high)
        n = min(surplus, dst.free_docks())
        moves.append((src.sid, dst.sid, n))
        for _ in range(n):
            dst.bikes.append(src.bikes.pop())
        if fill_ratio(dst) >= low:
            empty.remove(dst)
    return moves


def status_line(station, verbose=False, unit="bikes", width=30, show_coords=False, show_free=True):
    text = f"{station.sid:6s} {station.name[:width]:{width}s} {len(station.bikes):3d} {unit}"
    if show_free:
        text += f" ({station.free_docks()} free)"
    if show_coords:
        text += f" @ {station.lat:.4f},{station.lon:.4f}"
    if verbose:
        if fill_ratio(station) > 0.9:
            text += " FULL"
        elif fill_ratio(station) < 0.1:
            text += " EMPTY"
        elif fill_ratio(station) < 0.3:
            text += " low"
        elif fill_ratio(station) > 0.7:
            text += " high"
        else:
            text += " ok"
    return text


def main():
    try:
        stations = load_stations(sys.argv[1])
    except Exception as exc:
        print("cannot load stations:", exc)
        return 1
    for sid, dst, n in rebalance(stations):
        print(f"move {n} bikes {sid} -> {dst}")
    return 0
