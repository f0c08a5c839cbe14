"""TAFC, think-augmented function calling: room to reason before filling in a complex tool's arguments.

A tool whose schema is complex enough (``[agent.tafc] complexity_threshold``) is shown to the model with one
more, optional string parameter, ``_tafc_think``, listed first so the model writes its reasoning before the
real arguments. The loop strips it before the call is built: it is never executed, never validated and never
logged. A call that holds nothing but thinking is skipped with a note to the model.

Complexity, in [0, 1], is the mean of three parts, each saturating: required parameters (5 or more), nesting
depth (3 levels of objects or arrays below the top), and the largest enum (10 or more choices).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

__all__ = ["THINK_FIELD", "augment", "complexity", "strip"]

THINK_FIELD = "_tafc_think"
_THINK_SCHEMA = {
    "type": "string",
    "description": "Think step by step about which values the other parameters need, before writing them. "
    "This text is discarded, never executed.",
}


def _depth(node: Any) -> int:
    if isinstance(node, Mapping):
        below = [_depth(v) for k, v in node.items() if k in ("properties", "items", "anyOf", "oneOf", "$defs")]
        nested = max(below, default=0)
        return nested + (1 if node.get("type") in ("object", "array") else 0)
    if isinstance(node, list):
        return max((_depth(item) for item in node), default=0)
    return 0


def _largest_enum(node: Any) -> int:
    if isinstance(node, Mapping):
        own = len(node["enum"]) if isinstance(node.get("enum"), list) else 0
        return max([own, *(_largest_enum(v) for v in node.values())])
    if isinstance(node, list):
        return max((_largest_enum(item) for item in node), default=0)
    return 0


def complexity(schema: Mapping[str, Any]) -> float:
    """How hard the schema is to fill in correctly, from 0 (trivial) to 1."""
    required = min(len(schema.get("required", [])) / 5, 1.0)
    depth = min(max(_depth(schema) - 1, 0) / 3, 1.0)
    enum = min(_largest_enum(schema) / 10, 1.0)
    return (required + depth + enum) / 3


def augment(schema: Mapping[str, Any], threshold: float) -> dict[str, Any]:
    """The schema with the think field first when its complexity reaches ``threshold``; otherwise a copy."""
    out = copy.deepcopy(dict(schema))
    if complexity(schema) < threshold:
        return out
    out["properties"] = {THINK_FIELD: dict(_THINK_SCHEMA), **dict(out.get("properties", {}))}
    return out


def strip(params: Any) -> tuple[Any, bool]:
    """``params`` without the think field, and whether the call held only thinking. Every key that starts with the
    field's name goes: models number or stretch it (``_tafc_think_2``, ``_tafc_thinking``), and such a key would
    otherwise reach the tool's validation (an unknown parameter) or the audit log (the reasoning, kept)."""
    if not isinstance(params, Mapping) or not any(isinstance(k, str) and k.startswith(THINK_FIELD) for k in params):
        return params, False
    rest = {key: value for key, value in params.items() if not (isinstance(key, str) and key.startswith(THINK_FIELD))}
    return rest, not rest
