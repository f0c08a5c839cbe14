"""Builds the git samples' repo in the current folder: 60 commits over 25 modules, then a work tree with edits, a
few staged new files and 30 untracked ones."""

import os
import random
import subprocess
from pathlib import Path

root = Path(".")


def git(*args):
    subprocess.run(["git", *args], cwd=root, env=os.environ, check=True, capture_output=True)


git("init", "-q", "-b", "main")
git("config", "user.email", "dev@example.com")
git("config", "user.name", "Dev")
rng = random.Random(9)
for i in range(60):
    path = root / "src" / f"module_{i % 25:02d}.py"
    path.parent.mkdir(exist_ok=True)
    lines = [f"def func_{j}(x):\n    return x + {rng.randint(0, 100)}\n" for j in range(30)]
    path.write_text("\n".join(lines))
    git("add", "-A")
    git(
        "commit",
        "-q",
        "-m",
        f"Change module {i % 25} (round {i})\n\nLonger explanation of change {i}.\n\nSigned-off-by: Dev <dev@example.com>",
    )
for i in range(0, 25, 2):
    path = root / "src" / f"module_{i:02d}.py"
    text = path.read_text().splitlines()
    text[rng.randint(0, len(text) - 1)] = "    return None  # changed"
    text[rng.randint(0, len(text) - 1)] = "    return 0  # changed too"
    path.write_text("\n".join(text) + "\n")
for i in range(8):
    (root / "src" / f"new_{i}.py").write_text("x = 1\n")
git("add", "src/new_0.py", "src/new_1.py", "src/module_00.py")
for i in range(30):
    (root / f"scratch_{i}.txt").write_text("tmp\n")
