"""strip_noise: drop the lines a rule calls noise, but never what the command was asked to look at."""

from __future__ import annotations

import importlib
import re
from collections.abc import Sequence
from functools import lru_cache
from itertools import compress, count
from operator import not_
from typing import Any

from zeph_nb.output import rules as R
from zeph_nb.output import templates
from zeph_nb.output.lines import FilterConfidence, StageResult, compile_lines, matching_lines, split_lines

# The regex parser is private API, typed in some typeshed versions only: imported untyped either way, so one
# mypy run is clean on every version CI might install.
_parser: Any = importlib.import_module("re._parser")
_C: Any = importlib.import_module("re._constants")

__all__ = ["strip_noise"]


def strip_noise(text: str, rule: R.StripNoise, exit_code: int | None, roots: Sequence[str] = ()) -> StageResult:
    """Drop the lines ``rule.patterns`` match. A noise pattern is about what lies *below* the folder searched:
    when a root the command named is itself noise (``find .venv/lib/…/site-packages/pkg``), its lines are the
    answer, and only what follows the root in them is held to the patterns."""
    body, lines = split_lines(text)
    pattern = compile_lines(rule.patterns)
    noise = _noise_lines(tuple(rule.patterns), body, lines)
    inside = [root for root in _roots(roots) if pattern.search(root + "/")]
    if noise and inside:
        noise = {i for i in noise if not (rest := _below(lines[i], inside)) or pattern.search(rest)}
    kept = list(compress(lines, map(not_, map(noise.__contains__, range(len(lines))))))
    if rule.by_template and len(kept) >= templates.MIN_LINES:
        # Every finding is an error line or a rare one, kept by the fold as it is; the debug lines around them
        # (each naming its own module or file) are what folds.
        folded = templates.fold_by_template("\n".join(kept))
        if folded is not None:
            kept = folded.split("\n")
    if rule.repeats_over is not None and len(kept) > rule.repeats_over:
        kept = fold_repeats(kept, re.compile(rule.place_pattern), rule.repeats_shown)
    if len(kept) == len(lines):
        return StageResult(text, FilterConfidence.FALLBACK)
    return StageResult("\n".join(kept), FilterConfidence.FULL)


_PLACES_NAMED = 5  # places a note names of the lines it stands for


def fold_repeats(lines: list[str], place: re.Pattern[str], shown: int) -> list[str]:
    """``lines`` with each message said at more than ``shown`` + 1 places (``place`` matched at the line's start,
    the rest of the line the same) shown at its first ``shown`` places, and after the last of them one note for
    the others: ``[+412 more of the same, at b.py:7, c.py:9, … ]``. Every different message stays, in order: a
    type checker's 400 "missing a type annotation" are one finding at many places, its one "incompatible return
    value" another."""
    messages: list[str | None] = []
    where: list[str] = []
    for line in lines:
        found = place.match(line)
        messages.append(line[found.end() :] if found else None)
        where.append(found.group().rstrip(": ") if found else "")
    places: dict[str, list[int]] = {}
    for index, message in enumerate(messages):
        if message is not None:
            places.setdefault(message, []).append(index)
    folded = {message: at for message, at in places.items() if len(at) > shown + 1}
    if not folded:
        return lines
    hidden: set[int] = set()
    notes: dict[int, str] = {}
    for at in folded.values():
        rest = at[shown:]
        hidden.update(rest)
        named = [where[index] for index in rest[:_PLACES_NAMED]]
        more = f", … +{len(rest) - len(named)}" if len(rest) > len(named) else ""
        notes[at[shown - 1]] = f"[+{len(rest):,} more of the same, at {', '.join(named)}{more}]"
    out: list[str] = []
    for index, line in enumerate(lines):
        if index not in hidden:
            out.append(line)
        if index in notes:
            out.append(notes[index])
    return out


@lru_cache(maxsize=256)
def _one_by_one(patterns: tuple[str, ...]) -> tuple[re.Pattern[str] | None, list[re.Pattern[str]]]:
    """The patterns that can only match at a line's start, as one alternation, and the others each alone."""
    anchored: list[str] = []
    loose: list[re.Pattern[str]] = []
    for source in patterns:
        first = _parser.parse(source).data[:1]
        if first and first[0][0] is _C.AT and first[0][1] in (_C.AT_BEGINNING, _C.AT_BEGINNING_LINE):
            anchored.append(source)
        else:
            loose.append(re.compile(source, re.MULTILINE))
    return (compile_lines(anchored) if anchored else None), loose


def _noise_lines(patterns: tuple[str, ...], body: str, lines: list[str]) -> set[int]:
    """Indices of the lines any of ``patterns`` matches.

    One alternation of every pattern, tried at every position of the text, ran at 34-60 MB/s. Here the patterns
    that start with ``^`` are tried once per line, together (``map`` of ``match``, ~300 MB/s: the cost is the
    call, not the alternation), and each other one is searched for alone over the whole text, where ``re``
    skips ahead to its literal prefix when it has one (1.4 GB/s for ``INFO  heartbeat``)."""
    anchored, loose = _one_by_one(patterns)
    noise: set[int] = set()
    if anchored is not None:
        noise.update(compress(count(), map(anchored.match, lines)))
    for pattern in loose:
        noise |= matching_lines(pattern, body, lines)
    return noise


def _roots(words: Sequence[str]) -> list[str]:
    """The folders a command may have searched, as its output writes them: ``./a/b/`` is ``a/b``."""
    roots = []
    for word in words:
        root = word.rstrip("/")
        while root.startswith("./"):
            root = root[2:]
        if root and root != ".":
            roots.append(root)
    return roots


def _below(line: str, roots: list[str]) -> str:
    """What follows the longest root in ``line`` (``./`` allowed before it), or "" for none. The root may come
    after other columns, where the path is not the line's first word: ``   920 <root>/a.py`` from ``-exec wc -l``,
    ``-rw-r--r-- 1 … <root>/a.py`` from ``-ls``."""
    for root in sorted(roots, key=len, reverse=True):
        at = line.find(root)
        while at >= 0:
            before = line[:at].removesuffix("./")
            end = at + len(root)
            if (not before or before[-1] in " \t'\"") and line[end : end + 1] in ("/", ":", ""):
                return line[end:] or "/"
            at = line.find(root, at + 1)
    return ""
