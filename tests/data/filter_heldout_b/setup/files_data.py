"""Writes the "files" project's generated data in the current folder: ws/, a workspace of random binary parts for
`du`, and notes-api-1.4.2.tar.gz, a release tarball (its tree left in rel/) for `tar -tvf`."""

import random
import subprocess
from pathlib import Path

rng = random.Random(9)
ws = Path("ws")
sizes = {"data": 3_400_000, "models": 5_200_000, "src": 90_000, "notebooks": 410_000, "logs": 1_300_000,
         "docs": 60_000, "build": 780_000, "dist": 250_000, "scripts": 12_000}  # fmt: skip
for d, size in sizes.items():
    n = rng.randint(2, 6)
    for i in range(n):
        p = ws / d / f"part{i}.bin"
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(rng.randbytes(size // n))
for f, size in {"README.md": 3000, "pyproject.toml": 900, "requirements.txt": 400, "Makefile": 1200}.items():
    (ws / f).write_bytes(b"x" * size)
rel = Path("rel") / "notes-api-1.4.2"
for sub, count in (("api", 9), ("tests", 7), ("docs", 4), ("migrations", 12)):
    for i in range(count):
        p = rel / sub / f"{sub[:-1] if sub.endswith('s') else sub}_{i:02d}.py"
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("x = 1\n" * rng.randint(5, 400))
for f in ("README.md", "LICENSE", "pyproject.toml", "CHANGELOG.md"):
    (rel / f).write_text("text\n" * rng.randint(10, 200))
subprocess.run(["tar", "--owner=dana", "--group=dev", "--mtime=2026-11-20 14:02:00", "--sort=name", "-czf",
                "../notes-api-1.4.2.tar.gz", "notes-api-1.4.2"], cwd="rel", check=True)  # fmt: skip
