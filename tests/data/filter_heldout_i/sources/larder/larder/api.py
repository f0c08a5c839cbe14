"""The stock API: items, parcels, donations. Run with uvicorn larder.api:app."""

import asyncio
import logging
import random

from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route

log = logging.getLogger("larder.http")
pool_log = logging.getLogger("larder.db.pool")
cache_log = logging.getLogger("larder.cache")

ITEMS = {i: {"id": i, "name": f"item-{i}", "qty": (i * 7) % 40, "shelf": f"S{i % 12:02d}"} for i in range(1, 121)}
SHELVES = {f"S{i:02d}": {"capacity": 50 + i} for i in range(11)}  # S11 was never registered
_cache: dict[str, object] = {}


class Pool:
    def __init__(self, size: int = 10) -> None:
        self.size, self.in_use, self.waits = size, 0, 0

    async def __aenter__(self) -> "Pool":
        if self.in_use >= self.size:
            self.waits += 1
            pool_log.warning("pool exhausted, waiting (size=%d, in_use=%d, waits=%d)", self.size, self.in_use, self.waits)
            while self.in_use >= self.size:
                await asyncio.sleep(0.005)
        self.in_use += 1
        pool_log.debug("connection acquired (size=%d, idle=%d)", self.size, self.size - self.in_use)
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.in_use -= 1
        pool_log.debug("connection released (size=%d, idle=%d)", self.size, self.size - self.in_use)


pool = Pool(size=4)


async def health(request):
    return JSONResponse({"ok": True})


async def list_items(request):
    shelf = request.query_params.get("shelf")
    key = f"items:{shelf}"
    if key in _cache:
        cache_log.debug("hit %s", key)
        return JSONResponse(_cache[key])
    cache_log.debug("miss %s", key)
    async with pool:
        await asyncio.sleep(random.uniform(0.001, 0.02))
        rows = [it for it in ITEMS.values() if shelf is None or it["shelf"] == shelf]
    _cache[key] = rows
    return JSONResponse(rows)


async def get_item(request):
    item_id = int(request.path_params["item_id"])
    async with pool:
        await asyncio.sleep(random.uniform(0.001, 0.01))
        item = ITEMS.get(item_id)
    if item is None:
        log.info("item %d not found", item_id)
        return JSONResponse({"error": "not found"}, status_code=404)
    return JSONResponse(item)


def shelf_room(item: dict) -> int:
    capacity = SHELVES[item["shelf"]]["capacity"]  # KeyError for S11
    return capacity - item["qty"]


async def donate(request):
    body = await request.json()
    item = ITEMS[int(body["item"])]
    room = shelf_room(item)
    qty = int(body["qty"])
    if qty > room:
        log.warning("donation of %d to item %d exceeds shelf %s room (%d)", qty, item["id"], item["shelf"], room)
        return JSONResponse({"error": "no room"}, status_code=409)
    async with pool:
        await asyncio.sleep(random.uniform(0.002, 0.03))
        item["qty"] += qty
    _cache.clear()
    return JSONResponse(item, status_code=201)


async def parcel(request):
    body = await request.json()
    wanted = body["items"]
    async with pool:
        await asyncio.sleep(random.uniform(0.005, 0.04))
        short = [i for i in wanted if ITEMS[i]["qty"] < 1]
    if short:
        log.warning("parcel for household %s short of %s", body.get("household"), short)
    total = sum(ITEMS[i]["qty"] for i in wanted) / len(wanted)  # ZeroDivisionError on an empty parcel
    return JSONResponse({"ok": True, "avg_stock": total})


app = Starlette(
    routes=[
        Route("/health", health),
        Route("/api/v1/items", list_items),
        Route("/api/v1/items/{item_id:int}", get_item),
        Route("/api/v1/donations", donate, methods=["POST"]),
        Route("/api/v1/parcels", parcel, methods=["POST"]),
    ]
)
