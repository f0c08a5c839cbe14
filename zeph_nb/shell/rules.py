"""Per-command rules of the shell classifier: what is blocked, what is destructive, what only reads.

Pure functions of one ``SimpleCommand`` (name and arguments, quotes removed); ``classifier`` finds the
commands in a parsed command line and applies these to each.
"""

from __future__ import annotations

import posixpath
import re
import shlex
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from wcmatch import fnmatch

from zeph_nb.shell.options import subcommand

__all__ = [
    "ALWAYS_ALLOWED",
    "CONFIRM_PATTERNS",
    "CRITICAL_TARGETS",
    "KEYWORDS",
    "CommandEntry",
    "SimpleCommand",
    "blocked_reasons",
    "command_name",
    "destructive_reason",
    "names_blocked",
    "normal_target",
    "not_allowed",
    "operands",
    "reads_only",
    "short_flags",
    "syntax_pattern",
]

PRIVILEGE = frozenset({"sudo", "sudoedit", "su", "doas", "pkexec", "run0"})
DISK = frozenset({"mkfs", "fdisk", "sfdisk", "cfdisk", "parted", "wipefs", "mkswap", "blkdiscard", "mke2fs", "mkdosfs",
                  "mkntfs", "mkexfatfs", "mkfs.fat"})  # fmt: skip
POWER = frozenset({"shutdown", "reboot", "halt", "poweroff"})
NETWORK = frozenset(
    {
        "curl", "wget", "nc", "ncat", "netcat", "ssh", "scp", "sftp", "rsync", "telnet", "ftp", "socat",
        "aria2c", "http", "https", "httpie", "lynx", "w3m", "links", "nmap",
    }
)  # fmt: skip
# Targets that `rm -r` (and chmod/chown -R) must never touch.
CRITICAL_TARGETS = frozenset(
    {
        "/", "/*", "~", "~/", "~/*", "$HOME", "${HOME}", "$HOME/*", "${HOME}/*", "/home", "/root", "/etc", "/usr",
        "/var", "/bin", "/sbin", "/boot", "/lib", "/lib64", "/opt", "/srv", "/sys", "/proc", "/dev", "/mnt", "/media",
    }
)  # fmt: skip
RAW_DISK = re.compile(r"^/dev/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|md\d|dm-\d)")
SQL_DESTRUCTIVE = re.compile(r"\b(drop\s+(table|database|schema)|truncate\s+table)\b", re.IGNORECASE)


@dataclass(frozen=True)
class SimpleCommand:
    """One command the shell would run: its name (basename, lowercased) and arguments, quotes removed."""

    argv: tuple[str, ...]
    # Assignments in front of it that change what runs (GIT_PAGER=…): part of its text, so a rule for
    # "git *" does not match "GIT_PAGER=sh git log".
    prefix: tuple[str, ...] = ()
    # The command word as written when it is a path outside the system's folders (``./git``): part of its text,
    # so a rule for "git *" does not match a program in the working directory that is merely named git.
    program: str = ""
    written: str = field(default="", compare=False)  # the command word as written (quotes removed)

    @property
    def name(self) -> str:
        return self.argv[0] if self.argv else ""

    @property
    def text(self) -> str:
        return " ".join((*self.prefix, self.program or self.name, *self.argv[1:]))


def short_flags(args: Iterable[str]) -> set[str]:
    """Every flag letter and long flag: ``-rf`` and ``-r -f`` both give {"-r", "-f"}."""
    flags: set[str] = set()
    for arg in args:
        if arg == "--":
            break
        if arg.startswith("--"):
            flags.add(arg.split("=", 1)[0])
        elif arg.startswith("-") and len(arg) > 1:
            flags.update(f"-{letter}" for letter in arg[1:])
    return flags


def operands(args: Sequence[str]) -> list[str]:
    out: list[str] = []
    after_dashdash = False
    for arg in args:
        if arg == "--" and not after_dashdash:
            after_dashdash = True
        elif after_dashdash or not arg.startswith("-") or arg == "-":
            out.append(arg)
    return out


def normal_target(path: str) -> str:
    """``//``, ``/./``, ``/usr/`` and ``/usr/../usr`` all name what they name; ``~`` forms are kept as written."""
    if not path.startswith("/"):
        if path.startswith("~/") and path != "~/":
            rest = posixpath.normpath(path[2:])  # ~/./* is ~/*, ~/a/.. is ~
            return "~" if rest == "." else "~/" + rest
        return path
    glob_suffix = path.endswith("/*")
    base = path[:-2] if glob_suffix else path
    normal = "/" + posixpath.normpath(base or "/").lstrip("/")
    return (normal.rstrip("/") + "/*") if glob_suffix else normal


def command_name(word: str) -> str:
    """The name a command word runs, as the blocklist compares it: without its path, lower case, and with
    look-alike characters folded (a fullwidth sudo is sudo)."""
    return unicodedata.normalize("NFKC", posixpath.basename(word)).lower() if word else word


class CommandEntry:
    """A ``blocked_commands`` or ``confirm_patterns`` entry that names a command: ``nc``, ``git push --force``.

    It matches a simple command whose name (without its path) is the entry's first word — a glob is allowed
    (``mkfs.*``) — and whose arguments include every other word of the entry, in any order, flags however they are
    spelled (``-fr`` is ``-r -f``). It never matches a substring of an argument or of another name: ``nc`` does not
    match ``ncdu``, ``cat include/nc.h`` or ``grep nc``. With ``phrases`` (confirm patterns only), a multi-word entry
    also matches when an argument of a command that runs text (``psql -c "DROP TABLE t"`` for ``drop table``)
    carries the phrase; in grep's or echo's arguments it is only text, and a blocklist entry never does.
    """

    def __init__(self, entry: str, *, phrases: bool = False) -> None:
        self.entry = entry
        self.phrases = phrases
        self.phrase = " ".join(entry.lower().split())
        try:
            words = shlex.split(entry)
        except ValueError:
            words = entry.split()
        self.name = command_name(words[0]) if words else ""
        self.glob = any(ch in self.name for ch in "*?[")
        self.flags = short_flags(words[1:])
        self.operands = [w.lower() for w in operands(words[1:])]

    def matches(self, command: SimpleCommand) -> bool:
        if not self.name:
            return False
        if (
            self.phrases
            and " " in self.phrase
            and runs_text(command)
            and any(self.phrase in " ".join(arg.lower().split()) for arg in command.argv[1:])
        ):
            return True
        if not (fnmatch.fnmatch(command.name, self.name) if self.glob else command.name == self.name):
            return False
        args = command.argv[1:]
        present = {normal_target(a).lower() for a in operands(args)}
        wanted = {normal_target(o) for o in self.operands}
        return self.flags <= short_flags(args) and wanted <= present


# The default of [tools.shell] confirm_patterns (tests/shell pins it to the settings' default): this package knows
# nothing of the settings; the callers pass their values to ShellClassifier.
CONFIRM_PATTERNS = ("rm ", "git push -f", "git push --force", "drop table", "drop database", "truncate ", "$(", "`",
                    "<(", ">(", "<<<", "eval ")  # fmt: skip


def syntax_pattern(entry: str) -> bool:
    """A confirm pattern that names shell syntax (``$(``, a backtick, ``<<<``), not a command."""
    stripped = entry.strip()
    return bool(stripped) and not (stripped[0].isalnum() or stripped[0] in "._/")


_KILL_VALUE = frozenset({"-s", "-n", "--signal"})


def kill_targets(args: Sequence[str]) -> list[str]:
    """The process ids ``kill`` is given: after the signal (``-9``, ``-KILL``, ``-s TERM``, ``-n 9``) and ``--``."""
    i = 0
    if args[:1] and args[0] in ("-l", "-L", "--list", "--table"):
        return []
    while i < len(args):
        arg = args[i]
        if arg == "--":
            return [a.strip() for a in args[i + 1 :]]
        if arg in _KILL_VALUE:
            i += 2
            continue
        if i == 0 and arg.startswith("-") and len(arg) > 1:
            i += 1  # the first dashed word is the signal: -9, -KILL, -SIGTERM, -1 (HUP)
            continue
        return [a.strip() for a in args[i:]]  # bash's kill reads ' -1' as -1
    return []


def blocked_reasons(
    command: SimpleCommand, *, allow_network: bool, legacy: Sequence[CommandEntry] = (), name_only: bool = False
) -> list[str]:
    """Why the blocklist refuses ``command`` (empty: it does not). ``name_only`` looks at the name alone."""
    reasons: list[str] = []
    name, args = command.name, command.argv[1:]
    if name in PRIVILEGE:
        reasons.append(f"blocked: {name} (privilege escalation)")
    elif name in DISK or name.startswith("mkfs."):
        reasons.append(f"blocked: {name} (disk formatting)")
    elif name in POWER:
        reasons.append(f"blocked: {name}")
    elif name in NETWORK and not allow_network:
        reasons.append(f"blocked: {name} (network clients are off: allow_network = false)")
    if name_only:
        return reasons
    flags = short_flags(args)
    targets = {normal_target(t) for t in operands(args)}
    recursive = bool(flags & {"-r", "-R", "--recursive"})
    if name == "rm" and ((recursive and targets & CRITICAL_TARGETS) or "--no-preserve-root" in flags):
        reasons.append(f"blocked: rm -r of {', '.join(sorted(targets & CRITICAL_TARGETS)) or '/'}")
    if name in ("chmod", "chown", "chgrp") and recursive and targets & CRITICAL_TARGETS:
        reasons.append(f"blocked: {name} -R on a system directory")
    if name == "mv" and targets & CRITICAL_TARGETS:
        reasons.append("blocked: mv of a system or home directory")
    if name == "dd" and any(a.startswith("of=/dev/") and RAW_DISK.match(a[3:]) for a in args):
        reasons.append("blocked: dd onto a raw disk")
    if name == "kill":
        pids = kill_targets(args)
        if "-1" in pids:
            reasons.append("blocked: kill -1 (every process this user may signal)")
        elif "0" in pids:
            reasons.append("blocked: kill 0 (the caller's whole process group)")
        elif any(re.fullmatch(r"-\d+", t) for t in pids):
            reasons.append("blocked: kill of a process group (a negative process id)")
    if name == "systemctl" and set(args) & {"poweroff", "reboot", "halt", "kexec"}:
        reasons.append("blocked: systemctl power action")
    for rule in legacy:
        if rule.matches(command):
            reasons.append(f"blocked: matches blocked_commands entry {rule.entry!r}")
    return reasons


# Reserved words: what follows one is the command (``do sudo``), or its argument (``do echo sudo``).
KEYWORDS = frozenset({"if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "in", "case",
                      "esac", "time", "!", "function", "select", "coproc", "{", "}", "[[", "]]"})  # fmt: skip


def names_blocked(script: str, *, allow_network: bool, legacy: Sequence[CommandEntry] = ()) -> list[str]:
    """Why the blocklist refuses a line that was not read in full (bashlex gave up on ``case`` blocks, ``[[ ]]`` or
    odd syntax, or the analysis ran out of its budget), by names alone: the first word of each segment between
    separators, after keywords (``do echo sudo`` is echo's argument, not sudo)."""
    reasons: list[str] = []
    for segment in re.split(r"[;&|()`{}\n]+|\$\(", script):
        words = segment.split()
        while words and words[0] in KEYWORDS:
            words = words[1:]
        if not words:
            continue
        word = words[0].strip("'\"\\$")
        if word:
            command = SimpleCommand((command_name(word),))
            reasons.extend(blocked_reasons(command, allow_network=allow_network, name_only=True))
            reasons.extend(f"blocked: matches blocked_commands entry {entry.entry!r}" for entry in legacy
                           if not entry.flags and not entry.operands and entry.matches(command))  # fmt: skip
    return reasons


def destructive_reason(command: SimpleCommand) -> str | None:
    """What makes ``command`` destructive enough to ask first, if anything."""
    name, args = command.name, list(command.argv[1:])
    flags = short_flags(args)
    reason = None
    if name == "rm" and flags & {"-r", "-R", "--recursive", "-f", "--force"}:
        reason = "rm -r/-f"
    elif name in ("shred", "truncate", "wipe", "srm"):
        reason = name
    elif name == "git" and args:
        index, sub = subcommand(name, args)
        args = args[index:] if index >= 0 else []
        if sub == "push" and (flags & {"-f", "--force", "--force-with-lease", "--mirror", "-d", "--delete"}
                              or any(a.startswith("+") for a in args[1:])):  # fmt: skip
            reason = "git push --force/--delete"
        elif sub == "reset" and "--hard" in flags:
            reason = "git reset --hard"
        elif sub == "clean" and flags & {"-f", "--force"}:
            reason = "git clean -f"
        elif sub == "branch" and flags & {"-D"}:
            reason = "git branch -D"
        elif sub in ("checkout", "restore") and ("." in args[1:] or "--" in args[1:]):
            reason = f"git {sub} discarding changes"
    elif name in ("chmod", "chown", "chgrp") and flags & {"-R", "--recursive"}:
        reason = f"{name} -R"
    elif name in ("pkill", "killall") or (name == "kill" and flags & {"-9", "-KILL"}):
        reason = name
    elif name in ("dd",):
        reason = "dd"
    elif name == "terraform" and (
        "destroy" in operands(args)[:1] or ("apply" in operands(args)[:1] and "-destroy" in args)
    ):
        reason = "terraform destroy"
    elif name == "kubectl" and subcommand(name, args)[1] == "delete":
        reason = "kubectl delete"
    elif name in ("docker", "podman") and _after_sub(name, args)[:2] in (
        ["system", "prune"], ["volume", "prune"], ["image", "prune"], ["container", "prune"]
    ):  # fmt: skip
        reason = "docker prune"
    elif name == "crontab" and "-r" in flags:
        reason = "crontab -r"
    if reason is None and runs_text(command) and SQL_DESTRUCTIVE.search(command.text):
        reason = "SQL DROP/TRUNCATE"
    return f"destructive: {reason}" if reason else None


# Commands that run an argument as code (SQL clients, interpreters' -c/-e): a phrase in their arguments is a
# statement, where in grep's or echo's it is only text.
TEXT_RUNNERS = frozenset({"psql", "mysql", "mariadb", "sqlite3", "duckdb", "sqlcmd", "clickhouse-client", "cqlsh",
                          "mongo", "mongosh", "redis-cli", "snowsql", "bq", "trino", "presto", "spark-sql", "hive",
                          "beeline", "osqueryi"})  # fmt: skip


def runs_text(command: SimpleCommand) -> bool:
    name = command.name
    if name in TEXT_RUNNERS:
        return True
    return bool(re.match(r"^(python[\d.]*|pypy[\d.]*|perl|ruby|node|nodejs|php|lua|bash|sh|zsh|dash)$", name))


def _after_sub(name: str, args: Sequence[str]) -> list[str]:
    index, _ = subcommand(name, args)
    return list(args[index:]) if index >= 0 else []


READ_ONLY = frozenset(
    {
        "ls", "cat", "head", "tail", "grep", "egrep", "fgrep", "rg", "wc", "echo", "printf", "pwd", "which", "type",
        "stat", "file", "du", "df", "ps", "env", "printenv", "date", "tree", "less", "more", "sort", "uniq", "cut",
        "diff", "cmp", "md5sum", "sha1sum", "sha256sum", "true", "false", "test", "[", "id", "whoami", "uname",
        "hostname", "basename", "dirname", "realpath", "readlink", "jq", "column", "nl", "od", "xxd", "hexdump",
        "tr", "seq", "sleep", "cd",
    }
)  # fmt: skip
GIT_READ_ONLY = frozenset({"status", "log", "diff", "show", "blame", "rev-parse", "ls-files", "describe", "grep"})


def reads_only(command: SimpleCommand) -> bool:
    name, args = command.name, command.argv[1:]
    if name == "git":
        return subcommand(name, args)[1] in GIT_READ_ONLY
    if name == "find":
        return not set(args) & {"-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprintf", "-fls"}
    if name == "sed":
        return not any(a.startswith("-i") or a == "--in-place" for a in args)
    return name in READ_ONLY


# What allowed_commands never needs to name: moving around and ending, which run nothing.
ALWAYS_ALLOWED = frozenset({"cd", "pwd", "true", "false", "exit", ":"})


def not_allowed(commands: Iterable[SimpleCommand], allowed: Sequence[CommandEntry], *, parsed: bool) -> list[str]:
    """Why a line is blocked under ``[tools.shell] allowed_commands`` (``allowed``): each of its simple commands that
    no entry matches, a program in the working directory merely named like an allowed one (``./ls``), or the whole
    line when it could not be parsed (it cannot be checked, so it does not run)."""
    if not parsed:
        return ["blocked: the command could not be parsed, so it cannot be checked against [tools.shell] "
                "allowed_commands"]  # fmt: skip
    reasons = []
    for simple in commands:
        if simple.program:
            reasons.append(f"blocked: {simple.program!r} is not in [tools.shell] allowed_commands")
        elif simple.name not in ALWAYS_ALLOWED and not any(entry.matches(simple) for entry in allowed):
            why = f"blocked: {simple.name!r} is not in [tools.shell] allowed_commands"
            reasons.append(why if simple.text == simple.name else f"{why} (as used in {simple.text!r})")
    return reasons
