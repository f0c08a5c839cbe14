"""The intake service: reads donation scans from the depots' feed, writes them to the stock database, pushes
totals to the dashboard. Several loggers, as the real one has; simulated I/O so it runs anywhere."""

import asyncio
import logging
import random

logging.basicConfig(level=logging.DEBUG, format="%(asctime)s.%(msecs)03d %(levelname)-5s %(name)-18s %(message)s",
                    datefmt="%H:%M:%S")
feed_log = logging.getLogger("intake.feed")
db_log = logging.getLogger("intake.db")
push_log = logging.getLogger("intake.push")
hb_log = logging.getLogger("intake.heartbeat")
rng = random.Random(1046)


class Breaker:
    def __init__(self) -> None:
        self.failures, self.open_until = 0, 0

    def record(self, ok: bool, tick: int) -> None:
        self.failures = 0 if ok else self.failures + 1
        if self.failures >= 3 and not self.open_until:
            self.open_until = tick + 12
            push_log.warning("circuit open after %d failures; pausing pushes for 12 ticks", self.failures)


async def feed(q: asyncio.Queue, ticks: int) -> None:
    offset = 48210
    for tick in range(ticks):
        for _ in range(rng.randint(1, 4)):
            offset += 1
            scan = {"offset": offset, "depot": rng.choice(["north", "south", "annex"]), "sku": rng.randint(1000, 1200),
                    "qty": rng.choice([1, 1, 2, 6, 12, -1 if offset % 97 == 0 else 3])}
            feed_log.debug("fetched offset=%d depot=%s sku=%d", offset, scan["depot"], scan["sku"])
            await q.put(scan)
        if tick == 61:
            feed_log.error("feed read failed: ConnectionResetError(104, 'Connection reset by peer'); reconnecting in 2s")
            feed_log.info("feed reconnected at offset=%d", offset)
        await asyncio.sleep(0.001)
    await q.put(None)


async def store(q: asyncio.Queue, totals: dict) -> None:
    in_use = 0
    written = 0
    while (scan := await q.get()) is not None:
        in_use = min(in_use + 1, 5)
        db_log.debug("pool acquire (size=5, in_use=%d, waiting=%d)", in_use, q.qsize())
        if scan["qty"] < 0:
            try:
                raise ValueError(f"negative quantity {scan['qty']} for sku {scan['sku']}")
            except ValueError:
                db_log.exception("rejected scan at offset %d", scan["offset"])
        else:
            totals[scan["depot"]] = totals.get(scan["depot"], 0) + scan["qty"]
            written += 1
            db_log.info("INSERT donation sku=%d qty=%d depot=%s (%.1f ms)", scan["sku"], scan["qty"], scan["depot"],
                        rng.uniform(0.8, 9.5))
        if written and written % 50 == 0:
            db_log.info("pool stats: size=5 in_use=%d idle=%d written=%d", in_use, 5 - in_use, written)
        in_use = max(in_use - rng.randint(0, 2), 0)
        if rng.random() < 0.02:
            db_log.warning("slow query: INSERT donation took %d ms (threshold 250 ms)", rng.randint(260, 900))


async def push(totals: dict, ticks: int) -> None:
    breaker = Breaker()
    for tick in range(ticks):
        await asyncio.sleep(0.003)
        if breaker.open_until:
            if tick < breaker.open_until:
                continue
            push_log.info("circuit half-open; trying a push")
            breaker.open_until = 0
        ok = not (40 <= tick < 46)
        if ok:
            push_log.info("pushed totals %s -> 200 (%d ms)", dict(sorted(totals.items())), rng.randint(18, 60))
        else:
            push_log.error("push failed: 503 Service Unavailable from https://dash.larder.example/api/totals")
        breaker.record(ok, tick)
        if tick % 8 == 0:
            hb_log.debug("heartbeat ok (lag=%d ms)", rng.randint(0, 4))


async def main() -> None:
    logging.getLogger("intake").info("intake starting: feed=depots-v2 db=stock pool=5")
    q: asyncio.Queue = asyncio.Queue(maxsize=20)
    totals: dict = {}
    await asyncio.gather(feed(q, 120), store(q, totals), push(totals, 110))
    logging.getLogger("intake").info("intake stopped: totals %s", dict(sorted(totals.items())))


asyncio.run(main())
