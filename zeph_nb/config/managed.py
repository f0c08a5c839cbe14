"""Managed settings: an organisation's policy that no user can loosen.

On a shared JupyterHub the person responsible for agents puts a TOML file outside every user's reach:
``/etc/zeph-nb/managed.toml``, or, when there is none, the file ``$ZEPH_MANAGED_SETTINGS`` names (a variable the
hub sets for every user's server). It has the tables and keys of ``zeph.toml`` and is checked the same way. It is
read first (a bad one, or one the user could change, stops the settings from loading: fail closed) and applied
last, over ``zeph.toml``, ``~/.zeph/config.toml``, the ``ZEPH_*`` variables and the settings a program passes in.

How a managed key meets a user's value of it (``combine``):

* most keys are pinned: the managed value is used, and a user's other value is ignored with a line naming both;
* where one value is plainly tighter (``sandbox`` bwrap over auto over off, ``allow_network`` false, a lower
  ``max_tool_iterations``) a user's tighter value is kept;
* deny-like lists (``blocked_commands``, ``deny_read``, ``hidden_paths``, ``disabled``, …) are joined;
* allow-like lists (``network_hosts``, ``allowed_paths``, ``allowed_hosts``, ``[[mcp.servers]]``, …) are a
  ceiling: a user's entry outside the managed list is dropped;
* rule lists (``[gates.permissions]``, ``[gates.authorization]``, ``[gates.policy]``) have the managed rules
  first; the gates keep a managed deny final and a managed ask a question (``ManagedSettings.leading``).

A front end that changes a setting later (``%%zeph --ssh``, a traitlet) asks ``ManagedSettings.refuse`` first.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from zeph_nb.errors import ConfigError
from zeph_nb.security.netproxy import host_allowed
from zeph_nb.security.printable import one_line

__all__ = [
    "DEFAULT_PATH",
    "MANAGED_ENV",
    "ManagedSettings",
    "combine",
    "host_within",
    "managed_file",
    "merge",
    "reach_problem",
    "url_allowed",
]

MANAGED_ENV = "ZEPH_MANAGED_SETTINGS"
DEFAULT_PATH = Path("/etc/zeph-nb/managed.toml")

# Loosest first: a user's value further along is tighter, and is kept.
_ORDER: dict[str, tuple[Any, ...]] = {
    "tools.shell.sandbox": ("off", "auto", "bwrap"),
    "gates.trust.level": ("trusted", "provisional", "untrusted"),
    "gates.policy.default_effect": ("allow", "deny"),
    "gates.approval.decided_by": ("user", "reviewers"),
    "memory.scope": ("user", "project"),
}
_OFF_IS_TIGHTER = frozenset({
    "tools.enabled", "tools.entry_points", "tools.shell_enabled", "tools.file_enabled", "tools.fetch_enabled",
    "tools.web_scrape_enabled", "tools.web_search_enabled", "tools.diagnostics_enabled", "tools.time_enabled",
    "tools.kernel_enabled", "tools.shell.allow_network", "tools.shell.allow_unsandboxed",
    "gates.adversarial.fail_open", "skills.enabled", "skills.project", "memory.enabled",
})  # fmt: skip
_ON_IS_TIGHTER = frozenset({
    "tools.shell.strict_paths", "tools.shell.snapshot_required", "gates.approval.shell_confirm",
    "gates.policy.enabled", "gates.authorization.enabled", "gates.anomaly.enabled", "gates.adversarial.enabled",
    "gates.adversarial.block_on_reject", "output.filters.security.enabled", "undo.required",
})  # fmt: skip
# Numbers where less is tighter; those in _ZERO_IS_UNLIMITED read 0 as no limit at all.
_AT_MOST = frozenset({
    "agent.max_tool_iterations", "tools.shell.timeout", "tools.function_timeout_secs", "tools.scrape.max_redirects",
    "tools.scrape.max_body_bytes", "gates.quota.max_tool_calls_per_session", "tools.shell.max_processes",
    "tools.shell.max_file_size_mb", "memory.max_chars",
})  # fmt: skip
_ZERO_IS_UNLIMITED = frozenset({
    "gates.quota.max_tool_calls_per_session", "tools.shell.max_processes", "tools.shell.max_file_size_mb",
})  # fmt: skip
_UNION = frozenset({
    "tools.disabled", "tools.shell.blocked_commands", "tools.shell.confirm_patterns", "tools.shell.hidden_paths",
    "tools.shell.scrub_env", "tools.file.deny_read", "gates.adversarial.policies",
    "output.filters.security.extra_patterns",
})  # fmt: skip


def host_within(entry: str, ceiling: Iterable[str]) -> bool:
    """Whether every host ``entry`` names (``pypi.org``, ``*.example.org``, ``*``) is one ``ceiling`` allows."""
    ceiling = list(ceiling)
    host, _, port = entry.rpartition(":") if entry.rpartition(":")[2].isdigit() else (entry, "", "")
    if host == "*":
        return "*" in ceiling
    if host.startswith("*."):  # a wildcard is within a ceiling entry that is the same or wider
        domain = host[2:].lower()
        if port and port not in ("80", "443"):  # an entry without a port means the web's two: another must be named
            wider = [c[2 : -len(port) - 1].lower() for c in ceiling if c.startswith("*.") and c.endswith(f":{port}")]
            return any(domain == d or domain.endswith("." + d) for d in wider)
        wider = [c[2:].lower() for c in ceiling if c.startswith("*.")]
        return "*" in ceiling or any(domain == d or domain.endswith("." + d) for d in wider)
    return host_allowed(host, ceiling, int(port) if port else None)


def _path_within(entry: str, ceiling: list[str]) -> bool:
    path = os.path.normpath(os.path.expanduser(entry))
    for allowed in ceiling:
        root = os.path.normpath(os.path.expanduser(allowed))
        if path == root or path.startswith(root.rstrip("/") + "/"):
            return True
    return False


def _url_within(entry: str, ceiling: list[str]) -> bool:
    return any(url_allowed(entry, [allowed]) for allowed in ceiling)


def url_allowed(url: str, allowed: Iterable[str]) -> bool:
    """Whether ``url`` starts with one of ``allowed`` (trailing slashes aside, case-insensitive scheme and host),
    at a path boundary: ``https://llm.corp/v1`` allows ``https://llm.corp/v1/`` but not ``https://llm.corp/v10``."""
    wanted = url.strip().rstrip("/")
    for entry in allowed:
        base = entry.strip().rstrip("/")
        if wanted.lower() == base.lower() or wanted.lower().startswith(base.lower() + "/"):
            return True
    return False


def _equal_within(entry: Any, ceiling: list[Any]) -> bool:
    return entry in ceiling


# Allow-like lists: the managed list is the most a user may have; "only these" ones read [] as no limit.
_CEILING: dict[str, Callable[[Any, list[Any]], bool]] = {
    "tools.network_hosts": host_within,
    "tools.scrape.allowed_hosts": host_within,
    "tools.scrape.allow_private": _equal_within,
    "tools.shell.allowed_paths": _path_within,
    "tools.file.allowed_paths": _path_within,
    "tools.shell.keep_env": _equal_within,
    "tools.shell.allowed_commands": _equal_within,
    "tools.file.allow_read": _equal_within,
    "llm.allowed_base_urls": _url_within,
}
_ONLY_THESE = frozenset({"tools.shell.allowed_commands", "tools.file.allow_read"})
_NAMED = frozenset({"mcp.servers", "llm.providers"})  # arrays of tables whose entries have a name
# Rule lists: the managed rules first; a user's allow rule in [gates.policy] would widen a managed default of deny.
RULE_LISTS = ("gates.permissions", "gates.authorization.rules", "gates.policy.rules")


def combine(key: str, managed: Any, user: Any, *, user_set: bool = True) -> tuple[Any, Any]:
    """The value managed ``key`` takes when a user layer says ``user``: (the value used, what of the user's is
    refused, or None when nothing is)."""
    if not user_set or (user is None and key != "gates.permissions") or user == managed:
        return managed, None
    if key == "gates.permissions":
        tools = {**(user or {}), **(managed or {})}
        return {tool: [*(managed or {}).get(tool, []), *(user or {}).get(tool, [])] for tool in tools}, None
    if key == "gates.authorization.rules":
        return [*managed, *user], None
    if key == "gates.policy.rules":
        allows = [rule for rule in user if rule.get("effect") == "allow"]
        return [*managed, *(rule for rule in user if rule.get("effect") != "allow")], allows or None
    if key in _UNION:
        joined = [*managed, *(item for item in user if item not in managed)]
        return (tuple(joined) if isinstance(managed, tuple) else joined), None
    if key in _CEILING:
        if managed is None:  # the managed file says "no limit": a user's limit is tighter
            return user, None
        within = _CEILING[key]
        kept = [item for item in user if within(item, list(managed))]
        dropped = [item for item in user if item not in kept]
        if not kept and (dropped or key in _ONLY_THESE):  # nothing left of what the user wanted: the most allowed
            return managed, dropped or user
        return kept, dropped or None
    if key in _NAMED:
        dropped = [entry for entry in user if entry not in managed]
        return managed, [entry.get("name") for entry in dropped] or None
    return _scalar(key, managed, user)


def _scalar(key: str, managed: Any, user: Any) -> tuple[Any, Any]:
    order = _ORDER.get(key)
    if order is not None and user in order and managed in order:
        tighter = order.index(user) > order.index(managed)
    elif key in _OFF_IS_TIGHTER:
        tighter = user is False
    elif key in _ON_IS_TIGHTER:
        tighter = user is True
    elif key in _AT_MOST and isinstance(user, int | float) and isinstance(managed, int | float):
        unlimited = key in _ZERO_IS_UNLIMITED
        tighter = not (unlimited and user == 0) and ((unlimited and managed == 0) or user < managed)
    else:
        tighter = False
    return (user, None) if tighter else (managed, user)


def _shown(value: Any) -> str:
    return one_line(json.dumps(value, default=str, ensure_ascii=False), 200, count_rest=True)


class ManagedSettings(BaseModel):
    """The managed layer of a ``Settings``: which keys the managed file holds, and what it decided at load."""

    model_config = ConfigDict(frozen=True)

    path: Path
    values: dict[str, Any]
    """dotted key -> the managed file's value (JSON-ready), for refusals and %zeph config"""
    leading: dict[str, int] = {}
    """a rule list ("gates.permissions.bash", "gates.policy.rules") -> how many of its first rules are managed"""
    refused: tuple[str, ...] = ()
    """one line for each user value the load ignored"""

    @property
    def keys(self) -> frozenset[str]:
        return frozenset(self.values)

    def manages(self, key: str) -> str | None:
        """The managed key that covers dotted ``key`` (itself or a table above it), else None."""
        while key:
            if key in self.values:
                return key
            key = key.rpartition(".")[0]
        return None

    def says(self, key: str) -> str:
        """``tools.shell.sandbox is set to "bwrap" by /etc/zeph-nb/managed.toml (managed)``."""
        held = self.manages(key) or key
        value = self.values.get(held)
        if held in _NAMED:  # entries by their names: their tables would fill the line
            value = [entry.get("name") for entry in value or ()]
        verb = "capped at" if held in _CEILING or held in _NAMED else "set to"
        return f"{held} is {verb} {_shown(value)} by {self.path} (managed)"

    def is_managed_rule(self, rule_list: str, index: int) -> bool:
        """Whether entry ``index`` of ``rule_list`` (``gates.permissions.bash``) came from the managed file."""
        return index < self.leading.get(rule_list, 0)

    def refuse(self, key: str, value: Any, *, by: str) -> None:
        """Raise a ConfigError naming the managed key when ``by`` (``%%zeph --ssh``) would set ``key`` looser."""
        held = self.manages(key)
        if held is None or held != key:
            return
        _, refused = combine(key, self.values[key], value)
        if refused is not None:
            raise ConfigError(f"{self.says(key)}; {by} would make it {_shown(value)} and is refused")


def reach_problem(path: Path) -> str | None:
    """Why the person running this process could change ``path`` (then it is no policy over them), or None. The
    file and its folder must belong to root or to another user, and be writable by neither group nor others (a
    world-writable folder with the sticky bit, like /tmp, is fine: only a file's owner may replace it there)."""
    me = os.geteuid()
    real = Path(os.path.realpath(path))
    for target in dict.fromkeys((path, path.parent, real, real.parent)):
        try:
            info = os.lstat(target) if target == path else os.stat(target)
        except OSError as e:
            return f"{target} cannot be checked ({e.strerror or e})"
        if stat.S_ISLNK(info.st_mode):
            continue  # a link's own bits mean nothing; its owner's folder is checked as path.parent
        sticky_dir = stat.S_ISDIR(info.st_mode) and info.st_mode & stat.S_ISVTX
        if info.st_uid == me and me != 0:
            return f"{target} belongs to you"
        if me == 0 and info.st_uid != 0:
            return f"{target} belongs to uid {info.st_uid}, not root"
        if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH) and not sticky_dir:
            return f"{target} is writable by its group or by others"
        if me != 0 and os.access(target, os.W_OK) and not sticky_dir:
            return f"you can write {target}"
    return None


def managed_file(env: Mapping[str, str]) -> Path | None:
    """The managed settings file: ``/etc/zeph-nb/managed.toml`` when it exists, else ``$ZEPH_MANAGED_SETTINGS``
    when set (it must exist), else None. Raises ConfigError for one a user could change."""
    path: Path | None = None
    if DEFAULT_PATH.exists():
        path = DEFAULT_PATH
    elif env.get(MANAGED_ENV):
        path = Path(env[MANAGED_ENV]).expanduser()
        if not path.is_absolute() or not path.is_file():
            raise ConfigError(f"{path}: no such managed settings file (${MANAGED_ENV}); the administrator who set "
                              "the variable must install the file, with an absolute path")  # fmt: skip
    if path is None:
        return None
    problem = reach_problem(path)
    if problem is not None:
        raise ConfigError(f"{path}: managed settings must be out of every user's reach, and {problem}. An "
                          f"administrator fixes it: chown root:root {path} {path.parent}; chmod 644 {path}; "
                          f"chmod 755 {path.parent}")  # fmt: skip
    return path


def _at(data: Mapping[str, Any], key: str) -> tuple[bool, Any]:
    node: Any = data
    for part in key.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return False, None
        node = node[part]
    return True, node


def _put(data: dict[str, Any], key: str, value: Any) -> None:
    *parents, leaf = key.split(".")
    node = data
    for part in parents:
        node = node.setdefault(part, {})
    node[leaf] = value


def merge(
    user: dict[str, Any],
    managed: dict[str, Any],
    keys: Iterable[str],
    *,
    path: Path,
    user_set: Callable[[str], bool],
    whose: Callable[[str], str],
) -> tuple[dict[str, Any], ManagedSettings, set[str]]:
    """``user`` (a Settings dump) with each managed key of ``managed`` (the managed file's Settings dump) applied;
    the managed layer (its values, its leading rules, and a line for each user value it refused, ``whose`` naming
    where that value came from); and the keys where the user's own, tighter, value stands."""
    merged = _copy(user)
    values: dict[str, Any] = {}
    leading: dict[str, int] = {}
    dropped: dict[str, Any] = {}
    kept: set[str] = set()
    for key in sorted(set(keys)):
        _, mine = _at(managed, key)
        _, theirs = _at(user, key)
        value, refused = combine(key, mine, theirs, user_set=user_set(key))
        _put(merged, key, value)
        if value == theirs and value != mine:
            kept.add(key)
        values[key] = json.loads(json.dumps(mine, default=str))
        if key == "gates.permissions":
            leading.update({f"{key}.{tool}": len(rules) for tool, rules in (mine or {}).items()})
        elif key in RULE_LISTS:
            leading[key] = len(mine or [])
        if refused is not None:
            dropped[key] = refused
    layer = ManagedSettings(path=path, values=values, leading=leading)
    lines = [f"zeph-nb: {layer.says(key)}; {whose(key)}'s {_shown(value)} is ignored" for key, value in dropped.items()]
    lines += _held_servers(merged, managed, set(keys), path, whose)
    orphan = _orphaned_provider(merged)
    if orphan is not None:  # the user's [llm] provider named one of their entries the ceiling dropped
        merged["llm"]["provider"] = "auto"
        lines.append(f"zeph-nb: llm.providers is set by {path} (managed); {whose('llm.provider')}'s provider "
                     f"{_shown(orphan)} is not among them, and \"auto\" is used")  # fmt: skip
    return merged, layer.model_copy(update={"refused": tuple(lines)}), kept


def _held_servers(merged: dict[str, Any], managed: dict[str, Any], keys: set[str], path: Path,
                  whose: Callable[[str], str]) -> list[str]:  # fmt: skip
    """Drop the user's own MCP servers that would step outside what the managed file holds commands to: under a
    managed ``sandbox = "bwrap"`` a command server with ``sandbox = false``; under managed ``network_hosts`` a
    command server with ``network = true`` (the host's whole network, no proxy) or a url server on a host beyond
    them. Servers the managed file lists itself are the organisation's and stay. One line for each dropped."""
    servers = (merged.get("mcp") or {}).get("servers") or []
    theirs = {entry.get("name") for entry in ((managed.get("mcp") or {}).get("servers") or ())}
    bwrap = "tools.shell.sandbox" in keys and _at(managed, "tools.shell.sandbox")[1] == "bwrap"
    hosts = _at(managed, "tools.network_hosts")[1] if "tools.network_hosts" in keys else None
    kept, lines = [], []
    for entry in servers:
        why = None
        if entry.get("name") not in theirs:
            if bwrap and entry.get("command") is not None and entry.get("sandbox") is False:
                why = 'runs with sandbox = false, and tools.shell.sandbox is set to "bwrap"'
            elif hosts is not None and entry.get("command") is not None and entry.get("network"):
                why = f"gets the host's whole network (network = true), and tools.network_hosts is capped at {hosts}"
            elif hosts is not None and entry.get("url") and not host_within(_url_host(entry["url"]), hosts):
                why = f"is on a host beyond tools.network_hosts, capped at {hosts}"
        if why is None:
            kept.append(entry)
        else:
            lines.append(f"zeph-nb: {whose('mcp.servers')}'s MCP server {entry.get('name')!r} {why} by {path} "
                         "(managed); it is not started")  # fmt: skip
    if lines:
        merged["mcp"]["servers"] = kept
    return lines


def _url_host(url: str) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(url.strip())
    host = (parts.hostname or "").lower()
    return f"{host}:{parts.port}" if parts.port else host


def _orphaned_provider(merged: dict[str, Any]) -> str | None:
    llm = merged.get("llm") or {}
    names = {entry.get("name") for entry in llm.get("providers") or ()}
    chosen = llm.get("provider", "auto")
    return None if chosen in ("auto", "anthropic", "openai", "scripted") or chosen in names else str(chosen)


def _copy(data: Any) -> Any:
    """A deep copy of a dump's dicts and lists (its values are immutable)."""
    if isinstance(data, dict):
        return {key: _copy(value) for key, value in data.items()}
    if isinstance(data, list):
        return [_copy(value) for value in data]
    return data
