"""The inline programs of sed and awk: what a script does beyond filtering text.

``sed``'s ``e`` command and the ``e`` flag of ``s`` run a shell command, ``w`` writes a file; awk's ``system()``,
pipes and ``print >`` do the same. Found by reading the script the way sed and awk will (addresses, ranges, regex
flags, options whose value comes before the script); a script from a file (``-f``) cannot be read and asks.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from zeph_nb.security.shell_options import Rider, family

__all__ = ["script_riders"]

# sed: the `e` command and the `e` flag of `s` run the pattern space as a shell command; `w` writes a file.
# An address: a line number (or first~step), $, or /regex/ with its I and M flags; two of them make a range.
_ADDR = r"(?:[0-9]+(?:~[0-9]+)?|\$|/(?:[^/\\]|\\.)*/[IM]*)"
_RANGE = rf"(?:{_ADDR}(?:\s*,\s*(?:{_ADDR}|[+~]?[0-9]+))?)?\s*!?\s*"
_SED_EXEC = re.compile(rf"(?:^|[;\n{{}}])\s*{_RANGE}e(?:\s|;|$)")
# \%regex% addresses (any delimiter) are not read above: a script that uses one is treated as unknown.
_SED_ODD_ADDRESS = re.compile(r"(?:^|[;\n{}])\s*\\[^a-zA-Z0-9\s]")
_SED_SUBST_FLAGS = re.compile(r"s(.)(?:(?!\1)[^\\]|\\.)*\1(?:(?!\1)[^\\]|\\.)*\1([a-zA-Z0-9]*)")
_SED_WRITE = re.compile(rf"(?:^|[;\n{{}}])\s*{_RANGE}[wW]\s+\S")
# awk: system(), pipes to and from commands, print/printf into files.
_AWK_RISK = re.compile(r"\bsystem\s*\(|\|\s*getline|\|&|\bprintf?\b[^;{}]*?(?:\||>)")


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
            if _SED_ODD_ADDRESS.search(script):
                return [Rider("e", (script,), "the sed script uses an address form the classifier does not read")]
            flags = "".join(match.group(2) for match in _SED_SUBST_FLAGS.finditer(script))
            if _SED_EXEC.search(script) or "e" in flags:
                return [Rider("e", (script,), "the sed script runs shell commands (the e command or flag)")]
            if _SED_WRITE.search(script) or "w" in flags:
                return [Rider("w", (script,), "the sed script writes files (the w command or flag)")]
    elif kind == "awk":
        program = _scripts(args, "--source", "--source", from_file=("-f", "--file"), values=_SCRIPT_VALUES["awk"])
        if program is None:
            return []  # awk -f: a rider of its own (RISKS)
        if program and _AWK_RISK.search(program[0]):
            return [Rider("system", (program[0],), "the awk program runs commands or writes files")]
    return []
