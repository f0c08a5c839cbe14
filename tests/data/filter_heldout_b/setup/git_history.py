"""Builds the git samples' repos in the current folder: origin, a small API's history with three branches, and
notes-api, its clone with a feature branch and a work tree modified, staged, deleted and full of untracked files."""

import os
import subprocess
from pathlib import Path

origin = Path("origin").resolve()
origin.mkdir()
date = [0]


def git(cwd, *args):
    date[0] += 1
    stamp = f"2026-11-{10 + date[0] // 6:02d}T{9 + date[0] % 6}:15:00+01:00"
    env = {**os.environ, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


git(origin, "init", "-q", "-b", "main")
(origin / "api").mkdir()
(origin / "README.md").write_text("# notes-api\n")
(origin / "api/__init__.py").write_text("")
(origin / "api/notes.py").write_text("def list_notes():\n    return []\n")
git(origin, "add", ".")
git(origin, "commit", "-q", "-m", "Initial commit")
msgs = [
    ("api/notes.py", "Add create_note endpoint"),
    ("api/search.py", "Add full-text search over notes"),
    ("api/auth.py", "Require bearer token on write endpoints"),
    ("tests/test_notes.py", "Test note creation and listing"),
    ("api/search.py", "Fix search ranking for short queries"),
    ("docs/API.md", "Document pagination parameters"),
    ("api/notes.py", "Paginate list_notes (limit/offset)"),
]
for i, (path, msg) in enumerate(msgs):
    p = origin / path
    p.parent.mkdir(parents=True, exist_ok=True)
    old = p.read_text() if p.exists() else ""
    p.write_text(old + "".join(f"def f_{i}_{j}(x):\n    return x + {j}\n\n" for j in range(i + 2)))
    if i == 6:
        (origin / "api/legacy.py").write_text("OLD = True\n")
    git(origin, "add", ".")
    git(origin, "commit", "-q", "-m", msg)
for br in ("feature/tags", "fix/login-redirect", "release/1.4"):
    git(origin, "branch", br)
repo = Path("notes-api")
git(".", "clone", "-q", str(origin), "notes-api")
git(repo, "checkout", "-q", "-b", "feature/export")
(repo / "api/export.py").write_text("def export(fmt='json'):\n    raise NotImplementedError\n")
git(repo, "add", ".")
git(repo, "commit", "-q", "-m", "WIP: export notes as json/csv")
git(repo, "branch", "scratch/perf")
# working tree: modified, staged, deleted and many untracked files
(repo / "api/notes.py").write_text((repo / "api/notes.py").read_text() + "# TODO: cache\n")
(repo / "README.md").write_text("# notes-api\n\nNow with export.\n")
git(repo, "add", "README.md")
(repo / "docs/API.md").unlink()
for i in range(14):
    (repo / f"scratch_{i:02d}.py").write_text("print(1)\n")
for d in ("exports", "notebooks", "tmp/cache"):
    (repo / d).mkdir(parents=True, exist_ok=True)
    (repo / d / "a.txt").write_text("x\n")
for name in ("notes.db", "dump.sql", ".env.local", "profile.out", "api/export_test.py"):
    (repo / name).write_text("x\n")
