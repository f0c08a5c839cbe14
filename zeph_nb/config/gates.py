"""``[gates]``: one table for each gate of the chain that reads settings (``gates/``), so a gate is given its own
table and nothing else. Until 0.x these lived under ``[tools]``; ``legacy.py`` still reads them there."""

from __future__ import annotations

from pydantic import Field

from zeph_nb.config.common import _Section
from zeph_nb.config.gate_sections import (
    AdversarialPolicySettings,
    AnomalySettings,
    ApprovalSettings,
    AuthorizationSettings,
    DependencySettings,
    PermissionRule,
    QuotaSettings,
    ResultCacheSettings,
    RetrySettings,
    TrustSettings,
)
from zeph_nb.config.policy import PolicySettings, UtilitySettings

__all__ = ["GatesSettings"]


class GatesSettings(_Section):
    """``[gates]``: what the gates between the model and the tools decide with."""

    approval: ApprovalSettings = Field(default_factory=ApprovalSettings)
    quota: QuotaSettings = Field(default_factory=QuotaSettings)
    trust: TrustSettings = Field(default_factory=TrustSettings)
    policy: PolicySettings = Field(default_factory=PolicySettings)
    permissions: dict[str, list[PermissionRule]] | None = None
    """ordered {pattern, action} rules per tool; first match wins"""
    authorization: AuthorizationSettings = Field(default_factory=AuthorizationSettings)
    dependencies: DependencySettings = Field(default_factory=DependencySettings)
    anomaly: AnomalySettings = Field(default_factory=AnomalySettings)
    adversarial: AdversarialPolicySettings = Field(default_factory=AdversarialPolicySettings)
    utility: UtilitySettings = Field(default_factory=UtilitySettings)
    cache: ResultCacheSettings = Field(default_factory=ResultCacheSettings)
    retry: RetrySettings = Field(default_factory=RetrySettings)
