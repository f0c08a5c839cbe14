"""Reading shell words the way bash will: ANSI-C strings, wrappers and their options, inline scripts, expansions.

Helpers of ``classifier``; pure functions of text and bashlex nodes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from zeph_nb.shell.rules import KEYWORDS

__all__ = [
    "ARITHMETIC",
    "DEFINED_NAMES",
    "DYNAMIC",
    "HARMLESS_VARIABLES",
    "INTERPRETER",
    "KEYWORDS",
    "LINE_CHANGERS",
    "READ_COMMAND",
    "SHELLS",
    "SHELL_CALL",
    "STRING_LITERAL",
    "WRAPPERS",
    "decode_ansi_c",
    "defined_names",
    "heredocs_of",
    "inline_script",
    "parameter_name",
    "parts",
    "program_path",
    "read_names",
    "skip_options",
    "wrapped_script",
]

SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "mksh", "fish", "ash", "tcsh", "csh"})
INTERPRETER = re.compile(r"^(python[\d.]*|pypy[\d.]*|perl|ruby|node|nodejs|php|lua|rscript)$")
SHELL_CALL = re.compile(
    r"\b(os\.system|os\.popen|os\.exec\w*|os\.spawn\w*|subprocess|pty\.spawn|commands\.)|`|\bsystem\s*\(|\bexec\s*\(|child_process|\bspawn\s*\(|\bexecSync\b|\bshell_exec\b|\bpassthru\b"
)
STRING_LITERAL = re.compile(r"\"((?:[^\"\\]|\\.)*)\"|'((?:[^'\\]|\\.)*)'")
# Names a command line sets itself (x=1, for x in, read x, local x): expanding them reads nothing from outside.
DEFINED_NAMES = re.compile(
    r"(?:^|[\s;&|(])(?:([A-Za-z_]\w*)(?:\[[^\]]*\])?\+?=|(?:for|select)\s+([A-Za-z_]\w*)\b)"
    r"|\b(?:local|declare|typeset|mapfile|readarray|getopts\s+\S+)((?:\s+-\w+)*(?:\s+[A-Za-z_]\w*)+)"
)
# `read`'s words up to the end of its simple command (quoted words whole): its options take arguments, so the
# names it sets are worked out by read_names, not by a pattern (`read -p "Name: " name`, `read -t 5 -n1 key`).
READ_COMMAND = re.compile(
    # in command position only (`echo read it` sets nothing), after at most an IFS= prefix (`while IFS= read -r l`):
    # a longer run of prefixes would make the pattern rescan them from every start, and such a line just asks.
    r"(?:^|[;&|(\n{!]|\b(?:then|do|else|if|while|until|time)\b)[ \t]*(?:IFS=(?:'[^']*'|\"[^\"]*\"|[^\s;&|]*)[ \t]+)?"
    r"read\b((?:[ \t]+(?:'[^']*'|\"(?:[^\"\\]|\\.)*\"|[^\s;&|()<>'\"]+)+)*)"
)
_READ_WORD = re.compile(r"(?:'[^']*'|\"(?:[^\"\\]|\\.)*\"|[^\s'\"]+)+")
_READ_TAKES_ARGUMENT = frozenset("adinNptu")  # bash's read: -a array -d delim -i text -n/-N count -p prompt -t -u
_NAME = re.compile(r"[A-Za-z_]\w*")


def read_names(words: str) -> list[str]:
    """The variables ``read <words>`` sets: its name operands and ``-a``'s array, whatever options come first
    (``-rsp 'pw: ' pw``, ``-n1``, ``-d ''``); an option's argument is not a name."""
    found = _READ_WORD.findall(words)
    names: list[str] = []
    i = 0
    while i < len(found):
        word = found[i]
        i += 1
        if word == "--":
            break
        if not word.startswith("-") or word == "-":
            i -= 1
            break
        for at, letter in enumerate(word[1:], start=1):
            if letter not in _READ_TAKES_ARGUMENT:
                continue
            argument = word[at + 1 :]
            if not argument and i < len(found):
                argument = found[i]
                i += 1
            if letter == "a" and _NAME.fullmatch(argument):
                names.append(argument)
            break
    names += [word for word in found[i:] if _NAME.fullmatch(word)]
    return names


def defined_names(script: str) -> Iterator[re.Match[str]]:
    """``DEFINED_NAMES.finditer(script)``, in time linear in the script.

    From each ``name[`` the pattern scans to the next ``]``; where that ``]`` is not followed by ``=`` or ``+=`` it
    finds nothing, and ``echo a[ a[ a[ …`` scanned the rest of the line from every one. Such a ``[`` is replaced by
    a NUL first, which every part of the pattern reads as it reads ``[`` except the subscript it cannot open: the
    same names, found at once."""
    if "[" not in script:
        return DEFINED_NAMES.finditer(script)
    text = list(script)
    close = -1  # the `]` after the brackets met so far (len(script): none), found once for all of them
    for match in re.finditer(r"\[", script):
        if match.start() > close:
            found = script.find("]", match.start() + 1)
            close = found if found >= 0 else len(script)
        if not script.startswith(("=", "+="), close + 1):
            text[match.start()] = "\x00"
    return DEFINED_NAMES.finditer("".join(text))


DYNAMIC = frozenset({"parameter", "commandsubstitution", "processsubstitution"})
# Builtins that change what later commands of the same line run.
LINE_CHANGERS = {
    "alias": "defines an alias, which changes what a later command runs",
    "hash": "hash -p makes a command name run another program",
    "enable": "enable -f loads a builtin from a shared library",
}

# $((…)) with one level of nested parentheses inside.
ARITHMETIC = re.compile(r"\$\(\((?:[^()]|\([^()]*\))*\)\)")

# Where the system's programs live: a command word under these is the program its name says.
_SYSTEM_BIN = ("/usr/", "/bin/", "/sbin/", "/opt/", "/nix/", "/snap/")


def program_path(word: str) -> str:
    """The command word as written when it names a program by a path outside the system's folders (``./git``,
    ``/tmp/x/git``); such a command is not the program a rule for its name means. "" otherwise."""
    if "/" not in word or word.startswith(_SYSTEM_BIN):
        return ""
    return word


def wrapped_script(name: str, args: list[str]) -> str | None:
    """The command line a wrapper runs through a shell: ``flock F -c CMD``, ``flock F --command CMD``,
    ``script -qc CMD FILE``, ``script --command CMD``."""
    if name not in ("flock", "script"):
        return None
    for i, arg in enumerate(args):
        if arg in ("-c", "--command") and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith("--command="):
            return arg.split("=", 1)[1]
        if name == "script" and re.match(r"^-[A-Za-z]*c", arg) and not arg.startswith("--"):
            rest = arg[arg.index("c") + 1 :]
            return rest or (args[i + 1] if i + 1 < len(args) else "")
    return None


# Wrappers: (options that take a value, positional arguments before the wrapped command).
WRAPPERS: dict[str, tuple[frozenset[str], int]] = {
    "nice": (frozenset({"-n", "--adjustment"}), 0),
    "timeout": (frozenset({"-s", "--signal", "-k", "--kill-after"}), 1),
    "setpriv": (
        frozenset(
            {
                "--reuid",
                "--regid",
                "--groups",
                "--inh-caps",
                "--ambient-caps",
                "--bounding-set",
                "--securebits",
                "--pdeathsig",
                "--selinux-label",
                "--apparmor-profile",
                "--ruid",
                "--euid",
                "--rgid",
                "--egid",
                "--landlock-access",
                "--landlock-rule",
            }
        ),
        0,
    ),
    "unshare": (
        frozenset(
            {
                "--map-user",
                "--map-group",
                "--map-users",
                "--map-groups",
                "-S",
                "--setuid",
                "-G",
                "--setgid",
                "-w",
                "--wd",
                "-R",
                "--root",
                "--propagation",
                "--setgroups",
            }
        ),
        0,
    ),
    "chroot": (frozenset({"--userspec", "--groups"}), 1),
    "nohup": (frozenset(), 0),
    "time": (frozenset({"-f", "--format", "-o", "--output"}), 0),
    "command": (frozenset(), 0),
    "builtin": (frozenset(), 0),
    "exec": (frozenset({"-a"}), 0),
    "stdbuf": (frozenset({"-i", "-o", "-e", "--input", "--output", "--error"}), 0),
    "ionice": (frozenset({"-c", "-n", "-p", "-P", "-u", "--class", "--classdata", "--pid", "--pgid", "--uid"}), 0),
    "setsid": (frozenset(), 0),
    "chrt": (frozenset(), 1),
    "taskset": (frozenset(), 1),
    "unbuffer": (frozenset(), 0),
    "busybox": (frozenset(), 0),
    "strace": (
        frozenset(
            {
                "-o",
                "-e",
                "-p",
                "-s",
                "-u",
                "-E",
                "-P",
                "-a",
                "-b",
                "-I",
                "-X",
                "-O",
                "-S",
                "-U",
                "--output",
                "--trace-path",
                "--signal",
                "--status",
                "--user",
                "--env",
            }
        ),
        0,
    ),
    "ltrace": (frozenset({"-o", "-e", "-p", "-s", "-u", "-a", "-A", "-D", "-F", "-l", "-n", "-x", "--output"}), 0),
    "xargs": (
        frozenset(
            {
                "-I",
                "-n",
                "-P",
                "-L",
                "-d",
                "-s",
                "-a",
                "-E",
                "--max-args",
                "--max-procs",
                "--delimiter",
                "--arg-file",
                "--max-lines",
                "--max-chars",
                "--eof",
                "--process-slot-var",
            }
        ),
        0,
    ),
    "flock": (frozenset({"-w", "--timeout", "-E", "--conflict-exit-code"}), 1),
    "doas": (frozenset({"-u", "-C"}), 0),
    "sudo": (
        frozenset(
            {
                "-u",
                "-g",
                "-C",
                "-D",
                "-h",
                "-p",
                "-U",
                "-r",
                "-t",
                "--user",
                "--group",
                "--chdir",
                "--prompt",
                "--close-from",
                "--other-user",
                "--role",
                "--type",
                "--host",
            }
        ),
        0,
    ),
    "parallel": (
        frozenset({"-j", "--jobs", "-S", "--sshlogin", "-a", "--arg-file", "-d", "--delimiter", "--joblog", "-I"}),
        0,
    ),
}

# Expanding these reads nothing from the person's environment: bash's own counters and the special parameters.
# Every other $VAR (or ${VAR}) outside single quotes asks, unless the command line itself sets it.
HARMLESS_VARIABLES = frozenset(
    {"PWD", "RANDOM", "LINENO", "SECONDS", "BASHPID", "PPID", "UID", "EUID", "?", "#", "$", "!", "-",
     "@", "*", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}
)  # fmt: skip
_PARAMETER = re.compile(r"^[#!]?([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])")

_ANSI_C = re.compile(r"\$'((?:[^'\\]|\\.)*)'", re.DOTALL)
_SIMPLE_ESCAPES = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
                   "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}  # fmt: skip
_ESCAPE = re.compile(r"\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)", re.DOTALL)


def _unescape(match: re.Match[str]) -> str:
    code = match.group(1)
    head = code[0]
    if head in "xuU" and len(code) > 1:
        return chr(min(int(code[1:], 16), 0x10FFFF))
    if head.isdigit() and head in "01234567":
        return chr(int(code, 8) & 0xFF)
    if head == "c" and len(code) == 2:
        return chr(ord(code[1].upper()) & 0x1F)
    return _SIMPLE_ESCAPES.get(code, "\\" + code)


def decode_ansi_c(script: str) -> str:
    """``$'\\x63url'`` as bash reads it: the decoded text, single-quoted again so the parser sees a plain word.

    Only ``$'`` outside quotes starts one; a ``'…'`` and a ``"…"`` are skipped whole, so ``echo "$'x'"`` is kept.
    """
    if "$'" not in script:
        return script
    out: list[str] = []
    i = 0
    while i < len(script):
        ch = script[i]
        if ch == "\\":
            out.append(script[i : i + 2])
            i += 2
            continue
        if ch == "'":
            end = script.find("'", i + 1)
            end = len(script) - 1 if end < 0 else end
            out.append(script[i : end + 1])
            i = end + 1
            continue
        if ch == '"':
            j = i + 1
            while j < len(script) and script[j] != '"':
                j += 2 if script[j] == "\\" else 1
            out.append(script[i : j + 1])
            i = j + 1
            continue
        match = _ANSI_C.match(script, i) if ch == "$" else None
        if match:
            text = _ESCAPE.sub(_unescape, match.group(1))
            out.append("'" + text.replace("'", "'\\''") + "'")
            i = match.end()
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def parameter_name(value: str) -> str:
    """The variable a bashlex parameter node expands: ``HOME`` for ``$HOME``, ``${HOME:-x}`` and ``${#HOME}``."""
    match = _PARAMETER.match(value)
    return match.group(1) if match else ""


def heredocs_of(node: Any, source: str) -> list[tuple[str, bool]]:
    """(body, whether the delimiter is quoted) of each here-document of a command node parsed from ``source``."""
    found = []
    for part in node.parts:
        heredoc = getattr(part, "heredoc", None) if part.kind == "redirect" else None
        if heredoc is not None:
            start, end = part.output.pos if hasattr(part.output, "pos") else (0, 0)
            delimiter = source[start:end]
            found.append((heredoc.value.rsplit("\n", 1)[0], any(q in delimiter for q in "'\"\\")))
    return found


def parts(word: Any) -> list[Any]:
    found: list[Any] = []
    for part in getattr(word, "parts", []):
        found.append(part)
        found.extend(parts(part))
    return found


def skip_options(args: list[str], with_value: frozenset[str]) -> list[str]:
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            return args[i + 1 :]
        if not arg.startswith("-") or arg == "-":
            break
        if arg in with_value:
            i += 2
            continue
        if re.fullmatch(r"-\d+", arg):  # nice -10
            i += 1
            continue
        i += 1
    return args[i:]


# Shell options that take a value: bash -o errexit -c …, bash -O extglob -c ….
_SHELL_VALUES = frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"})


def inline_script(args: list[str], letter: str) -> str | None:
    """The script of ``sh -c SCRIPT`` / ``sh -lc SCRIPT`` / ``perl -e CODE``: the first operand after the flags."""
    seen_flag = False
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        if arg in _SHELL_VALUES:
            skip = True
            continue
        if arg.startswith("--"):
            continue
        if arg.startswith("-") and len(arg) > 1:
            if letter in arg[1:]:
                seen_flag = True
                rest = arg[arg.index(letter) + 1 :]
                if rest and letter == "e":  # perl -e'code'
                    return rest
            continue
        return arg if seen_flag else None
    return None
