"""The inline programs of sed and awk: what a script does beyond filtering text.

``sed``'s ``e`` command and the ``e`` flag of ``s`` run a shell command, ``w`` writes a file; awk's ``system()``,
pipes and ``print >`` do the same. Found by reading the script the way sed and awk will (addresses, ranges, regex
flags, options whose value comes before the script); a script from a file (``-f``) cannot be read and asks.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

from zeph_nb.shell.options import Rider, family

__all__ = ["script_riders"]

# sed: the `e` command and the `e` flag of `s` run the pattern space as a shell command; `w` writes a file.
# An address: a line number (or first~step), $, or /regex/ with its I and M flags; two of them make a range.
# Each pattern is read where a command starts (see _at_command_start), after the blanks there.
_ADDR = r"(?:[0-9]+(?:~[0-9]+)?|\$|/(?:[^/\\]|\\.)*/[IM]*)"
_RANGE = rf"(?:{_ADDR}(?:\s*,\s*(?:{_ADDR}|[+~]?[0-9]+))?\s*)?(?:!\s*)?"
_SED_EXEC = re.compile(rf"{_RANGE}e(?:\s|;|$)")
# \%regex% addresses (any delimiter) are not read above: a script that uses one is treated as unknown.
_SED_ODD_ADDRESS = re.compile(r"\\[^a-zA-Z0-9\s]")
_SED_SUBST_FLAGS = re.compile(r"s(.)(?:(?!\1)[^\\]|\\.)*\1(?:(?!\1)[^\\]|\\.)*\1([a-zA-Z0-9]*)")
_SED_WRITE = re.compile(rf"{_RANGE}[wW]\s+\S")
_SED_COMMAND_END = re.compile(r"[;\n{}]")
_BLANKS = re.compile(r"\s*")
# A backslash and what it escapes (a newline it does not: there a delimited text ends unclosed), or a lone one.
_ESCAPE = re.compile(r"\\[^\n]|\\")
# awk: system(), pipes to and from commands, print/printf into files.
_AWK_CALL = re.compile(r"\bsystem\s*\(|\|\s*getline|\|&")
_AWK_PRINT_PARTS = re.compile(r"\bprintf?\b|[;{}]|[|>]")


def _at_command_start(pattern: re.Pattern[str], script: str) -> bool:
    """Whether ``pattern`` matches where a sed command starts: at the start, or after ``;``, a newline, ``{`` or
    ``}``, and the blanks that follow. One search for the start, the blanks and the pattern together read a run of
    blank lines again from each of its newlines, and its three runs of blanks in a row were split every way
    (500 newlines took 45 s)."""
    read_to = -1
    for start in (0, *(match.end() for match in _SED_COMMAND_END.finditer(script))):
        if start <= read_to:  # a newline among blanks read already: the command after them was tried
            continue
        blanks = _BLANKS.match(script, start)
        read_to = blanks.end() if blanks is not None else start
        if pattern.match(script, read_to):
            return True
    return False


def _subst_flags(script: str) -> str:
    """The flags of the ``s`` commands: ``"".join(m.group(2) for m in _SED_SUBST_FLAGS.finditer(script))``, found
    without reading on from every ``s`` (each ``s`` followed by a character met only once more, as ``s一``, scanned
    the rest of the script: seconds for a script of 16,000 characters).

    From an ``s``, the pattern reads to the next two delimiters that no backslash escapes, unless a backslash
    before a newline (or at the end) comes first. Backslashes pair the same way from every start (from the start of
    their run), so one pass finds, for every character, where it occurs unescaped; only an ``s`` that will match is
    matched. A backslash as the delimiter is matched as it is (it fails only near the end of the script).
    """
    free: dict[str, list[int]] = {}
    stops: list[int] = []
    escaped: set[int] = set()
    for escape in _ESCAPE.finditer(script):
        if escape.end() - escape.start() == 2:
            escaped.add(escape.start() + 1)
        else:
            stops.append(escape.start())
    for i, ch in enumerate(script):
        if i not in escaped:
            free.setdefault(ch, []).append(i)
    flags: list[str] = []
    i = script.find("s")
    while 0 <= i < len(script) - 1:
        delimiter = script[i + 1]
        match = None
        if delimiter == "\\":
            match = _SED_SUBST_FLAGS.match(script, i)
        elif delimiter != "\n":
            ends = free[delimiter]
            at = bisect.bisect_right(ends, i + 1)
            stop = bisect.bisect_left(stops, i + 2)
            if at + 1 < len(ends) and (stop == len(stops) or ends[at + 1] < stops[stop]):
                match = _SED_SUBST_FLAGS.match(script, i)
        if match is not None:
            flags.append(match.group(2))
        i = script.find("s", match.end() if match is not None else i + 1)
    return "".join(flags)


def _prints_into(program: str) -> bool:
    """Whether a ``print``/``printf`` is followed, before the next ``;``, ``{`` or ``}``, by ``|`` or ``>``, as
    ``\bprintf?\b[^;{}]*?[|>]`` searched (which read on from every print in a run of them)."""
    printing = False
    for match in _AWK_PRINT_PARTS.finditer(program):
        part = match.group()
        if part in ";{}":
            printing = False
        elif part in "|>":
            if printing:
                return True
        else:
            printing = True
    return False


# Options whose value is the next word, so it is not taken for the script: sed -l 1, awk -v a=1, awk -F :.
_SCRIPT_VALUES = {
    "sed": frozenset({"-l", "--line-length"}),
    "awk": frozenset({"-v", "--assign", "-F", "--field-separator", "-E", "--exec", "-i", "--include", "-W", "-l",
                      "--load"}),
}  # fmt: skip


def _scripts(
    args: Sequence[str], flag: str, long: str, *, from_file: tuple[str, str], values: frozenset[str]
) -> list[str] | None:
    """The inline scripts of sed/awk: every -e value, else the first operand; None when the program comes from a
    file (``sed -f FILE``, ``awk -f FILE``), which the classifier cannot read."""
    scripts, i, explicit = [], 0, False
    while i < len(args):
        arg = args[i]
        if arg in from_file or any(arg.startswith(f"{opt}=") for opt in from_file if opt.startswith("--")):
            return None
        if re.match(r"^-[A-Za-z]*f", arg) and from_file[0] == "-f" and not arg.startswith("--"):
            return None  # -nf FILE
        if arg in (flag, long) and i + 1 < len(args):
            scripts.append(args[i + 1])
            explicit = True
            i += 2
            continue
        if arg.startswith(long + "="):
            scripts.append(arg.split("=", 1)[1])
            explicit = True
        elif arg in values:
            i += 2
            continue
        elif not arg.startswith("-") and not explicit:
            scripts.append(arg)
            break
        i += 1
    return scripts


def script_riders(name: str, args: Sequence[str]) -> list[Rider]:
    """What the inline program of sed or awk does beyond filtering text."""
    kind = family(name)
    if kind == "sed":
        scripts = _scripts(args, "-e", "--expression", from_file=("-f", "--file"), values=_SCRIPT_VALUES["sed"])
        if scripts is None:
            return [Rider("-f", ("-f",), "runs a sed script from a file the classifier cannot read")]
        for script in scripts:
            if _at_command_start(_SED_ODD_ADDRESS, script):
                return [Rider("e", (script,), "the sed script uses an address form the classifier does not read")]
            flags = _subst_flags(script)
            if _at_command_start(_SED_EXEC, script) or "e" in flags:
                return [Rider("e", (script,), "the sed script runs shell commands (the e command or flag)")]
            if _at_command_start(_SED_WRITE, script) or "w" in flags:
                return [Rider("w", (script,), "the sed script writes files (the w command or flag)")]
    elif kind == "awk":
        program = _scripts(args, "--source", "--source", from_file=("-f", "--file"), values=_SCRIPT_VALUES["awk"])
        if program is None:
            return []  # awk -f: a rider of its own (RISKS)
        if program and (_AWK_CALL.search(program[0]) or _prints_into(program[0])):
            return [Rider("system", (program[0],), "the awk program runs commands or writes files")]
    return []
