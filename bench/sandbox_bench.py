"""The OS sandbox: what containment costs a shell command, against the same command as a direct subprocess in the
same run.

Baseline: ``bash -c <command>`` started with ``subprocess.run`` — a direct subprocess, no zeph-nb code. Each round
times, interleaved (so drift and the other core's load hit all alike), the same command

* ``direct``: the baseline;
* ``bare bwrap``: inside bubblewrap with the minimal flags (read-only root, the working directory bound, PID and
  network namespaces, no capabilities) — the floor any bwrap sandbox costs;
* ``+ mounts``: inside the product's own layout (``bwrap_argv``: private /tmp, hidden credentials, read-only git
  and policy files …), started directly — the step over ``bare bwrap`` is what the layout's mounts cost;
* ``+ limits``: the whole argv ``wrap`` returns (the resource limits on top) — the step is what setting them costs;
* ``executor``: ``ShellExecutor.run_command`` (host guard, private /tmp, building the layout, the asyncio process
  and its pipes) — the step is the executor's Python;
* ``chain``: a ``bash`` call through the whole gate chain (policy, classifier, approval gate with nothing to ask,
  filters, secret scan, audit row) — the step is the rest of the chain.

Each round's figure is the round's median of a row over the round's median of ``direct``; printed as min/median/max
over the rounds, for ``sleep 0.05`` (the target: at most 1.25x) and, as the fixed cost alone, ``true``. Each row also
prints the median CPU time the kernel's own thread spent per run (``time.thread_time``: the Python of the executor
and the chain, which other jobs on a shared machine do not inflate as they do the wall clock).
"""

from __future__ import annotations

import asyncio
import dataclasses
import statistics
import subprocess
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from zeph_nb.config import Settings
from zeph_nb.gates import build_chain
from zeph_nb.security.os_sandbox import bwrap_argv, private_tmp, probe, wrap
from zeph_nb.shell.escalations import Escalation
from zeph_nb.tools.base import ToolCall
from zeph_nb.tools.containment import command_scope, sandbox_spec
from zeph_nb.tools.shell.executor import ShellExecutor

ROUNDS = 7
PER_ROUND = 9  # samples of each row in a round
TARGET = 1.25
COMMANDS = [("sleep 0.05", "~50 ms command"), ("true", "the fixed cost alone")]
ROWS = ["direct", "bare bwrap", "+ mounts", "+ limits", "executor", "chain"]
# What makes bubblewrap 0.8 read the whole mount table again (``--tmpfs`` does not): the layout's cost grows with it.
_MOUNTS = {"--bind", "--ro-bind", "--ro-bind-try", "--bind-try", "--remount-ro", "--dev", "--proc"}


def _mmm(values: list[float], fmt: str) -> str:
    return " / ".join(format(v, fmt) for v in (min(values), statistics.median(values), max(values)))


# A home as a person's is after some years of notebooks: what the sandbox hides (keys, tokens, histories, the
# kernel's connection files) and what it leaves read-only (dot-files) and writable (folders), each one more mount.
_LIVED_IN_FILES = (
    ".ssh/id_ed25519", ".ssh/known_hosts", ".ssh/config", ".aws/credentials", ".netrc", ".git-credentials",
    ".docker/config.json", ".kaggle/kaggle.json", ".config/gh/hosts.yml", ".cache/huggingface/token", ".pgpass",
    ".gnupg/pubring.kbx", ".bash_history", ".python_history", ".lesshst", ".psql_history",
    ".ipython/profile_default/history.sqlite", ".ipython/profile_default/security/kernel-1.json", ".bashrc",
    ".profile", ".gitconfig", ".config/jupyter/lab/user-settings/x.json", ".local/lib/python3.11/site-packages/x.py",
    ".cache/pip/http/x", "Documents/cv.pdf", "Downloads/data.zip", "Desktop/notes.txt", "data/sales.csv",
    "notebooks/explore.ipynb",
)  # fmt: skip
_LIVED_IN_DIRS = ("Music", "Pictures", "Public", "Templates", "Videos", "snap")


def _lived_in(home: Path) -> None:
    for name in _LIVED_IN_FILES:
        (home / name).parent.mkdir(parents=True, exist_ok=True)
        (home / name).write_text("x")
    for name in _LIVED_IN_DIRS:
        (home / name).mkdir()


async def _measure(work: Path, home: Path, commands: list[tuple[str, str]] = COMMANDS) -> None:
    settings = Settings.from_toml("[gates.cache]\nenabled = false\n").model_copy(
        update={"home": home / ".zeph-home", "user_home": home}
    )
    status = probe("auto")
    assert status.bwrap is not None
    executor = ShellExecutor(settings, workdir=work)
    scope = command_scope(settings, Escalation(), network=False, hosts=(), sandbox=True)
    assert scope.sandboxed
    chain = build_chain(settings, workdir=work)
    await chain.prepare()
    floor = [status.bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",  # noqa: S108
             "--bind", str(work), str(work), "--unshare-pid", "--unshare-net", "--die-with-parent",
             "--cap-drop", "ALL", "--"]  # fmt: skip
    print(f"  {ROUNDS} rounds of {PER_ROUND} runs of each row, interleaved; ratio = the row's round median over "
          "direct's; min / median / max over rounds")  # fmt: skip
    for command, what in commands:
        argv = ["bash", "-c", command]
        with private_tmp() as tmp:
            spec = dataclasses.replace(sandbox_spec(settings, work), tmp_dir=tmp)
            layout = [*bwrap_argv(spec, status.bwrap, ["bash"]), "--", *argv]
            mounts = sum(arg in _MOUNTS for arg in layout)
            limited = wrap(argv, spec, status)
            call = ToolCall("bash", {"command": command})
            outcome = await chain.execute(call)
            assert outcome.status == "ok", outcome

            def run(args: list[str]) -> Callable[[], Awaitable[object]]:
                async def go() -> object:
                    return subprocess.run(args, cwd=work, check=True)

                return go

            async def through_executor(command: str = command) -> object:
                return await executor.run_command(command, timeout=30, scope=scope)

            async def through_chain(command: str = command) -> object:
                chain.new_conversation()
                return await chain.execute(ToolCall("bash", {"command": command}))

            runners: dict[str, Callable[[], Awaitable[object]]] = {
                "direct": run(argv), "bare bwrap": run([*floor, *argv]), "+ mounts": run(layout),
                "+ limits": run(limited), "executor": through_executor, "chain": through_chain,
            }  # fmt: skip
            for runner in runners.values():  # warm
                await runner()
            medians: dict[str, list[float]] = {row: [] for row in ROWS}
            cpu: dict[str, list[float]] = {row: [] for row in ROWS}
            for _ in range(ROUNDS):
                times: dict[str, list[float]] = {row: [] for row in ROWS}
                for _ in range(PER_ROUND):
                    for row, runner in runners.items():
                        start, start_cpu = time.perf_counter(), time.thread_time()
                        await runner()
                        times[row].append(time.perf_counter() - start)
                        cpu[row].append(time.thread_time() - start_cpu)
                for row in ROWS:
                    medians[row].append(statistics.median(times[row]))
        direct = medians["direct"]
        direct_cpu = statistics.median(cpu["direct"]) * 1000
        direct_ms = _mmm([d * 1000 for d in direct], ".1f")
        print(f"  {command} ({what}): direct p50 {direct_ms} ms   loop CPU {direct_cpu:.2f} ms   "
              f"({mounts} mounts that re-read the mount table)")  # fmt: skip
        previous: list[float] | None = None
        for row in ROWS[1:]:
            ratios = [m / d for m, d in zip(medians[row], direct, strict=True)]
            step = ""
            if previous is not None:
                steps = [(m - p) * 1000 for m, p in zip(medians[row], previous, strict=True)]
                step = f"   step +{_mmm(steps, '.1f')} ms"
            extra = _mmm([(m - d) * 1000 for m, d in zip(medians[row], direct, strict=True)], ".1f")
            used = statistics.median(cpu[row]) * 1000
            print(f"    {row:11} {_mmm(ratios, '.2f')}x   (+{extra} ms over direct){step}   loop CPU {used:.2f} ms")
            previous = medians[row]
        if command.startswith("sleep"):
            worst = max(m / d for m, d in zip(medians["chain"], direct, strict=True))
            verdict = "holds in every round" if worst <= TARGET else f"NOT met in every round (worst {worst:.2f}x)"
            print(f"    target: a ~50 ms command through the chain at most {TARGET}x direct: {verdict}")
    chain.store.close()


def main() -> None:
    print("== OS sandbox: a shell command sandboxed, against a direct subprocess (same run) ==")
    status = probe("auto")
    if not status.active:
        print(f"  skipped: {status.reason}")
        return
    # Outside /tmp: the sandbox has its own, so a home there would not be the one the sandbox hides. Three homes:
    # an empty one (the layout's floor), and a lived-in one with the notebook in a project folder (the kernel's
    # folder writable) and in the home itself (every folder of the home bound writable again, dot-files not).
    for where in (
        "an empty home",
        "a lived-in home, the notebook in ~/projects/x",
        "a lived-in home, the notebook in ~",
    ):
        print(f" {where}:")
        with tempfile.TemporaryDirectory(dir="/var/tmp") as tmp:
            home = Path(tmp) / "home"
            home.mkdir()
            if where != "an empty home":
                _lived_in(home)
            work = Path(tmp) / "work" if where == "an empty home" else home / "projects" / "x"
            work = home if where.endswith("in ~") else work
            work.mkdir(parents=True, exist_ok=True)
            subprocess.run(["git", "init", "-q", str(work)], check=True)
            asyncio.run(_measure(work, home, COMMANDS if where == "an empty home" else COMMANDS[:1]))


if __name__ == "__main__":
    main()
