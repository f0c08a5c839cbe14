"""Nightly ETL: extract CSV exports, normalise, load into the warehouse (logging to stderr, as most jobs do)."""
import logging
import random
import sys
import time

from etl import transform

rng = random.Random(11)
clock = [1795939200.0]  # 2026-11-26 08:00:00 UTC


def fake_time():
    clock[0] += rng.uniform(0.004, 0.09)
    return clock[0]


logging.Formatter.converter = time.gmtime
time.time = fake_time
logging.basicConfig(stream=sys.stderr, level=logging.INFO,
                    format="%(asctime)s %(levelname)-7s %(name)s - %(message)s")
log = logging.getLogger("etl.pipeline")
load_log = logging.getLogger("etl.load")

log.info("pipeline nightly-orders started (run_id=r-20261126-0800, source=s3://exports/orders/2026-11-25/)")
log.info("found 240 export files, 1,196,412 rows")
loaded = rejected = 0
for part in range(240):
    name = f"orders-part-{part:04d}.csv"
    rows = [{"order_id": f"{part}-{i}", "amount": f"{rng.randint(100, 99999) / 100:.2f}", "currency": "EUR",
             "country": rng.choice(["DE", "FR", "NL", "AT", "BE"])} for i in range(3)]
    if part == 131:
        rows[1]["amount"] = "1.234,50"
    log.info("extract %s (%d bytes)", name, rng.randint(180_000, 420_000))
    try:
        clean = transform.normalise(rows, source=name)
    except transform.RowError:
        log.exception("transform failed for %s; file moved to quarantine/", name)
        rejected += 1
        continue
    if part % 37 == 0 and part:
        load_log.warning("warehouse slow: COPY into staging.orders took %.1fs (threshold 5.0s)", rng.uniform(6, 14))
    load_log.info("loaded %s into staging.orders (%d rows, %d ms)", name, rng.randint(4900, 5100), rng.randint(80, 400))
    loaded += 1
    if part == 199:
        load_log.error("lost connection to warehouse (server closed the connection unexpectedly); reconnecting")
        load_log.info("reconnected to warehouse after 2 attempts")
log.info("merge staging.orders -> dw.fact_orders: 1,191,208 rows upserted")
log.info("pipeline finished: %d files loaded, %d quarantined, elapsed 00:14:52", loaded, rejected)
sys.exit(1 if rejected else 0)
