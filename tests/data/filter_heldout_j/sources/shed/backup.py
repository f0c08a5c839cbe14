"""The shed's nightly backup: read the config (falling back to defaults), tar the register, send it to the
backup host. Run under strace -f, the backup host down."""

import configparser
import os
import socket
import subprocess
import sys
import time

config = configparser.ConfigParser()
found = config.read([os.path.expanduser("~/.config/shed/backup.ini"), "/etc/shed/backup.ini"])
print(f"config files read: {found or 'none, using defaults'}", flush=True)
port = int(config.get("backup", "port", fallback="18969"))

os.makedirs("out", exist_ok=True)
done = subprocess.run(["tar", "-czf", "out/register.tar.gz", "wsgi.py", "tasks.py", "register.csv"], check=False)
print(f"tar exit {done.returncode}", flush=True)

for attempt in range(1, 4):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
            sock.sendall(open("out/register.tar.gz", "rb").read())
        break
    except ConnectionRefusedError as error:
        print(f"attempt {attempt}: backup host refused: {error}", flush=True)
        time.sleep(0.2)
else:
    print("backup FAILED after 3 attempts", flush=True)
    sys.exit(1)
