"""Files that other tools run when the person uses them: the agent may write them (that is often the task), and the
person is told each time it does.

A sandboxed command can write ``conftest.py`` or a ``Makefile``; nothing runs it then. It runs at the person's next
``pytest`` or ``make``, outside every sandbox. Blocking such writes would block ordinary work (an agent asked to
add a test writes ``conftest.py``), so nothing is blocked: after a run, the transcript, ``%zeph status`` and the
audit row (``runs_on_use``) name each such file the run created or changed, with what runs it and the diff.
"""

from __future__ import annotations

import json
import os
import re

__all__ = ["runs_on_use"]

# File name -> what runs it.
_BY_NAME: dict[str, str] = {
    "conftest.py": "pytest imports it",
    "Makefile": "make runs its recipes",
    "makefile": "make runs its recipes",
    "GNUmakefile": "make runs its recipes",
    "Justfile": "just runs its recipes",
    "justfile": "just runs its recipes",
    "Taskfile.yml": "task runs it",
    ".envrc": "direnv runs it when you enter the folder",
    ".pre-commit-config.yaml": "pre-commit runs its hooks at git commit",
    "sitecustomize.py": "Python runs it at start when the folder is on the path",
    "usercustomize.py": "Python runs it at start when the folder is on the path",
    "setup.py": "pip install and builds run it",
    "noxfile.py": "nox runs it",
    "tox.ini": "tox runs its commands",
    "pyproject.toml": "pip install runs its build backend and hooks",
    "setup.cfg": "pip install and pytest read it",
    "pytest.ini": "pytest reads its options (plugins, addopts)",
    "package.json": "npm runs its scripts (install, test …)",
    ".npmrc": "npm reads it (scripts, registries)",
    ".bashrc": "bash runs it", ".bash_profile": "bash runs it", ".profile": "login shells run it",
    ".zshrc": "zsh runs it", ".zprofile": "zsh runs it", ".bash_login": "bash runs it",
    ".pythonrc.py": "Python runs it at start when PYTHONSTARTUP names it",
    ".pdbrc": "the debugger (%debug, pdb) runs its lines as Python in the kernel",
    "matplotlibrc": "matplotlib reads it (it can name programs to run, e.g. animation.ffmpeg_path)",
    ".gdbinit": "gdb runs it", ".lldbinit": "lldb runs it",
    "ipython_config.py": "IPython runs it when this folder is its profile or config folder",
    "ipython_kernel_config.py": "IPython kernels run it when this folder is their profile or config folder",
    "jupyter_server_config.py": "Jupyter runs it when started with this folder's config",
    "jupyter_lab_config.py": "Jupyter runs it when started with this folder's config",
    "jupyter_notebook_config.py": "Jupyter runs it when started with this folder's config",
}  # fmt: skip
# Paths (relative, with /) -> what runs them.
_BY_PATH: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"(^|/)\.vscode/(tasks|launch|settings)\.json$"), "VS Code runs or obeys it"),
    (re.compile(r"(^|/)\.idea/(workspace|runConfigurations/.*)\.xml$"), "PyCharm runs it"),
    (re.compile(r"(^|/)\.github/workflows/[^/]+\.ya?ml$"), "GitHub Actions runs it on push"),
    (re.compile(r"(^|/)\.gitlab-ci\.yml$"), "GitLab CI runs it on push"),
    (re.compile(r"(^|/)\.git/hooks/[^/]+$"), "git runs it"),
    (re.compile(r"\.pth$"), "Python runs its import lines at start when it lies in a site-packages folder"),
    (re.compile(r"(^|/)\.?ipython/profile_[^/]+/startup/[^/]+\.(py|ipy)$"), "IPython runs it at start"),
    (re.compile(r"(^|/)profile_[^/]+/ipython_(kernel_)?config\.py$"), "IPython runs it at start"),
]
_ACTIVE_OUTPUT = ("text/html", "application/javascript", "text/javascript", "image/svg+xml")
NOTEBOOK_BYTES = 32 * 1024 * 1024  # a larger notebook is named without looking at its outputs


def runs_on_use(path: str, root: str) -> str | None:
    """What runs the file at ``path`` (under ``root``) when the person uses it, or None."""
    relative = os.path.relpath(path, root).replace(os.sep, "/")
    name = os.path.basename(path)
    if name in _BY_NAME:
        return _BY_NAME[name]
    for pattern, why in _BY_PATH:
        if pattern.search(relative):
            return why
    if name.endswith(".ipynb"):
        return _notebook(path)
    return None


def _notebook(path: str) -> str | None:
    """A notebook whose outputs hold HTML, SVG or JavaScript: shown in the browser when it is opened."""
    try:
        if os.path.getsize(path) > NOTEBOOK_BYTES:
            return "Jupyter shows its outputs when opened (too large to look inside)"
        with open(path, encoding="utf-8") as handle:
            cells = json.load(handle).get("cells", [])
    except (OSError, ValueError, AttributeError):
        return None
    for cell in cells if isinstance(cells, list) else []:
        outputs = cell.get("outputs", []) if isinstance(cell, dict) else []
        for output in outputs if isinstance(outputs, list) else []:
            data = output.get("data", {}) if isinstance(output, dict) else {}
            if isinstance(data, dict) and any(kind in data for kind in _ACTIVE_OUTPUT):
                return "Jupyter shows its HTML/JavaScript outputs when opened"
    return None
