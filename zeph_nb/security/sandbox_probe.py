"""Whether the OS sandbox can run on this machine, and when it cannot, which of the ways it fails and what fixes it.

One bubblewrap run with the options every command gets says whether it works (``probe``, once per process: a
kernel's answer does not change while it runs; restart the kernel after a fix). Only when it fails are the steps
taken apart, so the reason names the one that failed, with the fix for it:

* not Linux, or no ``bwrap`` on ``PATH``;
* no new namespaces at all: a seccomp filter refuses them (Docker's, Podman's and Kubernetes' default profiles do
  for a container that is not privileged), or the kernel's settings forbid user namespaces to an ordinary user
  (``user.max_user_namespaces = 0``, Debian's ``kernel.unprivileged_userns_clone = 0``, Ubuntu's AppArmor
  restriction);
* namespaces, but no ``/proc`` of their own: the container masks parts of the host's ``/proc``, and the kernel
  then refuses a new one to anyone but the host's root;
* no network namespace; or bubblewrap fails for another reason (its own message is kept).

Without the sandbox, commands still run, and every command line that may change anything asks first.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import shutil
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

__all__ = ["Mode", "SandboxStatus", "probe"]

Mode = Literal["auto", "bwrap", "off"]
# Why the sandbox is or is not available, as a word a test or the dashboard can switch on.
Cause = Literal["works", "off", "not-linux", "no-bwrap", "seccomp", "user-namespaces", "proc", "network", "bwrap"]

_RESTART = "then restart the kernel"
# The fixes are one clause each ("; " would split them across lines in %zeph status).
_CONTAINER_FIX = (
    "run the container with a seccomp profile that allows new namespaces (docker/podman run --security-opt "
    "seccomp=unconfined, in Kubernetes securityContext.seccompProfile.type: Unconfined), or install zeph-nb where "
    "commands can be sandboxed"
)
_PROC_FIX = (
    "let the container mount its own /proc (docker run --security-opt systempaths=unconfined, podman run "
    "--security-opt unmask=ALL, in Kubernetes securityContext.procMount: Unmasked)"
)


@dataclass(frozen=True)
class SandboxStatus:
    """Whether commands are contained here, and in words why (or why not), and what would fix it."""

    kind: Literal["bwrap", "none"]
    reason: str
    bwrap: str | None = None
    prlimit: str | None = None
    cause: Cause = "works"
    fix: str = ""  # one line: what a person does to get the sandbox ("" when it works or is turned off)
    probe_ms: float = 0.0  # what finding this out cost, once per process

    @property
    def active(self) -> bool:
        return self.kind == "bwrap"

    def describe(self) -> str:
        if self.active:
            return "shell commands run in an OS sandbox (bubblewrap)"
        return f"shell commands are NOT sandboxed on this machine: {self.reason}"

    def advice(self) -> str:
        """``describe()`` and, when the sandbox is missing, the fix: the line ``%zeph status``, the transcript's
        banner and the dashboard show."""
        return f"{self.describe()}. To fix: {self.fix}" if self.fix and not self.active else self.describe()


_TMP = "/tmp"  # noqa: S108 - a tmpfs inside the sandbox, as every command's own /tmp
# Every command's namespaces and options, in the order the steps below take them apart.
_STEPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("namespaces", ("--ro-bind", "/", "/")),
    ("proc", ("--dev", "/dev", "--proc", "/proc", "--unshare-pid")),
    ("network", ("--unshare-net",)),
    ("options", ("--die-with-parent", "--cap-drop", "ALL", "--unshare-ipc", "--new-session",
                 "--tmpfs", _TMP, "--tmpfs", "/run", "--remount-ro", "/run")),
)  # fmt: skip


def _run(bwrap: str, options: Sequence[str]) -> str | None:
    """None when ``bwrap OPTIONS -- true`` works, else its last line of complaint."""
    try:
        done = subprocess.run([bwrap, *options, "--", "true"], capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError) as e:
        return f"bwrap could not run ({e})"
    if done.returncode == 0:
        return None
    return done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit code {done.returncode}"


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return None


def _seccomp_filtered() -> bool:
    """Whether a seccomp filter is on this process (``Seccomp: 2``): a container's profile, usually."""
    status = _read("/proc/self/status") or ""
    return any(line.split(":", 1)[1].strip() == "2" for line in status.splitlines() if line.startswith("Seccomp:"))


def _no_namespaces(message: str) -> SandboxStatus:
    """Why no namespace could be made, from the kernel's settings and this process's seccomp filter."""
    # bubblewrap's own guess ("likely because the kernel does not allow…", with a Debian link) is wrong under a
    # seccomp filter: keep what it saw, and say why below.
    said = f"(bubblewrap: {message.removeprefix('bwrap: ').split(', likely because')[0]})"
    if os.geteuid() != 0:  # root needs no user namespace; these settings only limit everyone else
        if _read("/proc/sys/user/max_user_namespaces") == "0":
            return _none("user-namespaces", f"user namespaces are turned off (user.max_user_namespaces = 0) {said}",
                         f"sudo sysctl -w user.max_user_namespaces=15000, {_RESTART}")  # fmt: skip
        if _read("/proc/sys/kernel/unprivileged_userns_clone") == "0":
            return _none("user-namespaces", "user namespaces are for root only here "
                         f"(kernel.unprivileged_userns_clone = 0) {said}",
                         f"sudo sysctl -w kernel.unprivileged_userns_clone=1, {_RESTART}")  # fmt: skip
        if _read("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == "1":
            return _none("user-namespaces", "AppArmor restricts user namespaces to programs with a profile "
                         f"(kernel.apparmor_restrict_unprivileged_userns = 1) {said}",
                         "install an AppArmor profile for bwrap (Ubuntu: the bwrap-userns-restrict profile of "
                         f"apparmor-profiles) or sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0, "
                         f"{_RESTART}")  # fmt: skip
    if _seccomp_filtered():
        return _none("seccomp", "a seccomp filter on this process refuses new namespaces, as a container's default "
                     f"security profile does {said}", _CONTAINER_FIX)  # fmt: skip
    return _none("user-namespaces", f"bubblewrap cannot create namespaces here {said}",
                 "allow user namespaces for this user (or run Jupyter where they are allowed), and `bwrap "
                 "--ro-bind / / true` shows the error")  # fmt: skip


def _none(cause: Cause, reason: str, fix: str) -> SandboxStatus:
    return SandboxStatus("none", reason, cause=cause, fix=fix)


def _diagnose(bwrap: str) -> SandboxStatus:
    """Which step of the sandbox fails here: each step adds the next options to the last that worked."""
    options: list[str] = []
    for step, extra in _STEPS:
        options += extra
        problem = _run(bwrap, options)
        if problem is None:
            continue
        if problem.startswith("bwrap could not run"):
            return _none("bwrap", problem, "reinstall bubblewrap")
        if step == "namespaces":
            return _no_namespaces(problem)
        if step == "proc":
            return _none("proc", "this container hides parts of /proc, so the sandbox cannot have a /proc of its "
                         f"own (bubblewrap: {problem.removeprefix('bwrap: ')})", _PROC_FIX)  # fmt: skip
        if step == "network":
            return _none("network", f"no network namespace can be made here ({problem})",
                         "allow network namespaces in this container (the seccomp profile, CAP_NET_ADMIN is not "
                         "needed)")  # fmt: skip
        return _none("bwrap", f"bubblewrap fails here ({problem})", "`bwrap --ro-bind / / --unshare-pid "
                     "--unshare-net --cap-drop ALL true` shows the error")  # fmt: skip
    # Every step worked apart but not together (a race with a limit that has passed): say so, do not guess.
    return _none(
        "bwrap",
        "bubblewrap failed once and then worked (the check is made once per kernel)",
        f"nothing, probably: {_RESTART}",
    )


@functools.lru_cache(maxsize=8)
def probe(mode: Mode = "auto") -> SandboxStatus:
    """What ``mode`` gives on this machine, probed once per process: one bwrap run (~10 ms) when it works, up
    to four more to say why when it does not."""
    started = time.perf_counter()
    status = _probe(mode)
    return dataclasses.replace(status, probe_ms=(time.perf_counter() - started) * 1000)


def _probe(mode: Mode) -> SandboxStatus:
    if mode == "off":
        return SandboxStatus("none", 'the sandbox is turned off (tools.shell.sandbox = "off")', cause="off")
    if os.uname().sysname != "Linux":
        return _none("not-linux", f"the OS sandbox needs Linux, and this is {os.uname().sysname}",
                     "run Jupyter on Linux (a container or a VM) to sandbox commands")  # fmt: skip
    bwrap = _system_program("bwrap")
    if bwrap is None:
        return _none("no-bwrap", "bubblewrap is not installed",
                     f"sudo apt-get install bubblewrap (Fedora: dnf install bubblewrap), {_RESTART}")  # fmt: skip
    if _run(bwrap, [option for _, extra in _STEPS for option in extra]) is not None:
        return _diagnose(bwrap)
    return SandboxStatus("bwrap", "bubblewrap works here", bwrap=bwrap, prlimit=_system_program("prlimit"))


# Where the system's programs are, looked in first.
_SYSTEM_DIRS = ("/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/bin")


def _system_program(name: str) -> str | None:
    """``name`` from the system's folders, else from the absolute entries of ``PATH``. Never from an empty or
    relative entry (``PATH=$EXTRA:$PATH`` with EXTRA unset is the working directory): a ``./bwrap`` the model left
    there would be the sandbox of every later kernel, and one that drops its options runs everything unconfined."""
    absolute = [entry for entry in os.environ.get("PATH", "").split(os.pathsep) if os.path.isabs(entry)]
    found = shutil.which(name, path=os.pathsep.join([*_SYSTEM_DIRS, *absolute]))
    return found if found is not None and os.path.isabs(found) else None
