"""What the corpus recorders share: the environment a command is recorded in, and recording one sample.

Each command runs as ``bash -c "<command> 2>&1"`` with stdout and stderr into one pipe: the ``2>&1`` alone applies
to the last command of ``a; echo exit=$?``, and what ``a`` wrote to stderr would be lost. Output is read as bytes,
so the carriage returns of progress bars survive, and the recording machine's own paths are written as a
project's (``/work/project``) so a sample reads the same wherever it was recorded.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench.judging import apply_judgement, check

__all__ = ["Corpus", "record", "recording_env", "run", "write"]


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


@dataclass
class Corpus:
    """One corpus recorder's setup: where its samples go, the venv and scratch home its commands see, and how it
    records one sample and runs a setup step. Made at import by ``Corpus.start``, as each recorder's module-level
    ``record`` and ``run`` are used by its builders."""

    out: Path
    venv: Path
    scratch: Path
    env: dict[str, str]

    @classmethod
    def start(cls, recorder: str, folder: str, author: tuple[str, str]) -> Corpus:
        """For the recorder at path ``recorder`` (its ``__file__``), writing ``tests/data/<folder>``; commands
        run as ``author`` in a scratch home named after the folder."""
        repo = Path(recorder).resolve().parent.parent
        out = repo / "tests" / "data" / folder
        if not (repo / ".venv").exists():  # a worktree or staged copy: the shared venv lives with the main checkout
            repo = Path(os.environ.get("ZEPH_NB_REPO", "/work/main"))
        venv = repo / ".venv"
        scratch = Path(tempfile.mkdtemp(prefix=f"{folder}-home-"))
        env = recording_env(
            venv,
            scratch,
            author,
            HOME=str(scratch),
            CARGO_HOME=os.environ.get("CARGO_HOME", "/root/.cargo"),
            RUSTUP_HOME=os.environ.get("RUSTUP_HOME", "/root/.rustup"),
        )
        return cls(out, venv, scratch, env)

    def record(self, name: str, command: str, cwd: Path, root: Path, timeout: int = 600) -> None:
        shown_as = {str(root): "/work/project", str(self.scratch): "/root", str(self.venv): "/work/project/.venv"}
        record(self.out, name, command, cwd, self.env, shown_as, timeout)

    def run(self, root: Path, *cmd: str, env: dict[str, str] | None = None) -> None:
        run(root, env or self.env, *cmd)

    def judgement_only(self, *, split: bool = False) -> None:
        """``--check`` and ``--apply`` (bench/judging.py) when asked for: they exit; otherwise return."""
        args = set(sys.argv[1:])
        if not {"--check", "--apply"} & args:
            return
        shutil.rmtree(self.scratch, ignore_errors=True)  # made at import for recording; unused here
        gone = apply_judgement(self.out, split=split) if "--apply" in args else 0
        sys.exit(1 if check(self.out, split=split) or gone else 0)

    def build(self, root: Path, builders: dict[str, Callable[[Path], None]]) -> None:
        """Each throwaway project in its folder under ``root``, which sees the shared venv as ``.venv``."""
        (root / ".venv").symlink_to(self.venv)
        for key, build in builders.items():
            (root / key).mkdir()
            build(root / key)

    def record_corpus(
        self,
        prefix: str,
        builders: dict[str, Callable[[Path], None]],
        samples: list[tuple[str, str, str]],
        *,
        prepare: Callable[[Path, set[str]], list[subprocess.Popen[bytes]]] | None = None,
        fill: Callable[[str], str] = str,
        split: bool = False,
    ) -> None:
        """A recorder's whole run: the projects built in a temp folder named ``prefix``, ``prepare`` (setup a
        re-recording of some samples needs, processes to list or ask, each stopped after), the samples of
        ``sys.argv`` (all when none is named) recorded, the judgement applied and checked, the temp folders gone."""
        self.judgement_only(split=split)
        self.out.mkdir(parents=True, exist_ok=True)
        only = {arg for arg in sys.argv[1:] if not arg.startswith("-")}
        root = Path(tempfile.mkdtemp(prefix=prefix))
        background: list[subprocess.Popen[bytes]] = []
        try:
            self.build(root, builders)
            if prepare is not None:
                background = prepare(root, only)
            self.record_samples(root, samples, only, fill)
        finally:
            for process in background:  # each started in a session of its own: its children go with it
                os.killpg(process.pid, signal.SIGTERM)
                process.wait()
            shutil.rmtree(root, ignore_errors=True)
            shutil.rmtree(self.scratch, ignore_errors=True)
        gone = apply_judgement(self.out, split=split)
        if gone:
            print(f"{gone} judged lines are gone or samples unjudged: judge them by reading, in JUDGED.json")
        check(self.out, split=split)

    def serve(self, folder: Path, port: int) -> subprocess.Popen[bytes]:
        """``python -m http.server`` on loopback ``port`` for ``folder``, up when this returns."""
        server = subprocess.Popen(
            [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(folder)],
            env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        time.sleep(1.0)
        return server

    def record_samples(
        self, root: Path, samples: list[tuple[str, str, str]], only: set[str], fill: Callable[[str], str] = str
    ) -> None:
        """Record each ``(name, command, folder)`` (all, or those named in ``only``) in its folder under ``root``
        (an absolute folder as it is); ``fill`` puts a run's values (a port) into the command."""
        for name, command, sub in samples:
            if only and name not in only:
                continue
            cwd = Path(sub) if sub.startswith("/") else root / sub if sub else root
            self.record(name, fill(command), cwd, root)
