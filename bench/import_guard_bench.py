"""The import guard (``security/import_guard.py``): what it costs the imports it sees, against the same imports without
it, in the same run. Each sample is a fresh interpreter (an import is paid once per process), alternating guarded
and not, so drift hits both alike:

* ``import pandas`` — about 700 modules, none from the guarded folder: the guard asks the other finders and
  checks each spec's file;
* a scripted agent run (``Agent.run_sync`` with a read, a grep and a bash call): zeph-nb's own imports on a first
  run, plus the provenance journal the run writes;
* the person's modules: 200 modules in the guarded folder, imported from a cell (each judged, and compiled from
  source since bytecode caches there are never read) — the one place the guard does work of its own.

The guarded folder holds a provenance journal with 20,000 entries, as an old project's would.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROUNDS = 7
GUARD = ("import os, sys\n"
         "from pathlib import Path\n"
         "from zeph_nb.security.import_guard import install\n"
         "from zeph_nb.security.provenance import journal_for\n"
         "install([os.getcwd()], lambda: journal_for(Path(os.environ['ZEPH_HOME'])))\n")  # fmt: skip
WORKLOADS = {
    "import pandas": "import pandas\n",
    "scripted agent run": (
        "import zeph_nb\n"
        "model = zeph_nb.ScriptedProvider([[{'tool': 'read', 'params': {'path': 'mod0.py'}}],"
        " [{'tool': 'grep', 'params': {'pattern': 'VALUE'}}], [{'tool': 'bash', 'params': {'command': 'ls'}}], 'ok'])\n"
        "assert zeph_nb.Agent(provider=model, approver=zeph_nb.DenyAll()).run_sync('go').stop_reason == 'completed'\n"
    ),
    "200 of the person's modules": (
        "import os, sys, tempfile\nsys.path.insert(0, '')\n"
        "cell = os.path.join(tempfile.gettempdir(), f'ipykernel_{os.getpid()}', '2.py')\n"  # how ipykernel names it
        "exec(compile('for i in range(200): __import__(f\"mod{i}\")', cell, 'exec'))\n"
    ),
}


def _sample(code: str, cwd: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    print("Import guard: fresh interpreters, guarded against unguarded (same run; median of "
          f"{ROUNDS}, the interpreter's own start included)")  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        work, home = Path(tmp) / "work", Path(tmp) / "home"
        work.mkdir()
        for i in range(200):
            (work / f"mod{i}.py").write_text(f"VALUE = {i}\n" + "def f(x):\n    return x + 1\n" * 20)
        from zeph_nb.security.provenance import Provenance

        journal = Provenance(home)
        other = work / "elsewhere.txt"
        other.write_text("x")
        for _ in range(200):  # 20,000 entries about one other file: what the guard reads, not what it matches
            journal.record([other] * 100, tool="bash")
        env = {**os.environ, "ZEPH_HOME": str(home)}
        for label, workload in WORKLOADS.items():
            times: dict[str, list[float]] = {"guarded": [], "bare": []}
            for _ in range(ROUNDS):
                for name, code in (("guarded", GUARD + workload), ("bare", workload)):
                    times[name].append(_sample(code, work, env))
            g, b = statistics.median(times["guarded"]), statistics.median(times["bare"])
            spread = f"guarded min/max {min(times['guarded']) * 1000:.0f}/{max(times['guarded']) * 1000:.0f} ms"
            print(f"  {label:30} bare {b * 1000:7.0f} ms   guarded {g * 1000:7.0f} ms   ({g / b:.3f}x)   {spread}")


if __name__ == "__main__":
    main()
