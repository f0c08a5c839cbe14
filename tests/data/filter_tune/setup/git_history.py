"""Builds the git samples' repos in the current folder: zeph, a clone of this project (the folder given as the
argument) at the commit that was HEAD~40 when C was recorded, with a work tree edited as one has it before a commit;
and merge, a feature branch that conflicts with main."""

import os
import subprocess
import sys
from pathlib import Path


def run(cwd, *cmd):
    subprocess.run(cmd, cwd=cwd, env=os.environ, check=True, capture_output=True)


run(".", "git", "clone", "-q", "--no-local", sys.argv[1], "zeph")
zeph = Path("zeph")
run(zeph, "git", "checkout", "-q", "-b", "work", "44aacd50555086a712dfbf7399dbd9ffa9b6519a")  # HEAD~40 then
# A working tree with edits and new files, as one has before a commit.
for path in sorted((zeph / "zeph_nb").rglob("*.py"))[:25]:
    path.write_text(path.read_text() + "\n# reviewed\n")
for i in range(12):
    (zeph / "notes" / f"draft-{i:02d}.md").parent.mkdir(exist_ok=True)
    (zeph / "notes" / f"draft-{i:02d}.md").write_text(f"draft {i}\n")
run(".", "git", "init", "-q", "-b", "main", "merge")
merge = Path("merge")
(merge / "config.py").write_text("TIMEOUT = 30\nRETRIES = 3\nURL = 'https://api.example.com'\n")
run(merge, "git", "add", ".")
run(merge, "git", "commit", "-q", "-m", "config")
run(merge, "git", "checkout", "-q", "-b", "feature")
(merge / "config.py").write_text("TIMEOUT = 60\nRETRIES = 3\nURL = 'https://api.example.com'\n")
run(merge, "git", "commit", "-q", "-am", "longer timeout")
run(merge, "git", "checkout", "-q", "main")
(merge / "config.py").write_text("TIMEOUT = 10\nRETRIES = 5\nURL = 'https://api.example.com'\n")
run(merge, "git", "commit", "-q", "-am", "fail fast, retry more")
