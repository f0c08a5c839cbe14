"""What the controller queues over an evening: python enqueue.py"""

import random

from hueytasks import archive_readings, daily_average, resize_photo, send_alert

rng = random.Random(46)
for n in range(70):
    resize_photo(rng.choice(["north", "south", "orchid"]), n)
    if n % 10 == 3:
        daily_average(rng.choice(["north", "south", "orchid", "seedling", "fern"]))
    if n % 25 == 7:
        send_alert("west", "soil moisture under 20%")
archive_readings("2026-11-28")
print("queued")
