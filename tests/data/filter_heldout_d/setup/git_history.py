"""Builds the git samples' repos in the current folder: mdtool, a history by four people over markdown_it's sources
(copied from the site-packages folder given as the argument) with a dirty work tree, and cfg, a feature branch that
conflicts with main on rebase."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

site = Path(sys.argv[1])
repo = Path("mdtool")
repo.mkdir()


def run(cwd, *cmd, env=None):
    subprocess.run(cmd, cwd=cwd, env=env or os.environ, check=True, capture_output=True)


run(repo, "git", "init", "-q", "-b", "main")
shutil.copytree(site / "markdown_it", repo / "src" / "markdown_it", ignore=shutil.ignore_patterns("__pycache__"))
(repo / "README.md").write_text("# mdtool\n\nMarkdown rendering service.\n")
(repo / "pyproject.toml").write_text('[project]\nname = "mdtool"\nversion = "0.1.0"\n')
people = [("Mara Lind", "mara@example.com"), ("Tomasz Nowak", "tomasz@example.com"),
          ("Ines Duarte", "ines@example.com"), ("Kwame Mensah", "kwame@example.com")]  # fmt: skip


def commit(message, who, day):
    name, email = people[who]
    stamp = f"2026-11-{day:02d}T10:{day:02d}:00+01:00"
    env = {**os.environ, "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email, "GIT_COMMITTER_NAME": name,
           "GIT_COMMITTER_EMAIL": email, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}  # fmt: skip
    run(repo, "git", "add", "-A", env=env)
    run(repo, "git", "commit", "-q", "-m", message, env=env)


src = repo / "src" / "markdown_it"


def edit(rel, old, new):
    path = src / rel
    text = path.read_text()
    assert old in text, (rel, old)
    path.write_text(text.replace(old, new, 1))


commit("Import markdown_it as the rendering core", 0, 2)
edit("ruler.py", "class Ruler(Generic[RuleFuncTv]):",
     "class Ruler(Generic[RuleFuncTv]):\n    # rules are looked up by name on every render; keep the cache small\n")
commit("ruler: note on cache size", 1, 4)
edit("ruler.py", "def __init__(self) -> None:", "def __init__(self) -> None:\n        self._lookups = 0")
edit("main.py", "def render(", "def render(  # noqa: D102\n")
commit("Count rule lookups for the /metrics endpoint", 2, 6)
edit("ruler.py", "    def __find__(self, name: str) -> int:",
     "    def __find__(self, name: str) -> int:\n        self._lookups += 1")
(repo / "src" / "mdtool_service.py").write_text(
    "from markdown_it import MarkdownIt\n\nmd = MarkdownIt('commonmark')\n\n\n"
    "def render(text: str) -> str:\n    return md.render(text)\n"
)
commit("Add the service entry point", 0, 9)
edit("utils.py", "from __future__ import annotations",
     "from __future__ import annotations\n\nimport logging\n\nlog = logging.getLogger(__name__)")
commit("utils: module logger", 3, 11)
edit("renderer.py", '        result = ""', '        result = ""  # built up piecewise; joined once at the end would be faster')
edit("ruler.py", "# rules are looked up by name on every render; keep the cache small",
     "# rules are looked up by name on every render; the cache is rebuilt lazily")
commit("Clarify comments in renderer and ruler", 1, 14)
(src / "presets" / "zero.py").unlink()
edit("presets/__init__.py", "from . import commonmark, default, zero", "from . import commonmark, default")
edit("presets/__init__.py", "js_default = default",
     "js_default = default\nzero = commonmark  # zero preset removed; alias kept for callers")
commit("Drop the zero preset (unused by the service)", 2, 17)
(repo / "src" / "mdtool_service.py").write_text(
    "import logging\n\nfrom markdown_it import MarkdownIt\n\nlog = logging.getLogger('mdtool')\n"
    "md = MarkdownIt('commonmark', {'html': False})\n\n\ndef render(text: str) -> str:\n"
    "    log.debug('render %d chars', len(text))\n    return md.render(text)\n"
)
commit("Service: disable raw HTML, log render sizes", 3, 20)
edit("ruler.py", "        self._lookups = 0", "        self._lookups = 0\n        self._misses = 0")
commit("ruler: count cache misses too", 0, 23)
# the work tree before a commit: edits, a staged rename, deletions, new untracked files
edit("parser_block.py", "from __future__ import annotations",
     "from __future__ import annotations\n# TODO: table plugin hook")
edit("parser_inline.py", "from __future__ import annotations",
     "from __future__ import annotations\n# TODO: strikethrough hook")
for rel in ("token.py", "tree.py", "helpers/parse_link_label.py", "rules_block/table.py", "rules_inline/emphasis.py"):
    (src / rel).write_text((src / rel).read_text() + "\n# reviewed 2026-11-25\n")
run(repo, "git", "mv", "src/markdown_it/cli/parse.py", "src/markdown_it/cli/main.py")
(src / "port.yaml").unlink()
(src / "rules_core" / "smartquotes.py").unlink()
for rel in ("tests/test_service.py", "tests/test_ruler.py", "tests/conftest.py", "tests/fixtures/basic.md",
            "tests/fixtures/tables.md", "tests/fixtures/links.md", "docs/index.md", "docs/api.md", "docs/deploy.md",
            "scripts/bench.py", "scripts/release.sh", ".env.example", "Dockerfile", "notes/ideas.txt"):  # fmt: skip
    (repo / rel).parent.mkdir(parents=True, exist_ok=True)
    (repo / rel).write_text(f"# {rel}\n")

cfg = Path("cfg")
cfg.mkdir()
settings = "DEBUG = False\nTIMEOUT_S = {}\nMAX_RETRIES = {}\nALLOWED_HOSTS = ['shop.example.com']\n"
run(cfg, "git", "init", "-q", "-b", "main")
(cfg / "settings.py").write_text(settings.format(30, 3))
(cfg / "README.md").write_text("# settings\n")
run(cfg, "git", "add", ".")
run(cfg, "git", "commit", "-q", "-m", "Initial settings")
run(cfg, "git", "checkout", "-q", "-b", "feature/timeouts")
(cfg / "settings.py").write_text(settings.format(90, 3))
run(cfg, "git", "commit", "-q", "-am", "Raise the timeout for slow payment providers")
(cfg / "README.md").write_text("# settings\n\nTIMEOUT_S is in seconds.\n")
run(cfg, "git", "commit", "-q", "-am", "Document TIMEOUT_S")
run(cfg, "git", "checkout", "-q", "main")
(cfg / "settings.py").write_text(settings.format(15, 5))
run(cfg, "git", "commit", "-q", "-am", "Fail fast and retry more")
run(cfg, "git", "checkout", "-q", "feature/timeouts")
