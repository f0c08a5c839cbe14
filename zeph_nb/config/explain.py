"""Configuration errors a person can act on: where a bad key came from, the key as they wrote it, what is allowed."""

from __future__ import annotations

import difflib
import types
import typing
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from zeph_nb.security.printable import one_line

__all__ = ["explain", "model_type"]


def explain(
    error: ValidationError, source: str, origins: Mapping[str, str], root: type[BaseModel], tables: list[str]
) -> str:
    """One readable line per problem: where it came from, the key as written (``llm.providers[0].kind``), and what
    is allowed. ``root`` is the settings model, ``tables`` the top-level tables a file may hold."""
    lines = []
    for problem in error.errors():
        loc = list(problem["loc"])
        key = _shown(_written(loc))
        where = _shown(_origin_of(loc, origins, source).removeprefix("file:"))
        if problem["type"] == "extra_forbidden":
            parent = _model_at(root, loc[:-1])
            why = getattr(parent, "not_here", {}).get(str(loc[-1]))  # _Section.not_here
            if why is not None:  # another agent's key: why it means nothing here, not "unknown key"
                lines.append(f"{where}: {_refused(loc, why)}")
                continue
            if parent is root:
                allowed = tables
            else:
                allowed = sorted(parent.model_fields) if parent else []
            hint = difflib.get_close_matches(str(loc[-1])[:_KEY_CHARS], allowed, n=1)
            did_you_mean = f" (did you mean '{hint[0]}'?)" if hint else ""
            lines.append(f"{where}: unknown key '{key}'{did_you_mean}; allowed here: {', '.join(allowed)}")
        elif not loc:  # a check across tables: its message names the keys; the input is the whole file
            lines.append(f"{where}: {_shown(str(problem['msg']).removeprefix('Value error, '), _MSG_CHARS)}")
        else:
            got = problem.get("input")
            # A value refused for holding a password is not echoed: the error lands in notebook outputs and logs.
            shown = "a value not shown here" if "password" in str(problem["msg"]) else _shown(repr(got))
            lines.append(f"{where}: {key}: {_shown(problem['msg'], _MSG_CHARS)} (got {shown})")
    return "invalid configuration:\n  " + "\n  ".join(lines)


def _refused(loc: list[str | int], why: str) -> str:
    """``[memory] sqlite_path does not apply to zeph-nb: why; remove it``; a whole table: ``[discord] does not…``; a
    key of an array of tables' entry: ``[llm.providers[0]] type does not…``."""
    *table, key = loc
    name = f"[{_written(table)}] {key}" if table else f"[{key}]"
    return f"{_shown(name)} does not apply to zeph-nb: {why}; remove it"


_KEY_CHARS = 200  # of a key, a value or a source as shown: a file may hold a key of a megabyte
_MSG_CHARS = 1_000


def _shown(text: str, limit: int = _KEY_CHARS) -> str:
    """``text`` on one line a terminal or a notebook shows as it is (escapes written out), cut at ``limit``."""
    return one_line(text, limit, count_rest=True)


def _written(loc: list[str | int]) -> str:
    """A key as a person writes it: an entry of an array of tables by its index (``mcp.servers[1].url``)."""
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in loc).lstrip(".")


def _origin_of(loc: list[str | int], origins: Mapping[str, str], source: str) -> str:
    """Where the key at ``loc`` came from: its own origin, else its nearest table's (an array of tables, or a table
    of tables an environment variable set whole, has one origin for everything in it)."""
    path = [str(part) for part in loc if not isinstance(part, int)]
    while path:
        if ".".join(path) in origins:
            return origins[".".join(path)]
        path.pop()
    return f"file:{source}"


def _model_at(root: type[BaseModel], path: list[str | int]) -> type[BaseModel] | None:
    """The settings model reached by following ``path`` from ``root`` (into an entry of an array of tables by
    its index, into a table of tables by its key), or None past a leaf."""
    annotation: Any = root
    for part in path:
        annotation = _inner(annotation)
        model = model_type(annotation)
        if model is not None and isinstance(part, str):
            field = model.model_fields.get(part)
            if field is None:
                return None
            annotation = field.annotation
        elif typing.get_origin(annotation) in (list, tuple) and isinstance(part, int):
            annotation = typing.get_args(annotation)[0]
        elif typing.get_origin(annotation) is dict and isinstance(part, str):
            annotation = typing.get_args(annotation)[1]
        else:
            return None
    return model_type(_inner(annotation))


def _inner(annotation: Any) -> Any:
    """``X`` from ``X | None`` (an optional table of tables, such as gates.permissions)."""
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        present = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        if len(present) == 1:
            return present[0]
    return annotation


def model_type(annotation: Any) -> type[BaseModel] | None:
    """The settings model an annotation names, or None for a plain value."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None
