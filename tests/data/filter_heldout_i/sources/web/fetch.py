"""The volunteers' tablets polling the static rota pages: a page load pulls its assets, then each tablet polls
its day's CSV; one tablet still asks for an old path, another for a favicon nobody made."""

import random
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

BASE = sys.argv[1]
rng = random.Random(2026)
paths = []
for n in range(160):
    if n % 20 == 0:
        paths += ["/", "/css/site.css", "/js/rota.js", "/img/logo.gif", "/favicon.ico"]
    paths.append(f"/rota-2026-11-{rng.randint(23, 29)}.csv")
    if n % 9 == 0:
        paths.append("/rota.php?week=48")
    if n % 31 == 0:
        paths.append("/../../etc/passwd")


def get(path):
    try:
        with urllib.request.urlopen(BASE + path, timeout=5) as resp:
            return resp.status
    except urllib.error.HTTPError as exc:
        return exc.code


for _ in range(100):  # until the server is up
    try:
        urllib.request.urlopen(BASE + "/index.html", timeout=5).close()
        break
    except OSError:
        time.sleep(0.2)
with ThreadPoolExecutor(4) as pool:
    codes = list(pool.map(get, paths))
print("fetched", len(codes), {c: codes.count(c) for c in sorted(set(codes))}, file=sys.stderr)
