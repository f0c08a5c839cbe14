"""The nightly job worker: a queue of tasks (label printing, stock sync, reminder mails) run by four threads,
with retries, a beat that enqueues periodic tasks, and the broker's heartbeats. Celery-shaped, no celery."""

import logging
import queue
import random
import threading
import time

logging.basicConfig(level=logging.DEBUG, format="[%(asctime)s: %(levelname)s/%(threadName)s] %(name)s: %(message)s")
log = logging.getLogger("larder.worker")
beat_log = logging.getLogger("larder.beat")
broker_log = logging.getLogger("larder.broker")
rng = random.Random(7)
tasks: "queue.Queue[tuple[str, str, dict, int] | None]" = queue.Queue()
lock = threading.Lock()
stats = {"succeeded": 0, "failed": 0, "retried": 0}


class Retry(Exception):
    pass


def print_labels(batch: int, **_):
    time.sleep(rng.uniform(0.001, 0.01))
    if batch % 17 == 0:
        raise Retry(f"label printer busy (batch {batch})")
    return f"{batch * 3} labels"


def sync_stock(site: str, **_):
    time.sleep(rng.uniform(0.002, 0.015))
    if site == "annex":
        counts = {"rice": 12, "beans": None}
        return sum(counts.values())  # TypeError: the annex's scanner sends null counts
    return f"{rng.randint(80, 140)} rows"


def send_reminder(household: str, **_):
    time.sleep(rng.uniform(0.001, 0.004))
    if household.endswith("7"):
        raise ConnectionRefusedError(111, "Connection refused: smtp relay 10.0.4.2:587")
    return "queued"


HANDLERS = {"larder.print_labels": print_labels, "larder.sync_stock": sync_stock, "larder.send_reminder": send_reminder}


def work():
    while (item := tasks.get()) is not None:
        name, task_id, kwargs, tries = item
        log.info("Task %s[%s] received", name, task_id)
        started = time.perf_counter()
        try:
            result = HANDLERS[name](**kwargs)
        except Retry as exc:
            with lock:
                stats["retried"] += 1
            if tries >= 2:
                log.error("Task %s[%s] raised unexpected: MaxRetriesExceededError(%r)", name, task_id, str(exc))
                with lock:
                    stats["failed"] += 1
            else:
                log.info("Task %s[%s] retry: Retry in %ds: %s", name, task_id, 2 ** tries, exc)
                tasks.put((name, task_id, kwargs, tries + 1))
        except Exception:
            log.exception("Task %s[%s] raised unexpected", name, task_id)
            with lock:
                stats["failed"] += 1
        else:
            log.info("Task %s[%s] succeeded in %.4fs: %r", name, task_id, time.perf_counter() - started, result)
            with lock:
                stats["succeeded"] += 1
        tasks.task_done()


def beat(ticks: int):
    for tick in range(ticks):
        if tick % 10 == 0:
            broker_log.debug("heartbeat tick: sent, pending=%d", tasks.qsize())
        if tick % 15 == 0:
            beat_log.info("Scheduler: Sending due task stock-sync (larder.sync_stock)")
            for site in ("depot", "church-hall", "annex"):
                tasks.put(("larder.sync_stock", f"{tick:04d}-{site}", {"site": site}, 0))
        if tick % 4 == 0:
            tasks.put(("larder.print_labels", f"{tick:04d}-lbl", {"batch": tick}, 0))
        tasks.put(("larder.send_reminder", f"{tick:04d}-rem", {"household": f"H{rng.randint(100, 999)}"}, 0))
        if tick % 33 == 32:
            broker_log.warning("consumer: Connection to broker lost. Trying to re-establish the connection...")
            broker_log.info("Connected to amqp://guest:**@127.0.0.1:5672//")
        time.sleep(0.003)


if __name__ == "__main__":
    broker_log.info("Connected to amqp://guest:**@127.0.0.1:5672//")
    log.info("larder-worker@depot ready. concurrency=4 (thread)")
    threads = [threading.Thread(target=work, name=f"Worker-{n}") for n in range(1, 5)]
    for thread in threads:
        thread.start()
    beat(90)
    tasks.join()
    for _ in threads:
        tasks.put(None)
    for thread in threads:
        thread.join()
    log.info("worker: Warm shutdown (MainProcess): %d succeeded, %d failed, %d retried",
             stats["succeeded"], stats["failed"], stats["retried"])
