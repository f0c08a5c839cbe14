"""The declarative filter rules: their TOML schema, and loading that keeps the good rules when some are bad.

A rule file holds ``[[rules]]`` tables with ``name``, ``match`` (exactly one of ``exact``, ``prefix``, ``regex``,
tested against the command segment that produced the output), ``strategy`` (a table with a ``type``) and
``enabled``. The schema is the Zeph agent's, so its rule files load unchanged.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from zeph_nb.config import MAX_PATTERN_LEN, Regex

__all__ = ["MAX_FILE_BYTES", "MAX_REGEX_CHARS", "LoadedRules", "Rule", "load_rules", "load_rules_file"]

MAX_FILE_BYTES = 1024 * 1024
MAX_REGEX_CHARS = MAX_PATTERN_LEN


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Match(_Model):
    exact: str | None = None
    prefix: str | None = None
    regex: Regex | None = None

    @model_validator(mode="after")
    def _exactly_one(self) -> Match:
        given = [name for name in ("exact", "prefix", "regex") if getattr(self, name) is not None]
        if len(given) != 1:
            raise ValueError(f"match needs exactly one of exact, prefix, regex (got {', '.join(given) or 'none'})")
        return self

    def matches(self, segment: str) -> bool:
        if self.exact is not None:
            return segment == self.exact
        if self.prefix is not None:
            return segment.startswith(self.prefix)
        return self.regex is not None and re.search(self.regex, segment) is not None


class _Capped(_Model):
    """Optional cap after the strategy: over ``max_lines`` lines, keep ``head`` and ``tail`` (confidence partial)."""

    max_lines: int | None = Field(None, ge=1)
    head: int = Field(40, ge=0)
    tail: int = Field(10, ge=0)


class StripNoise(_Capped):
    type: Literal["strip_noise"]
    patterns: list[Regex] = Field(min_length=1)
    # Over ``repeats_over`` lines left, a message said at many places (``place_pattern`` aside: mypy's `a.py:12: `)
    # shows its first ``repeats_shown`` lines and one note for the rest, with where they are (output/noise.py).
    repeats_over: int | None = Field(None, ge=1)
    repeats_shown: int = Field(3, ge=1)
    place_pattern: Regex = r"^\S+?:\d+(?::\d+)?: "
    # The lines left folded by template where they are a long debug log (output/templates.py): a checker's or a
    # compiler's verbose mode (`mypy -v`'s LOG: lines), its findings kept as they are among the notes.
    by_template: bool = False


class Truncate(_Model):
    type: Literal["truncate"]
    max_lines: int = Field(ge=1)
    head: int = Field(20, ge=0)
    tail: int = Field(20, ge=0)

    @model_validator(mode="after")
    def _fits(self) -> Truncate:
        if self.head + self.tail > self.max_lines:
            raise ValueError("head + tail must not exceed max_lines")
        return self


class KeepMatching(_Capped):
    type: Literal["keep_matching"]
    patterns: list[Regex] = Field(min_length=1)


class StripAnnotated(_Model):
    type: Literal["strip_annotated"]
    patterns: list[Regex] = Field(min_length=1)
    summary_pattern: Regex | None = None
    long_output_threshold: int = Field(30, ge=1)
    keep_head: int = Field(10, ge=0)
    keep_tail: int = Field(5, ge=0)


class TestSummary(_Model):
    type: Literal["test_summary"]
    max_failures: int = Field(10, ge=1)
    truncate_stack_trace: int = Field(50, ge=1)


class GroupByRule(_Model):
    type: Literal["group_by_rule"]
    location_pattern: Regex
    rule_pattern: Regex
    max_locations: int = Field(5, ge=1)


class GitStatus(_Model):
    type: Literal["git_status"]
    max_files: int = Field(30, ge=1)


class GitLog(_Model):
    type: Literal["git_log"]
    max_log_entries: int = Field(20, ge=1)


class GitDiff(_Model):
    type: Literal["git_diff"]
    max_diff_lines: int = Field(500, ge=1)


class Normalize(_Model):
    pattern: Regex
    replacement: str


def _default_normalize() -> list[Normalize]:
    return [
        Normalize(pattern=r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}([.,]\d+)?(Z|[+-]\d{2}:?\d{2})?", replacement="<TS>"),
        Normalize(pattern=r"\b\d{2}:\d{2}:\d{2}([.,]\d+)?\b", replacement="<TIME>"),
        Normalize(pattern=r"[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}", replacement="<UUID>"),
        Normalize(pattern=r"\b\d{1,3}(\.\d{1,3}){3}(:\d+)?\b", replacement="<IP>"),
        Normalize(pattern=r"\b0x[0-9a-fA-F]+\b", replacement="<HEX>"),
        Normalize(pattern=r"(?<![A-Za-z])\d+(\.\d+)?", replacement="<N>"),  # also the 12 of "12ms"
    ]  # fmt: skip


class Dedup(_Capped):
    type: Literal["dedup"]
    normalize_patterns: list[Normalize] = Field(default_factory=_default_normalize)
    max_unique_patterns: int = Field(10_000, ge=1)
    # A long log folded by template (output/templates.py): each frequent template once, errors verbatim in order.
    by_template: bool = False


Strategy = Annotated[
    StripNoise
    | Truncate
    | KeepMatching
    | StripAnnotated
    | TestSummary
    | GroupByRule
    | GitStatus
    | GitLog
    | GitDiff
    | Dedup,
    Field(discriminator="type"),
]


class Rule(_Model):
    name: str = Field(min_length=1)
    match: Match
    strategy: Strategy
    enabled: bool = True
    # A listing's lines are content (matches, entries, commits, files), not a program's report: a search for
    # "error" finds lines saying error. The engine puts back the error and summary lines a report's rule dropped,
    # never a listing's (output/salient.py). A zeph-nb key; rule files without it load as before.
    listing: bool = False


@dataclass(frozen=True)
class LoadedRules:
    rules: tuple[Rule, ...]
    warnings: tuple[str, ...]
    source: str


def load_rules(text: str, source: str = "<string>") -> LoadedRules:
    """Parse a rule file; an invalid rule is skipped with a warning naming it, and the others load."""
    if len(text.encode("utf-8")) > MAX_FILE_BYTES:
        raise ValueError(f"{source}: filter file is over {MAX_FILE_BYTES} bytes; split it or remove rules")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"{source}: malformed TOML: {e}") from None
    raw_rules: Any = data.get("rules", [])
    if not isinstance(raw_rules, list):
        raise ValueError(f"{source}: 'rules' must be an array of tables ([[rules]])")
    rules: list[Rule] = []
    warnings: list[str] = []
    for index, raw in enumerate(raw_rules):
        name = raw.get("name", f"#{index + 1}") if isinstance(raw, dict) else f"#{index + 1}"
        try:
            rule = Rule.model_validate(raw)
        except ValidationError as e:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in e.errors(include_url=False)
            )
            warnings.append(f"{source}: rule {name!r} skipped: {problems}")
            continue
        if rule.enabled:
            rules.append(rule)
    return LoadedRules(tuple(rules), tuple(warnings), source)


def load_rules_file(path: Path) -> LoadedRules:
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise ValueError(f"{path}: filter file is {size} bytes, over the {MAX_FILE_BYTES}-byte limit")
    return load_rules(path.read_text(encoding="utf-8"), str(path))
