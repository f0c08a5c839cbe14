"""grep: our tool (both engines) against raw ripgrep on the same generated tree, in the same process.

The baseline is `rg` run directly with the same flags the tool uses; the ratios say what the sandbox filtering,
result capping and Python plumbing cost on top of it, and what the pure-Python fallback costs.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from zeph_nb.config import Settings
from zeph_nb.tools.files.executor import FileExecutor
from zeph_nb.tools.files.grep import find_ripgrep

WORDS = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "error",
    "warning",
    "TODO",
    "fixme",
    "request",
    "response",
    "handler",
    "config",
]
# The flags the grep tool passes, so the baseline does the same work.
RG_FLAGS = ["--null", "-n", "--no-heading", "--hidden", "--no-ignore", "--sort=path"]


def build_tree(root: Path, files: int = 2000, lines: int = 400, seed: int = 1) -> int:
    rng = random.Random(seed)
    total = 0
    for i in range(files):
        folder = root / f"pkg{i % 40}" / f"mod{i % 7}"
        folder.mkdir(parents=True, exist_ok=True)
        text = "\n".join(" ".join(rng.choice(WORDS) for _ in range(8)) for _ in range(lines)) + "\n"
        (folder / f"file{i}.py").write_text(text)
        total += len(text)
    return total


def best_of(runs: int, fn: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    rg = find_ripgrep()
    if rg is None:
        print("grep bench: no rg binary; install the ripgrep wheel")
        return
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        size = build_tree(root)
        print(f"grep bench: {size / 1e6:.0f} MB in 2000 files")
        engines = {
            engine: FileExecutor(Settings.from_toml(f'[tools.file]\ngrep_engine = "{engine}"\n'), workdir=root)
            for engine in ("ripgrep", "python")
        }
        for label, pattern in [("literal, rare", "zebra"), ("regex, rare", r"fix\w+ handler\s+zeta")]:

            def raw_rg(pattern: str = pattern) -> None:
                subprocess.run([rg, *RG_FLAGS, "-e", pattern, "--", str(root)], capture_output=True, check=False)

            def tool(executor: FileExecutor, pattern: str = pattern) -> None:
                executor.run("grep", pattern=pattern)

            base = best_of(5, raw_rg)
            ours = {name: best_of(3, lambda ex=ex: tool(ex)) for name, ex in engines.items()}
            print(
                f"  {label:14s} rg {base * 1000:7.1f} ms | tool+rg {ours['ripgrep'] / base:5.2f}x"
                f" | tool+python {ours['python'] / base:6.1f}x"
            )


if __name__ == "__main__":
    main()
