"""The volunteers' phones on the greenhouse site for a while: python visit.py PORT"""

import collections
import json
import random
import sys
import urllib.error
import urllib.request

PORT = int(sys.argv[1])
rng = random.Random(46)
statuses = collections.Counter()
HOUSES = ["north", "south", "east", "west", "orchid", "seedling", "cactus"]


def call(path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(f"http://127.0.0.1:{PORT}{path}", data=data,
                                 headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(req, timeout=10) as response:
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    statuses[status] += 1
    return status


for n in range(140):
    x = rng.random()
    house = rng.choice(HOUSES + ["palm"])
    if x < 0.1:
        call("/")
    elif x < 0.45:
        call(f"/houses/{house}/")
    elif x < 0.8:
        call(f"/plants/{rng.randint(1, 44)}/")
    elif x < 0.9:
        call(f"/houses/{house}/average/")
    else:
        call(f"/houses/{house}/water/", {"temp_c": 21.5, "humidity": 60})
print("responses by status:", dict(sorted(statuses.items())))
