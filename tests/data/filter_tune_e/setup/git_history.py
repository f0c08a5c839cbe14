"""Builds the git samples' repos in the current folder: fieldnotes, a tide-table app with ten commits by four people,
a hotfix branch, a tag, an origin it tracks, a stash, staged and untracked changes; and two clones of it (pick,
bisect) for the cherry-pick and the bisect."""

import os
import subprocess
import textwrap
from pathlib import Path

PEOPLE = [("Priya Raman", "priya@example.org"), ("Jonas Berg", "jonas@example.org"),
          ("Aiko Tanaka", "aiko@example.org"), ("Luis Ortega", "luis@example.org")]  # fmt: skip
TIDES_V1 = '''
"""Tide table helpers for the field-notes app."""


def feet_to_m(feet):
    return feet * 0.3048


def high_tides(readings):
    """Readings are (time, height_m); a high tide is a local maximum."""
    out = []
    for prev, cur, nxt in zip(readings, readings[1:], readings[2:]):
        if cur[1] > prev[1] and cur[1] >= nxt[1]:
            out.append(cur)
    return out
'''
CHECK_PY = '''
import sys
sys.path.insert(0, "src")
from tides import feet_to_m

value = feet_to_m(10)
print(f"feet_to_m(10) = {value}")
sys.exit(0 if abs(value - 3.048) < 1e-9 else 1)
'''
repo = Path("fieldnotes")
repo.mkdir()


def run(cwd, *cmd, env=None):
    subprocess.run(cmd, cwd=cwd, env=env or os.environ, check=True, capture_output=True)


def write(files):
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(textwrap.dedent(text).lstrip("\n"))


def commit(message, who, day, files):
    write(files)
    name, email = PEOPLE[who]
    stamp = f"2026-10-{day:02d}T09:{day:02d}:00+02:00"
    env = {**os.environ, "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email, "GIT_COMMITTER_NAME": name,
           "GIT_COMMITTER_EMAIL": email, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}  # fmt: skip
    run(repo, "git", "add", "-A", env=env)
    run(repo, "git", "commit", "-q", "-m", message, env=env)


run(repo, "git", "init", "-q", "-b", "main")
readme = "# fieldnotes\n\nTide tables and observations for the coastal survey.\n"
usage = "\n## Usage\n\n    python src/cli.py STATION\n\nHeights are printed in feet.\n"
commit("Initial tide helpers", 0, 1, {"src/tides.py": TIDES_V1, "README.md": readme, "check.py": CHECK_PY})
run(repo, "git", "tag", "v0.1")
commit("Add README usage section", 1, 3, {"README.md": readme + usage})
run(repo, "git", "branch", "hotfix/readme-units")
tides = (
    TIDES_V1
    + '\n\ndef low_tides(readings):\n    """A low tide is a local minimum."""\n    return [c for p, c, n in zip(readings, readings[1:], readings[2:]) if c[1] < p[1] and c[1] <= n[1]]\n'
)
commit("Add low_tides", 2, 5, {"src/tides.py": tides})
stations = "station,lat,lon\nHelgoland,54.18,7.89\nWilhelmshaven,53.51,8.15\nHusum,54.47,9.03\n"
commit("notes: add station list", 3, 7, {"stations.csv": stations})
tides = tides.replace("for prev, cur, nxt in zip", "for before, cur, after in zip").replace(
    "cur[1] > prev[1] and cur[1] >= nxt[1]", "cur[1] > before[1] and cur[1] >= after[1]")  # fmt: skip
commit("Rename high_tides loop variables", 0, 9, {"src/tides.py": tides})
tides = tides.replace("return feet * 0.3048", "return round(feet * 0.3047, 4)  # survey foot")
commit("Use the survey foot for conversions", 1, 12, {"src/tides.py": tides})
cli = 'import sys\n\nfrom tides import feet_to_m\n\n\ndef main():\n    station = sys.argv[1]\n    print(station, feet_to_m(12.5))\n\n\nif __name__ == "__main__":\n    main()\n'
commit("Add CLI entry point", 2, 14, {"src/cli.py": cli})
commit("README: document the CLI", 3, 16, {"README.md": readme + usage.replace("in feet.", "in metres (survey foot).")})
tides = tides.replace(
    "def high_tides(readings):", "# TODO: accept datetime objects, not strings\ndef high_tides(readings):"
)
cli = cli.replace(
    "    station = sys.argv[1]", "    # TODO: validate station against stations.csv\n    station = sys.argv[1]"
)
commit("TODO markers for the next sprint", 0, 19, {"src/tides.py": tides, "src/cli.py": cli})
commit(
    "stations: add Bremerhaven and Cuxhaven",
    1,
    21,
    {"stations.csv": stations + "Bremerhaven,53.54,8.58\nCuxhaven,53.87,8.70\n"},
)
run(repo, "git", "checkout", "-q", "hotfix/readme-units")
commit("README: heights are in metres", 1, 22, {"README.md": readme + usage.replace("in feet.", "in metres.")})
run(repo, "git", "checkout", "-q", "main")
# an origin it tracks, one commit behind
run(".", "git", "clone", "-q", "--bare", str(repo.resolve()), "origin.git")
run(repo, "git", "remote", "add", "origin", str(Path("origin.git").resolve()))
run(repo, "git", "fetch", "-q", "origin")
run(repo, "git", "branch", "-q", "-u", "origin/main", "main")
commit(
    "stations: add Büsum",
    2,
    24,
    {"stations.csv": stations + "Bremerhaven,53.54,8.58\nCuxhaven,53.87,8.70\nBüsum,54.13,8.86\n"},
)
run(repo, "git", "checkout", "-q", "-b", "feature/plots")
commit("Plot stub", 3, 25, {"src/plot.py": "def plot(readings):\n    raise NotImplementedError\n"})
run(repo, "git", "checkout", "-q", "main")
# the clones for cherry-pick and bisect (made before the work tree gets dirty)
run(".", "git", "clone", "-q", str(repo.resolve()), "pick")
run(".", "git", "clone", "-q", str(repo.resolve()), "bisect")
# a stash, then staged and untracked changes
(repo / "src" / "tides.py").write_text(tides.replace("return round(feet * 0.3047, 4)", "return round(feet * 0.3048, 3)"))
run(repo, "git", "stash", "push", "-q", "-m", "WIP: metric rounding")
write({"stations.csv": stations + "Bremerhaven,53.54,8.58\nCuxhaven,53.87,8.70\nBüsum,54.13,8.86\nNorddeich,53.62,7.16\n",
       "src/tides.py": tides.replace("    out = []\n", "    out = []\n    if len(readings) < 3:\n        return out\n")})  # fmt: skip
run(repo, "git", "add", "stations.csv", "src/tides.py")
write({"notes/2026-11-02.md": "Helgoland gauge offline 06:00-09:00.\n"})
