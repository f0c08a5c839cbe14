"""Skills (issue 49, item 2): folders of instructions the model loads with ``load_skill``; the person's view and
say from Python (``list_skills``, ``trust_skill``, ``set_skill_env``), which the ``%zeph skills`` magic uses."""

from __future__ import annotations

import os

from zeph_nb.config import Settings
from zeph_nb.tools.skills.catalog import Skill, SkillCatalog
from zeph_nb.tools.skills.env import set_skill_env, skill_env
from zeph_nb.tools.skills.executor import LOAD_SKILL, SkillExecutor

__all__ = ["LOAD_SKILL", "Skill", "SkillCatalog", "SkillExecutor", "list_skills", "set_skill_env", "skill_env",
           "trust_skill"]  # fmt: skip


def _catalog(settings: Settings | None, workdir: str | os.PathLike[str] | None) -> SkillCatalog:
    from zeph_nb.tools.started import STARTED

    return SkillCatalog(settings or Settings.load(), workdir, started=STARTED)


def list_skills(settings: Settings | None = None, workdir: str | os.PathLike[str] | None = None) -> list[Skill]:
    """Every skill found for ``workdir`` (default: the current directory), usable, held or broken."""
    return _catalog(settings, workdir).skills()


def trust_skill(name: str, settings: Settings | None = None, workdir: str | os.PathLike[str] | None = None) -> Skill:
    """The person's say: the skill ``name`` as it is now may be loaded in this kernel (a later change holds it
    again). Raises KeyError for a name no folder holds."""
    return _catalog(settings, workdir).trust(name)
