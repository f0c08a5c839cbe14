"""The kiosk and the volunteers' phones, for half a minute: pages, readings, static files, the camera, the report.

python drive.py PORT
"""

import collections
import http.client
import json
import random
import sys
import threading

PORT = int(sys.argv[1])
HOUSES = ["north", "south", "east", "west", "orchid", "seedling", "cactus", "fern"]
rng = random.Random(46)
statuses = collections.Counter()
lock = threading.Lock()


def request(method, path, body=None, source="127.0.0.1", agent="GreenhousePhone/2.1"):
    conn = http.client.HTTPConnection("127.0.0.1" if source == "127.0.0.1" else source, PORT, timeout=10,
                                      source_address=(source, 0))
    headers = {"User-Agent": agent}
    if body is not None:
        body = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    response.read()
    conn.close()
    with lock:
        statuses[response.status] += 1
    return response.status


def plan(n):
    r = random.Random(n)
    out = []
    for _ in range(n):
        x = r.random()
        house = r.choice(HOUSES)
        if x < 0.35:
            out.append(("GET", f"/api/readings/{house}", None))
        elif x < 0.6:
            out.append(("GET", f"/houses/{house}/{house}-{r.randint(1, 18):02d}", None))
        elif x < 0.75:
            out.append(("GET", r.choice(["/static/css/site.css", "/static/css/houses.css", "/static/img/logo.png",
                                          "/static/js/app.js", "/static/img/plants/{}.jpg".format(house)]), None))
        elif x < 0.8:
            out.append(("GET", "/camera/live.jpg", None))
        elif x < 0.83:
            out.append(("GET", "/api/report", None))
        elif x < 0.85:
            out.append(("GET", "/api/slow-report", None))
        elif x < 0.95:
            out.append(("POST", "/api/water", {"house": house, "litres": r.choice([2, 5, 8, 25])}))
        else:
            out.append(("POST", "/api/water", {"house": house, "note": "x" * 1500}))
    return out


def phone(n, seed):
    for method, path, body in plan(n)[seed::4]:
        request(method, path, body)


threads = [threading.Thread(target=phone, args=(360, i)) for i in range(4)]
for t in threads:
    t.start()
# the kiosk in the hall: its connections are the ones logged at debug level
kiosk = [("GET", "/api/readings/orchid", None), ("GET", "/camera/live.jpg", None), ("GET", "/api/slow-report", None)]
for method, path, body in kiosk:
    print(f"kiosk {method} {path} -> {request(method, path, body, source='127.0.0.2', agent='Kiosk/1.0')}")
for t in threads:
    t.join()
print("responses by status:", dict(sorted(statuses.items())))
