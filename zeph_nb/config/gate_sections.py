"""The tables the gates read: ``[tools.result_cache]``, ``[tools.retry]``, ``[tools.tafc]``,
``[tools.dependencies]``, ``[tools.anomaly]``, ``[tools.authorization]``, and ``[tools.diagnostics]``."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from zeph_nb.config.common import Regex, _Section, _unit_interval

__all__ = [
    "AnomalySettings",
    "AuthorizationRule",
    "AuthorizationSettings",
    "DependencyRule",
    "DependencySettings",
    "DiagnosticsSettings",
    "ResultCacheSettings",
    "RetrySettings",
    "TafcSettings",
]


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
    boost_per_dep: float = Field(0.15, ge=0, le=1, description="rank a completed preferred tool adds (seed 003)")
    max_total_boost: float = Field(0.2, ge=0, le=1, description="the most a tool's preferences can add")


class AnomalySettings(_Section):
    """``[tools.anomaly]``: block a tool whose recent calls mostly fail."""

    enabled: bool = False
    window_size: int = Field(10, ge=1, le=10_000)
    error_threshold: Annotated[float, _unit_interval(0.5)] = 0.5
    critical_threshold: Annotated[float, _unit_interval(0.8)] = 0.8
    # Seed 003's names: the failure rate that blocks (critical_threshold by another name; when set, it wins), and
    # whether reaching it blocks the tool or only warns.
    failure_threshold: Annotated[float, _unit_interval(0.7)] | None = None
    auto_block: bool = True

    @property
    def blocking_threshold(self) -> float:
        return self.failure_threshold if self.failure_threshold is not None else self.critical_threshold


class AuthorizationRule(_Section):
    effect: Literal["allow", "ask", "deny"]
    tool: str = Field(min_length=1)
    args_match: Regex | None = None
    paths: list[str] = Field(default_factory=list)
    capabilities: list[Literal["mutates", "read_only", "network", "shell", "files", "kernel"]] = Field(
        default_factory=list, description="the rule applies only to tools with every one of these (seed 003)"
    )


class AuthorizationSettings(_Section):
    """``[tools.authorization]``: rules merged after the permission rules."""

    enabled: bool = False
    rules: list[AuthorizationRule] = Field(default_factory=list)


class DiagnosticsSettings(_Section):
    """``[tools.diagnostics]``."""

    max_diagnostics: int = Field(50, ge=1, le=1000, description="diagnostics listed when the call does not say")
