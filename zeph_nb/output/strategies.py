"""Filter strategies: pure functions from sanitized output text to filtered text and a confidence.

Confidence says how much to trust that nothing important was lost: FULL (the output was understood and what
matters kept), PARTIAL (cut by position, or understood only in part), FALLBACK (not understood: passed through).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from zeph_nb.output import rules as R
from zeph_nb.output.diffs import diff_lines
from zeph_nb.output.kinds import Kind, LineKinds, digit_blind_table, first_indices, matched_chars
from zeph_nb.output.lines import FilterConfidence, StageResult, compile_lines, head_tail, matching_lines, split_lines
from zeph_nb.output.noise import strip_noise
from zeph_nb.output.templates import drops_failed, fold_by_template
from zeph_nb.output.test_summary import summarize_tests

__all__ = ["FilterConfidence", "StageResult", "apply_strategy"]


def truncate(text: str, rule: R.Truncate, exit_code: int | None) -> StageResult:
    lines = text.splitlines()
    if len(lines) <= rule.max_lines:
        return StageResult(text, FilterConfidence.FULL)
    return StageResult("\n".join(head_tail(lines, rule.head, rule.tail)), FilterConfidence.PARTIAL)


def keep_matching(text: str, rule: R.KeepMatching, exit_code: int | None) -> StageResult:
    body, lines = split_lines(text)
    wanted = matching_lines(compile_lines(rule.patterns), body, lines)
    kept = [line for i, line in enumerate(lines) if i in wanted]
    if not kept:
        return StageResult(text, FilterConfidence.FALLBACK)
    return StageResult("\n".join(kept), FilterConfidence.FULL)


def strip_annotated(text: str, rule: R.StripAnnotated, exit_code: int | None) -> StageResult:
    """Drop known noise lines, lead with the summary line, and say how many lines went."""
    noise = compile_lines(rule.patterns)
    summary_re = re.compile(rule.summary_pattern) if rule.summary_pattern else None
    kept: list[str] = []
    summary = None
    removed = 0
    lines = text.splitlines()
    for line in lines:
        if summary_re is not None and summary_re.search(line):
            summary = line.strip()
            removed += 1
        elif noise.search(line):
            removed += 1
        else:
            kept.append(line)
    if removed == 0:
        if exit_code not in (None, 0) or len(lines) <= rule.long_output_threshold:
            return StageResult(text, FilterConfidence.FALLBACK)
        return StageResult("\n".join(head_tail(lines, rule.keep_head, rule.keep_tail)), FilterConfidence.PARTIAL)
    out = [summary] if summary else []
    out.append(f"({removed} noise lines removed)")
    if kept:
        out.append("")
        out += head_tail(kept, rule.keep_head, rule.keep_tail) if len(kept) > rule.long_output_threshold else kept
    return StageResult("\n".join(out), FilterConfidence.FULL)


def test_summary(
    text: str, rule: R.TestSummary, exit_code: int | None, skip_lines: Sequence[tuple[int, int]] | None = None
) -> StageResult:
    """``skip_lines``: the (start, end) of the lines of ``text`` holding a ``SKIP_CUES`` word, when the caller's
    scan found them (``summarize_tests``)."""
    summary = summarize_tests(
        text, max_failures=rule.max_failures, max_trace_lines=rule.truncate_stack_trace, skip_lines=skip_lines
    )
    if summary is None:
        return StageResult(text, FilterConfidence.FALLBACK)
    return StageResult(summary.text, FilterConfidence.FULL if summary.complete else FilterConfidence.PARTIAL)


def _first_group(match: re.Match[str]) -> str:
    return next((group for group in match.groups() if group), match.group(0))


def group_by_rule(text: str, rule: R.GroupByRule, exit_code: int | None) -> StageResult:
    """Linter output as one entry per rule: its first full message and every location it fired at.

    A location may come on the rule's own line (``a.py:1:8: F401 …``) or on a line after it (``--> a.py:1:8``).
    """
    location_re, rule_re = re.compile(rule.location_pattern), re.compile(rule.rule_pattern)
    groups: dict[str, list[str]] = {}
    first_message: dict[str, str] = {}
    first_place: dict[str, str] = {}  # the line that gave a rule's first location, when not its message line
    other: list[str] = []
    current: str | None = None
    for line in text.splitlines():
        found = rule_re.search(line)
        location = location_re.search(line)
        if found:
            current = _first_group(found)
            groups.setdefault(current, [])
            first_message.setdefault(current, line.strip())
        if location and current is not None:
            groups[current].append(_first_group(location))
            if not found:
                first_place.setdefault(current, line)
        elif not found and not location and line.strip() and not _is_build_noise(line):
            other.append(line)
    if not groups:
        return StageResult(text, FilterConfidence.FALLBACK)
    out = []
    for name, locations in sorted(groups.items(), key=lambda item: -len(item[1])):
        shown = locations[: rule.max_locations]
        more = f" (+{len(locations) - len(shown)} more)" if len(locations) > len(shown) else ""
        message = first_message[name]
        # The tool's own lines for the first finding, as it wrote them (message, and the ` --> place` line under
        # it); the count and the places of them all go on the line under those.
        out.append(message if name in message else f"{name}: {message}")
        if name in first_place:
            out.append(first_place[name])
        # One location that the lines above already show is not said again.
        if shown and not (len(locations) == 1 and (shown[0] in message or shown[0] in first_place.get(name, ""))):
            out.append(f"  {max(1, len(locations))}x at " + ", ".join(shown) + more)
    summary_lines = [line for line in other if _SUMMARY.search(line)]
    if len(summary_lines) > 3:  # one "generated N warnings" per crate says little after the first few
        summary_lines = [*summary_lines[:2], f"... ({len(summary_lines) - 3} similar lines) ...", summary_lines[-1]]
    return StageResult("\n".join(out + summary_lines), FilterConfidence.FULL)


# What a person reads at the end of a linter's run: the totals, what --fix would fix, that the build finished.
_SUMMARY = re.compile(r"(?i)\b(\d+ (errors?|warnings?|problems?)|found \d+|generated \d+|finished|success|\d+ fixable)")
_BUILD_NOISE = re.compile(r"^\s*(Compiling|Checking|Blocking|Updating|Downloading|Downloaded|Locking|Fresh)\s")


def _is_build_noise(line: str) -> bool:
    return _BUILD_NOISE.search(line) is not None


_STATUS_LONG = re.compile(r"^\s+(new file|modified|deleted|renamed|copied|typechange|both modified):\s+(.*)$")
_STATUS_SHORT = re.compile(r"^([ MADRCU?!]{2}) (.+)$")


def git_status(text: str, rule: R.GitStatus, exit_code: int | None) -> StageResult:
    """Files grouped by state with counts; the advice lines (``use "git add"…``) dropped."""
    groups: dict[str, list[str]] = {}
    section = "changes"
    head: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("(use ") or not stripped:
            continue
        if (
            stripped.startswith("On branch")
            or stripped.startswith("Your branch")
            or stripped.startswith("HEAD detached")
        ):
            head.append(stripped)
        elif stripped.startswith("Changes to be committed"):
            section = "staged"
        elif stripped.startswith("Changes not staged"):
            section = "unstaged"
        elif stripped.startswith("Untracked files"):
            section = "untracked"
        elif stripped.startswith("Unmerged paths"):
            section = "unmerged"
        elif match := _STATUS_LONG.match(line):
            groups.setdefault(section, []).append(f"{match.group(1)}: {match.group(2)}")
        elif section == "untracked" and line.startswith("\t"):
            groups.setdefault("untracked", []).append(stripped)
        elif match := _STATUS_SHORT.match(line):
            code = match.group(1)
            state = "untracked" if code == "??" else "staged" if code[0] not in " ?" else "unstaged"
            groups.setdefault(state, []).append(f"{code.strip()} {match.group(2)}")
        else:
            head.append(stripped)
    if not groups:
        return StageResult(
            "\n".join(head) if head else text, FilterConfidence.FULL if head else FilterConfidence.FALLBACK
        )
    out = list(head)
    for state in ("staged", "unstaged", "unmerged", "untracked", "changes"):
        files = groups.get(state)
        if not files:
            continue
        out.append(f"{state} ({len(files)}):")
        out += [f"  {name}" for name in files[: rule.max_files]]
        if len(files) > rule.max_files:
            out.append(f"  ... and {len(files) - rule.max_files} more")
    return StageResult("\n".join(out), FilterConfidence.FULL)


def git_diff(text: str, rule: R.GitDiff, exit_code: int | None) -> StageResult:
    """Everything outside the hunks kept (file headers, a commit's message, ``--stat``); changed lines up to
    ``max_diff_lines``; unchanged context dropped (``output/diffs.py``)."""
    walked = diff_lines(text)
    if "hunk" not in walked.roles:
        return StageResult(text, FilterConfidence.FALLBACK)
    out: list[str] = []
    changed = 0
    hidden: dict[str, int] = {}
    current = ""
    for line, role in zip(walked.lines, walked.roles, strict=True):
        if role == "other":
            if line.startswith("diff --git"):
                current = line
            out.append(line)
        elif role == "hunk":
            out.append(line)
        elif role in ("+", "-"):
            if changed < rule.max_diff_lines:
                out.append(line)
            else:
                hidden[current] = hidden.get(current, 0) + 1
            changed += 1
    if hidden:
        out.append(f"[{sum(hidden.values())} changed lines over max_diff_lines not shown, in {len(hidden)} files]")
        return StageResult("\n".join(out), FilterConfidence.PARTIAL)
    return StageResult("\n".join(out), FilterConfidence.FULL)


# A commit's first line: `commit <sha>` (with --graph's lanes before it), or a --oneline entry.
_COMMIT = re.compile(r"^[*|\\/ _]*(?:commit [0-9a-f]{7,40}\b|[0-9a-f]{7,40} \S)")
# Possessive: the graph's run and the blank line's `\s*` both take spaces, and a commit message of 40,000 spaces
# was split between them every way before failing (14 s for 40 kB).
_LOG_NOISE = re.compile(
    r"^[*|\\/ ]*+(?:(?:AuthorDate|Commit|CommitDate|Merge|Date):\s"
    r"|\s*(?:Signed-off-by|Co-authored-by|Reviewed-by|Change-Id):|\s*$)"
)


_LOG_TAIL = 3  # the oldest commits of a long log are kept too: where the range starts is part of the answer


def git_log(text: str, rule: R.GitLog, exit_code: int | None) -> StageResult:
    """The first ``max_log_entries`` commits and the last few, with their author (who changed it is what a log is
    read for) but without dates and trailer lines; the
    rest counted where they were. A patch (``log -p``) keeps its headers and changed lines, as ``git_diff`` does."""
    walked = diff_lines(text)
    # A commit starts outside every hunk: a patch's line that looks like `abc1234 x` is the patch's.
    starts = [
        role == "other" and _COMMIT.match(line) is not None
        for line, role in zip(walked.lines, walked.roles, strict=True)
    ]
    total = sum(starts)
    if total == 0:
        return StageResult(text, FilterConfidence.FALLBACK)
    hidden_from = rule.max_log_entries + 1 if total > rule.max_log_entries + _LOG_TAIL else total + 1
    hidden_to = total - _LOG_TAIL
    out: list[str] = []
    entries = 0
    for line, role, start in zip(walked.lines, walked.roles, starts, strict=True):
        if start:
            entries += 1
            if entries == hidden_from:
                out.append(
                    f"[{hidden_to - hidden_from + 1} more commits not shown (output.filters.git.max_log_entries)]"
                )
        if hidden_from <= entries <= hidden_to or role in ("context", "note"):
            continue  # a hidden commit, or a patch's unchanged context and "\ No newline" notes
        if role == "other" and _LOG_NOISE.match(line):
            continue
        out.append(line)
    return StageResult("\n".join(out), FilterConfidence.FULL)


_LOG_END = 3
_KEEP_IN_LOGS = re.compile(r"(?i)\b(error|fatal|panic|exception|traceback|critical|fail(ed|ure)?)\b")
_LOG_CUES = ("error", "fatal", "panic", "exception", "traceback", "critical", "fail")  # one is in each match


@lru_cache(maxsize=64)
def _normalizer(
    normalize_patterns: tuple[tuple[str, str], ...],
) -> tuple[Callable[[str], str], dict[int, int] | None, str | None]:
    """A rule's normalisation as one callable (MULTILINE: the patterns are written for one line), the digits it
    and the error pattern cannot tell apart, and the characters it can read or write (output/kinds.py)."""
    steps = [(re.compile(p, re.MULTILINE), r.replace("\\", "\\\\")) for p, r in normalize_patterns]

    def normalize(text: str) -> str:
        for pattern, replacement in steps:
            text = pattern.sub(replacement, text)
        return text

    table = digit_blind_table([*(p for p, _ in steps), _KEEP_IN_LOGS])
    return normalize, table, matched_chars(normalize_patterns, table)


def dedup(
    text: str, rule: R.Dedup, exit_code: int | None, keyword_lines: Sequence[tuple[int, int]] | None = None
) -> StageResult:
    """Each kind of line once, with how often it occurred; lines that report errors are all kept.

    Two lines are of a kind when they match once timestamps, ids, addresses and numbers are normalised.
    ``keyword_lines``: the (start, end) of every line of ``text`` holding one of ``_LOG_CUES`` (and maybe others),
    when the caller has scanned for them already (``apply_strategy``).
    """
    by_kind, unlike = _dedup_by_kind(text, rule, keyword_lines)
    # Not a log whose every line is a kind of its own: no line of it would fold by template either (each is rare,
    # an event), and its kinds worked out again were a third of the rule's time on 0.5 MB.
    if rule.by_template and not unlike and len(text) <= _TEMPLATES_UP_TO:
        # A log whose kinds differ by a word (`Adding candidate numpy`, `… pandas`) folds further by template; one
        # whose kinds do not is shown as dedup shows it (each kind's first line and a count: shorter than a
        # template's first and last lines and its note). The shorter of the two is kept.
        folded = fold_by_template(text)
        # Or longer, where dedup counted a failed request as one more of its kind (its status is a number).
        if folded is not None and (
            len(folded) < len(by_kind.text) or drops_failed(text, text.split("\n"), by_kind.text)
        ):
            return StageResult(folded, FilterConfidence.FULL)
    return by_kind


# Up to this size a log the `logs` rule reads is also folded by template, to keep the shorter: above it, a second
# normalising pass would double the rule's cost on a long log of unlike lines (4 MB: ~40 ms more).
_TEMPLATES_UP_TO = 1 << 20


def _dedup_by_kind(
    text: str, rule: R.Dedup, keyword_lines: Sequence[tuple[int, int]] | None
) -> tuple[StageResult, bool]:
    """``dedup``'s result, and whether every line was a kind of its own."""
    body, lines = split_lines(text)
    normalize, table, matched = _normalizer(tuple((n.pattern, n.replacement) for n in rule.normalize_patterns))
    # Kinds are only compared here, never read: a line like no other needs no normalising (kinds.py).
    kinds = LineKinds(body, lines, normalize, table, matched)
    keys = kinds.kinds
    end = len(lines) - _LOG_END  # how a log ends says what state it was left in: its last lines stay
    errors = kinds.lines_matching(_KEEP_IN_LOGS, cues=_LOG_CUES, holding=keyword_lines)
    if not kinds.distinct and any(_TRACEBACK_CUE in lines[index] for index in errors):
        # A Python frame is a place in the code: `tasks.py", line 17` and `line 19` are two places, not one kind
        # (the second was lost behind "more like this"). Told apart by all of it, as an error line is. Looked for
        # only where a traceback's header is among the error lines (a search of 4 MB for frames: 2.4 ms).
        frames = matching_lines(_FRAME, body, lines)
        if frames:
            keys = list(keys)
            for index in frames:
                keys[index] = lines[index]
    if kinds.distinct:
        # Every line a kind of its own (a log of unlike lines): no note, and the lines shown are the first ones up to
        # the cap, the errors and the end (or all of them), as below, without counting 40,000 kinds of one line
        # each and finding their firsts (3 ms of a 4 MB log).
        shown = set(range(rule.max_unique_patterns)).union(errors, range(max(end, 0), len(lines)))
        out = list(map(lines.__getitem__, sorted(shown))) if len(lines) > rule.max_unique_patterns else lines
    elif len(first := first_indices(keys)) > rule.max_unique_patterns:
        counts = Counter(keys[:end])  # what the note counts is what it stands for: not the last lines, shown
        out = _dedup_capped(lines, keys, counts, errors, end, first, rule.max_unique_patterns)
    else:
        counts = Counter(keys[:end])
        # Every kind's first line, every error line, the last lines: worked out by C-level passes, and the loop
        # is over the lines kept, not all of them (a log of 60,000 lines keeps a few hundred).
        firsts = set(first.values())
        counted = keys[: max(end, 0)]
        last = dict(zip(counted, range(len(counted)), strict=True))  # a kind's last line counted: its last write
        shown_errors = sorted(errors)
        out = []
        for index in sorted(firsts.union(errors, range(max(end, 0), len(lines)))):
            out.append(lines[index])
            if index in firsts and index not in errors and counts[keys[index]] > 1:
                # Said at the kind's first line; when an error shown below falls among its lines, the note says
                # so: 2,996 lines "like this" read as all before the traceback, half were after it. (Not a line
                # number: the lines counted are those left after the stacks were folded, not the output's.)
                until = last[keys[index]]
                among = bisect_right(shown_errors, index) < bisect_left(shown_errors, until)
                span = ", some further down" if among else ""
                out.append(f"  [{counts[keys[index]] - 1} more like this{span}]")
    if len(out) >= len(lines):
        return StageResult(text, FilterConfidence.FALLBACK), kinds.distinct
    # The lines given on, as the text's ``splitlines``: a line of ``text`` (split at "\n") is one of those when
    # the text holds no other line break, and neither do the notes.
    split = out if out and out[-1] and not _other_breaks(text) else None
    return StageResult("\n".join(out), FilterConfidence.FULL, split), kinds.distinct


_FRAME = re.compile(r'^[ \t]+File "[^"\n]*", line \d+', re.MULTILINE)
_TRACEBACK_CUE = "Traceback (most recent call last)"


# What ``str.splitlines`` ends a line at besides "\n".
_ASCII_BREAKS = ("\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e")
_WIDE_BREAKS = ("\x85", "\u2028", "\u2029")


def _other_breaks(text: str) -> bool:
    """Whether ``text`` holds a line break other than "\n" (each looked for at C speed, not a regex's)."""
    return any(c in text for c in _ASCII_BREAKS) or (not text.isascii() and any(c in text for c in _WIDE_BREAKS))


def _dedup_capped(
    lines: list[str],
    keys: list[Kind],
    counts: Counter[Kind],
    errors: set[int],
    end: int,
    first: dict[Kind, int],
    cap: int,
) -> list[str]:
    """``dedup``'s lines when there are more kinds than ``cap``: the first ``cap`` kinds seen are shown (an error
    line's kind counts as seen), every error line and the last lines.

    Until ``cap`` kinds are seen, every line shown that is of a new kind is its kind's first line, so the lines
    shown as firsts are the first ``cap`` first lines: worked out at once, and the loop is over the lines kept (a
    Python loop over every line was 14 ms of a 4 MB log whose every line is a kind)."""
    firsts = set(sorted(first.values())[:cap])
    out: list[str] = []
    for index in sorted(firsts.union(errors, range(max(end, 0), len(lines)))):
        out.append(lines[index])
        if index in firsts and counts[keys[index]] > 1 and index not in errors:
            out.append(f"  [{counts[keys[index]] - 1} more like this]")
    return out


_STRATEGIES: dict[str, Callable[[str, Any, int | None], StageResult]] = {
    "strip_noise": strip_noise,
    "truncate": truncate,
    "keep_matching": keep_matching,
    "strip_annotated": strip_annotated,
    "test_summary": test_summary,
    "group_by_rule": group_by_rule,
    "git_status": git_status,
    "git_log": git_log,
    "git_diff": git_diff,
    "dedup": dedup,
}


def apply_strategy(
    text: str,
    strategy: Any,
    exit_code: int | None,
    roots: Sequence[str] = (),
    keyword_lines: Sequence[tuple[int, int]] | None = None,
    skip_lines: Sequence[tuple[int, int]] | None = None,
) -> StageResult:
    """Run ``strategy``; ``roots`` are the command's own arguments (the folders it may have searched).
    ``keyword_lines``: the lines of ``text`` holding a put-back keyword (``salient.SCANNED``), when the engine's
    scan found them: dedup's error words are among those, and are not looked for again (8 ms of a 4 MB log).
    ``skip_lines``: likewise the lines holding a test summary's skip word (``test_summary.SKIP_CUES``)."""
    if strategy.type == "strip_noise":
        result = strip_noise(text, strategy, exit_code, roots)
    elif strategy.type == "dedup":
        result = dedup(text, strategy, exit_code, keyword_lines)
    elif strategy.type == "test_summary":
        result = test_summary(text, strategy, exit_code, skip_lines)
    else:
        result = _STRATEGIES[strategy.type](text, strategy, exit_code)
    cap = getattr(strategy, "max_lines", None)
    if isinstance(strategy, R._Capped) and cap is not None:
        lines = result.lines if result.lines is not None else result.text.splitlines()
        if len(lines) > cap:
            capped = "\n".join(head_tail(lines, strategy.head, strategy.tail))
            # Cut by position is PARTIAL, whatever the stage understood: a find whose lines held no noise is
            # FALLBACK from strip_noise, and the card said "fallback" (not understood) for a head-and-tail cut.
            return StageResult(capped, FilterConfidence.PARTIAL)
    return result
