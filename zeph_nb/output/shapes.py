"""Shapes an output may have whatever printed it, and the cue each one's output must hold.

The engine (``engine.py``) folds the library frames of any stack (``STACKS``), and tries ``SHAPES`` in order on an
output no rule understood: an import-time profile, a dependency tree, help text, long JSON lists, a long table.
Each fold looks for its own cue first; the engine finds every cue (``CUES``) in the one scan of the output the
security pass makes anyway, and skips a fold whose cue is not there.
"""

from __future__ import annotations

from collections.abc import Callable

from zeph_nb.output.diffs import DIFF_CUES as _DIFF
from zeph_nb.output.helptext import INHERITED_CUE, fold_inherited
from zeph_nb.output.lines import FilterConfidence
from zeph_nb.output.profiles import IMPORT_CUE, fold_import_profile, fold_tree
from zeph_nb.output.records import fold_json_lists
from zeph_nb.output.tables import fold_table
from zeph_nb.output.tracebacks import (
    JVM_CUE,
    NODE_CUE,
    PYTHON_CUE,
    RUST_CUE,
    fold_js_frames,
    fold_jvm_frames,
    fold_library_frames,
    fold_rust_frames,
)

__all__ = [
    "CUES",
    "DATA",
    "DIFF_CUES",
    "INHERITED",
    "JSON_LISTS",
    "PROFILE",
    "SHAPES",
    "STACKS",
    "TABLE",
    "TREE",
    "first_shape",
    "fold_stacks",
    "may_be",
]

# The rule name a FilteredOutput reports when a shape was cut:
TABLE = "table"  # a long table's middle rows were left out (output/tables.py)
PROFILE = "import-profile"  # an import-time profile was cut to its slowest imports (output/profiles.py)
TREE = "tree-depth"  # a dependency tree's deeper levels were left out (output/profiles.py)
INHERITED = "help-inherited"  # help text's inherited members were cut to their names (output/helptext.py)
JSON_LISTS = "json-lists"  # long lists in a JSON document were cut to their ends (output/records.py)

# Shapes an output no rule knows may have, each a fold (None when the output is not of its shape), the rule name
# it reports, and the cue its output must hold (None: no one word says it), tried in order. Data (long JSON lists,
# then a long table) is cut as pandas shows a long DataFrame, whether asked for or not; the others only where
# nothing was asked for.
Shape = tuple[Callable[[str], str | None], str, str | None]
DATA: tuple[Shape, ...] = ((fold_json_lists, JSON_LISTS, None), (fold_table, TABLE, None))
SHAPES: tuple[Shape, ...] = (
    (fold_import_profile, PROFILE, IMPORT_CUE),
    (fold_tree, TREE, None),
    (fold_inherited, INHERITED, INHERITED_CUE),
    *DATA,
)
# The stacks whose library frames are folded in any output (``tracebacks.py``), in the order they are folded.
STACKS: tuple[tuple[Callable[[str], str], str], ...] = (
    (fold_library_frames, PYTHON_CUE),
    (fold_js_frames, NODE_CUE),
    (fold_jvm_frames, JVM_CUE),
    (fold_rust_frames, RUST_CUE),
)
DIFF_CUES = tuple(cue.lower() for cue in _DIFF)  # a diff holds one of these (``has_diff``)
# Every cue, in lower case as the scan finds them. Each fold still looks for its own cue, in its own case: found
# here means only that it may be there. Looking for each in turn cost a scan of the output each (11 ms of a 4 MB
# log, a sixth of the generic fallback's time); in the scan the security pass makes anyway, they cost nothing.
CUES = tuple(dict.fromkeys(c.lower() for c in (*(c for _, _, c in SHAPES if c), *(c for _, c in STACKS), *DIFF_CUES)))


def may_be(cues: set[str] | None, *wanted: str) -> bool:
    """Whether the output may hold one of ``wanted`` (lowered cues): it may when it was not scanned."""
    return cues is None or any(cue in cues for cue in wanted)


def fold_stacks(text: str, cues: set[str]) -> str:
    """``text`` with the library frames of each of its stacks folded (``tracebacks.py``)."""
    for fold, cue in STACKS:
        if cue.lower() in cues:
            text = fold(text)
    return text


def first_shape(
    text: str, shapes: tuple[Shape, ...], cues: set[str] | None = None
) -> tuple[str, str, FilterConfidence] | None:
    for fold, name, cue in shapes:
        if cue is not None and not may_be(cues, cue.lower()):
            continue
        folded = fold(text)
        if folded is not None:
            return folded, name, FilterConfidence.PARTIAL
    return None
