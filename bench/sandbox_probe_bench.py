"""What finding out whether the sandbox works costs, once per kernel, and what showing /tmp's parts costs per call.

* The probe where bubblewrap works (one ``bwrap … true``), against the floor of starting any process
  (``subprocess.run(["true"])``) in the same run.
* The probe where it does not: in a child under ``tests/security/container_jail.py`` (new namespaces refused, as a
  container's seccomp profile does), where the steps are taken apart to name the cause — up to five bwrap runs.
* ``shown_from_tmp`` (what of the real /tmp a command sees) against the whole ``bwrap_argv`` it is part of.

Min / median / max over rounds; the probe is uncached here (``_probe``), as a fresh kernel makes it.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from zeph_nb.security.os_sandbox import SandboxSpec, bwrap_argv, shown_from_tmp
from zeph_nb.security.protected import ProtectedPaths
from zeph_nb.security.sandbox_probe import _probe

ROUNDS = 20
JAIL = Path(__file__).resolve().parent.parent / "tests" / "security" / "container_jail.py"
IN_JAIL = f"""
import json, sys, time
sys.path.insert(0, {str(JAIL.parent.parent.parent)!r})
from zeph_nb.security.sandbox_probe import _probe
times = []
for _ in range({ROUNDS}):
    t = time.perf_counter(); status = _probe("auto"); times.append((time.perf_counter() - t) * 1000)
print(json.dumps({{"cause": status.cause, "ms": times}}))
"""


def _times(fn: Callable[[], object], rounds: int = ROUNDS) -> list[float]:
    out = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def _line(label: str, ms: list[float], floor: float) -> None:
    print(f"  {label:44} {min(ms):7.2f} / {statistics.median(ms):7.2f} / {max(ms):7.2f} ms"
          f"   {statistics.median(ms) / floor:5.1f}x the floor")  # fmt: skip


def main() -> None:
    print("sandbox probe (once per kernel) — min / median / max")
    floor_ms = _times(lambda: subprocess.run(["true"], check=True))
    floor = statistics.median(floor_ms)
    _line("floor: subprocess.run(['true'])", floor_ms, floor)
    works = _probe("auto")
    _line(f"probe where it works ({works.cause})", _times(lambda: _probe("auto")), floor)
    done = subprocess.run([sys.executable, str(JAIL), "--", sys.executable, "-c", IN_JAIL], capture_output=True,
                          text=True, timeout=300, check=True)  # fmt: skip
    jailed = json.loads(done.stdout)
    _line(f"probe in a container refusing it ({jailed['cause']})", jailed["ms"], floor)
    with tempfile.TemporaryDirectory(dir="/tmp") as folder:
        work = Path(folder)
        spec = SandboxSpec(work, (work,), ProtectedPaths(home=Path.home()))
        rounds = ROUNDS * 50
        argv_ms = _times(lambda: bwrap_argv(spec, "bwrap", [sys.executable]), rounds)
        shown_ms = _times(lambda: shown_from_tmp(spec, [sys.executable]), rounds)
        print(
            f"  per call: shown_from_tmp {statistics.median(shown_ms):.3f} ms of bwrap_argv's "
            f"{statistics.median(argv_ms):.3f} ms (median of {rounds})"
        )


if __name__ == "__main__":
    main()
