"""Which arguments of a simple command are paths, and whether the command reads or writes them.

Pure: one command's words in, ``PathUse`` values out; the tools layer resolves them against the working directory
and ``[tools.shell] allowed_paths``. The reading errs towards "a path": a word that only looks like one and names
nothing outside the allowed paths costs nothing, while a path missed is a write nobody was asked about. Words that
are not paths by position are skipped: the pattern of ``grep``, the script of ``sed`` and ``awk``, ``echo``'s text,
the code of ``python -c``, URLs. A word with an expansion in it is kept with ``unknown`` set; the classifier fills in
the variables the line itself sets (``f=/etc/x; cat $f``, ``for f in *.txt``) and the rest ask.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from zeph_nb.shell.options import family, subcommand
from zeph_nb.shell.rules import SimpleCommand

__all__ = ["PathUse", "path_uses", "redirect_use"]

Mode = Literal["read", "write", "use"]


@dataclass(frozen=True)
class PathUse:
    """``word`` as written (quotes removed: ``~/.bashrc``, ``../x``, ``/etc/hosts``); ``mode``: read, write, or use
    (a command that may do either); ``command``: the command that names it (``>`` for a redirection)."""

    word: str
    mode: Mode
    command: str
    # The word's value is not known before the command runs ($(…), a variable from the environment, ~-): no
    # check can show it is inside the allowed paths, so it asks.
    unknown: bool = False


NOT_PATHS = frozenset(
    {
        "echo", "printf", "export", "declare", "typeset", "local", "readonly", "read", "kill", "pkill", "killall",
        "sleep", "seq", "expr", "date", "alias", "unalias", "type", "which", "hash", "exit", "return", "set",
        "unset", "shift", "trap", "ulimit", "umask", "wait", "jobs", "bg", "fg", "let", "getopts", "true", "false",
        "printenv", "id", "whoami", "uname", "hostname", "basename", "dirname", "command", "builtin", "eval",
        "xargs-input", "tr", "yes", "shopt", "enable", "mapfile", "readarray", "popd", "dirs",
        # wrappers: the command they run is examined on its own
        "env", "nice", "timeout", "nohup", "time", "stdbuf", "ionice", "setsid", "chrt", "taskset", "unbuffer",
        "xargs", "flock", "doas", "sudo", "parallel", "watch", "strace", "ltrace", "exec", "busybox", "setpriv",
        "unshare", "script",
    }
)  # fmt: skip
READS = frozenset(
    {
        "ls", "cat", "head", "tail", "less", "more", "wc", "stat", "file", "du", "df", "tree", "sort", "uniq", "cut",
        "diff", "cmp", "md5sum", "sha1sum", "sha256sum", "sha512sum", "nl", "od", "xxd", "hexdump", "column",
        "realpath", "readlink", "grep", "egrep", "fgrep", "rg", "ag", "jq", "cd", "pushd", "test", "[", "source",
        ".", "strings", "base64", "zcat", "bat", "tac", "comm", "paste", "join", "fold", "fmt", "iconv", "awk",
        "find", "sed", "lsof", "pwd",
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
_GREP_VALUES = frozenset({"-e", "--regexp", "-m", "--max-count", "-A", "-B", "-C", "--context", "-d", "-D",
                          "--label", "--include", "--exclude", "--exclude-dir", "--color"})  # fmt: skip
_RG_VALUES = frozenset({"-e", "--regexp", "-m", "--max-count", "-A", "-B", "-C", "--context", "-t", "--type", "-T",
                        "--type-not", "-g", "--glob", "--iglob", "-M", "--max-columns", "-j", "--threads", "-r",
                        "--replace", "--sort", "--sortr", "-E", "--encoding", "--engine", "--color"})  # fmt: skip
# Options whose next word is a value that is not a path, per command (every other word may be a path).
VALUES: dict[str, frozenset[str]] = {
    "grep": _GREP_VALUES, "egrep": _GREP_VALUES, "fgrep": _GREP_VALUES, "rg": _RG_VALUES, "ag": _RG_VALUES,
    "sed": frozenset({"-e", "--expression", "-l", "--line-length"}),
    "awk": frozenset({"-F", "--field-separator", "-v", "--assign", "-e", "--source", "-W"}),
    "sort": frozenset({"-k", "--key", "-t", "--field-separator", "-S", "--buffer-size", "--parallel"}),
    "cut": frozenset({"-d", "--delimiter", "-f", "--fields", "-c", "--characters", "-b", "--bytes"}),
    "head": frozenset({"-n", "--lines", "-c", "--bytes"}), "tail": frozenset({"-n", "--lines", "-c", "--bytes"}),
    "jq": frozenset({"--arg", "--argjson", "--indent"}),
    "python": frozenset({"-W", "-X", "-m"}),
    "git": frozenset({"-m", "--message", "-n", "--max-count", "--author", "--grep", "--since", "--until", "-b",
                      "-B", "--format", "--pretty", "-L", "-S", "-G", "-U", "--unified"}),
    "ls": frozenset({"-I", "--ignore", "--hide", "-w", "--width", "-T", "--tabsize", "--block-size", "--sort",
                     "--time", "--time-style", "--color", "--format", "--indicator-style", "--quoting-style"}),
    "du": frozenset({"-d", "--max-depth", "-B", "--block-size", "-t", "--threshold", "--exclude"}),
    "tree": frozenset({"-L", "-P", "-I", "--charset"}),
    "pytest": frozenset({"-k", "-m", "-n", "--maxfail", "--tb", "-W", "--durations", "-r"}),
    "xxd": frozenset({"-l", "-s", "-c", "-g"}), "od": frozenset({"-t", "-N", "-j", "-w", "-A"}),
    "diff": frozenset({"-U", "--unified", "-C", "--context", "-I", "--ignore-matching-lines", "--label", "-x",
                       "--exclude", "-W", "--width"}),
}  # fmt: skip
# --name=VALUE options whose value is a file or folder (other --name=/x values, a --grep=/api, are not paths): an
# option spelled -name or --name (as `$` reads, a final newline may follow) that holds one of these words. Two
# checks, not `^--?[\w-]*(file|…)[\w-]*$`, which tried every place a word occurs and read on from each.
_OPTION_SPELLING = re.compile(r"-[\w-]*\n?\Z")
_PATH_OPTION_WORD = re.compile(
    r"file|dir|directory|path|output|out|log|config|conf|root|prefix|target|dest|destination|template|"
    r"basetemp|junitxml|junit-xml|report|cache|tmp|home|exec-path|git-dir|work-tree|cwd|input|from|rcfile|"
    r"settings|include|load"
)
_OUTPUT_OPTION = re.compile(r"^--?(output|output-file|output-directory|out|log-file|logfile|dest|destination|target|"
                            r"prefix|root|basetemp|junitxml|junit-xml|report-log|html|cov-report|directory-prefix|"
                            r"target-directory)$")  # fmt: skip
_CHDIR = frozenset({"make", "gmake", "tar", "npm", "pnpm", "ninja", "cmake", "bsdtar"})
_WRITES_O = frozenset({"sort", "gcc", "cc", "clang", "g++", "c++", "curl", "pandoc", "ld", "as", "go", "zip"})
_TARGET_DIR = frozenset({"cp", "mv", "install", "ln"})  # -t DIR: where they write
_URL = re.compile(r"^[a-z][a-z0-9+.-]*://|^[\w.-]+@[\w.-]+:", re.IGNORECASE)
_EXPANSION = re.compile(r"[$`]|^~-")


def _path_word(word: str) -> bool:
    """A word that could name a file: not a URL, not find's {} placeholder, not empty."""
    # <(…) and >(…) become /dev/fd/N; the commands inside are examined on their own.
    return bool(word) and word != "{}" and not _URL.match(word) and not word.startswith(("<(", ">("))


def _home_form(word: str) -> str:
    """``$HOME/x`` and ``${HOME}/x`` name the same file as ``~/x``; ``~+`` is the current folder. Read them so, so
    the home's protected paths are seen (a variable from the environment asks as well)."""
    for form in ("${HOME}", "$HOME"):
        if word == form or word.startswith(form + "/"):
            return "~" + word[len(form) :]
    if word == "~+" or word.startswith("~+/"):
        return "." + word[2:]
    return word


def use(word: str, mode: Mode, name: str) -> PathUse:
    """A path use of ``word``; ``unknown`` when an expansion decides its value."""
    word = _home_form(word)
    return PathUse(word, mode, name, unknown=bool(_EXPANSION.search(word)))


def _mode(name: str) -> Mode:
    if name in WRITES_ALL:
        return "write"
    if name in READS:
        return "read"
    return "use"


def _option_path(arg: str, name: str) -> PathUse | None:
    """``--output=/x`` and ``--config=../y`` name paths; ``--grep=/api`` and ``--delimiter=/`` do not."""
    if not arg.startswith("-") or "=" not in arg:
        return None
    option, value = arg.split("=", 1)
    if not value or not _path_word(value) or not _path_option(option):
        return None
    return use(value, "write" if _OUTPUT_OPTION.match(option) else "read", name)


def _path_option(option: str) -> bool:
    return bool(_OPTION_SPELLING.match(option)) and bool(_PATH_OPTION_WORD.search(option))


def _attached(arg: str, name: str) -> PathUse | None:
    """``-o../out``, ``-C/etc``, ``-t../dir``: a path written right after a short option."""
    if len(arg) <= 2 or arg.startswith("--"):
        return None
    option, value = arg[:2], arg[2:]
    if option in ("-o", "-O") and name in (*_WRITES_O, "wget"):
        return use(value, "write", name)
    if option == "-C" and name in _CHDIR:
        return use(value, "use", name)
    if option == "-t" and name in _TARGET_DIR:
        return use(value, "write", name)
    return None


def _writes_next(option: str, name: str) -> bool:
    """``sort -o FILE``, ``wget -O FILE``, ``cp -t DIR``, ``--output FILE``: the next word is written."""
    return (
        (option in ("-o", "-O") and name in (*_WRITES_O, "wget"))
        or (option == "-t" and name in _TARGET_DIR)
        or bool(_OUTPUT_OPTION.match(option))
    )


def _skipped(name: str, kind: str, args: list[str]) -> set[int]:
    """The positions that are not paths: a grep pattern, a sed script, git's subcommand, find's expression."""
    skip: set[int] = set()
    if kind in SCRIPT_FIRST and not any(a.split("=", 1)[0] in SCRIPT_FIRST[kind] for a in args):
        values = VALUES.get(kind, frozenset())
        i = 0
        while i < len(args):
            if args[i] in values:
                i += 2
                continue
            if not args[i].startswith("-"):
                skip.add(i)
                break
            i += 1
    if kind == "git":
        index, _ = subcommand(name, args)
        skip.update(range(0, index + 1 if index >= 0 else len(args)))
        if "-C" in args[: max(index, 0)]:
            skip.discard(args.index("-C") + 1)
    if kind == "find":
        # find's start points come first; the expression after them names patterns, not paths.
        start = next((i for i, a in enumerate(args) if a.startswith(("-", "(", "!"))), len(args))
        skip.update(range(start, len(args)))
        for i in range(start, len(args) - 1):
            if args[i] in ("-newer", "-samefile", "-anewer", "-cnewer"):
                skip.discard(i + 1)
    return skip


def path_uses(command: SimpleCommand) -> list[PathUse]:
    """The path arguments of one command, each with how the command uses it."""
    name = command.name
    kind = family(name)
    args = list(command.argv[1:])
    if name in ("cd", "pushd") and not [a for a in args if not a.startswith("-") or a == "-"]:
        return [PathUse("~", "read", name)]  # cd alone goes home
    if not args or name in NOT_PATHS:
        return []
    if any(a.startswith("-") and not a.startswith("--") and ("c" in a or "e" in a) for a in args[:3]) and (
        kind in ("python", "bash", "sh", "zsh", "dash", "ksh", "perl", "ruby", "node")
    ):
        return []  # python -c CODE, bash -c SCRIPT, perl -e CODE: the script is examined as commands
    if name in ("dd",):
        return [use(a[3:], "write" if a.startswith("of=") else "read", name)
                for a in args if a.startswith(("if=", "of=")) and _path_word(a[3:])]  # fmt: skip
    skip = _skipped(name, kind, args)
    values = VALUES.get(kind, frozenset())
    mode = _mode(name)
    if kind == "sed" and any(re.match(r"^-[A-Za-z]*i", a) or a.startswith("--in") for a in args):
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
        elif arg == "-" and name in ("cd", "pushd"):
            uses.append(PathUse("~-", "read", name, unknown=True))  # cd - goes to $OLDPWD
        elif arg.startswith("-") and not after_dashdash and arg != "-":
            found = _option_path(arg, name) or _attached(arg, name)
            if found is not None:
                uses.append(found)
            elif arg in ("-C", "--directory") and name in _CHDIR and i + 1 < len(args):
                if _path_word(args[i + 1]):  # make -C DIR, tar -C DIR: where the command reads and writes
                    uses.append(use(args[i + 1], "use", name))
                i += 1
            elif _writes_next(arg, name) and i + 1 < len(args):
                if _path_word(args[i + 1]):
                    uses.append(use(args[i + 1], "write", name))
                i += 1
            elif arg in values:
                i += 1
        elif _path_word(arg) and arg != "-":
            operands.append(len(uses))
            uses.append(use(arg, mode, name))
        i += 1
    if name in WRITES_LAST and len(operands) >= 2 and not any(_writes_next(a, name) for a in args):
        last = operands[-1]
        uses = [PathUse(u.word, "write" if j == last else "read", name, u.unknown) if j in operands else u
                for j, u in enumerate(uses)]  # fmt: skip
    return uses


def redirect_use(kind: str, target: str) -> PathUse | None:
    """The file a redirection reads or writes (``>``, ``>>``, ``&>``, ``>|``, ``<>``, ``<``), if it is one."""
    if not _path_word(target) or target in ("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin"):
        return None
    if target.isdigit() or target == "-":
        return None  # 2>&1, >&-: a file descriptor
    if kind in (">", ">>", ">|", "&>", "&>>", "<>", ">&"):
        return use(target, "write", ">")
    if kind == "<":
        return use(target, "read", "<")
    return None
