"""Tablets polling the lending desk: a few threads of plain HTTP requests, and a summary at the end."""

import collections
import sys
import threading
import urllib.error
import urllib.request

BASE = sys.argv[1]
COUNTS: collections.Counter[str] = collections.Counter()
LOCK = threading.Lock()


def fetch(path: str) -> None:
    try:
        with urllib.request.urlopen(BASE + path, timeout=15) as response:
            status = str(response.status)
    except urllib.error.HTTPError as error:
        status = str(error.code)
    except (urllib.error.URLError, ConnectionError, TimeoutError) as error:
        status = type(getattr(error, "reason", error)).__name__
    with LOCK:
        COUNTS[status] += 1


def tablet(n: int) -> None:
    for i in range(150):
        k = n * 150 + i
        if k % 97 == 5:
            path = "/report"
        elif k % 41 == 7:
            path = f"/tools/{400 + k}"
        elif k == 333:
            path = "/export"
        elif k % 10 == 0:
            path = "/health"
        else:
            path = f"/tools/{k % 119 + 1}"
        fetch(path)


threads = [threading.Thread(target=tablet, args=(n,)) for n in range(4)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print("load done:", ", ".join(f"{status}={count}" for status, count in sorted(COUNTS.items())))
