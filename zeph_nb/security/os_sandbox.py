"""The OS sandbox: every command a tool starts runs inside bubblewrap, so what it can reach is decided by the kernel,
not by reading the command line.

Inside, by default (``bwrap_argv`` writes it once):

* the root file system read-only; the working directory and ``[tools.shell] allowed_paths`` read-write; when the
  home directory itself is writable, its dot-entries stay read-only (``~/.bashrc``, ``~/.config`` …) and so does
  every policy file and git's hooks and config;
* empty: credential stores, the zeph home, Jupyter's runtime and config dirs (``ProtectedPaths.hidden``); a private
  ``/tmp`` and ``/run`` (no Docker, D-Bus or agent sockets); a minimal ``/dev``; a ``/proc`` of its own; what of
  the real ``/tmp`` the command needs to run (the kernel's environment, the tool's executable, the working
  directory, a home there) is shown in the private one at the same path, read-only (``shown_from_tmp``);
* a PID namespace of its own: the kernel's processes are invisible, and when the command returns every process it
  started (``nohup``, ``setsid``, ``&``) dies with the namespace; ``--die-with-parent`` covers a killed kernel;
* no network namespace shared with the host: only loopback, and — for a call granted the network — one Unix
  socket bound in, relayed to the per-call proxy in the kernel (``netproxy``) that lets through only the hosts
  granted (``share_network``, for an MCP server its entry grants the network, keeps the host's namespace);
* no capabilities, even as root (``--cap-drop ALL``: measured here, root keeps them otherwise and can remount
  ``/`` read-write); a session of its own (no TIOCSTI into the person's terminal);
* limits on processes, file size and address space (set by the command's own ``bash -c``, else by ``prlimit``), so
  a fork or write bomb hits a limit.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.security.hiding import hiding as _hiding
from zeph_nb.security.later import later
from zeph_nb.security.protected import ProtectedPaths, inside
from zeph_nb.security.sandbox_probe import Mode, SandboxStatus, probe
from zeph_nb.security.tree_scan import (
    AFTER_SCAN_FOLDERS,
    ENVIRONMENT_MARKERS,
    POLICY_FILE_NAMES,
    TreeScan,
    git_dir_layout,
    git_repositories,
    git_sensitive,
    holding_most,
    module_git_dirs,
    protected_in_trees,
    scan_tree,
)

__all__ = [
    "AFTER_SCAN_FOLDERS",
    "ENVIRONMENT_MARKERS",
    "ENVIRONMENT_PARTS",
    "POLICY_FILE_NAMES",
    "PROXY_SOCKET",
    "Limits",
    "Mode",
    "SandboxSpec",
    "SandboxStatus",
    "TreeScan",
    "bwrap_argv",
    "git_dir_layout",
    "git_repositories",
    "git_sensitive",
    "linked_writable",
    "module_git_dirs",
    "private_tmp",
    "probe",
    "protected_in_trees",
    "scan_tree",
    "shown_from_tmp",
    "wrap",
]

# Where the network proxy's socket appears inside the sandbox (a private /tmp, so nothing else is there).
PROXY_SOCKET = "/tmp/.zeph-proxy.sock"  # noqa: S108 - inside the sandbox's own tmpfs
log = logging.getLogger("zeph_nb.sandbox")
_TMP = Path("/tmp")  # noqa: S108 - the path every sandbox replaces with a private folder
# When the working directory is itself an environment (``python -m venv .``), these parts of it stay read-only
# rather than the whole folder: what Python imports or runs at start-up (site-packages and its .pth files,
# activation scripts, kernel specs), not the person's work beside it.
ENVIRONMENT_PARTS = ("bin", "lib", "lib64", "include", "etc", "share", "conda-meta", "pyvenv.cfg", "Lib", "Scripts")


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

    def ulimit_prefix(self) -> str:
        """The same limits set by the ``bash -c`` that runs the command, before the command: no ``prlimit`` process
        to start (measured: 1.1-1.8 ms a command). Soft and hard alike (``ulimit`` without ``-S``/``-H`` sets both),
        so the command cannot raise them (no CAP_SYS_RESOURCE in the sandbox). ``builtin``: a function of that name
        cannot stand in for it; on the same line as the command, so bash's line numbers in its errors do not move,
        and the line is parsed whole before any of it runs (a syntax error on it runs nothing, the limits neither).
        If a limit cannot be set, the command does not run (126, as when prlimit could not start it)."""
        options = []
        if self.processes:
            options.append(f"-u {self.processes}")
        if self.file_size_bytes:  # 1024-byte blocks (512 in POSIX mode: a stricter limit, never a looser one)
            options.append(f"-f {self.file_size_bytes // 1024}")  # rounded down: never looser
        if self.memory_bytes:  # KiB
            options.append(f"-v {self.memory_bytes // 1024}")
        if not options:
            return ""
        return f"builtin ulimit {' '.join(options)} || builtin exit 126; "


@dataclass(frozen=True)
class SandboxSpec:
    """Everything one sandboxed command gets. Paths are absolute and canonical."""

    workdir: Path
    writable: tuple[Path, ...]
    protected: ProtectedPaths = field(default_factory=ProtectedPaths)
    network_socket: Path | None = None  # the proxy's socket on the host, bound in at PROXY_SOCKET
    limits: Limits = field(default_factory=Limits)
    tmp_dir: Path | None = None  # the host folder the sandbox sees as /tmp; None: a tmpfs (memory)
    trees: TreeScan | None = None  # the walk of the writable trees, when the caller made it already
    # A session of its own, so the command cannot push keystrokes into the terminal it was started from
    # (TIOCSTI). Off only for a command that is alone on a tmux pane's terminal, where C-c must reach it.
    new_session: bool = True
    # The host's network namespace instead of one of its own: every host, loopback's services included, with no
    # proxy between. Only for a long-lived process whose configuration grants it (an MCP server with network =
    # true); a command granted the network gets the proxy instead.
    share_network: bool = False


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


def _git_protection(repo: Path) -> list[str]:
    """A repository's ``.git`` becomes a mount point of its own (so it can be neither renamed nor replaced: EBUSY),
    still writable for commits, with ``git_sensitive`` read-only inside it. A ``.git`` pointer file is read-only
    as a whole; a ``.git`` link is left to the guard around the command (``HostGuard``), which treats any change
    of what is at that name as a new repository."""
    if repo.is_symlink():
        return []
    if not repo.is_dir():
        return ["--ro-bind", str(repo), str(repo)]
    args = ["--bind", str(repo), str(repo)]
    for path in git_sensitive(repo):
        if os.path.lexists(path) and not path.is_symlink():
            args += ["--ro-bind", str(path), str(path)]
    return args


def _environment_root(path: Path) -> Path:
    """The Python or conda environment ``path`` is in (its folder with ``pyvenv.cfg`` or ``conda-meta``), else
    the folder a program needs beside it: ``…/bin/tool`` needs ``…/`` (its ``lib``), another file its folder."""
    for folder in (path, *path.parents):
        if folder == _TMP:
            break
        if any((folder / marker).exists() for marker in ENVIRONMENT_MARKERS):
            return folder
    if path.is_dir():
        return path
    if path.parent.name == "bin" and path.parent.parent != _TMP:
        return path.parent.parent
    # Never /tmp itself: a file directly in it (a server's script, a zip on sys.path) is shown alone.
    return path.parent if path.parent != _TMP else path


def shown_from_tmp(spec: SandboxSpec, executables: Sequence[str] = ()) -> list[Path]:
    """What under the real ``/tmp`` a command must still see in its private one: the kernel's interpreter, its
    environment and the folders it imports from, the folders on ``PATH``, the executables the command is started
    with (a checker, an MCP server's Python and script) and their environments, the working directory, allowed
    paths and home. Each is shown read-only at the same path (the writable ones are bound read-write over it); the
    rest of ``/tmp`` — other people's files and sockets, the other calls' private folders — stays out of sight.
    A clone, a conda env or a ``$HOME`` under ``/tmp`` (containers, shared machines) would otherwise vanish:
    ``execvp …/.venv/bin/ruff: No such file``."""
    writable = tuple(spec.writable)
    candidates: list[str | Path] = [*spec.writable, spec.workdir]
    if spec.protected.home is not None:
        candidates.append(spec.protected.home)
    for name in executables:
        found = shutil.which(name) if os.sep not in name else name
        if found:
            candidates.append(found)
    env = os.environ
    kernel = (env.get("PATH", ""), env.get("VIRTUAL_ENV", ""), env.get("CONDA_PREFIX", ""), tuple(sys.path))
    shown = {*_kernel_parts(*kernel, writable), *_under_tmp(candidates, writable)}
    ordered = sorted(shown, key=lambda p: len(p.parts))
    return [p for i, p in enumerate(ordered) if not any(inside(p, outer) for outer in ordered[:i])]


@functools.lru_cache(maxsize=16)
def _kernel_parts(
    path: str, virtual_env: str, conda_prefix: str, imports: tuple[str, ...], writable: tuple[Path, ...]
) -> tuple[Path, ...]:
    """The kernel's own part of ``shown_from_tmp``: its interpreter's environments, ``PATH``, and the folders it
    imports from (an editable install's source tree, which a ``python`` in the same environment imports too),
    resolved once per value of those (0.4 ms a call otherwise, measured: bench/sandbox_probe_bench.py)."""
    return tuple(_under_tmp([sys.prefix, sys.base_prefix, sys.exec_prefix, sys.executable, virtual_env,
                             conda_prefix, *path.split(os.pathsep), *imports], writable))  # fmt: skip


def _under_tmp(candidates: Sequence[str | Path], writable: Sequence[Path]) -> list[Path]:
    """The candidates under the real /tmp, each widened to what it needs. A candidate named through a writable
    folder is never followed: what it is now may be the model's link (``src`` → another user's folder in /tmp),
    and what really is there is shown through the writable folder already. The writable folders themselves count
    as they are (canonical, resolved before the call)."""
    hidden_parent = tmp_parent()
    shown: list[Path] = []
    for candidate in candidates:
        if not candidate or not os.path.isabs(candidate):
            continue
        literal = Path(os.path.normpath(candidate))
        if literal not in writable and any(inside(literal, root) for root in writable):
            continue
        real = Path(os.path.realpath(candidate))
        if real == _TMP or not inside(real, _TMP) or inside(real, hidden_parent) or not real.exists():
            continue
        shown.append(_environment_root(real))
    return shown


def bwrap_argv(spec: SandboxSpec, bwrap: str = "bwrap", executables: Sequence[str] = ()) -> list[str]:
    """The bubblewrap part of the command line (everything before the command itself); ``executables``: what the
    command is started with, shown in the private ``/tmp`` when it lives under the real one."""
    # A private /tmp, on disk (a tmpfs is memory, and a command could fill it past every limit), and an empty,
    # read-only /run: no sockets of Docker, D-Bus or an SSH agent.
    tmp = ["--bind", str(spec.tmp_dir), "/tmp"] if spec.tmp_dir is not None else ["--tmpfs", "/tmp"]  # noqa: S108
    # The other calls' private folders. Not the parent of this call's own folder: an MCP server's is in /tmp, and a
    # tmpfs over all of /tmp would put what it writes in memory.
    others = tmp_parent()
    if others.is_dir():
        tmp += ["--tmpfs", str(others)]  # the other calls' private /tmp folders, from a tmpfs /tmp too
    shown = shown_from_tmp(spec, executables)
    for path in shown:
        tmp += ["--ro-bind-try", str(path), str(path)]  # gone since (a test's clean-up): nothing to show
    args = [bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", *tmp, "--tmpfs", "/run",
            "--remount-ro", "/run"]  # fmt: skip
    # What the sandbox replaces with folders of its own: what the host has there is out of sight already.
    replaced = [_TMP, Path("/run"), *([others] if others.is_dir() else [])]
    if os.path.isdir("/var/run") and not os.path.islink("/var/run"):
        args += ["--tmpfs", "/var/run", "--remount-ro", "/var/run"]
        replaced.append(Path("/var/run"))
    writable = [w for w in dict.fromkeys(spec.writable) if w.is_dir()]
    home = spec.protected.home
    rebound = home is not None and home.is_dir() and any(inside(home, root) for root in writable)
    for root in writable:
        # The home itself is bound read-only and its folders read-write by ``_home_rebind`` below: a read-write
        # bind of it first would only be covered (and cost bubblewrap a read of the mount table).
        if not (rebound and root == home):
            args += ["--bind", str(root), str(root)]
    if rebound:
        assert home is not None
        args += _home_rebind(home)
    # Read-only inside writable trees: policy files, git's hooks and config.
    trees = spec.trees if spec.trees is not None else protected_in_trees(writable)
    for repo in trees.repositories:
        args += _git_protection(repo)
    readonly = [*spec.protected.readonly, *trees.policy_files]
    for path in dict.fromkeys(readonly):
        if os.path.lexists(path) and not path.is_symlink() and any(inside(path, root) for root in writable):
            args += ["--ro-bind", str(path), str(path)]
    # Environments: an environment removed since the walk (by the person, by a test's clean-up) protects nothing,
    # and must not fail the command (bwrap refuses a --ro-bind whose source is gone).
    for path in dict.fromkeys(_environment_parts(trees.environments, spec, writable)):
        if os.path.lexists(path) and not path.is_symlink() and any(inside(path, root) for root in writable):
            args += ["--ro-bind-try", str(path), str(path)]
    # Hidden last, so nothing bound above can show them again.
    # Folders shown read-only inside hidden ones (the zeph home's skills/): bound into the hiding tmpfs before it is
    # made read-only, since bwrap cannot make a mount point in a read-only one.
    readable = [r for r in spec.protected.readable if r.is_dir() and not any(inside(r, w) for w in writable)]
    bound = [*writable, *shown, *readable, *([Path(PROXY_SOCKET)] if spec.network_socket is not None else [])]
    for hide, is_dir in _hiding(spec.protected.hidden, writable, bound, replaced):
        if is_dir:
            inner = [r for r in readable if inside(r, Path(hide))]
            readable = [r for r in readable if r not in inner]
            args += ["--tmpfs", str(hide), *(a for r in inner for a in ("--ro-bind-try", str(r), str(r))),
                     "--remount-ro", str(hide)]  # fmt: skip
        else:
            args += ["--ro-bind", "/dev/null", str(hide)]
    for path in readable:  # in no hiding tmpfs (under the private /tmp): shown as the folders above are
        args += ["--ro-bind-try", str(path), str(path)]
    if spec.network_socket is not None:
        args += ["--bind", str(spec.network_socket), PROXY_SOCKET]
    args += ["--unshare-pid", *([] if spec.share_network else ["--unshare-net"]), "--unshare-ipc", "--die-with-parent",
             *(["--new-session"] if spec.new_session else []),
             "--cap-drop", "ALL", "--chdir", str(spec.workdir)]  # fmt: skip
    return args


def _environment_parts(environments: Sequence[Path], spec: SandboxSpec, writable: Sequence[Path]) -> list[Path]:
    """What of the environments found in the writable trees stays read-only, as the kernel's own does: the whole
    of each, less those this call may write (an approved install: the environment is one of its writable roots).
    The working directory when it is itself an environment keeps its parts read-only, not all of it; another
    writable root that is one was made writable by the person, on purpose."""
    parts: list[Path] = []
    for env in environments:
        if env == spec.workdir:
            parts += [env / name for name in ENVIRONMENT_PARTS]
        elif env not in writable:
            parts.append(env)
    return parts


def linked_writable(work: Path, paths: Sequence[Path]) -> list[Path]:
    """``paths`` (folders the configuration makes writable) resolved, leaving out any that a link inside a folder
    commands may write leads out of it: ``allowed_paths = ["data"]`` before ``data/`` exists lets the model make
    ``data`` a link (to ``~/.ipython/profile_default/startup``, to another user's folder in /tmp), and the next
    call would get the link's target read-write. Judged on the resolved path itself — the one bound — so a link
    swapped in while this runs (a pane still running) is judged too. Such an entry is not writable until the link
    is gone."""
    roots = [work]
    for path in paths:
        literal = Path(os.path.normpath(path))
        real = Path(os.path.realpath(literal))
        left = next((root for root in roots if inside(literal, root) and not inside(real, root)), None)
        if left is not None:
            log.warning("%s is not writable for commands: a link leads it out of %s, which commands can write (the "
                        "model may have made it); remove the link, or name the folder itself", path, left)  # fmt: skip
            continue
        roots.append(real)
    return roots[1:]


def tmp_parent() -> Path:
    """One parent per user for the commands' private /tmp folders, which every sandbox hides: a command sees its
    own /tmp, never another call's."""
    base = "/var/tmp" if os.access("/var/tmp", os.W_OK) else tempfile.gettempdir()  # noqa: S108
    return Path(base) / f"zeph-sandbox-{os.getuid()}"


@contextlib.contextmanager
def private_tmp(*, wait: bool = False) -> Iterator[Path]:
    """A fresh folder for one command's /tmp, on disk (``/var/tmp`` where there is one), removed afterwards: in the
    background unless ``wait``."""
    parent = tmp_parent()
    parent.mkdir(mode=0o700, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="tmp-", dir=parent))
    try:
        yield folder
    finally:
        if wait:
            shutil.rmtree(folder, ignore_errors=True)
        else:
            # Off the call's path (about 1 ms: the mount points bwrap made in it, right after its namespace went
            # away; seconds for a command that left gigabytes). Until then it is under tmp_parent(), which every
            # sandbox hides: seen by nobody.
            later(shutil.rmtree, folder, True)


def wrap(
    command: Sequence[str],
    spec: SandboxSpec,
    status: SandboxStatus,
    configured: Sequence[str] = (),
    *,
    gate_fd: int | None = None,
    env: Mapping[str, str] | None = None,
) -> list[str]:
    """``command`` (an argv) as it runs in the sandbox: ``prlimit … -- bwrap … -- command``, and for the shell's
    ``bash -c <line>``: ``bwrap … -- bash -c '<ulimit …>; <line>'``. ``configured``: files the person's configuration
    starts it with (an MCP server's script), shown when they live under /tmp.

    ``gate_fd`` (``bash -c`` only): a pipe the caller passes to the process; the command runs once a ``y`` is read
    from it, and not at all (126) if it closes without one — so what must happen before the command runs (the
    guard's journal, fsync'd) can happen while bwrap sets the sandbox up, and a caller that dies first leaves
    nothing running."""
    if not status.active or status.bwrap is None:
        raise RuntimeError("wrap() needs a working sandbox; check probe() first")
    head: list[str] = []
    if len(command) >= 3 and command[0] == "bash" and command[1] == "-c" and not bash_runs_first(env or {}):
        # The shell's own commands: the limits set by their bash itself (Limits.ulimit_prefix), not by prlimit.
        # The gate's fd is closed once read (plain ``exec``: ``builtin exec``'s redirection would be undone).
        gate = "" if gate_fd is None else (
            f"builtin read -r -N 1 -u {int(gate_fd)} _zeph_gate && [[ $_zeph_gate == y ]] && exec {int(gate_fd)}<&- "
            "&& builtin unset _zeph_gate || builtin exit 126; "
        )  # fmt: skip
        command = [*command[:2], gate + spec.limits.ulimit_prefix() + command[2], *command[3:]]
    else:
        if gate_fd is not None:
            raise ValueError(
                "a gate needs a bash -c command whose environment runs nothing before it (bash_runs_first)"
            )
        if status.prlimit and (limits := spec.limits.prlimit_args()):
            head = [status.prlimit, *limits, "--"]
    # Only the program and what the configuration names, never the other arguments: a model's command line that
    # is itself a path under /tmp must not make another user's folder there appear.
    started_with = [command[0], *(path for path in configured if os.path.isabs(path) and os.path.exists(path))]
    sandbox = bwrap_argv(spec, status.bwrap, started_with)
    if len(sandbox) + 1 + len(command) > BWRAP_MAX_ARGS:
        raise _too_many_mounts(spec, len(sandbox) + 1 + len(command))
    return [*head, *sandbox, "--", *command]


# bubblewrap refuses a command line of more arguments than this ("Exceeded maximum number of arguments 9000", its
# MAX_ARGS, counting its own name and the command's). Each protected file under a writable folder is three of them.
BWRAP_MAX_ARGS = 9000


def _too_many_mounts(spec: SandboxSpec, count: int) -> ToolError:
    """What a person is told when the writable folders hold more to protect than one bubblewrap command line can
    mount: which folders, what in them costs the mounts, and what to do. Refused rather than run with less protected:
    each of these mounts is what keeps a command from rewriting a policy file, a git hook or an environment."""
    trees = spec.trees if spec.trees is not None else protected_in_trees([w for w in spec.writable if w.is_dir()])
    parts = [
        f"{len(trees.policy_files):,} settings and policy files (zeph.toml…)",
        f"{len(trees.repositories):,} git repositories",
        f"{len(trees.environments):,} Python environments",
    ]
    roots = ", ".join(str(w) for w in dict.fromkeys(spec.writable)) or "none"
    found = [*trees.policy_files, *trees.repositories, *trees.environments]
    most = holding_most(found)
    if most is not None and any(w == most[0] or most[0] in w.parents for w in spec.writable):
        most = None  # a writable folder itself (or above it), named already: nothing narrower to look at
    where = f" ({most[1]:,} of them under {most[0]}: look there first)" if most is not None else ""
    return ToolError(
        ToolErrorCategory.PERMANENT_FAILURE,
        f"the OS sandbox cannot start this command: the folders it may write ({roots}) hold {', '.join(parts)}"
        f"{where}, each a mount of its own inside it, and that is {count:,} arguments to bubblewrap, over its limit "
        f"of {BWRAP_MAX_ARGS:,}. No command can run here until there are fewer: run from a smaller working "
        "directory, narrow [tools.shell] allowed_paths, or move out what you do not need (a command can make these "
        "too: an empty folder named .git counts; read before you remove)",
    )


def bash_runs_first(env: Mapping[str, str]) -> bool:
    """Whether ``bash -c`` with ``env`` runs something of the environment's before its line: a ``BASH_ENV`` script,
    or an exported function named ``builtin`` or ``exec`` (``BASH_FUNC_builtin%%``), which would stand in for the
    builtins the line's own limits and gate use. Then the limits come from prlimit and the guard's journal is
    written before the command starts, as they were before bash set them itself."""
    return bool(env.get("BASH_ENV")) or any(
        name.startswith("BASH_FUNC_") and name[len("BASH_FUNC_") :].rstrip("%()") in {"builtin", "exec"} for name in env
    )
