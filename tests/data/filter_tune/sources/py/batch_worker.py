import argparse
import logging
import random
import threading

parser = argparse.ArgumentParser()
parser.add_argument("--batches", type=int, default=100)
args = parser.parse_args()
logging.basicConfig(level=logging.INFO, format="%(asctime)s [%(threadName)s] %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("jobs")
rng = random.Random(3)
lock = threading.Lock()
failed = []


def load(batch):
    if batch == 733:
        rows = {"id": 1, "amount": "12,50"}
        return float(rows["amount"])
    return rng.randint(200, 900)


def work(worker, batches):
    for batch in batches:
        try:
            rows = load(batch)
        except ValueError:
            log.exception("batch %d failed while parsing amounts", batch)
            with lock:
                failed.append(batch)
            continue
        if batch % 211 == 0:
            log.warning("batch %d: upstream returned 503, retry 1/3 in 2.0s", batch)
        log.info("processed batch %d (%d rows) in %.2fs", batch, rows, rng.random())


log.info("starting 4 workers for %d batches", args.batches)
threads = [threading.Thread(target=work, args=(n, range(n + 1, args.batches + 1, 4)), name=f"worker-{n}") for n in range(4)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
log.info("done: %d batches, %d failed (%s)", args.batches, len(failed), ", ".join(map(str, failed)))
