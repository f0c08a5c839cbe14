"""The docs' generated parts, made from the code at every build (a Sphinx extension), never copied by hand.

A page asks for one with a marker line, ``<!-- zeph-docs: NAME -->``, replaced when Sphinx reads the page:

- ``settings-table``: every settings key (``zeph_nb.config.reference``), from the pydantic models' descriptions, and
  ``settings-sources``: where each comes from;
- ``refused-keys``: every key of another agent's configuration that zeph-nb refuses, with why
  (``zeph_nb.config.reference.refused_table``);
- ``defaults-table``: what the default policy decides for a set of calls, each sent through the real gates;
- ``error-categories``: the error taxonomy (``zeph_nb.errors.ToolErrorCategory``) with how each is handled;
- ``api``: the public names (``zeph_nb.__all__``), each documented by autodoc from the module that defines it.

An unknown marker fails the build, so a typo cannot leave a page silently without its table.
"""

from __future__ import annotations

import functools
import inspect
import logging
import re
from typing import Any

MARKER = re.compile(r"^<!-- zeph-docs: ([a-z-]+) -->$", re.MULTILINE)


@functools.cache
def _settings_table() -> str:
    """Every key, a table per section: what it does next to the key, so the page reads at its own width."""
    from zeph_nb.config.reference import reference_keys

    sections: dict[str, list[str]] = {}
    for key in reference_keys():
        section, _, name = key.dotted.rpartition(".")
        kind = f" ({key.kind})" if key.kind not in ("bool", "int", "float", "str") else ""
        sections.setdefault(section, []).append(
            f"| `{name}` | {key.about or '(no description)'} | {key.default}{kind} |"
        )
    parts = []
    for section, rows in sections.items():
        parts += [f"### `[{section}]`", "", "| key | what it does | default |", "| --- | --- | --- |"]
        parts += [*rows, ""]
    return "\n".join(parts)


@functools.cache
def _settings_sources() -> str:
    """Where each key comes from: the reference agent's configuration, a seed, or zeph-nb (for maintainers)."""
    from zeph_nb.config.reference import reference_keys

    rows = [f"| `{key.dotted}` | {key.source} |" for key in reference_keys()]
    return "\n".join(["| key | from |", "| --- | --- |", *rows])


@functools.cache
def _refused_keys() -> str:
    from zeph_nb.config.reference import refused_table

    return refused_table()


@functools.cache
def _defaults_table() -> str:
    from zeph_nb.config import Settings
    from zeph_nb.gates.defaults_table import defaults_table
    from zeph_nb.safety import sandbox_status

    status = sandbox_status(Settings())
    if not status.active:
        # The table's first column is what happens with the OS sandbox; made without one it would say the opposite.
        raise RuntimeError(
            f"docs: the defaults table describes a machine where the OS sandbox works; here {status.describe()}. "
            "Build the docs on Linux with bubblewrap installed (sudo apt-get install bubblewrap)."
        )
    # The "no OS sandbox" column starts the example MCP server without a sandbox, which it refuses: the table says
    # so in its own words, and the toolset's log line saying it again would read as a build warning.
    mcp_log = logging.getLogger("zeph_nb.tools")
    level = mcp_log.level
    mcp_log.setLevel(logging.ERROR)
    try:
        return defaults_table()
    finally:
        mcp_log.setLevel(level)


def _error_categories() -> str:
    from zeph_nb.errors import ToolErrorCategory

    lines = [
        "| category | retried by the system | the model's own mistake | one reformat attempt "
        "| what the model is told to do |",
        "| --- | --- | --- | --- | --- |",
    ]
    yes_no = {True: "yes", False: "no"}
    for category in ToolErrorCategory:
        lines.append(
            f"| `{category.label}` | {yes_no[category.is_retryable]} | {yes_no[category.is_quality_failure]} "
            f"| {yes_no[category.needs_parameter_reformat]} | {category.suggestion} |"
        )
    return "\n".join(lines)


def _api() -> str:
    import zeph_nb

    blocks = []
    for name in sorted(zeph_nb.__all__, key=str.lower):
        if name.startswith("__"):
            continue
        value = getattr(zeph_nb, name)
        if inspect.ismodule(value):
            directive = f".. automodule:: {value.__name__}\n   :no-index:"
        elif inspect.isclass(value):
            directive = f".. autoclass:: {value.__module__}.{value.__qualname__}\n   :members:"
        else:
            directive = f".. autofunction:: {value.__module__}.{value.__qualname__}"
        blocks.append(f"## `zeph_nb.{name}`\n\n```{{eval-rst}}\n{directive}\n```\n")
    return "\n".join(blocks)


GENERATORS = {
    "settings-table": _settings_table,
    "settings-sources": _settings_sources,
    "refused-keys": _refused_keys,
    "defaults-table": _defaults_table,
    "error-categories": _error_categories,
    "api": _api,
}


def _generate(app: Any, docname: str, source: list[str]) -> None:
    def generated(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in GENERATORS:
            raise RuntimeError(f"docs: {docname} asks for '{name}', which no generator makes: {sorted(GENERATORS)}")
        return GENERATORS[name]()

    source[0] = MARKER.sub(generated, source[0])


def setup(app: Any) -> dict[str, Any]:
    app.connect("source-read", _generate)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
