"""The tables of the configuration, one pydantic model each (``[agent]``, ``[tools.shell]``, ``[llm]``, …) with
their defaults and checks; ``[gates]`` is in gates.py, ``[output]`` in output.py and ``[audit]`` in audit.py.
``Settings`` (in ``__init__.py``) puts them together and loads them."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator

from zeph_nb.config.common import MAX_PATTERN_LEN, Regex, _Section, _unit_interval, empty_list
from zeph_nb.config.gate_sections import (
    AnomalySettings,
    AuthorizationRule,
    AuthorizationSettings,
    DependencyRule,
    DependencySettings,
    DiagnosticsSettings,
    PermissionRule,
    ResultCacheSettings,
    RetrySettings,
)
from zeph_nb.config.llm import LLMSettings, NamedProvider
from zeph_nb.config.output import FilterSettings, OverflowSettings, SecretScanSettings
from zeph_nb.config.policy import AgentChecks
from zeph_nb.config.tool_filter import ToolFilterSettings

__all__ = [
    "MAX_PATTERN_LEN",
    "AgentSettings",
    "AnomalySettings",
    "AuthorizationRule",
    "AuthorizationSettings",
    "DependencyRule",
    "DependencySettings",
    "DiagnosticsSettings",
    "FileSettings",
    "FilterSettings",
    "LLMSettings",
    "NamedProvider",
    "OverflowSettings",
    "PermissionRule",
    "Regex",
    "ResultCacheSettings",
    "RetrySettings",
    "ScrapeSettings",
    "SecretScanSettings",
    "ShellSettings",
    "StoreSettings",
    "TafcSettings",
    "ToolsSettings",
]


class TafcSettings(_Section):
    """``[agent.tafc]``: think-augmented function calling for complex tool schemas (the agent's requests)."""

    enabled: bool = False
    """offer a thinking field on complex tools (think-augmented function calling)"""
    complexity_threshold: Annotated[float, _unit_interval(0.6)] = 0.6
    """how complex a tool's schema must be to get it, from 0 to 1"""


_INSTRUCTIONS = (
    "zeph-nb reads no instruction files (CLAUDE.md, AGENTS.md) by itself: extra instructions for every run are [llm] "
    "system_prompt, and skills (.zeph/skills/) are instructions the model loads when it needs them"
)
# The reference agent's [agent] keys that mean nothing here, each with why (a config ported from it hears this).
AGENT_NOT_HERE: dict[str, str] = {
    "auto_update_check": "zeph-nb never looks for new releases by itself; it is updated with pip or conda like the "
    "notebook's other packages",
    "instruction_auto_detect": _INSTRUCTIONS,
    "instruction_files": _INSTRUCTIONS,
    "budget_hint_enabled": "the model is not told its budget: a run stops at [agent] max_tool_iterations, and near "
    "[agent] context_budget_tokens compress_provider summarises the earlier runs",
    "supervisor": "there are no background enrichment or telemetry tasks to tune: a run's work happens in the run",
    "focus": "there are no focus tools: near [agent] context_budget_tokens, [agent] compress_provider summarises the "
    "earlier runs and the run goes on",
}


class AgentSettings(AgentChecks):
    """``[agent]``: how long one run may go on."""

    not_here = AGENT_NOT_HERE

    name: str = Field("zeph-nb", min_length=1, max_length=64, pattern=r"^[^\n\r{}]+$")
    """what the agent calls itself (the system prompt's first words)"""

    max_tool_iterations: int = Field(10, ge=1, le=1000)
    """rounds of tool calls one run may make before it stops"""
    context_budget_tokens: int = Field(200_000, ge=0, description="0 disables the budget check")
    doom_loop_threshold: int = Field(3, ge=2, le=100)
    """identical rounds of tool calls in a row that stop a run"""
    tool_filter: ToolFilterSettings = Field(default_factory=ToolFilterSettings)
    tafc: TafcSettings = Field(default_factory=TafcSettings)


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
    """seconds a command may run before it is killed (the call can ask for less)"""
    allowed_paths: list[str] = Field(default_factory=empty_list)
    """folders commands may write besides the working directory. Unlike the seed's, reads are not confined to them:
    commands need the kernel's Python environment, tools under home (~/.local/bin, ~/.cargo, nvm, conda) and git's
    and pip's config, which no fixed list knows; credential stores, the zeph home and hidden_paths are hidden"""
    blocked_commands: list[str] = Field(default_factory=empty_list)
    """command names (and words) refused before any rule is read; never substrings"""
    allowed_commands: list[str] = Field(default_factory=empty_list)
    """set: the only commands that run; anything else is blocked"""
    confirm_patterns: list[str] = Field(default_factory=_default_confirm_patterns)
    """command words or syntax that make a command ask; a pattern of yours also matches anywhere in the line (as the
    seed's substrings did: "danger" asks for echo danger), the built-in ones only as the command (rm, not farm)"""
    allow_network: bool = True
    """false: commands get no network and the network clients are blocked"""
    transactional: bool = False
    """snapshot the files in transaction_scope before a command that writes"""
    transaction_scope: list[str] = Field(default_factory=empty_list)
    """globs under the working directory a transaction covers; empty: all but VCS folders"""
    auto_rollback: bool = False
    """put the snapshot back when the exit code is in auto_rollback_exit_codes"""
    auto_rollback_exit_codes: list[int] = Field(default_factory=empty_list)
    """exit codes that roll back; empty: any non-zero. Not the seed's [1, 2], because a command killed at its timeout
    (137), not found half-way through a script (127) or stopped by a signal leaves half-made changes too"""
    snapshot_required: bool = False
    """a snapshot that fails (over the cap) stops the command"""
    max_snapshot_bytes: int = Field(0, ge=0, description="0 means no cap")
    scrub_env: list[str] = Field(
        default_factory=empty_list, description="more variable-name globs to hide from commands"
    )
    keep_env: list[str] = Field(default_factory=empty_list, description="variable-name globs to pass through anyway")
    sandbox: Literal["auto", "bwrap", "off"] = Field(
        "auto", description="auto: bubblewrap when it works here; bwrap: required (commands fail without it); off"
    )
    hidden_paths: list[str] = Field(
        default_factory=empty_list, description="more paths commands and file tools may neither read nor write"
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

    allowed_paths: list[str] = Field(default_factory=empty_list, description="empty means the working directory")
    deny_read: list[str] = Field(default_factory=empty_list)
    """globs of paths no tool may read (their names are hidden from listings too)"""
    allow_read: list[str] = Field(default_factory=empty_list)
    """set: only paths these globs match may be read, after deny_read"""
    grep_engine: Literal["auto", "ripgrep", "python"] = "auto"
    """grep's engine: ripgrep from the wheel, or the pure-Python one"""


class ScrapeSettings(_Section):
    """``[tools.scrape]``: fetch, web_scrape and web_search."""

    timeout: int = Field(15, ge=1, le=600, description="seconds for the whole request, redirects included")
    max_body_bytes: int = Field(1024 * 1024, ge=1, description="counted on the bytes received")
    max_redirects: int = Field(3, ge=0, le=10)
    """redirects a web tool follows, each one checked like the first URL"""
    allow_private: list[str] = Field(default_factory=empty_list, description="host names or networks to allow anyway")
    extra_ca_bundle: str | None = Field(None, description="a PEM file of extra CAs to trust")
    search_url: str = Field(
        "https://html.duckduckgo.com/html/?q={query}", description="HTML search endpoint; {query} is replaced"
    )
    user_agent: str = "zeph-nb/0.1"
    """the User-Agent the web tools send"""
    allowed_hosts: list[str] = Field(
        default_factory=empty_list, description="hosts (or *.domain) fetch and web_scrape reach without asking"
    )


class ExecutionSettings(_Section):
    """``[tools.execution]``: where commands run. "tmux": bash gains ``wait`` (false or a duration runs the command
    in a tmux pane in the background) and capture-pane and send-keys are offered. "ssh" and "container": bash,
    read, write and edit work on another machine or in a running container, and every command asks."""

    backend: Literal["local", "tmux", "ssh", "container"] = "local"
    """where commands run: here, in tmux panes, over SSH or in a container"""
    ssh: str | None = Field(None, description='backend "ssh": user@host or user@host:port')
    ssh_options: list[str] = Field(
        default_factory=empty_list, description='ssh -o options, e.g. ["IdentityFile=~/.ssh/gpu", "Port=2222"]'
    )
    container: str | None = Field(None, description='backend "container": the running container\'s name or id')
    engine: Literal["auto", "docker", "podman"] = "auto"
    """the container engine; auto: docker, then podman"""
    tmux: bool = Field(False, description='with "ssh" or "container": background commands in tmux panes there')
    remote_workdir: str | None = Field(
        None,
        description="where commands and file tools work over ssh or in the container (default: its login "
        "folder or the container's working directory)",
    )

    @model_validator(mode="after")
    def _target_named(self) -> ExecutionSettings:
        if self.backend == "ssh" and not self.ssh:
            raise ValueError('backend = "ssh" needs ssh = "user@host" (or %%zeph --ssh user@host)')
        if self.backend == "container" and not self.container:
            raise ValueError('backend = "container" needs container = "<name>" (or %%zeph --container NAME)')
        return self


# The reference's [tools] tables that mean nothing here, each with why.
TOOLS_NOT_HERE: dict[str, str] = {
    "sandbox": 'the OS sandbox of commands is [tools.shell] sandbox ("auto", "bwrap" or "off"; auto uses '
    "bubblewrap where it works); in it commands write only the working directory and [tools.shell] allowed_paths, and "
    "never read [tools.shell] hidden_paths or the credential stores; the file tools follow [tools.file]",
}


class ToolsSettings(_Section):
    """``[tools]``: which tools are offered, and the tables of the tools themselves (what the gates read is under
    ``[gates]``, what output/ reads under ``[output]``)."""

    not_here = TOOLS_NOT_HERE

    enabled: bool = True
    """false: the model is offered no tools at all"""
    entry_points: bool = Field(
        True, description="add the tools installed packages offer under the zeph_nb.tools entry-point group"
    )
    # Registration: a tool turned off is not offered to the model at all (not offered and then refused).
    shell_enabled: bool = Field(True, description="bash (and capture-pane, send-keys with tmux)")
    file_enabled: bool = Field(True, description="read, write, edit, grep and the other file tools")
    fetch_enabled: bool = True
    """fetch is offered"""
    web_scrape_enabled: bool = True
    """web_scrape is offered"""
    web_search_enabled: bool = True
    """web_search is offered"""
    diagnostics_enabled: bool = True
    """diagnostics is offered"""
    time_enabled: bool = True
    """time is offered"""
    kernel_enabled: bool = Field(
        True, description="list_variables, inspect_variable, run_python, propose_cell (only inside a notebook kernel)"
    )
    disabled: list[str] = Field(
        default_factory=empty_list, description="more tools not offered, by name (installed too)"
    )
    network_hosts: list[str] | None = None
    """set: the only hosts any tool may reach (pypi.org, *.example.org, host:8443) — a command's network grant,
    fetch, web_scrape, web_search — whatever a rule, grant or approval says; [] none; unset: no ceiling"""
    function_timeout_secs: float = Field(
        60.0, gt=0, le=86_400, description="a @zeph_nb.tool function that runs longer is stopped (its own timeout wins)"
    )
    shell: ShellSettings = Field(default_factory=ShellSettings)
    execution: ExecutionSettings = Field(default_factory=ExecutionSettings)
    file: FileSettings = Field(default_factory=FileSettings)
    scrape: ScrapeSettings = Field(default_factory=ScrapeSettings)
    diagnostics: DiagnosticsSettings = Field(default_factory=DiagnosticsSettings)


class StoreSettings(_Section):
    """``[store]``: where the audit log, overflow and conversations live, and how they are written."""

    path: str | None = Field(None, description="the DuckDB file; default: zeph.duckdb in the zeph home")
    flush_interval_ms: int = Field(500, ge=1, le=60_000, description="how often spooled rows are copied in")
    lock_timeout_secs: float = Field(10.0, gt=0, description="how long to wait for another process's lock")
    durable: bool = Field(True, description="fdatasync each spooled row (survives a machine crash, ~0.25 ms)")
    audit_url: str | None = Field(
        None,
        description="a team's PostgreSQL (postgresql://host/db or service=name): spooled rows are shipped there too; "
        "the password comes from ~/.pgpass, a libpq service file or PGPASSWORD, never from this file",
    )
    ship_interval_ms: int = Field(1000, ge=10, le=600_000, description="how often rows are shipped to audit_url")

    @field_validator("audit_url")
    @classmethod
    def _no_password(cls, value: str | None) -> str | None:
        # A config file is readable by whoever can read the notebook folder (and, unhidden, by the agent): a
        # password there would be handed to anyone who asks the model to cat zeph.toml.
        if value and _has_password(value):
            raise ValueError(
                "audit_url must not carry a password; put it in ~/.pgpass, a libpq service file "
                "(PGSERVICEFILE) or the PGPASSWORD environment variable, and keep only the host and database here"
            )
        return value


def _has_password(url: str) -> bool:
    """Whether a libpq connection string, in either form (``postgresql://user:pw@host/db``, ``password=pw``), holds
    a password or a client key's passphrase: parsed by libpq's own rules, so no spelling slips past."""
    return bool({"password", "sslpassword"} & {key for key, value in _conninfo(url).items() if value})


def _conninfo(url: str) -> dict[str, str]:
    from psycopg import ProgrammingError
    from psycopg.conninfo import conninfo_to_dict

    try:
        return {key: str(value) for key, value in conninfo_to_dict(url).items()}
    except ProgrammingError as e:
        raise ValueError(f"audit_url is not a libpq connection string ({e}); write host=… dbname=… or "
                         "postgresql://host/db") from None  # fmt: skip


def credential_files(url: str | None) -> tuple[Path, ...]:
    """The files a connection string names that hold credentials (a password file, a client key)."""
    if not url:
        return ()
    named = _conninfo(url)
    return tuple(Path(named[key]).expanduser() for key in ("passfile", "sslkey") if named.get(key))
