"""Classify a shell command as allow, confirm or block, by parsing it the way bash would.

String matching is easy to fool (``c''url``, ``/usr/bin/curl``, ``{rm,-rf,/}``, ``env curl``, ``$(curl …)``), so the
command is parsed with bashlex and every simple command is examined: in pipelines and lists, in subshells and
brace groups, in ``$(…)``, backticks and ``<(…)``/``>(…)``, in the scripts of ``bash -c``/``sh -c``, behind wrappers
that take arguments (``env``, ``nice -n 10``, ``timeout 5``, ``xargs``, ``find -exec``), and in string literals of
``python -c`` code that calls a shell.

Verdicts, worst wins:

* ``block`` — the unconditional blocklist (privilege escalation, disk formatting, ``rm -r`` of ``/`` or ``~``,
  writes to raw disks, fork bombs, the network clients when ``allow_network = false``, and the legacy
  ``blocked_commands``). Checked first, and also inside substitutions: blocked anywhere means blocked.
* ``confirm`` — what the classifier cannot see through (substitutions, here-strings, ``eval``, an expansion in
  command position, piping into a shell, a command it cannot parse) and destructive commands (``rm -rf``,
  ``git push --force``, ``DROP TABLE`` …), plus the legacy ``confirm_patterns``.
* ``allow`` — everything else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import bashlex
import bracex

from zeph_nb.security.shell_rules import (
    RAW_DISK,
    LegacyRule,
    SimpleCommand,
    blocked_reasons,
    command_name,
    destructive_reason,
    reads_only,
    short_flags,
)

if TYPE_CHECKING:  # the security layer sits below config: settings are passed in, never read here
    from zeph_nb.config import Settings

__all__ = ["ShellAnalysis", "ShellClassifier", "SimpleCommand", "Verdict", "classify_shell"]

Verdict = Literal["allow", "confirm", "block"]
_RANK: dict[str, int] = {"allow": 0, "confirm": 1, "block": 2}
MAX_DEPTH = 8

SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "mksh", "fish", "ash", "tcsh", "csh"})
_INTERPRETER = re.compile(r"^(python[\d.]*|pypy[\d.]*|perl|ruby|node|nodejs|php|lua|rscript)$")
_SHELL_CALL = re.compile(
    r"\b(os\.system|os\.popen|os\.exec\w*|os\.spawn\w*|subprocess|pty\.spawn|commands\.)|`|\bsystem\s*\(|\bexec\s*\(|child_process|\bspawn\s*\(|\bexecSync\b|\bshell_exec\b|\bpassthru\b"
)
_STRING_LITERAL = re.compile(r"\"((?:[^\"\\]|\\.)*)\"|'((?:[^'\\]|\\.)*)'")
# Wrappers: (options that take a value, positional arguments before the wrapped command).
WRAPPERS: dict[str, tuple[frozenset[str], int]] = {
    "nice": (frozenset({"-n", "--adjustment"}), 0),
    "timeout": (frozenset({"-s", "--signal", "-k", "--kill-after"}), 1),
    "nohup": (frozenset(), 0),
    "time": (frozenset({"-f", "--format", "-o", "--output"}), 0),
    "command": (frozenset(), 0),
    "builtin": (frozenset(), 0),
    "exec": (frozenset({"-a"}), 0),
    "stdbuf": (frozenset({"-i", "-o", "-e"}), 0),
    "ionice": (frozenset({"-c", "-n", "-p", "-t"}), 0),
    "setsid": (frozenset(), 0),
    "chrt": (frozenset(), 1),
    "taskset": (frozenset(), 1),
    "unbuffer": (frozenset(), 0),
    "busybox": (frozenset(), 0),
    "strace": (frozenset({"-o", "-e", "-p", "-s", "-u", "-E"}), 0),
    "ltrace": (frozenset({"-o", "-e", "-p", "-s", "-u"}), 0),
    "xargs": (
        frozenset({"-I", "-n", "-P", "-L", "-d", "-s", "-a", "-E", "--max-args", "--max-procs", "--delimiter"}),
        0,
    ),
    "flock": (frozenset({"-w", "--timeout", "-E", "--conflict-exit-code"}), 1),
    "doas": (frozenset({"-u", "-C"}), 0),
    "sudo": (frozenset({"-u", "-g", "-C", "-D", "-h", "-p", "-U", "-r", "-t"}), 0),
}


@dataclass
class ShellAnalysis:
    """The verdict, every reason that contributed, and every simple command found (nested ones included)."""

    verdict: Verdict = "allow"
    reasons: list[str] = field(default_factory=list)
    commands: list[SimpleCommand] = field(default_factory=list)
    writes_by_redirect: bool = False
    parsed: bool = True

    @property
    def may_write(self) -> bool:
        """Whether the command could change files: a redirect into a file, or any command not known to only read.

        Errs towards yes; it decides whether a transactional snapshot is taken.
        """
        if self.writes_by_redirect or not self.parsed:
            return True
        return any(not reads_only(command) for command in self.commands)

    def raise_to(self, verdict: Verdict, reason: str) -> None:
        if reason not in self.reasons:
            self.reasons.append(reason)
        if _RANK[verdict] > _RANK[self.verdict]:
            self.verdict = verdict

    @property
    def block_reasons(self) -> list[str]:
        return [r for r in self.reasons if r.startswith("blocked:")]


class ShellClassifier:
    """Classifies commands under one configuration (``[tools.shell]``)."""

    def __init__(self, settings: Settings | None = None) -> None:
        if settings is None:
            from zeph_nb.config import Settings  # defaults only; a caller with settings never reaches this

            settings = Settings()
        shell = settings.tools.shell
        self.allow_network = shell.allow_network
        self.legacy_blocked = [LegacyRule(entry) for entry in shell.blocked_commands if entry.strip()]
        self.confirm_patterns = [p.lower() for p in shell.confirm_patterns if p]

    def classify(self, command: str) -> Verdict:
        return self.analyze(command).verdict

    def analyze(self, command: str) -> ShellAnalysis:
        analysis = ShellAnalysis()
        if not command.strip():
            return analysis
        lowered = command.lower()
        for pattern in self.confirm_patterns:
            if pattern in lowered:
                analysis.raise_to("confirm", f"matches confirm pattern {pattern!r}")
        self._script(command, analysis, depth=0)
        return analysis

    # -- parsing -------------------------------------------------------------------------------------------

    def _script(self, script: str, analysis: ShellAnalysis, depth: int) -> None:
        if depth > MAX_DEPTH:
            analysis.raise_to("confirm", "commands nested too deeply to inspect")
            return
        if "\x00" in script:
            analysis.raise_to("confirm", "the command contains a NUL byte")
            return
        try:
            trees = bashlex.parse(script)
        except Exception as e:  # bashlex raises ParsingError, NotImplementedError and assorted internal errors
            analysis.parsed = False
            analysis.raise_to("confirm", f"could not parse the command ({type(e).__name__}: {e})")
            self._lexical_fallback(script, analysis)
            return
        for tree in trees:
            self._node(tree, analysis, depth)

    def _lexical_fallback(self, script: str, analysis: ShellAnalysis) -> None:
        """When bashlex gives up (``case`` blocks, odd syntax), still refuse any word that names a blocked command."""
        for token in re.split(r"[\s;&|()<>`{}]+", script):
            word = token.strip("'\"\\$")
            if word:
                command = SimpleCommand((command_name(word),))
                for reason in blocked_reasons(command, allow_network=self.allow_network, name_only=True):
                    analysis.raise_to("block", reason)

    def _node(self, node: Any, analysis: ShellAnalysis, depth: int, stage: int = 0) -> bool:
        """Examine a node; True when it is a shell or interpreter that runs its standard input as code."""
        kind = node.kind
        fed = False
        if kind == "command":
            fed = self._command(node, analysis, depth, stage)
        elif kind == "pipeline":
            stages = [part for part in node.parts if part.kind != "pipe"]
            for index, part in enumerate(stages):
                fed = self._node(part, analysis, depth, stage=index)
                if fed and index > 0:
                    # `echo 'sudo …' | sh`, `cat <<EOF | bash`: what earlier stages print is the script.
                    for earlier in stages[:index]:
                        for script in _printed_text(earlier):
                            self._script(script, analysis, depth + 1)
        elif kind == "function":
            self._function(node, analysis, depth)
        elif kind in ("commandsubstitution", "processsubstitution"):
            form = "$(…) or backticks" if kind == "commandsubstitution" else "<(…) or >(…)"
            analysis.raise_to("confirm", f"uses {form}, whose output the classifier cannot see")
            self._node(node.command, analysis, depth + 1)
        elif kind == "redirect":
            self._redirect(node, analysis, depth)
        elif kind in ("word", "assignment"):
            for part in getattr(node, "parts", []):
                self._node(part, analysis, depth)
        else:  # list, compound, if, for, while, until, reservedword, operator, parameter, tilde, heredoc
            for child in list(getattr(node, "parts", [])) + list(getattr(node, "list", [])):
                fed = self._node(child, analysis, depth, stage) or fed
        return fed

    def _function(self, node: Any, analysis: ShellAnalysis, depth: int) -> None:
        name = node.parts[0].word if node.parts and node.parts[0].kind == "word" else ""
        body = [part for part in node.parts[1:] if part.kind not in ("reservedword",)]
        inner = ShellAnalysis()
        for part in body:
            self._node(part, inner, depth + 1)
        if name and any(command.name == name.lower() for command in inner.commands):
            analysis.raise_to("block", f"blocked: function {name!r} calls itself (fork bomb pattern)")
        for reason in inner.reasons:
            analysis.raise_to(inner.verdict if reason in inner.block_reasons else "confirm", reason)
        analysis.commands.extend(inner.commands)

    def _redirect(self, node: Any, analysis: ShellAnalysis, depth: int) -> None:
        kind = node.type
        target = node.output
        if kind == "<<<":
            analysis.raise_to("confirm", "uses a here-string (<<<)")
        if hasattr(target, "kind"):
            self._node(target, analysis, depth)
            word = getattr(target, "word", "")
            if word.startswith(("/dev/tcp/", "/dev/udp/")) and not self.allow_network:
                analysis.raise_to("block", f"blocked: network access through {word} (allow_network = false)")
            if kind in (">", ">>", ">|", "<>", "&>", ">&") and RAW_DISK.match(word):
                analysis.raise_to("block", f"blocked: writes to the raw disk {word}")
            if kind in (">", ">>", ">|", "<>", "&>") and word not in ("/dev/null", "/dev/stdout", "/dev/stderr"):
                analysis.writes_by_redirect = True

    def _command(self, node: Any, analysis: ShellAnalysis, depth: int, stage: int) -> bool:
        words: list[Any] = []
        heredocs: list[str] = []
        feeds_stdin = stage > 0  # a later stage of a pipeline reads the previous one's output
        for part in node.parts:
            if part.kind == "word":
                words.append(part)
            elif part.kind == "redirect" and part.type in ("<<", "<<-", "<<<", "<"):
                feeds_stdin = True
                heredoc = getattr(part, "heredoc", None)
                if heredoc is not None:
                    heredocs.append(heredoc.value.rsplit("\n", 1)[0])  # the body, without the end marker
                elif part.type == "<<<" and hasattr(part.output, "word"):
                    heredocs.append(part.output.word)
            self._node(part, analysis, depth)
        if not words:
            return False
        first = words[0]
        if any(p.kind in ("parameter", "commandsubstitution", "processsubstitution") for p in _parts(first)):
            analysis.raise_to("confirm", f"the command name comes from an expansion ({first.word})")
        argv = [w.word for w in words]
        name = self._argv(argv, analysis, depth)
        if name in SHELLS or (name and _INTERPRETER.match(name)):
            inline = _inline_script(argv[1:], "c") is not None or _inline_script(argv[1:], "e") is not None
            has_script = any(not a.startswith("-") for a in argv[1:])
            if feeds_stdin and not inline and not has_script:
                analysis.raise_to("confirm", f"pipes or redirects input into {name}, which runs it as code")
                if name in SHELLS:
                    for body in heredocs:  # a heredoc fed to a shell is a script: look inside it too
                        self._script(body, analysis, depth + 1)
                return True
        return False

    # -- one simple command ----------------------------------------------------------------------------------

    def _argv(self, argv: list[str], analysis: ShellAnalysis, depth: int) -> str:
        """Examine one argv; returns the effective command name (after brace expansion)."""
        if depth > MAX_DEPTH:
            analysis.raise_to("confirm", "commands nested too deeply to inspect")
            return ""
        if not argv:
            return ""
        if "{" in argv[0] and "," in argv[0]:
            try:
                expanded = list(bracex.expand(argv[0], limit=1000))
            except Exception:
                expanded = [argv[0]]
            argv = [*expanded, *argv[1:]]
            if not argv or not argv[0]:
                return ""
        command = SimpleCommand((command_name(argv[0]), *argv[1:]))
        analysis.commands.append(command)
        name, args = command.name, list(command.argv[1:])
        for reason in blocked_reasons(command, allow_network=self.allow_network, legacy=self.legacy_blocked):
            analysis.raise_to("block", reason)
        destructive = destructive_reason(command)
        if destructive:
            analysis.raise_to("confirm", destructive)
        if name == "env":
            self._env(args, analysis, depth)
        elif name in WRAPPERS:
            if name == "command" and short_flags(args[:1]) & {"-v", "-V"}:
                return name  # `command -v x` only looks x up
            if name == "flock" and "-c" in args:
                self._script(
                    args[args.index("-c") + 1] if args.index("-c") + 1 < len(args) else "", analysis, depth + 1
                )
                return name
            values, positional = WRAPPERS[name]
            rest = _skip_options(args, values)[positional:]
            if name == "xargs" and rest:
                analysis.commands.append(SimpleCommand(("xargs-input",)))
            self._argv(rest, analysis, depth + 1)
        elif name == "watch":
            rest = _skip_options(args, frozenset({"-n", "--interval", "-d", "--differences"}))
            self._script(" ".join(rest), analysis, depth + 1)
        elif name == "eval":
            analysis.raise_to("confirm", "uses eval")
            self._script(" ".join(args), analysis, depth + 1)
        elif name in ("source", "."):
            pass  # runs a file; like running any script, the file itself is not ours to see
        elif name in SHELLS:
            script = _inline_script(args, "c")
            if script is not None:
                self._script(script, analysis, depth + 1)
        elif _INTERPRETER.match(name):
            self._interpreter(name, args, analysis, depth)
        elif name == "find":
            self._find(args, analysis, depth)
        return name

    def _env(self, args: list[str], analysis: ShellAnalysis, depth: int) -> None:
        rest: list[str] = []
        i = 0
        while i < len(args):
            arg = args[i]
            if arg in ("-u", "--unset", "-C", "--chdir"):
                i += 2
                continue
            if arg in ("-S", "--split-string") and i + 1 < len(args):
                self._script(" ".join(args[i + 1 :]), analysis, depth + 1)
                return
            if arg.startswith("-S") and len(arg) > 2:
                self._script(" ".join([arg[2:], *args[i + 1 :]]), analysis, depth + 1)
                return
            if arg.startswith("-") or ("=" in arg and not rest):
                i += 1
                continue
            rest = args[i:]
            break
        self._argv(rest, analysis, depth + 1)

    def _interpreter(self, name: str, args: list[str], analysis: ShellAnalysis, depth: int) -> None:
        code = _inline_script(args, "e" if not name.startswith(("python", "pypy")) else "c")
        if code is None and name.startswith(("node", "ruby", "perl", "php")):
            code = _inline_script(args, "e") or _inline_script(args, "r")
        if code is None or not _SHELL_CALL.search(code):
            return
        analysis.raise_to("confirm", f"{name} code that starts other programs")
        for match in _STRING_LITERAL.finditer(code):
            literal = match.group(1) if match.group(1) is not None else match.group(2)
            if literal and literal.strip():
                self._script(literal, analysis, depth + 1)

    def _find(self, args: list[str], analysis: ShellAnalysis, depth: int) -> None:
        i = 0
        while i < len(args):
            if args[i] in ("-exec", "-execdir", "-ok", "-okdir"):
                end = i + 1
                while end < len(args) and args[end] not in (";", "+", "\\;"):
                    end += 1
                self._argv(args[i + 1 : end], analysis, depth + 1)
                i = end
            elif args[i] == "-delete":
                analysis.raise_to("confirm", "destructive: find -delete")
            i += 1

    # -- verdicts ----------------------------------------------------------------------------------------------


def _printed_text(node: Any) -> list[str]:
    """What a pipeline stage evidently prints: heredoc bodies, and the arguments of echo/printf."""
    texts: list[str] = []
    for child in [node, *_parts(node)]:
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


def _parts(word: Any) -> list[Any]:
    found: list[Any] = []
    for part in getattr(word, "parts", []):
        found.append(part)
        found.extend(_parts(part))
    return found


def _skip_options(args: list[str], with_value: frozenset[str]) -> list[str]:
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


def _inline_script(args: list[str], letter: str) -> str | None:
    """The script of ``sh -c SCRIPT`` / ``sh -lc SCRIPT`` / ``perl -e CODE``: the first operand after the flags."""
    seen_flag = False
    for arg in args:
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


def classify_shell(command: str, settings: Settings | None = None) -> Verdict:
    """``"allow"``, ``"confirm"`` or ``"block"`` for a shell command under ``settings`` (defaults if None)."""
    return ShellClassifier(settings).classify(command)
