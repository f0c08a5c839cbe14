import json
import random
import traceback
from datetime import datetime, timedelta, timezone

rng = random.Random(5)
t = datetime(2026, 11, 25, 8, 0, 0, tzinfo=timezone.utc)


def emit(level, event, **fields):
    global t
    t += timedelta(milliseconds=rng.randint(2, 35))
    print(json.dumps({"ts": t.isoformat(timespec="milliseconds"), "level": level, "logger": "orders", "event": event, **fields}))


def reserve(sku, qty):
    stock = {"A-100": 5, "B-200": 0}
    return stock[sku] >= qty


emit("info", "service starting", version="3.4.0", port=9000, workers=4)
emit("info", "connected", db="postgresql://orders@db:5432/orders", pool=12)
for i in range(1, 701):
    trace = f"{rng.getrandbits(64):016x}"
    path = rng.choice(["/v1/orders", "/v1/orders/{id}", "/v1/cart", "/v1/catalog"]).replace("{id}", str(rng.randint(10000, 99999)))
    emit("info", "request completed", method=rng.choice(["GET", "GET", "POST"]), path=path, status=200, duration_ms=rng.randint(3, 80), trace_id=trace)
    if i % 150 == 0:
        emit("warning", "slow query", query="SELECT * FROM order_items WHERE order_id = $1", duration_ms=rng.randint(900, 1500), trace_id=trace)
    if i == 377:
        try:
            reserve("C-300", 2)
        except KeyError:
            emit("error", "reservation failed", path="/v1/orders", status=500, trace_id=trace, exception=traceback.format_exc())
emit("info", "service stopping", handled=700, errors=1)
