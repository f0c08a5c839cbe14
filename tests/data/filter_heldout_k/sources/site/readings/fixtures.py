"""Fills the greenhouse database: python -c 'import readings.fixtures' under manage.py shell."""

import random

from readings.models import House, Plant, Reading

rng = random.Random(46)
for name in ["north", "south", "east", "west", "orchid", "seedling", "cactus"]:
    house = House.objects.create(name=name, target_temp=rng.choice([20.0, 22.0, 24.0]))
    for n in range(6):
        # the cactus house's plants came from the spreadsheet import, without a watering interval
        days = None if name == "cactus" and n % 2 else rng.randint(1, 9)
        Plant.objects.create(house=house, species=rng.choice(["basil", "tomato", "chili", "mint"]), water_every_days=days)
    if name != "seedling":  # the seedling house's sensor was never installed
        for _ in range(5):
            Reading.objects.create(house=house, temp_c=round(18 + rng.random() * 10, 1), humidity=rng.randint(40, 90))
