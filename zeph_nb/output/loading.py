"""Which filter rules apply, and filtering one output with them: ``filter_output(command, output, exit_code=None,
settings=None) -> FilteredOutput`` (users reach it as ``zeph_nb.filters``).

The rules are the built-in ``output/default_filters.toml`` plus a user ``filters.toml`` (next to the config file,
or ``[output.filters] filters_path``). User rules come first, and a user rule named like a built-in one replaces
it. Rules that fail to load are skipped with a warning; the rest still apply.
"""

from __future__ import annotations

import warnings
from functools import lru_cache
from importlib import resources
from pathlib import Path

from zeph_nb.config import Settings, agent_wrote_config
from zeph_nb.config.sections import FilterSettings
from zeph_nb.output.engine import FilteredOutput, FilterEngine, producing_segments
from zeph_nb.output.rules import GitDiff, GitLog, LoadedRules, Rule, TestSummary, load_rules, load_rules_file
from zeph_nb.output.strategies import FilterConfidence
from zeph_nb.security.journal import suspects

__all__ = [
    "FilterConfidence",
    "FilterEngine",
    "FilteredOutput",
    "default_rules",
    "engine_for",
    "filter_output",
    "load_rules",
    "producing_segments",
]


@lru_cache(maxsize=1)
def default_rules() -> tuple[Rule, ...]:
    text = resources.files("zeph_nb.output").joinpath("default_filters.toml").read_text(encoding="utf-8")
    loaded = load_rules(text, "default_filters.toml")
    if loaded.warnings:  # a broken built-in rule is our bug; say so loudly in development
        warnings.warn("; ".join(loaded.warnings), stacklevel=2)
    return loaded.rules


def _user_rules_path(settings: Settings) -> Path | None:
    configured = settings.output.filters.filters_path
    if configured:
        return Path(configured).expanduser()
    # Beside the config file that was read; settings from text (Settings.from_toml) have no file to sit beside.
    source = Path(settings.source) if settings.source else None
    beside = (
        source.parent / "filters.toml" if source is not None and source.is_file() else settings.home / "filters.toml"
    )
    # One that a command running right now may have created is not trusted (security/journal.py), nor one an
    # agent's call wrote at any time (security/provenance.py).
    if not beside.is_file() or beside in suspects(settings.home):
        return None
    return None if agent_wrote_config(settings.home, beside) else beside


@lru_cache(maxsize=8)
def _load_user(path: Path, mtime: float) -> LoadedRules:
    return load_rules_file(path)


# The built-in rules each [output.filters.<family>] table tunes.
FAMILIES: dict[str, frozenset[str]] = {
    "test": frozenset({"cargo-test", "pytest", "unittest", "go-test", "js-test"}),
    "git": frozenset({"git-status", "git-diff", "git-log", "git-push-pull"}),
    "clippy": frozenset({"cargo-clippy"}),
    "cargo_build": frozenset({"cargo-build"}),
    "dir_listing": frozenset({"ls", "find", "tree"}),
    "log_dedup": frozenset({"logs"}),
}


@lru_cache(maxsize=8)
def _tuned(config: FilterSettings) -> tuple[Rule, ...]:
    """The built-in rules as the family settings say: a family switched off left out, limits applied (once per
    distinct settings: this runs for every filtered call)."""
    rules = default_rules()
    off = {name for family, names in FAMILIES.items() if not getattr(config, family).enabled for name in names}
    tuned = []
    for rule in rules:
        if rule.name in off:
            continue
        strategy = rule.strategy
        if rule.name in FAMILIES["test"] and isinstance(strategy, TestSummary):
            limits = {
                "max_failures": config.test.max_failures,
                "truncate_stack_trace": config.test.truncate_stack_trace,
            }
            rule = rule.model_copy(update={"strategy": strategy.model_copy(update=limits)})
        elif isinstance(strategy, GitDiff):
            rule = rule.model_copy(
                update={"strategy": strategy.model_copy(update={"max_diff_lines": config.git.max_diff_lines})}
            )
        elif isinstance(strategy, GitLog):
            rule = rule.model_copy(
                update={"strategy": strategy.model_copy(update={"max_log_entries": config.git.max_log_entries})}
            )
        tuned.append(rule)
    return tuple(tuned)


def engine_for(settings: Settings | None = None) -> FilterEngine:
    """The engine ``settings`` describe: user rules first, then the built-ins they do not replace, tuned by the
    ``[output.filters.<family>]`` tables."""
    settings = settings or Settings()
    rules = _tuned(settings.output.filters)
    path = _user_rules_path(settings)
    if path is not None:
        try:
            user = _load_user(path, path.stat().st_mtime)
        except (OSError, ValueError) as e:
            warnings.warn(f"zeph-nb: user filters not loaded: {e}", stacklevel=2)
        else:
            for message in user.warnings:
                warnings.warn(f"zeph-nb: {message}", stacklevel=2)
            names = {rule.name for rule in user.rules}
            rules = (*user.rules, *(rule for rule in rules if rule.name not in names))
    return FilterEngine(rules, generic=settings.output.filters.log_dedup.enabled)


def filter_output(
    command: str, output: str, exit_code: int | None = None, settings: Settings | None = None
) -> FilteredOutput:
    """Filter one command's output the way the model will see it."""
    if settings is not None and not settings.output.filters.enabled:
        return FilterEngine(()).filter("", output, exit_code)
    return engine_for(settings).filter(command, output, exit_code)
