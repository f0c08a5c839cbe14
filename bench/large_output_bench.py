"""One large output: what it costs to scan, filter, redact and keep, and whether keeping it slows with what is
already kept (issue 45: a 15.9 MB shell output cost 2.5-2.9 s, and the flush of one 15.8 MB overflow row grew with
the overflow rows stored before it: 0.3 s with 1, 8.5 s and a 2.3 GB peak with 103).

(a) A 15.9 MB command log through the shell tool's output pipeline (escapes stripped, secret scan, filter, redaction,
    overflow into a real store), and the secret scan alone. Baseline in the same run: ``text.splitlines()`` and a
    join of the same text, the least any pass over its lines costs. Ratios min/median/max over rounds.
(b) A curve: storing one 15 MB overflow row (``put_overflow`` and the flush that copies it into the database) in a
    home that already holds 0, 1, 10, 40, 100 of them. Each point runs in a fresh subprocess, so its peak RSS
    (``resource.getrusage(RUSAGE_SELF).ru_maxrss``) is that store's alone. Baseline: the first point (0 stored).

``python -m bench.large_output_bench [--quick]`` (--quick: curve points 0, 1, 10).
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SIZE = 15_900_000
ROUNDS = 5
STORED = (0, 1, 10, 40, 100)
ROW = 15_000_000


def command_log(size: int, seed: int = 45) -> str:
    """A build-and-test log that does not repeat: timestamps, paths, ids, counts, a few lines a secret scanner and
    a filter look at twice (``--flags``, ``token``, URLs, ``key=``), no real credential."""
    rnd = random.Random(seed)
    shapes = (
        "{ts} INFO  worker-{w} handled GET /api/v1/items/{n} in {ms} ms (cache {hit})",
        "{ts} DEBUG session {hx} refreshed token expiry={n}s for user u{w}",
        "tests/test_module_{w}.py::test_case_{n} PASSED                                  [{pc}%]",
        "{ts} WARN  retrying https://mirror{w}.example.org/pkg-{n}.tar.gz after {ms} ms",
        "  compiling src/module_{w}/file_{n}.c -O2 --std=c11 -Wall -o build/obj_{hx}.o",
        "{ts} INFO  cache key={hx} size={n} bytes evicted={hit}",
    )
    lines, total, i = [], 0, 0
    while total < size:
        line = rnd.choice(shapes).format(
            ts=f"2024-05-01T12:{i // 3600 % 60:02d}:{i // 60 % 60:02d}.{i % 1000:03d}Z",
            w=rnd.randrange(64),
            n=rnd.randrange(1_000_000),
            ms=rnd.randrange(2000),
            hit=rnd.choice(("hit", "miss")),
            hx=f"{rnd.getrandbits(64):016x}",
            pc=i * 100 // 200_000 % 101,
        )
        lines.append(line)
        total += len(line) + 1
        i += 1
    return "\n".join(lines) + "\n"


def _spread(samples: list[float], base: list[float]) -> str:
    ratios = sorted(s / statistics.median(base) for s in samples)
    low, middle, high = ratios[0], statistics.median(ratios), ratios[-1]
    took = statistics.median(samples) * 1000
    return f"{took:9.1f} ms   min {low:6.2f}x  median {middle:6.2f}x  max {high:6.2f}x"


def _timed(action: object, rounds: int) -> list[float]:
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        action()  # type: ignore[operator]
        samples.append(time.perf_counter() - start)
    return samples


def one_output(rounds: int = ROUNDS) -> None:
    from zeph_nb.config import Settings
    from zeph_nb.output.pipeline import OutputPipeline
    from zeph_nb.security.secrets import scan_secrets
    from zeph_nb.store.store import Store
    from zeph_nb.tools.base import ToolCall, ToolOutput
    from zeph_nb.tools.shell.executor import BASH

    text = command_log(SIZE)
    print(f"\n== one large output: a {len(text) / 1e6:.1f} MB command log ({text.count(chr(10)):,} lines) ==")
    floor = _timed(lambda: "\n".join(text.splitlines()), rounds)
    print(f"  baseline: splitlines + join {statistics.median(floor) * 1000:.1f} ms (median of {rounds})")
    print(f"  {'secret scan alone':34s}{_spread(_timed(lambda: scan_secrets(text), rounds), floor)}")
    with tempfile.TemporaryDirectory(prefix="zeph-large-") as tmp:
        settings = Settings.from_toml("").model_copy(update={"home": Path(tmp) / "zeph", "user_home": Path(tmp)})
        store = Store(settings, flusher=False)
        pipeline = OutputPipeline(settings, store, "bench")
        output = ToolOutput("bash", text, {"stdout": text, "stderr": "", "exit_code": 0}, exit_code=0)
        call = ToolCall("bash", {"command": "make test"}, "c1")
        samples = _timed(lambda: pipeline.process(call, output, BASH), rounds)
        print(f"  {'shell output pipeline (+ store)':34s}{_spread(samples, floor)}")
        store.close()


_POINT = r"""
import json, resource, sys, time
from pathlib import Path
from zeph_nb.config import Settings
from zeph_nb.store.store import Store
home, stored, size, setup = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "setup"
settings = Settings.from_toml("[output.overflow]\nmax_overflow_bytes = 0\n").model_copy(
    update={"home": home, "user_home": home.parent})
line = "".join(f"{i:09d} build step output line, nothing secret in it\n" for i in range(size // 50))
store = Store(settings, flusher=False)
start = time.perf_counter()
for n in range(stored):
    store.put_overflow("c", line[n % 10 :], tool="bash", call_id=f"s{n}")
    if n % 5 == 4 or n == stored - 1:
        store.flush()
took = time.perf_counter() - start
store.close()
print(json.dumps({"secs": took, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def _point(home: Path, count: int, *, setup: bool) -> dict[str, float]:
    done = subprocess.run([sys.executable, "-c", _POINT, str(home), str(count), str(ROW), "setup" if setup else "x"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def stored_curve(points: tuple[int, ...] = STORED) -> None:
    print(f"\n== storing one {ROW / 1e6:.0f} MB overflow row (put_overflow + flush) after N stored ones ==")
    print("  each point in a fresh subprocess; peak RSS = its ru_maxrss; baseline: the first point")
    with tempfile.TemporaryDirectory(prefix="zeph-large-curve-") as tmp:
        home = Path(tmp) / "zeph"
        have, first = 0, None
        print(f"  {'stored':>7}  {'store one row':>14}  {'x first':>8}  {'peak RSS':>10}  {'x first':>8}  {'home':>10}")
        for target in points:
            if target > have:
                _point(home, target - have, setup=True)
                have = target
            point = _point(home, 1, setup=False)
            have += 1
            first = first or point
            size = sum(f.stat().st_size for f in home.rglob("*") if f.is_file()) / 1e6
            print(
                f"  {target:>7}  {point['secs'] * 1000:11.0f} ms  {point['secs'] / first['secs']:7.2f}x  "
                f"{point['rss_mb']:7.0f} MB  {point['rss_mb'] / first['rss_mb']:7.2f}x  {size:7.0f} MB"
            )


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    one_output()
    stored_curve(STORED[:3] if "--quick" in args else STORED)


if __name__ == "__main__":
    main()
