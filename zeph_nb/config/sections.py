"""The tables of the configuration, one pydantic model each (``[agent]``, ``[tools.shell]``, ``[llm]``, …) with
their defaults and checks; ``Settings`` (in ``__init__.py``) puts them together and loads them."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, field_validator, model_validator

from zeph_nb.config.audit import AuditSettings
from zeph_nb.config.common import MAX_PATTERN_LEN, Regex, _Section
from zeph_nb.config.gate_sections import (
    AdversarialPolicySettings,
    AnomalySettings,
    AuthorizationRule,
    AuthorizationSettings,
    DependencyRule,
    DependencySettings,
    DiagnosticsSettings,
    ResultCacheSettings,
    RetrySettings,
    TafcSettings,
)
from zeph_nb.config.llm import LLMSettings, NamedProvider
from zeph_nb.config.policy import AgentChecks, PolicySettings, UtilitySettings
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


class AgentSettings(AgentChecks):
    """``[agent]``: how long one run may go on."""

    name: str = Field("zeph-nb", min_length=1, max_length=64, pattern=r"^[^\n\r{}]+$")
    """what the agent calls itself (the system prompt's first words)"""

    max_tool_iterations: int = Field(10, ge=1, le=1000)
    """rounds of tool calls one run may make before it stops"""
    context_budget_tokens: int = Field(200_000, ge=0, description="0 disables the budget check")
    doom_loop_threshold: int = Field(3, ge=2, le=100)
    """identical rounds of tool calls in a row that stop a run"""
    tool_filter: ToolFilterSettings = Field(default_factory=ToolFilterSettings)


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
    allowed_paths: list[str] = Field(default_factory=list)
    """folders commands may write besides the working directory"""
    blocked_commands: list[str] = Field(default_factory=list)
    """command names (and words) refused before any rule is read; never substrings"""
    allowed_commands: list[str] = Field(default_factory=list)
    """set: the only commands that run; anything else is blocked"""
    confirm_patterns: list[str] = Field(default_factory=_default_confirm_patterns)
    """command words or syntax that make a command ask"""
    allow_network: bool = True
    """false: commands get no network and the network clients are blocked"""
    transactional: bool = False
    """snapshot the files in transaction_scope before a command that writes"""
    transaction_scope: list[str] = Field(default_factory=list)
    """globs under the working directory a transaction covers; empty: all but VCS folders"""
    auto_rollback: bool = False
    """put the snapshot back when the exit code is in auto_rollback_exit_codes"""
    auto_rollback_exit_codes: list[int] = Field(default_factory=list)
    """exit codes that roll back; empty: any non-zero"""
    snapshot_required: bool = False
    """a snapshot that fails (over the cap) stops the command"""
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
    """globs of paths no tool may read (their names are hidden from listings too)"""
    allow_read: list[str] = Field(default_factory=list)
    """set: only paths these globs match may be read, after deny_read"""
    grep_engine: Literal["auto", "ripgrep", "python"] = "auto"
    """grep's engine: ripgrep from the wheel, or the pure-Python one"""


class ScrapeSettings(_Section):
    """``[tools.scrape]``: fetch, web_scrape and web_search."""

    timeout: int = Field(15, ge=1, le=600, description="seconds for the whole request, redirects included")
    max_body_bytes: int = Field(1024 * 1024, ge=1, description="counted on the bytes received")
    max_redirects: int = Field(3, ge=0, le=10)
    """redirects a web tool follows, each one checked like the first URL"""
    allow_private: list[str] = Field(default_factory=list, description="host names or networks to allow anyway")
    extra_ca_bundle: str | None = Field(None, description="a PEM file of extra CAs to trust")
    search_url: str = Field(
        "https://html.duckduckgo.com/html/?q={query}", description="HTML search endpoint; {query} is replaced"
    )
    user_agent: str = "zeph-nb/0.1"
    """the User-Agent the web tools send"""
    allowed_hosts: list[str] = Field(
        default_factory=list, description="hosts (or *.domain) fetch and web_scrape reach without asking"
    )


class OverflowSettings(_Section):
    """``[tools.overflow]``: very large output goes to the store with an opaque id."""

    threshold: int = Field(50_000, ge=1)
    """characters of output above which the rest goes to the store (read_overflow)"""
    retention_days: int = Field(7, ge=0)
    """days stored outputs are kept"""
    max_overflow_bytes: int = Field(10 * 1024 * 1024, ge=0, description="0 means no cap")


class SecretScanSettings(_Section):
    """``[tools.filters.security]``: the secret scanner on what the model reads.

    ``enabled = false`` stops redacting tool output *for the model* (a person who wants the agent to see a token);
    what is stored or shown (audit log, overflow, inbox, cards, dashboard) is redacted whatever this says.
    ``extra_patterns`` are regular expressions for your own credential formats (group 1 is the value, else the
    whole match); they apply everywhere, stored and shown included.
    """

    enabled: bool = True
    """false: what the model reads is not redacted (what is stored or shown stays redacted)"""
    extra_patterns: tuple[str, ...] = ()
    """your own regexes of secrets to redact everywhere"""

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


class FilterToggle(_Section):
    """``[tools.filters.clippy|cargo_build|dir_listing|log_dedup]``: a family of built-in filter rules, on or off."""

    enabled: bool = True
    """this family of rules runs (log_dedup: folding repeated lines, and the generic fallback)"""


class TestFilterSettings(FilterToggle):
    """``[tools.filters.test]``: the test-runner rules (pytest, unittest, cargo test, go test, JS runners)."""

    max_failures: int = Field(10, ge=1, description="failures shown with their trace; later ones in brief")
    truncate_stack_trace: int = Field(40, ge=1, description="trace lines kept per failure")


class GitFilterSettings(FilterToggle):
    """``[tools.filters.git]``: the git rules (status, diff, log, push/pull)."""

    max_log_entries: int = Field(20, ge=1, description="commits `git log` shows; the rest are counted")
    max_diff_lines: int = Field(500, ge=1, description="changed lines `git diff`/`git show` shows")


class FilterSettings(_Section):
    """``[tools.filters]``: the output filter pipeline. The family tables tune the built-in rules (a rule of
    your own ``filters.toml`` named like a built-in one replaces it, settings and all); ``log_dedup`` also
    switches the generic fallback for long outputs no rule knows."""

    enabled: bool = True
    """the output filters run"""
    filters_path: str | None = None
    """a TOML file of your own filter rules (default: filters.toml beside the config)"""
    security: SecretScanSettings = Field(default_factory=SecretScanSettings)
    test: TestFilterSettings = Field(default_factory=TestFilterSettings)
    git: GitFilterSettings = Field(default_factory=GitFilterSettings)
    clippy: FilterToggle = Field(default_factory=FilterToggle)
    cargo_build: FilterToggle = Field(default_factory=FilterToggle)
    dir_listing: FilterToggle = Field(default_factory=FilterToggle)
    log_dedup: FilterToggle = Field(default_factory=FilterToggle)


class PermissionRule(_Section):
    """One ``[[tools.permissions.<tool>]]`` entry; first match wins."""

    pattern: str = Field(min_length=1, max_length=MAX_PATTERN_LEN)
    action: Literal["allow", "ask", "deny"]


class ExecutionSettings(_Section):
    """``[tools.execution]``: where commands run. "tmux": bash gains ``wait`` (false or a duration runs the command
    in a tmux pane in the background) and capture-pane and send-keys are offered. "ssh" and "container": bash,
    read, write and edit work on another machine or in a running container, and every command asks."""

    backend: Literal["local", "tmux", "ssh", "container"] = "local"
    """where commands run: here, in tmux panes, over SSH or in a container"""
    ssh: str | None = Field(None, description='backend "ssh": user@host or user@host:port')
    ssh_options: list[str] = Field(
        default_factory=list, description='ssh -o options, e.g. ["IdentityFile=~/.ssh/gpu", "Port=2222"]'
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


class ToolsSettings(_Section):
    """``[tools]``."""

    enabled: bool = True
    """false: the model is offered no tools at all"""
    summarize_output: bool = True
    """run the output filters on what the model reads (the raw output stays for read_overflow)"""
    max_tool_calls_per_session: int = Field(0, ge=0, description="0 means no quota")
    trust_level: Literal["untrusted", "provisional", "trusted"] = Field(
        "trusted", description="which calls run without asking when no permission rule decides"
    )
    approval_timeout_secs: float = Field(
        300.0, gt=0, le=7 * 86_400, description="an approval nobody answers is denied after this long"
    )
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
    disabled: list[str] = Field(default_factory=list, description="more tools not offered, by name (installed too)")
    function_timeout_secs: float = Field(
        60.0, gt=0, le=86_400, description="a @zeph_nb.tool function that runs longer is stopped (its own timeout wins)"
    )
    shell_confirm: bool = Field(False, description="every shell command asks, whatever rules and grants say")
    shell: ShellSettings = Field(default_factory=ShellSettings)
    execution: ExecutionSettings = Field(default_factory=ExecutionSettings)
    file: FileSettings = Field(default_factory=FileSettings)
    scrape: ScrapeSettings = Field(default_factory=ScrapeSettings)
    overflow: OverflowSettings = Field(default_factory=OverflowSettings)
    filters: FilterSettings = Field(default_factory=FilterSettings)
    permissions: dict[str, list[PermissionRule]] | None = None
    """ordered {pattern, action} rules per tool; first match wins"""
    result_cache: ResultCacheSettings = Field(default_factory=ResultCacheSettings)
    retry: RetrySettings = Field(default_factory=RetrySettings)
    tafc: TafcSettings = Field(default_factory=TafcSettings)
    dependencies: DependencySettings = Field(default_factory=DependencySettings)
    anomaly: AnomalySettings = Field(default_factory=AnomalySettings)
    diagnostics: DiagnosticsSettings = Field(default_factory=DiagnosticsSettings)
    adversarial_policy: AdversarialPolicySettings = Field(default_factory=AdversarialPolicySettings)
    authorization: AuthorizationSettings = Field(default_factory=AuthorizationSettings)
    policy: PolicySettings = Field(default_factory=PolicySettings)
    utility: UtilitySettings = Field(default_factory=UtilitySettings)
    audit: AuditSettings = Field(default_factory=AuditSettings)


class StoreSettings(_Section):
    """``[store]``: where the audit log, overflow and conversations live, and how they are written."""

    path: str | None = Field(None, description="the DuckDB file; default: zeph.duckdb in the zeph home")
    flush_interval_ms: int = Field(500, ge=1, le=60_000, description="how often spooled rows are copied in")
    lock_timeout_secs: float = Field(10.0, gt=0, description="how long to wait for another process's lock")
    durable: bool = Field(True, description="fdatasync each spooled row (survives a machine crash, ~0.25 ms)")
