"""Kinds of lines, found at the speed of ``str.translate`` instead of a regex pass over every line.

The dedup strategy and the generic fallback group lines by a *kind*: the line after normalising what changes
between otherwise equal lines (times, ids, numbers). A regex pass over a 4 MB log runs at 7 to 25 MB/s in Python's
``re``. Most of what varies in a log line is digits, though, so:

1. Every ASCII digit the patterns cannot tell apart is mapped to one (``str.translate``, hundreds of MB/s). Lines
   equal after that differ only in such digits.
2. Lines equal after step 1 are of one kind — the patterns match them in the same places, and any digit the
   patterns leave is mapped the same way — so only the first line of each step-1 group is normalised by the
   regexes, and every answer that depends only on the kind (is it an error line?) is asked once per group.

A kind is therefore the normalised line with its remaining digits mapped too: ``v2beta`` and ``v3beta`` are one
kind. Which digits patterns "cannot tell apart" is read from the compiled patterns (``re._parser``): a literal
digit (the ``0`` of ``0x``) or a class holding only some digits sets those apart, a backreference disables the
fast path. A log with no repetition at all costs what the regex pass costs, plus the translate.
"""

from __future__ import annotations

import importlib
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from itertools import accumulate, compress
from operator import not_
from typing import Any

from zeph_nb.security.secrets import keyword_spans

# The regex parser is private API, typed in some typeshed versions only: imported untyped either way, so one
# mypy run is clean on every version CI might install.
_parser: Any = importlib.import_module("re._parser")
C: Any = importlib.import_module("re._constants")

__all__ = ["Kind", "LineKinds", "digit_blind_table", "first_indices", "matched_chars"]

# A line's kind: its normalised text, or (``LineKinds`` given ``matched``) the index of a line no other line can
# share a kind with, which is never equal to a text.
Kind = str | int

_DIGITS = frozenset(range(ord("0"), ord("9") + 1))
_NESTED = {C.SUBPATTERN, C.MAX_REPEAT, C.MIN_REPEAT, C.ASSERT, C.ASSERT_NOT}
_NESTED |= {op for name in ("POSSESSIVE_REPEAT", "ATOMIC_GROUP") if (op := getattr(C, name, None)) is not None}


class _Unsafe(Exception):
    """A pattern can tell any digit from any other (a backreference): no digit may be mapped."""


def _class_digits(items: Sequence[tuple[object, object]]) -> set[int]:
    """The ASCII digits a character class holds (a category holds all of them or none)."""
    held: set[int] = set()
    for op, arg in items:
        if op is C.LITERAL and isinstance(arg, int):
            held |= {arg} & _DIGITS
        elif op is C.RANGE and isinstance(arg, tuple):
            held |= set(range(arg[0], arg[1] + 1)) & _DIGITS
        elif op is C.CATEGORY and arg in (C.CATEGORY_DIGIT, C.CATEGORY_WORD, C.CATEGORY_NOT_SPACE):
            held |= _DIGITS
    return held


def _set_apart(tree: Iterable[tuple[object, object]], apart: set[int]) -> None:
    for op, arg in tree:
        if op in (C.LITERAL, C.NOT_LITERAL) and isinstance(arg, int) and arg in _DIGITS:
            apart.add(arg)
        elif op is C.IN and isinstance(arg, list):
            held = _class_digits(arg)
            if held != _DIGITS:
                apart |= held  # a class holding some digits tells them from the others
        elif op in (C.GROUPREF, C.GROUPREF_EXISTS):
            raise _Unsafe
        elif op is C.BRANCH and isinstance(arg, tuple):
            for branch in arg[1]:
                _set_apart(branch, apart)
        elif op in _NESTED and isinstance(arg, tuple):
            for part in arg:
                if isinstance(part, _parser.SubPattern):
                    _set_apart(part, apart)


def digit_blind_table(patterns: Iterable[str | re.Pattern[str]]) -> dict[int, int] | None:
    """A ``str.translate`` table mapping every ASCII digit no pattern tells apart to one of them, or None when
    fewer than two are left (nothing to gain) or a pattern has a backreference."""
    apart: set[int] = set()
    try:
        for pattern in patterns:
            source = pattern.pattern if isinstance(pattern, re.Pattern) else pattern
            flags = pattern.flags if isinstance(pattern, re.Pattern) else 0
            _set_apart(_parser.parse(source, flags), apart)
    except _Unsafe:
        return None
    blind = sorted(_DIGITS - apart)
    if len(blind) < 2:
        return None
    return {digit: blind[0] for digit in blind[1:]}


class _Open(Exception):
    """A pattern may match a character outside any small set (``\\w``, ``.``, a negated class, a flag)."""


def _consumed(tree: Iterable[tuple[object, object]], chars: set[int]) -> None:
    for op, arg in tree:
        if op is C.LITERAL and isinstance(arg, int):
            chars.add(arg)
        elif op is C.IN and isinstance(arg, list):
            for item, value in arg:
                if item is C.LITERAL and isinstance(value, int):
                    chars.add(value)
                elif item is C.RANGE and isinstance(value, tuple) and value[1] - value[0] < 256:
                    chars.update(range(value[0], value[1] + 1))
                elif item is C.CATEGORY and value is C.CATEGORY_DIGIT:
                    chars.update(_DIGITS)  # only ASCII digits: used on ASCII text only
                else:
                    raise _Open
        elif op is C.AT or op in (C.ASSERT, C.ASSERT_NOT):
            continue  # matches no character: a lookaround's characters are not replaced
        elif op is C.BRANCH and isinstance(arg, tuple):
            for branch in arg[1]:
                _consumed(branch, chars)
        elif op is C.SUBPATTERN and isinstance(arg, tuple):
            if arg[1] or arg[2]:  # (?i:...) and the like
                raise _Open
            _consumed(arg[3], chars)
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT) or op in _NESTED - {C.SUBPATTERN, C.ASSERT, C.ASSERT_NOT}:
            if not isinstance(arg, tuple):
                raise _Open
            for part in arg:
                if isinstance(part, _parser.SubPattern):
                    _consumed(part, chars)
        else:
            raise _Open


def matched_chars(patterns: Iterable[tuple[str, str]], table: dict[int, int] | None) -> str | None:
    """Every ASCII character a match of one of ``(pattern, replacement)`` (run in order, ``re.sub``) can hold or
    write, and the digits ``table`` maps; None when a pattern may match one outside a small set.

    Deleting these from a line gives what normalising cannot change: two lines of one kind read the same with
    them deleted. A line that reads like no other line with them deleted is of a kind of its own, and need not be
    normalised (``LineKinds``): on a log whose every line is different (a request id on each), that was all of
    the time dedup took, six regex passes over every line."""
    chars: set[int] = set()
    try:
        for source, replacement in patterns:
            tree = _parser.parse(source, re.MULTILINE)
            if tree.state.flags & ~(re.MULTILINE | re.UNICODE):
                raise _Open
            _consumed(tree, chars)
            chars.update(map(ord, replacement))
    except _Open:
        return None
    if table is not None:
        chars.update(table)
        chars.update(table.values())
    if any(char > 127 for char in chars):
        return None
    return "".join(map(chr, sorted(chars)))


def first_indices(keys: Sequence[Kind]) -> dict[Kind, int]:
    """Where each key first occurs in ``keys``. Built by C-level zip, not a Python loop over every line (a third of
    the grouping's time on a log): read backwards, a key's last write is its first line."""
    return dict(zip(reversed(keys), range(len(keys) - 1, -1, -1), strict=True))


_SAMPLED = 1_000  # lines whose rests decide whether ``LineKinds._by_rest`` is tried
_SHARED_AT_MOST = 0.2  # ... when at most this share of them shares a rest with another


class LineKinds:
    """The kinds of ``lines`` (``text`` split on "\\n"), normalised by ``normalize`` only once per group.

    With ``matched`` (``matched_chars`` of the patterns ``normalize`` runs), on ASCII text, a line that reads like
    no other once those characters are deleted is of a kind no other line has: its kind is ``lone`` of its index
    (by default the index, an int, never equal to a normalised text), and it is not normalised. ``rests``, instead
    of ``matched``: how the rests of lines joined by "\\n" are worked out, for normalising that no set of deleted
    characters describes (the generic fallback's paths hold any word: ``generic._rests``); two lines of one kind
    must have equal rests. Given ``lone`` (the generic fallback, which reads its kinds), only a line alone in its
    group is given a ``lone`` kind, seen once: never folded, so never read for its text."""

    def __init__(
        self,
        text: str,
        lines: list[str],
        normalize: Callable[[str], str],
        table: dict[int, int] | None,
        matched: str | None = None,
        *,
        rests: Callable[[str], bytes] | None = None,
        lone: Callable[[int], Kind] = int,
    ):
        self.lines = lines
        self.text = text
        self._lone = lone
        if matched is not None and rests is None:
            deleted = matched.encode("ascii")
            rests = lambda joined: joined.encode("ascii").translate(None, deleted)  # noqa: E731
        self._rests = rests
        #: no two lines are of a kind (``_by_rest`` found every rest unique): every line's kind is its index, or
        #: with ``lone`` given, the line itself (no kind was normalised, so none can equal it)
        self.distinct = False
        if rests is not None and lines and text.isascii() and self._by_rest(normalize, table):
            return
        if table is None:
            fast = lines
        else:
            fast = text.translate(table).split("\n") if lines else []
            if len(fast) != len(lines):  # cannot happen for a digit table; kept honest anyway
                fast = [line.translate(table) for line in lines]
        first = first_indices(fast)
        #: index of each line's group, and the first line of each group
        self.group = list(map(first.__getitem__, fast))
        self.firsts = sorted(first.values())
        kind_of: dict[int, Kind] = {}
        normalized_lines = self.firsts
        # (Not for kinds that are read: in a log that repeats, as ``_by_rest`` found this one does, few groups are
        # alone, and telling which of them are lines alone costs a count of every line's group.)
        if rests is not None and lone is int and text.isascii() and self.firsts:
            # What is left of each group's first line with what normalising reads or writes deleted: equal for
            # two lines of one kind. The groups whose rest is like no other group's are kinds of their own.
            # On bytes: ``bytes.translate`` deletes at C speed, ``str.translate`` by a lookup per character.
            first_rests = rests(self._firsts_joined()).split(b"\n")
            if len(first_rests) == len(self.firsts):  # a matched character is "\n": cannot happen, kept honest
                shared = {rest for rest, times in Counter(first_rests).items() if times > 1}
                in_shared = list(map(shared.__contains__, first_rests))
                alone = list(compress(self.firsts, map(not_, in_shared)))
                kind_of.update(zip(alone, map(lone, alone), strict=True))  # a kind of its own, from its index
                normalized_lines = list(compress(self.firsts, in_shared))
        if normalized_lines:
            every = normalized_lines is self.firsts
            together = self._firsts_joined() if every else "\n".join(map(lines.__getitem__, normalized_lines))
            keys = self._normalized(together, normalized_lines, normalize, table)
            kind_of.update(zip(normalized_lines, keys, strict=True))
        self.kinds: list[Kind] = list(map(kind_of.__getitem__, self.group))

    def _normalized(
        self, joined: str, indices: list[int], normalize: Callable[[str], str], table: dict[int, int] | None
    ) -> list[str]:
        """The kinds of the lines at ``indices`` (``joined``: those lines joined), normalised."""
        normalized = normalize(joined)
        # The remaining digits mapped in one pass, not one call per line (a fifth of the grouping's time on a
        # log whose lines are all different).
        keys = (normalized if table is None else normalized.translate(table)).split("\n")
        if len(keys) != len(indices):  # a pattern matched across lines: normalise line by line
            keys = [normalize(self.lines[i]) for i in indices]
            keys = keys if table is None else [key.translate(table) for key in keys]
        return keys

    def _by_rest(self, normalize: Callable[[str], str], table: dict[int, int] | None) -> bool:
        """The kinds, with every line's rest (``matched`` deleted) worked out first, on ASCII text: a line whose
        rest no other line has is alone in its group (its group's lines differ in mapped digits, which the rest
        lacks) and no other group shares its rest, so it is a kind of its own, as ``__init__``'s steps find. Only
        the lines sharing a rest are grouped and compared as there: on a log whose every line is different, the
        digit mapping, the split and the grouping of every line (12 ms of 4 MB) are not needed. False when the
        rests do not line up with the lines (a matched character is "\n")."""
        lines = self.lines
        rests_of = self._rests
        assert rests_of is not None
        # Worth it on a log of unlike lines only: where many lines share a rest (a log that repeats), grouping
        # them all here costs more than the digit mapping saves. The first lines tell (which way is taken changes
        # only the time).
        sample = rests_of("\n".join(lines[:_SAMPLED])).split(b"\n")
        if sum(seen for seen in Counter(sample).values() if seen > 1) > len(sample) * _SHARED_AT_MOST:
            return False
        rests = rests_of(self.text).split(b"\n")
        if len(rests) != len(lines):
            return False
        times = Counter(rests)
        every = len(lines)
        group = list(range(every))
        lone = self._lone
        self.group = group
        if len(times) == every:
            # No two lines of a kind, so no kind was normalised: each line is a text no other kind can equal,
            # and a kind that is read is the line itself (a third of the generic fallback's grouping here, spent
            # on ``lone`` texts nobody reads).
            self.kinds = list(group) if lone is int else list(lines)
            self.firsts = list(group)
            self.distinct = True
            return True
        self.kinds = list(group) if lone is int else list(map(lone, group))
        shared = {rest for rest, seen in times.items() if seen > 1}
        sharing = list(map(shared.__contains__, rests))
        some = list(compress(range(every), sharing))  # the lines sharing a rest
        subset = list(map(lines.__getitem__, some))
        if table is None:
            fast = subset
        else:
            fast = "\n".join(subset).translate(table).split("\n")
            if len(fast) != len(subset):  # cannot happen for a digit table; kept honest anyway
                fast = [line.translate(table) for line in subset]
        first = dict(zip(reversed(fast), reversed(some), strict=True))  # a group's first line: its last write
        groups = list(map(first.__getitem__, fast))
        firsts = sorted(first.values())
        # Among the groups' first lines (the lines of a rest no other line has are such firsts, with rests no
        # first here has), those whose rest another first shares are normalised, the others are kinds of their own.
        first_rests = list(map(rests.__getitem__, firsts))
        again = {rest for rest, seen in Counter(first_rests).items() if seen > 1}
        in_again = list(map(again.__contains__, first_rests))
        if lone is not int:  # a kind that is read: only a line alone in its group is given one
            sizes = Counter(groups)
            in_again = [shared or sizes[first] > 1 for first, shared in zip(firsts, in_again, strict=True)]
        alone = list(compress(firsts, map(not_, in_again)))
        kind_of: dict[int, Kind] = dict(zip(alone, alone, strict=True)) if lone is int else {i: lone(i) for i in alone}
        normalized_lines = list(compress(firsts, in_again))
        if normalized_lines:
            joined = "\n".join(map(lines.__getitem__, normalized_lines))
            kind_of.update(
                zip(normalized_lines, self._normalized(joined, normalized_lines, normalize, table), strict=True)
            )
        for index, head in zip(some, groups, strict=True):
            group[index] = head
            self.kinds[index] = kind_of[head]
        self.firsts = sorted([*compress(range(every), map(not_, sharing)), *firsts])
        return True

    def _line_indices(self, spans: Sequence[tuple[int, int]]) -> list[int]:
        """The index in ``lines`` of the line each span (in order, each a line's start and end in ``text``) is."""
        indices: list[int] = []
        index, at = 0, 0
        for start, _ in spans:
            index += self.text.count("\n", at, start)  # at C speed over the gap: a few spans in a long text
            indices.append(index)
            at = start
        return indices

    def _firsts_joined(self) -> str:
        """The first line of each group, joined: the text itself when no two lines are alike (no join of 4 MB)."""
        if len(self.firsts) == len(self.lines):
            return self.text
        return "\n".join(map(self.lines.__getitem__, self.firsts))

    def lines_matching(
        self,
        pattern: re.Pattern[str],
        *,
        lower: bool = False,
        cues: tuple[str, ...] = (),
        holding: Sequence[tuple[int, int]] | None = None,
    ) -> set[int]:
        """Indices of every line ``pattern`` finds (in the lowered line with ``lower``), searched once per group;
        only valid for a pattern that cannot tell the mapped digits apart (``digit_blind_table``).

        ``cues`` are words in lower case of which every match holds one, whatever its case. On ASCII text only
        the groups whose line holds one are searched, found by one Aho-Corasick scan: a log whose lines are all
        different (a request id on each) has as many groups as lines, and a regex search of each was a third of
        the generic fallback's time there. Beyond ASCII every group is searched: ``re``'s case-insensitive ``i``
        matches a dotless i, which lowering leaves alone. ``holding``: the (start, end) in ``text`` of lines that
        include every line holding a cue, from a scan the caller made already (the engine's): then that scan's
        lines are the ones searched, on ASCII text, and no scan is made here."""
        firsts = self.firsts
        if cues and holding is not None and self.text.isascii():
            # A cue has no digit: every line of a group holds it when one does (the lines differ only in digits).
            firsts = sorted({self.group[index] for index in self._line_indices(holding)})
        elif cues:
            joined = self._firsts_joined()
            if joined.isascii():
                lowered = joined.lower()
                starts = list(accumulate(map((1).__add__, map(len, map(self.lines.__getitem__, firsts))), initial=0))
                spans = keyword_spans(lowered, lowered, cues, merge=False)
                firsts = [firsts[bisect_right(starts, start) - 1] for start, _ in spans]
        hit = set()
        for index in firsts:
            line = self.lines[index]
            if pattern.search(line.lower() if lower else line):
                hit.add(index)
        if self.distinct:  # each line its own group: the lines hit are those (not a pass over every line's group)
            return hit
        return set(compress(range(len(self.group)), map(hit.__contains__, self.group))) if hit else set()
