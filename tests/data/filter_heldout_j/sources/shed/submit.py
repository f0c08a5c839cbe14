"""Queue the night's jobs and wait for them, as the shed's cron does; prints how each ended."""

import collections

from celery.exceptions import TimeLimitExceeded

from tasks import count_stock, remind, render_labels

results = [remind.delay(m) for m in range(1, 70)]
results += [count_stock.delay(s) for s in range(40)]
results += [render_labels.delay(b) for b in range(6)]
ended: collections.Counter[str] = collections.Counter()
for result in results:
    try:
        result.get(timeout=30, propagate=True)
        ended["ok"] += 1
    except TimeLimitExceeded:
        ended["time limit"] += 1
    except Exception as error:  # noqa: BLE001 - the cron counts every way a job ends
        ended[type(error).__name__] += 1
print("jobs:", ", ".join(f"{k}={v}" for k, v in sorted(ended.items())))
