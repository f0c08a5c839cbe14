"""Settings: the one place that reads configuration.

Where settings come from, first found wins for the file, then the environment on top:

1. ``Settings.load(path)`` with an explicit path (it must exist), else ``$ZEPH_CONFIG``;
2. ``zeph.toml`` in the working directory;
3. ``config.toml`` in the zeph home (``$ZEPH_HOME``, default ``~/.zeph``);
4. built-in defaults.

Every leaf key can be overridden by an environment variable named after its dotted path:
``agent.max_tool_iterations`` ← ``ZEPH_AGENT_MAX_TOOL_ITERATIONS``, ``tools.shell.timeout`` ←
``ZEPH_TOOLS_SHELL_TIMEOUT``. Values are read as TOML (``30``, ``false``, ``["a", "b"]``) and otherwise as a
plain string. ``ANTHROPIC_API_KEY``, ``OPENAI_API_KEY`` and the person's name for approvals
(``JUPYTERHUB_USER``, else the login name) are read here too, so no other module touches the environment.

Invalid configuration raises ``ConfigError`` naming the file, the key and what is allowed.
"""

from __future__ import annotations

import difflib
import getpass
import math
import os
import re
import sys
import tomllib
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, get_args, get_origin

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
)

from zeph_nb.errors import ConfigError
from zeph_nb.security.journal import settle, suspects

__all__ = ["Settings"]

MAX_PATTERN_LEN = 512
# ZEPH_* names that are not settings keys.
_ENV_NON_KEYS = frozenset({"ZEPH_HOME", "ZEPH_CONFIG"})


def _compiles(pattern: str) -> str:
    if len(pattern) > MAX_PATTERN_LEN:
        raise ValueError(f"regex is {len(pattern)} characters; at most {MAX_PATTERN_LEN} are allowed")
    try:
        re.compile(pattern)
    except re.error as e:
        raise ValueError(f"invalid regex {pattern!r}: {e}") from None
    return pattern


Regex = Annotated[str, AfterValidator(_compiles)]


def _unit_interval(default: float) -> Any:
    """A float in [0, 1]; NaN or infinity fall back to ``default``, anything else is clamped."""

    def fix(value: float) -> float:
        if not math.isfinite(value):
            return default
        return min(1.0, max(0.0, value))

    return AfterValidator(fix)


class _Section(BaseModel):
    # Unknown keys are errors (a typo must not be silently ignored); settings are values, not mutable state.
    model_config = ConfigDict(extra="forbid", frozen=True, validate_default=True)


class AgentSettings(_Section):
    """``[agent]``: how long one run may go on."""

    max_tool_iterations: int = Field(10, ge=1, le=1000)
    context_budget_tokens: int = Field(200_000, ge=0, description="0 disables the budget check")
    doom_loop_threshold: int = Field(3, ge=2, le=100)


def _default_confirm_patterns() -> list[str]:
    return [
        "rm ",
        "git push -f",
        "git push --force",
        "drop table",
        "drop database",
        "truncate ",
        "$(",
        "`",
        "<(",
        ">(",
        "<<<",
        "eval ",
    ]


class ShellSettings(_Section):
    """``[tools.shell]``."""

    timeout: int = Field(30, ge=1, le=86_400)
    allowed_paths: list[str] = Field(default_factory=list)
    blocked_commands: list[str] = Field(default_factory=list)
    allowed_commands: list[str] = Field(default_factory=list)
    confirm_patterns: list[str] = Field(default_factory=_default_confirm_patterns)
    allow_network: bool = True
    transactional: bool = False
    transaction_scope: list[str] = Field(default_factory=list)
    auto_rollback: bool = False
    auto_rollback_exit_codes: list[int] = Field(default_factory=list)
    snapshot_required: bool = False
    max_snapshot_bytes: int = Field(0, ge=0, description="0 means no cap")
    scrub_env: list[str] = Field(default_factory=list, description="more variable-name globs to hide from commands")
    keep_env: list[str] = Field(default_factory=list, description="variable-name globs to pass through anyway")
    sandbox: Literal["auto", "bwrap", "off"] = Field(
        "auto", description="auto: bubblewrap when it works here; bwrap: required (commands fail without it); off"
    )
    hidden_paths: list[str] = Field(
        default_factory=list, description="more paths commands and file tools may neither read nor write"
    )
    allow_unsandboxed: bool = Field(True, description="whether the model may ask to run a command outside the sandbox")
    strict_paths: bool = Field(
        False, description="refuse, instead of asking about, path arguments outside the workdir and allowed_paths"
    )
    max_processes: int = Field(4096, ge=0, description="processes per user while a command runs; 0: no limit")
    max_file_size_mb: int = Field(8192, ge=0, description="largest file a command may write; 0: no limit")
    max_memory_mb: int | None = Field(
        None, ge=0, description="address space of each process; default half the machine's memory; 0: no limit"
    )


class FileSettings(_Section):
    """``[tools.file]``: the sandbox of the file tools."""

    allowed_paths: list[str] = Field(default_factory=list, description="empty means the working directory")
    deny_read: list[str] = Field(default_factory=list)
    allow_read: list[str] = Field(default_factory=list)
    grep_engine: Literal["auto", "ripgrep", "python"] = "auto"


class ScrapeSettings(_Section):
    """``[tools.scrape]``: fetch, web_scrape and web_search."""

    timeout: int = Field(15, ge=1, le=600, description="seconds for the whole request, redirects included")
    max_body_bytes: int = Field(1024 * 1024, ge=1, description="counted on the bytes received")
    max_redirects: int = Field(3, ge=0, le=10)
    allow_private: list[str] = Field(default_factory=list, description="host names or networks to allow anyway")
    extra_ca_bundle: str | None = Field(None, description="a PEM file of extra CAs to trust")
    search_url: str = Field(
        "https://html.duckduckgo.com/html/?q={query}", description="HTML search endpoint; {query} is replaced"
    )
    user_agent: str = "zeph-nb/0.1"
    allowed_hosts: list[str] = Field(
        default_factory=list, description="hosts (or *.domain) fetch and web_scrape reach without asking"
    )


class OverflowSettings(_Section):
    """``[tools.overflow]``: very large output goes to the store with an opaque id."""

    threshold: int = Field(50_000, ge=1)
    retention_days: int = Field(7, ge=0)
    max_overflow_bytes: int = Field(10 * 1024 * 1024, ge=0, description="0 means no cap")


class SecretScanSettings(_Section):
    """``[tools.filters.security]``: the secret scanner on what the model reads.

    ``enabled = false`` stops redacting tool output *for the model* (a person who wants the agent to see a token);
    what is stored or shown (audit log, overflow, inbox, cards, dashboard) is redacted whatever this says.
    ``extra_patterns`` are regular expressions for your own credential formats (group 1 is the value, else the
    whole match); they apply everywhere, stored and shown included.
    """

    enabled: bool = True
    extra_patterns: tuple[str, ...] = ()

    @field_validator("extra_patterns")
    @classmethod
    def _compiles(cls, patterns: tuple[str, ...]) -> tuple[str, ...]:
        for pattern in patterns:
            try:
                compiled = re.compile(pattern)
            except re.error as e:
                raise ValueError(f"{pattern!r} is not a valid regular expression ({e}); fix or remove it") from None
            if compiled.match(""):
                raise ValueError(f"{pattern!r} matches the empty string; write one that needs at least one character")
        return patterns


class FilterSettings(_Section):
    """``[tools.filters]``: the output filter pipeline."""

    enabled: bool = True
    filters_path: str | None = None
    security: SecretScanSettings = Field(default_factory=SecretScanSettings)


class PermissionRule(_Section):
    """One ``[[tools.permissions.<tool>]]`` entry; first match wins."""

    pattern: str = Field(min_length=1, max_length=MAX_PATTERN_LEN)
    action: Literal["allow", "ask", "deny"]


class ResultCacheSettings(_Section):
    """``[tools.result_cache]``."""

    enabled: bool = True
    ttl_secs: int = Field(300, ge=0, description="0 means entries never expire")


class RetrySettings(_Section):
    """``[tools.retry]``: backoff for RateLimited, ServerError, NetworkError and Timeout."""

    max_attempts: int = Field(2, ge=0, le=10, description="retries after the first attempt; 0 disables")
    base_ms: int = Field(500, ge=0)
    max_ms: int = Field(5_000, ge=0)
    budget_secs: float = Field(30.0, ge=0)


class TafcSettings(_Section):
    """``[tools.tafc]``: think-augmented function calling for complex tool schemas."""

    enabled: bool = False
    complexity_threshold: Annotated[float, _unit_interval(0.6)] = 0.6


class DependencyRule(_Section):
    requires: list[str] = Field(default_factory=list)
    prefers: list[str] = Field(default_factory=list)


class DependencySettings(_Section):
    """``[tools.dependencies]``: tools hidden until their prerequisites have run."""

    enabled: bool = False
    rules: dict[str, DependencyRule] = Field(default_factory=dict)
    always_on: list[str] = Field(default_factory=list, description="tools never hidden by unmet requirements")


class AnomalySettings(_Section):
    """``[tools.anomaly]``: block a tool whose recent calls mostly fail."""

    enabled: bool = False
    window_size: int = Field(10, ge=1, le=10_000)
    error_threshold: Annotated[float, _unit_interval(0.5)] = 0.5
    critical_threshold: Annotated[float, _unit_interval(0.8)] = 0.8


class AuthorizationRule(_Section):
    effect: Literal["allow", "ask", "deny"]
    tool: str = Field(min_length=1)
    args_match: Regex | None = None
    paths: list[str] = Field(default_factory=list)


class AuthorizationSettings(_Section):
    """``[tools.authorization]``: rules merged after the permission rules."""

    enabled: bool = False
    rules: list[AuthorizationRule] = Field(default_factory=list)


class ToolsSettings(_Section):
    """``[tools]``."""

    enabled: bool = True
    summarize_output: bool = True
    max_tool_calls_per_session: int = Field(0, ge=0, description="0 means no quota")
    trust_level: Literal["untrusted", "provisional", "trusted"] = Field(
        "trusted", description="which calls run without asking when no permission rule decides"
    )
    approval_timeout_secs: float = Field(
        300.0, gt=0, le=7 * 86_400, description="an approval nobody answers is denied after this long"
    )
    shell: ShellSettings = Field(default_factory=ShellSettings)
    file: FileSettings = Field(default_factory=FileSettings)
    scrape: ScrapeSettings = Field(default_factory=ScrapeSettings)
    overflow: OverflowSettings = Field(default_factory=OverflowSettings)
    filters: FilterSettings = Field(default_factory=FilterSettings)
    permissions: dict[str, list[PermissionRule]] | None = None
    result_cache: ResultCacheSettings = Field(default_factory=ResultCacheSettings)
    retry: RetrySettings = Field(default_factory=RetrySettings)
    tafc: TafcSettings = Field(default_factory=TafcSettings)
    dependencies: DependencySettings = Field(default_factory=DependencySettings)
    anomaly: AnomalySettings = Field(default_factory=AnomalySettings)
    authorization: AuthorizationSettings = Field(default_factory=AuthorizationSettings)


class LLMSettings(_Section):
    """``[llm]``: which model the agent asks.

    ``provider = "auto"`` picks Claude when an Anthropic API key is set, else an OpenAI-compatible server when
    ``base_url`` is set, else the offline scripted model (which says plainly that no model is configured).
    """

    provider: Literal["auto", "anthropic", "openai", "scripted"] = "auto"
    model: str | None = Field(None, description="default: claude-sonnet-5 for anthropic; required for openai")
    base_url: str | None = Field(None, description="an OpenAI-compatible server, e.g. http://localhost:11434/v1")
    max_tokens: int = Field(4096, ge=1, le=200_000)
    timeout_secs: float = Field(120.0, gt=0, le=3600, description="connecting and waiting for the first byte")
    idle_timeout_secs: float = Field(
        60.0, gt=0, le=3600, description="a streamed reply with no new content for this long is retried"
    )
    deadline_secs: float = Field(600.0, gt=0, le=7200, description="one request, however it streams, ends by then")
    retry_budget_secs: float = Field(
        120.0, ge=0, le=3600, description="overloads, rate limits, 5xx and timeouts are retried within this time"
    )
    stream: bool = Field(True, description="stream the reply as it is written (anthropic)")
    system_prompt: str | None = Field(None, description="extra instructions appended to the built-in ones")


class StoreSettings(_Section):
    """``[store]``: where the audit log, overflow and conversations live, and how they are written."""

    path: str | None = Field(None, description="the DuckDB file; default: zeph.duckdb in the zeph home")
    flush_interval_ms: int = Field(500, ge=1, le=60_000, description="how often spooled rows are copied in")
    lock_timeout_secs: float = Field(10.0, gt=0, description="how long to wait for another process's lock")
    durable: bool = Field(True, description="fdatasync each spooled row (survives a machine crash, ~0.25 ms)")


def _default_home() -> Path:
    return Path(os.environ.get("ZEPH_HOME") or Path.home() / ".zeph")


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


def _default_user() -> str:
    """Who is at the keyboard, for "approved by" and "granted by" (recorded, never trusted for access)."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no passwd entry and no LOGNAME/USER (some containers)
        return "unknown"


class Settings(_Section):
    """Everything zeph-nb can be configured with. Build one with ``Settings.load()`` or ``Settings.from_toml()``."""

    agent: AgentSettings = Field(default_factory=AgentSettings)
    tools: ToolsSettings = Field(default_factory=ToolsSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    store: StoreSettings = Field(default_factory=StoreSettings)
    # Not TOML keys: filled in by the loader.
    home: Path = Field(default_factory=_default_home, exclude=True)
    source: str | None = Field(None, exclude=True, description="the file these settings were read from")
    origins: dict[str, str] = Field(default_factory=dict, exclude=True, description="dotted key -> where it came from")
    anthropic_api_key: SecretStr | None = Field(None, exclude=True)
    openai_api_key: SecretStr | None = Field(None, exclude=True)
    user: str = Field(default_factory=_default_user, exclude=True, description="the person approvals name")
    user_home: Path = Field(default_factory=_user_home, exclude=True, description="whose credentials to hide")
    jupyter_dirs: tuple[Path, ...] = Field(
        default_factory=_jupyter_dirs, exclude=True, description="Jupyter's config and runtime dirs, hidden from tools"
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

    @classmethod
    def from_toml(cls, text: str, *, source: str = "<string>") -> Settings:
        """Settings from TOML text alone: no file lookup and no environment, so the result is reproducible."""
        data = _parse_toml(text, source)
        return _build(data, source=source, origins=_origins_of(data, f"file:{source}"))

    @classmethod
    def load(cls, path: str | os.PathLike[str] | None = None, *, env: Mapping[str, str] | None = None) -> Settings:
        """Settings from the first config file found (see the module docstring), with ``ZEPH_*`` overrides."""
        env = os.environ if env is None else env
        home = Path(env.get("ZEPH_HOME") or Path.home() / ".zeph").expanduser()
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
        extra: dict[str, Any] = {"home": home, "jupyter_dirs": _jupyter_dirs(env)}
        if env.get("CONDA_PREFIX"):
            extra["conda_prefix"] = env["CONDA_PREFIX"]
        api_key = env.get("ANTHROPIC_API_KEY")
        if api_key:
            extra["anthropic_api_key"] = api_key
        if env.get("OPENAI_API_KEY"):
            extra["openai_api_key"] = env["OPENAI_API_KEY"]
        if env.get("JUPYTERHUB_USER"):  # on a hub the login name is the person, the Unix user often is not
            extra["user"] = env["JUPYTERHUB_USER"]
        return _build(data, source=source, origins=origins, extra=extra)

    def describe(self) -> dict[str, tuple[Any, str]]:
        """Every leaf key with its effective value and where it came from (``default``, ``file:…``, ``env:…``)."""
        flat = _flatten(self.model_dump(mode="json"))
        return {key: (value, self.origins.get(key, "default")) for key, value in flat.items()}


_TABLES = [name for name, field in Settings.model_fields.items() if not field.exclude]
_NOT_KEYS = [name for name, field in Settings.model_fields.items() if field.exclude]


def _find_config_file(path: str | os.PathLike[str] | None, env: Mapping[str, str], home: Path) -> Path | None:
    explicit = path if path is not None else env.get("ZEPH_CONFIG")
    if explicit is not None:
        file = Path(explicit).expanduser()
        if not file.is_file():
            what = "the path given to Settings.load()" if path is not None else "$ZEPH_CONFIG"
            raise ConfigError(f"{file}: no such config file ({what}); create it or point to an existing file")
        return file
    # A config file a running command may have just created is not trusted; one a dead command left is set aside.
    settle(home)
    untrusted = suspects(home)
    for candidate in (Path.cwd() / "zeph.toml", home / "config.toml"):
        if candidate.is_file() and candidate not in untrusted:
            return candidate
    return None


def _parse_toml(text: str, source: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{source}: malformed TOML: {e}. Fix that line; see README for the format.") from None


def _build(
    data: dict[str, Any], *, source: str | None, origins: dict[str, str], extra: dict[str, Any] | None = None
) -> Settings:
    for key in _NOT_KEYS:
        if key in data:
            raise ConfigError(f"{source}: '{key}' is not a config key; allowed top-level tables: {', '.join(_TABLES)}")
    try:
        return Settings.model_validate({**data, **(extra or {}), "source": source, "origins": origins})
    except ValidationError as e:
        raise ConfigError(_explain(e, source or "defaults", origins)) from None


def _explain(error: ValidationError, source: str, origins: Mapping[str, str]) -> str:
    """One readable line per problem: where it came from, the dotted key, and what is allowed."""
    lines = []
    for problem in error.errors():
        loc = [str(part) for part in problem["loc"]]
        key = ".".join(loc)
        where = origins.get(key, f"file:{source}").removeprefix("file:")
        if problem["type"] == "extra_forbidden":
            parent = _model_at(loc[:-1])
            if parent is Settings:
                allowed = _TABLES
            else:
                allowed = sorted(parent.model_fields) if parent else []
            hint = difflib.get_close_matches(loc[-1], allowed, n=1)
            did_you_mean = f" (did you mean '{hint[0]}'?)" if hint else ""
            lines.append(f"{where}: unknown key '{key}'{did_you_mean}; allowed here: {', '.join(allowed)}")
        else:
            got = problem.get("input")
            lines.append(f"{where}: {key}: {problem['msg']} (got {got!r})")
    return "invalid configuration:\n  " + "\n  ".join(lines)


def _model_at(path: list[str]) -> type[BaseModel] | None:
    """The settings model reached by following ``path`` from ``Settings``, or None past a leaf."""
    model: type[BaseModel] = Settings
    for name in path:
        field = model.model_fields.get(name)
        if field is None:
            return None
        nested = _model_type(field.annotation)
        if nested is None:
            return None
        model = nested
    return model


def _model_type(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None


def _leaf_keys(model: type[BaseModel] = Settings, prefix: str = "") -> dict[str, str]:
    """Environment variable name -> dotted key, for every key an env var may set."""
    keys: dict[str, str] = {}
    for name, field in model.model_fields.items():
        if field.exclude:
            continue
        dotted = f"{prefix}{name}"
        nested = _model_type(field.annotation)
        if nested is not None:
            keys.update(_leaf_keys(nested, dotted + "."))
        elif get_origin(field.annotation) is not dict and dict not in get_args(field.annotation):
            keys["ZEPH_" + dotted.replace(".", "_").upper()] = dotted
    return keys


def _apply_env(data: dict[str, Any], origins: dict[str, str], env: Mapping[str, str], source: str) -> None:
    known = _leaf_keys()
    for name, raw in env.items():
        if not name.startswith("ZEPH_") or name in _ENV_NON_KEYS:
            continue
        dotted = known.get(name)
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
    try:
        return tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        return raw


def _origins_of(data: Mapping[str, Any], origin: str, prefix: str = "") -> dict[str, str]:
    return {key: origin for key in _flatten(data, prefix)}


def _flatten(data: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, Mapping) and value and dotted != "tools.permissions":
            flat.update(_flatten(value, dotted + "."))
        else:
            flat[dotted] = value
    return flat
