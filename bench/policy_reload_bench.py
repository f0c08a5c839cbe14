"""What following the shell policy's file costs a command (issue 49: the policy reloads when its file changes,
checked by a stat before each analysis).

Baseline in the same run: the same classifier's policy built from TOML text, which has no file to follow. The
ratio is what a call's analysis costs with the check over without it; the stat alone is printed too.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from zeph_nb.config import Settings
from zeph_nb.tools.containment import shell_classifier

LINES = ("git status && pytest -q tests/ | tail -20", "ls -la src", "python -m build && twine check dist/*")
POLICY = '[tools.shell]\nblocked_commands = ["docker"]\nconfirm_patterns = ["deploy"]\n'


def _once(classify: Callable[[str], object], n: int) -> float:
    start = time.perf_counter()
    for _ in range(n):
        for line in LINES:
            classify(line)
    return (time.perf_counter() - start) / (n * len(LINES))


def _interleaved(a: Callable[[str], object], b: Callable[[str], object], rounds: int = 15) -> tuple[float, float]:
    """Medians of rounds taken in turn, so load from elsewhere on the machine falls on both alike."""
    runs_a, runs_b = [], []
    for _ in range(rounds):
        runs_a.append(_once(a, 60))
        runs_b.append(_once(b, 60))
    return statistics.median(runs_a), statistics.median(runs_b)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "zeph.toml"
        config.write_text(POLICY)
        watched = shell_classifier(Settings.load(config))
        plain = shell_classifier(Settings.from_toml(POLICY))
        assert watched.reload is not None and plain.reload is None
        for classifier in (watched, plain):
            _once(classifier.classify, 20)  # bashlex's tables, caches
        with_check, without = _interleaved(watched.classify, plain.classify)
        check = watched.reload
        start = time.perf_counter()
        for _ in range(100_000):
            check()
        stat_us = (time.perf_counter() - start) / 100_000 * 1e6
    print(f"classify, following the file: {with_check * 1e6:8.1f} µs a line")
    print(f"classify, no file (baseline): {without * 1e6:8.1f} µs a line")
    print(f"ratio: {with_check / without:.3f}; the stat check alone: {stat_us:.1f} µs")


if __name__ == "__main__":
    main()
