"""What a command needs beyond the sandbox's default: the network (to which hosts), or the kernel's environment.

Read off the simple commands the classifier found, so ``c''url``, ``/usr/bin/pip`` and ``bash -c 'pip …'`` are seen
the same way. Pure: a command in, an ``Escalation`` out. The policy turns an escalation into a question for the
person ("this command will have network access to pypi.org, files.pythonhosted.org"); the shell executor turns an
approved one into a sandbox with a proxy and, for installers, a writable environment prefix.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from zeph_nb.shell.rules import NETWORK, SimpleCommand

__all__ = ["ANY_HOST", "Escalation", "escalation_of", "merge"]

ANY_HOST = "*"
PYPI = ("pypi.org", "files.pythonhosted.org")
CONDA = ("conda.anaconda.org", "repo.anaconda.com", "*.anaconda.org")
NPM = ("registry.npmjs.org",)
CRATES = ("crates.io", "index.crates.io", "static.crates.io")
_URL_HOST = re.compile(r"^([a-z][a-z0-9+.-]*)://(?:[^/@\s]*@)?(\[[0-9a-f:.]+\]|[^/:?#\s]+)(?::(\d+))?", re.IGNORECASE)
_DEFAULT_PORTS = {"http": "80", "https": "443"}
_SCP_HOST = re.compile(r"^(?:[\w.-]+@)?([a-z0-9][\w.-]*\.[a-z]{2,}|[a-z0-9][\w.-]*):(?!//)", re.IGNORECASE)
_PIP_NET = frozenset({"install", "download", "wheel", "index", "search"})
_CONDA_NET = frozenset({"install", "create", "update", "upgrade", "search", "env"})
_NPM_NET = frozenset({"install", "i", "ci", "add", "update", "upgrade", "publish", "view", "info", "audit", "outdated"})
_GIT_NET = frozenset({"clone", "fetch", "pull", "push", "ls-remote", "submodule"})
_CARGO_NET = frozenset({"install", "fetch", "update", "search", "publish"})
_UV_NET = frozenset({"add", "sync", "lock", "run", "tool", "venv"})


@dataclass(frozen=True)
class Escalation:
    """``hosts``: the network it needs (``("*",)`` for hosts it cannot tell); ``environment``: the installer that
    writes the kernel's environment (``"python"``, ``"conda"``), else None."""

    hosts: tuple[str, ...] = ()
    environment: str | None = None

    @property
    def network(self) -> bool:
        return bool(self.hosts)

    def __bool__(self) -> bool:
        return self.network or self.environment is not None


def merge(escalations: Iterable[Escalation]) -> Escalation:
    """One escalation for a whole command line: every host any part needs (any host wins), the first installer."""
    hosts: list[str] = []
    environment = None
    for e in escalations:
        hosts += [h for h in e.hosts if h not in hosts]
        environment = environment or e.environment
    if ANY_HOST in hosts:
        hosts = [ANY_HOST]
    return Escalation(tuple(hosts), environment)


def hosts_in(args: Iterable[str]) -> list[str]:
    """Hosts named by URL or ``user@host:path`` arguments; ``host:port`` when a URL names a port other than its
    scheme's own (the proxy lets through 80 and 443 unless a port is granted)."""
    found: list[str] = []
    for arg in args:
        url = _URL_HOST.match(arg)
        if url:
            host = url.group(2).strip("[]").lower().rstrip(".")
            port = url.group(3)
            if port and port != _DEFAULT_PORTS.get(url.group(1).lower()):
                host = f"{host}:{port}"
        else:
            scp = _SCP_HOST.match(arg) if "@" in arg or "." in arg.split(":")[0] else None
            host = scp.group(1).lower().rstrip(".") if scp else ""
        if host and host not in found:
            found.append(host)
    return found


def _positional(args: list[str]) -> list[str]:
    return [a for a in args if not a.startswith("-")]


def _pip(args: list[str]) -> Escalation:
    words = _positional(args)
    if not words or words[0] not in _PIP_NET:
        return Escalation()
    named = hosts_in(a.split("=", 1)[-1] for a in args)  # --index-url=https://…, -i https://…
    hosts = tuple(dict.fromkeys([*PYPI, *named]))
    writes = words[0] == "install" and not {"-t", "--target", "--prefix", "--root", "--user"} & set(args)
    return Escalation(hosts, "python" if writes else None)


def escalation_of(command: SimpleCommand) -> Escalation:
    """What one simple command needs beyond the default sandbox (often nothing)."""
    name, args = command.name, list(command.argv[1:])
    words = _positional(args)
    if re.fullmatch(r"pip[\d.]*", name):
        return _pip(args)
    if re.fullmatch(r"python[\d.]*", name) and args[:2] == ["-m", "pip"]:
        return _pip(args[2:])
    if name == "uv":
        if words[:1] == ["pip"]:
            return _pip(args[args.index("pip") + 1 :])
        if words[:1] and words[0] in _UV_NET:
            return Escalation(PYPI, None)
        return Escalation()
    if name in ("conda", "mamba", "micromamba"):
        if words and words[0] in _CONDA_NET:
            return Escalation(CONDA, "conda" if words[0] in ("install", "update", "upgrade") else None)
        return Escalation()
    if name in ("npm", "pnpm", "yarn"):
        return Escalation(NPM) if (words and words[0] in _NPM_NET) or (name == "yarn" and not words) else Escalation()
    if name == "cargo":
        return Escalation(CRATES) if words and words[0] in _CARGO_NET else Escalation()
    if name == "git":
        # `git -C dir clone …`: the subcommand is the first word that is not an option's value.
        sub = next((w for w in words if w in _GIT_NET), None)
        if sub is None:
            return Escalation()
        named = tuple(hosts_in(args))
        if not named and sub == "clone":
            return Escalation()  # a clone of a local path: no URL, no network
        return Escalation(named or (ANY_HOST,))
    if name in NETWORK:
        return Escalation(tuple(hosts_in(args)) or (ANY_HOST,))
    return Escalation()
