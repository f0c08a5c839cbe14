"""Prints what `journalctl -u orders-worker --since today --no-pager` shows (systemd is not running on the
recording machine): a worker that runs fine, is OOM-killed once, restarts, and later fails a health check."""
import random
import sys
from datetime import datetime, timedelta

rng = random.Random(8)
t = datetime(2026, 11, 26, 0, 0, 1)
host = "app-02"
pid = 2417


def line(unit, text, p=None):
    global t
    t += timedelta(seconds=rng.randint(5, 70), microseconds=rng.randint(0, 999999))
    tag = f"{unit}[{p}]" if p else unit
    print(f"{t.strftime('%b %d %H:%M:%S')} {host} {tag}: {text}")


print("-- Logs begin at Mon 2026-11-23 06:12:40 UTC, end at Thu 2026-11-26 11:47:13 UTC. --")
for i in range(560):
    if i == 230:
        line("kernel", "orders-worker invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, oom_score_adj=0")
        line("kernel", f"Out of memory: Killed process {pid} (python3) total-vm:4318220kB, anon-rss:3876544kB, file-rss:0kB, shmem-rss:0kB, UID:998 pgtables:7820kB oom_score_adj:0")
        line("systemd[1]", "orders-worker.service: Main process exited, code=killed, status=9/KILL")
        line("systemd[1]", "orders-worker.service: Failed with result 'oom-kill'.")
        line("systemd[1]", "orders-worker.service: Consumed 2h 3min 11.402s CPU time.")
        line("systemd[1]", "orders-worker.service: Scheduled restart job, restart counter is at 1.")
        line("systemd[1]", "Stopped Orders queue worker.")
        line("systemd[1]", "Started Orders queue worker.")
        pid = 31877
        line("orders-worker", "worker starting, concurrency=4, prefetch=16", pid)
        continue
    if i == 471:
        line("orders-worker", "WARNING health check /healthz took 4.8s (limit 5s)", pid)
        line("orders-worker", "ERROR health check failed: redis://cache:6379/0 timed out after 5.0s", pid)
        line("orders-worker", "ERROR giving up on batch 88120 after 3 retries: redis.exceptions.TimeoutError: Timeout reading from socket", pid)
        continue
    if i % 97 == 50:
        line("CRON", "pam_unix(cron:session): session opened for user root(uid=0) by (uid=0)", rng.randint(3000, 9000))
        continue
    q = rng.choice(["orders", "orders", "refunds", "emails"])
    line("orders-worker", f"INFO processed batch {88000 + i} from queue={q} items={rng.randint(1, 64)} in {rng.randint(40, 900)}ms", pid)
sys.exit(0)
