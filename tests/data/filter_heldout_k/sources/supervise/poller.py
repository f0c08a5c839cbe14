"""Reads the houses' sensors every 0.2 s and prints each reading (supervisord logs the output at debug level)."""

import random
import sys
import time

rng = random.Random(46)
houses = ["north", "south", "east", "west", "orchid"]
n = 0
while True:
    n += 1
    house = houses[n % len(houses)]
    print(f"reading {n}: {house} temp={18 + rng.random() * 10:.1f} humidity={rng.randint(35, 95)}")
    if n % 40 == 0:
        print(f"poller: probe on {house} slow to answer ({rng.randint(300, 900)} ms)", file=sys.stderr)
    time.sleep(0.2)
