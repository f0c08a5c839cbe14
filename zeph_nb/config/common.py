"""What every table of the configuration shares: unknown keys are errors, values are frozen, and the checked
types (a regex that compiles, a fraction in [0, 1])."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar

from pydantic import AfterValidator, BaseModel, ConfigDict

__all__ = ["MAX_PATTERN_LEN", "Regex", "_Section", "_unit_interval", "empty_list", "require_unique"]

MAX_PATTERN_LEN = 512


def _compiles(pattern: str) -> str:
    if len(pattern) > MAX_PATTERN_LEN:
        raise ValueError(f"regex is {len(pattern)} characters; at most {MAX_PATTERN_LEN} are allowed")
    try:
        re.compile(pattern)
    except re.error as e:
        raise ValueError(f"invalid regex {pattern!r}: {e}") from None
    return pattern


Regex = Annotated[str, AfterValidator(_compiles)]


def _unit_interval(default: float) -> Any:
    """A float in [0, 1]; NaN or infinity fall back to ``default``, anything else is clamped."""

    def fix(value: float) -> float:
        if not math.isfinite(value):
            return default
        return min(1.0, max(0.0, value))

    return AfterValidator(fix)


class _Section(BaseModel):
    # Unknown keys are errors (a typo must not be silently ignored); settings are values, not mutable state.
    # A field's docstring says what it does: the docs' table of every key is made from them (reference.py
    # reads them there). Not pydantic's use_attribute_docstrings: that parses each class's source at import,
    # ~60 ms of every kernel's first Agent for text only the docs' generator reads.
    model_config = ConfigDict(extra="forbid", frozen=True, validate_default=True)

    # Keys (and tables) another agent's configuration (the reference's, a seed's) has in this table that mean
    # nothing here, each with why and what zeph-nb does instead: a config ported from it is told that, not "unknown
    # key". They stay unknown keys to pydantic, so one load reports every one of them (and every other problem) at
    # once; explain.py, which words every configuration error, gives each its reason. ``_table`` is unused: the
    # table is named from where the key was found.
    not_here: ClassVar[Mapping[str, str]] = {}
    _table: ClassVar[str] = ""


def empty_list() -> list[Any]:
    """A new empty list: the default of a list key, as ``default_factory=list`` is, without its cost. pydantic reads
    each factory's signature when it builds a model, and ``inspect.signature(list)`` parses list's text signature
    anew every time: ~0.5 ms for each of the 29 list keys, ~15 ms of every new Agent. A function's is read at once."""
    return []


def require_unique(names: list[str], table: str) -> None:
    """A ValueError naming the entries of ``table`` (``[[mcp.servers]]``) that share a name."""
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ValueError(f"{table} names must differ: {', '.join(twice)} more than once")
