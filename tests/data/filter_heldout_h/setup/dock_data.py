"""Writes the dockside project's ride exports (data/rides/day-001.csv … day-365.csv, day 4 with three start docks
missing), a backup interrupted half way (backups/rides-2026-10.tgz) and a zip of six exports with one member's
bytes damaged (exports.zip), in the current folder."""

import random
import subprocess
from pathlib import Path


def rides_csv(day):
    rng = random.Random(day)
    lines = ["ride_id,bike,start_sid,end_sid,minutes,member"]
    for i in range(rng.randint(30, 140)):
        lines.append(
            f"D{day:03d}-{i:04d},B{rng.randint(1, 400)},S{rng.randint(1, 40):02d},S{rng.randint(1, 40):02d},"
            f"{rng.randint(2, 75)},{rng.choice(['annual', 'annual', 'monthly', 'payg'])}"
        )
    return "\n".join(lines) + "\n"


rides = Path("data/rides")
rides.mkdir(parents=True)
for day in range(1, 366):
    (rides / f"day-{day:03d}.csv").write_text(rides_csv(day))
(rides / "day-004.csv").write_text(rides_csv(4).replace(",S17,", ",,", 3))
Path("backups").mkdir()
subprocess.run(["tar", "-czf", "backups/full.tgz", "data/rides"], check=True)
full = Path("backups/full.tgz").read_bytes()
Path("backups/rides-2026-10.tgz").write_bytes(full[: len(full) // 2])
Path("backups/full.tgz").unlink()
subprocess.run(["zip", "-q", "exports.zip", *[f"data/rides/day-{d:03d}.csv" for d in range(300, 306)]], check=True)
blob = bytearray(Path("exports.zip").read_bytes())
start = blob.find(b"day-303.csv") + 200
blob[start : start + 40] = bytes(40)
Path("exports.zip").write_bytes(bytes(blob))
