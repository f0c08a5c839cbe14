"""The environment a skill's scripts get: ``[skills.env.<name>]`` in the settings and ``set_skill_env`` from Python.

Only the person sets them. No tool can (the model could otherwise give a script a variable such as ``PATH`` or
``LD_PRELOAD`` that changes what runs, or move a secret between skills), and the values never pass through the
model: a bash call gets them only when it runs one of the skill's scripts alone (``bash <script>``,
``python <script>`` or the script's path, nothing else in the line), and what the script prints has them masked.
"""

from __future__ import annotations

import dataclasses
import os
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from zeph_nb.config import Settings
from zeph_nb.config.skills import _ENV_NAME, SKILL_NAME
from zeph_nb.tools.base import ToolOutput

if TYPE_CHECKING:
    pass

__all__ = [
    "RUNNERS",
    "env_changes",
    "mask_output",
    "mask_values",
    "set_skill_env",
    "skill_env",
    "skill_of_script",
    "skills_with_env",
]

_SET: dict[str, dict[str, str]] = {}
_LOCK = threading.Lock()
_CHANGES = [0]  # set_skill_env calls so far: a listing of skills that need secrets is made again after one
# What may start a script so that it gets its skill's variables: an interpreter given the script's path first.
RUNNERS = frozenset({"bash", "sh", "python", "python3"})
# Variables that change what a process loads or runs: a skill's environment may not set them.
_REFUSED = frozenset({"PATH", "LD_PRELOAD", "LD_LIBRARY_PATH", "PYTHONPATH", "PYTHONSTARTUP", "BASH_ENV", "ENV",
                      "PYTHONHOME", "HOME", "IFS", "PS4", "SHELLOPTS", "BASHOPTS"})  # fmt: skip


def set_skill_env(name: str, **variables: str | None) -> None:
    """Give the scripts of skill ``name`` these variables for this kernel (over ``[skills.env.<name>]``); a value
    of None removes one. Only from Python, the person's own cell: no tool calls it."""
    if not SKILL_NAME.match(name):
        raise ValueError(f"{name!r} is not a skill's name (lower-case letters, digits and hyphens)")
    for key, value in variables.items():
        _check(key)
        if value is not None and not isinstance(value, str):
            raise TypeError(f"set_skill_env: {key} must be a string, not {type(value).__name__}")
    with _LOCK:
        _CHANGES[0] += 1
        current = _SET.setdefault(name, {})
        for key, value in variables.items():
            if value is None:
                current.pop(key, None)
            else:
                current[key] = value


def _check(key: str) -> None:
    if not _ENV_NAME.match(key):
        raise ValueError(f"{key!r} cannot be an environment variable's name")
    if key.upper() in _REFUSED or key.upper().startswith(("LD_", "BASH_FUNC_")):
        raise ValueError(f"{key} changes what a process loads or runs; a skill's environment may not set it")


def env_changes() -> int:
    """How many times ``set_skill_env`` was called in this process."""
    with _LOCK:
        return _CHANGES[0]


def skill_env(name: str, settings: Settings) -> dict[str, str]:
    """The variables skill ``name``'s scripts get: the settings' table, then what ``set_skill_env`` set."""
    merged = {k: v for k, v in settings.skills.env.get(name, {}).items() if _allowed(k)}
    with _LOCK:
        merged.update(_SET.get(name, {}))
    return merged


def _allowed(key: str) -> bool:
    try:
        _check(key)
    except ValueError:
        return False
    return True


def skill_of_script(argv: tuple[str, ...], folders: Mapping[str, Path], workdir: Path) -> str | None:
    """The skill whose script ``argv`` runs (its path first, or after one of ``RUNNERS`` with no option before
    it), by the skills' canonical ``folders``; None when it runs anything else."""
    if not argv:
        return None
    script = argv[0]
    if os.path.basename(argv[0]) in RUNNERS:
        if len(argv) < 2 or argv[1].startswith("-"):
            return None
        script = argv[1]
    elif "/" not in script:
        return None  # a bare name is looked up on PATH, not taken from a skill's folder
    literal = os.path.normpath(workdir / os.path.expanduser(script))
    if os.path.islink(literal):
        # A link elsewhere to a skill's script would run it with the secrets, its $0 in a folder the agent writes
        # (a script that sources "$(dirname "$0")/lib.sh" would source the agent's lib.sh).
        return None
    real = Path(os.path.realpath(literal))
    for name, folder in folders.items():
        if real.is_file() and real.is_relative_to(folder) and real != folder / "SKILL.md":
            return name
    return None


def mask_values(text: str, env: Mapping[str, str], name: str) -> str:
    """``text`` with each value of ``env`` (4 characters or more) replaced by where it came from."""
    for key, value in sorted(env.items(), key=lambda kv: -len(kv[1])):
        if len(value) >= 4:
            text = text.replace(value, f"[skills.env.{name}.{key}]")
    return text


def skills_with_env(settings: Settings) -> set[str]:
    """The skills the person gave any variables to, in settings or with ``set_skill_env``."""
    with _LOCK:
        named = {name for name, values in _SET.items() if values}
    return named | {name for name, values in settings.skills.env.items() if values}


def mask_output(output: ToolOutput, name: str, env: Mapping[str, str]) -> ToolOutput:
    """``output`` of a skill's script with its variables' values masked in the text and the envelope's streams."""
    raw = {key: mask_values(value, env, name) if isinstance(value, str) else value for key, value in output.raw.items()}
    return dataclasses.replace(output, summary=mask_values(output.summary, env, name), raw=raw)
