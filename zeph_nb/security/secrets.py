"""Credential-shaped strings in tool output and arguments: find them, and replace them before anyone stores them.

What a credential looks like is in ``secret_patterns.py``; measured on the labelled corpus in
``tests/data/secrets/`` by ``python -m bench secrets``. Python's ``re`` tries a pattern at every position (~40 ms per
MB each), while ``str.find`` skips through text at memory speed: each pattern runs only over the lines holding one
of its literal keywords, or not at all.
"""

from __future__ import annotations

import bisect
import json
import re
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

# What a credential looks like (secret_patterns.py) is imported by the first scan, in the functions below: its ~40
# regexes take ~5 ms to compile, which every new Agent paid at import though it scans nothing until a call returns.

__all__ = [
    "SecretFinding",
    "ascii_lower",
    "clear_cut",
    "compile_extra",
    "inert",
    "keyword_line_groups",
    "keyword_spans",
    "redact",
    "redact_params",
    "redact_row",
    "scan_secrets",
]


@dataclass(frozen=True)
class SecretFinding:
    kind: str
    start: int  # span of the secret value itself within the text
    end: int

    def preview(self, text: str) -> str:
        value = text[self.start : self.end]
        return value[:4] + "…" if len(value) > 8 else "…"


_LINES_AFTER_BYTES = 4096  # below this, a whole-text search is as fast as finding the lines first
_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
_REPEAT_MIN = 6  # shorter found values are not looked for again elsewhere (too many innocent matches)


def ascii_lower(text: str) -> str:
    """``text`` with A-Z lowered and nothing else changed, so offsets in it are offsets in ``text``: str.lower()
    can change lengths (İ becomes two characters) but is several times faster, so it is used on ASCII text."""
    return text.lower() if text.isascii() else text.translate(_ASCII_LOWER)


@lru_cache(maxsize=256)
def _automata(keywords: tuple[str, ...]) -> tuple[Any, Any]:
    import ahocorasick_rs

    # Always a DFA: left to choose, the library builds one only for a short keyword list, and over 100 or so a
    # slower automaton (the filter engine's scan with the put-back's 406 count cues: 16 ms of 4 MB, 7.8 as a DFA,
    # the same as for 48 keywords). Built once per keyword list (a few ms; cached).
    dfa = ahocorasick_rs.Implementation.DFA
    return (
        ahocorasick_rs.BytesAhoCorasick([k.encode() for k in keywords], implementation=dfa),
        ahocorasick_rs.AhoCorasick(list(keywords), implementation=dfa),
    )


_SURROGATES = re.compile("[\ud800-\udfff]")


def _find(on_bytes: Any, on_text: Any, lowered: str, *, overlapping: bool) -> list[tuple[int, int, int]]:
    """The automata's matches in ``lowered``: on ASCII text a byte offset is a character offset, and the bytes
    automaton is twice as fast as the one that counts characters. A lone surrogate (text decoded with
    ``surrogateescape``, JSON's ``"\\ud800"``) cannot be encoded for the automaton, which raised: it is searched
    as U+FFFD, one character for one (offsets hold), which no keyword holds either."""
    found: list[tuple[int, int, int]]
    if lowered.isascii():
        found = on_bytes.find_matches_as_indexes(lowered.encode("ascii"), overlapping=overlapping)
        return found
    try:
        found = on_text.find_matches_as_indexes(lowered, overlapping=overlapping)
    except UnicodeEncodeError:
        found = on_text.find_matches_as_indexes(_SURROGATES.sub("\ufffd", lowered), overlapping=overlapping)
    return found


def keyword_spans(text: str, lowered: str, keywords: tuple[str, ...], *, merge: bool = True) -> list[tuple[int, int]]:
    """The (start, end) of each line of ``text`` that contains one of ``keywords`` (looked for in ``lowered``, the
    text in lower case), in order; with ``merge``, lines next to each other as one span."""
    on_bytes, on_text = _automata(keywords)
    found = _find(on_bytes, on_text, lowered, overlapping=False)  # one pass for all keywords
    starts: list[int] = []
    line_end = -1
    for _, at, _ in found:  # in order of position; a line is looked at once however many keywords it has
        if at <= line_end:
            continue
        starts.append(lowered.rfind("\n", 0, at) + 1)
        line_end = lowered.find("\n", at)
        if line_end < 0:
            break
    spans: list[tuple[int, int]] = []
    for start in starts:
        end = text.find("\n", start)
        end = end if end >= 0 else len(text)
        if merge and spans and start <= spans[-1][1] + 1:  # the next line: one search over both
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
    return spans


def keyword_line_groups(
    text: str, lowered: str, groups: tuple[tuple[str, ...], ...], cues: tuple[str, ...] = ()
) -> tuple[tuple[list[tuple[int, int]], ...], set[str]]:
    """For each group of keywords, the (start, end) of each line of ``text`` holding one of them (looked for in
    ``lowered``), in order: ``keyword_spans`` for several keyword lists in one pass over the text. And which of
    ``cues`` (in lower case) ``lowered`` holds anywhere: the same pass answers that for free."""
    keywords, owners, is_cue = _grouped(groups, cues)
    on_bytes, on_text = _automata(keywords)
    # Overlapping: a keyword of one group may lie inside another group's ("warn" in "warning").
    found = _find(on_bytes, on_text, lowered, overlapping=True)
    spans: tuple[list[tuple[int, int]], ...] = tuple([] for _ in groups)
    cues_found: set[str] = set()
    last_start = [-1] * len(groups)
    line_start, line_end = -1, -1
    for index, at, _ in found:
        if is_cue[index]:
            cues_found.add(keywords[index])
        mine = owners[index]
        if not mine:
            continue
        if at > line_end or line_start < 0:  # a new line: where it starts and ends, worked out once
            line_start = lowered.rfind("\n", 0, at) + 1
            line_end = text.find("\n", at)
            line_end = line_end if line_end >= 0 else len(text)
        for g in mine:
            if last_start[g] != line_start:
                last_start[g] = line_start
                spans[g].append((line_start, line_end))
    return spans, cues_found


@lru_cache(maxsize=64)
def _grouped(
    groups: tuple[tuple[str, ...], ...], cues: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[tuple[int, ...], ...], tuple[bool, ...]]:
    """``keyword_line_groups``'s keywords (each once), the groups each belongs to, and whether each is a cue: worked
    out once per group list (the engine's 456 keywords took 1.2 ms of tuple lookups on every call)."""
    keywords = tuple(dict.fromkeys((*(k for group in groups for k in group), *cues)))
    owners = tuple(tuple(g for g, group in enumerate(groups) if k in group) for k in keywords)
    return keywords, owners, tuple(k in cues for k in keywords)


REDACTED_MARK = "[REDACTED:"


def scan_secrets(
    text: str, extra: Sequence[re.Pattern[str]] = (), known: Mapping[str, str] | None = None
) -> list[SecretFinding]:
    """Every credential-shaped value in ``text``, in order, without overlaps. ``extra`` are the person's own
    patterns (``[output.filters.security] extra_patterns``): group 1 is the value, or the whole match without one.
    ``known`` are values found secret elsewhere (value: kind), secret here too wherever they appear: a filter's
    output keeps a line that repeats a value named only on a line it dropped."""
    from zeph_nb.security.secret_patterns import ANCHORED, LED, NAME_AT, NAMED_BY_KEYWORD, PATTERNS, WHOLE_TEXT

    found = _Found()
    lowered = ascii_lower(text)  # the keywords are ASCII
    hits = _keyword_hits(lowered)  # one pass for every kind's keywords
    named_at: list[int] | None = None
    # A kind with none of its keywords in the text has no match (every pattern runs only from or around its
    # keywords, or not at all): only the kinds the pass met are looked at, in PATTERNS' order, which decides
    # between overlapping findings. Most texts (a file read, an audit row's ids) meet none.
    for kind, pattern, group in PATTERNS if hits.kinds else ():
        if kind not in hits.kinds:
            continue
        offsets = hits.of(kind)
        if kind in NAMED_BY_KEYWORD:
            if named_at is None:
                named_at = [m.start() for m in _searched(NAME_AT, lowered, offsets)]
            matches = [m for at in named_at if (m := pattern.match(text, at))]
        elif kind in ANCHORED:
            matches = [m for at in offsets if (m := pattern.match(text, at))]
        elif kind in WHOLE_TEXT:
            matches = list(pattern.finditer(text))
        elif len(text) < _LINES_AFTER_BYTES:
            matches = _searched(pattern, text, offsets) if kind in LED else list(pattern.finditer(text))
        elif kind in LED:
            matches = [m for start, end, within in _line_spans(lowered, offsets)
                       for m in _searched(pattern, text, within, end)]  # fmt: skip
        else:
            matches = [m for start, end, _ in _line_spans(lowered, offsets)
                       for m in pattern.finditer(text, start, end)]  # fmt: skip
        for match in matches:
            which = (match.lastindex or 0) if group < 0 else group  # -1: whichever alternative matched
            value = match.group(which)
            # A value already redacted is not found again: redacting twice (the store keeps a row the output gate
            # had redacted) left a stray "]" each time, "[REDACTED:assigned_secret]]]".
            if not value or value.startswith(REDACTED_MARK) or not _is_secret(kind, match, which, value):
                continue
            found.add(SecretFinding(kind, *match.span(which)))
    for pattern in extra:
        for match in pattern.finditer(text):
            group = 1 if pattern.groups else 0
            if match.group(group):
                found.add(SecretFinding("custom", *match.span(group)))
    _add_repeats(text, found, known or {})
    return found.items


# Every kind's keywords, each once, and which kinds each belongs to: one automaton pass over a text finds them all
# (it was a ``str.find`` pass per keyword and a line search per kind: 0.9 s on 15.9 MB, 18x a splitlines pass).
@dataclass(frozen=True)
class _Keywords:
    every: tuple[str, ...]  # every keyword once
    of_kind: dict[str, tuple[int, ...]]  # per kind, the indexes of its keywords in ``every``
    kinds_of: tuple[frozenset[str], ...]  # per keyword, the kinds it belongs to
    overlap: int  # the longest keyword's length - 1: how far a piece of a long text reaches into the next


@lru_cache(maxsize=1)
def _keywords() -> _Keywords:
    """Every kind's keywords (made at the first scan: see the imports)."""
    from zeph_nb.security.secret_patterns import KEYWORDS, PATTERNS

    every = tuple(dict.fromkeys(k for kind, _, _ in PATTERNS for k in KEYWORDS[kind]))
    of_kind = {kind: tuple(every.index(k) for k in keywords) for kind, keywords in KEYWORDS.items()}
    kinds_of = tuple(frozenset(kind for kind, keywords in KEYWORDS.items() if k in keywords) for k in every)
    return _Keywords(every, of_kind, kinds_of, max(len(k) for k in every) - 1)


_CHUNK = 1 << 22  # the automaton's matches are tuples: a text of "-----" is one per character, taken 4 MB at a time


class _Hits:
    """Where each keyword occurs in a lowered text (overlapping occurrences too), and per kind, in order; ``kinds``
    are the kinds with at least one keyword there."""

    def __init__(self, by_keyword: dict[int, list[int]]) -> None:
        self.by_keyword = by_keyword  # only the keywords found, by index
        kinds_of = _keywords().kinds_of
        self.kinds: frozenset[str] = frozenset().union(*(kinds_of[i] for i in by_keyword))
        self._of: dict[str, list[int]] = {}

    def of(self, kind: str) -> list[int]:
        offsets = self._of.get(kind)
        if offsets is None:
            nonempty = [at for i in _keywords().of_kind[kind] if (at := self.by_keyword.get(i))]
            if len(nonempty) <= 1:
                offsets = nonempty[0] if nonempty else []
            else:
                offsets = sorted(set().union(*nonempty))  # two keywords can start at one offset
            self._of[kind] = offsets
        return offsets


def _keyword_hits(lowered: str) -> _Hits:
    keywords = _keywords()
    on_bytes, on_text = _automata(keywords.every)
    by_keyword: dict[int, list[int]] = {}
    if len(lowered) <= _CHUNK:  # one piece (nearly every text): no seam to mind
        for index, at, _ in _find(on_bytes, on_text, lowered, overlapping=True):
            by_keyword.setdefault(index, []).append(at)
        return _Hits(by_keyword)
    for base in range(0, len(lowered), _CHUNK):
        # Each piece reaches a keyword's length into the next, so a keyword across the seam is found, once: by the
        # piece it starts in.
        piece = lowered[base : base + _CHUNK + keywords.overlap]
        for index, at, _ in _find(on_bytes, on_text, piece, overlapping=True):
            if at < _CHUNK:
                by_keyword.setdefault(index, []).append(base + at)
    return _Hits(by_keyword)


def _searched(
    pattern: re.Pattern[str], text: str, offsets: Sequence[int], end: int | None = None
) -> list[re.Match[str]]:
    """What ``pattern.finditer(text)`` (up to ``end``) finds, for a pattern whose every match starts at one of
    ``offsets``: tried only there, each after the last match's end, as a search goes on."""
    end = len(text) if end is None else end
    matches: list[re.Match[str]] = []
    after = 0
    for at in offsets:
        if at < after:
            continue
        match = pattern.match(text, at, end)
        if match is not None:
            matches.append(match)
            after = match.end()
    return matches


def _line_spans(lowered: str, offsets: list[int]) -> list[tuple[int, int, list[int]]]:
    """The lines holding one of ``offsets``, lines next to each other as one span (one search over both, as
    ``keyword_spans`` gives them), each with the offsets in it."""
    spans: list[tuple[int, int, list[int]]] = []
    line_end = -1
    for at in offsets:
        if at <= line_end:
            spans[-1][2].append(at)
            continue
        start = lowered.rfind("\n", 0, at) + 1
        line_end = lowered.find("\n", at)
        line_end = line_end if line_end >= 0 else len(lowered)
        if spans and start <= spans[-1][1] + 1:
            spans[-1][2].append(at)
            spans[-1] = (spans[-1][0], line_end, spans[-1][2])
        else:
            spans.append((start, line_end, [at]))
    return spans


# A word a cut must not split: a token, a key, a base64 run. Longer than _WORD_MAX, it is a blob, cut anywhere.
_WORD_END = re.compile(r"[^\s'\"`,;(){}\[\]<>|]+\Z")
_WORD_CHAR = re.compile(r"[^\s'\"`,;(){}\[\]<>|]")
_WORD_MAX = 256


def clear_cut(text: str, limit: int) -> int:
    """Where to cut ``text`` to at most ``limit`` characters without splitting a secret: before any credential
    the cut would go through, and before a word it would go through, so no piece of a value is left that no
    pattern recognises in part (a token's first 20 characters). A piece is not redacted downstream; a whole is."""
    if len(text) <= limit:
        return len(text)
    at = limit
    for finding in scan_secrets(text):
        if finding.start < at < finding.end:
            at = finding.start
            break
        if finding.start >= at:
            break
    if _WORD_CHAR.match(text, at):
        start = max(0, at - _WORD_MAX)
        word = _WORD_END.search(text, start, at)
        if word is not None and (word.start() > start or start == 0):
            at = word.start()
    return at


def _add_repeats(text: str, found: _Found, known: Mapping[str, str]) -> None:
    """A value found once is secret everywhere in the text: `--password X` makes the `echo X | base64` two lines
    up secret too, though nothing there names it. So is each ``known`` value."""
    values = {**known, **{text[f.start : f.end]: f.kind for f in found.items}}
    for value, kind in values.items():
        # A shorter value is secret again only where it stands whole in double quotes, and when it holds a letter
        # (`"1234"` or `"1.0"` elsewhere is a count or a version): a fold's note lists a key's values after the
        # key's first (`"password": "Zq9!x" (20), "K7#pw" (10)`), and `"K7#pw"` is that value.
        if len(value) < _REPEAT_MIN and not any(c.isalpha() for c in value):
            continue
        needle, offset = (value, 0) if len(value) >= _REPEAT_MIN else (f'"{value}"', 1)
        at = text.find(needle)
        while at >= 0:
            found.add(SecretFinding(kind, at + offset, at + offset + len(value)))
            at = text.find(needle, at + 1)


def _is_secret(kind: str, match: re.Match[str], group: int, value: str) -> bool:
    from zeph_nb.security.secret_patterns import NAMED, after_place, is_placeholder, name_before, plausible_value

    if kind not in NAMED:
        return not is_placeholder(value)
    before = match.string[match.start() : match.start(group)]
    if kind in _KEYED:
        prefix, preceding = name_before(match.string, match.start())
        after_colon = preceding == ":" and not prefix.startswith("_")
        if preceding not in _KEYED[kind] or (
            after_colon and not after_place(match.string, match.start() - len(prefix))
        ):
            return False  # `arn:…:secret:prod/db`, `${X_TOKEN:?unset}`, a JSON key inside a longer string
        if kind == "assigned_secret" and prefix.strip("-_.") == "" and before[:3].lower() == "key":
            return False  # a bare `key:` is any key (a cache key, a sort key); `"key": …` in JSON is judged apart
        before = prefix + before
    quoted = kind in ("json_secret", "xml_secret") or before[-1:] in ("'", '"')
    return plausible_value(value, quoted=quoted, name=before, kind=kind)


# Kinds keyed by a name, and what may stand right before that name: a JSON key is quoted, an XML name follows < or
# key=", an assignment's name starts a word (not a path or an ARN).
_KEYED: dict[str, tuple[str, ...]] = {
    "json_secret": ('"',),
    "xml_secret": ("<", '"'),
    "assigned_secret": ("", " ", "\t", "\n", "'", '"', "[", "(", ",", ";", "$", "&", "?", "*", "!", "@", "|", ":"),
}


class _Found:
    """Findings in order of position, none overlapping: a finding that overlaps one already there is dropped (an
    earlier, more specific pattern covers it). Kept sorted, so each addition looks only at its two neighbours: a
    hostile output repeating one key 100,000 times is scanned in linear time, not quadratic."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.items: list[SecretFinding] = []

    def add(self, finding: SecretFinding) -> None:
        at = bisect.bisect_left(self.starts, finding.start)
        if at > 0 and self.items[at - 1].end > finding.start:
            return
        if at < len(self.items) and self.items[at].start < finding.end:
            return
        self.starts.insert(at, finding.start)
        self.items.insert(at, finding)


def compile_extra(patterns: Sequence[str]) -> tuple[re.Pattern[str], ...]:
    """The person's extra patterns, compiled; a ValueError naming the one that is not a valid regex."""
    compiled = []
    for pattern in patterns:
        try:
            compiled.append(re.compile(pattern))
        except re.error as e:
            raise ValueError(
                f"[output.filters.security] extra_patterns: {pattern!r} is not a valid regex ({e})"
            ) from None
    return tuple(compiled)


# What may be hidden from a person who is asked to approve a call: a value with none of these is data (a key, a
# token, a password of such characters). One with them can be code: "password = '" + payload + "'" would hide the
# payload from the very person approving it.
_CODE_CHARS = re.compile(r"[\s'\"`;|&$(){}\[\]<>\\#,=]")
_PEM_LINE = re.compile(r"[A-Za-z0-9+/=]*|[A-Za-z-]+: [A-Za-z0-9,-]+|-----(BEGIN|END) [A-Z0-9 ]+-----")


def inert(value: str) -> bool:
    """Whether a found secret value is only data, so hiding it hides nothing that would run (``review``)."""
    if value.startswith("-----BEGIN"):
        return all(_PEM_LINE.fullmatch(line.strip()) for line in value.strip().splitlines())
    return _CODE_CHARS.search(value) is None


def redact(
    text: str,
    findings: list[SecretFinding] | None = None,
    extra: Sequence[re.Pattern[str]] = (),
    *,
    review: bool = False,
) -> str:
    """``text`` with each secret value replaced by ``[REDACTED:<kind>]``. With ``review`` (what a person approves),
    only values that are data: a "secret" that could be code stays visible (``inert``)."""
    findings = scan_secrets(text, extra) if findings is None else findings
    if review:
        findings = [f for f in findings if inert(text[f.start : f.end])]
    pieces: list[str] = []
    last = 0
    for finding in findings:
        pieces.append(text[last : finding.start])
        pieces.append(f"{REDACTED_MARK}{finding.kind}]")
        last = finding.end
    pieces.append(text[last:])
    return "".join(pieces)


def redact_row(
    row: Mapping[str, Any], extra: Sequence[re.Pattern[str]] = (), *, review: bool = False
) -> dict[str, Any]:
    """A row about to be stored, every text value redacted: plain text as text, JSON text (``params``) value by
    value so it stays JSON. The store's one choke point calls this for every table (``review`` for the inbox's
    requests, which a person approves)."""
    clean: dict[str, Any] = dict(row)
    texts = [key for key, value in row.items() if isinstance(value, str)]
    # One keyword pass over the row's texts together picks the ones that can hold a secret (a tool_calls row has
    # a dozen: ids, a status, a timestamp, the params); it was a whole scan of each.
    for key in texts if extra else _with_keywords(row, texts):
        if scan_secrets(row[key], extra):
            clean[key] = _redact_text_or_json(row[key], extra, review)
    return clean


def _with_keywords(row: Mapping[str, Any], keys: list[str]) -> list[str]:
    """The ``keys`` whose text holds a keyword of some kind; a text without any has no finding (``scan_secrets``
    runs a kind only where one of its keywords is). Joined by newlines, which no keyword holds, so no keyword is
    found across two texts."""
    starts, at = [], 0
    for key in keys:
        starts.append(at)
        at += len(row[key]) + 1
    lowered = ascii_lower("\n".join(row[key] for key in keys))
    on_bytes, on_text = _automata(_keywords().every)
    holding = {bisect.bisect_right(starts, at) - 1 for _, at, _ in _find(on_bytes, on_text, lowered, overlapping=False)}
    return [key for i, key in enumerate(keys) if i in holding]


def _redact_text_or_json(text: str, extra: Sequence[re.Pattern[str]], review: bool = False) -> str:
    if text[:1] in ("{", "["):
        try:
            value = json.loads(text)
        except ValueError:
            return redact(text, extra=extra, review=review)
        return json.dumps(_redact_value(value, extra, review), ensure_ascii=False, sort_keys=False)
    return redact(text, extra=extra, review=review)


def _redact_value(value: Any, extra: Sequence[re.Pattern[str]], review: bool = False) -> Any:
    if isinstance(value, str):
        return redact(value, extra=extra, review=review)
    if isinstance(value, dict):
        text = json.dumps(value, ensure_ascii=False)  # a key names the secret: {"password": "…"}
        if scan_secrets(text, extra):
            return redact_params(value, extra, review=review)
        return value
    if isinstance(value, list):
        return [_redact_value(item, extra, review) for item in value]
    return value


def redact_params(
    params: Mapping[str, Any], extra: Sequence[re.Pattern[str]] = (), *, review: bool = False
) -> dict[str, Any]:
    """A call's arguments with secret values replaced, for showing them to a person (``review``: to approve).

    Scanned as JSON, so a value is caught by its key too (``{"password": "…"}``).
    """
    text = json.dumps(params, ensure_ascii=False, default=str)
    redacted = redact(text, extra=extra, review=review)
    if redacted == text:
        return dict(params)
    try:
        value = json.loads(redacted)
    except ValueError:  # a replacement swallowed a quote: fall back to one value at a time
        return {key: redact(str(item), extra=extra, review=review) for key, item in params.items()}
    return dict(value) if isinstance(value, dict) else {"params": value}
