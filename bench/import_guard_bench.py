"""The import guard (``security/import_guard.py``): what it costs the imports it sees, against the same imports without
it, in the same run. Each sample is a fresh interpreter (an import is paid once per process), alternating guarded
and not, so drift hits both alike:

* ``import pandas`` — about 700 modules, none from the guarded folder: the guard asks the other finders and
  checks each spec's file;
* a scripted agent run (``Agent.run_sync`` with a read, a grep and a bash call): zeph-nb's own imports on a first
  run, plus the provenance journal the run writes;
* per import, in one process: 200 of the person's modules in the guarded folder imported from a cell (each
  judged, its hash checked against the journal, compiled from source since bytecode caches there are never
  read), and 200 modules of installed code imported by installed code.

The guarded folder holds a provenance journal with 20,000 entries, as an old project's would.
"""

from __future__ import annotations

import json
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
}


def _sample(code: str, cwd: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def _in_process(work: Path, installed: Path, home: Path) -> None:
    """Per import, in one process: 200 of the person's modules imported from a cell, 200 modules of installed code
    imported by installed code; each round drops them from sys.modules first, guard on and off alternately."""
    import importlib

    from zeph_nb.security.import_guard import ImportGuard
    from zeph_nb.security.provenance import Provenance

    sys.path[:0] = [str(work), str(installed)]
    cell = os.path.join(tempfile.gettempdir(), f"ipykernel_{os.getpid()}", "1.py")
    cases = {
        "person's module, from a cell": compile("for i in range(200): __import__(f'mod{i}')", cell, "exec"),
        "installed module, by a library": compile(
            "for i in range(200): __import__(f'lib{i}')", str(installed / "library.py"), "exec"
        ),
    }
    guard = ImportGuard([work], Provenance(home))
    for label, code in cases.items():
        times: dict[str, list[float]] = {"guarded": [], "bare": []}
        for _ in range(ROUNDS * 3):
            for name in ("guarded", "bare"):
                for module in [m for m in sys.modules if m.startswith(("mod", "lib")) and m[3:].isdigit()]:
                    del sys.modules[module]
                importlib.invalidate_caches()
                if name == "guarded":
                    sys.meta_path.insert(0, guard)
                start = time.perf_counter()
                exec(code, {})  # noqa: S102 - the benchmark's own code
                times[name].append(time.perf_counter() - start)
                if name == "guarded":
                    sys.meta_path.remove(guard)
        g, b = statistics.median(times["guarded"]) / 200, statistics.median(times["bare"]) / 200
        print(f"  {label:30} bare {b * 1e6:7.1f} us   guarded {g * 1e6:7.1f} us per import   ({g / b:.2f}x)")


def _provenance_curves(tmp: Path) -> None:
    """How provenance's costs grow: reading a journal of N entries (a new kernel's first judged import) against
    json-decoding the same lines; the ctime walk after a call whose tree was too large to compare, against
    ``os.walk`` with an lstat per file over the same tree."""
    from zeph_nb.security.provenance import Provenance
    from zeph_nb.undo.written import changed_since

    print("  provenance journal, first lookup in a new process vs json.loads of its lines:")
    target = tmp / "target.py"
    target.write_text("x = 1\n")
    for entries in (1_000, 10_000, 100_000):
        home = tmp / f"home-{entries}"
        Provenance(home).record([target] * entries, tool="bash")
        raw = (home / "provenance.jsonl").read_bytes()
        start = time.perf_counter()
        [json.loads(line) for line in raw.splitlines()]
        floor = time.perf_counter() - start
        start = time.perf_counter()
        Provenance(home).agent_written(target)
        took = time.perf_counter() - start
        start = time.perf_counter()
        Provenance(home).agent_written(target)  # the next process: the first rewrote the journal smaller
        then = time.perf_counter() - start
        print(f"    {entries:>7,} entries   json.loads {floor * 1000:7.1f} ms   first lookup {took * 1000:7.1f} ms "
              f"({took / floor:.1f}x)   the next process's {then * 1000:5.1f} ms")  # fmt: skip
    print("  ctime walk after a cut-short call vs os.walk + lstat of the same tree:")
    for files in (10_000, 100_000):
        root = tmp / f"tree-{files}"
        for d in range(files // 100):
            folder = root / f"d{d}"
            folder.mkdir(parents=True)
            for f in range(100):
                (folder / f"f{f}").write_bytes(b"")
        start = time.perf_counter()
        for where, _, names in os.walk(root):
            for name in names:
                os.lstat(os.path.join(where, name))
        floor = time.perf_counter() - start
        start = time.perf_counter()
        changed_since([str(root)], time.time_ns())
        took = time.perf_counter() - start
        print(f"    {files:>7,} files     os.walk {floor * 1000:7.1f} ms   ctime walk {took * 1000:7.1f} ms   "
              f"({took / floor:.2f}x)")  # fmt: skip


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
        installed = Path(tmp) / "site"
        installed.mkdir()
        for i in range(200):
            (installed / f"lib{i}.py").write_text(f"VALUE = {i}\n")
        _in_process(work, installed, home)
        _provenance_curves(Path(tmp))
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
