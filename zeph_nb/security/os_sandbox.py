"""The OS sandbox: every command a tool starts runs inside bubblewrap, so what it can reach is decided by the kernel,
not by reading the command line.

Inside, by default (``bwrap_argv`` writes it once):

* the root file system read-only; the working directory and ``[tools.shell] allowed_paths`` read-write; when the
  home directory itself is writable, its dot-entries stay read-only (``~/.bashrc``, ``~/.config`` …) and so does
  every policy file and git's hooks and config;
* empty: credential stores, the zeph home, Jupyter's runtime and config dirs (``ProtectedPaths.hidden``); a private
  ``/tmp`` and ``/run`` (no Docker, D-Bus or agent sockets); a minimal ``/dev``; a ``/proc`` of its own;
* a PID namespace of its own: the kernel's processes are invisible, and when the command returns every process it
  started (``nohup``, ``setsid``, ``&``) dies with the namespace; ``--die-with-parent`` covers a killed kernel;
* no network namespace shared with the host: only loopback, and — for a call granted the network — one Unix
  socket bound in, relayed to the per-call proxy in the kernel (``netproxy``) that lets through only the hosts
  granted;
* no capabilities, even as root (``--cap-drop ALL``: measured here, root keeps them otherwise and can remount
  ``/`` read-write); a session of its own (no TIOCSTI into the person's terminal);
* limits on processes, file size and address space (``prlimit``), so a fork or write bomb hits a limit.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from zeph_nb.security.protected import PERSISTENCE_NAMES, ProtectedPaths

__all__ = ["PROXY_SOCKET", "Limits", "SandboxSpec", "SandboxStatus", "bwrap_argv", "probe", "wrap"]

# Where the network proxy's socket appears inside the sandbox (a private /tmp, so nothing else is there).
PROXY_SOCKET = "/tmp/.zeph-proxy.sock"  # noqa: S108 - inside the sandbox's own tmpfs
Mode = Literal["auto", "bwrap", "off"]
# How far below a writable root to look for git repositories whose hooks must stay read-only, and how many
# directory entries that look may read (it runs before every command: about 1 ms for 2,000 entries).
GIT_SCAN_DEPTH = 3
GIT_SCAN_ENTRIES = 2000


@dataclass(frozen=True)
class SandboxStatus:
    """Whether commands are contained here, and in words why (or why not)."""

    kind: Literal["bwrap", "none"]
    reason: str
    bwrap: str | None = None
    prlimit: str | None = None

    @property
    def active(self) -> bool:
        return self.kind == "bwrap"

    def describe(self) -> str:
        if self.active:
            return "shell commands run in an OS sandbox (bubblewrap)"
        return f"shell commands are NOT sandboxed on this machine: {self.reason}"


def _try_bwrap(bwrap: str) -> str | None:
    """None when bwrap can build the sandbox we need here, else what went wrong."""
    argv = [bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "--unshare-net",
            "--die-with-parent", "--cap-drop", "ALL", "--", "true"]  # fmt: skip
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError) as e:
        return f"bwrap could not run ({e})"
    if done.returncode != 0:
        detail = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit code {done.returncode}"
        return f"bwrap cannot create namespaces here ({detail}); user namespaces may be disabled"
    return None


@functools.lru_cache(maxsize=8)
def probe(mode: Mode = "auto") -> SandboxStatus:
    """What ``mode`` gives on this machine; the probe (one bwrap run, ~10 ms) is made once per process."""
    if mode == "off":
        return SandboxStatus("none", 'the sandbox is turned off ([tools.shell] sandbox = "off")')
    if os.uname().sysname != "Linux":
        return SandboxStatus("none", f"the OS sandbox needs Linux; this is {os.uname().sysname}")
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return SandboxStatus("none", "bubblewrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)")
    problem = _try_bwrap(bwrap)
    if problem is not None:
        return SandboxStatus("none", problem)
    return SandboxStatus("bwrap", "bubblewrap works here", bwrap=bwrap, prlimit=shutil.which("prlimit"))


@dataclass(frozen=True)
class Limits:
    """Resource limits for every process of a command; 0 means none."""

    processes: int = 4096
    file_size_bytes: int = 8 * 1024**3
    memory_bytes: int = 0

    def prlimit_args(self) -> list[str]:
        args = []
        # RLIMIT_NPROC counts the user's processes; the kernel does not apply it to root (a fork bomb as root
        # is still ended by the PID namespace when the command returns or times out).
        if self.processes:
            args.append(f"--nproc={self.processes}")
        if self.file_size_bytes:
            args.append(f"--fsize={self.file_size_bytes}")
        if self.memory_bytes:
            args.append(f"--as={self.memory_bytes}")
        return args


@dataclass(frozen=True)
class SandboxSpec:
    """Everything one sandboxed command gets. Paths are absolute and canonical."""

    workdir: Path
    writable: tuple[Path, ...]
    protected: ProtectedPaths = field(default_factory=ProtectedPaths)
    network_socket: Path | None = None  # the proxy's socket on the host, bound in at PROXY_SOCKET
    limits: Limits = field(default_factory=Limits)


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def _home_rebind(home: Path) -> list[str]:
    """Home read-only, then each of its non-dot entries read-write again: dot-files stay as they are, and no new
    dot-file (``~/.ssh/authorized_keys`` where there was no ``~/.ssh``) can be created."""
    args = ["--ro-bind", str(home), str(home)]
    try:
        entries = sorted(os.scandir(home), key=lambda e: e.name)
    except OSError:
        return args
    for entry in entries:
        if entry.name.startswith(".") or entry.is_symlink():
            continue  # a link's target is covered by whatever covers it
        args += ["--bind", entry.path, entry.path]
    return args


def _repositories(root: Path, depth: int = GIT_SCAN_DEPTH, budget: int = GIT_SCAN_ENTRIES) -> list[Path]:
    """``.git`` directories in ``root`` and a few levels below it (the working directory may be a folder of
    projects, or the home directory): their hooks and config run later, outside the sandbox, so they stay
    read-only. Bounded, because this runs before every command."""
    found: list[Path] = []
    level = [root]
    for _ in range(depth + 1):
        below: list[Path] = []
        for folder in level:
            try:
                with os.scandir(folder) as entries:
                    for entry in entries:
                        budget -= 1
                        if budget < 0:
                            return found
                        if entry.name == ".git" and entry.is_dir(follow_symlinks=False):
                            found.append(Path(entry.path))
                        elif not entry.name.startswith(".") and entry.is_dir(follow_symlinks=False):
                            below.append(Path(entry.path))
            except OSError:
                continue
        level = below
    return found


def bwrap_argv(spec: SandboxSpec, bwrap: str = "bwrap") -> list[str]:
    """The bubblewrap part of the command line (everything before the command itself)."""
    # A private /tmp and /run: the sandbox's own, empty (no sockets of Docker, D-Bus or an SSH agent).
    args = [bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--tmpfs", "/run"]  # noqa: S108
    if os.path.isdir("/var/run") and not os.path.islink("/var/run"):
        args += ["--tmpfs", "/var/run"]
    writable = [w for w in dict.fromkeys(spec.writable) if w.is_dir()]
    for root in writable:
        args += ["--bind", str(root), str(root)]
    home = spec.protected.home
    if home is not None and home.is_dir() and any(_inside(home, root) for root in writable):
        args += _home_rebind(home)
    # Read-only inside writable trees: policy files, git's hooks and config.
    readonly = list(spec.protected.readonly)
    for root in writable:
        for repo in _repositories(root):
            readonly += [repo / name.removeprefix(".git/") for name in PERSISTENCE_NAMES]
    for path in dict.fromkeys(readonly):
        if os.path.lexists(path) and not path.is_symlink() and any(_inside(path, root) for root in writable):
            args += ["--ro-bind", str(path), str(path)]
    # Hidden last, so nothing bound above can show them again. A hidden path that holds a writable root would
    # hide the work itself; the file tools still refuse it, the sandbox leaves it.
    for path in spec.protected.hidden:
        if any(_inside(root, path) and root != path for root in writable) or not os.path.lexists(path):
            continue
        if path.is_symlink():
            continue  # its canonical target is in the list too
        if path.is_dir():
            args += ["--tmpfs", str(path), "--remount-ro", str(path)]
        else:
            args += ["--ro-bind", "/dev/null", str(path)]
    if spec.network_socket is not None:
        args += ["--bind", str(spec.network_socket), PROXY_SOCKET]
    args += ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
             "--die-with-parent", "--new-session", "--cap-drop", "ALL", "--chdir", str(spec.workdir)]  # fmt: skip
    return args


def wrap(command: Sequence[str], spec: SandboxSpec, status: SandboxStatus) -> list[str]:
    """``command`` (an argv) as it runs in the sandbox: ``prlimit … -- bwrap … -- command``."""
    if not status.active or status.bwrap is None:
        raise RuntimeError("wrap() needs a working sandbox; check probe() first")
    limits = spec.limits.prlimit_args()
    head = [status.prlimit, *limits, "--"] if status.prlimit and limits else []
    return [*head, *bwrap_argv(spec, status.bwrap), "--", *command]
