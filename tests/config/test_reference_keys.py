"""Every key of the reference agent's configuration (bug-ops/zeph, ``config/default.toml``) is either read here,
reaching a key of ours with its value, or refused with a line saying why it does not apply to zeph-nb and what to
use instead (issue 49), never pydantic's bare "extra inputs are not permitted" or a silent drop. A person porting
the reference's file hears every refusal in one load.

The keys below were written by hand from reading that file: the keys it sets, with its values, and the keys it
shows commented out (``# key = value``), which a person may set. ``[]`` marks a key of an array of tables' entry."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path
from typing import Any

import pytest
import tomlkit

from zeph_nb.config import Settings
from zeph_nb.errors import ConfigError

# The keys the reference's file sets, with its values.
SET_BY_DEFAULT: dict[str, Any] = {
    "agent.name": "Zeph",
    "agent.max_tool_iterations": 10,
    "llm.providers[].type": "ollama",
    "llm.providers[].model": "qwen3:8b",
    "llm.providers[].embedding_model": "qwen3-embedding",
    "skills.max_active_skills": 5,
    "skills.learning.enabled": False,
    "skills.learning.auto_activate": False,
    "skills.learning.min_failures": 3,
    "skills.learning.improve_threshold": 0.7,
    "skills.learning.rollback_threshold": 0.5,
    "skills.learning.min_evaluations": 5,
    "skills.learning.max_versions": 10,
    "skills.learning.cooldown_minutes": 60,
    "skills.mining.max_repos_per_query": 20,
    "skills.mining.dedup_threshold": 0.85,
    "skills.mining.rate_limit_rpm": 25,
    "skills.trust.default_level": "quarantined",
    "skills.trust.local_level": "trusted",
    "skills.trust.hash_mismatch_level": "quarantined",
    "skills.trust.scan_on_load": True,
    "skills.trust.scanner.injection_patterns": True,
    "memory.history_limit": 50,
    "memory.qdrant_url": "http://localhost:6334",
    "memory.summarization_threshold": 50,
    "memory.context_budget_tokens": 0,
    "memory.auto_budget": True,
    "memory.soft_compaction_threshold": 0.6,
    "memory.hard_compaction_threshold": 0.9,
    "memory.compaction_preserve_tail": 6,
    "memory.compaction_cooldown_turns": 2,
    "memory.prune_protect_tokens": 40000,
    "memory.cross_session_score_threshold": 0.35,
    "memory.vector_backend": "sqlite",
    "memory.autosave_assistant": True,
    "memory.sessions.max_history": 100,
    "memory.sessions.title_max_chars": 60,
    "memory.documents.collection": "zeph_documents",
    "memory.documents.chunk_size": 1000,
    "memory.documents.chunk_overlap": 100,
    "memory.documents.top_k": 3,
    "memory.documents.rag_enabled": False,
    "memory.semantic.enabled": True,
    "memory.semantic.recall_limit": 5,
    "memory.semantic.vector_weight": 0.7,
    "memory.semantic.keyword_weight": 0.3,
    "memory.semantic.temporal_decay_enabled": True,
    "memory.semantic.mmr_enabled": True,
    "memory.semantic.importance_enabled": True,
    "memory.semantic.importance_weight": 0.15,
    "memory.tiers.enabled": False,
    "memory.tiers.promotion_min_sessions": 3,
    "memory.tiers.similarity_threshold": 0.92,
    "memory.tiers.sweep_interval_secs": 3600,
    "memory.tiers.sweep_batch_size": 100,
    "index.enabled": False,
    "index.max_chunks": 12,
    "index.score_threshold": 0.25,
    "index.budget_ratio": 0.4,
    "index.repo_map_tokens": 500,
    "index.repo_map_ttl_secs": 300,
    "mcp.allowed_commands": ["npx", "uvx", "node", "python", "python3"],
    "mcp.max_dynamic_servers": 10,
    "mcp.pruning.enabled": False,
    "mcp.pruning.max_tools": 15,
    "mcp.pruning.pruning_provider": "",
    "mcp.pruning.min_tools_to_prune": 10,
    "mcp.pruning.always_include": [],
    "mcp.tool_discovery.strategy": "none",
    "mcp.tool_discovery.top_k": 10,
    "mcp.tool_discovery.min_similarity": 0.2,
    "mcp.tool_discovery.embedding_provider": "",
    "mcp.tool_discovery.always_include": [],
    "mcp.tool_discovery.min_tools_to_filter": 10,
    "mcp.tool_discovery.strict": False,
    "cost.enabled": True,
    "cost.max_daily_cents": 0,
    "vault.backend": "env",
    "a2a.enabled": False,
    "a2a.host": "0.0.0.0",  # noqa: S104 - a value in a file, bound to nothing
    "a2a.port": 8080,
    "a2a.public_url": "",
    "a2a.rate_limit": 60,
    "a2a.require_tls": True,
    "a2a.ssrf_protection": True,
    "a2a.max_body_size": 1048576,
    "tools.enabled": True,
    "tools.summarize_output": True,
    "tools.shell.timeout": 30,
    "tools.shell.blocked_commands": [],
    "tools.shell.allowed_commands": [],
    "tools.shell.allowed_paths": [],
    "tools.shell.allow_network": True,
    "tools.shell.confirm_patterns": ["rm ", "git push -f", "git push --force", "drop table", "drop database",
                                     "truncate "],
    "tools.scrape.timeout": 15,
    "tools.scrape.max_body_bytes": 1048576,
    "tools.filters.enabled": True,
    "tools.overflow.threshold": 50000,
    "tools.overflow.retention_days": 7,
    "tools.overflow.max_overflow_bytes": 10485760,
    "tools.audit.enabled": True,
    "tools.audit.destination": "stdout",
    "tools.policy.enabled": False,
    "tools.policy.default_effect": "deny",
    "tools.retry.max_attempts": 2,
    "tools.retry.base_ms": 500,
    "tools.retry.max_ms": 5000,
    "tools.retry.budget_secs": 30,
    "tools.anomaly.enabled": True,
    "tools.anomaly.window_size": 10,
    "tools.anomaly.error_threshold": 0.5,
    "tools.anomaly.critical_threshold": 0.8,
    "gateway.enabled": False,
    "gateway.bind": "127.0.0.1",
    "gateway.port": 8090,
    "gateway.rate_limit": 120,
    "gateway.max_body_size": 1048576,
    "metrics.enabled": False,
    "metrics.path": "/metrics",
    "metrics.sync_interval_secs": 5,
    "daemon.enabled": False,
    "daemon.pid_file": "~/.zeph/zeph.pid",
    "daemon.health_interval_secs": 30,
    "daemon.max_restart_backoff_secs": 60,
    "scheduler.enabled": True,
    "security.redact_secrets": True,
    "security.autonomy_level": "supervised",
    "security.guardrail.enabled": False,
    "security.guardrail.timeout_ms": 500,
    "security.guardrail.action": "block",
    "security.guardrail.fail_strategy": "closed",
    "security.guardrail.scan_tool_output": False,
    "security.guardrail.max_input_chars": 4096,
    "security.content_isolation.enabled": True,
    "security.content_isolation.max_content_size": 65536,
    "security.content_isolation.flag_injection_patterns": True,
    "security.content_isolation.spotlight_untrusted": True,
    "security.content_isolation.quarantine.enabled": False,
    "security.content_isolation.quarantine.sources": ["web_scrape", "a2a_message"],
    "security.content_isolation.quarantine.model": "claude",
    "timeouts.llm_seconds": 120,
    "timeouts.embedding_seconds": 30,
    "timeouts.a2a_seconds": 30,
    "timeouts.max_parallel_tools": 8,
    "debug.enabled": False,
    "debug.format": "json",
    "debug.traces.otlp_endpoint": "http://localhost:4317",
    "debug.traces.service_name": "zeph",
    "debug.traces.redact": True,
    "tui.show_source_labels": False,
    "acp.enabled": False,
    "acp.agent_name": "zeph",
    "acp.transport": "stdio",
    "acp.http_bind": "127.0.0.1:9800",
    "acp.max_sessions": 4,
    "acp.session_idle_timeout_secs": 1800,
    "acp.broadcast_capacity": 256,
    "acp.discovery_enabled": True,
    "acp.available_models": [],
    "acp.additional_directories": [],
    "acp.auth_methods": ["agent"],
    "acp.message_ids_enabled": True,
    "acp.lsp.enabled": True,
    "acp.lsp.auto_diagnostics_on_save": True,
    "acp.lsp.max_diagnostics_per_file": 20,
    "acp.lsp.max_diagnostic_files": 5,
    "acp.lsp.max_references": 100,
    "acp.lsp.max_workspace_symbols": 50,
    "acp.lsp.request_timeout_secs": 10,
    "acp.subagents.enabled": False,
    "agents.enabled": False,
    "agents.max_concurrent": 1,
    "agents.allow_bypass_permissions": False,
    "agents.transcript_enabled": True,
    "agents.transcript_max_files": 50,
    "orchestration.enabled": False,
    "orchestration.max_tasks": 20,
    "orchestration.max_parallel": 4,
    "orchestration.default_failure_strategy": "abort",
    "orchestration.default_max_retries": 3,
    "orchestration.task_timeout_secs": 300,
    "orchestration.planner_max_tokens": 4096,
    "orchestration.dependency_context_budget": 16384,
    "orchestration.confirm_before_execute": True,
    "orchestration.aggregator_max_tokens": 4096,
    "orchestration.deferral_backoff_ms": 250,
    "orchestration.topology_selection": False,
    "orchestration.verify_provider": "",
    "orchestration.verify_max_tokens": 1024,
    "orchestration.max_replans": 2,
    "orchestration.verify_completeness": False,
    "classifiers.enabled": False,
    "classifiers.timeout_ms": 5000,
    "classifiers.injection_model": "protectai/deberta-v3-small-prompt-injection-v2",
    "classifiers.injection_threshold": 0.8,
    "classifiers.ner_model": "iiiorg/piiranha-v1-detect-personal-information",
    "experiments.enabled": False,
    "experiments.max_experiments": 20,
    "experiments.max_wall_time_secs": 3600,
    "experiments.min_improvement": 0.5,
    "experiments.eval_budget_tokens": 100000,
    "experiments.auto_apply": False,
    "experiments.schedule.enabled": False,
    "experiments.schedule.cron": "0 3 * * *",
    "experiments.schedule.max_experiments_per_run": 20,
    "experiments.schedule.max_wall_time_secs": 1800,
    "logging.level": "info",
    "logging.rotation": "daily",
    "logging.max_files": 7,
}  # fmt: skip

# The keys the reference's file shows commented out, with its example values (or one of the kind it takes).
COMMENTED_OUT: dict[str, Any] = {
    "agent.auto_update_check": True,
    "agent.instruction_auto_detect": True,
    "agent.budget_hint_enabled": True,
    "agent.instruction_files": ["custom-instructions.md"],
    "agent.supervisor.enrichment_limit": 4,
    "agent.supervisor.telemetry_limit": 8,
    "agent.supervisor.abort_enrichment_on_turn": False,
    "agent.focus.enabled": False,
    "agent.focus.compression_interval": 12,
    "agent.focus.reminder_interval": 15,
    "agent.focus.min_messages_per_focus": 8,
    "agent.focus.max_knowledge_tokens": 4096,
    "llm.routing": "none",
    "llm.router.bandit.alpha": 1.0,
    "llm.router.bandit.dim": 32,
    "llm.router.bandit.cost_weight": 0.1,
    "llm.router.bandit.decay_factor": 1.0,
    "llm.router.bandit.embedding_timeout_ms": 50,
    "llm.router.bandit.cache_size": 512,
    "llm.router.bandit.embedding_provider": "",
    "llm.router.bandit.state_path": "",
    "llm.summary_model": "ollama/qwen3:1.7b",
    "llm.summary_provider.type": "claude",
    "llm.summary_provider.model": "claude-haiku-4-5-20251001",
    "llm.response_cache_enabled": False,
    "llm.response_cache_ttl_secs": 3600,
    "llm.stt.provider": "openai-stt",
    "llm.stt.language": "auto",
    "llm.complexity_routing.triage_provider": "fast",
    "llm.providers[].name": "groq",
    "llm.providers[].stt_model": "whisper-1",
    "llm.providers[].base_url": "http://localhost:11434",
    "llm.providers[].embed": True,
    "llm.providers[].default": True,
    "llm.providers[].tool_use": False,
    "llm.providers[].vision_model": "llava:7b",
    "llm.providers[].instruction_file": "llm-instructions.md",
    "llm.providers[].max_tokens": 4096,
    "llm.providers[].server_compaction": False,
    "llm.providers[].enable_extended_context": False,
    "llm.providers[].prompt_cache_ttl": "1h",
    "llm.providers[].thinking": {"type": "enabled", "budget_tokens": 10000},
    "llm.providers[].reasoning_effort": "medium",
    "llm.providers[].thinking_level": "low",
    "llm.providers[].thinking_budget": 1024,
    "llm.providers[].candle.source": "huggingface",
    "llm.providers[].candle.filename": "mistral-7b-instruct-v0.2.Q4_K_M.gguf",
    "llm.providers[].candle.local_path": "",
    "llm.providers[].candle.chat_template": "chatml",
    "llm.providers[].candle.device": "cpu",
    "skills.paths": ["/absolute/path/to/skills"],
    "skills.prompt_mode": "auto",
    "skills.disambiguation_threshold": 0.05,
    "skills.rl_routing_enabled": False,
    "skills.rl_learning_rate": 0.01,
    "skills.rl_weight": 0.3,
    "skills.rl_persist_interval": 10,
    "skills.rl_warmup_updates": 50,
    "skills.learning.detector_mode": "regex",
    "skills.learning.judge_model": "",
    "skills.learning.detector_model": "",
    "skills.learning.cross_session_rollout": False,
    "skills.learning.min_sessions_before_promote": 2,
    "skills.learning.min_sessions_before_demote": 1,
    "skills.learning.max_auto_sections": 3,
    "skills.learning.domain_success_gate": False,
    "skills.learning.arise_enabled": False,
    "skills.learning.arise_min_tool_calls": 2,
    "skills.learning.arise_trace_provider": "",
    "skills.learning.stem_enabled": False,
    "skills.learning.stem_min_occurrences": 3,
    "skills.learning.stem_min_success_rate": 0.8,
    "skills.learning.stem_provider": "",
    "skills.learning.stem_retention_days": 90,
    "skills.learning.stem_pattern_window_days": 30,
    "skills.learning.erl_enabled": False,
    "skills.learning.erl_extract_provider": "",
    "skills.learning.erl_max_heuristics_per_skill": 3,
    "skills.learning.erl_dedup_threshold": 0.9,
    "skills.learning.erl_min_confidence": 0.5,
    "skills.learning.d2skill_enabled": False,
    "skills.learning.d2skill_max_corrections": 3,
    "skills.learning.d2skill_provider": "",
    # In the file these two follow the [skills.learning] keys with no table of their own.
    "skills.learning.generation_provider": "quality",
    "skills.learning.generation_output_dir": "~/.config/zeph/generated-skills",
    "skills.mining.queries": ["topic:cli-tool language:rust stars:>100", "topic:devops-tool"],
    "skills.mining.output_dir": "~/.config/zeph/mined-skills",
    "skills.mining.generation_provider": "quality",
    "skills.mining.embedding_provider": "fast",
    "skills.trust.scanner.capability_escalation_check": False,
    "memory.sqlite_path": "/absolute/path/to/zeph.db",
    "memory.database_url": "",
    "memory.token_safety_margin": 1.0,
    "memory.redact_credentials": True,
    "memory.autosave_min_length": 20,
    "memory.shutdown_summary": True,
    "memory.shutdown_summary_min_messages": 4,
    "memory.shutdown_summary_max_messages": 20,
    "memory.semantic.temporal_decay_half_life_days": 30,
    "memory.semantic.mmr_lambda": 0.7,
    "memory.semantic.embed_provider": "ollama-embed",
    "memory.semantic.scene_provider": "fast",
    "memory.graph.enabled": False,
    "memory.graph.extract_model": "claude-sonnet-4-5-20250929",
    "memory.graph.max_entities_per_message": 10,
    "memory.graph.max_edges_per_message": 15,
    "memory.graph.community_refresh_interval": 100,
    "memory.graph.entity_similarity_threshold": 0.85,
    "memory.graph.use_embedding_resolution": False,
    "memory.graph.entity_ambiguous_threshold": 0.7,
    "memory.graph.extraction_timeout_secs": 15,
    "memory.graph.max_hops": 2,
    "memory.graph.recall_limit": 10,
    "memory.graph.expired_edge_retention_days": 90,
    "memory.graph.max_entities": 0,
    "memory.graph.consolidation.consolidation_provider": "fast",
    "memory.compression_guidelines.enabled": False,
    "memory.compression_guidelines.update_threshold": 5,
    "memory.compression_guidelines.max_guidelines_tokens": 500,
    "memory.compression_guidelines.max_pairs_per_update": 10,
    "memory.compression_guidelines.detection_window_turns": 10,
    "memory.compression_guidelines.update_interval_secs": 300,
    "memory.compression_guidelines.max_stored_pairs": 100,
    "memory.sidequest.enabled": False,
    "memory.sidequest.interval_turns": 10,
    "memory.sidequest.max_eviction_ratio": 0.5,
    "memory.sidequest.max_cursors": 30,
    "memory.sidequest.min_cursor_tokens": 50,
    "memory.compression.pruning_strategy": "reactive",
    "memory.compression.compress_provider": "fast",
    "memory.compression.archive_tool_outputs": False,
    "memory.compression.probe.enabled": False,
    "memory.compression.probe.model": "",
    "memory.compression.probe.threshold": 0.6,
    "memory.compression.probe.hard_fail_threshold": 0.35,
    "memory.compression.probe.max_questions": 3,
    "memory.compression.probe.timeout_secs": 15,
    "memory.compression.probe.probe_provider": "fast",
    "memory.admission.admission_provider": "fast",
    "memory.admission.admission_strategy": "heuristic",
    "memory.admission.rl_min_samples": 500,
    "index.watch": True,
    "index.embed_provider": "ollama-embed",
    "discord.token": "",
    "discord.application_id": "",
    "discord.allowed_user_ids": [],
    "discord.allowed_role_ids": [],
    "discord.allowed_channel_ids": [],
    "slack.bot_token": "",
    "slack.signing_secret": "",
    "slack.port": 3000,
    "slack.webhook_host": "127.0.0.1",
    "slack.allowed_user_ids": [],
    "slack.allowed_channel_ids": [],
    "telegram.token": "your-bot-token",
    "telegram.allowed_users": ["username1", "username2"],
    "mcp.elicitation_enabled": False,
    "mcp.elicitation_timeout": 120,
    "mcp.elicitation_queue_capacity": 16,
    "mcp.elicitation_warn_sensitive_fields": True,
    "mcp.servers[].id": "filesystem",
    "mcp.servers[].command": "npx",
    "mcp.servers[].args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
    "mcp.servers[].env": {"LOG_LEVEL": "debug"},
    "mcp.servers[].timeout": 30,
    "mcp.servers[].trust_level": "untrusted",
    "mcp.servers[].tool_allowlist": [],
    "mcp.servers[].url": "https://api.todoist.com/mcp",
    "mcp.servers[].headers.Authorization": "Bearer ${TODOIST_API_TOKEN}",
    "mcp.servers[].oauth.enabled": True,
    "mcp.servers[].oauth.token_storage": "vault",
    "mcp.servers[].oauth.scopes": [],
    "mcp.servers[].oauth.callback_port": 18766,
    "mcp.servers[].oauth.client_name": "Zeph",
    "a2a.auth_token": "",
    "tools.file.deny_read": ["/etc/shadow", "/root/*", "/home/*/.ssh/*"],
    "tools.file.allow_read": ["/etc/hostname"],
    "tools.sandbox.enabled": False,
    "tools.sandbox.profile": "workspace",
    "tools.sandbox.backend": "auto",
    "tools.sandbox.strict": True,
    "tools.sandbox.allow_read": [],
    "tools.sandbox.allow_write": [],
    "tools.filters.test.enabled": True,
    "tools.filters.test.max_failures": 10,
    "tools.filters.test.truncate_stack_trace": 50,
    "tools.filters.git.enabled": True,
    "tools.filters.git.max_log_entries": 20,
    "tools.filters.git.max_diff_lines": 500,
    "tools.filters.clippy.enabled": True,
    "tools.filters.cargo_build.enabled": True,
    "tools.filters.dir_listing.enabled": True,
    "tools.filters.log_dedup.enabled": True,
    "tools.filters.security.enabled": True,
    "tools.filters.security.extra_patterns": [],
    "tools.permissions.shell": [{"pattern": "/tmp/*", "action": "allow"}, {"pattern": "/etc/*", "action": "deny"}],
    "tools.policy.policy_file": "policy.toml",
    "tools.policy.rules[].effect": "deny",
    "tools.policy.rules[].tool": "shell",
    "tools.policy.rules[].paths": ["/etc/*", "/root/*"],
    "tools.retry.parameter_reformat_provider": "fast",
    "gateway.auth_token": "secret",
    "scheduler.tasks[].name": "memory_cleanup",
    "scheduler.tasks[].cron": "0 0 0 * * *",
    "scheduler.tasks[].kind": "memory_cleanup",
    "scheduler.tasks[].config": {"max_age_days": 90},
    "security.guardrail.provider": "ollama",
    "security.guardrail.model": "llama-guard-3:1b",
    "debug.output_dir": "/absolute/path/to/debug",
    "acp.subagents.presets[].name": "inner",
    "acp.subagents.presets[].command": "cargo run --quiet -- --acp",
    "acp.subagents.presets[].handshake_timeout_secs": 30,
    "acp.subagents.presets[].prompt_timeout_secs": 600,
    "orchestration.planner_provider": "quality",
    "logging.file": "/absolute/path/to/zeph.log",
    "learning.feedback_provider": "fast",
    "sanitizer.response_verification.verifier_provider": "fast",
    "telemetry.enabled": False,
    "telemetry.backend": "local",
    "telemetry.trace_dir": ".local/traces",
    "telemetry.include_args": False,
    "telemetry.otlp_endpoint": "http://localhost:4317",
    "telemetry.otlp_headers_vault_key": "",
    "telemetry.pyroscope_endpoint": "http://localhost:4040",
    "telemetry.service_name": "zeph-agent",
    "telemetry.sample_rate": 1.0,
    "telemetry.system_metrics_interval_secs": 5,
    "session.recap.on_resume": True,
    "session.recap.max_tokens": 200,
    "session.recap.provider": "",
    "session.recap.max_input_messages": 20,
    "hooks.cwd_changed[].type": "command",
    "hooks.cwd_changed[].command": "echo 'cwd changed to $ZEPH_NEW_CWD'",
    "hooks.cwd_changed[].timeout_secs": 10,
    "hooks.cwd_changed[].fail_closed": False,
    "hooks.cwd_changed[].server": "my-server",
    "hooks.cwd_changed[].tool": "on_cwd_changed",
    "hooks.permission_denied[].type": "mcp_tool",
    "hooks.permission_denied[].command": "echo 'denied: $ZEPH_DENIED_TOOL ($ZEPH_DENY_REASON)'",
    "hooks.permission_denied[].timeout_secs": 5,
    "hooks.permission_denied[].fail_closed": False,
    "hooks.permission_denied[].server": "policy-server",
    "hooks.permission_denied[].tool": "audit_denied",
    "hooks.permission_denied[].args.severity": "high",
    "hooks.file_changed.watch_paths": ["src/", "Cargo.toml"],
    "hooks.file_changed.debounce_ms": 500,
    "hooks.file_changed.hooks[].type": "command",
    "hooks.file_changed.hooks[].command": "cargo check",
    "hooks.file_changed.hooks[].timeout_secs": 30,
    "hooks.file_changed.hooks[].fail_closed": False,
}  # fmt: skip

REFERENCE: dict[str, Any] = {**SET_BY_DEFAULT, **COMMENTED_OUT}

# The keys read here: reference key -> (our key it sets, "[0]" an entry of an array of tables, and a value of it
# that differs from our default, so that reading it changes the settings).
ACCEPTED: dict[str, tuple[str, Any]] = {
    "agent.name": ("agent.name", "Zeph"),
    "agent.max_tool_iterations": ("agent.max_tool_iterations", 25),
    "llm.providers[].name": ("llm.providers[0].name", "groq"),
    "llm.providers[].model": ("llm.providers[0].model", "qwen3:8b"),
    "llm.providers[].base_url": ("llm.providers[0].base_url", "https://api.groq.com/openai/v1"),
    "llm.providers[].max_tokens": ("llm.providers[0].max_tokens", 4096),
    "llm.providers[].embedding_model": ("llm.providers[0].embedding_model", "qwen3-embedding"),
    "skills.paths": ("skills.paths", ["/absolute/path/to/skills"]),
    "index.enabled": ("index.enabled", True),
    "index.max_chunks": ("index.max_chunks", 20),
    "index.score_threshold": ("index.score_threshold", 0.4),
    "mcp.servers[].command": ("mcp.servers[0].command", "uvx"),
    "mcp.servers[].args": ("mcp.servers[0].args", ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]),
    "mcp.servers[].env": ("mcp.servers[0].env", {"LOG_LEVEL": "debug"}),
    "mcp.servers[].url": ("mcp.servers[0].url", "https://api.todoist.com/mcp"),
    "mcp.servers[].headers.Authorization": ("mcp.servers[0].headers.Authorization", "Bearer token"),
    "tools.enabled": ("tools.enabled", False),
    "tools.summarize_output": ("output.summarize", False),
    "tools.shell.timeout": ("tools.shell.timeout", 60),
    "tools.shell.blocked_commands": ("tools.shell.blocked_commands", ["nc"]),
    "tools.shell.allowed_commands": ("tools.shell.allowed_commands", ["ls", "git"]),
    "tools.shell.allowed_paths": ("tools.shell.allowed_paths", ["/data"]),
    "tools.shell.allow_network": ("tools.shell.allow_network", False),
    "tools.shell.confirm_patterns": ("tools.shell.confirm_patterns", ["rm ", "git push -f"]),
    "tools.file.deny_read": ("tools.file.deny_read", ["/etc/shadow", "/root/*", "/home/*/.ssh/*"]),
    "tools.file.allow_read": ("tools.file.allow_read", ["/etc/hostname"]),
    "tools.scrape.timeout": ("tools.scrape.timeout", 30),
    "tools.scrape.max_body_bytes": ("tools.scrape.max_body_bytes", 4096),
    "tools.filters.enabled": ("output.filters.enabled", False),
    "tools.filters.test.enabled": ("output.filters.test.enabled", False),
    "tools.filters.test.max_failures": ("output.filters.test.max_failures", 3),
    "tools.filters.test.truncate_stack_trace": ("output.filters.test.truncate_stack_trace", 50),
    "tools.filters.git.enabled": ("output.filters.git.enabled", False),
    "tools.filters.git.max_log_entries": ("output.filters.git.max_log_entries", 5),
    "tools.filters.git.max_diff_lines": ("output.filters.git.max_diff_lines", 100),
    "tools.filters.clippy.enabled": ("output.filters.clippy.enabled", False),
    "tools.filters.cargo_build.enabled": ("output.filters.cargo_build.enabled", False),
    "tools.filters.dir_listing.enabled": ("output.filters.dir_listing.enabled", False),
    "tools.filters.log_dedup.enabled": ("output.filters.log_dedup.enabled", False),
    "tools.filters.security.enabled": ("output.filters.security.enabled", False),
    "tools.filters.security.extra_patterns": ("output.filters.security.extra_patterns", ["tok_[a-z0-9]{8}"]),
    "tools.permissions.shell": ("gates.permissions.shell", [{"pattern": "/tmp/*", "action": "allow"}]),
    "tools.overflow.threshold": ("output.overflow.threshold", 1000),
    "tools.overflow.retention_days": ("output.overflow.retention_days", 1),
    "tools.overflow.max_overflow_bytes": ("output.overflow.max_overflow_bytes", 0),
    "tools.audit.enabled": ("audit.enabled", True),  # the one value it takes: the audit log is always kept
    "tools.audit.destination": ("audit.destination", "stdout"),
    "tools.policy.enabled": ("gates.policy.enabled", True),
    "tools.policy.default_effect": ("gates.policy.default_effect", "allow"),
    "tools.policy.policy_file": ("gates.policy.policy_file", "policy.toml"),
    "tools.policy.rules[].effect": ("gates.policy.rules[0].effect", "allow"),
    "tools.policy.rules[].tool": ("gates.policy.rules[0].tool", "shell"),
    "tools.policy.rules[].paths": ("gates.policy.rules[0].paths", ["/etc/*", "/root/*"]),
    "tools.retry.max_attempts": ("gates.retry.max_attempts", 4),
    "tools.retry.base_ms": ("gates.retry.base_ms", 100),
    "tools.retry.max_ms": ("gates.retry.max_ms", 1000),
    "tools.retry.budget_secs": ("gates.retry.budget_secs", 10),
    "tools.retry.parameter_reformat_provider": ("gates.retry.parameter_reformat_provider", "fast"),
    "tools.anomaly.enabled": ("gates.anomaly.enabled", True),
    "tools.anomaly.window_size": ("gates.anomaly.window_size", 20),
    "tools.anomaly.error_threshold": ("gates.anomaly.error_threshold", 0.3),
    "tools.anomaly.critical_threshold": ("gates.anomaly.critical_threshold", 0.9),
    "scheduler.enabled": ("scheduler.enabled", True),
}  # fmt: skip

# What an accepted key needs beside it to load (a key that works only with another one, as it does in the reference).
NEEDS: dict[str, str] = {
    "index.enabled": 'embedding_provider = "emb"',
}

# The entry an array of tables' key is set in (the key's own value is put over it).
ENTRIES: dict[str, dict[str, Any]] = {
    "llm.providers": {"name": "local", "kind": "openai", "model": "m", "base_url": "http://localhost:11434/v1"},
    "mcp.servers": {"name": "fs", "command": "npx"},
    "tools.policy.rules": {"effect": "deny", "tool": "bash"},
}
URL_SERVER = {"name": "remote", "url": "http://localhost:3001/mcp"}
URL_KEYS = ("url", "headers", "oauth")


def nest(keys: dict[str, Any], *, entries: bool = True) -> dict[str, Any]:
    """Dotted keys as the tables of a TOML document; ``a[]`` is the one entry of the array of tables ``a``, made
    from ``ENTRIES`` (``entries``) or from the keys alone."""
    data: dict[str, Any] = {}
    for dotted, value in keys.items():
        node = data
        *parents, leaf = dotted.split(".")
        for index, part in enumerate(parents):
            if part.endswith("[]"):
                name = part[:-2]
                array = ".".join([*(p.removesuffix("[]") for p in parents[:index]), name])
                made = node.setdefault(name, [])
                if not made:
                    key = leaf if index == len(parents) - 1 else parents[index + 1]
                    made.append(dict(entry_for(array, key)) if entries else {})
                node = made[0]
            else:
                node = node.setdefault(part, {})
        node[leaf] = value
    return data


def entry_for(array: str, key: str) -> dict[str, Any]:
    if array == "mcp.servers" and key in URL_KEYS:
        return URL_SERVER
    return ENTRIES.get(array, {})


def write(tmp_path: Path, keys: dict[str, Any], extra: str = "", *, entries: bool = True) -> Path:
    (tmp_path / "policy.toml").write_text('[[rules]]\neffect = "deny"\ntool = "bash"\npaths = ["/secret/**"]\n')
    file = tmp_path / "zeph.toml"
    text = tomlkit.dumps(nest(keys, entries=entries))
    if extra:  # a key's companion, in the key's own table
        table = "[" + ".".join(next(iter(keys)).split(".")[:-1]) + "]"
        text = text.replace(table + "\n", f"{table}\n{extra}\n", 1)
    file.write_text(text, encoding="utf-8")
    return file


def load(file: Path, tmp_path: Path) -> Settings:
    env = {"ZEPH_HOME": str(tmp_path / "home")}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # a key of [tools.*] that moved: tested in test_moved_keys
        return Settings.load(file, env=env)


def at(data: Any, dotted: str) -> Any:
    """The value at our dotted key (``[0]``: an entry of an array) in a settings dump."""
    for part in dotted.split("."):
        name, _, index = part.partition("[")
        data = data[name]
        if index:
            data = data[int(index.rstrip("]"))]
    return data


def plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


def refused_where(dotted: str, message: str) -> str | None:
    """The part of ``dotted`` a refusal in ``message`` names: the key itself or the table it is under, as
    ``[table] key does not apply`` (``[llm.providers[0]] type``: in an entry) or ``[table] does not apply`` (a
    table zeph-nb does not have)."""
    parts = [part.removesuffix("[]") for part in dotted.split(".")]
    for cut in range(len(parts), 0, -1):
        *table, key = parts[:cut]
        entry = r"(\[\d+\])?"
        written = r"\.".join(re.escape(part) + entry for part in table)
        said = rf"\[{written}\] {re.escape(key)}" if table else rf"\[{re.escape(key)}\]"
        if re.search(said + " does not apply to zeph-nb: ", message):
            return ".".join(parts[:cut])
    return None


def test_the_two_lists_hold_each_key_once() -> None:
    assert not set(SET_BY_DEFAULT) & set(COMMENTED_OUT)
    assert set(ACCEPTED) <= set(REFERENCE)


@pytest.mark.parametrize("dotted", sorted(REFERENCE))
def test_a_reference_key_is_read_or_refused_saying_why(dotted: str, tmp_path: Path) -> None:
    if dotted in ACCEPTED:
        ours, value = ACCEPTED[dotted]
        settings = load(write(tmp_path, {dotted: value}, NEEDS.get(dotted, "")), tmp_path)
        dumped = settings.model_dump(mode="json")
        assert at(dumped, ours) == plain(value), f"{dotted} is read as {ours}"
        if dotted != "tools.audit.enabled":
            default = Settings().model_dump(mode="json")
            try:
                unset = at(default, ours)
            except (KeyError, IndexError, TypeError):
                unset = None  # an array entry or a table of tables: absent by default
            assert at(dumped, ours) != unset, f"{dotted} = {value!r} changes nothing"
        return
    with pytest.raises(ConfigError) as refused:
        load(write(tmp_path, {dotted: REFERENCE[dotted]}), tmp_path)
    message = str(refused.value)
    assert refused_where(dotted, message), message
    assert "Extra inputs are not permitted" not in message and "unknown key" not in message, message
    assert "; remove it" in message


def test_a_ported_reference_file_hears_every_refusal_at_once(tmp_path: Path) -> None:
    """The reference's file as it is (the keys it sets): one load names every key refused, each once, with why."""
    with pytest.raises(ConfigError) as refused:
        load(write(tmp_path, SET_BY_DEFAULT, entries=False), tmp_path)
    message = str(refused.value)
    lines = message.splitlines()[1:]
    named = {}
    for dotted in SET_BY_DEFAULT:
        if dotted in ACCEPTED:
            assert refused_where(dotted, message) is None, dotted
            continue
        where = refused_where(dotted, message)
        assert where, f"{dotted} is not named in:\n{message}"
        named[where] = dotted
    refusals = [line for line in lines if "does not apply to zeph-nb" in line]
    assert len(refusals) == len(named), "\n".join(refusals)
    # What is left: the one [[llm.providers]] entry the reference writes has no name and no kind (it says type).
    others = [line for line in lines if "does not apply to zeph-nb" not in line]
    assert sorted(line.split(": ")[1] for line in others) == ["llm.providers[0].kind", "llm.providers[0].name"], others


def test_a_refused_key_is_no_key_of_ours_and_its_reason_is_one_line() -> None:
    """A ``not_here`` key that is also a field would never be refused (pydantic reads it); a reason is said in one
    line of an error message and of the docs' table (``refused_table``)."""
    from zeph_nb.config.explain import model_type
    from zeph_nb.config.reference import refused_keys, refused_table

    def models(model: Any) -> Any:
        yield model
        for field in model.model_fields.values():
            if field.exclude:
                continue  # filled in by the loader, not a table of the file
            inner = model_type(field.annotation)
            entry = model_type((getattr(field.annotation, "__args__", None) or (None,))[0])
            for nested in (inner, entry):
                if nested is not None:
                    yield from models(nested)

    for model in models(Settings):
        assert not set(model.not_here) & set(model.model_fields), model
    refused = refused_keys()
    assert len(refused) > 100
    for where, why in refused:
        assert why and "\n" not in why and not why.endswith((".", ";")), where
    assert "| `[[llm.providers]] type` | it is called kind here" in refused_table()
