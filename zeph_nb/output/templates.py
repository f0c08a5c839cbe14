"""Fold by template: a long log whose lines come from a few interleaved templates, each shown once with its count.

The generic fallback folds only *runs* of similar lines; a service log interleaves its kinds (a request line, a
pool line, a heartbeat, a warning every few lines), so its runs are short and a 94,000-character log reached the
model as 40,000 characters of run notes. Here the templates are mined over the whole output:

1. Each line's kind is the line with what varies written ``#`` (numbers, UUIDs, hex ids, times, paths: the
   generic fallback's normalising, found at ``str.translate`` speed by ``LineKinds``).
2. A kind seen only a few times (``RARE``) in the whole output is an event, not repetition: its lines stay as they
   are (the generic fallback's promise). The other kinds alike but for a word (``GET`` and ``POST``) are merged
   into one template, Drain-style (He et al. 2017, ``mine_templates``; ``MERGE``), and the first line of each
   merged kind is shown, so no kind disappears behind another's line.
3. A template with words in it is *folded*: its first and last lines are shown as they are, and after the first
   ``[610 more, lines 4-1889: "<time> INFO [http] GET /api/v1/items 200 <n>ms request_id=<uuid>"  (<n> 12..40)]``:
   how many, where they are, the template with typed holes, and a few of the values they took.

Everything else stays verbatim and in order, the notes between: every line of an error, warning or exception
(``generic.KEEP``), every traceback (its frames and source lines under ``Traceback …`` up to the exception line),
rare kinds (a summary line is one), rows without words (the answer itself), and the first and last lines. A
template whose note would be no shorter than its lines is not folded.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import accumulate, compress, repeat
from operator import eq, not_
from typing import cast

from zeph_nb.output.generic import _NORMALIZE, _WORDS, KEEP, KEEP_CUES, generic_filter, line_kinds, normalize
from zeph_nb.output.generic import MIN_LINES as GENERIC_MIN_LINES
from zeph_nb.output.kinds import LineKinds, first_indices
from zeph_nb.output.lines import matching_lines, quoted
from zeph_nb.output.shapes import STACKS
from zeph_nb.security.secrets import clear_cut

__all__ = [
    "GENERIC",
    "MIN_LINES",
    "TEMPLATES",
    "drops_failed",
    "failed_lines",
    "fold_by_template",
    "fold_long_output",
    "fold_printed_log",
    "looks_like_log",
    "mine_templates",
]

GENERIC = "generic"  # the rule name of an output folded by run (generic.py)
TEMPLATES = "templates"  # ... and by template (here)

MIN_LINES = 100  # shorter outputs are left to the generic fallback (a table of 58 rows is an answer, not a log)
EDGE = 5  # first and last lines kept as they are: how a log starts and in what state it ended (as generic.py)
RARE = 3  # a template seen this often or less is an event, kept whole
VARIED = 7  # rare kinds in one template that make its varying word a variable, folded with it (not events)
SIMILAR = 0.6  # the share of tokens a kind must share with a template to join it (Drain's default is 0.4)
_PREFIX = 2  # tokens that must agree before two kinds are compared (Drain's tree depth)
_CANDIDATES = 8  # templates a kind is compared with in its bucket (the latest): bounds the work on unique lines
# Distinct kinds over this are not merged (a Python step each, ~1 us a comparison): a log of that many unlike lines
# is folded by run instead (the generic fallback), which costs what it cost before.
_MERGE_UP_TO = 5_000
_SAMPLED = 120  # lines of a template whose values are read for its note (evenly spread, first and last among them)
_NOTE_CHARS = 200  # of a template shown in its note, cut never through a secret
_SURE = 400  # lines a note is always shorter than (its template, three holes' values and its count: < 800 chars)
_SLOTS_SHOWN = 3  # holes whose values a note names
_VALUES_SHOWN = 3  # distinct values named for a hole of words
_VALUE_CHARS = 40  # a longer word is not named
# A Python traceback: its header, then indented frames and source lines, then the exception's own line.
# A Python traceback's header, found in the whole text at once (``matching_lines``), then walked: a match tried at
# every line was 45 ms of 4 MB. Its frames, source lines and exception line are found from it; a chained one's
# "During handling of the above exception" and Java's "Caused by: …Exception" are ``KEEP``'s anyway.
_TRACEBACK = re.compile(r"^[ \t]*Traceback \(most recent call last\)", re.MULTILINE)
_TRACEBACK_CUE = "Traceback (most recent call last)"
# How a log's line starts, within its first ``_LOG_PREFIX`` characters: an ISO date and time, a clock time, an
# upper-case level or a debug level (sshd's debug1, npm's verb, glog's and chromium's VERBOSE1, mypy's and
# PostgreSQL's LOG:), Jupyter's "[D 2026…", a JSON log's level key, a level in brackets (the JVM's unified log
# `[0.12s][info][gc]`, nginx's `[error]`), a logger's name in brackets (`[IPKernelApp] `, sphinx's `[app] `), a
# process tag (valgrind's `==4111== ` and `--4111-- `, node's NODE_DEBUG `HTTP 19542: `), a call traced (strace's
# `openat(…`, `[pid 20652] openat(…`; cmake --trace's `/…/CheckIncludeFile.cmake(59):  if(…`).
_LOG_LINE = re.compile(
    r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|\b\d{1,2}:\d{2}:\d{2}\b"
    r"|\b(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|CRITICAL|FATAL|debug\d|verb|silly|VERBOSE\d)\b|\bLOG:\s"
    r"|^\[[DIWEC] |\"(?:level|levelname|severity)\"|\[(?:trace|debug|info|notice|warn|warning|error)\]"
    r"|^\[[A-Za-z][\w.:-]*\] |^(?:==|--)\d+(?:==|--) |^[A-Z]{2,} \d+: "
    r"|^(?:\[pid +\d+\] )?[a-z_][a-z0-9_]*\(|^\S+\(\d+\):\s"
)
_LOG_PREFIX = 80
# Up to this size a log is folded both ways and the shorter kept; above it, both would cost the run fold's Python
# loop over its runs on top (4 MB of an interleaved log: 40 -> 25 MB/s), and the fold by template is kept.
_COMPARED_UP_TO = 1 << 20
_LOG_SAMPLE = 200  # lines looked at, evenly spread
_LOG_SHARE = 0.6  # of them that must start like a log's
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-")
WILD = "<*>"


def _typed(value: str) -> str:
    """The hole a value of ``_NORMALIZE`` is shown as: ``<uuid>``, ``<time>``, ``<hex>``, ``<path>`` or ``<n>``."""
    if _UUID.match(value):
        return "<uuid>"
    if ":" in value:
        return "<time>"
    if value.startswith("/"):
        return "<path>"
    if value.startswith("0x") or not _NUMBER.fullmatch(value):
        return "<hex>"
    return "<n>"


def _similar(tokens: list[str], template: list[str]) -> bool:
    # A hole matches anything: a kind that fits a template's holes is one of its lines. Counted at C level.
    same = sum(map(eq, tokens, template)) + template.count(WILD)
    return bool(same >= SIMILAR * len(tokens))


def mine_templates(kinds: list[str]) -> dict[str, tuple[str, ...]]:
    """The template (its tokens, ``<*>`` where kinds differ) each distinct kind in ``kinds`` belongs to.

    Drain's idea without its tree: kinds are bucketed by token count and their first ``_PREFIX`` tokens, and a kind
    joins the first template of its bucket it shares ``SIMILAR`` of its tokens with, else starts one. Kinds are
    taken in order of first appearance, so the same output always gives the same templates."""
    buckets: dict[tuple[int, tuple[str, ...]], list[list[str]]] = {}
    member: dict[str, list[str]] = {}
    for kind in kinds:
        tokens = kind.split()
        bucket = buckets.setdefault((len(tokens), tuple(tokens[:_PREFIX])), [])
        for template in reversed(bucket[-_CANDIDATES:]):
            if _similar(tokens, template):
                # Where they differ becomes a hole, in place: every kind already in it sees the wider template.
                for at, (token, held) in enumerate(zip(tokens, template, strict=True)):
                    if token != held:
                        template[at] = WILD
                member[kind] = template
                break
        else:
            bucket.append(tokens)
            member[kind] = tokens
    return {kind: tuple(template) for kind, template in member.items()}


# How kinds alike but for a word are merged (``GET`` and ``POST``): ``mine_templates``; None merges none (each kind
# its own template). bench/template_bench.py tries drain3 here too: it folds alike, 6-10x slower. Each merged
# kind's first line is shown (``_kind_firsts``): without that, a merged template showed only its own first and last
# lines, and lost must-keep lines the kinds' first lines held (I, D: 1-2 each).
MERGE: Callable[[list[str]], dict[str, tuple[str, ...]]] | None = mine_templates


def looks_like_log(lines: list[str]) -> bool:
    """Whether most of ``lines`` (a sample of them) start like a log's: a date or a time, a level, a JSON log's
    level key. A report that repeats its kinds in step (a test runner's "Start 3" and "Test #3 … Passed", a
    debugger's frames, a table) is not a log: every line of it may be the answer, and its runs are folded by the
    generic fallback, which keeps a line between lines of other kinds."""
    sample = [line for line in lines[:: max(1, len(lines) // _LOG_SAMPLE)] if line.strip()]
    return bool(sample) and sum(_LOG_LINE.search(line[:_LOG_PREFIX]) is not None for line in sample) >= (
        _LOG_SHARE * len(sample)
    )


def fold_long_output(text: str) -> tuple[str, str] | None:
    """A long output no rule knows, folded by template when it is a log and that is shorter, else by run (the
    generic fallback, given the kinds worked out here: one normalising pass, not two); with the rule name that
    folded it."""
    lines = text.split("\n")
    if len(lines) < GENERIC_MIN_LINES:
        return None
    kinds = line_kinds(text, lines)
    by_template = fold_by_template(text, kinds) if looks_like_log(lines) else None
    if by_template is not None and len(text) > _COMPARED_UP_TO:
        return by_template, TEMPLATES
    by_run = generic_filter(text, kinds)
    # Never longer than the run fold made it: a log of many kinds each seen a few times is shorter as runs (a
    # kind's later lines said together with others' in one note) than as each kind's two lines and a note. Unless
    # the run fold counted a failed request among the lines like it (its status is a number): the fold by template
    # keeps it.
    if by_template is not None and (
        by_run is None or len(by_template) < len(by_run) or drops_failed(text, lines, by_run)
    ):
        return by_template, TEMPLATES
    return (by_run, GENERIC) if by_run is not None else None


def fold_printed_log(text: str) -> str | None:
    """A long output a command asked for (``cat load.txt``, ``tail -n 600 x``) folded by template when it is a
    log, else None: what was asked for is not folded by run (a table's rows, a file's lines are the answer), but
    a log's frequent templates say no more for being printed by ``cat``."""
    lines = text.split("\n")
    if len(lines) < MIN_LINES or not looks_like_log(lines):
        return None
    # Its stacks' library frames folded first, as in any log a rule knows (`cat app.log`): the engine folds them
    # only where nothing was asked for. Each fold looks for its own cue.
    for fold, _ in STACKS:
        text = fold(text)
    lines = text.split("\n")
    return fold_by_template(text, line_kinds(text, lines))


def fold_by_template(text: str, kinds: LineKinds | None = None) -> str | None:
    """``text`` with each frequent template shown once (count, span, typed template, values) where it first
    appears, its first and last lines, every error, warning, traceback, rare line and the ends verbatim and in
    order; None when it is short or nothing folds. ``kinds``: its ``line_kinds``, when worked out already."""
    lines = text.split("\n") if kinds is None else kinds.lines
    if len(lines) < MIN_LINES:
        return None
    kinds = line_kinds(text, lines) if kinds is None else kinds
    if kinds.distinct:
        # No two lines of a kind: each is rare, an event, and none was normalised (the generic fallback's fast
        # path). Normalising and mining them all to find their templates cost 2.7x the whole filter_output of a
        # 0.5 MB log of unlike lines: they stay as they are, as before.
        return None
    texts = cast("list[str]", kinds.kinds)  # every kind is its line's normalised text, or a lone line's own
    if len(set(texts)) > 2 * _MERGE_UP_TO:
        return None  # unlike lines, too many to merge (see below): asked before any other pass
    kept = bytearray(len(lines))
    for index in kinds.lines_matching(KEEP, lower=True, cues=KEEP_CUES):
        kept[index] = 1
    # A kind seen only a few times in the whole output is an event, not repetition (the generic fallback's
    # promise, kept here): it stays as it is even where a template of its word-alike kinds folds (a debugger's
    # frames `#3 0x… in parse () at p.c:9` are each their own).
    times = Counter(texts)
    for index in _failed(text, lines, "\n".join(times)):
        kept[index] = 1
    rare = {kind for kind, seen in times.items() if seen <= RARE}
    _keep_tracebacks(text, lines, kept)
    kept[:EDGE] = b"\x01" * EDGE
    kept[-EDGE:] = b"\x01" * EDGE
    # Templates are mined over the kinds of the lines not kept anyway (an error merged with its neighbours would
    # make a hole of the word that says what failed); in order of first appearance, so always the same. The
    # frequent kinds first, then the rare ones: they join a template, never change what the frequent joined.
    distinct = [kind for kind in dict.fromkeys(compress(texts, map(not_, kept))) if kind.strip()]
    frequent = [kind for kind in distinct if kind not in rare]
    if len(frequent) > _MERGE_UP_TO:
        return None
    seldom = [kind for kind in distinct if kind in rare] if len(distinct) <= _MERGE_UP_TO else []
    if seldom:
        # A line no other line shares a kind with was not normalised (``line_kinds``): it is, to be mined.
        lone = _lone_normalised(lines, seldom)
        if lone:
            texts = list(map(lone.get, texts, texts))
            seldom = list(map(lone.get, seldom, seldom))
            rare |= set(seldom)
    mined = [*frequent, *seldom]
    merged = MERGE(mined) if MERGE is not None else {kind: (kind.strip(),) for kind in mined}
    template_of = {kind: " ".join(tokens) for kind, tokens in merged.items()}
    # A rare kind is an event, kept as it is, unless its template holds many rare kinds: a word that takes a new
    # value every line or two (a module parsed, a target considered, a config value added) is the template's
    # variable, and its lines are the template's like any other (the note names a few of its values).
    rare_kinds = Counter(map(template_of.__getitem__, seldom))
    varied = {key for key, many in rare_kinds.items() if many >= VARIED}
    events = rare if not varied else {kind for kind in rare if template_of.get(kind) not in varied}
    for index in compress(range(len(lines)), map(events.__contains__, texts)):
        kept[index] = 1
    # Each line's template; "" for a line kept anyway or blank.
    keys: list[str] = list(map(template_of.get, texts, repeat("")))
    for index in compress(range(len(lines)), kept):
        keys[index] = ""
    counts = Counter(keys)
    folded = {key for key, times in counts.items() if key and times > RARE and _WORDS.search(key)}
    if not folded:
        return None
    # Kinds merged into one template (``GET`` and ``POST``): the first line of each is shown as it is, so that no
    # kind is hidden behind another's line and the note names what the others held.
    # Not where the word is a variable (``varied``): each of its values' first line would be most of its lines.
    shown_kinds = {kind: key for kind, key in template_of.items() if kind not in rare and key not in varied}
    firsts = _kind_firsts(folded, shown_kinds, texts, keys)
    ends: dict[str, tuple[int, int]] = {}  # each folded template's first and last line
    notes: dict[int, str] = {}  # a note, by the line it is shown after
    for key, where in _where(folded, keys, counts):
        ends[key] = (where.first, where.last)
        # Its first and last lines are shown as they are (how it started, the state it ended in: a training
        # loop's first and last loss), the note for the lines between where the first was.
        also = firsts.get(key, set()) - {where.first, where.last}
        note = _note(key, where, lines, texts, len(also))
        # A note no shorter than the lines it stands for says no more than they do (over _SURE lines, each at
        # least a character and its newline, it is shorter: not summed).
        if where.every is None or len(note) < _chars(lines, [i for i in where.every[1:-1] if i not in also]):
            notes[where.first] = note
        else:
            folded.discard(key)
            firsts.pop(key, None)
    # What is shown as it is: kept lines, lines of templates not folded, the first and last of those folded.
    # Blank lines among folded ones say nothing and go.
    visible = {key for key in counts if key and key not in folded}
    shown = bytearray(map(visible.__contains__, keys))
    for index in compress(range(len(lines)), kept):
        shown[index] = 1
    for key in folded:
        shown[ends[key][0]] = shown[ends[key][1]] = 1
    for also in firsts.values():
        for index in also:
            shown[index] = 1
    out: list[str] = []
    for index in sorted({*compress(range(len(lines)), shown), *notes}):
        if shown[index]:
            out.append(lines[index])
        if index in notes:
            out.append(notes[index])
    shorter = "\n".join(out)
    return shorter if len(shorter) < len(text) else None


@dataclass(frozen=True)
class _Where:
    """Where a template's lines are: its first, second, last but one and last, how many, a sample of up to
    ``_SAMPLED`` of them (evenly spread, the first and last among them), and every one when there are at most
    ``_SURE`` + 2 (to weigh its note against them)."""

    first: int
    second: int
    before_last: int
    last: int
    count: int
    sampled: list[int]
    every: list[int] | None


def _where(folded: set[str], keys: list[str], counts: Counter[str]) -> Iterator[tuple[str, _Where]]:
    """Where the lines of each template in ``folded`` are, in a fixed order, found at C speed: each line's template
    as a byte (``bytes(map(...))``), searched with ``bytes.find``, a Python step for each line sampled, not for
    each line (a Python step a line was 5 ms of 4 MB; a pass over every line for each template, 1.3 ms each).
    Over 255 templates (no byte for each): a Python step a line."""
    if len(folded) > 255:
        members: dict[str, list[int]] = {key: [] for key in folded}
        found = members.get
        for index, key in enumerate(keys):
            lines = found(key)
            if lines is not None:
                lines.append(index)
        for key in sorted(folded):
            every = members[key]
            step = max(1, len(every) // _SAMPLED)
            sampled = [*every[::step][: _SAMPLED - 1], every[-1]]
            kept = every if len(every) <= _SURE + 2 else None
            yield key, _Where(every[0], every[1], every[-2], every[-1], len(every), sampled, kept)
        return
    number = {key: byte for byte, key in enumerate(sorted(folded), 1)}
    ids = bytes(map(number.get, keys, repeat(0)))
    for key, byte in number.items():
        count = counts[key]
        first, last = ids.find(byte), ids.rfind(byte)
        if count <= max(_SURE + 2, _SAMPLED):
            every = [first]
            while len(every) < count:
                every.append(ids.find(byte, every[-1] + 1))
            step = max(1, count // _SAMPLED)
            sampled = [*every[::step][: _SAMPLED - 1], last]
            yield key, _Where(first, every[1], every[-2], last, count, sampled, every if count <= _SURE + 2 else None)
        else:
            # Evenly spread over where its lines are, each the template's next line from there.
            spread = (ids.find(byte, first + (last - first) * at // (_SAMPLED - 1)) for at in range(_SAMPLED - 1))
            sampled = [*dict.fromkeys(spread), last]
            second, before_last = ids.find(byte, first + 1), ids.rfind(byte, 0, last)
            yield key, _Where(first, second, before_last, last, count, sampled, None)


def _kind_firsts(
    folded: set[str], template_of: dict[str, str], texts: list[str], keys: list[str]
) -> dict[str, set[int]]:
    """The first line of each kind of each folded template that more than one kind was merged into (only lines of
    the template: a kind's first line kept anyway, an error, needs no showing again)."""
    members: dict[str, list[str]] = {}
    for kind, key in template_of.items():
        if key in folded:
            members.setdefault(key, []).append(kind)
    merged = {key: kinds for key, kinds in members.items() if len(kinds) > 1}
    if not merged:
        return {}
    # A kind whose first line is kept anyway (an edge, an error-like line of it) is shown there already. A few
    # kinds are found by ``list.index`` (C, from the start: a kind's first line is mostly early); many, by one
    # pass over every line (``first_indices``: 4 ms of a 4 MB log, a tenth of the fold).
    wanted = [kind for kinds in merged.values() for kind in kinds]
    first = dict(zip(wanted, map(texts.index, wanted), strict=True)) if len(wanted) <= 64 else first_indices(texts)
    return {key: {first[kind] for kind in kinds if keys[first[kind]] == key} for key, kinds in merged.items()}


# How ``line_kinds`` writes the kind of a line no other line shares one with: "\x00" and the line's index.
_LONE = "\x00"


def _lone_normalised(lines: list[str], kinds: list[str]) -> dict[str, str]:
    """The kinds among ``kinds`` that ``line_kinds`` did not normalise (a line's own), each normalised: in one
    pass over their lines joined, not a call a line."""
    lone = [kind for kind in kinds if kind.startswith(_LONE)]
    if not lone:
        return {}
    joined = "\n".join(lines[int(kind[1:])] for kind in lone)
    normalised = normalize(joined).split("\n")
    if len(normalised) != len(lone):  # a pattern matched across lines: one by one
        normalised = [normalize(lines[int(kind[1:])]) for kind in lone]
    return dict(zip(lone, normalised, strict=True))


def failed_lines(text: str, lines: list[str]) -> set[int]:
    """The lines of ``text`` (split into ``lines``) that say a request failed by its status or a line was logged
    at warning or error level by one letter (``_failed``)."""
    return _failed(text, lines, text)


def drops_failed(text: str, lines: list[str], shown: str) -> bool:
    """Whether ``shown`` (``text`` filtered) lacks one of its ``failed_lines``: the fold by template keeps them,
    dedup and the run fold count one as one more of its kind (`POST /labels 500` among the 200s)."""
    failed = failed_lines(text, lines)
    if not failed:
        return False
    kept = set(shown.split("\n"))
    return any(lines[index] not in kept for index in failed)


def _failed(text: str, lines: list[str], kinds: str) -> set[int]:
    """The lines that say something failed in words ``KEEP`` does not know: a request answered 4xx or 5xx (its
    status is a number, normalised like the 200s around it) and a line logged at warning or error level by one
    letter (Jupyter's and tornado's ``[W 2026-…]``). Each pattern is led by a literal (``re`` skips to it in C: one
    led by the methods' alternation cost 80-100 ms of a 4 MB log) and run only where its cue is among ``kinds``
    (the distinct kinds joined: a few lines to look through, where ``in`` over 4 MB cost 2-3 ms a cue)."""
    at: list[int] = []  # offsets in the text of the lines' failures
    if "HTTP/" in kinds:
        at += map(_START, _HTTP_FAILED.finditer(text))
    if any(method + " /" in kinds or method + " #" in kinds for method in _METHODS):
        # A path then a 4xx/5xx status, after a method (morgan's `POST /labels 500 12 - 1.2 ms`).
        at += (start for start in map(_START, _PATH_FAILED.finditer(text)) if text.endswith(_METHODS, 0, start))
    if "[W " in kinds or "[E " in kinds or "[C " in kinds:
        # After a newline, not ``^`` in MULTILINE (tried at every position: 20 ms of 4 MB): the line's first
        # character is one past the newline, and the text's own first line is looked at alone.
        at += (start + 1 for start in map(_START, _LEVEL_FAILED.finditer(text)))
        if _LEVEL_FAILED.match("\n" + lines[0][:4]):
            at.append(0)
    if not at:
        return set()
    starts = list(accumulate(map((1).__add__, map(len, lines)), initial=0))
    return {bisect_right(starts, offset) - 1 for offset in at}


_START = re.Match.start
_HTTP_FAILED = re.compile(r'HTTP/\d(?:\.\d)?"? [45]\d\d\b')  # `"GET /x HTTP/1.1" 404`: uvicorn, http.server, nginx
_PATH_FAILED = re.compile(r" /\S* [45]\d\d\b")
_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
_LEVEL_FAILED = re.compile(r"\n\[[WEC] \d")


def _chars(lines: list[str], indices: list[int]) -> int:
    """The characters of ``lines[indices]`` with their newlines."""
    return sum(map(len, map(lines.__getitem__, indices))) + len(indices)


def _keep_tracebacks(text: str, lines: list[str], kept: bytearray) -> None:
    """Marks every line of each Python traceback: from its header through its frames and source lines (indented
    deeper) to the exception's line (the first one not)."""
    if _TRACEBACK_CUE not in text:  # at C speed: most logs hold none
        return
    covered = -1
    for start in sorted(matching_lines(_TRACEBACK, text, lines)):
        if start <= covered:
            continue
        indent = _indent(lines[start])
        index = start + 1
        while index < len(lines) and (
            not lines[index].strip() or len(lines[index]) - len(lines[index].lstrip()) > indent
        ):
            index += 1
        covered = min(index, len(lines) - 1)  # the exception's line
        kept[start : covered + 1] = b"\x01" * (covered + 1 - start)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _note(template: str, where: _Where, lines: list[str], kinds: list[str], shown: int = 0) -> str:
    """``[610 more, lines 4-1889: "GET /api/v1/items 200 <n>ms"  (<n> 12..40)]`` for a template's lines but its
    first and last and ``shown`` more of them (its values are read from the sampled ones)."""
    sampled = where.sampled
    slots = _slots(template, [lines[i].strip() for i in sampled], [kinds[i].strip() for i in sampled])
    pattern = _shown(template, lines[where.first].strip(), slots)
    values = _values(slots)
    said = f"  ({'; '.join(values)})" if values else ""
    return f"[{where.count - 2 - shown:,} more, lines {where.second + 1}-{where.before_last + 1}: {pattern}{said}]"


def _slots(template: str, sampled: list[str], kinds: list[str]) -> dict[str, list[str]]:
    """The distinct values each hole held in the ``sampled`` lines: ``#k`` the k-th normalised span, ``*k`` the
    k-th token where the template's kinds differ."""
    by_slot: dict[str, dict[str, None]] = {}
    holes = template.split()
    for line, kind in zip(sampled, kinds, strict=True):
        for at, value in enumerate(_NORMALIZE.findall(line)):
            by_slot.setdefault(f"#{at}", {})[value] = None
        words = kind.split()
        if len(words) == len(holes):
            # The line's own word where it lines up with its kind's (a time with a blank in it does not).
            raw = line.split()
            words = raw if len(raw) == len(words) else words
            for at, (word, hole) in enumerate(zip(words, holes, strict=True)):
                if hole == WILD:
                    by_slot.setdefault(f"*{at}", {})[word] = None
    return {slot: list(values) for slot, values in by_slot.items()}


def _shown(template: str, first: str, slots: dict[str, list[str]]) -> str:
    """The template as shown: the first line with each normalised span that varies as a typed hole (one that held
    the same value in every line sampled is shown as it is: ``/api/v1/items``), ``<*>`` where kinds differ."""
    spans = iter(range(1 << 30))

    def hole(match: re.Match[str]) -> str:
        values = slots.get(f"#{next(spans)}", [])
        return match.group() if len(values) == 1 else _typed(match.group())

    tokens = _NORMALIZE.sub(hole, first).split()
    holes = template.split()
    if len(tokens) == len(holes):
        tokens = [WILD if hole == WILD else token for token, hole in zip(tokens, holes, strict=True)]
    line = " ".join(tokens)
    cut = clear_cut(line, _NOTE_CHARS)
    return quoted(line if cut >= len(line) else line[:cut] + "…")


def _values(slots: dict[str, list[str]]) -> list[str]:
    """What the holes held: a range for numbers, a few words for a word hole; ids, times and paths not (their
    spread says nothing)."""
    said: list[str] = []
    for slot, distinct in slots.items():
        if len(distinct) < 2:
            continue
        if slot.startswith("#"):
            if not all(_NUMBER.fullmatch(value) for value in distinct):
                continue
            numbers = [float(value) for value in distinct]
            said.append(f"<n> {_number(min(numbers))}..{_number(max(numbers))}")
        else:
            # Whole words only, never cut (half a secret is not found to be redacted); a long one is not named.
            named = [value for value in distinct if len(value) <= _VALUE_CHARS][:_VALUES_SHOWN]
            more = f" +{len(distinct) - len(named)}" if len(distinct) > len(named) else ""
            said.append(f"<*> {', '.join(named)}{more}")
        if len(said) == _SLOTS_SHOWN:
            break
    return said


def _number(value: float) -> str:
    return str(int(value)) if value.is_integer() else f"{value:g}"
