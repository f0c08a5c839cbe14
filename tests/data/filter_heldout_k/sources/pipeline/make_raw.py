"""The sensor dumps the pipeline reads (what the stations upload each night)."""

import datetime
import os
import random

rng = random.Random(46)
os.makedirs("raw", exist_ok=True)
for n in range(4):
    day = datetime.date(2026, 11, 23) + datetime.timedelta(days=n)
    for house in ["north", "south", "east", "west", "orchid", "seedling", "cactus", "fern"]:
        if house == "orchid" and n == 2:
            continue  # the orchid station was offline that night: nothing uploaded
        with open(f"raw/{house}-{day:%Y-%m-%d}.csv", "w") as f:
            f.write("hour,temp_c,humidity\n")
            for hour in range(24):
                humidity = rng.randint(35, 95)
                # the fern station's firmware writes "n/a" when its humidity probe times out
                if house == "fern" and n == 1 and hour == 13:
                    humidity = "n/a"
                f.write(f"{hour},{18 + rng.random() * 10:.1f},{humidity}\n")
