"""``[output]``: what output/ reads — whether the filters run on what the model reads, the filters themselves
(``[output.filters]``) and where very large output goes (``[output.overflow]``). Until 0.x these lived under
``[tools]``; ``legacy.py`` still reads them there."""

from __future__ import annotations

import re

from pydantic import Field, field_validator

from zeph_nb.config.common import _Section

__all__ = [
    "FilterSettings",
    "FilterToggle",
    "GitFilterSettings",
    "OutputSettings",
    "OverflowSettings",
    "SecretScanSettings",
    "TestFilterSettings",
]


class OverflowSettings(_Section):
    """``[output.overflow]``: very large output goes to the store with an opaque id."""

    threshold: int = Field(50_000, ge=1)
    """characters of output above which the rest goes to the store (read_overflow)"""
    retention_days: int = Field(7, ge=0)
    """days stored outputs are kept"""
    max_overflow_bytes: int = Field(10 * 1024 * 1024, ge=0, description="0 means no cap")


class SecretScanSettings(_Section):
    """``[output.filters.security]``: the secret scanner on what the model reads.

    ``enabled = false`` stops redacting tool output *for the model* (a person who wants the agent to see a token);
    what is stored or shown (audit log, overflow, inbox, cards, dashboard) is redacted whatever this says.
    ``extra_patterns`` are regular expressions for your own credential formats (group 1 is the value, else the
    whole match); they apply everywhere, stored and shown included.
    """

    enabled: bool = True
    """false: what the model reads is not redacted (what is stored or shown stays redacted)"""
    extra_patterns: tuple[str, ...] = ()
    """your own regexes of secrets to redact everywhere"""

    @field_validator("extra_patterns")
    @classmethod
    def _compiles(cls, patterns: tuple[str, ...]) -> tuple[str, ...]:
        for pattern in patterns:
            try:
                compiled = re.compile(pattern)
            except re.error as e:
                raise ValueError(f"{pattern!r} is not a valid regular expression ({e}); fix or remove it") from None
            if compiled.match(""):
                raise ValueError(f"{pattern!r} matches the empty string; write one that needs at least one character")
        return patterns


class FilterToggle(_Section):
    """``[output.filters.clippy|cargo_build|dir_listing|log_dedup]``: a family of built-in filter rules, on or off."""

    enabled: bool = True
    """this family of rules runs (log_dedup: folding repeated lines, and the generic fallback)"""


class TestFilterSettings(FilterToggle):
    """``[output.filters.test]``: the test-runner rules (pytest, unittest, cargo test, go test, JS runners)."""

    max_failures: int = Field(10, ge=1, description="failures shown with their trace; later ones in brief")
    truncate_stack_trace: int = Field(
        40,
        ge=1,
        description="trace lines kept per failure. Not the seed's 50, because the built-in test rules were measured "
        "with 40, and past the cap a failure's frames, assertion and location lines are kept anyway",
    )


class GitFilterSettings(FilterToggle):
    """``[output.filters.git]``: the git rules (status, diff, log, push/pull)."""

    max_log_entries: int = Field(20, ge=1, description="commits `git log` shows; the rest are counted")
    max_diff_lines: int = Field(500, ge=1, description="changed lines `git diff`/`git show` shows")


class FilterSettings(_Section):
    """``[output.filters]``: the output filter pipeline. The family tables tune the built-in rules (a rule of
    your own ``filters.toml`` named like a built-in one replaces it, settings and all); ``log_dedup`` also
    switches the generic fallback for long outputs no rule knows."""

    enabled: bool = True
    """the output filters run"""
    filters_path: str | None = None
    """a TOML file of your own filter rules (default: filters.toml beside the config)"""
    security: SecretScanSettings = Field(default_factory=SecretScanSettings)
    test: TestFilterSettings = Field(default_factory=TestFilterSettings)
    git: GitFilterSettings = Field(default_factory=GitFilterSettings)
    clippy: FilterToggle = Field(default_factory=FilterToggle)
    cargo_build: FilterToggle = Field(default_factory=FilterToggle)
    dir_listing: FilterToggle = Field(default_factory=FilterToggle)
    log_dedup: FilterToggle = Field(default_factory=FilterToggle)


class OutputSettings(_Section):
    """``[output]``: what the model reads of a tool's output."""

    summarize: bool = True
    """run the output filters on what the model reads (the raw output stays for read_overflow)"""
    overflow: OverflowSettings = Field(default_factory=OverflowSettings)
    filters: FilterSettings = Field(default_factory=FilterSettings)
