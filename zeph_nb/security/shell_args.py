"""Which arguments of a simple command are paths, and whether the command reads or writes them.

Pure: one command's words in, ``PathUse`` values out; the tools layer resolves them against the working directory
and ``[tools.shell] allowed_paths``. The reading errs towards "a path": a word that only looks like one and names
nothing outside the allowed paths costs nothing, while a path missed is a write nobody was asked about. Words that
are not paths by position are skipped: the pattern of ``grep``, the script of ``sed`` and ``awk``, ``echo``'s text,
the code of ``python -c``, URLs, and anything with an expansion in it (``$X`` asks on its own).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from zeph_nb.security.shell_options import family, subcommand
from zeph_nb.security.shell_rules import SimpleCommand

__all__ = ["PathUse", "path_uses", "redirect_use"]

Mode = Literal["read", "write", "use"]


@dataclass(frozen=True)
class PathUse:
    """``word`` as written (quotes removed: ``~/.bashrc``, ``../x``, ``/etc/hosts``); ``mode``: read, write, or use
    (a command that may do either); ``command``: the command that names it (``>`` for a redirection)."""

    word: str
    mode: Mode
    command: str


NOT_PATHS = frozenset(
    {
        "echo", "printf", "export", "declare", "typeset", "local", "readonly", "read", "kill", "pkill", "killall",
        "sleep", "seq", "expr", "date", "alias", "unalias", "type", "which", "hash", "exit", "return", "set",
        "unset", "shift", "trap", "ulimit", "umask", "wait", "jobs", "bg", "fg", "let", "getopts", "true", "false",
        "printenv", "id", "whoami", "uname", "hostname", "basename", "dirname", "command", "builtin", "eval",
        "xargs-input", "tr", "yes", "shopt", "enable", "mapfile", "readarray", "pushd", "popd", "dirs",
        # wrappers: the command they run is examined on its own
        "env", "nice", "timeout", "nohup", "time", "stdbuf", "ionice", "setsid", "chrt", "taskset", "unbuffer",
        "xargs", "flock", "doas", "sudo", "parallel", "watch", "strace", "ltrace", "exec", "busybox",
    }
)  # fmt: skip
READS = frozenset(
    {
        "ls", "cat", "head", "tail", "less", "more", "wc", "stat", "file", "du", "df", "tree", "sort", "uniq", "cut",
        "diff", "cmp", "md5sum", "sha1sum", "sha256sum", "sha512sum", "nl", "od", "xxd", "hexdump", "column",
        "realpath", "readlink", "grep", "egrep", "fgrep", "rg", "ag", "jq", "cd", "test", "[", "source", ".",
        "strings", "base64", "zcat", "bat", "tac", "comm", "paste", "join", "fold", "fmt", "iconv", "awk", "find",
        "sed", "lsof", "pwd",
    }
)  # fmt: skip
WRITES_ALL = frozenset(
    {"rm", "rmdir", "mkdir", "touch", "truncate", "shred", "unlink", "chmod", "chown", "chgrp", "tee", "mkfifo",
     "mknod", "mv", "srm", "wipe", "setfacl", "chattr"}
)  # fmt: skip
WRITES_LAST = frozenset({"cp", "ln", "install", "rsync", "scp", "link"})
# The first operand is a pattern or program unless one is given by option.
SCRIPT_FIRST: dict[str, frozenset[str]] = {
    "grep": frozenset({"-e", "--regexp", "-f", "--file"}),
    "egrep": frozenset({"-e", "--regexp", "-f", "--file"}),
    "fgrep": frozenset({"-e", "--regexp", "-f", "--file"}),
    "rg": frozenset({"-e", "--regexp", "-f", "--file"}),
    "ag": frozenset(),
    "sed": frozenset({"-e", "--expression", "-f", "--file"}),
    "awk": frozenset({"-f", "--file", "-e", "--source"}),
    "jq": frozenset({"-f", "--from-file"}),
}
# Options whose next word is a value that is not a path (so the word after it is not taken for one).
VALUE_NOT_PATH = frozenset(
    {"-e", "--regexp", "--expression", "-n", "-m", "--max-count", "-A", "-B", "-C", "--context", "-t", "--type",
     "-g", "--glob", "--include", "--exclude", "-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-type",
     "-maxdepth", "-mindepth", "-size", "-mtime", "-mmin", "-perm", "-user", "-group", "-printf", "-k", "-d",
     "--delimiter", "-F", "-v", "--source", "-u", "-s"}
)  # fmt: skip
_OUTPUT_OPTION = re.compile(
    r"^--?(output|output-file|output-directory|out|log-file|logfile|dest|destination|target|"
    r"prefix|root|basetemp|junitxml|junit-xml|report-log|html|cov-report|directory-prefix)$"
)
_CHDIR = frozenset({"make", "gmake", "tar", "npm", "pnpm", "ninja", "cmake", "bsdtar"})
_WRITES_O = frozenset({"sort", "gcc", "cc", "clang", "g++", "c++", "curl", "pandoc", "ld", "as", "go", "zip"})
_URL = re.compile(r"^[a-z][a-z0-9+.-]*://|^[\w.-]+@[\w.-]+:", re.IGNORECASE)
_EXPANSION = re.compile(r"[$`]|^<\(|^>\(")


def _plain(word: str) -> bool:
    return bool(word) and word != "{}" and not _EXPANSION.search(_home_form(word)) and not _URL.match(word)


def _home_form(word: str) -> str:
    """``$HOME/x`` and ``${HOME}/x`` name the same file as ``~/x``: read them so, so the home's protected paths
    are seen (a variable from the environment asks as well)."""
    for form in ("${HOME}", "$HOME"):
        if word == form or word.startswith(form + "/"):
            return "~" + word[len(form) :]
    return word


def _mode(name: str) -> Mode:
    if name in WRITES_ALL:
        return "write"
    if name in READS:
        return "read"
    return "use"


def _option_path(arg: str, name: str) -> PathUse | None:
    """``--output=/x`` names a path; so does ``--config=../y``."""
    if not arg.startswith("-") or "=" not in arg:
        return None
    option, value = arg.split("=", 1)
    if not value or not _plain(value) or not value.startswith(("/", "~", ".")):
        return None
    return PathUse(value, "write" if _OUTPUT_OPTION.match(option) else "read", name)


def _writes_next(option: str, name: str) -> bool:
    """``sort -o FILE``, ``wget -O FILE``, ``--output FILE``: the next word is a file written."""
    return (option in ("-o", "-O") and name in (*_WRITES_O, "wget")) or bool(_OUTPUT_OPTION.match(option))


def path_uses(command: SimpleCommand) -> list[PathUse]:
    """The path arguments of one command, each with how the command uses it."""
    name = command.name
    kind = family(name)
    args = list(command.argv[1:])
    if not args or name in NOT_PATHS:
        return []
    if any(a.startswith("-") and not a.startswith("--") and ("c" in a or "e" in a) for a in args[:3]) and (
        kind in ("python", "bash", "sh", "zsh", "dash", "ksh", "perl", "ruby", "node")
    ):
        return []  # python -c CODE, bash -c SCRIPT, perl -e CODE: the script is examined as commands
    if name in ("dd",):
        return [PathUse(a[3:], "write" if a.startswith("of=") else "read", name)
                for a in args if a.startswith(("if=", "of=")) and _plain(a[3:])]  # fmt: skip
    skip: set[int] = set()
    if kind in SCRIPT_FIRST and not any(a.split("=", 1)[0] in SCRIPT_FIRST[kind] for a in args):
        first = next((i for i, a in enumerate(args) if not a.startswith("-")), None)
        if first is not None:
            skip.add(first)
    if kind == "git":
        index, _ = subcommand(name, args)
        skip.update(range(0, index + 1 if index >= 0 else len(args)))
        if "-C" in args[: max(index, 0)]:
            at = args.index("-C") + 1
            skip.discard(at)
    if kind == "python" and "-m" in args:
        skip.update(range(args.index("-m"), args.index("-m") + 2))
    if kind == "find":
        # find's start points come first; the expression after them names patterns, not paths.
        start = next((i for i, a in enumerate(args) if a.startswith(("-", "(", "!"))), len(args))
        skip.update(range(start, len(args)))
        for i in range(start, len(args) - 1):
            if args[i] in ("-newer", "-samefile", "-anewer", "-cnewer"):
                skip.discard(i + 1)
    mode = _mode(name)
    if kind == "sed" and any(re.match(r"^-[A-Za-z]*i", a) or a.startswith("--in-place") for a in args):
        mode = "write"
    if kind == "find" and "-delete" in args:
        mode = "write"
    operands: list[int] = []
    uses: list[PathUse] = []
    after_dashdash = False
    i = 0
    while i < len(args):
        arg = args[i]
        if i in skip:
            i += 1
            continue
        if arg == "--" and not after_dashdash:
            after_dashdash = True
        elif arg.startswith("-") and not after_dashdash and arg != "-":
            found = _option_path(arg, name)
            if found is not None:
                uses.append(found)
            elif arg in ("-C", "--directory") and name in _CHDIR and i + 1 < len(args):
                if _plain(args[i + 1]):  # make -C DIR, tar -C DIR: where the command reads and writes
                    uses.append(PathUse(_home_form(args[i + 1]), "use", name))
                i += 1
            elif _writes_next(arg, name) and i + 1 < len(args):
                if _plain(args[i + 1]):
                    uses.append(PathUse(args[i + 1], "write", name))
                i += 1
            elif arg in VALUE_NOT_PATH:
                i += 1
        elif _plain(arg) and arg != "-":
            operands.append(len(uses))
            uses.append(PathUse(_home_form(arg), mode, name))
        i += 1
    if name in WRITES_LAST and len(operands) >= 2:
        last = operands[-1]
        uses = [PathUse(u.word, "write" if j == last else "read", name) if j in operands else u
                for j, u in enumerate(uses)]  # fmt: skip
    return uses


def redirect_use(kind: str, target: str) -> PathUse | None:
    """The file a redirection reads or writes (``>``, ``>>``, ``&>``, ``>|``, ``<>``, ``<``), if it is one."""
    target = _home_form(target)
    if not _plain(target) or target in ("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin") or target.isdigit():
        return None
    if kind in (">", ">>", ">|", "&>", "&>>", "<>", ">&"):
        return PathUse(target, "write", ">")
    if kind == "<":
        return PathUse(target, "read", "<")
    return None
