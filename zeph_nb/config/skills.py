"""``[skills]``: folders of instructions (``SKILL.md``) the model may load, and the environment their scripts get."""

from __future__ import annotations

import re

from pydantic import Field, field_validator

from zeph_nb.config.common import _Section, empty_list

__all__ = ["NOT_HERE", "SKILL_NAME", "SkillsSettings"]

# The Agent Skills convention: lower-case letters, digits and hyphens. Also what keeps a name safe to print in a
# tool description and to use as a settings key.
SKILL_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

_RANKING = (
    "zeph-nb does not rank skills against the prompt and put the top ones in the system prompt: the model "
    "sees every usable skill's one-line description in the load_skill tool and loads the one it needs"
)
_WRITING = (
    "zeph-nb never writes, mines or learns skills itself; a skill the agent writes is held until the person "
    "trusts it (%zeph skills trust NAME)"
)
# The reference agent's [skills] keys that have no meaning here, each with why (a config ported from it hears this,
# not "extra inputs are not permitted").
NOT_HERE: dict[str, str] = {
    **dict.fromkeys(("max_active_skills", "disambiguation_threshold", "min_injection_score", "cosine_weight",
                     "hybrid_search", "bm25_alpha", "prompt_mode", "two_stage_matching", "confusability_threshold",
                     "rl_routing_enabled", "rl_learning_rate", "rl_weight", "rl_persist_interval",
                     "rl_warmup_updates", "rl_embed_dim", "query_rewrite_provider", "disambiguate_provider",
                     "semantic_scan", "semantic_scan_provider", "group_structured", "support_similarity_threshold"),
                    _RANKING),
    **dict.fromkeys(("learning", "generation_provider", "generation_timeout_ms", "generation_output_dir", "mining",
                     "evaluation", "proactive_exploration"), _WRITING),
    "trust": "a skill is trusted by the person's say for its files as they are (%zeph skills trust NAME), and held "
    "again when they change; there are no trust levels to set",
    "registry": "skills come only from the zeph home, [skills] paths and the project's .zeph/skills/; there is no "
    "registry to install from",
    "subagent_skill_token_budget": "zeph-nb has no sub-agents",
}  # fmt: skip


class SkillsSettings(_Section):
    """``[skills]``: skills from the project's ``.zeph/skills/``, the zeph home's ``skills/`` and ``paths``."""

    not_here = NOT_HERE

    enabled: bool = Field(True, description="offer the skills found to the model (the load_skill tool)")
    project: bool = Field(
        True, description="look for skills in the project's .zeph/skills/ (the notebook's working directory)"
    )
    paths: list[str] = Field(
        default_factory=empty_list,
        description="more folders holding one folder per skill (relative ones start at the working directory); "
        "the zeph home's skills/ is always read",
    )
    env: dict[str, dict[str, str]] = Field(
        default_factory=dict,
        description='[skills.env.<name>] KEY = "value": variables a skill\'s scripts get when a bash call runs one '
        "of them alone; only the person sets them (here or zeph_nb.tools.skills.set_skill_env), never the model, "
        "and their values are masked in what the script prints",
    )

    @field_validator("env")
    @classmethod
    def _names(cls, value: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
        for skill, variables in value.items():
            if not SKILL_NAME.match(skill):
                raise ValueError(f"[skills.env.{skill}]: a skill's name is lower-case letters, digits and hyphens")
            bad = [name for name in variables if not _ENV_NAME.match(name)]
            if bad:
                raise ValueError(f"[skills.env.{skill}]: {', '.join(bad)} cannot be environment variable names")
        return value
