"""``%zeph skills``: what the model is offered, what waits for the person's say and why, and where it looked.
Plain text, so it reads the same in a notebook, a console and a test."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from zeph_nb.config import Settings
from zeph_nb.tools.skills.catalog import Skill, SkillCatalog
from zeph_nb.tools.skills.env import skill_env

__all__ = ["skills_command"]

USAGE = "%zeph skills [list | trust NAME | show NAME]"


def skills_command(
    args: Sequence[str], settings: Settings, workdir: str | os.PathLike[str] | None, started: float
) -> str:
    """The text ``%zeph skills`` prints for ``args``."""
    catalog = SkillCatalog(settings, workdir, started=started)
    if not args or args[0] == "list":
        return _listing(catalog, settings)
    if args[0] in ("trust", "show") and len(args) == 2:
        skill = catalog.get(args[1])
        if skill is None:
            return f"no skill is called {args[1]!r}\n\n" + _listing(catalog, settings)
        if args[0] == "show":
            return f"{skill.folder / 'SKILL.md'}\n{_state(skill)}\n\n{skill.body}"
        if skill.problem is not None:
            return f"{skill.name} cannot be used: {skill.problem}"
        trusted = catalog.trust(skill.name)
        return (f"trusted {trusted.name} as it is now (sha256 {trusted.digest[:12]}, {trusted.folder}); "
                "the model may load it in this kernel. A later change to any of its files holds it again.")  # fmt: skip
    return f"usage: {USAGE}"


def _state(skill: Skill) -> str:
    if skill.problem is not None:
        return f"broken: {skill.problem}"
    if skill.held is not None:
        return f"HELD, {skill.held}: read it, then %zeph skills trust {skill.name}"
    if skill.missing:
        return (
            f"waiting for {', '.join(skill.missing)}: set_skill_env({skill.name!r}, ...) or [skills.env.{skill.name}]"
        )
    return "offered"


def _listing(catalog: SkillCatalog, settings: Settings) -> str:
    if not settings.skills.enabled:
        return "skills are off ([skills] enabled = false): the model is offered none"
    skills = catalog.skills()
    lines = []
    if not skills:
        lines.append("no skills found")
    for skill in skills:
        lines.append(f"{skill.name}  [{skill.where}]  {_state(skill)}")
        lines.append(f"    {skill.description or '-'}")
        lines.append(f"    {skill.folder}" + (f"  (+{len(skill.files)} files)" if skill.files else ""))
        names = sorted(skill_env(skill.name, settings))
        if names:
            lines.append(f"    its scripts get: {', '.join(names)} (values not shown)")
    for skill in catalog.shadowed():
        lines.append(f"(not used: {skill.folder}, a skill named {skill.name} was found first)")
    searched = ", ".join(str(root) + ("" if Path(root).is_dir() else " (none)") for root, _ in catalog.roots())
    lines.append(f"searched: {searched}")
    return "\n".join(lines)
