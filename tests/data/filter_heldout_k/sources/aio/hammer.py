"""The dashboards polling the async API: python hammer.py PORT"""

import asyncio
import collections
import random
import sys

import aiohttp

PORT = int(sys.argv[1])
statuses = collections.Counter()


async def dashboard(n, session):
    rng = random.Random(n)
    for _ in range(45):
        x = rng.random()
        if x < 0.6:
            path = f"/readings/{rng.choice(['north', 'south', 'east', 'west', 'orchid', 'cactus', 'fern'])}"
        elif x < 0.75:
            path = f"/thumb/{rng.choice(['north', 'orchid'])}"
        elif x < 0.85:
            path = "/forecast"
        elif x < 0.95:
            path = f"/schedule?days={rng.choice(['3', '7', 'week'])}"
        else:
            path = "/schedule"
        async with session.get(f"http://127.0.0.1:{PORT}{path}") as response:
            await response.read()
            statuses[response.status] += 1


async def main():
    async with aiohttp.ClientSession(headers={"User-Agent": "GreenhouseDash/3.0"}) as session:
        await asyncio.gather(*(dashboard(n, session) for n in range(6)))
    print("responses by status:", dict(sorted(statuses.items())))


asyncio.run(main())
