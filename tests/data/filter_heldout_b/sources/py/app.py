import random
import sys
import traceback
from datetime import datetime, timedelta

rng = random.Random(11)
t = datetime(2026, 11, 24, 9, 30, 0)
routes = ["/api/orders", "/api/orders/{id}", "/api/users/{id}", "/api/cart", "/healthz"]
errors = 0


def log(level, logger, msg):
    global t
    t += timedelta(milliseconds=rng.randint(3, 40))
    print(f"{t:%Y-%m-%d %H:%M:%S},{t.microsecond // 1000:03d} {level:<7} [{logger}] {msg}")


class PaymentGatewayError(RuntimeError):
    pass


def charge(order_id, amount):
    return authorize(order_id, amount)


def authorize(order_id, amount):
    raise PaymentGatewayError(f"gateway timeout after 30000 ms (order={order_id}, amount={amount:.2f} EUR)")


log("INFO", "app", "starting shop-api 2.7.1 on 0.0.0.0:8080 (workers=4)")
log("INFO", "db", "connected to postgres://shop@db:5432/shop (pool=10)")
for i in range(1, 1101):
    rid = f"{rng.getrandbits(48):012x}"
    route = rng.choice(routes).replace("{id}", str(rng.randint(1000, 9999)))
    ms = rng.randint(2, 60)
    log("INFO", "http", f"req={rid} GET {route} 200 {ms}ms user={rng.randint(100, 999)}")
    if i == 563:
        try:
            charge(48213, 129.9)
        except PaymentGatewayError:
            errors += 1
            log("ERROR", "payments", f"req={rid} POST /api/orders/48213/pay failed")
            traceback.print_exc(file=sys.stdout)
            log("INFO", "http", f"req={rid} POST /api/orders/48213/pay 502 30004ms user=412")
log("INFO", "app", f"shutting down: handled 1101 requests, {errors} errors")
