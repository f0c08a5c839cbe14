import subprocess
import sys
import time

queues = ["emails", "emails", "thumbnails", "thumbnails", "thumbnails", "exports", "billing", "webhooks"]
children = [subprocess.Popen([sys.executable, "queue_worker.py", "--queue", q, "--concurrency", "2"]) for q in queues]
time.sleep(120)
