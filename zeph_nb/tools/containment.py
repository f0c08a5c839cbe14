"""Containment from the settings: which paths are protected, what one command gets when it runs, and the shell
classifier that reads the command.

The security and shell layers hold the mechanisms (``ProtectedPaths``, ``bwrap_argv``, ``NetworkProxy``,
``ShellClassifier``) and know nothing of the settings; this module is where the two meet, so the file tools, the
shell, the diagnostics tool and the policy all compute the same answer.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import os
import pwd
import re
import resource
import time
from collections.abc import Sequence
from pathlib import Path

from zeph_nb.config import Settings
from zeph_nb.config.managed import host_within
from zeph_nb.config.sections import credential_files
from zeph_nb.security.netproxy import NetworkProxy
from zeph_nb.security.os_sandbox import Limits, SandboxSpec, SandboxStatus, linked_writable, probe
from zeph_nb.security.protected import CREDENTIAL_PATHS, ProtectedPaths, system_secrets
from zeph_nb.security.sockets import socket_folders
from zeph_nb.shell import ShellAnalysis, ShellClassifier
from zeph_nb.shell.escalations import ANY_HOST, Escalation, escalation_of, merge
from zeph_nb.tools.base import ToolArgs, ToolOutput
from zeph_nb.tools.install_target import installer_environment
from zeph_nb.tools.scope import CommandScope
from zeph_nb.tools.shell.path_scope import path_report

__all__ = [
    "command_scope",
    "describe_sandbox",
    "environment_prefix",
    "protected_paths",
    "sandbox_hints",
    "sandbox_spec",
    "sandbox_status",
    "scope_key",
    "scope_of",
    "shell_classifier",
]

_MB = 1024 * 1024
log = logging.getLogger("zeph_nb.tools")


def shell_classifier(settings: Settings) -> ShellClassifier:
    """The classifier under ``[tools.shell]``, the one the gates and the shell tools share (by its ``key``); it
    reads the policy again when the settings' file changes (``tools/shell/policy_reload.py``)."""
    from zeph_nb.tools.shell.policy_reload import PolicyFile

    shell = settings.tools.shell
    return ShellClassifier(
        allow_network=shell.allow_network,
        blocked_commands=shell.blocked_commands,
        confirm_patterns=shell.confirm_patterns,
        allowed_commands=shell.allowed_commands,
        reload=PolicyFile.for_settings(settings),
    )


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
    if settings.output.filters.filters_path:
        files.append((Path(settings.output.filters.filters_path).expanduser(), "the output filter rules in use"))
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
        settings.source, settings.output.filters.filters_path, tuple(settings.tools.shell.hidden_paths),
        tuple(settings.tools.file.deny_read), settings.managed.path if settings.managed is not None else None,
        settings.database_credentials, settings.store.audit_url, settings.skills.enabled,
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
    libpq = (*settings.database_credentials, *credential_files(settings.store.audit_url))
    hidden += [(path, "the team audit database's credentials (libpq)") for path in libpq]
    # The tmux server's and the SSH master connections' sockets: whoever reaches one runs commands outside every
    # sandbox. Hidden here too, not only by the sandbox's private /tmp and /run: a workdir or an allowed path of
    # /tmp would bind the real one back.
    hidden += [(path, "zeph-nb's tmux and ssh sockets") for path in socket_folders()]
    extra = settings.tools.shell.hidden_paths
    hidden += [(_under(work, path), "listed in [tools.shell] hidden_paths") for path in extra]
    # deny_read entries that name a path (not a glob) are hidden from commands too, not only from the file tools.
    for pattern in settings.tools.file.deny_read:
        if not any(ch in pattern for ch in "*?[{!"):
            hidden.append((_under(work, pattern), "listed in [tools.file] deny_read"))
    hidden += _managed_paths(settings, work)
    readonly = [(path, why) for path, why in _config_files(settings, work)]
    # The zeph home is hidden, but for its skills/: commands run the scripts there (read-only).
    skills = settings.home / "skills"
    readable = (
        [(skills, "the zeph home's skills, which tools may read, never change")] if settings.skills.enabled else []
    )
    return ProtectedPaths.build(home=home, hidden=hidden, readonly=readonly, readable=readable)


def _managed_paths(settings: Settings, work: Path) -> list[tuple[Path, str]]:
    """The managed settings file, and its folder unless that holds the working directory: policy state, like the
    grants, that no tool reads (it would tell the model what to work around) or writes."""
    if settings.managed is None:
        return []
    path = settings.managed.path
    why = "the organisation's managed settings"
    folder = Path(os.path.realpath(path.parent))
    if folder == Path("/") or work == folder or str(work).startswith(str(folder).rstrip("/") + "/"):
        return [(path, why)]
    return [(path, why), (path.parent, why)]


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


def command_scope(
    settings: Settings, escalation: Escalation, *, network: bool, hosts: tuple[str, ...], sandbox: bool
) -> CommandScope:
    """The scope of a call whose analysis found ``escalation`` and whose arguments ask for ``network``, ``hosts``
    and ``sandbox``."""
    shell = settings.tools.shell
    status = sandbox_status(settings)
    if not sandbox:
        refusal = None
        if not shell.allow_unsandboxed:
            why = "running a command outside the OS sandbox is turned off ([tools.shell] allow_unsandboxed = false)"
            refusal = ("tools.shell.allow_unsandboxed", why)
        managed = settings.managed
        if shell.sandbox == "bwrap" and managed is not None and managed.manages("tools.shell.sandbox"):
            why = f"{settings.set_by('tools.shell.sandbox')}: no command runs outside the OS sandbox"
            refusal = ("tools.shell.sandbox", why)
        return CommandScope(status, False, unsandboxed_requested=True, refusal=refusal)
    if not status.active:
        refusal = None
        if shell.sandbox == "bwrap":
            refusal = ("tools.shell.sandbox", f'the OS sandbox is required (sandbox = "bwrap") but {status.reason}')
        return CommandScope(status, False, refusal=refusal)
    wanted = list(escalation.hosts)
    for host in hosts:
        if host not in wanted:
            wanted.append(host.lower().rstrip("."))
    if network and not wanted:
        wanted = [ANY_HOST]
    if ANY_HOST in wanted:
        wanted = [ANY_HOST]
    environment = environment_prefix(settings, escalation.environment) if escalation.environment else None
    refusal = None
    if wanted and not shell.allow_network:
        refusal = (
            "tools.shell.allow_network",
            "commands may not use the network ([tools.shell] allow_network = false)",
        )
    elif wanted and settings.tools.network_hosts is not None:
        wanted, refusal = _within_ceiling(settings, wanted)
    return CommandScope(status, True, tuple(wanted), environment, refusal=refusal)


def _within_ceiling(settings: Settings, wanted: list[str]) -> tuple[list[str], tuple[str, str] | None]:
    """``[tools] network_hosts``: the hosts a command may be granted at most. "Any host" becomes those hosts; a
    host outside them refuses the call, whatever a rule, grant or person would say."""
    ceiling = list(settings.tools.network_hosts or ())
    if ANY_HOST in wanted:
        wanted = ceiling
    outside = [host for host in wanted if not host_within(host, ceiling)]
    if not wanted or outside:
        what = f"{', '.join(outside)} is outside it" if outside else "it allows no host"
        limit = settings.set_by("tools.network_hosts")
        return wanted, ("tools.network_hosts", f"no command may reach the network beyond {limit}: {what}")
    return wanted, None


def scope_key(settings: Settings, workdir: str | os.PathLike[str] | None = None) -> str:
    """A hash of what ``scope_of`` reads besides the call: the settings, whole (the ones a file sets, and the ones
    worked out of the process: homes, prefixes, the managed settings; secrets only as their masks), and the real
    working directory. Two scopes of one call with the same key are the same scope; with another key they may not
    be, whatever setting a later change makes ``scope_of`` read."""
    fields = type(settings).model_fields
    excluded = {name: repr(getattr(settings, name)) for name, info in fields.items() if info.exclude}
    inputs = [settings.model_dump(mode="json"), excluded, os.path.realpath(workdir if workdir is not None else ".")]
    return hashlib.sha256(json.dumps(inputs, sort_keys=True, default=str).encode()).hexdigest()


def scope_of(
    settings: Settings,
    args: ToolArgs | None,
    analysis: ShellAnalysis | None,
    workdir: str | os.PathLike[str] | None = None,
    *,
    key: str | None = None,
) -> CommandScope:
    """The scope of a validated ``bash`` call (``network``, ``hosts`` and ``sandbox`` read off its arguments; the
    path arguments resolved from ``workdir``, default the current directory), marked with ``scope_key`` of
    ``settings`` and ``workdir`` (``key``: that key, worked out once by the caller)."""
    work = workdir if workdir is not None else os.getcwd()
    key = key if key is not None else scope_key(settings, work)
    return dataclasses.replace(_scope_of(settings, args, analysis, work), key=key)


def _scope_of(
    settings: Settings, args: ToolArgs | None, analysis: ShellAnalysis | None, work: str | os.PathLike[str]
) -> CommandScope:
    escalation = merge(escalation_of(command) for command in (analysis.commands if analysis is not None else ()))
    hosts = getattr(args, "hosts", None) or ()
    scope = _scope_of_args(settings, args, escalation, hosts)
    if analysis is not None and scope.sandboxed and not scope.unsandboxed_requested:
        target = installer_environment(analysis, Path(os.path.realpath(work)))
        if target is not None and target not in _kernel_prefixes(settings):
            scope = dataclasses.replace(scope, environment=target, environment_label="the environment")
    if analysis is None or not analysis.paths or scope.refusal is not None:
        return scope
    protected = protected_paths(settings, work)
    report = path_report(
        settings, work, analysis.paths, protected, private_tmp=scope.sandboxed, cd_dirs=analysis.cd_dirs
    )
    return dataclasses.replace(scope, outside=report.outside, refusal=report.refusal)


def _kernel_prefixes(settings: Settings) -> set[Path]:
    return {Path(os.path.realpath(p)) for p in (settings.python_prefix, settings.conda_prefix) if p is not None}


def _scope_of_args(
    settings: Settings, args: ToolArgs | None, escalation: Escalation, hosts: Sequence[object]
) -> CommandScope:
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
    opened: Sequence[str | os.PathLike[str]] = (),
) -> SandboxSpec:
    """The bubblewrap layout for one command in ``workdir`` (``opened``: folders outside the allowed paths that
    the person approved for this call)."""
    shell = settings.tools.shell
    work = Path(os.path.realpath(workdir))
    writable = [work, *linked_writable(work, [_under(work, path) for path in shell.allowed_paths])]
    writable += [Path(os.path.realpath(path)) for path in opened]
    if environment is not None:
        writable.append(Path(os.path.realpath(environment)))
    memory = shell.max_memory_mb
    if memory is None:
        memory = _physical_memory() // 2 // _MB
    limits = Limits(
        _within_hard_limit(resource.RLIMIT_NPROC, shell.max_processes),
        _within_hard_limit(resource.RLIMIT_FSIZE, shell.max_file_size_mb * _MB),
        _within_hard_limit(resource.RLIMIT_AS, memory * _MB),
    )
    protected = protected_paths(settings, work)
    # The kernel's own environment may live inside the working directory (./.venv): a .pth file or a module
    # written there runs in the kernel, outside the sandbox. Read-only unless this call was granted it.
    prefixes = [p for p in (settings.python_prefix, settings.conda_prefix) if p is not None and p != environment]
    protected = dataclasses.replace(
        protected, readonly=(*protected.readonly, *(Path(os.path.realpath(p)) for p in prefixes))
    )
    return SandboxSpec(work, tuple(writable), protected, network_socket, limits)


def _within_hard_limit(kind: int, wanted: int) -> int:
    """``wanted`` (0: none), or the hard limit the kernel already has when that is lower. An ordinary user cannot
    raise a hard limit (nor can root without CAP_SYS_RESOURCE): prlimit would fail, and with it every command, on a
    machine whose ``ulimit -Hu`` or ``-Hv`` is below the setting (shared machines, clusters). The lower limit is in
    force inside the sandbox either way."""
    hard = resource.getrlimit(kind)[1]
    if not wanted or hard == resource.RLIM_INFINITY or hard >= wanted:
        return wanted
    return hard  # 0 (no prlimit for it): the inherited hard limit of 0 stays in force


def _physical_memory() -> int:
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError):
        return 0


def describe_sandbox(settings: Settings, workdir: str | os.PathLike[str]) -> str:
    """One sentence for ``%zeph status``, the transcript and the dashboard: is the shell contained, and how."""
    status = sandbox_status(settings)
    if not status.active:
        fix = f"; to fix: {status.fix}" if status.fix else ""
        return f"{status.describe()}; every command that may change anything asks first{fix}"
    shell = settings.tools.shell
    writable = ", ".join([os.fspath(workdir), *shell.allowed_paths])
    network = "no network unless a call is approved" if shell.allow_network else "never any network"
    return (
        f"on (bubblewrap): commands write only in {writable}; credentials, zeph's state and Jupyter's runtime files "
        f"are hidden; {network}; nothing they start outlives the call"
    )


_READ_ONLY = re.compile(r"read-only file system", re.IGNORECASE)
_NO_NETWORK = re.compile(
    r"could not resolve|temporary failure in name resolution|name or service not known|network is unreachable|"
    r"failed to establish a new connection|getaddrinfo|no route to host|nodename nor servname|"
    r"connection refused|failed to connect|unable to access|could not connect",
    re.IGNORECASE,
)


def sandbox_hints(output: ToolOutput, scope: CommandScope, proxy: NetworkProxy | None) -> list[str]:
    """Say so when the sandbox, not the command, is why it failed, and what the model may do about it."""
    if not scope.sandboxed or output.exit_code in (0, None):
        return []
    text = f"{output.raw.get('stderr', '')}\n{output.raw.get('stdout', '')}"
    hints = []
    if _READ_ONLY.search(text):
        hints.append(
            "the OS sandbox: only the working directory (and [tools.shell] allowed_paths) is writable; dot-files in "
            "your home, config files and git hooks are read-only. Write inside the working directory instead"
        )
    if proxy is None and _NO_NETWORK.search(text):
        hints.append(
            "the OS sandbox: this command had no network access. If it needs the internet, call bash again with "
            "network=true (and hosts=[...] naming what it needs); the person will be asked"
        )
    if proxy is not None and proxy.log.refused:
        refused = "; ".join(f"{where}: {why}" for where, why in proxy.log.refused.items())
        hints.append(f"the sandbox's network proxy refused {refused}. Ask again with hosts=[...] naming the host")
    if hints and scope.status.active:
        hints.append("if the task really needs more than the sandbox allows, call bash with sandbox=false; the person "
                     "will be asked")  # fmt: skip
    return hints
