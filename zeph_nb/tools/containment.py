"""Containment from the settings: which paths are protected, and what one command gets when it runs.

The security layer holds the mechanisms (``ProtectedPaths``, ``bwrap_argv``, ``NetworkProxy``) and knows nothing of
the settings; this module is where the two meet, so the file tools, the shell, the diagnostics tool and the
policy all compute the same answer.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import pwd
import shutil
import stat
import time
from dataclasses import dataclass
from pathlib import Path

from zeph_nb.config import Settings
from zeph_nb.security.escalations import ANY_HOST, Escalation, escalation_of, merge
from zeph_nb.security.gitguard import neutralize_repository
from zeph_nb.security.journal import GuardJournal
from zeph_nb.security.os_sandbox import Limits, SandboxSpec, SandboxStatus, git_repositories, git_sensitive, probe
from zeph_nb.security.protected import CREDENTIAL_PATHS, ProtectedPaths, system_secrets
from zeph_nb.security.shell_classifier import ShellAnalysis
from zeph_nb.tools.base import ToolArgs

__all__ = [
    "CommandScope",
    "HostGuard",
    "command_scope",
    "describe_sandbox",
    "environment_prefix",
    "protected_paths",
    "sandbox_spec",
    "sandbox_status",
    "scope_of",
]

_MB = 1024 * 1024
log = logging.getLogger("zeph_nb.tools")


def sandbox_status(settings: Settings) -> SandboxStatus:
    """Whether commands are contained here under ``[tools.shell] sandbox`` (probed once per process); when the
    settings turned it off, the reason says where (a file, or ``ZEPH_TOOLS_SHELL_SANDBOX``), so a person knows
    what to change."""
    status = probe(settings.tools.shell.sandbox)
    if settings.tools.shell.sandbox == "off":
        origin = settings.origins.get("tools.shell.sandbox", "default")
        where = origin.removeprefix("env:").removeprefix("file:")
        return dataclasses.replace(status, reason=f'the sandbox is turned off (tools.shell.sandbox = "off" in {where})')
    return status


def _config_files(settings: Settings, workdir: Path) -> list[tuple[Path, str]]:
    files = [
        (workdir / "zeph.toml", "the zeph-nb config file the kernel reads"),
        (workdir / "filters.toml", "the output filter rules the kernel reads"),
        (Path.cwd() / "zeph.toml", "the zeph-nb config file the kernel reads"),
        (Path.cwd() / "filters.toml", "the output filter rules the kernel reads"),
    ]
    if settings.source:
        source = Path(settings.source)
        files += [(source, "the zeph-nb config file in use"), (source.parent / "filters.toml", "output filter rules")]
    if settings.tools.filters.filters_path:
        files.append((Path(settings.tools.filters.filters_path).expanduser(), "the output filter rules in use"))
    return files


# protected_paths() expands links in ~70 paths (about 6 ms); every command needs it, so it is kept for a few
# seconds per set of inputs — long enough for a run's calls, short enough to see a credential folder that is
# replaced by a link.
_PROTECTED_TTL_SECS = 5.0
_protected_cache: dict[tuple[object, ...], tuple[float, ProtectedPaths]] = {}


def protected_paths(settings: Settings, workdir: str | os.PathLike[str]) -> ProtectedPaths:
    """The paths no tool may read (credentials, zeph's state, Jupyter's) or write (config and policy files)."""
    key = (
        os.fspath(workdir), os.getcwd(), settings.home, settings.user_home, settings.jupyter_dirs, settings.store.path,
        settings.source, settings.tools.filters.filters_path, tuple(settings.tools.shell.hidden_paths),
        tuple(settings.tools.file.deny_read),
    )  # fmt: skip
    now = time.monotonic()
    cached = _protected_cache.get(key)
    if cached is not None and now - cached[0] < _PROTECTED_TTL_SECS:
        return cached[1]
    if len(_protected_cache) > 64:
        _protected_cache.clear()
    protected = _protected_paths(settings, workdir)
    _protected_cache[key] = (now, protected)
    return protected


def _protected_paths(settings: Settings, workdir: str | os.PathLike[str]) -> ProtectedPaths:
    home = settings.user_home
    work = Path(os.path.realpath(workdir))
    # $HOME may not be the account's home (a kernel started with HOME=/elsewhere): hide both.
    homes = list(dict.fromkeys([home, _account_home() or home]))
    store_dir = Path(settings.store.path).expanduser().parent if settings.store.path else settings.home
    hidden: list[tuple[Path | str, str]] = [
        (h / name, "it holds credentials") for h in homes for name in CREDENTIAL_PATHS
    ]
    hidden += [(path, "only the system may read it") for path in system_secrets()]
    hidden += [
        (settings.home, "zeph-nb's own state: audit log, grants, approvals and their key"),
        (home / ".zeph", "zeph-nb's own state"),
        (store_dir, "zeph-nb's store: audit log, grants, approvals and their key"),
    ]
    hidden += [(path, "Jupyter's config and runtime files (server tokens)") for path in settings.jupyter_dirs]
    extra = settings.tools.shell.hidden_paths
    hidden += [(_under(work, path), "listed in [tools.shell] hidden_paths") for path in extra]
    # deny_read entries that name a path (not a glob) are hidden from commands too, not only from the file tools.
    for pattern in settings.tools.file.deny_read:
        if not any(ch in pattern for ch in "*?[{!"):
            hidden.append((_under(work, pattern), "listed in [tools.file] deny_read"))
    readonly = [(path, why) for path, why in _config_files(settings, work)]
    return ProtectedPaths.build(home=home, hidden=hidden, readonly=readonly)


def _account_home() -> Path | None:
    try:
        return Path(pwd.getpwuid(os.getuid()).pw_dir)
    except (KeyError, OSError):
        return None


def _under(workdir: Path, path: str) -> Path:
    expanded = Path(os.path.expanduser(path))
    return expanded if expanded.is_absolute() else workdir / expanded


def environment_prefix(settings: Settings, kind: str) -> Path:
    """Where an installer of ``kind`` writes: the active conda environment, else this interpreter's prefix."""
    if kind == "conda" and settings.conda_prefix is not None:
        return settings.conda_prefix
    return settings.python_prefix


@dataclass(frozen=True)
class CommandScope:
    """What one shell call will get, in the words the approval card uses.

    ``sandboxed`` False means the command runs as the kernel's own user with nothing between it and the machine:
    because the person approved ``sandbox: false``, or because no sandbox works here (``status`` says why).
    """

    status: SandboxStatus
    sandboxed: bool
    hosts: tuple[str, ...] = ()  # the network it gets: () none, ("*",) any host
    environment: Path | None = None  # an environment prefix it may write
    unsandboxed_requested: bool = False
    required: bool = False  # [tools.shell] sandbox = "bwrap": without a working sandbox nothing runs

    @property
    def extras(self) -> tuple[str, ...]:
        """What the call gets beyond the sandbox's default, one line each (empty: nothing)."""
        lines = []
        if self.unsandboxed_requested:
            lines.append("runs WITHOUT the OS sandbox: it can read, write and reach everything you can")
        elif self.sandboxed and self.hosts:
            shown = "any host" if ANY_HOST in self.hosts else ", ".join(self.hosts)
            lines.append(f"this command will have network access to {shown}")
        if self.sandboxed and self.environment is not None and not self.unsandboxed_requested:
            lines.append(f"this command can install into the kernel's environment ({self.environment})")
        return tuple(lines)

    @property
    def refused(self) -> str | None:
        """Why no command may run at all: the sandbox is required here (``sandbox = "bwrap"``) and does not work."""
        if self.status.kind == "none" and self.required and not self.unsandboxed_requested:
            return f'the OS sandbox is required ([tools.shell] sandbox = "bwrap") but {self.status.reason}'
        return None

    @property
    def label(self) -> str:
        """For the audit row: bwrap, none (no sandbox works here) or unsandboxed (approved outside it)."""
        if self.unsandboxed_requested:
            return "unsandboxed"
        return "bwrap" if self.sandboxed else "none"


def command_scope(
    settings: Settings, escalation: Escalation, *, network: bool, hosts: tuple[str, ...], sandbox: bool
) -> CommandScope:
    """The scope of a call whose analysis found ``escalation`` and whose arguments ask for ``network``, ``hosts``
    and ``sandbox``."""
    status = sandbox_status(settings)
    required = settings.tools.shell.sandbox == "bwrap"
    if not sandbox:
        return CommandScope(status, False, unsandboxed_requested=True, required=required)
    if not status.active:
        return CommandScope(status, False, required=required)
    wanted = list(escalation.hosts)
    for host in hosts:
        if host not in wanted:
            wanted.append(host.lower().rstrip("."))
    if network and not wanted:
        wanted = [ANY_HOST]
    if ANY_HOST in wanted:
        wanted = [ANY_HOST]
    environment = environment_prefix(settings, escalation.environment) if escalation.environment else None
    return CommandScope(status, True, tuple(wanted), environment)


def scope_of(settings: Settings, args: ToolArgs | None, analysis: ShellAnalysis | None) -> CommandScope:
    """The scope of a validated ``bash`` call (``network``, ``hosts`` and ``sandbox`` read off its arguments)."""
    escalation = merge(escalation_of(command) for command in (analysis.commands if analysis is not None else ()))
    hosts = getattr(args, "hosts", None) or ()
    return command_scope(
        settings,
        escalation,
        network=bool(getattr(args, "network", False)),
        hosts=tuple(str(h) for h in hosts),
        sandbox=bool(getattr(args, "sandbox", True)),
    )


def sandbox_spec(
    settings: Settings,
    workdir: str | os.PathLike[str],
    *,
    environment: Path | None = None,
    network_socket: Path | None = None,
) -> SandboxSpec:
    """The bubblewrap layout for one command in ``workdir``."""
    shell = settings.tools.shell
    work = Path(os.path.realpath(workdir))
    writable = [work, *(Path(os.path.realpath(_under(work, path))) for path in shell.allowed_paths)]
    if environment is not None:
        writable.append(Path(os.path.realpath(environment)))
    memory = shell.max_memory_mb
    if memory is None:
        memory = _physical_memory() // 2 // _MB
    limits = Limits(shell.max_processes, shell.max_file_size_mb * _MB, memory * _MB)
    protected = protected_paths(settings, work)
    # The kernel's own environment may live inside the working directory (./.venv): a .pth file or a module
    # written there runs in the kernel, outside the sandbox. Read-only unless this call was granted it.
    prefixes = [p for p in (settings.python_prefix, settings.conda_prefix) if p is not None and p != environment]
    protected = dataclasses.replace(
        protected, readonly=(*protected.readonly, *(Path(os.path.realpath(p)) for p in prefixes))
    )
    return SandboxSpec(work, tuple(writable), protected, network_socket, limits)


def _physical_memory() -> int:
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError):
        return 0


def describe_sandbox(settings: Settings, workdir: str | os.PathLike[str]) -> str:
    """One sentence for ``%zeph status``, the transcript and the dashboard: is the shell contained, and how."""
    status = sandbox_status(settings)
    if not status.active:
        return f"{status.describe()}; every command that may change anything asks first"
    shell = settings.tools.shell
    writable = ", ".join([os.fspath(workdir), *shell.allowed_paths])
    network = "no network unless a call is approved" if shell.allow_network else "never any network"
    return (
        f"on (bubblewrap): commands write only in {writable}; credentials, zeph's state and Jupyter's runtime files "
        f"are hidden; {network}; nothing they start outlives the call"
    )


class HostGuard:
    """What a command may not leave behind on the host, checked around it: ``with HostGuard(...) as guard:`` then
    ``guard.notes`` says what was undone.

    * policy files (``zeph.toml``, ``filters.toml``) and git's hooks, config and pointers that were absent and now
      exist are removed (a journal in the zeph home covers a kernel that dies mid-command, or a file the guard
      cannot remove); a policy file that was a link is put back as it was;
    * a repository that appeared — or whose ``.git`` is no longer what it was (a link replaced by a folder) — is
      stripped of hooks and of config keys git itself does not write; a new ``.git`` pointer file is removed.
    """

    def __init__(self, settings: Settings, spec: SandboxSpec) -> None:
        self.home = settings.home
        self.writable = list(spec.writable)
        repos = git_repositories(self.writable)
        candidates = [*spec.protected.readonly]
        candidates += [
            path for repo in repos if repo.is_dir() and not repo.is_symlink() for path in git_sensitive(repo)
        ]
        self.absent = [path for path in dict.fromkeys(candidates) if not os.path.lexists(path)]
        # Links among the policy files: a command may replace the link (its target is elsewhere, so read-only
        # binds do not hold it); they are put back.
        self.links = {path: os.readlink(path) for path in spec.protected.readonly if path.is_symlink()}
        self.repos = {repo: _identity(repo) for repo in repos}
        self.notes: list[str] = []
        self._journal = GuardJournal(self.home, self.absent + list(self.links))
        self._keep_journal = False

    def __enter__(self) -> HostGuard:
        self._journal.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self._undo()
        finally:
            if not self._keep_journal:
                self._journal.__exit__()

    def _undo(self) -> None:
        removed = [path.name for path in self.absent if self._remove(path)]
        for path, target in self.links.items():
            if path.is_symlink() and os.readlink(path) == target:
                continue
            if (not os.path.lexists(path) or self._remove(path)) and _relink(path, target):
                removed.append(f"{path.name} (put back as the link it was)")
        if removed:
            self.notes.append(
                f"zeph-nb undid {', '.join(removed)}: config files and git's hooks, config and pointers are out of "
                "reach of tools; ask the person to change them"
            )
        for repo in git_repositories(self.writable):
            if self.repos.get(repo) == _identity(repo):
                continue
            if repo.is_symlink() or not repo.is_dir():
                # A new pointer ("gitdir: elsewhere") would send the person's git to a config a command wrote.
                if self._remove(repo):
                    self.notes.append(f"zeph-nb removed {repo}: a .git pointer a command wrote")
                continue
            try:
                stripped = neutralize_repository(repo)
            except OSError:
                _make_writable(repo, recursive=True)  # a command may have taken away our own write permission
                try:
                    stripped = neutralize_repository(repo)
                except OSError as e:
                    self._keep_journal = True
                    stripped = [f"NOT cleaned ({e}); do not run git in {repo.parent} before looking at it"]
            if stripped:
                self.notes.append(
                    f"zeph-nb removed from the new repository {repo}: {', '.join(stripped)} "
                    "(nothing a command writes may run later outside the sandbox)"
                )

    def _remove(self, path: Path) -> bool:
        if not os.path.lexists(path):
            return False
        for attempt in (1, 2):
            try:
                if path.is_dir() and not path.is_symlink():
                    shutil.rmtree(path)
                else:
                    path.unlink()
                break
            except OSError as e:
                if attempt == 2:
                    # Kept in the journal: Settings.load() keeps distrusting it, and sets it aside later.
                    self._keep_journal = True
                    log.warning("zeph-nb: a command created %s and it could not be removed: %s", path, e)
                    self.notes.append(f"zeph-nb could NOT remove {path} ({e}); it is not trusted as config")
                    return False
                _make_writable(path.parent)  # a command may have made the folder read-only to keep it
                _make_writable(path, recursive=path.is_dir() and not path.is_symlink())
        log.warning("zeph-nb: a command created %s; it was removed (out of reach of tools)", path)
        return True


def _identity(path: Path) -> tuple[int, int, int] | None:
    """What is at ``path``: its type and inode (a link replaced by a folder is a different thing)."""
    try:
        st = path.lstat()
    except OSError:
        return None
    return (stat.S_IFMT(st.st_mode), st.st_dev, st.st_ino)


def _make_writable(path: Path, *, recursive: bool = False) -> None:
    targets = [path]
    if recursive:
        targets += [Path(root) / name for root, dirs, files in os.walk(path) for name in (*dirs, *files)]
    for target in targets:
        with contextlib.suppress(OSError):
            if not target.is_symlink():
                target.chmod(
                    target.stat().st_mode | stat.S_IWUSR | stat.S_IRUSR | (stat.S_IXUSR if target.is_dir() else 0)
                )


def _relink(path: Path, target: str) -> bool:
    try:
        path.symlink_to(target)
    except OSError as e:
        log.warning("zeph-nb: could not put back the link %s -> %s: %s", path, target, e)
        return False
    return True
