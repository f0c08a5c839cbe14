"""The OS sandbox: what containment costs a shell command, against the same command unsandboxed in the same run.

Three commands through ``ShellExecutor.run_command`` (so the host guard, the private /tmp and the sandbox layout
are all counted), each timed alternately sandboxed and not:

* ``true`` — the fixed cost alone;
* a ~50 ms command (``sleep 0.05``) — the target: sandboxed at most 1.25x;
* ``python -c pass`` — an interpreter start, what most notebook commands are.

Plus the raw floor: ``bwrap … true`` against ``bash -c true`` with ``subprocess.run``, no zeph-nb code at all.
"""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from zeph_nb.config import Settings
from zeph_nb.security.os_sandbox import probe
from zeph_nb.shell.escalations import Escalation
from zeph_nb.tools.containment import command_scope
from zeph_nb.tools.shell.executor import ShellExecutor

N = 30
COMMANDS = [("true", "true"), ("~50 ms (sleep 0.05)", "sleep 0.05"), ("python -c pass", f"{sys.executable} -c pass")]


def _ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


async def _measure(work: Path, home: Path) -> None:
    sandboxed = Settings().model_copy(update={"home": home, "user_home": home})
    bare = Settings.from_toml('[tools.shell]\nsandbox = "off"\n').model_copy(update={"home": home, "user_home": home})
    runners = {
        "sandboxed": (ShellExecutor(sandboxed, workdir=work), command_scope(sandboxed, Escalation(), network=False,
                                                                            hosts=(), sandbox=True)),
        "bare": (ShellExecutor(bare, workdir=work), command_scope(bare, Escalation(), network=False, hosts=(),
                                                                  sandbox=True)),
    }  # fmt: skip
    assert runners["sandboxed"][1].sandboxed and not runners["bare"][1].sandboxed
    for label, command in COMMANDS:
        times: dict[str, list[float]] = {"sandboxed": [], "bare": []}
        for _ in range(N):
            for name, (executor, scope) in runners.items():  # alternate, so drift hits both alike
                start = time.perf_counter()
                await executor.run_command(command, timeout=30, scope=scope)
                times[name].append(time.perf_counter() - start)
        s, b = _ms(times["sandboxed"]), _ms(times["bare"])
        print(f"  {label:22} unsandboxed p50 {b:7.1f} ms   sandboxed p50 {s:7.1f} ms   ({s / b:.2f}x, +{s - b:.1f} ms)")


def _floor(work: Path) -> None:
    status = probe("auto")
    assert status.bwrap is not None
    bwrap = [status.bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",  # noqa: S108
             "--bind", str(work), str(work), "--unshare-pid", "--unshare-net", "--die-with-parent",
             "--cap-drop", "ALL", "--"]  # fmt: skip
    times: dict[str, list[float]] = {"bwrap": [], "bare": []}
    for _ in range(N):
        for name, argv in (("bwrap", [*bwrap, "bash", "-c", "true"]), ("bare", ["bash", "-c", "true"])):
            start = time.perf_counter()
            subprocess.run(argv, check=True)
            times[name].append(time.perf_counter() - start)
    w, b = _ms(times["bwrap"]), _ms(times["bare"])
    print(f"  {'floor: bwrap true':22} bash -c true p50 {b:7.1f} ms   bare bwrap p50 {w:7.1f} ms   (+{w - b:.1f} ms)")


def main() -> None:
    print("OS sandbox: one shell command, sandboxed against unsandboxed (same run)")
    status = probe("auto")
    if not status.active:
        print(f"  skipped: {status.reason}")
        return
    # Outside /tmp: the sandbox has its own, so a home there would not be the one the sandbox hides.
    with tempfile.TemporaryDirectory(dir="/var/tmp") as tmp:
        work, home = Path(tmp) / "work", Path(tmp) / "home"
        work.mkdir()
        home.mkdir()
        subprocess.run(["git", "init", "-q", str(work)], check=True)
        asyncio.run(_measure(work, home))
        _floor(work)


if __name__ == "__main__":
    main()
