"""The filter engine: pick the rule for a command, apply it, keep security lines, count what was saved.

Rules match the *segment that produced the output*, not the whole command line: in
``cd proj && pytest -q 2>&1 | tail -50`` that is ``pytest -q``. Setup commands (``cd``, ``export``, ``source``),
post-processors in a pipeline (``tail``, ``head``, ``grep``, ``tee``, ``sort``…), wrappers (``timeout 60``,
``env X=1``, ``uv run``) and redirections are looked past.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from zeph_nb.output.diffs import has_diff, without_context
from zeph_nb.output.generic import generic_filter
from zeph_nb.output.rules import Rule
from zeph_nb.output.salient import NOT_SCANNED_CUES, restore_salient_lines
from zeph_nb.output.salient import SCANNED as SALIENT_KEYWORDS
from zeph_nb.output.sanitize import CHARS_PER_TOKEN, fold_binary, sanitize
from zeph_nb.output.security import KEYWORDS as SECURITY_KEYWORDS
from zeph_nb.output.security import preserve_security_lines
from zeph_nb.output.shapes import (
    CUES,
    DATA,
    DIFF_CUES,
    INHERITED,
    JSON_LISTS,
    PROFILE,
    SHAPES,
    TABLE,
    TREE,
    first_shape,
    fold_stacks,
    may_be,
)
from zeph_nb.output.strategies import FilterConfidence, apply_strategy
from zeph_nb.output.templates import GENERIC, TEMPLATES, fold_long_output, fold_printed_log
from zeph_nb.output.test_summary import SKIP_CUES
from zeph_nb.security.secrets import ascii_lower, keyword_line_groups

__all__ = [
    "DIFF",
    "GENERIC",
    "INHERITED",
    "JSON_LISTS",
    "PROFILE",
    "TABLE",
    "TEMPLATES",
    "TRACEBACK",
    "TREE",
    "FilterEngine",
    "FilteredOutput",
    "producing_segments",
]

# GENERIC: the rule name a FilteredOutput reports when the generic fallback shortened it by run; TEMPLATES when
# it folded a long output by template (both named in output/templates.py).
DIFF = "diff"  # ... when no rule knew the command and its output was a diff (output/diffs.py)
BINARY = "binary"  # ... when no rule knew the command and lines of it were bytes, not text (sanitize.fold_binary)
TRACEBACK = "traceback"  # ... when only library frames of a traceback were folded (output/tracebacks.py)
# ... and the names of the shapes cut (TABLE, PROFILE, TREE, INHERITED, JSON_LISTS) are in output/shapes.py.

_SETUP = frozenset({"cd", "pushd", "popd", "export", "source", ".", "set", "unset", "true", "alias", "ulimit", "umask"})
_POST = frozenset({"tail", "head", "grep", "egrep", "rg", "tee", "sort", "uniq", "less", "more", "cat", "wc", "cut",
                   "sed", "awk", "tr", "column", "nl"})  # fmt: skip
_WRAPPERS: dict[str, int] = {"time": 0, "nice": 0, "nohup": 0, "command": 0, "exec": 0, "stdbuf": 0, "timeout": 1}
_RUNNERS = (("uv", "run"), ("poetry", "run"), ("pipenv", "run"), ("pdm", "run"), ("hatch", "run"), ("rye", "run"))


@dataclass(frozen=True)
class FilteredOutput:
    """What the model reads, and how it was made."""

    text: str
    rule: str | None
    confidence: FilterConfidence
    raw_lines: int
    filtered_lines: int
    raw_chars: int
    filtered_chars: int
    security_lines_kept: int = 0
    # Of the output's lines, how many the text does not show as they were (``_not_shown``), and whether a filter
    # changed the output at all: a rule that drops two lines and adds two headings changed it, by no net count.
    lines_removed: int = 0
    changed: bool = False
    counted: bool = True  # lines_removed is the count, not "at least" (above 1 MB: _not_shown)

    @property
    def tokens_saved(self) -> int:
        return max(0, round((self.raw_chars - self.filtered_chars) / CHARS_PER_TOKEN))

    @property
    def percent_filtered(self) -> float:
        return 100.0 * (1 - self.filtered_chars / self.raw_chars) if self.raw_chars else 0.0

    def stats_line(self, tool: str = "shell") -> str | None:
        """``[shell] 342 lines -> 28 lines, 91.8% filtered``, or None when the filter changed nothing."""
        if not self.changed:
            return None
        return f"[{tool}] {self.raw_lines} lines -> {self.filtered_lines} lines, {self.percent_filtered:.1f}% filtered"


def _unwrap(argv: list[str]) -> list[str]:
    while argv:
        name = argv[0].rsplit("/", 1)[-1]
        if "=" in argv[0] and not argv[0].startswith("="):
            argv = argv[1:]  # FOO=1 cmd
        elif name == "env":
            argv = [a for a in argv[1:] if "=" not in a or a.startswith("-")]
            argv = [a for a in argv if not a.startswith("-")] if argv and argv[0].startswith("-") else argv
        elif name in _WRAPPERS:
            rest = [a for a in argv[1:]]
            while rest and rest[0].startswith("-"):
                rest = rest[2:] if rest[0] in ("-n", "-s", "-k") else rest[1:]
            argv = rest[_WRAPPERS[name] :]
        elif tuple(argv[:2]) in _RUNNERS:
            argv = argv[2:]
        elif name == "git" and len(argv) > 1 and argv[1].startswith("-"):
            return [argv[0], *_git_subcommand(argv[1:])]
        else:
            return argv
    return argv


# git's options before its subcommand (`git --no-pager log`, `git -C repo status`): the subcommand decides
# what the output is. These take a value as the next word.
_GIT_VALUED = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"})


def _git_subcommand(words: list[str]) -> list[str]:
    """``words`` after git from its subcommand on (``--no-pager -C x log -5`` is ``log -5``)."""
    while words and words[0].startswith("-"):
        words = words[2:] if words[0] in _GIT_VALUED else words[1:]
    return words


@functools.lru_cache(maxsize=32)
def _pipelines(command: str) -> tuple[tuple[tuple[str, ...], ...], ...]:
    """Each pipeline of the command's top-level lists, as the words of its stages. Kept for the last few commands:
    one output's filtering asks it up to four times (the rule's match, what was asked for, a whole file printed,
    source read), and bashlex parses a short command line in ~0.15 ms each time. Tuples, so no caller can change
    what the next one reads."""
    try:
        import bashlex

        parsed = [_pipeline_commands(node) for node in _walk_lists(bashlex.parse(command))]
    except Exception:  # unparseable: fall back to splitting on the operators
        parsed = [
            [part.split() for part in re.split(r"\|(?!\|)", piece)] for piece in re.split(r"&&|\|\||;|\n", command)
        ]
    return tuple(tuple(tuple(argv) for argv in stages) for stages in parsed)


def producing_segments(command: str) -> list[str]:
    """The simple commands that may have produced the output, last first, as normalised text."""
    segments: list[str] = []
    for pipeline in _pipelines(command):
        unwrapped = [_unwrap(list(argv)) for argv in pipeline if argv]
        stages = [argv for argv in unwrapped if argv]
        # In a pipeline the first stage produces and later ones only trim; `cat x | jq` makes jq the producer.
        producers = [argv for argv in stages if argv[0].rsplit("/", 1)[-1] not in _POST] or stages[:1]
        for argv in producers[:1]:
            name = argv[0].rsplit("/", 1)[-1]  # /path/to/.venv/bin/python matches "python"
            if name not in _SETUP:
                segments.append(" ".join([name, *argv[1:]]))
    return list(reversed(segments))


def _walk_lists(nodes: list[Any]) -> list[Any]:
    """Each pipeline or simple command of the top-level lists, in order."""
    out: list[Any] = []
    for node in nodes:
        if node.kind == "list":
            out += _walk_lists([p for p in node.parts if p.kind not in ("operator",)])
        elif node.kind == "compound":
            out += _walk_lists([p for p in node.list if p.kind not in ("reservedword", "operator")])
        elif node.kind in ("pipeline", "command"):
            out.append(node)
    return out


def _pipeline_commands(node: Any) -> list[list[str]]:
    commands = [node] if node.kind == "command" else [p for p in node.parts if p.kind == "command"]
    return [[p.word for p in command.parts if p.kind == "word"] for command in commands]


class FilterEngine:
    """An ordered rule list; the first rule matching the latest producing segment wins.

    Two promises hold whatever the rules say: an output with something in it never reaches the model empty (a
    rule that would leave nothing gives way to the generic filter), and an output no rule understood is still
    shortened where it repeats itself (``generic.py``; confidence FALLBACK).
    """

    def __init__(self, rules: tuple[Rule, ...] | list[Rule], *, generic: bool = True, templates: bool = True) -> None:
        self.rules = tuple(rules)
        self.generic = generic  # the generic fallback ([output.filters.log_dedup] enabled)
        self.templates = templates  # a long output's generic fallback folds by template (off: by run only)

    def match(self, command: str) -> Rule | None:
        found = self._match(command)
        return found[0] if found is not None else None

    def _match(self, command: str) -> tuple[Rule, str] | None:
        for segment in producing_segments(command):
            for rule in self.rules:
                if rule.match.matches(segment):
                    return rule, segment
        return None

    def _unknown(
        self, text: str, listing: bool, rule: str | None, cues: set[str] | None
    ) -> tuple[str, str | None, FilterConfidence]:
        """An output no rule understood: a diff keeps what changed (not the context); otherwise rows that are all
        different (a query's result, a printed DataFrame) are shown as pandas shows them, and anything else long
        is folded where it repeats. A listing's lines are its content: only a diff is cut there. ``cues``: what
        the output holds of the shapes' cues, when ``_scan`` has looked."""
        if may_be(cues, *DIFF_CUES) and has_diff(text):  # a `--diff`, `diff -u`, a patch
            shorter, removed = without_context(text)
            if removed:
                return shorter, DIFF, FilterConfidence.FULL
        if listing:
            return text, rule, FilterConfidence.FALLBACK
        shown = first_shape(text, SHAPES, cues)
        if shown is not None:
            return shown
        if self.generic and self.templates:
            # A log interleaves its kinds: folded by run, it was a note every few lines (issue 46). By template
            # where that folds, else by run.
            found = fold_long_output(text)
            if found is not None:
                return found[0], found[1], FilterConfidence.FALLBACK
            return text, rule, FilterConfidence.FALLBACK
        folded = generic_filter(text) if self.generic else None
        if folded is not None:
            return folded, GENERIC, FilterConfidence.FALLBACK
        return text, rule, FilterConfidence.FALLBACK

    def filter(self, command: str, output: str, exit_code: int | None = None) -> FilteredOutput:
        sanitized = sanitize(output)
        clean = fold_binary(sanitized)  # what the rules read: lines of bytes that are not text said as such
        found = self._match(command) if command else None
        rule: str | None = found[0].name if found is not None else (BINARY if clean is not sanitized else None)
        listing = found is not None and found[0].listing
        asked = bool(command) and _asked_for_lines(command)
        # Shapes any program's output may hold, whatever the rule: the frames in library code of a Python
        # traceback, a node, Java or Rust stack. Not in a listing (a search's lines are its answer) nor in what was
        # asked for (`cat x.py`) unless a rule knows the command (`cat app.log` is a log).
        scan: _Scan | None = None
        if listing or (asked and found is None):
            shaped = clean
        else:
            # The security pass's scan, made now: it finds which shapes' cues the output holds too. A rule's
            # output may need the put-back's keywords as well.
            summary = found is not None and found[0].strategy.type == "test_summary"
            scan = _scan(clean, salient=found is not None, cues=True, skips=summary)
            shaped = fold_stacks(clean, scan.cues)
        confidence = FilterConfidence.FALLBACK
        text = shaped
        if found is not None:
            # The scan's keyword lines are lines of ``shaped`` only when no stack was folded.
            keyword_lines = scan.salient if scan is not None and shaped is clean else None
            skip_lines = scan.skips if scan is not None and shaped is clean else None
            stage = apply_strategy(
                shaped, found[0].strategy, exit_code, _arguments(found[1]), keyword_lines, skip_lines
            )
            text, confidence = stage.text, stage.confidence
            if not text.strip() and clean.strip():  # the rule removed everything: it did not understand this one
                rule, text, confidence = None, shaped, FilterConfidence.FALLBACK
        if confidence == FilterConfidence.FALLBACK and text == shaped:
            rule = TRACEBACK if shaped is not clean else rule
            if not asked:
                text, rule, confidence = self._unknown(shaped, listing, rule, scan.cues if scan else None)
            elif not listing and not _reads_code(command) and (shown := first_shape(shaped, DATA)) is not None:
                # What was asked for is not repetition to fold, but a long table is shown as pandas shows a
                # DataFrame the person asked for (`df.head(80)` shows 10 of its rows): `column -t pods.txt`,
                # `jq '.[]' refunds.json`.
                text, rule, confidence = shown
            elif not listing and self.generic and self.templates and _printed_whole(command):
                # A log the command printed whole from where it was written (`server & …; cat load.txt`) is a log
                # like any other: folded by template where it is one (never by run: what was asked for is read
                # in its order), its errors, warnings and events as they were (issue 46). Not lines the command
                # bounded (`| tail -300`, `head -300`, `sed -n 1,300p`): those were asked for one by one.
                folded = fold_printed_log(shaped)
                if folded is not None:
                    text, rule, confidence = folded, TEMPLATES, FilterConfidence.FALLBACK
        kept = 0
        if text is not clean:
            # A diff recognised in a command no rule knows may be a log that only looks like one: an error line
            # it took for context goes back in, as after a report's rule.
            restore = text != shaped and (rule == DIFF or (found is not None and rule == found[0].name and not listing))
            put_back = restore and shaped is clean
            if scan is None or (put_back and scan.salient is None):
                scan = _scan(clean, salient=put_back, cues=False)
            text, kept = preserve_security_lines(clean, text, scan.security)
            if restore:
                # A rule knows the outputs its author saw; an error or a verdict it did not expect goes back in
                # (not the library frames folded above: the lines compared are those the rule was given).
                if put_back:
                    text, _ = restore_salient_lines(clean, text, scan.lowered, scan.salient, scan.cued)
                else:
                    text, _ = restore_salient_lines(shaped, text)
        changed = text is not sanitized and text != sanitized
        raw_lines = _count_lines(sanitized)  # counted once: 1.3 ms of 4 MB
        removed = _not_shown(sanitized, text, raw_lines) if changed else (0, True)
        return FilteredOutput(
            text=text,
            rule=rule,
            confidence=confidence,
            raw_lines=raw_lines,
            filtered_lines=_count_lines(text),
            raw_chars=len(output),
            filtered_chars=len(text),
            security_lines_kept=kept,
            lines_removed=removed[0],
            changed=changed,
            counted=removed[1],
        )


@dataclass(frozen=True)
class _Scan:
    """One scan of an output (``keyword_line_groups``): its security lines, the put-back's keyword lines (when
    asked for), and which cues it holds."""

    lowered: str
    security: list[tuple[int, int]]
    salient: list[tuple[int, int]] | None
    cues: set[str]
    cued: list[tuple[int, int]] | None = None  # the lines holding a put-back's NOT_SCANNED_CUES, with ``salient``
    skips: list[tuple[int, int]] | None = None  # the lines holding a test summary's SKIP_CUES, with ``skips``


def _scan(clean: str, *, salient: bool, cues: bool, skips: bool = False) -> _Scan:
    """The scan, with the put-back's keywords when ``salient``, the shapes' cues when ``cues`` (only where
    shapes are tried: each hit costs a step of a Python loop, and `@@ -` may be there a million times) and the test
    summary's skip words when ``skips`` (its own pass for them was 2.7 ms of 4 MB of `pytest -v`)."""
    lowered = ascii_lower(clean)
    groups: tuple[tuple[str, ...], ...] = (SECURITY_KEYWORDS,)
    if salient:
        groups += (SALIENT_KEYWORDS, NOT_SCANNED_CUES)
    if skips:
        groups += (SKIP_CUES,)
    spans, found = keyword_line_groups(clean, lowered, groups, CUES if cues else ())
    return _Scan(
        lowered,
        spans[0],
        spans[1] if salient else None,
        found,
        spans[2] if salient else None,
        spans[-1] if skips else None,
    )


# Programs that print the lines they were asked for (`head -100 data.csv`, `sed -n 10,80p f`, `… | tail -30`,
# `seq 1 1000`): what they print is not repetition to fold, however alike its lines look.
_ASKED_FOR = frozenset({"head", "tail", "sed", "awk", "cut", "cat", "jq", "column", "nl", "less", "more", "seq"})


def _asked_for_lines(command: str) -> bool:
    """Whether a stage of one of the command's pipelines is one of ``_ASKED_FOR`` (not a word inside one: the
    ``seq`` of ``for i in $(seq 1 300)`` prints nothing the person reads)."""
    return any(argv and argv[0].rsplit("/", 1)[-1] in _ASKED_FOR for stages in _pipelines(command) for argv in stages)


# Source files, whose lines a person reads every one of: gofmt aligns a const block, a C enum or a struct's fields
# in columns, and `cat codes.go` was cut to 10 of its 120 constants as a table's "rows". A notebook is source too:
# its cells are a JSON list, and `cat analysis.ipynb` is read for every cell.
_CODE = re.compile(
    r"\.(py|pyi|go|rs|c|h|cc|cpp|hpp|cxx|m|mm|java|kt|kts|scala|swift|js|jsx|mjs|cjs|ts|tsx|rb|php|cs|fs|lua|pl|"
    r"sh|bash|zsh|ps1|sql|r|jl|ex|exs|erl|hs|ml|dart|vue|svelte|s|asm|proto|tf|nix|zig|v|sv|vhd|f90|ipynb)$"
    r"|(^|/)(makefile|dockerfile|gnumakefile|cmakelists\.txt|justfile|rakefile|gemfile)$",
    re.IGNORECASE,
)


def _printed_whole(command: str) -> bool:
    """Whether every stage of the command that prints what it was asked for (``_ASKED_FOR``) is a ``cat`` of files
    that are not source (``_reads_code``): a whole file, no count of lines asked for."""
    asked = [
        argv[0].rsplit("/", 1)[-1]
        for stages in _pipelines(command)
        for argv in stages
        if argv and argv[0].rsplit("/", 1)[-1] in _ASKED_FOR
    ]
    return bool(asked) and all(name == "cat" for name in asked) and not _reads_code(command)


def _reads_code(command: str) -> bool:
    """Whether a stage that prints what it was asked for (``_ASKED_FOR``) is given a source file."""
    return any(
        _CODE.search(word)
        for stages in _pipelines(command)
        for argv in stages
        if argv and argv[0].rsplit("/", 1)[-1] in _ASKED_FOR
        for word in argv[1:]
        if not word.startswith("-")
    )


def _arguments(segment: str) -> list[str]:
    """A segment's words after the program that are not options: the folders a search may have been given."""
    return [word for word in segment.split()[1:] if not word.startswith("-")]


# Up to this size, which lines went is counted line for line. Above it, splitting every line to count them costs a
# sixth of the filter's time (10 ms for 4 MB), and the difference in line counts is said, as "at least": the
# filter's own notes are lines it shows, so the difference is never more than the count.
_COUNTED_UP_TO = 1 << 20


def _not_shown(clean: str, text: str, clean_lines: int) -> tuple[int, bool]:
    """How many of ``clean``'s lines (``clean_lines``: ``_count_lines(clean)``) ``text`` does not hold as they were
    (folded, cut, rewritten or dropped), and whether that is the count itself (else it is at least that many)."""
    net = clean_lines - _count_lines(text)
    if len(clean) > _COUNTED_UP_TO and net > 0:
        return net, False
    shown = Counter(text.splitlines())
    lines = Counter(clean.splitlines())
    return sum(lines.values()) - sum(min(count, shown[line]) for line, count in lines.items() if line in shown), True


def _count_lines(text: str) -> int:
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)
