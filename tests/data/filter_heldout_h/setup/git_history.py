"""Builds the git samples' repos in the current folder: fleet-ops, a plan module with a van branch that carries a
cherry-picked fix, a stale patch in patches/, and a dirty work tree; and fleet-ops-am, a clean copy for git am."""

import os
import shutil
import subprocess
import textwrap
from pathlib import Path

README = "# dockside\n\nDocks, bikes and rides of the city fleet.\n"
PLAN_V1 = """
LOW_WATER = 0.2
HIGH_WATER = 0.8
VAN_CAPACITY = 18


def van_trips(surplus: int) -> int:
    return -(-surplus // VAN_CAPACITY)


def needs_bikes(ratio: float) -> bool:
    return ratio < LOW_WATER
"""
repo = Path("fleet-ops")
repo.mkdir()
tick = [0]


def git(*args):
    stamp = f"2026-10-{1 + tick[0]:02d}T08:{tick[0]:02d}:00+00:00"
    env = {**os.environ, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def write(files):
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(textwrap.dedent(text).lstrip("\n"))


def commit(message, files):
    tick[0] += 1
    write(files)
    git("add", "-A")
    git("commit", "-q", "-m", message)


plan = PLAN_V1
git("init", "-q", "-b", "main")
commit("Fleet ops: README", {"README.md": README})
commit("Rebalancing plan thresholds", {"plan.py": plan})
commit("Stations list", {"stations.txt": "S01 Harbour Gate\nS02 Old Market\nS03 Temple Meads\n"})
# a patch written against this plan, mailed in while main moved on
git("checkout", "-q", "-b", "tmp/patch")
commit("plan: vans carry 20 since the new trailers", {"plan.py": plan.replace("VAN_CAPACITY = 18", "VAN_CAPACITY = 20")})
git("format-patch", "-q", "-1", "-o", "../patches")
git("checkout", "-q", "main")
git("branch", "-q", "-D", "tmp/patch")
plan = plan.replace("VAN_CAPACITY = 18", "VAN_CAPACITY = 16  # two vans off the road")
commit("Two vans in the workshop: capacity 16", {"plan.py": plan})
git("checkout", "-q", "-b", "ops/vans")
commit("Van routes for the night shift", {"routes.txt": "V1 S01 S03 S02\nV2 S04 S05\n"})
fix = plan.replace("return ratio < LOW_WATER", "return ratio <= LOW_WATER")
commit("needs_bikes: a dock at the low-water mark needs bikes", {"plan.py": fix})
commit("Night shift starts at 02:00", {"routes.txt": "# night shift from 02:00\nV1 S01 S03 S02\nV2 S04 S05\n"})
git("checkout", "-q", "main")
commit("Stations: Wapping Wharf", {"stations.txt": "S01 Harbour Gate\nS02 Old Market\nS03 Temple Meads\nS04 Wapping Wharf\n"})
commit("needs_bikes: a dock at the low-water mark needs bikes", {"plan.py": fix})
commit("README: how the plan runs", {"README.md": README + "\nThe plan runs at 02:30 from cron.\n"})
shutil.copytree(repo, "fleet-ops-am")  # a clean copy for git am
# the working tree as someone left it: staged, unstaged, renamed, deleted, untracked
write({"plan.py": fix.replace("HIGH_WATER = 0.8", "HIGH_WATER = 0.85")})
write({"README.md": README + "\nThe plan runs at 02:30 from cron, 03:00 on Sundays.\n"})
git("add", "README.md")
git("mv", "stations.txt", "stations.tsv")
write({"notes/van-V2.md": "V2 clutch slipping\n", "plan.py.orig": fix, "scratch.txt": "S06?\n"})
