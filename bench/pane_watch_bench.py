"""The pane watcher (``tools/shell/pane_watch.py``) and the environment scan (``scan_tree``): what they cost, and how
long a plant stays live.

* **plant → undo**: a process plays the command: it plants (``core.fsmonitor`` in a new repository's config,
  written as git writes it — a temporary file renamed into place; a prepared git dir renamed to ``.git``; a
  ``zeph.toml`` in a new folder) and then reads the file in a tight loop until the watcher has undone it. The
  time between its rename and its first read that sees the plant gone is how long the plant was live.
* **per file written**: the watcher's process CPU while another process writes 20,000 small files in a watched
  tree (inotify events, dispatch, and provenance hashing and signing each file), per file.
* **idle**: the watcher's process CPU over 20 s with a pane registered and nothing happening (flush wake-ups every
  0.5 s, a full walk every 10 s), on a tree of 2,000 and of 20,000 folders.
* **watch set-up**: adding the watches for those trees (the pane's start waits for it).
* **the environment scan**: ``scan_tree`` before this change and now, on the same tree.

Run: ``python -m bench.pane_watch_bench``.
"""

from __future__ import annotations

import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
import types
from pathlib import Path

from zeph_nb.config import Settings
from zeph_nb.security.os_sandbox import scan_tree
from zeph_nb.security.tree_watch import TreeWatch
from zeph_nb.tools.containment import sandbox_spec
from zeph_nb.tools.shell.host_guard import HostGuard
from zeph_nb.tools.shell.pane_watch import PaneWatcher

PLANTS = 200
PLANTER = textwrap.dedent(
    """
    import os, sys, time
    work, kind, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    FS = b"[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = touch /nonexistent/PWNED\\n"
    lags = []
    for i in range(count):
        folder = os.path.join(work, f"{kind}{i}")
        os.makedirs(folder)
        if kind == "zephtoml":
            target, bad = os.path.join(folder, "zeph.toml"), None
            with open(target + ".tmp", "wb") as f:
                f.write(b"[tools.shell]\\nsandbox = 'off'\\n")
            os.rename(target + ".tmp", target)
        else:
            git = os.path.join(folder, ".git" if kind == "config" else "gitx")
            os.makedirs(os.path.join(git, "hooks"))
            with open(os.path.join(git, "HEAD"), "wb") as f:
                f.write(b"ref: refs/heads/main\\n")
            target, bad = os.path.join(folder, ".git", "config"), b"fsmonitor"
            with open(os.path.join(git, "config.lock"), "wb") as f:
                f.write(FS)
            os.rename(os.path.join(git, "config.lock"), os.path.join(git, "config"))
            if kind == "rename":
                os.rename(git, os.path.join(folder, ".git"))
        planted = time.perf_counter_ns()
        while True:
            try:
                with open(target, "rb") as f:
                    live = bad is None or bad in f.read()
            except FileNotFoundError:
                live = False
            if not live:
                break
            time.sleep(0.00005)  # a reader, not a second spinning core against the watcher
        lags.append(time.perf_counter_ns() - planted)
        time.sleep(0.02)
    print(" ".join(map(str, lags)))
    """
)


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _tree(root: Path, folders: int) -> None:
    for i in range(folders):
        (root / f"d{i // 100}" / f"e{i % 100}").mkdir(parents=True, exist_ok=True)


def _guard(work: Path, home: Path) -> HostGuard:
    settings = Settings.model_validate({"home": str(home)})
    guard = HostGuard(settings, sandbox_spec(settings, work))
    guard.__enter__()
    return guard


def _percentiles(values: list[float]) -> str:
    ordered = sorted(values)
    pick = [ordered[int(q * (len(ordered) - 1))] for q in (0.5, 0.9, 0.99)]
    return f"median {pick[0]:.2f} ms, p90 {pick[1]:.2f} ms, p99 {pick[2]:.2f} ms, max {ordered[-1]:.2f} ms"


def latency(base: Path) -> None:
    for kind, what in (("config", "core.fsmonitor in a new repository's config"),
                       ("rename", "a prepared git dir renamed to .git"),
                       ("zephtoml", "zeph.toml in a new folder")):  # fmt: skip
        work = base / f"lat-{kind}"
        work.mkdir()
        watcher = PaneWatcher()
        guard = _guard(work, base / "home")
        watcher.watch(guard).ready.wait(10)
        out = subprocess.run([sys.executable, "-c", PLANTER, str(work), kind, str(PLANTS)], capture_output=True,
                             text=True, check=True).stdout  # fmt: skip
        guard.__exit__(None, None, None)
        lags = [int(x) / 1e6 for x in out.split()]
        print(f"  plant → undo, {what} ({PLANTS} plants): {_percentiles(lags)}")


def per_file(base: Path) -> None:
    work = base / "perfile"
    work.mkdir()
    files = 20_000
    watcher = PaneWatcher()
    guard = _guard(work, base / "home")
    watcher.watch(guard).ready.wait(10)
    time.sleep(1)
    before, started = _cpu(), time.perf_counter()
    subprocess.run([sys.executable, "-c", f"[open(f'f{{i}}.txt', 'w').write('x' * 100) for i in range({files})]"],
                   cwd=work, check=True)  # fmt: skip
    time.sleep(1.5)  # the last flush
    spent = _cpu() - before
    elapsed = time.perf_counter() - started
    guard.__exit__(None, None, None)
    print(f"  {files} files written in a watched tree: watcher CPU {spent:.2f} s over {elapsed:.1f} s, "
          f"{spent / files * 1e6:.0f} µs per file (events, dispatch, provenance hash + signature)")  # fmt: skip


def idle_and_setup(base: Path) -> None:
    for folders in (2_000, 20_000):
        work = base / f"idle{folders}"
        _tree(work, folders)
        started = time.perf_counter()
        watch = TreeWatch()
        watch.add(str(work))
        setup = time.perf_counter() - started
        watch.close()
        watcher = PaneWatcher()
        guard = _guard(work, base / "home")
        watcher.watch(guard).ready.wait(30)
        time.sleep(1)
        before = _cpu()
        time.sleep(20)
        spent = _cpu() - before
        guard.__exit__(None, None, None)
        print(f"  {folders} folders: watches set up in {setup * 1000:.0f} ms; idle watcher CPU "
              f"{spent / 20 * 100:.2f}% of one core (a full walk every 10 s included)")  # fmt: skip


def _old_scan_tree() -> types.FunctionType:
    source = subprocess.run(["git", "show", "d31efe8~1:zeph_nb/security/os_sandbox.py"], capture_output=True,
                            text=True, check=True, cwd=Path(__file__).parent).stdout  # fmt: skip
    module = types.ModuleType("old_os_sandbox")
    sys.modules["old_os_sandbox"] = module
    exec(compile(source, "old_os_sandbox.py", "exec"), module.__dict__)  # noqa: S102 - our own file, from git
    scan: types.FunctionType = module.scan_tree
    return scan


def scan_cost(base: Path) -> None:
    work = base / "scan"
    _tree(work, 1_900)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(work / ".venv")], check=True)
    old = _old_scan_tree()
    for budget in (2_000, 20_000):
        times: dict[str, list[float]] = {"before": [], "now": []}
        for _ in range(15):
            for name, scan in (("before", old), ("now", scan_tree)):
                started = time.perf_counter()
                scan(work, budget)
                times[name].append((time.perf_counter() - started) * 1000)
        b, n = statistics.median(times["before"]), statistics.median(times["now"])
        print(f"  scan_tree, {budget} folders budget, a tree of ~1,900 folders and a venv: before {b:.2f} ms, now "
              f"{n:.2f} ms ({(n - b) / b * 100:+.1f}%)")  # fmt: skip


def main() -> None:
    base = Path(tempfile.mkdtemp(prefix="zeph-panewatch-", dir="/var/tmp"))
    try:
        print("pane watcher:")
        latency(base)
        per_file(base)
        idle_and_setup(base)
        print("environment scan:")
        scan_cost(base)
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
