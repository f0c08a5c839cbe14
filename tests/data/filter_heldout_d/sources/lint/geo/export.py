import json
from collections import OrderedDict
from geo.route import Route
from typing import Any


def to_geojson(route: Route) -> dict[str, Any]:
    features = []
    for stop in route.stops:
        features.append({"type": "Feature", "geometry": {"type": "Point", "coordinates": [stop.point[1], stop.point[0]]},
                         "properties": {"name": stop.name}})
    return {"type": "FeatureCollection", "features": features}


def dump(route: Route, path: str) -> None:
    with open(path, "w") as fh:
        json.dump(to_geojson(route), fh, indent=2)
    return len(route.stops)


def legacy_dict(route):
    d = OrderedDict()
    for i in range(len(route.stops)):
        d[route.stops[i].name] = route.stops[i].point
    return d
