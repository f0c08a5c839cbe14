"""Unified diffs wherever they appear: ``git diff``, ``git show``, ``git log -p``, and the ``--diff`` of black,
isort or ruff, ``diff -u``, a patch a script prints; and rustfmt's (``cargo fmt --check``).

What a person reads in a diff is what changed: the file headers, the hunk headers and the ``+``/``-`` lines. The
unchanged context lines around them are the file as it was, which the model can read from the file itself. Which
lines are context is decided by the hunk header's counts (``@@ -12,7 +12,8 @@``: 7 old and 8 new lines follow), not
by a line's first character alone: a commit message or a ``--stat`` line outside a hunk starts with a space too, and
is kept; a removed line reading ``-- x`` is a changed line, not a file header.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["DIFF_CUES", "DiffLines", "diff_lines", "has_diff", "without_context"]

# `@@ -start[,count] +start[,count] @@`; a missing count is 1. Combined diffs (`@@@`) are not walked: kept whole.
# A count has at most 15 digits: int() refuses a crafted one of over 4,300, and raised; such a line is no hunk's.
_HUNK = re.compile(r"^@@ -\d+(?:,(\d{1,15}))? \+\d+(?:,(\d{1,15}))? @@")
# rustfmt's own diff (`cargo fmt --check`): `Diff in src/lib.rs:19:` (`... at line 19:` before rustfmt 1.6), then
# lines that start with " ", "-" or "+" and no counts.
_RUSTFMT = re.compile(r"^Diff in \S.*(:\d+| at line \d+):$", re.MULTILINE)


@dataclass
class DiffLines:
    """Each line of a text with what it is in a diff: ``"hunk"`` (a ``@@`` header), ``"+"``, ``"-"``,
    ``"context"``, ``"note"`` (``\\ No newline at end of file``) or ``"other"`` (outside every hunk)."""

    lines: list[str]
    roles: list[str]

    @property
    def context(self) -> int:
        return self.roles.count("context")


def diff_lines(text: str) -> DiffLines:
    lines = text.split("\n")
    roles: list[str] = []
    old = new = 0  # lines of the current hunk still to come, on each side
    rustfmt = False  # inside a rustfmt block, which has no counts: it ends at a line no diff line starts so
    for line in lines:
        if rustfmt:
            first = line[:1]
            if first in ("+", "-"):
                roles.append(first)
                continue
            if first == " ":
                roles.append("context")
                continue
            rustfmt = False
        if _RUSTFMT.match(line):
            roles.append("hunk")
            rustfmt, old, new = True, 0, 0
            continue
        if old > 0 or new > 0:
            first = line[:1]
            if first == "+" and new > 0:
                roles.append("+")
                new -= 1
                continue
            if first == "-" and old > 0:
                roles.append("-")
                old -= 1
                continue
            # An empty line is a context line whose leading space an editor or a tool trimmed.
            if (first == " " or line == "") and old > 0 and new > 0:
                roles.append("context")
                old -= 1
                new -= 1
                continue
            if first == "\\":
                roles.append("note")
                continue
            old = new = 0  # the counts were wrong (a hand-made patch, a cut output): the hunk ends here
        elif line[:1] == "\\" and roles and roles[-1] in ("+", "-", "context"):
            roles.append("note")  # the hunk's last line had no newline at the end of the file
            continue
        found = _HUNK.match(line)
        if found is not None:
            old = int(found.group(1)) if found.group(1) is not None else 1
            new = int(found.group(2)) if found.group(2) is not None else 1
            roles.append("hunk")
        else:
            roles.append("other")
    return DiffLines(lines, roles)


# A diff holds one of these: a unified diff's hunk header, rustfmt's heading (``has_diff``).
DIFF_CUES = ("@@ -", "Diff in ")


def has_diff(text: str) -> bool:
    """Whether ``text`` holds a unified diff (a ``---``/``+++`` header pair before a hunk header) or rustfmt's."""
    unified = "\n@@ -" in text and ("\n+++ " in text or text.startswith("+++ ")) and "--- " in text
    return unified or ("Diff in " in text and _RUSTFMT.search(text) is not None)


def without_context(text: str) -> tuple[str, int]:
    """``text`` without the context lines and notes of its hunks; and how many lines went."""
    walked = diff_lines(text)
    kept = [line for line, role in zip(walked.lines, walked.roles, strict=True) if role not in ("context", "note")]
    return "\n".join(kept), len(walked.lines) - len(kept)
