"""The readings cache in front of the greenhouse's sensor database: what the dashboard's workers do to memcached.

python cache.py PORT
"""

import json
import random
import sys

from pymemcache.client.base import Client
from pymemcache.exceptions import MemcacheClientError, MemcacheServerError

PORT = int(sys.argv[1])
HOUSES = ["north", "south", "east", "west", "orchid", "seedling", "cactus", "fern"]
rng = random.Random(46)
dash = Client(("127.0.0.1", PORT), connect_timeout=2, timeout=2)
worker = Client(("127.0.0.1", PORT), connect_timeout=2, timeout=2)

# visits are counters, except the fern house's, which an old dashboard wrote as text
for house in HOUSES:
    worker.set(f"visits:{house}", "0" if house != "fern" else "n/a", expire=3600)

misses = too_large = not_counted = 0
for minute in range(150):
    house = HOUSES[minute % len(HOUSES)]
    reading = {"house": house, "minute": minute, "temp_c": round(18 + rng.random() * 10, 1),
               "humidity": rng.randint(40, 90)}
    worker.set(f"reading:{house}", json.dumps(reading), expire=120)
    got = dash.get(f"reading:{rng.choice(HOUSES)}")
    if got is None:
        misses += 1
    try:
        dash.incr(f"visits:{house}", 1)
    except MemcacheClientError as error:
        not_counted += 1
        if not_counted == 1:
            print(f"visits for {house} not counted: {error}")
    if minute % 10 == 0:
        # the camera's thumbnail grew when the camera was replaced: 1.2 MB, over the item size limit
        try:
            worker.set(f"thumb:{house}", b"\xff" * (1200 * 1024 if minute >= 60 else 40 * 1024), expire=600,
                       noreply=False)
        except MemcacheServerError as error:
            too_large += 1
            print(f"thumbnail for {house} at minute {minute} not cached: {error}")
    if minute % 25 == 24:
        print(f"minute {minute}: stats curr_items={dash.stats()[b'curr_items']} misses so far={misses}")

print(f"done: 150 minutes, {misses} misses, {too_large} thumbnails too large, {not_counted} visits not counted")
# the care notes are keyed by the plant's display name
for plant in ["basil 01", "tomato 02"]:
    dash.set(f"note:{plant}", "water daily", expire=600)
