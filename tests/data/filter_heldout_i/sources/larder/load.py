"""A small load: a few hundred requests, as the volunteers' tablets make them, with a fixed seed."""

import asyncio
import random
import sys

import httpx

BASE = sys.argv[1]
N = int(sys.argv[2]) if len(sys.argv) > 2 else 300
rng = random.Random(46)


def plan():
    for n in range(N):
        r = rng.random()
        if n % 25 == 0:
            yield "GET", "/health", None
        elif r < 0.45:
            yield "GET", f"/api/v1/items/{rng.randint(1, 130)}", None
        elif r < 0.65:
            yield "GET", f"/api/v1/items?shelf=S{rng.randint(0, 11):02d}", None
        elif r < 0.85:
            yield "POST", "/api/v1/donations", {"item": rng.randint(1, 120), "qty": rng.randint(1, 30)}
        elif r < 0.97:
            yield "POST", "/api/v1/parcels", {"household": f"H{rng.randint(100, 999)}", "items": rng.sample(range(1, 121), 4)}
        else:
            yield "POST", "/api/v1/parcels", {"household": f"H{rng.randint(100, 999)}", "items": []}


async def main():
    codes: dict[object, int] = {}
    sem = asyncio.Semaphore(6)
    async with httpx.AsyncClient(base_url=BASE, timeout=10) as client:
        for _ in range(100):  # until the server is up
            try:
                await client.get("/health")
                break
            except httpx.TransportError:
                await asyncio.sleep(0.2)
        async def one(method, path, body):
            async with sem:
                try:
                    resp = await client.request(method, path, json=body)
                except httpx.HTTPError as exc:
                    codes[type(exc).__name__] = codes.get(type(exc).__name__, 0) + 1
                    return
                codes[resp.status_code] = codes.get(resp.status_code, 0) + 1
        await asyncio.gather(*(one(*step) for step in plan()))
    print("load done:", ", ".join(f"{c}: {n}" for c, n in sorted(codes.items(), key=str)), file=sys.stderr)


asyncio.run(main())
