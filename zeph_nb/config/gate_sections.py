"""The tables the gates read, under ``[gates]``: ``approval``, ``quota``, ``trust``, ``cache``, ``retry``,
``dependencies``, ``anomaly``, ``authorization``, ``adversarial`` and ``permissions`` (``gates.py`` puts them
together with ``policy`` and ``utility``); and ``[tools.diagnostics]``, which the diagnostics tool reads."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator

from zeph_nb.config.common import MAX_PATTERN_LEN, Regex, _Section, _unit_interval, empty_list

__all__ = [
    "AdversarialPolicySettings",
    "AnomalySettings",
    "ApprovalSettings",
    "AuthorizationRule",
    "AuthorizationSettings",
    "DependencyRule",
    "DependencySettings",
    "DiagnosticsSettings",
    "PermissionRule",
    "QuotaSettings",
    "ResultCacheSettings",
    "RetrySettings",
    "TrustSettings",
]


class ApprovalSettings(_Section):
    """``[gates.approval]``: how long a question waits, and what always asks."""

    timeout_secs: float = Field(
        300.0, gt=0, le=7 * 86_400, description="an approval nobody answers is denied after this long"
    )
    shell_confirm: bool = Field(False, description="every shell command asks, whatever rules and grants say")
    # On a team's hub (zeph_nb.hub): "reviewers" sends every ask to the team's reviewers, whatever approver a run
    # names; the user's own buttons, dashboard and AutoApprove answer nothing. Meant for the managed file.
    decided_by: Literal["user", "reviewers"] = Field(
        "user", description="who answers an ask: the user, or (on a hub) the team's reviewers on the hub service"
    )
    review_key: str | None = Field(
        None,
        description="the hub service's public key (zeph-nb hub-key prints it); reviewers' answers must verify with it",
    )
    review_page: str | None = Field(
        None,
        description="where reviewers answer (default: services/zeph_nb_hub/ under the hub's base URL)",
    )

    @field_validator("review_key")
    @classmethod
    def _public_key(cls, value: str | None) -> str | None:
        import base64
        import binascii

        if value is None:
            return None
        try:
            raw = base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            raw = b""
        if len(raw) != 32:
            raise ValueError("review_key is not an Ed25519 public key in base64 (44 characters); copy the line "
                             "`zeph-nb hub-key` printed")  # fmt: skip
        return value

    @field_validator("review_page")
    @classmethod
    def _page(cls, value: str | None) -> str | None:
        # Shown as a link in notebook output: a path on the hub's origin or an https URL, nothing a browser runs.
        if value is not None and not (value.startswith("https://") or (value.startswith("/") and not
                                                                         value.startswith("//"))):  # fmt: skip
            raise ValueError("review_page must be a path on the hub (/services/zeph_nb_hub/) or an https:// URL")
        return value


class QuotaSettings(_Section):
    """``[gates.quota]``: how many tool calls one conversation may make."""

    max_tool_calls_per_session: int = Field(0, ge=0, description="0 means no quota")


class TrustSettings(_Section):
    """``[gates.trust]``: what a call no permission rule decides gets."""

    level: Literal["untrusted", "provisional", "trusted"] = Field(
        "trusted", description="which calls run without asking when no permission rule decides"
    )


class PermissionRule(_Section):
    """One ``[[gates.permissions.<tool>]]`` entry; first match wins."""

    pattern: str = Field(min_length=1, max_length=MAX_PATTERN_LEN)
    action: Literal["allow", "ask", "deny"]


class ResultCacheSettings(_Section):
    """``[gates.cache]``: repeated reads answered from a cache."""

    enabled: bool = True
    """repeated reads are answered from the cache"""
    ttl_secs: int = Field(300, ge=0, description="0 means entries never expire")


class RetrySettings(_Section):
    """``[gates.retry]``: backoff for RateLimited, ServerError, NetworkError and Timeout."""

    max_attempts: int = Field(2, ge=0, le=10, description="retries after the first attempt; 0 disables")
    base_ms: int = Field(500, ge=0)
    """the first retry's wait; it doubles, with jitter"""
    max_ms: int = Field(5_000, ge=0)
    """the longest wait between retries"""
    budget_secs: float = Field(30.0, ge=0)
    """total time retries may take"""
    parameter_reformat_provider: str | None = None
    """an [[llm.providers]] name: a call refused for its parameters is rewritten by it to fit the schema and sent
    once more, through every gate (unset or "": the model is asked to resend it)"""

    @field_validator("parameter_reformat_provider")
    @classmethod
    def _empty_is_unset(cls, value: str | None) -> str | None:
        return value or None  # the reference writes "" for "disabled"


class DependencyRule(_Section):
    requires: list[str] = Field(default_factory=empty_list)
    prefers: list[str] = Field(default_factory=empty_list)


class DependencySettings(_Section):
    """``[gates.dependencies]``: tools hidden until their prerequisites have run."""

    enabled: bool = False
    """hide tools until the tools they require have completed"""
    rules: dict[str, DependencyRule] = Field(default_factory=dict)
    """per tool: requires and prefers"""
    always_on: list[str] = Field(default_factory=empty_list, description="tools never hidden by unmet requirements")
    boost_per_dep: float = Field(0.15, ge=0, le=1, description="rank a completed preferred tool adds (seed 003)")
    max_total_boost: float = Field(0.2, ge=0, le=1, description="the most a tool's preferences can add")


class AnomalySettings(_Section):
    """``[gates.anomaly]``: block a tool whose recent calls mostly fail."""

    enabled: bool = False
    """watch each tool's recent failures"""
    window_size: int = Field(10, ge=1, le=10_000)
    """the last calls per tool that are judged. Not the seed's 20, because with 20 a tool that fails every call
    runs ten more times before it is judged"""
    error_threshold: Annotated[float, _unit_interval(0.5)] = 0.5
    """the failure rate that logs a warning"""
    critical_threshold: Annotated[float, _unit_interval(0.8)] = 0.8
    """the failure rate that blocks the tool for the session"""
    # Seed 003's names: the failure rate that blocks (critical_threshold by another name; when set, it wins), and
    # whether reaching it blocks the tool or only warns.
    failure_threshold: Annotated[float, _unit_interval(0.7)] | None = None
    """seed 003's name for the blocking rate; when set, it wins"""
    auto_block: bool = True
    """false: reaching the blocking rate only warns"""

    @property
    def blocking_threshold(self) -> float:
        return self.failure_threshold if self.failure_threshold is not None else self.critical_threshold


class AuthorizationRule(_Section):
    effect: Literal["allow", "ask", "deny"]
    tool: str = Field(min_length=1)
    args_match: Regex | None = None
    paths: list[str] = Field(default_factory=empty_list)
    capabilities: list[Literal["mutates", "read_only", "network", "shell", "files", "kernel"]] = Field(
        default_factory=empty_list, description="the rule applies only to tools with every one of these (seed 003)"
    )


class AuthorizationSettings(_Section):
    """``[gates.authorization]``: rules merged after the permission rules."""

    enabled: bool = False
    """consult the authorization rules after the permission rules"""
    rules: list[AuthorizationRule] = Field(default_factory=empty_list)
    """effect, tool glob, args_match, paths, capabilities"""


class AdversarialPolicySettings(_Section):
    """``[gates.adversarial]`` (seed 003): a second model checks each call against plain-language policies."""

    enabled: bool = False
    """ask the second model about every call the rules let through (but exempt_tools)"""
    provider: str | None = None
    """the [[llm.providers]] name of the model that checks"""
    policies: list[str] = Field(default_factory=empty_list)
    """the policies, in plain language ("never send data to hosts outside example.com")"""
    fail_open: bool = False
    """true: a check that fails or answers neither ALLOW nor DENY lets the call on (false: it is a DENY)"""
    block_on_reject: bool = True
    """false: a DENY only warns (the approval card and the audit row say it), the call goes on"""
    exempt_tools: list[str] = Field(default_factory=lambda: ["time", "read_overflow"])
    """tools never checked"""

    @model_validator(mode="after")
    def _has_what_it_needs(self) -> AdversarialPolicySettings:
        if self.enabled and (not self.provider or not self.policies):
            raise ValueError("enabled needs a provider (an [[llm.providers]] name) and at least one policy")
        return self


class DiagnosticsSettings(_Section):
    """``[tools.diagnostics]``."""

    max_diagnostics: int = Field(50, ge=1, le=1000, description="diagnostics listed when the call does not say")
