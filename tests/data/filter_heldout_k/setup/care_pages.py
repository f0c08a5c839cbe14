"""Writes the care guide's house and plant pages into DOCS (the same every time)."""

import random
import sys
from pathlib import Path

docs = Path(sys.argv[1])
rng = random.Random(46)
houses = ["north", "south", "east", "west", "orchid", "seedling", "cactus", "fern"]
species = ["basil", "tomato", "chili", "mint", "thyme", "orchid", "fern", "aloe", "sage", "parsley", "rosemary",
           "lettuce", "spinach", "radish", "pepper", "cucumber", "strawberry", "lavender", "geranium", "begonia",
           "cactus", "jade", "ivy", "monstera"]
(docs / "houses").mkdir(parents=True, exist_ok=True)
(docs / "plants").mkdir(parents=True, exist_ok=True)
for house in houses:
    plants = rng.sample(species, 4)
    links = ", ".join(f"[{p}](../plants/{p}.md)" for p in plants)
    extra = ""
    if house == "orchid":
        extra = "\n## Humidity\n\nMist twice a day.\n"  # the rota links #misting
    if house == "cactus":
        extra = "\nThe heater settings are in [the heater page](../equipment/heater.md).\n"
    if house == "fern":
        extra = "\n![shade cloth](../img/shade-cloth.png)\n"
    (docs / "houses" / f"{house}.md").write_text(f"# {house.title()} house\n\nGrows {links}.\n{extra}")
for name in species:
    see = rng.choice(species)
    body = f"# {name.title()}\n\nWater every {rng.randint(1, 9)} days. See also [{see}]({see}.md).\n"
    if name == "sage":
        body += "\nSage shares the [herb bed](../houses/herbs.md) with thyme.\n"
    if name == "aloe":
        body += "\nRepot in spring ([how](/repotting.md)).\n"
    (docs / "plants" / f"{name}.md").write_text(body)
(docs / "seasons").mkdir(exist_ok=True)
for season in ["spring", "summer", "autumn", "winter"]:
    for house in houses:
        body = f"# {house.title()} house in {season}\n\nBack to [the house](../houses/{house}.md).\n"
        if season == "winter" and house in ("orchid", "seedling"):
            body += "\nKeep the heater on; see the [frost plan](../rota.md#frost-plan).\n"
        (docs / "seasons" / f"{house}-{season}.md").write_text(body)
