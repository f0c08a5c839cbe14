"""Poll every station each tick; retry stale ones; log to stderr and logs/scheduler.log."""
import logging
import random
import time

rng = random.Random(2026)
clock = [1793520000.0]  # 2026-11-01 08:00:00 UTC


class StationTimeout(Exception):
    pass


def fake_time():
    return clock[0]


def poll(station, tick, attempt):
    if station == "st-003" and 40 <= tick < 44:
        raise StationTimeout(f"{station}: no answer from 10.20.3.13:502 after 5.0s")
    if rng.random() < 0.012 and attempt == 0:
        raise StationTimeout(f"{station}: read timed out")
    return {"temp_c": round(rng.gauss(8, 3), 1), "wind_ms": round(abs(rng.gauss(5, 2)), 1)}


def run(ticks, stations):
    logging.Formatter.converter = time.gmtime
    time.time = fake_time
    handlers = [logging.StreamHandler(), logging.FileHandler("logs/scheduler.log", mode="w")]
    logging.basicConfig(level=logging.INFO, handlers=handlers,
                        format="%(asctime)s %(levelname)-8s %(name)s: %(message)s")
    log = logging.getLogger("wxpipe.scheduler")
    store = logging.getLogger("wxpipe.store")
    names = [f"st-{i:03d}" for i in range(1, stations + 1)]
    log.info("scheduler started: %d stations, %d ticks, interval 900s", len(names), ticks)
    ok = failed = 0
    for tick in range(ticks):
        clock[0] += 900
        for name in names:
            for attempt in range(3):
                try:
                    reading = poll(name, tick, attempt)
                except StationTimeout as exc:
                    if attempt < 2:
                        log.warning("poll %s failed (attempt %d/3): %s; retrying in 10s", name, attempt + 1, exc)
                        clock[0] += 10
                        continue
                    log.exception("poll %s gave up after 3 attempts", name)
                    failed += 1
                    break
                log.info("poll %s ok: temp_c=%s wind_ms=%s", name, reading["temp_c"], reading["wind_ms"])
                ok += 1
                break
        if tick % 24 == 23:
            store.info("flushed %d readings to wx.db (wal size %d kB)", ok, rng.randint(80, 400))
        if tick == 70:
            store.warning("disk usage of /var/lib/wx at 91%% (threshold 90%%)")
    log.info("scheduler stopped: %d readings stored, %d polls failed", ok, failed)
    return 1 if failed else 0
