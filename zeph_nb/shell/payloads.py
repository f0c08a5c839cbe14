"""The commands inside other commands: what ``env``, ``find -exec``, ``parallel``, interpreters' code and a function's
body will run, and what a ``for`` loop's variable takes.

Each reader finds the payload and hands it back to the classifier through the reader it is given (``read_argv`` for
an argv, ``read_script`` for a command line, ``read_node`` for a parsed node), so a payload is judged exactly like a
command typed on its own — and, where ``{}`` stands for a target (``find / -exec rm -rf {} +``), once more with the
target filled in, so the blocklist sees ``rm -rf /``. What a reader finds goes into the ``ShellAnalysis`` it is
given; ``depth`` is how deeply the payload's command is nested.
"""

from __future__ import annotations

import bisect
import re
import shlex
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from zeph_nb.shell.analysis import ShellAnalysis
from zeph_nb.shell.options import env_riders
from zeph_nb.shell.rules import command_name
from zeph_nb.shell.words import DYNAMIC, SHELL_CALL, inline_script, parts

__all__ = [
    "ReadArgv",
    "ReadNode",
    "ReadScript",
    "loop_values",
    "printed_text",
    "read_env",
    "read_find",
    "read_function",
    "read_interpreter",
    "read_parallel",
    "read_pipeline",
]


class ReadArgv(Protocol):
    """The classifier's reader of one argv (``env``: the assignments in front of it; ``dynamic``: its words that come
    from an expansion or a glob); returns the effective command name."""

    def __call__(
        self,
        argv: list[str],
        analysis: ShellAnalysis,
        depth: int,
        env: list[str] | None = None,
        dynamic: frozenset[str] | set[str] = frozenset(),
    ) -> str: ...


class ReadNode(Protocol):
    """The classifier's reader of one parsed node; True when it runs its standard input as code."""

    def __call__(self, node: Any, analysis: ShellAnalysis, depth: int, stage: int = 0) -> bool: ...


ReadScript = Callable[[str, ShellAnalysis, int], None]
"""The classifier's reader of a command line: ``(script, analysis, depth)``."""


_ESCAPES = re.compile(r"\\[^\n]|[\"']|\\")
_QUOTE = re.compile(r"[\"']")


def _literals(text: str) -> list[str]:
    """The contents of the string literals in ``text`` as ``STRING_LITERAL.finditer`` finds them ("…" or '…',
    backslash escapes kept as written), without its cost: it scanned an unclosed literal again from every quote
    inside it, which took seconds on a line of escaped quotes.

    Every scan from a quote pairs a backslash with the next character the same way (runs of backslashes pair from
    their start), so one pass finds the quotes no backslash escapes, and the backslashes that end every literal open
    before them (one before a newline, or at the end)."""
    free: dict[str, list[int]] = {'"': [], "'": []}
    stops: list[int] = []
    for match in _ESCAPES.finditer(text):
        part = match.group()
        if part in free:
            free[part].append(match.start())
        elif part == "\\":
            stops.append(match.start())
    found: list[str] = []
    start = _QUOTE.search(text)
    while start is not None:
        i = start.start()
        closes = free[text[i]]
        at = bisect.bisect_right(closes, i)
        end = closes[at] if at < len(closes) else len(text)
        stop = bisect.bisect_right(stops, i)
        if end < len(text) and (stop == len(stops) or end < stops[stop]):
            found.append(text[i + 1 : end])
            i = end
        start = _QUOTE.search(text, i + 1)
    return found


def _closing_parens(code: str) -> dict[int, int]:
    """Where each ``(`` of ``code`` closes, counting every parenthesis (an unclosed one is not listed)."""
    closes: dict[int, int] = {}
    opened: list[int] = []
    for match in re.finditer(r"[()]", code):
        if match.group() == "(":
            opened.append(match.start())
        elif opened:
            closes[opened.pop()] = match.start()
    return closes


def _shell_calls(code: str, check: Callable[[], None]) -> Iterator[str]:
    """The command lines an interpreter's code hands to a shell or exec: the string literals in the arguments of
    each call (``os.system('…')``; ``subprocess.run(['sudo', 'id'])`` is read as ``sudo id``), and the text between
    backticks. Literals elsewhere (``print('sudo is needed')``) are text, not commands. ``check`` is called before
    each call is read: nested calls each read what the inner ones hold again, so the budget is looked at between."""
    closes = _closing_parens(code)
    for match in SHELL_CALL.finditer(code):
        check()
        if match.group(0) == "`":
            end = code.find("`", match.end())
            if end > match.end():
                yield code[match.end() : end]
            continue
        # subprocess.check_output( is the farthest a name runs on: 24 characters to its parenthesis.
        start = match.end() - 1 if match.group(0).endswith("(") else code.find("(", match.end(), match.end() + 25)
        if start < 0:
            continue
        inside = code[start + 1 : closes.get(start, len(code))]
        literals = [text for text in _literals(inside) if text and text.strip()]
        if inside.lstrip().startswith(("[", "(")) and literals:  # an argv list: one command
            yield " ".join(shlex.quote(text) for text in literals)
        else:
            yield from literals


def printed_text(node: Any) -> list[str]:
    """What a pipeline stage evidently prints: heredoc bodies, and the arguments of echo/printf."""
    texts: list[str] = []
    for child in [node, *parts(node)]:
        if getattr(child, "kind", "") == "heredoc":
            texts.append(child.value.rsplit("\n", 1)[0])
    if getattr(node, "kind", "") == "command":
        words = [p.word for p in node.parts if p.kind == "word"]
        if words and command_name(words[0]) in ("echo", "printf"):
            texts.append(" ".join(w for w in words[1:] if not w.startswith("-")))
        for part in node.parts:
            if part.kind == "redirect" and getattr(part, "heredoc", None) is not None:
                texts.append(part.heredoc.value.rsplit("\n", 1)[0])
    return texts


@contextmanager
def _blocks_only(analysis: ShellAnalysis) -> Iterator[ShellAnalysis]:
    """An analysis in which to judge a payload with its target filled in; only a block found there counts in
    ``analysis`` (the payload itself was judged already)."""
    shadow = ShellAnalysis()
    try:
        yield shadow
    finally:  # a block found before the analysis ran out of time is still a block
        for reason in shadow.block_reasons:
            analysis.raise_to("block", reason)


def _reads_values(script: str, analysis: ShellAnalysis, depth: int, read_script: ReadScript) -> bool:
    """Read ``script``; whether its reading read or set the line's variables."""
    uses = analysis.value_uses
    read_script(script, analysis, depth)
    return analysis.value_uses != uses


def read_pipeline(node: Any, analysis: ShellAnalysis, depth: int, *, read_node: ReadNode,
                  read_script: ReadScript) -> bool:  # fmt: skip
    """A pipeline's stages; True when its last one runs its standard input as code."""
    stages = [part for part in node.parts if part.kind != "pipe"]
    # `echo 'sudo …' | sh`, `cat <<EOF | bash`: what earlier stages print is the script of every later shell.
    # A script whose reading neither reads nor sets the line's variables reads the same every time, so it is
    # read once; the others again at each shell (in stage order, as ever), since their values may differ.
    printed: list[str] = []
    fed = False
    for index, part in enumerate(stages):
        fed = read_node(part, analysis, depth, stage=index)
        if fed and index > 0:
            printed = [script for script in printed if _reads_values(script, analysis, depth + 1, read_script)]
        printed.extend(printed_text(part))
    return fed


def read_parallel(rest: list[str], analysis: ShellAnalysis, depth: int, *, read_script: ReadScript) -> None:
    """``parallel 'rm -rf {}' ::: /``: the template is a command line, and once more with each input filled in."""
    cut = next((i for i, a in enumerate(rest) if a.startswith(":::")), len(rest))
    template, inputs = " ".join(rest[:cut]), [a for a in rest[cut + 1 :] if not a.startswith(":::")]
    read_script(template, analysis, depth + 1)
    for value in dict.fromkeys(inputs) if "{}" in template else []:
        with _blocks_only(analysis) as shadow:
            read_script(template.replace("{}", shlex.quote(value)), shadow, depth + 1)


def read_env(args: list[str], analysis: ShellAnalysis, depth: int, dynamic: frozenset[str] | set[str], *,
             read_argv: ReadArgv, read_script: ReadScript) -> None:  # fmt: skip
    """What ``env`` runs (``args``: its words after ``env``): a command after its options and assignments, or the
    command line of ``-S``."""
    rest: list[str] = []
    assignments: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in ("-u", "--unset", "-C", "--chdir"):
            i += 2
            continue
        if arg in ("-S", "--split-string") and i + 1 < len(args):
            read_script(" ".join(args[i + 1 :]), analysis, depth + 1)
            return
        if arg.startswith("--split-string="):
            read_script(" ".join([arg.split("=", 1)[1], *args[i + 1 :]]), analysis, depth + 1)
            return
        cluster = re.match(r"^-[A-Za-z0-9]*S", arg) if not arg.startswith("--") else None
        if cluster:  # -S'cmd', -vS'cmd', -iS 'cmd'
            inline = arg[cluster.end() :]
            read_script(" ".join([inline, *args[i + 1 :]] if inline else args[i + 1 :]), analysis, depth + 1)
            return
        if arg.startswith("-") or ("=" in arg and not rest):
            if "=" in arg and not arg.startswith("-"):
                assignments.append(arg)
            i += 1
            continue
        rest = args[i:]
        break
    if not rest:
        analysis.ride(None, env_riders(assignments))
    read_argv(rest, analysis, depth + 1, env=assignments, dynamic=dynamic)


def read_interpreter(name: str, args: list[str], analysis: ShellAnalysis, depth: int, *, read_script: ReadScript,
                     spend: Callable[[], None]) -> None:  # fmt: skip
    """The command lines an interpreter's inline code (``python -c``, ``node -e`` …) hands to a shell; ``spend``
    stops the analysis once its budget is spent."""
    code = inline_script(args, "e" if not name.startswith(("python", "pypy")) else "c")
    if code is None and name.startswith(("node", "ruby", "perl", "php")):
        code = inline_script(args, "e") or inline_script(args, "r")
    if code is None or not SHELL_CALL.search(code):
        return
    analysis.raise_to("confirm", f"{name} code that starts other programs")
    once: set[str] = set()  # read already, and read alike every time (see ShellAnalysis.value_uses)
    for command in _shell_calls(code, spend):
        if command not in once and not _reads_values(command, analysis, depth + 1, read_script):
            once.add(command)


def read_find(args: list[str], analysis: ShellAnalysis, depth: int, *, read_argv: ReadArgv) -> None:
    """What ``find`` runs (``-exec``, ``-ok`` …) or deletes."""
    # The payload's verdict is the command's: `find / -exec rm -rf {} +` is `rm -rf /` for each start point.
    start = next((i for i, a in enumerate(args) if a.startswith(("-", "(", "!"))), len(args))
    roots = args[:start] or ["."]
    i = start
    while i < len(args):
        if args[i] in ("-exec", "-execdir", "-ok", "-okdir"):
            end = i + 1
            while end < len(args) and args[end] not in (";", "+", "\\;"):
                end += 1
            payload = args[i + 1 : end]
            read_argv(payload, analysis, depth + 1)
            if "{}" in payload and args[i] in ("-exec", "-ok"):
                for root in dict.fromkeys(roots):
                    with _blocks_only(analysis) as shadow:
                        read_argv([root if word == "{}" else word for word in payload], shadow, depth + 1)
            i = end
        elif args[i] == "-delete":
            analysis.raise_to("confirm", "destructive: find -delete")
        i += 1


def read_function(node: Any, analysis: ShellAnalysis, depth: int, *, read_node: ReadNode) -> None:
    """A function definition: what its body does is what calling the function does."""
    name = node.parts[0].word if node.parts and node.parts[0].kind == "word" else ""
    body = [part for part in node.parts[1:] if part.kind not in ("reservedword",)]
    inner = ShellAnalysis(defined=analysis.defined)
    try:
        for part in body:
            read_node(part, inner, depth + 1)
    finally:  # what the body was found to do counts, even when the analysis ran out of time in it
        _merge_function(name, inner, analysis)


def _merge_function(name: str, inner: ShellAnalysis, analysis: ShellAnalysis) -> None:
    # `/usr/bin/git` inside a function named git runs the program, not the function: no recursion.
    if name and any(c.written == name for c in inner.commands):
        analysis.raise_to("block", f"blocked: function {name!r} calls itself (fork bomb pattern)")
    for reason in inner.reasons:
        analysis.raise_to(inner.verdict if reason.startswith("blocked:") else "confirm", reason)
    analysis.commands.extend(inner.commands)
    # What the body does is what calling the function does: its risky options, paths and line changes count.
    analysis.merge_riders(inner)
    analysis.paths.extend(inner.paths)
    analysis.writes_by_redirect = analysis.writes_by_redirect or inner.writes_by_redirect


def loop_values(node: Any, analysis: ShellAnalysis) -> None:
    """``for f in a b *.txt``: f takes those words (a glob stays a glob, the path check expands it)."""
    words = [part for part in node.parts if part.kind in ("word", "reservedword")]
    if len(words) < 3 or words[1].kind != "word" or getattr(words[2], "word", "") != "in":
        return
    values: list[str] | None = []
    for part in words[3:]:
        if part.kind != "word":
            break
        if any(p.kind in DYNAMIC for p in parts(part)):
            values = None
            break
        assert values is not None
        values.append(part.word)
    analysis.set_value(words[1].word, values)
