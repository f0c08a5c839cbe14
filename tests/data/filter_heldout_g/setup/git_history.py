"""Builds the git samples' repos in the current folder: choir, a choir's repo by three people (setlist, rehearsal
planner, a tag, a branch that conflicts with main), and a copy of it, choir-rebase, for the rebase."""

import os
import shutil
import subprocess
import textwrap
from pathlib import Path

SETLIST_V1 = """
# Winter concert 2026 - setlist
# title | composer | voices | minutes
In the Bleak Midwinter | Holst | SATB | 4
Ubi Caritas | Durufle | SATB | 2
The Lamb | Tavener | SATB | 4
Sure on This Shining Night | Barber | SATB | 3
Lux Aurumque | Whitacre | SSAATTBB | 4
Ave Maria | Biebl | TTBB | 6
"""
REHEARSE_V1 = '''
"""Rehearsal planner: split the setlist into evening slots."""

SLOT_MINUTES = 25


def load(path):
    pieces = []
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        title, composer, voices, minutes = [p.strip() for p in line.split("|")]
        pieces.append({"title": title, "composer": composer, "voices": voices, "minutes": int(minutes)})
    return pieces


def slots(pieces, slot=SLOT_MINUTES):
    plan, current, used = [], [], 0
    for piece in pieces:
        need = piece["minutes"] * 3
        if used + need > slot and current:
            plan.append(current)
            current, used = [], 0
        current.append(piece["title"])
        used += need
    if current:
        plan.append(current)
    return plan


if __name__ == "__main__":
    for i, s in enumerate(slots(load("setlist.txt")), 1):
        print(f"slot {i}: {', '.join(s)}")
'''
repo = Path("choir")
repo.mkdir()
people = [("Maren Holloway", "maren@example.org"), ("Tobias Lind", "tobias@example.org"),
          ("Ines Carvalho", "ines@example.org")]  # fmt: skip
day = [0]


def git(*args, who=0):
    name, email = people[who]
    stamp = f"2026-09-{day[0]:02d}T19:{day[0]:02d}:00+01:00"
    env = {**os.environ, "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email, "GIT_COMMITTER_NAME": name,
           "GIT_COMMITTER_EMAIL": email, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}  # fmt: skip
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def commit(message, who, files):
    day[0] += 1
    for name, text in files.items():
        (repo / name).write_text(textwrap.dedent(text).lstrip("\n"))
    git("add", "-A", who=who)
    git("commit", "-q", "-m", message, who=who)


setlist, rehearse = SETLIST_V1, REHEARSE_V1
git("init", "-q", "-b", "main")
commit("Winter concert: first setlist", 0, {"setlist.txt": setlist, "README.md": "# choir\n\nSetlists and rehearsal plans.\n"})
commit("Rehearsal planner", 1, {"rehearse.py": rehearse})
commit("roster: voices for the winter concert", 2,
       {"roster.csv": "name,voice\nAsha,S1\nBeatrix,S2\nCarmen,A1\nDilys,A2\nEmrys,T1\nFinn,T2\nGideon,B1\nHal,B2\n"})  # fmt: skip
git("tag", "-a", "v1.0", "-m", "setlist sent to the venue")
setlist = setlist.replace("Ave Maria | Biebl | TTBB | 6", "Ave Maria | Biebl | TTBB | 7")
commit("Biebl runs seven minutes with the repeat", 2, {"setlist.txt": setlist})
rehearse = rehearse.replace("SLOT_MINUTES = 25", "SLOT_MINUTES = 30  # longer slots since October")
commit("Longer rehearsal slots", 1, {"rehearse.py": rehearse})
rehearse = rehearse.replace(
    '        need = piece["minutes"] * 3\n',
    '        need = piece["minutes"] * 3\n        if piece["voices"] != "SATB":\n            need += 5  # sectionals first\n',
)
commit("planner: time for sectionals before divisi pieces", 0, {"rehearse.py": rehearse})
git("checkout", "-q", "-b", "feature/encore")
enc = setlist.replace(
    "Ave Maria | Biebl | TTBB | 7\n", "Ave Maria | Biebl | TTBB | 7\nNorthern Lights | Gjeilo | SATB | 5\n"
)
commit("Encore: Northern Lights", 1, {"setlist.txt": enc})
enc = enc.replace("The Lamb | Tavener | SATB | 4\n", "")
commit("Drop The Lamb to make room for the encore", 1, {"setlist.txt": enc})
git("checkout", "-q", "main")
setlist = setlist.replace(
    "Ave Maria | Biebl | TTBB | 7\n", "Ave Maria | Biebl | TTBB | 7\nSeal Lullaby | Whitacre | SATB | 4\n"
)
setlist = setlist.replace("The Lamb | Tavener | SATB | 4", "The Lamb | Tavener | SATB | 3")
commit("Close with Seal Lullaby; The Lamb at the faster tempo", 2, {"setlist.txt": setlist})
commit("README: how to run the planner", 0,
       {"README.md": "# choir\n\nSetlists and rehearsal plans.\n\n    python rehearse.py\n\nprints the evening slots.\n"})  # fmt: skip
shutil.copytree(repo, "choir-rebase")
