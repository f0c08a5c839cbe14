"""Profiles and trees wherever they appear: ``python -X importtime`` (or ``PYTHONPROFILEIMPORTTIME=1``), and the
dependency trees of ``npm ls``, ``cargo tree`` and ``pipdeptree``.

An import-time profile is one line per module imported, hundreds for a data-science import. What a person reads
in it is where the time went: the slowest imports by cumulative time (the chain from the package down to what is
slow) and the few with the most time of their own. Those stay in the profile's order, under its header, with
every line the program printed itself; a note says how many imports were left out.

A dependency tree is read for what the project itself depends on and for what is wrong: its root, the direct
dependencies (the first level), and every deeper line that reports a problem (``UNMET``, ``invalid``,
``extraneous``, ``missing``) or says error, failure and the like (any program may print a tree). Deeper levels
are what those pull in, one note per run of them. The whole output is in the overflow either way.
"""

from __future__ import annotations

import re

from zeph_nb.output.lines import has_lines
from zeph_nb.output.tables import spread_lines
from zeph_nb.security.secrets import keyword_spans

__all__ = ["IMPORT_CUE", "fold_import_profile", "fold_tree"]

MIN_IMPORTS = 40  # a profile shorter than this is read whole
IMPORT_CUE = "import time:"  # each line of `python -X importtime`
SLOWEST = 20  # by cumulative time: a screen of the chain that costs most
HEAVIEST = 5  # by self time: where the time is spent, however deep
MIN_TREE = 60  # a tree shorter than this is read whole (as a table: pandas' display.max_rows)
MIN_RUN = 3  # fewer deeper lines in a run are shown: their note would say no less than they do

# At most 15 digits (a profile's µs run to 9): int() refuses a crafted number of over 4,300, and raised.
_IMPORT = re.compile(r"^import time:\s+(\d{1,15}) \|\s+(\d{1,15}) \| ", re.MULTILINE)
_IMPORT_HEADER = "import time: self [us] | cumulative | imported package"
# A tree line: a prefix of `│` and spaces, then a branch (`├`, `└`, or `+--`/`\--`/`|--` in ASCII).
# Possessive: the prefix and a branch share no character, and a 6 MB line of `│` is not walked back over.
_BRANCH = re.compile(r"^([│| ]*+)(?:[├└]|[+`\\]-)")
# How npm marks a problem on a tree line (`UNMET DEPENDENCY x`, `x@1.0.0 invalid: "^2" from …`, `x extraneous`);
# matched as npm writes it, not as a word anywhere (`parse-conflict-json`, `is-invalid` are package names). And since
# any program may print a tree (a config check, a build plan, a test hierarchy), a line that says error, failure
# and the like, as in a log (generic.KEEP's words); a word joined to a package's name by `-`, `@`, `/`, `.` or `_`
# is that name (npm's error-ex and http-errors, cargo's quick-error), not news.
_PROBLEM = re.compile(r"UNMET (OPTIONAL |PEER )?DEPENDENCY|\s(invalid|extraneous)(:|\s|$)|\bmissing:|\bERR!")
_NEWS = re.compile(  # searched in the line lowered
    r"(?<![\w@/.-])(?:error|errors|fatal|panic|panicked|exception|traceback|critical|warning|failed|failure|denied"
    r"|refused|aborted|killed|segmentation fault|\w+(?:error|exception):)(?![\w@/.-])"
)
# Every line _PROBLEM or _NEWS can match holds one of these (lowered): one pass over the output finds the few lines
# worth the patterns, which took a second over every line of a 6 MB tree.
_PROBLEM_WORDS = (
    "unmet", "invalid", "extraneous", "missing:", "err!", "error", "fatal", "panic", "exception", "traceback",
    "critical", "warning", "fail", "denied", "refused", "abort", "killed", "segmentation fault",
)  # fmt: skip


def fold_import_profile(text: str) -> str | None:
    """``text`` with a long import-time profile cut to its slowest imports; None when it holds no such profile."""
    if text.count(IMPORT_CUE) < MIN_IMPORTS:
        return None
    lines = text.split("\n")
    rows: list[tuple[int, int, int]] = []  # (line index, self µs, cumulative µs)
    for index, line in enumerate(lines):
        found = _IMPORT.match(line)
        if found is not None:
            rows.append((index, int(found.group(1)), int(found.group(2))))
    if len(rows) < MIN_IMPORTS:
        return None
    keep = {index for index, _, _ in sorted(rows, key=lambda row: -row[2])[:SLOWEST]}
    keep |= {index for index, _, _ in sorted(rows, key=lambda row: -row[1])[:HEAVIEST]}
    profiled = {index for index, _, _ in rows}
    out = [line for index, line in enumerate(lines) if index not in profiled or index in keep]
    note = (
        f"[import profile: the {SLOWEST} slowest of {len(rows):,} imports by cumulative time and the {HEAVIEST}"
        f" with the most time of their own are shown; {len(rows) - len(keep):,} left out]"
    )
    at = out.index(_IMPORT_HEADER) + 1 if _IMPORT_HEADER in out else 0
    return "\n".join([*out[:at], note, *out[at:]])


def fold_tree(text: str) -> str | None:
    """``text`` with a long dependency tree cut to its root, its first level and its problems; None when it holds
    no such tree (or nothing deeper to leave out)."""
    if not has_lines(text, MIN_TREE):
        return None
    # Most long outputs are no tree: 200 lines spread over the output say so before it is split into lines.
    sample = spread_lines(text, 200)
    if sum(1 for line in sample if _BRANCH.match(line)) < 0.5 * len(sample):
        return None
    lines = text.split("\n")
    found = list(map(_BRANCH.match, lines))
    branches = len(lines) - found.count(None)
    if branches < MIN_TREE or branches < 0.5 * len(lines):
        return None
    # The lines holding one of _PROBLEM_WORDS, by number: str.lower() may lengthen a line (İ) but never adds one.
    lowered = text.lower()
    worded: set[int] = set()
    number = at = 0
    for start, _ in keyword_spans(lowered, lowered, _PROBLEM_WORDS, merge=False):
        number += lowered.count("\n", at, start)
        at = start
        worded.add(number)
    out: list[str] = []
    run: list[str] = []
    for number, (line, branch) in enumerate(zip(lines, found, strict=True)):
        # A branch after a prefix is deeper than the first level.
        if branch is not None and branch.end(1) > 0 and not (number in worded and _problem(line)):
            run.append(line)
            continue
        out += _shown(run)
        run = []
        out.append(line)
    out += _shown(run)
    if len(out) == len(lines):
        return None
    return "\n".join(out)


def _problem(line: str) -> bool:
    return _PROBLEM.search(line) is not None or _NEWS.search(line.lower()) is not None


def _shown(run: list[str]) -> list[str]:
    """A run of deeper lines as the person sees it: one note, or the lines themselves when a note says no less."""
    return run if len(run) < MIN_RUN else [f"[{len(run):,} deeper lines not shown]"]
