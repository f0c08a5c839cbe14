"""Record a filter corpus from its recipes: real output of real tools, run in throwaway projects.

    python -m bench.record filter_heldout_d            # (re)records every sample, keeps the judgement
    python -m bench.record filter_heldout_d NAME...    # re-records only those samples
    python -m bench.record filter_heldout_d --apply    # copies JUDGED.json (must_keep, why, split) into the samples
    python -m bench.record filter_heldout_d --check    # recipes and samples agree; every judged line is in its output
    python -m bench.record filter_heldout_d NAME... --out DIR   # records into DIR, to compare with the stored ones

A corpus folder (``tests/data/filter_*``, or any folder given by path) holds, beside its samples:

- ``sources/``: the throwaway projects' files, as they are; a temp folder starts as a copy of it (with ``.venv``
  linked to the project's venv).
- ``setup/``: what setup commands read (scripts that build git histories, SQL that fills a database); never copied.
- ``RECIPES.toml``, in three parts. ``[recording]``: ``env`` (variables set over the recorder's environment, or
  over none with ``inherit_env = false``), ``shown_as`` (which paths, of root, folder, scratch and venv, a sample
  shows as what), ``timeout``, ``judged``, ``split``, and for the older corpora ``newlines = "universal"`` and
  ``show_command``. ``[[step]]``, in order: ``run``, a bash script that must succeed, or ``start``, a process kept
  running while the samples are recorded and stopped after. ``[sample.<name>]``: its ``command`` and ``folder``;
  ``stand_in``, what runs in its place when it is not recorded (what it would have left for the samples after it);
  ``needs``, tools without which it is skipped; ``only_when_named``, for one that needs the package registries.

Each command runs as ``bash -c "<command> 2>&1"`` with stdout and stderr into one pipe: the ``2>&1`` alone applies
to the last command of ``a; echo exit=$?``, and what ``a`` wrote to stderr would be lost. Output is read as bytes, so
the carriage returns of progress bars survive (unless the corpus was recorded with universal newlines), and the
recording machine's own paths are written as the corpus says (``/work/project``), so a sample reads the same
wherever it was recorded. Commands may name ``{root}`` (the temp folder), ``{folder}`` (the command's own),
``{repo}`` (this checkout, the one holding the venv), ``{venv}``, ``{python}`` (the recorder's interpreter),
``{setup}``, ``{port}`` (a free loopback port, or the one a started process printed first) and ``{sid}`` (the
session of the started process marked ``sid``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.judging import apply_judgement, check

__all__ = ["Corpus", "main", "record"]

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data"
_PLACEHOLDER = re.compile(r"\{(root|folder|repo|venv|python|setup|port|sid)\}")


def project_venv() -> Path:
    """The venv commands run in: this checkout's, or the main checkout's for a worktree or a staged copy."""
    repo = REPO if (REPO / ".venv").exists() else Path(os.environ.get("ZEPH_NB_REPO", "/work/main"))
    return repo / ".venv"


def _expand(value: str) -> str:
    """``${NAME}`` and ``${NAME:-default}`` from the recorder's own environment."""
    return re.sub(r"\$\{(\w+)(?::-([^}]*))?\}", lambda m: os.environ.get(m[1], m[2] or ""), value)


@dataclass
class Corpus:
    """One corpus folder and its recipes."""

    folder: Path
    recording: dict[str, Any]
    steps: list[dict[str, Any]]
    samples: dict[str, dict[str, Any]]

    @classmethod
    def load(cls, corpus: str | Path) -> Corpus:
        """The corpus ``corpus`` names: a folder under tests/data, or a path."""
        folder = Path(corpus) if Path(corpus).is_dir() else DATA / str(corpus)
        recipes = tomllib.loads((folder / "RECIPES.toml").read_text())
        return cls(folder, recipes["recording"], recipes.get("step", []), recipes["sample"])

    @property
    def judged(self) -> bool:
        """Whether its samples carry a judgement (JUDGED.json); the bench corpus has its own judge instead."""
        return bool(self.recording.get("judged", True))

    @property
    def split(self) -> bool:
        """Whether each sample is in a half, ``dev`` or ``test`` (the tunable corpora)."""
        return bool(self.recording.get("split", False))

    def environment(self, venv: Path, scratch: Path) -> dict[str, str]:
        """What every command sees: the recorder's environment (unless ``inherit_env = false``) with ``env``'s
        variables set, ``{venv}`` and ``{scratch}`` (a home made for the run) filled in."""
        env = dict(os.environ) if self.recording.get("inherit_env", True) else {}
        for key, value in self.recording.get("env", {}).items():
            env[key] = _expand(str(value).replace("{venv}", str(venv)).replace("{scratch}", str(scratch)))
        return env


@dataclass
class _Run:
    """One recording run: the temp folder, the environment, and the values commands are filled with."""

    corpus: Corpus
    out: Path
    root: Path
    scratch: Path
    venv: Path
    env: dict[str, str]
    values: dict[str, str] = field(default_factory=dict)
    started: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def cwd(self, folder: str) -> Path:
        return Path(folder) if folder.startswith("/") else self.root / folder

    def fill(self, command: str, folder: str) -> str:
        values = {**self.values, "folder": str(self.cwd(folder))}
        return _PLACEHOLDER.sub(lambda m: values.get(m[1], m[0]), command)

    def shown(self, text: str, folder: str) -> str:
        """``text`` with each path of ``shown_as`` (root, folder, scratch, venv) written as the corpus shows it."""
        paths = {"root": self.root, "folder": self.cwd(folder), "scratch": self.scratch, "venv": self.venv}
        for what, shown in self.corpus.recording.get("shown_as", []):
            text = text.replace(str(paths[what]), shown)
        return text

    def run(self, script: str, folder: str) -> None:
        """A setup step (not recorded), in its folder (made if missing); it must succeed."""
        self.cwd(folder).mkdir(parents=True, exist_ok=True)
        done = subprocess.run(["bash", "-e", "-c", self.fill(script, folder)], cwd=self.cwd(folder), env=self.env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False)  # fmt: skip
        if done.returncode:
            raise RuntimeError(
                f"setup step in {folder!r} failed ({done.returncode}):\n{script}\n{done.stdout.decode()}"
            )

    def start(self, step: dict[str, Any]) -> None:
        """A process kept running while the samples are recorded: one command, which bash execs, in a session of
        its own (its children go with it); with ``port = "stdout"`` the first line it prints is ``{port}``, with
        ``sid`` its session is ``{sid}``."""
        folder = step.get("folder", "")
        to_port = step.get("port") == "stdout"
        process = subprocess.Popen(
            ["bash", "-c", "exec " + self.fill(step["start"], folder)], cwd=self.cwd(folder), env=self.env,
            stdout=subprocess.PIPE if to_port else subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip
        self.started.append(process)
        if to_port and process.stdout is not None:
            self.values["port"] = process.stdout.readline().decode().strip()
        if step.get("sid"):
            self.values["sid"] = str(process.pid)

    def record(self, name: str, sample: dict[str, Any]) -> None:
        """Run ``sample``'s command and write ``<out>/<name>.json`` with its exit code and output."""
        folder = sample.get("folder", "")
        command = self.fill(sample["command"], folder)
        self.cwd(folder).mkdir(parents=True, exist_ok=True)
        result = subprocess.run(
            ["bash", "-c", f"{command} 2>&1"],
            cwd=self.cwd(folder),
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=self.corpus.recording.get("timeout", 600),
            check=False,
        )
        output = result.stdout.decode("utf-8", "replace")
        if self.corpus.recording.get("newlines") == "universal":  # as text-mode pipes read it, for older corpora
            output = output.replace("\r\n", "\n").replace("\r", "\n")
        output = self.shown(output, folder)
        if self.corpus.recording.get("show_command"):
            command = self.shown(command, folder)
        sample_json = {"command": command, "exit_code": result.returncode, "output": output}
        (self.out / f"{name}.json").write_text(json.dumps(sample_json, indent=1, ensure_ascii=False) + "\n")
        print(f"{name:28s} exit {result.returncode:3d} {len(output):8d} chars {output.count(chr(10)):6d} lines")


def _free_port() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return str(sock.getsockname()[1])


def record(corpus: Corpus, names: set[str], out: Path | None = None) -> int:
    """Record the samples ``names`` names (all when empty) into ``out`` (the corpus folder unless given): the temp
    folder built from sources/ and the steps, each sample's command run in its folder, a sample not recorded this
    time replaced by its ``stand_in`` (what it would have left behind), the judgement applied, the temp folders and
    started processes gone. Returns the number of problems the judgement check found."""
    out = out or corpus.folder
    out.mkdir(parents=True, exist_ok=True)
    umask = os.umask(0o022)  # files the projects write are shown by ls and tar; their modes are not the caller's
    venv = project_venv()
    root = Path(tempfile.mkdtemp(prefix=f"{corpus.folder.name}-"))
    scratch = Path(tempfile.mkdtemp(prefix=f"{corpus.folder.name}-home-"))
    values = {
        "root": str(root),
        "repo": str(venv.parent),
        "venv": str(venv),
        "python": sys.executable,
        "setup": str(corpus.folder / "setup"),
    }
    run = _Run(corpus, out, root, scratch, venv, corpus.environment(venv, scratch), {**values, "port": _free_port()})
    try:
        if (corpus.folder / "sources").is_dir():
            shutil.copytree(corpus.folder / "sources", root, symlinks=True, dirs_exist_ok=True,
                            copy_function=shutil.copy)  # fmt: skip
            root.chmod(0o700)  # as mkdtemp made it: copytree gave it the sources folder's mode
        (root / ".venv").symlink_to(venv)
        for step in corpus.steps:
            if "start" in step:
                run.start(step)
            else:
                run.run(step["run"], step.get("folder", ""))
        for name, sample in corpus.samples.items():
            needs = [tool for tool in sample.get("needs", []) if shutil.which(tool, path=run.env.get("PATH")) is None]
            wanted = name in names or not (names or sample.get("only_when_named"))
            if wanted and needs:
                print(f"{name:28s} skipped: {', '.join(needs)} missing")
            if wanted and not needs:
                run.record(name, sample)
            elif "stand_in" in sample:
                run.run(sample["stand_in"], sample.get("folder", ""))
    finally:
        for process in run.started:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait()
        shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(scratch, ignore_errors=True)
        os.umask(umask)
    if not corpus.judged:
        return 0
    if out != corpus.folder:
        shutil.copy(corpus.folder / "JUDGED.json", out / "JUDGED.json")
    gone = apply_judgement(out, split=corpus.split)
    if gone:
        print(f"{gone} judged lines are gone or samples unjudged: judge them by reading, in JUDGED.json")
    return check(out, split=corpus.split) if out == corpus.folder else 0


def check_recipes(corpus: Corpus) -> int:
    """Every recorded sample has a recipe whose command (placeholders standing for any value) is the one recorded,
    and every recipe a sample; prints and returns the problems."""
    problems = 0
    recorded = {path.stem for path in corpus.folder.glob("*.json") if path.name != "JUDGED.json"}
    for name in sorted(recorded ^ set(corpus.samples)):
        print(f"FAIL {name}: " + ("recorded but no recipe" if name in recorded else "a recipe but not recorded"))
        problems += 1
    for name in sorted(recorded & set(corpus.samples)):
        command = json.loads((corpus.folder / f"{name}.json").read_text())["command"]
        pattern = "".join(
            (r"\d+" if part in ("port", "sid") else ".+?") if i % 2 else re.escape(part)
            for i, part in enumerate(_PLACEHOLDER.split(corpus.samples[name]["command"]))
        )
        if not re.fullmatch(pattern, command, re.DOTALL):
            print(f"FAIL {name}: the recipe's command is not the recorded one: {command!r}")
            problems += 1
    print(f"{len(corpus.samples)} recipes, {problems} problems")
    return problems


def main(argv: list[str] | None = None) -> int:
    """``python -m bench.record``: record, ``--apply`` or ``--check`` one corpus; the exit status says whether
    anything is wrong."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.record", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("corpus", help="a folder under tests/data (filter_heldout_d), or a path")
    parser.add_argument("names", nargs="*", metavar="NAME", help="the samples to record (all when none is named)")
    parser.add_argument("--apply", action="store_true", help="copy JUDGED.json into the samples, record nothing")
    parser.add_argument("--check", action="store_true", help="check recipes, samples and judgement, record nothing")
    parser.add_argument("--out", type=Path, help="write the samples here instead of into the corpus folder")
    args = parser.parse_intermixed_args(argv)
    corpus = Corpus.load(args.corpus)
    if unknown := set(args.names) - set(corpus.samples):
        parser.error(f"no recipe for {', '.join(sorted(unknown))} in {corpus.folder / 'RECIPES.toml'}")
    if args.check:
        problems = check_recipes(corpus)
        return 1 if problems or (corpus.judged and check(corpus.folder, split=corpus.split)) else 0
    if args.apply:
        if not corpus.judged:
            parser.error(f"{corpus.folder.name} has no judgement to apply")
        gone = apply_judgement(corpus.folder, split=corpus.split)
        return 1 if check(corpus.folder, split=corpus.split) or gone else 0
    return 1 if record(corpus, set(args.names), args.out) else 0


if __name__ == "__main__":
    sys.exit(main())
