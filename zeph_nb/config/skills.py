"""``[skills]``: folders of instructions (``SKILL.md``) the model may load, and the environment their scripts get."""

from __future__ import annotations

import re

from pydantic import Field, field_validator

from zeph_nb.config.common import _Section, empty_list

__all__ = ["SKILL_NAME", "SkillsSettings"]

# The Agent Skills convention: lower-case letters, digits and hyphens. Also what keeps a name safe to print in a
# tool description and to use as a settings key.
SKILL_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class SkillsSettings(_Section):
    """``[skills]``: skills from the project's ``.zeph/skills/``, the zeph home's ``skills/`` and ``paths``."""

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
        "of them alone; only the person sets them (here or zeph_nb.set_skill_env), never the model, and their "
        "values are masked in what the script prints",
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
