"""Which Python environment an installer in a command line writes to, when the line names one.

Environments inside the working directory are read-only in the OS sandbox (``security/tree_scan.py``), like the
kernel's own; an install the person approved gets the environment it names writable for that call
(``containment.command_scope``), so ``.venv/bin/pip install x`` works once approved and a command that only
writes a ``.pth`` there does not.
"""

from __future__ import annotations

import os
from pathlib import Path

from zeph_nb.security.tree_scan import ENVIRONMENT_MARKERS
from zeph_nb.shell import ShellAnalysis, SimpleCommand
from zeph_nb.shell.escalations import escalation_of

__all__ = ["installer_environment"]


# uv commands that sync the project's environment (``.venv`` beside pyproject.toml) before they do anything else.
_UV_PROJECT = frozenset({"sync", "add", "remove", "run", "venv"})
_ENV_OPTIONS = frozenset({"--python", "-p", "--prefix"})  # uv pip --python/-p, conda -p/--prefix, pip --python


def installer_environment(analysis: ShellAnalysis, workdir: Path) -> Path | None:
    """The environment an installer in this command line writes, when the line names one: the environment of the
    installer's own path (``.venv/bin/pip install``, ``env/bin/python -m pip install``), of ``--python``/``-p``/
    ``--prefix``, of an ``activate`` script sourced first, or a uv project's ``.venv``. None: the installer is the
    kernel's (or writes no environment). Environments in the working directory are read-only in the sandbox; an
    approved install gets the one it names writable, as the kernel's own."""
    bases = [workdir, *(Path(os.path.normpath(workdir / cd)) for cd in analysis.cd_dirs)]
    activated: list[str] = []
    for command in analysis.commands:
        if command.name in ("source", ".") and len(command.argv) > 1 and command.argv[1].endswith("/activate"):
            activated.append(command.argv[1])
            continue
        words = [arg for arg in command.argv[1:] if not arg.startswith("-")]
        uv_project = command.name == "uv" and bool(words) and words[0] in _UV_PROJECT
        if escalation_of(command).environment is None and not uv_project:
            continue
        for candidate in [*_named_environments(command), *activated, *([".venv"] if uv_project else [])]:
            for base in bases:
                found = _environment_of(base / os.path.expanduser(candidate))
                if found is not None:
                    return found
    return None


def _named_environments(command: SimpleCommand) -> list[str]:
    named = [command.written] if "/" in command.written else []
    args = list(command.argv[1:])
    for i, arg in enumerate(args):
        option, _, value = arg.partition("=")
        if option in _ENV_OPTIONS:
            named.append(value if value else (args[i + 1] if i + 1 < len(args) else ""))
    return [name for name in named if name]


def _environment_of(path: Path) -> Path | None:
    """The environment ``path`` is in (the nearest folder up holding ``pyvenv.cfg`` or ``conda-meta``), or None."""
    folder = Path(os.path.normpath(path))  # as written: .venv/bin/python is a link to the system's python
    for candidate in (folder, *folder.parents):
        if any(os.path.lexists(candidate / marker) for marker in ENVIRONMENT_MARKERS):
            return Path(os.path.realpath(candidate))
    return None
