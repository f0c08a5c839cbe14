"""The shed's background jobs on celery with a redis broker: reminders, stock counts, a label render."""

import os
import time

from celery import Celery

app = Celery("shed", broker=os.environ["SHED_BROKER"], backend=os.environ["SHED_BROKER"])
app.conf.update(task_time_limit=3, worker_prefetch_multiplier=1, broker_connection_retry_on_startup=True)

MEMBERS = {i: f"member{i}@example.org" for i in range(1, 60)}


@app.task(bind=True, autoretry_for=(ConnectionRefusedError,), retry_backoff=False, default_retry_delay=0.2,
          max_retries=2)
def remind(self, member: int) -> str:
    address = MEMBERS[member]  # a member deleted since the loan: KeyError
    if member % 17 == 0:
        raise ConnectionRefusedError(f"SMTP relay refused {address}")
    time.sleep(0.01)
    return f"reminded {address}"


@app.task
def count_stock(shelf: int) -> int:
    return sum(range(shelf * 10))


@app.task
def render_labels(batch: int) -> str:
    time.sleep(6 if batch == 3 else 0.05)  # batch 3 hangs on the printer driver: the hard time limit kills it
    return f"batch {batch} rendered"
