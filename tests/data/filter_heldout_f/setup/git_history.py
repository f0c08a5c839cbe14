"""Builds the git samples' repos in the current folder: harbor, a history by four people, a merged feature branch, a
hotfix branch, a branch that conflicts with main, a stash, a tag, and a regression for bisect to find; and copies of
it (harbor-merge, harbor-pick, harbor-bisect) for the commands that change state."""

import os
import shutil
import subprocess
import textwrap
from pathlib import Path

TIDES_V1 = '''
"""Harbour tide notes: thresholds and helpers."""

FLOOD_THRESHOLD_CM = 420
WARN_THRESHOLD_CM = 380


def level(height_cm):
    if height_cm >= FLOOD_THRESHOLD_CM:
        return "flood"
    if height_cm >= WARN_THRESHOLD_CM:
        return "warn"
    return "normal"


def high_water(heights):
    return max(heights)
'''
repo = Path("harbor")
repo.mkdir()
people = [("Oona Vetter", "oona@example.org"), ("Rafael Quintero", "rafa@example.org"),
          ("Signe Aalto", "signe@example.org"), ("Duc Pham", "duc@example.org")]  # fmt: skip
day = [0]


def run(cwd, *cmd, env=None):
    subprocess.run(cmd, cwd=cwd, env=env or os.environ, check=True, capture_output=True)


def write(files):
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(textwrap.dedent(text).lstrip("\n"))


def git(*args, who=0):
    name, email = people[who]
    stamp = f"2026-10-{day[0]:02d}T09:{day[0]:02d}:00+02:00"
    env = {**os.environ, "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email, "GIT_COMMITTER_NAME": name,
           "GIT_COMMITTER_EMAIL": email, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}  # fmt: skip
    run(repo, "git", *args, env=env)


def commit(message, who, files):
    day[0] += 1
    write(files)
    git("add", "-A", who=who)
    git("commit", "-q", "-m", message, who=who)


tides = TIDES_V1
git("init", "-q", "-b", "main")
commit(
    "Start harbour notes: tide thresholds",
    0,
    {"tides.py": tides, "README.md": "# harbor-notes\n\nTide thresholds for the harbour office.\n"},
)
commit("Add config for the pier sensors", 1, {"config.toml": '[pier]\nsensor = "BP-3"\nunits = "cm"\npoll_s = 60\n'})
git("tag", "v0.1")
commit(
    "check.sh: smoke test for bisect",
    0,
    {"check.sh": "#!/bin/sh\npython3 -c 'import tides; assert tides.high_water([410, 120, 95]) == 410' \n"},
)
git("checkout", "-q", "-b", "feature/alerts")
commit(
    "alerts: notify the harbour master above the warn level",
    2,
    {"alerts.py": 'from tides import level\n\n\ndef should_alert(height_cm):\n    return level(height_cm) != "normal"\n'},
)
commit(
    "alerts: include the level in the message",
    2,
    {
        "alerts.py": 'from tides import level\n\n\ndef should_alert(height_cm):\n    return level(height_cm) != "normal"\n\n\ndef message(height_cm):\n    return f"water at {height_cm} cm: {level(height_cm)}"\n'
    },
)
git("checkout", "-q", "main")
tides = tides.replace("WARN_THRESHOLD_CM = 380", "WARN_THRESHOLD_CM = 390  # raised after the 2026 survey")
commit("Raise the warn threshold after the survey", 3, {"tides.py": tides})
day[0] += 1
git("merge", "-q", "--no-ff", "-m", "Merge branch 'feature/alerts'", "feature/alerts", who=1)
commit(
    "README: describe the alert levels",
    1,
    {
        "README.md": "# harbor-notes\n\nTide thresholds for the harbour office.\n\nLevels: normal, warn (>= 390 cm), flood (>= 420 cm).\n"
    },
)
tides = tides.replace(
    "    return max(heights)",
    "    # ignore the first reading: the gauge settles after a restart\n    return max(heights[1:2])",
)
commit("high_water: skip the settling reading", 3, {"tides.py": tides})
commit("config: poll every 30 s", 2, {"config.toml": '[pier]\nsensor = "BP-3"\nunits = "cm"\npoll_s = 30\n'})
git("checkout", "-q", "-b", "hotfix/rounding", "v0.1")
commit(
    "Round heights to whole centimetres",
    1,
    {
        "tides.py": TIDES_V1.replace(
            "def high_water(heights):",
            "def rounded(height):\n    return int(round(height))\n\n\ndef high_water(heights):",
        )
    },
)
git("checkout", "-q", "main")
git("checkout", "-q", "-b", "feature/units", "HEAD~1")
commit("config: report in metres", 0, {"config.toml": '[pier]\nsensor = "BP-3"\nunits = "m"\npoll_s = 60\nscale = 0.01\n'})
git("checkout", "-q", "main")
write({"alerts.py": (repo / "alerts.py").read_text() + "\n\ndef quiet_hours():\n    return range(0, 6)\n"})
git("stash", "push", "-q", "-m", "wip: quiet hours for alerts")
write(
    {
        "config.toml": '[pier]\nsensor = "BP-3"\nunits = "cm"\npoll_s = 30\nretries = 3\n',
        "notes/storm-2026-11.md": "# storm log\n",
    }
)
for copy in ("harbor-merge", "harbor-pick", "harbor-bisect"):
    shutil.copytree(repo, copy)
    run(copy, "git", "checkout", "-q", "--", ".")
    run(copy, "git", "clean", "-q", "-fd")
