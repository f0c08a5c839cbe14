"""Settings: the one place that reads configuration.

Where settings come from, first found wins for the file, then the environment on top:

1. ``Settings.load(path)`` with an explicit path (it must exist), else ``$ZEPH_CONFIG``;
2. ``zeph.toml`` in the working directory;
3. ``config.toml`` in the zeph home (``$ZEPH_HOME``, default ``~/.zeph``);
4. built-in defaults.

Every leaf key can be overridden by an environment variable named after its dotted path:
``agent.max_tool_iterations`` ← ``ZEPH_AGENT_MAX_TOOL_ITERATIONS``, ``tools.shell.timeout`` ←
``ZEPH_TOOLS_SHELL_TIMEOUT`` (one named after a key's old place, ``ZEPH_TOOLS_RETRY_MAX_ATTEMPTS``, still sets it
where it lives now, with a deprecation warning: see ``legacy.py``). Values are read as TOML (``30``, ``false``,
``["a", "b"]``) and otherwise as a plain string. ``ANTHROPIC_API_KEY``, ``OPENAI_API_KEY`` and the person's name
for approvals (``JUPYTERHUB_USER``, else the login name) and the hub's server name are read here too, so no other
module touches the environment.

Invalid configuration raises ``ConfigError`` naming the file, the key and what is allowed.
"""

from __future__ import annotations

import difflib
import getpass
import json
import logging
import os
import sys
import tomllib
import warnings
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from pydantic import (
    BaseModel,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic.fields import FieldInfo

from zeph_nb.config.audit import AuditSettings
from zeph_nb.config.code_search import IndexSettings
from zeph_nb.config.common import _Section
from zeph_nb.config.explain import explain, model_type
from zeph_nb.config.gates import GatesSettings
from zeph_nb.config.legacy import legacy_env, migrate_data
from zeph_nb.config.managed import MANAGED_ENV, ManagedSettings, managed_file, merge
from zeph_nb.config.mcp import McpServer, McpSettings
from zeph_nb.config.memory import MemorySettings
from zeph_nb.config.not_here import TABLES as TABLES_NOT_HERE
from zeph_nb.config.output import OutputSettings
from zeph_nb.config.scheduler import SchedulerSettings
from zeph_nb.config.sections import (
    MAX_PATTERN_LEN,
    AgentSettings,
    AnomalySettings,
    AuthorizationRule,
    AuthorizationSettings,
    DependencyRule,
    DependencySettings,
    FileSettings,
    FilterSettings,
    LLMSettings,
    NamedProvider,
    OverflowSettings,
    PermissionRule,
    Regex,
    ResultCacheSettings,
    RetrySettings,
    ScrapeSettings,
    SecretScanSettings,
    ShellSettings,
    StoreSettings,
    TafcSettings,
    ToolsSettings,
)
from zeph_nb.config.skills import SkillsSettings
from zeph_nb.config.undo import UndoSettings
from zeph_nb.errors import ConfigError
from zeph_nb.security.journal import settle, suspects
from zeph_nb.security.provenance import default_home, journal_for

# The tables are this module's names too: `from zeph_nb.config import ShellSettings` keeps working.
__all__ = [
    "MAX_PATTERN_LEN",
    "AgentSettings",
    "AnomalySettings",
    "AuditSettings",
    "AuthorizationRule",
    "AuthorizationSettings",
    "DependencyRule",
    "DependencySettings",
    "FileSettings",
    "FilterSettings",
    "GatesSettings",
    "LLMSettings",
    "ManagedSettings",
    "McpServer",
    "McpSettings",
    "NamedProvider",
    "OutputSettings",
    "OverflowSettings",
    "PermissionRule",
    "Regex",
    "ResultCacheSettings",
    "RetrySettings",
    "ScrapeSettings",
    "SecretScanSettings",
    "Settings",
    "ShellSettings",
    "StoreSettings",
    "TafcSettings",
    "ToolsSettings",
    "UndoSettings",
    "agent_wrote_config",
    "leaf_fields",
]


log = logging.getLogger("zeph_nb.config")

# ZEPH_* names that are not settings keys.
_ENV_NON_KEYS = frozenset({"ZEPH_HOME", "ZEPH_CONFIG", MANAGED_ENV})


def _default_home() -> Path:
    return default_home()


def _user_home() -> Path:
    try:
        return Path.home()
    except (KeyError, RuntimeError):  # no HOME and no passwd entry
        return Path("/")


def _jupyter_dirs(env: Mapping[str, str] | None = None) -> tuple[Path, ...]:
    """Jupyter's config, data and runtime directories (the runtime one holds the server's token), as
    ``jupyter_core.paths`` finds them on Linux and macOS, without importing it."""
    env = os.environ if env is None else env
    home = _user_home()
    data = Path(env["JUPYTER_DATA_DIR"]) if env.get("JUPYTER_DATA_DIR") else None
    if data is None:
        xdg = env.get("XDG_DATA_HOME")
        data = Path(xdg) / "jupyter" if xdg else home / ".local" / "share" / "jupyter"
    found = [
        Path(env["JUPYTER_CONFIG_DIR"]) if env.get("JUPYTER_CONFIG_DIR") else home / ".jupyter",
        Path(env["JUPYTER_RUNTIME_DIR"]) if env.get("JUPYTER_RUNTIME_DIR") else data / "runtime",
        home / "Library" / "Jupyter" / "runtime",
    ]
    if env.get("XDG_RUNTIME_DIR"):
        found.append(Path(env["XDG_RUNTIME_DIR"]) / "jupyter")
    return tuple(dict.fromkeys(path.expanduser() for path in found))


def _libpq_files(env: Mapping[str, str] | None = None) -> tuple[Path, ...]:
    """The files libpq reads credentials from when the environment names them (a password file, a service file,
    a client key), and the system-wide service file: how a kernel reaches a team's audit database as its person,
    hidden from every tool like ~/.pgpass."""
    env = os.environ if env is None else env
    found = [Path(env[name]) for name in ("PGPASSFILE", "PGSERVICEFILE", "PGSSLKEY") if env.get(name)]
    found.append(Path(env.get("PGSYSCONFDIR") or "/etc/postgresql-common") / "pg_service.conf")
    return tuple(dict.fromkeys(path.expanduser() for path in found))


def _default_user() -> str:
    """Who is at the keyboard, for "approved by" and "granted by" (recorded, never trusted for access)."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no passwd entry and no LOGNAME/USER (some containers)
        return "unknown"


class Settings(_Section):
    """Everything zeph-nb can be configured with. Build one with ``Settings.load()`` or ``Settings.from_toml()``."""

    not_here = TABLES_NOT_HERE  # the reference agent's tables zeph-nb does not have, each refused saying why

    agent: AgentSettings = Field(default_factory=AgentSettings)
    tools: ToolsSettings = Field(default_factory=ToolsSettings)
    gates: GatesSettings = Field(default_factory=GatesSettings)
    output: OutputSettings = Field(default_factory=OutputSettings)
    audit: AuditSettings = Field(default_factory=AuditSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    store: StoreSettings = Field(default_factory=StoreSettings)
    undo: UndoSettings = Field(default_factory=UndoSettings)
    mcp: McpSettings = Field(default_factory=McpSettings)
    skills: SkillsSettings = Field(default_factory=SkillsSettings)
    memory: MemorySettings = Field(default_factory=MemorySettings)
    scheduler: SchedulerSettings = Field(default_factory=SchedulerSettings)
    index: IndexSettings = Field(default_factory=IndexSettings)
    # Not TOML keys: filled in by the loader.
    home: Path = Field(default_factory=_default_home, exclude=True)
    source: str | None = Field(None, exclude=True, description="the file these settings were read from")
    origins: dict[str, str] = Field(default_factory=dict, exclude=True, description="dotted key -> where it came from")
    managed: ManagedSettings | None = Field(
        None, exclude=True, description="the organisation's managed settings applied over these, when there are any"
    )
    anthropic_api_key: SecretStr | None = Field(None, exclude=True)
    openai_api_key: SecretStr | None = Field(None, exclude=True)
    provider_keys: dict[str, SecretStr] = Field(
        default_factory=dict, exclude=True, description="[[llm.providers]] name -> the key its api_key_env held"
    )
    qdrant_api_key: SecretStr | None = Field(
        None, exclude=True, description="the key [index] qdrant_api_key_env named, read from the environment"
    )
    user: str = Field(default_factory=_default_user, exclude=True, description="the person approvals name")
    server_name: str = Field(
        "", exclude=True, description="the hub's name for this server (JUPYTERHUB_SERVER_NAME; '' is the default one)"
    )
    user_home: Path = Field(default_factory=_user_home, exclude=True, description="whose credentials to hide")
    jupyter_dirs: tuple[Path, ...] = Field(
        default_factory=_jupyter_dirs, exclude=True, description="Jupyter's config and runtime dirs, hidden from tools"
    )
    database_credentials: tuple[Path, ...] = Field(
        default_factory=_libpq_files, exclude=True, description="libpq's credential files, hidden from tools"
    )
    python_prefix: Path = Field(
        default_factory=lambda: Path(sys.prefix),
        exclude=True,
        description="the kernel's Python environment, which an approved pip install may write",
    )
    conda_prefix: Path | None = Field(
        default_factory=lambda: Path(os.environ["CONDA_PREFIX"]) if os.environ.get("CONDA_PREFIX") else None,
        exclude=True,
        description="the active conda environment, which an approved conda install may write",
    )

    @field_validator("home")
    @classmethod
    def _expand_home(cls, value: Path) -> Path:
        return value.expanduser()

    @model_validator(mode="after")
    def _reviewers_need_the_hub(self) -> Settings:
        # The managed file is checked on its own first, so a managed decided_by brings its key and database in the
        # same file: a user who could name either could answer their own requests.
        approval = self.gates.approval
        if approval.decided_by == "reviewers" and not (approval.review_key and self.store.audit_url):
            raise ValueError('gates.approval.decided_by = "reviewers" needs gates.approval.review_key (the hub '
                             "service's public key: `zeph-nb hub-key PATH` makes it and prints the line) and "
                             "store.audit_url (the team's database), where reviewers' answers come from")  # fmt: skip
        return self

    @classmethod
    def from_toml(cls, text: str, *, source: str = "<string>") -> Settings:
        """Settings from TOML text alone: no file lookup and no environment, so the result is reproducible."""
        data = _parse_toml(text, source)
        return _build(data, source=source, origins=_origins_of(data, f"file:{source}"))

    @classmethod
    def load(cls, path: str | os.PathLike[str] | None = None, *, env: Mapping[str, str] | None = None) -> Settings:
        """Settings from the first config file found (see the module docstring), with ``ZEPH_*`` overrides, and
        the managed settings over them all."""
        env = os.environ if env is None else env
        managed = _read_managed(env)  # first: a bad managed file stops everything, before any user file is read
        home = default_home(env)
        file = _find_config_file(path, env, home)
        data: dict[str, Any] = {}
        origins: dict[str, str] = {}
        if file is not None:
            try:
                text = file.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as e:
                raise ConfigError(f"{file}: cannot read the config file: {e}") from None
            data = _parse_toml(text, str(file))
            origins = _origins_of(data, f"file:{file}")
        source = str(file) if file is not None else None
        _apply_env(data, origins, env, source or "environment")
        extra: dict[str, Any] = {"home": home, "jupyter_dirs": _jupyter_dirs(env),
                                 "database_credentials": _libpq_files(env)}  # fmt: skip
        if env.get("CONDA_PREFIX"):
            extra["conda_prefix"] = env["CONDA_PREFIX"]
        api_key = env.get("ANTHROPIC_API_KEY")
        if api_key:
            extra["anthropic_api_key"] = api_key
        if env.get("OPENAI_API_KEY"):
            extra["openai_api_key"] = env["OPENAI_API_KEY"]
        if env.get("JUPYTERHUB_USER"):  # on a hub the login name is the person, the Unix user often is not
            extra["user"] = env["JUPYTERHUB_USER"]
        if env.get("JUPYTERHUB_SERVER_NAME"):
            extra["server_name"] = env["JUPYTERHUB_SERVER_NAME"]
        settings = _build(data, source=source, origins=origins, extra=extra)
        if managed is not None:
            settings = _apply_managed(settings, *managed)
        keys = {entry.name: SecretStr(env[entry.api_key_env]) for entry in settings.llm.providers
                if entry.api_key_env and env.get(entry.api_key_env)}  # fmt: skip
        secrets: dict[str, Any] = {"provider_keys": keys} if keys else {}
        qdrant_env = settings.index.qdrant_api_key_env
        if qdrant_env and env.get(qdrant_env):
            secrets["qdrant_api_key"] = SecretStr(env[qdrant_env])
        return settings.model_copy(update=secrets) if secrets else settings

    def with_managed(self, env: Mapping[str, str] | None = None) -> Settings:
        """These settings with the managed settings applied, when there are any and they are not applied yet:
        what an agent given ``Settings.from_toml(...)`` or ``Settings()`` runs under."""
        if self.managed is not None:
            return self
        managed = _read_managed(os.environ if env is None else env)
        return self if managed is None else _apply_managed(self, *managed)

    def describe(self) -> dict[str, tuple[Any, str]]:
        """Every leaf key with its effective value and where it came from (``default``, ``file:…``, ``env:…``,
        ``managed:…``)."""
        flat = _flatten(self.model_dump(mode="json"))
        return {key: (value, self._origin(key)) for key, value in flat.items()}

    def set_by(self, key: str) -> str:
        """Who decided dotted ``key``, for a refusal: ``tools.network_hosts is capped at ["pypi.org"] by
        /etc/zeph-nb/managed.toml (managed)``, else ``tools.network_hosts (from zeph.toml)``."""
        if self.managed is not None and self.managed.manages(key):
            return self.managed.says(key)
        origin = self._origin(key)
        return f"{key} (from {origin.removeprefix('file:').removeprefix('env:')})"

    def _origin(self, key: str) -> str:
        """Where ``key`` came from: its own origin, or its table's when the whole table was set at once (a JSON
        environment variable for gates.dependencies.rules sets every key under it)."""
        while key:
            if key in self.origins:
                return self.origins[key]
            key = key.rpartition(".")[0]
        return "default"


_TABLES = [name for name, field in Settings.model_fields.items() if not field.exclude]
_NOT_KEYS = [name for name, field in Settings.model_fields.items() if field.exclude]


def _find_config_file(path: str | os.PathLike[str] | None, env: Mapping[str, str], home: Path) -> Path | None:
    explicit = path if path is not None else env.get("ZEPH_CONFIG")
    if explicit is not None:
        file = Path(explicit).expanduser()
        if not file.is_file():
            what = "the path given to Settings.load()" if path is not None else "$ZEPH_CONFIG"
            raise ConfigError(f"{file}: no such config file ({what}); create it or point to an existing file")
        written = journal_for(home).agent_written(file)
        if written is not None:
            raise ConfigError(f"{file} was {written.describe()}; an agent's file is not config. Read it, then run "
                              f"%zeph trust {file} (or save it yourself) to use it")  # fmt: skip
        return file
    # A config file a running command may have just created is not trusted; one a dead command left is set aside;
    # one an agent's call wrote (provenance) is never config, however long after, until the person accepts it.
    settle(home)
    untrusted = suspects(home)
    for candidate in (Path.cwd() / "zeph.toml", home / "config.toml"):
        if candidate.is_file() and candidate not in untrusted and not agent_wrote_config(home, candidate):
            return candidate
    return None


def _read_managed(env: Mapping[str, str]) -> tuple[Path, dict[str, Any], Settings] | None:
    """The managed file, its data and its settings alone, or None when there is none. Anything wrong with it is a
    ConfigError naming it: a policy that cannot be read is not silently no policy."""
    path = managed_file(env)
    if path is None:
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: cannot read the managed settings file: {e}") from None
    data = _parse_toml(text, str(path))
    return path, data, _build(data, source=str(path), origins=_origins_of(data, f"managed:{path}"))


def _apply_managed(settings: Settings, path: Path, data: dict[str, Any], layer: Settings) -> Settings:
    """``settings`` with the managed file's keys applied last (``managed.merge``); each user value it refuses is
    said once, as a warning naming the key, the managed file and where the user's value came from."""
    leaves = {dotted for dotted, _ in leaf_fields()}
    keys = {leaf for leaf in (_leaf_of(key, leaves) for key in _flatten(data)) if leaf}
    if "gates.policy.policy_file" in keys:
        keys.add("gates.policy.rules")  # the file's rules are what it sets
    origins = dict(settings.origins)

    def user_set(key: str) -> bool:
        if key == "gates.policy.rules" and user_set("gates.policy.policy_file"):
            return True  # a user's policy file set their rules
        return any(o == key or o.startswith(key + ".") or key.startswith(o + ".") for o in origins)

    def whose(key: str) -> str:
        found = settings._origin(key)
        if found == "default":
            found = next((o for k, o in origins.items() if k.startswith(key + ".")), "the settings given")
        return found.removeprefix("file:").removeprefix("env:")

    merged, managed, kept = merge(settings.model_dump(), layer.model_dump(), keys, path=path, user_set=user_set,
                                  whose=whose)  # fmt: skip
    for key in keys - kept:  # a user's tighter value keeps its own origin
        for origin in [o for o in origins if o == key or o.startswith(key + ".")]:
            del origins[origin]
        origins[key] = f"managed:{path}"
    for line in managed.refused:
        # Once per process: a kernel loads settings for every agent and every %%zeph cell, and IPython shows a
        # warning again in each cell; the same line said twenty times reads as twenty problems.
        if line not in _SAID:
            _SAID.add(line)
            warnings.warn(line, UserWarning, stacklevel=3)
    _as_written(merged, [*settings.mcp.servers, *layer.mcp.servers])
    extra = {name: getattr(settings, name) for name in _NOT_KEYS}
    extra.update(origins=origins, managed=managed)
    try:
        return Settings.model_validate({**merged, **extra}, context={"source": settings.source, "rules_read": True})
    except ValidationError as e:
        raise ConfigError(explain(e, str(path), origins, Settings, _TABLES)) from None


def _as_written(merged: dict[str, Any], servers: list[Any]) -> None:
    """Each MCP server entry of ``merged`` with only the keys its file set: its checks tell a key written from a
    default (``sandbox`` on a url server is refused as meaningless), and a dump would have written them all."""
    written = {server.name: server.model_fields_set | {"name"} for server in servers}
    entries = (merged.get("mcp") or {}).get("servers") or []
    merged.setdefault("mcp", {})["servers"] = [
        {key: value for key, value in entry.items() if key in written.get(entry.get("name"), entry)}
        for entry in entries
    ]


def _leaf_of(key: str, leaves: set[str]) -> str:
    """The key a flattened dotted path is under (``gates.dependencies.rules.deploy.requires`` is under
    ``gates.dependencies.rules``, a table of tables set whole); "" for an empty table, which sets nothing."""
    while key and key not in leaves:
        key = key.rpartition(".")[0]
    return key


def agent_wrote_config(home: Path, file: Path) -> bool:
    """Whether ``file`` holds what an agent's tool call wrote (and the person has not accepted it since): then it
    is not read as config, and the person is told once how to accept it."""
    written = journal_for(home).agent_written(file)
    if written is None:
        return False
    if file not in _TOLD:
        _TOLD.add(file)
        log.warning("zeph-nb: %s is not read as config: it was %s. Read it; if you want it, run %%zeph trust %s "
                    "(or save it yourself)", file, written.describe(), file)  # fmt: skip
    return True


_TOLD: set[Path] = set()
_SAID: set[str] = set()  # the managed file's refusals said so far (_apply_managed)


def _parse_toml(text: str, source: str) -> dict[str, Any]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        fix = "Fix that line (the docs' Settings page has the format)."
        raise ConfigError(f"{source}: malformed TOML: {e}. {fix}") from None
    migrate_data(data, source)  # the seeds' older names, read where they live now (with a warning)
    return data


def _build(
    data: dict[str, Any], *, source: str | None, origins: dict[str, str], extra: dict[str, Any] | None = None
) -> Settings:
    for key in _NOT_KEYS:
        if key in data:
            raise ConfigError(f"{source}: '{key}' is not a config key; allowed top-level tables: {', '.join(_TABLES)}")
    try:
        return Settings.model_validate({**data, **(extra or {}), "source": source, "origins": origins},
                                       context={"source": source})  # fmt: skip
    except ValidationError as e:
        raise ConfigError(explain(e, source or "defaults", origins, Settings, _TABLES)) from None


def leaf_fields(model: type[BaseModel] = Settings, prefix: str = "") -> Iterator[tuple[str, FieldInfo]]:
    """Every key, dotted, with its field: a value, a list, or a table of tables (dependencies.rules, permissions),
    which is set whole. Tables of settings are walked into."""
    for name, field in model.model_fields.items():
        if field.exclude:
            continue
        nested = model_type(field.annotation)
        if nested is not None:
            yield from leaf_fields(nested, f"{prefix}{name}.")
        else:
            yield f"{prefix}{name}", field


def _leaf_keys() -> dict[str, str]:
    """Environment variable name -> dotted key, for every key an env var may set (as TOML or JSON)."""
    return {"ZEPH_" + dotted.replace(".", "_").upper(): dotted for dotted, _ in leaf_fields()}


def _apply_env(data: dict[str, Any], origins: dict[str, str], env: Mapping[str, str], source: str) -> None:
    if not any(name.startswith("ZEPH_") and name not in _ENV_NON_KEYS for name in env):
        return  # the usual case; the tables below take ~2 ms to make, on every Settings.load() (each new Agent)
    known = _leaf_keys()
    variable_of = {dotted: name for name, dotted in known.items()}
    older = legacy_env(known.values())
    for name, raw in env.items():
        if not name.startswith("ZEPH_") or name in _ENV_NON_KEYS:
            continue
        dotted = known.get(name) or older.get(name)
        if dotted is not None and name not in known:
            new_name = variable_of[dotted]
            wins = f"{new_name} is set too, and wins" if new_name in env else f"read as {dotted}"
            warnings.warn(f"{name} names the old place of {dotted} ({wins}); set {new_name} instead",
                          DeprecationWarning, stacklevel=3)  # fmt: skip
            if new_name in env:
                continue
        if dotted is None:
            hint = difflib.get_close_matches(name, known, n=1)
            did_you_mean = f"; did you mean {hint[0]}?" if hint else ""
            warnings.warn(f"{name} is not a zeph-nb setting and is ignored{did_you_mean}", stacklevel=3)
            continue
        *parents, leaf = dotted.split(".")
        table = data
        for part in parents:
            child = table.setdefault(part, {})
            if not isinstance(child, dict):
                raise ConfigError(f"{source}: '{part}' must be a table to be overridden by {name}")
            table = child
        table[leaf] = _env_value(raw)
        origins[dotted] = f"env:{name}"


def _env_value(raw: str) -> Any:
    """A variable's value as TOML (``5``, ``false``, ``["a"]``, ``{deploy = {requires = ["test"]}}``), else as JSON
    (``{"deploy": {"requires": ["test"]}}``: what a shell or a CI file most often holds for a table), else text."""
    try:
        return tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        pass
    if raw.lstrip()[:1] in ("{", "["):
        try:
            return json.loads(raw)
        except ValueError:
            pass
    return raw


def _origins_of(data: Mapping[str, Any], origin: str, prefix: str = "") -> dict[str, str]:
    return {key: origin for key in _flatten(data, prefix)}


def _flatten(data: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, Mapping) and value and dotted != "gates.permissions":
            flat.update(_flatten(value, dotted + "."))
        else:
            flat[dotted] = value
    return flat
