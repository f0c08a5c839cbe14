"""How much work the shell classifier may spend on one command line, and how it stops when that runs out.

Two bounds, because one part of the work cannot be interrupted. bashlex parses a script in one call, and its time
grows with the script's tokens (with the square of a pipeline's length, and with each level of nested ``$(…)``), so
each script's size is read before it is parsed (``parse_size``) and one over ``MAX_PARSE_TOKENS``, ``MAX_PIPES`` or
``MAX_NESTING`` is not parsed. The rest of the analysis looks at a clock (``Budget.check``) at every node, command
and script it reads, and stops once ``BUDGET_SECONDS`` have passed. Either way ``OverBudget`` ends the analysis:
what it found so far stays (a block stays a block), the line is not "parsed" (no allow rule can vouch for it) and
it asks, with ``TOO_COMPLEX``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import NamedTuple

__all__ = [
    "BUDGET_SECONDS",
    "MAX_NESTING",
    "MAX_PARSE_TOKENS",
    "MAX_PIPES",
    "TOO_COMPLEX",
    "Budget",
    "OverBudget",
    "ParseSize",
    "parse_size",
]

# A typical line is read in about 0.1 ms and a 100,000-character here-document in a few ms; half a second is far
# above any line a person writes, and short enough that a hostile one does not hold the kernel.
BUDGET_SECONDS = 0.5
# bashlex takes 35-55 us a token (backticks the most: 8,000 of them ~0.45 s here) and a pipeline of n stages ~n^2.
MAX_PARSE_TOKENS = 8_000
MAX_PIPES = 2_000
# bashlex parses each level of $( $( … ) ) again: 200 levels ~0.5 s (then Python's recursion limit stops it).
# The classifier looks no deeper than 8 levels anyway.
MAX_NESTING = 32

TOO_COMPLEX = "the command is too long or complex to analyse"


class OverBudget(Exception):
    """The analysis ran out of its budget; ``reason`` says which and is the line's reason to ask. Raised and caught
    inside the classifier only (``ShellClassifier.analyze``)."""

    def __init__(self, detail: str) -> None:
        self.reason = f"{TOO_COMPLEX} ({detail}); read it yourself before approving it"
        super().__init__(self.reason)


@dataclass
class Budget:
    """The deadline of one analysis (``time.monotonic`` seconds)."""

    deadline: float

    @classmethod
    def start(cls) -> Budget:
        return cls(time.monotonic() + BUDGET_SECONDS)

    def check(self) -> None:
        if time.monotonic() > self.deadline:
            raise OverBudget(f"stopped after {BUDGET_SECONDS:g} s")

    def admit(self, script: str) -> None:
        """Refuse a script too big for one bashlex call before it is parsed."""
        size = parse_size(script)
        if size.tokens > MAX_PARSE_TOKENS:
            raise OverBudget(f"over {MAX_PARSE_TOKENS:,} words and operators in one script")
        if size.pipes > MAX_PIPES:
            raise OverBudget(f"over {MAX_PIPES:,} pipes in one script")
        if size.nesting > MAX_NESTING:
            raise OverBudget(f"substitutions nested over {MAX_NESTING} deep")


_OPERATORS = frozenset(";&|()<>\n")
_BLANKS = frozenset(" \t")
_WORD_END = _OPERATORS | _BLANKS | {"\r"}


class ParseSize(NamedTuple):
    tokens: int  # words and operators
    pipes: int  # `|` and `|&`, not `||`
    nesting: int  # the deepest $(…), <(…), >(…) or backticks inside one another


def parse_size(script: str) -> ParseSize:
    """What bashlex would build for ``script``, read in one pass: every word and operator counts; single-quoted
    text and here-document bodies are part of one word, and in double-quoted text only the expansions count
    (``$x``, and all of what ``$(…)`` and backticks run).

    It reads quotes roughly (no ``case`` patterns, no nesting inside backticks); what it misreads costs time, never
    a decision, since the parse that follows is bashlex's.
    """
    tokens = pipes = nesting = subs = 0  # subs: the substitutions open where the reading is
    # Where the reading is: "code" (the line, or inside $( … ) with its count of open parentheses), '"' inside
    # double quotes, "`" inside backticks within double quotes.
    frames: list[tuple[str, int]] = [("code", 0)]
    heredocs: list[tuple[str, bool]] = []
    in_word = False
    i, n = 0, len(script)
    while i < n:
        ch = script[i]
        kind, depth = frames[-1]
        if ch == "\\":
            i += 2
            continue
        opens = ""  # a substitution starting here: "code" ($( or <( >( ) or "`"
        if kind == '"':
            if ch == '"':
                frames.pop()
            elif ch == "$":
                tokens += 1
                opens = "code" if script.startswith("$(", i) else ""
            elif ch == "`":
                tokens += 1
                opens = "`"
        elif kind == "`" and ch == "`":
            frames.pop()
            subs -= 1
        elif ch in _WORD_END:
            in_word = False
            tokens += 1 if ch in _OPERATORS else 0
            if ch == "|":
                if script.startswith("||", i):
                    i += 1  # `||` is one operator, and no pipe
                else:
                    pipes += 1
            elif ch in "<>" and script.startswith("(", i + 1):
                opens = "code"
            elif ch == "(" and depth:
                frames[-1] = (kind, depth + 1)
            elif ch == ")" and depth:
                frames[-1] = (kind, depth - 1)
                if depth == 1:
                    frames.pop()
                    subs -= 1
            elif ch == "<" and script.startswith("<<", i) and not script.startswith("<<<", i):
                i = _heredoc_word(script, i, heredocs)
                continue
            elif ch == "\n" and heredocs:
                i = _skip_bodies(script, i + 1, heredocs)
                heredocs = []
                continue
        elif ch == "#" and not in_word:  # a comment runs to the end of the line
            end = script.find("\n", i)
            i = n if end < 0 else end
            continue
        else:
            tokens += 0 if in_word else 1
            in_word = True
            if ch == "'":
                end = script.find("'", i + 1)
                i = n if end < 0 else end + 1
                continue
            if ch == '"':
                frames.append(('"', 0))
            elif ch == "`":
                tokens += 1
            elif ch == "$":
                tokens += 1
                opens = "code" if script.startswith("$(", i) else ""
        if opens == "code":  # what $(…) runs is words and operators again, until its parenthesis closes
            frames.append(("code", 1))
            in_word = False
            i += 1
        elif opens:
            frames.append(("`", 0))
        if opens:
            subs += 1
            nesting = max(nesting, subs)
        i += 1
    return ParseSize(tokens, pipes, nesting)


def _heredoc_word(script: str, i: int, heredocs: list[tuple[str, bool]]) -> int:
    """Read ``<<WORD`` / ``<<-WORD`` at ``i``; record the delimiter (quotes removed); return where reading goes on."""
    i += 2
    strip_tabs = script.startswith("-", i)
    i += 1 if strip_tabs else 0
    while i < len(script) and script[i] in _BLANKS:
        i += 1
    start = i
    while i < len(script) and script[i] not in _WORD_END:
        i += 1
    word = script[start:i].replace("'", "").replace('"', "").replace("\\", "")
    if word:
        heredocs.append((word, strip_tabs))
    return i


def _skip_bodies(script: str, i: int, heredocs: list[tuple[str, bool]]) -> int:
    """Past the bodies of the here-documents of the line that ended before ``i``."""
    for word, strip_tabs in heredocs:
        while i < len(script):
            end = script.find("\n", i)
            end = len(script) if end < 0 else end
            line = script[i:end]
            i = end + 1
            if (line.lstrip("\t") if strip_tabs else line) == word:
                break
    return min(i, len(script))
