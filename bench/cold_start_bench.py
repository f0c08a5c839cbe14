"""Cold start (issue 45): what the first ``Agent(...)`` costs in a fresh process, and its first run.

Each sample is a fresh interpreter (imports are paid once per process), in a fresh zeph home and working folder,
the kinds alternating within a round so drift hits them alike:

* ``python -c pass`` — the baseline: starting an interpreter at all;
* ``python -c "import pydantic"`` — for scale: the one library every ``Agent`` needs;
* ``from zeph_nb import Agent; Agent(provider=ScriptedProvider(...))`` — the figure with a target (≤ 0.3 s, timed
  inside the process from before the import to after the constructor: wall time, and the process's CPU time,
  which other processes sharing the machine do not lengthen);
* the same, then its first run: a scripted model asks for one ``bash`` call (parsed by the shell classifier) and
  replies; the process's wall time includes its exit, where the store copies the run's audit rows into DuckDB.

Every process reads bytecode written by a warm-up process of the same run (as an installed package would), in
a folder of the run's own. Whole-process times are printed as ratios to the baseline; then which heavy
modules each stage had loaded, and the largest import costs of the first ``Agent(...)`` (``python -X
importtime``, self time summed by package).
"""

from __future__ import annotations

import collections
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROUNDS = 10
TARGET_SECONDS = 0.3
HEAVY = ("bashlex", "pandas", "numpy", "duckdb", "anthropic", "pydantic")

CHILD = """
import json, sys, time
start, cpu = time.perf_counter(), time.process_time()
from zeph_nb import Agent, DenyAll, ScriptedProvider
model = ScriptedProvider([[{"tool": "bash", "params": {"command": "echo hi | wc -c"}}], "Done."])
agent = Agent(provider=model, approver=DenyAll())
built = time.perf_counter()
out = {"agent": built - start, "cpu": time.process_time() - cpu, "after_agent": [m for m in HEAVY if m in sys.modules]}
if RUN:
    result = agent.run_sync("go")
    assert result.stop_reason == "completed" and result.tool_calls[0].exit_code == 0, result
    out["run"] = time.perf_counter() - built
    out["after_run"] = [m for m in HEAVY if m in sys.modules]
print(json.dumps(out))
"""


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ZEPH_") and k != "ANTHROPIC_API_KEY"}
    env["ZEPH_HOME"] = str(home)
    # An installed package runs from current bytecode. Here the tree's own __pycache__ may be stale (engineers run
    # with PYTHONDONTWRITEBYTECODE), which would time the compiler: every process reads and writes bytecode in a
    # folder of this run's own instead (the first process, a warm-up, writes it), and the tree is left as it was.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(home.parent.parent / "bytecode")
    return env


def _process(args: list[str], scratch: Path, tree: str | None = None) -> tuple[float, dict[str, Any]]:
    """One fresh interpreter in a fresh home and working folder (``tree``: import zeph_nb from there instead):
    (wall seconds, what it printed as JSON)."""
    folder = Path(tempfile.mkdtemp(dir=scratch))
    (folder / "home").mkdir()
    (folder / "work").mkdir()
    env = _env(folder / "home")
    if tree:
        env["PYTHONPATH"] = tree
    start = time.perf_counter()
    done = subprocess.run([sys.executable, *args], cwd=folder / "work", env=env, check=True, capture_output=True,
                          text=True)  # fmt: skip
    wall = time.perf_counter() - start
    lines = done.stdout.strip().splitlines()
    return wall, (json.loads(lines[-1]) if lines else {})


def _child(run: bool) -> list[str]:
    return ["-c", f"HEAVY = {HEAVY!r}\nRUN = {run}\n{CHILD}"]


def _spread(values: list[float]) -> str:
    return f"{min(values):.3f} / {statistics.median(values):.3f} / {max(values):.3f}"


def _ratios(values: list[float], base: float) -> str:
    return f"{min(values) / base:.2f}x / {statistics.median(values) / base:.2f}x / {max(values) / base:.2f}x"


def top_imports(scratch: Path, count: int = 12) -> list[tuple[str, float]]:
    """Self import time of the first ``Agent(...)``, summed by top-level package (zeph_nb by subpackage)."""
    folder = Path(tempfile.mkdtemp(dir=scratch))
    (folder / "home").mkdir()
    done = subprocess.run([sys.executable, "-X", "importtime", *_child(False)], cwd=folder, env=_env(folder / "home"),
                          check=True, capture_output=True, text=True)  # fmt: skip
    costs: dict[str, float] = collections.defaultdict(float)
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        own, _, name = line.split(":", 1)[1].split("|")
        parts = name.strip().split(".")
        costs[".".join(parts[:2]) if parts[0] == "zeph_nb" else parts[0]] += int(own) / 1e6
    return sorted(costs.items(), key=lambda item: -item[1])[:count]


def main(argv: list[str] | None = None) -> None:
    """``--before DIR``: also time the zeph_nb package in DIR (e.g. ``git archive <commit> zeph_nb | tar -x -C DIR``),
    its processes interleaved with this tree's, so before and after meet the same load."""
    args = sys.argv[1:] if argv is None else argv
    before = args[args.index("--before") + 1] if "--before" in args else None
    with tempfile.TemporaryDirectory(prefix="zeph-cold-") as tmp:
        scratch = Path(tmp)
        kinds: dict[str, tuple[list[str], str | None]] = {
            "python -c pass (baseline)": (["-c", "pass"], None),
            "python -c 'import pydantic'": (["-c", "import pydantic"], None),
        }
        for label, tree in [("", None)] + ([(" [before]", before)] if before else []):
            kinds[f"from zeph_nb import Agent; Agent(...){label}"] = (_child(False), tree)
            kinds[f"… and its first run (one bash call){label}"] = (_child(True), tree)
        for tree in {tree for _, tree in kinds.values()}:
            _process(_child(True), scratch, tree)  # the warm-up: writes the bytecode every later process reads
        walls: dict[str, list[float]] = {name: [] for name in kinds}
        inside: dict[str, list[float]] = collections.defaultdict(list)
        loaded: dict[str, list[str]] = {}
        for _ in range(ROUNDS):
            for name, (child, tree) in kinds.items():
                wall, out = _process(child, scratch, tree)
                walls[name].append(wall)
                label = " [before]" if tree else ""
                if "agent" in out:
                    inside[f"import + Agent(...){label}"].append(out["agent"])
                    inside[f"import + Agent(...), CPU time{label}"].append(out["cpu"])
                    loaded[f"after Agent(...){label}"] = out["after_agent"]
                if "run" in out:
                    inside[f"the first run_sync{label}"].append(out["run"])
                    loaded[f"after its first run{label}"] = out["after_run"]
        base = statistics.median(walls["python -c pass (baseline)"])
        print(
            f"cold start, {ROUNDS} fresh processes each, min / median / max; "
            f"baseline: `python -c pass`, median {base * 1000:.0f} ms" + (f"; [before]: {before}" if before else "")
        )
        print(f"  {'whole process (start to exit)':48s} {'seconds':>22s}   {'ratio to the baseline':>26s}")
        for name, values in walls.items():
            print(f"  {name:48s} {_spread(values):>22s}   {_ratios(values, base):>26s}")
        print(f"  {'inside the process':48s} {'seconds':>22s}   {'ratio to [before]':>26s}")
        for name, values in sorted(inside.items()):
            then = inside.get(f"{name} [before]")
            versus = f"{_ratios(values, statistics.median(then)):>26s}" if then else ""
            print(f"  {name:48s} {_spread(values):>22s}   {versus}")
        agent = inside["import + Agent(...)"]
        cpu = inside["import + Agent(...), CPU time"]
        verdict = "holds" if statistics.median(agent) <= TARGET_SECONDS else "NOT met"
        print(f"  target: import + Agent(...) <= {TARGET_SECONDS} s at the median: {verdict} (wall); "
              f"{'holds' if statistics.median(cpu) <= TARGET_SECONDS else 'NOT met'} (its CPU time, which another "
              "process's load does not lengthen)")  # fmt: skip
        for stage, modules in loaded.items():
            print(f"  heavy modules loaded {stage}: {', '.join(modules) or 'none'}")
        print("  largest import costs of the first Agent(...) (self time, python -X importtime, one process):")
        for name, seconds in top_imports(scratch):
            print(f"    {seconds * 1000:7.1f} ms  {name}")


if __name__ == "__main__":
    main()
