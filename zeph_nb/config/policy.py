"""The reference agent's declarative policy (``[gates.policy]``) and utility gate (``[gates.utility]``), and the
``[agent]`` keys that name helper models or switch checks of the model's own output (``AgentChecks``).

``[gates.policy] policy_file`` is read here, when the settings load (config is the one reader): a relative path is
taken from the config file's folder, and the file's ``[[rules]]`` replace the inline ones.
"""

from __future__ import annotations

import math
import os
import re
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator
from wcmatch import fnmatch, glob

from zeph_nb.config.common import Regex, _Section, empty_list

__all__ = ["AgentChecks", "PolicyRule", "PolicySettings", "UtilitySettings", "anchored", "names_tool"]

MAX_RULES = 256  # the reference's cap: a policy file cannot make the check slow
MAX_POLICY_FILE_BYTES = 256 * 1024


def names_tool(pattern: str, tool: str, *aliases: str) -> bool:
    """Whether a rule's ``tool`` glob names ``tool`` or one of its ``aliases`` (``ToolDef.aliases``: the reference's
    examples call bash "shell", and a deny written for one must not miss it); case-insensitive."""
    names = tuple(name.strip().lower() for name in (tool, *aliases))
    return any(fnmatch.fnmatch(name, pattern.strip(), flags=fnmatch.IGNORECASE | fnmatch.BRACE) for name in names)


def anchored(pattern: str, workdir: Path) -> tuple[str, ...]:
    """A rule's path glob made absolute (``~`` expanded, a relative one under ``workdir``; one starting with
    ``**`` matches anywhere and is left as it is), and, when the folder it names before its first wildcard is
    reached through a link, the same glob under the folder the link resolves to: the file tools match canonical
    paths, so ``~/notes/private/**`` must also match when ``~/notes`` is a link to ``/data/notes``."""
    expanded = os.path.expanduser(pattern)
    if expanded.startswith("**"):
        return (expanded,)
    relative = not os.path.isabs(expanded)
    written = f"{glob.escape(str(workdir))}/{expanded}" if relative else expanded
    literal = re.split(r"[*?\[{!\\]", expanded, maxsplit=1)[0]
    folder = literal if literal == expanded else literal.rpartition("/")[0]
    if not folder:
        return (written,)
    on_disk = os.path.join(workdir, folder) if relative else folder
    real = os.path.realpath(on_disk)
    if real == os.path.normpath(on_disk):
        return (written,)
    return written, glob.escape(real) + expanded[len(folder) :]


class PolicyRule(_Section):
    """One ``[[gates.policy.rules]]`` entry (or ``[[rules]]`` of the policy file)."""

    effect: Literal["allow", "deny"]
    tool: str = Field(min_length=1)
    """a glob of tool names, case-insensitive ("shell" also names bash)"""
    paths: list[str] = Field(default_factory=empty_list)
    """globs of the paths a call names; a deny needs one to match, an allow all of them"""
    args_match: Regex | None = None
    """a regex searched in the call's arguments (as JSON)"""


class PolicySettings(_Section):
    """``[gates.policy]``: allow/deny rules checked before every other rule; a deny is final."""

    enabled: bool = False
    """check every call against the policy rules before the permission and authorization rules"""
    default_effect: Literal["allow", "deny"] = "deny"
    """what a call no rule matches gets"""
    policy_file: str | None = None
    """a TOML file of [[rules]] that replaces the inline rules (relative: beside the config file)"""
    rules: list[PolicyRule] = Field(default_factory=empty_list, max_length=MAX_RULES)
    """effect (allow or deny), tool glob, paths, args_match; any matching deny wins"""

    def denied_paths(self, tool: str, *aliases: str) -> list[str]:
        """The path globs of the deny rules that refuse ``tool`` whatever its arguments (no ``args_match``), as
        written; none when the policy is off. The file tools add them to ``[tools.file] deny_read``: a rule that
        denies reading ``secret/**`` must also hold when grep, find_path or copy_path walk a folder holding it."""
        if not self.enabled:
            return []
        chosen = (
            r for r in self.rules if r.effect == "deny" and r.args_match is None and names_tool(r.tool, tool, *aliases)
        )
        return list(dict.fromkeys(path for rule in chosen for path in rule.paths))

    @model_validator(mode="before")
    @classmethod
    def _read_policy_file(cls, data: Any, info: ValidationInfo) -> Any:
        if not isinstance(data, dict) or not data.get("policy_file") or (info.context or {}).get("rules_read"):
            return data  # rules_read: settings put together again (managed settings applied), the rules already read
        name = str(data["policy_file"])
        path = Path(name).expanduser()
        source = (info.context or {}).get("source")
        if not path.is_absolute() and source and Path(source).is_file():
            path = Path(source).parent / path
        try:
            raw = path.read_bytes()
        except OSError as e:
            raise ValueError(
                f"policy_file {name!r} cannot be read ({e.strerror or e}); fix the path or remove it"
            ) from None
        if len(raw) > MAX_POLICY_FILE_BYTES:
            raise ValueError(f"policy_file {name!r} is over {MAX_POLICY_FILE_BYTES // 1024} KiB; split or trim it")
        try:
            rules = tomllib.loads(raw.decode("utf-8")).get("rules", [])
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
            raise ValueError(f"policy_file {name!r} is not valid TOML ({e}); it holds [[rules]] tables") from None
        return {**data, "rules": rules}


# The reference's gate weighs four things; its defaults (gain 1.0, cost 0.5, redundancy 0.3, exploration 0.2).
class UtilitySettings(_Section):
    """``[gates.utility]``: score each call before it runs; a call scoring under the threshold is skipped (the
    seed's), or with ``mode = "warn"`` runs with a warning."""

    enabled: bool = False
    """score each call: what the tool tends to bring, minus the context used and a repeat, plus early exploration"""
    threshold: float = Field(0.0, ge=0)
    """a call scoring below this is skipped (mode "skip") or run with a warning (mode "warn"); 0.0, the seed's: only
    a call whose cost and repeat outweigh its gain"""
    mode: Literal["skip", "warn"] = "skip"
    """skip: a low-scoring call does not run and the model is told why and what to do (the seed's); warn: it runs,
    with a warning to the model, the approval card, the audit row and the transcript"""
    exempt_tools: list[str] = Field(default_factory=lambda: ["time", "read_overflow"])
    """tools never scored"""
    gain_weight: float = Field(1.0, ge=0)
    """weight of what the tool tends to bring (0.5 to 0.75 by tool)"""
    cost_weight: float = Field(0.5, ge=0)
    """weight of the share of [agent] context_budget_tokens already used"""
    redundancy_weight: float = Field(0.3, ge=0)
    """weight of repeating a call made earlier in the run with the same arguments"""
    uncertainty_bonus: float = Field(0.2, ge=0)
    """weight of exploring early: 1 at a run's first call, 0 from its tenth"""

    @field_validator("threshold", "gain_weight", "cost_weight", "redundancy_weight", "uncertainty_bonus")
    @classmethod
    def _finite(cls, value: float) -> float:
        if not math.isfinite(value):
            raise ValueError("must be a finite number")
        return value


class AgentChecks(_Section):
    """The ``[agent]`` keys for helper models and checks of the model's own output (``AgentSettings`` adds them)."""

    hallucination_detection: bool = False
    """after a run, warn when its reply claims a tool call or an output the run does not have (never blocks)"""
    reasoning_model_detection: bool = True
    """recognise reasoning models by name (o1, o3, o4, gpt-5, deepseek-r1, qwq, …): max_completion_tokens is sent,
    and the `<think>` block a reply opens with is dropped (OpenAI-compatible servers)"""
    compress_provider: str | None = None
    """an [[llm.providers]] name: near the context budget it summarises the earlier runs and the run goes on"""

    @field_validator("compress_provider")
    @classmethod
    def _empty_is_unset(cls, value: str | None) -> str | None:
        return value or None  # the reference writes "" for "no provider"
