"""grep: our tool (both engines) against raw ripgrep on the same generated tree, in the same process.

The baseline is `rg` run directly with the same flags the tool uses; the ratios say what the sandbox filtering,
result capping and Python plumbing cost on top of it, and what the pure-Python fallback costs.

The curve: the same tree with a marker planted on 0, 10, 100, 400, 1,000 and 10,000 random lines, one pattern per
count, so the cost per match shows (every matching file is read again through the sandbox before its lines are
shown). The tool shows at most 500 matches and stops rg there, so the 1,000 and 10,000 rows also measure stopping
early; 400 is the worst case: every match confirmed and rg run to the end.
"""

from __future__ import annotations

import functools
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
RG_FLAGS = ["--null", "-n", "-b", "--no-heading", "--hidden", "--no-ignore", "--sort=path"]


# Match counts of the curve; each count n has its own marker word on n random lines of the tree.
CURVE = (0, 10, 100, 400, 1000, 10000)
CURVE_ROUNDS = 7


def marker(count: int) -> str:
    return f"mark{count:05d}x"


def build_tree(root: Path, files: int = 2000, lines: int = 400, seed: int = 1) -> int:
    rng = random.Random(seed)
    # Distinct (file, line) slots per count: the 10,000-row pattern matches exactly 10,000 lines.
    planted: dict[tuple[int, int], list[str]] = {}
    for count in CURVE:
        for slot in rng.sample(range(files * lines), count):
            planted.setdefault(divmod(slot, lines), []).append(marker(count))
    total = 0
    for i in range(files):
        folder = root / f"pkg{i % 40}" / f"mod{i % 7}"
        folder.mkdir(parents=True, exist_ok=True)
        rows = []
        for n in range(lines):
            words = [rng.choice(WORDS) for _ in range(8)]
            rows.append(" ".join(words + planted.get((i, n), [])))
        text = "\n".join(rows) + "\n"
        (folder / f"file{i}.py").write_text(text)
        total += len(text)
    return total


def curve(rg: str, root: Path, executor: FileExecutor) -> None:
    """Ratio of the tool (ripgrep engine) to raw rg per match count; both timed in each round, alternately."""
    print(f"  matches   rg p50    tool/rg min / median / max   ({CURVE_ROUNDS} rounds, baseline: raw rg, same flags)")
    for count in CURVE:
        pattern = marker(count)
        ratios, bases = [], []
        for _ in range(CURVE_ROUNDS):
            start = time.perf_counter()
            done = subprocess.run([rg, *RG_FLAGS, "-e", pattern, "--", str(root)], capture_output=True, check=False)
            base = time.perf_counter() - start
            start = time.perf_counter()
            out = executor.run("grep", pattern=pattern)
            ours = time.perf_counter() - start
            ratios.append(ours / base)
            bases.append(base)
        found = done.stdout.count(b"\n")
        shown = len(out.raw["matches"]) if out.raw else 0
        assert found == count, (found, count)
        print(
            f"  {count:7d}  {statistics.median(bases) * 1000:6.1f} ms  {min(ratios):5.2f}x / "
            f"{statistics.median(ratios):5.2f}x / {max(ratios):5.2f}x   (tool shows {shown})"
        )


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
            ours = {name: best_of(3, functools.partial(tool, ex)) for name, ex in engines.items()}
            print(
                f"  {label:14s} rg {base * 1000:7.1f} ms | tool+rg {ours['ripgrep'] / base:5.2f}x"
                f" | tool+python {ours['python'] / base:6.1f}x"
            )
        curve(rg, root, engines["ripgrep"])


if __name__ == "__main__":
    main()
