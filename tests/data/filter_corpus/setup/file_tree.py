"""Writes a project tree in the current folder with what listings drown in: node_modules, a venv, .git objects,
caches and build output beside a few real folders (some lines with TODO), and 90 files at the top."""

import random
from pathlib import Path

root = Path(".")
rng = random.Random(4)
for d in ["src/app", "src/lib", "tests", "docs", "node_modules/left-pad", "node_modules/lodash/fp", ".git/objects",
          "__pycache__", ".venv/lib/python3.11/site-packages/pkg", "build/lib", ".mypy_cache/3.11"]:  # fmt: skip
    (root / d).mkdir(parents=True, exist_ok=True)
for i in range(400):
    folder = rng.choice(["node_modules/lodash/fp", "node_modules/left-pad", ".venv/lib/python3.11/site-packages/pkg",
                         ".git/objects", "__pycache__", ".mypy_cache/3.11"])  # fmt: skip
    (root / folder / f"f{i}.{rng.choice(['js', 'py', 'pyc', 'json'])}").write_text("x\n" * rng.randint(1, 40))
for i in range(60):
    folder = rng.choice(["src/app", "src/lib", "tests", "docs", "build/lib"])
    text = "\n".join(f"line {j} TODO: tidy" if j % 17 == 0 else f"line {j}" for j in range(rng.randint(5, 80)))
    (root / folder / f"file_{i}.{rng.choice(['py', 'md', 'txt'])}").write_text(text)
for i in range(90):
    (root / f"top_{i:03d}.txt").write_text("top\n")
