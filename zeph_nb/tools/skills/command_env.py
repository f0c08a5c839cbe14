"""Which skill's script a command line runs, and so which skill's variables it gets.

Apart from env.py (the variables) and catalog.py (the skills found) because it needs both, and the catalog reads
the variables: here neither imports the other back.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from zeph_nb.config import Settings
from zeph_nb.tools.skills.catalog import SkillCatalog
from zeph_nb.tools.skills.env import skill_env, skill_of_script, skills_with_env
from zeph_nb.tools.started import STARTED

if TYPE_CHECKING:
    from zeph_nb.shell import ShellAnalysis

__all__ = ["env_for_command"]


def env_for_command(analysis: ShellAnalysis, settings: Settings, workdir: Path) -> tuple[str, dict[str, str]] | None:
    """(skill, its variables) when the line ``analysis`` parsed is one of a usable skill's scripts run alone: one
    simple command, no assignments before it, no redirect that writes (what the script prints is masked only in
    what the tool returns), nothing the line changes for every command. None otherwise, and when no skill has any."""
    named = skills_with_env(settings)
    if not named or not settings.skills.enabled:
        return None
    if len(analysis.commands) != 1 or analysis.writes_by_redirect or analysis.line_riders or analysis.defined:
        return None
    if not analysis.parsed:
        return None
    command = analysis.commands[0]
    if command.prefix or not command.argv:
        return None
    argv = (command.written or command.program or command.name, *command.argv[1:])
    skills = SkillCatalog(settings, workdir, started=STARTED).skills()
    folders = {skill.name: skill.folder for skill in skills if skill.usable and skill.name in named}
    name = skill_of_script(argv, folders, workdir)
    if name is None:
        return None
    variables = skill_env(name, settings)
    return (name, variables) if variables else None
