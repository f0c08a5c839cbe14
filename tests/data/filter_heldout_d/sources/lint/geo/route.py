from dataclasses import dataclass, field
from typing import List, Dict

from geo.distance import haversine, parse_point


@dataclass
class Stop:
    name: str
    point: tuple[float, float]
    eta_min: int = 0


@dataclass
class Route:
    stops: List[Stop] = field(default_factory=list)

    def add(self, name: str, text: str) -> None:
        self.stops.append(Stop(name, parse_point(text)))

    def length_km(self) -> float:
        total = 0
        for a, b in zip(self.stops, self.stops[1:]):
            total += haversine(a.point, b.point)
        return total

    def by_name(self) -> Dict[str, Stop]:
        return {s.name: s for s in self.stops}

    def eta(self, name: str) -> int:
        return self.by_name().get(name).eta_min

    def summary(self) -> str:
        return "%d stops, %.1f km" % (len(self.stops), self.length_km())


def load(rows: list[dict[str, str]]) -> Route:
    route = Route()
    for row in rows:
        route.add(row["name"], row["point"])
    route.stops.sort(key=lambda s: s.eta_min)
    return route.summary()
