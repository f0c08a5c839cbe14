"""Where each configuration key comes from, for the "from" column of the docs' table of keys: the reference
agent (bug-ops/zeph: its ``config/default.toml``, its book, or its config crate), a seed that names a key the
reference's configuration does not have, or zeph-nb itself.

A key takes the entry of its longest listed prefix; a key under no entry is zeph-nb's own. tests/test_config.py
checks that every entry still names a key, so the list cannot drift from the settings model.
"""

from __future__ import annotations

__all__ = ["OWN", "SOURCES", "source_of"]

OWN = "zeph-nb"
_D = "reference config/default.toml "
_BOOK = "reference book "
_CRATE = "reference zeph-config "

_GROUPS: list[tuple[str, tuple[str, ...]]] = [
    (_D + "[agent]", ("agent.name", "agent.max_tool_iterations")),
    (_D + "[tools.audit]", ("audit",)),
    (_BOOK + "advanced/tools.md (iteration control)", ("agent.context_budget_tokens",)),
    ("seed 003 [agent] (not in the reference's config)",
     ("agent.hallucination_detection", "agent.reasoning_model_detection")),
    ("seed 003 [agent] (the reference: [memory.compression])", ("agent.compress_provider",)),
    ("seed 003 [agent.tool_filter] (the reference: [mcp.tool_discovery])", ("agent.tool_filter",)),
    (_D + "[tools]", ("tools.enabled",)),
    (_D + "[tools] summarize_output", ("output.summarize",)),
    ("seed 004 [tools]", tuple(f"tools.{key}" for key in (
        "shell_enabled", "file_enabled", "fetch_enabled", "web_scrape_enabled", "web_search_enabled",
        "diagnostics_enabled", "time_enabled"))),
    ("seed 004 [tools] shell_confirm", ("gates.approval.shell_confirm",)),
    (_D + "[tools.shell]", tuple(f"tools.shell.{key}" for key in (
        "timeout", "blocked_commands", "allowed_commands", "allowed_paths", "allow_network", "confirm_patterns"))),
    (_CRATE + "ShellConfig [tools.shell]", tuple(f"tools.shell.{key}" for key in (
        "transactional", "transaction_scope", "auto_rollback", "auto_rollback_exit_codes", "snapshot_required",
        "max_snapshot_bytes"))),
    ("seed 004 (execution backends)", ("tools.execution",)),
    (_D + "[tools.file]", ("tools.file.deny_read", "tools.file.allow_read")),
    (_D + "[tools.scrape]", ("tools.scrape.timeout", "tools.scrape.max_body_bytes")),
    (_D + "[tools.overflow]", ("output.overflow",)),
    (_D + "[tools.filters]", ("output.filters.enabled",)),
    (_D + "[tools.filters.*]", tuple(f"output.filters.{family}" for family in (
        "security", "test", "git", "clippy", "cargo_build", "dir_listing", "log_dedup"))),
    (_D + "[tools.permissions]", ("gates.permissions",)),
    (_D + "[tools.retry]", ("gates.retry",)),
    (_D + "[tools.anomaly]", tuple(f"gates.anomaly.{key}" for key in (
        "enabled", "window_size", "error_threshold", "critical_threshold"))),
    (_D + "[tools.policy]", ("gates.policy",)),
    (_BOOK + "advanced/tools.md", ("tools.file.allowed_paths", "output.filters.filters_path", "gates.cache",
                                   "agent.tafc", "gates.dependencies.enabled", "gates.dependencies.rules",
                                   "gates.dependencies.boost_per_dep", "gates.dependencies.max_total_boost",
                                   "gates.anomaly.failure_threshold", "gates.anomaly.auto_block",
                                   "tools.diagnostics")),
    (_BOOK + "advanced/policy-enforcer.md", ("gates.authorization",)),
    ("seed 003 [tools.adversarial_policy]", ("gates.adversarial",)),
    (_CRATE + "AdversarialPolicyConfig", tuple(f"gates.adversarial.{key}" for key in (
        "enabled", "fail_open", "exempt_tools"))),
    ("seed 003 (the reference: policy_provider)", ("gates.adversarial.provider",)),
    (_CRATE + "UtilityScoringConfig [tools.utility]", tuple(f"gates.utility.{key}" for key in (  # mode: ours
        "enabled", "threshold", "exempt_tools", "gain_weight", "cost_weight", "redundancy_weight",
        "uncertainty_bonus"))),
    (_D + "[[llm.providers]] (entries in zeph-nb's shape)", ("llm.providers",)),
    (_D + "[[mcp.servers]] (entries in zeph-nb's shape)", ("mcp.servers",)),
    (_CRATE + "SkillsConfig [skills]", ("skills.paths",)),
    ("the reference's SKILL.md x-requires-secrets (values from here, not a vault)", ("skills.env",)),
    (_D + "[index] (code indexing, here search_code's semantic layer)", ("index.enabled", "index.max_chunks",
                                                                     "index.score_threshold")),
    (_D + "[memory] vector_backend and qdrant_url (here the code index's)", ("index.vector_backend",
                                                                           "index.qdrant_url")),
]  # fmt: skip
SOURCES: dict[str, str] = {key: label for label, keys in _GROUPS for key in keys}


def source_of(key: str) -> str:
    """Where the dotted ``key`` comes from (its longest listed prefix), else zeph-nb."""
    while key:
        if key in SOURCES:
            return SOURCES[key]
        key = key.rpartition(".")[0]
    return OWN
