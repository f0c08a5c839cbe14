"""The reference agent's top-level tables that zeph-nb does not have, each with why and what it does instead: a
configuration ported from it (bug-ops/zeph ``config/default.toml``) is told this for each, in one load, rather than
"unknown key" (``Settings.not_here``; explain.py words the refusal). The keys of the tables zeph-nb does have are
refused the same way by each table's own ``not_here``."""

from __future__ import annotations

__all__ = ["TABLES"]

_CHAT = (
    "zeph-nb is driven from a notebook (the %%zeph cell magic) or from Python (zeph_nb.Agent), not from a chat "
    "service: there is no bot to connect"
)
_NO_SERVER = (
    "zeph-nb runs inside the notebook's kernel and listens on no port; another program drives it through the Python "
    "API (zeph_nb.Agent)"
)
_RECORD = (
    "every tool call is a row of the audit log in the store (%zeph audit shows it, zeph_nb.audit.sql queries it "
    "with pandas), with its duration and phases"
)

TABLES: dict[str, str] = {
    "discord": _CHAT,
    "slack": _CHAT,
    "telegram": _CHAT,
    "tui": "the notebook is the interface: there is no terminal UI to set",
    "a2a": f"there is no agent-to-agent server: {_NO_SERVER}",
    "acp": "there is no ACP server for editors: the notebook is the front end, and search_code starts its own "
    "language server ([index] language_server)",
    "gateway": f"there is no webhook gateway: {_NO_SERVER}",
    "metrics": f"there is no metrics endpoint: {_RECORD}",
    "telemetry": f"there is no tracing exporter: {_RECORD}",
    "debug": f"there is no dump of raw model requests: {_RECORD}, and each conversation is in the store's "
    "conversations table",
    "logging": "zeph-nb logs through Python's logging (the zeph_nb logger): the notebook or the program that runs "
    "it says where logs go and at what level",
    "daemon": "there is no daemon to supervise: zeph-nb lives in the kernel that imported it and stops with it",
    "vault": "keys are read from environment variables only ([[llm.providers]] api_key_env, ANTHROPIC_API_KEY, "
    "OPENAI_API_KEY), never from a file or a vault zeph-nb reads",
    "cost": "zeph-nb keeps no price list of the models, so it counts no spend: [gates.quota] "
    "max_tool_calls_per_session caps a conversation's tool calls, and [agent] context_budget_tokens its context",
    "timeouts": "each timeout is set beside what it bounds: [llm] timeout_secs and deadline_secs for the model; "
    "[memory] timeout_secs, [index] embedding_timeout_secs and [agent.tool_filter] timeout_secs for embeddings; "
    "[tools.shell] timeout for commands. Calls that only read run together, calls that change things one at a "
    "time, with no cap to set",
    "security": "zeph-nb's protections are always on or set gate by gate: secrets are redacted from every tool "
    "output, stored row and card ([output.filters.security]), what runs without asking is [gates.trust] level and "
    "the rules under [gates], and a second model checking each call is [gates.adversarial]; there is no autonomy "
    "level, guardrail classifier or content-isolation pipeline to set",
    "sanitizer": "there is no response verifier: a second model may check each tool call against your policies "
    "instead ([gates.adversarial])",
    "classifiers": "zeph-nb runs no ML classifiers: injected instructions meet the gates (approval, rules, "
    "[gates.adversarial]) and secrets the pattern scanner ([output.filters.security] extra_patterns)",
    "agents": "zeph-nb has no sub-agents: a run asks one model; a notebook runs several by using %%zeph in several "
    "cells",
    "orchestration": "zeph-nb has no planner or task graph: each %%zeph cell is one run, and the notebook's cells "
    "are the plan",
    "experiments": "zeph-nb never changes its own settings or prompts: there is no self-experimentation",
    "learning": "zeph-nb learns nothing from feedback on its own: what it does follows the settings, and the "
    "skills a person trusts",
    "session": "there is no recap of a previous session: its conversation is in the store's conversations table, "
    "read with pandas (zeph_nb.audit.sql)",
    "hooks": "there are no lifecycle hooks: what a run does is shown as events in the notebook and kept in the "
    "audit log; a refused call is shown where it happened",
}
