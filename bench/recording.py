"""What the corpus recorders share: the environment a command is recorded in, and recording one sample.

Each command runs as ``bash -c "<command> 2>&1"`` with stdout and stderr into one pipe: the ``2>&1`` alone applies
to the last command of ``a; echo exit=$?``, and what ``a`` wrote to stderr would be lost. Output is read as bytes,
so the carriage returns of progress bars survive, and the recording machine's own paths are written as a
project's (``/work/project``) so a sample reads the same wherever it was recorded.
"""

from __future__ import annotations

import json
import os
import subprocess
import textwrap
from pathlib import Path

__all__ = ["record", "recording_env", "run", "write"]


def recording_env(venv: Path, scratch: Path, author: tuple[str, str], **extra: str) -> dict[str, str]:
    """The environment every command is recorded in: the project's venv first on PATH, no colour, 100 columns, no
    prompts or update checks, git as ``author`` (name, email), caches and Jupyter/IPython state under ``scratch``;
    ``extra`` adds or overrides variables."""
    name, email = author
    return {
        **os.environ,
        "PATH": f"{venv / 'bin'}:{os.environ.get('PATH', '/usr/bin:/bin')}",
        "VIRTUAL_ENV": str(venv),
        "LANG": "C.UTF-8",
        "NO_COLOR": "1",
        "TERM": "dumb",
        "COLUMNS": "100",
        "CARGO_TERM_COLOR": "never",
        "CARGO_NET_OFFLINE": "true",
        "RUST_BACKTRACE": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "PIP_NO_INPUT": "1",
        "GIT_CONFIG_GLOBAL": "/dev/null",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": name,
        "GIT_AUTHOR_EMAIL": email,
        "GIT_COMMITTER_NAME": name,
        "GIT_COMMITTER_EMAIL": email,
        "JUPYTER_RUNTIME_DIR": str(scratch / "jupyter-runtime"),
        "JUPYTER_DATA_DIR": str(scratch / "jupyter-data"),
        "IPYTHONDIR": str(scratch / "ipython"),
        "MPLCONFIGDIR": str(scratch / "mpl"),
        "npm_config_cache": str(scratch / "npm-cache"),
        "npm_config_update_notifier": "false",
        "npm_config_fund": "false",
        **extra,
    }


def record(
    out: Path,
    name: str,
    command: str,
    cwd: Path,
    env: dict[str, str],
    shown_as: dict[str, str],
    timeout: int = 600,
) -> None:
    """Run ``command`` in ``cwd`` and write ``out/<name>.json`` with its exit code and output, each path of
    ``shown_as`` (a temp folder, the venv) written as its value."""
    result = subprocess.run(
        ["bash", "-c", f"{command} 2>&1"],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        timeout=timeout,
        check=False,
    )
    output = result.stdout.decode("utf-8", "replace")
    for path, shown in shown_as.items():
        output = output.replace(path, shown)
    sample = {"command": command, "exit_code": result.returncode, "output": output}
    (out / f"{name}.json").write_text(json.dumps(sample, indent=1, ensure_ascii=False) + "\n")
    print(f"{name:28s} exit {result.returncode:3d} {len(output):8d} chars {output.count(chr(10)):6d} lines")


def write(root: Path, files: dict[str, str]) -> None:
    """Each file of a throwaway project, its text dedented."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))


def run(root: Path, env: dict[str, str], *cmd: str) -> None:
    """A setup step of a throwaway project (not recorded); it must succeed."""
    subprocess.run(cmd, cwd=root, env=env, check=True, capture_output=True)
