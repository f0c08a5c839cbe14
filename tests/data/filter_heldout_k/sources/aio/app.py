"""The greenhouse's async API (readings, thumbnails, the weather forecast from the station): python app.py PORT"""

import asyncio
import logging
import random
import sys
import time

import aiohttp
from aiohttp import web

logging.basicConfig(level=logging.DEBUG, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("greenhouse.api")
STATION = "http://127.0.0.1:18979/forecast"  # the weather station's box, switched off for the winter
HOUSES = ["north", "south", "east", "west", "orchid", "seedling", "cactus"]


async def readings(request):
    house = request.match_info["house"]
    if house not in HOUSES:
        raise web.HTTPNotFound(text=f"no house {house}")
    await asyncio.sleep(random.random() / 50)
    rng = random.Random(house)
    return web.json_response({"house": house, "temp_c": round(18 + rng.random() * 10, 1)})


async def thumbnail(request):
    house = request.match_info["house"]
    # resizing is done in the handler itself: it blocks the loop for every request
    time.sleep(0.12)
    log.debug("thumbnail for %s resized", house)
    return web.Response(body=b"\xff" * 2048, content_type="image/jpeg")


async def forecast(request):
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=2)) as session:
        async with session.get(STATION) as response:
            return web.json_response(await response.json())


async def schedule(request):
    days = int(request.query["days"])
    log.info("watering schedule for %d days", days)
    return web.json_response({"days": days, "litres": [2.5] * days})


async def on_startup(app):
    log.info("greenhouse api starting, %d houses", len(HOUSES))


app = web.Application()
app.on_startup.append(on_startup)
app.add_routes([web.get("/readings/{house}", readings), web.get("/thumb/{house}", thumbnail),
                web.get("/forecast", forecast), web.get("/schedule", schedule)])

if __name__ == "__main__":
    web.run_app(app, host="127.0.0.1", port=int(sys.argv[1]),
                access_log_format='%a "%r" %s %b %Tfs "%{User-Agent}i"')
