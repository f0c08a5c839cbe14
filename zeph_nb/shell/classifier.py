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
  command position, piping into a shell, a command it cannot parse, a line too long or complex to read within its
  budget: ``budget``) and destructive commands (``rm -rf``, ``git push --force``, ``DROP TABLE`` …), plus the
  legacy ``confirm_patterns``.
* ``allow`` — everything else.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from fnmatch import fnmatchcase
from typing import Any, NamedTuple

import bracex
from wcmatch import fnmatch

from zeph_nb.shell import payloads
from zeph_nb.shell.analysis import ShellAnalysis, Verdict
from zeph_nb.shell.args import path_uses, redirect_use
from zeph_nb.shell.budget import Budget, OverBudget
from zeph_nb.shell.options import RISKS, Rider, env_riders, family, riders_of, risky_env
from zeph_nb.shell.rules import (
    CONFIRM_PATTERNS,
    RAW_DISK,
    CommandEntry,
    SimpleCommand,
    blocked_reasons,
    command_name,
    destructive_reason,
    names_blocked,
    not_allowed,
    short_flags,
    syntax_pattern,
)
from zeph_nb.shell.scripts import script_riders
from zeph_nb.shell.words import (
    ARITHMETIC,
    DYNAMIC,
    HARMLESS_VARIABLES,
    INTERPRETER,
    LINE_CHANGERS,
    READ_COMMAND,
    SHELLS,
    WRAPPERS,
    decode_ansi_c,
    defined_names,
    heredocs_of,
    inline_script,
    parameter_name,
    parts,
    program_path,
    read_names,
    skip_options,
    wrapped_script,
)

__all__ = ["PolicyValues", "ShellAnalysis", "ShellClassifier", "SimpleCommand", "Verdict"]

MAX_DEPTH = 8


class PolicyValues(NamedTuple):
    """What a classifier's verdicts depend on: the values of ``[tools.shell]`` of the same names."""

    allow_network: bool
    blocked_commands: tuple[str, ...]
    confirm_patterns: tuple[str, ...]
    allowed_commands: tuple[str, ...]


class ShellClassifier:
    """Classifies commands under one configuration: the values of ``[tools.shell]`` of the same names (each defaults
    to the settings' default)."""

    def __init__(
        self,
        *,
        allow_network: bool = True,
        blocked_commands: Sequence[str] = (),
        confirm_patterns: Sequence[str] = CONFIRM_PATTERNS,
        allowed_commands: Sequence[str] = (),
        reload: Callable[[], PolicyValues | None] | None = None,
    ) -> None:
        # reload: asked before each analysis (cheaply: a stat of the file the values came from); new values when
        # the file changed, which replace these from that analysis on (seed 004: the policy reloads, no restart).
        self.reload = reload
        self._budget: Budget | None = None  # the deadline of the analysis under way
        self._source = ""
        self.configure(PolicyValues(allow_network, tuple(blocked_commands), tuple(confirm_patterns),
                                    tuple(allowed_commands)))  # fmt: skip

    def configure(self, values: PolicyValues) -> None:
        """Classify under ``values`` from now on."""
        allow_network, blocked_commands, confirm_patterns, allowed_commands = values
        self.allow_network = allow_network
        self.legacy_blocked = [CommandEntry(entry) for entry in blocked_commands if entry.strip()]
        # allowed_commands: when set, the only command words that may run (and the moves that do nothing but move
        # around or end). Anything else, and a line nobody could parse, is blocked.
        self.allowed = [CommandEntry(entry) for entry in allowed_commands if entry.strip()]
        patterns = [p for p in confirm_patterns if p.strip()]
        self.confirm_syntax = [p.strip().lower() for p in patterns if syntax_pattern(p)]
        self.confirm_commands = [CommandEntry(p, phrases=True) for p in patterns if not syntax_pattern(p)]
        # A pattern of the person's own (not one of the built-in list) also matches anywhere in the line, as the
        # seed's substring patterns did: a config ported from it ("danger") must keep asking for ``echo danger``.
        # Confirm patterns only ever add a question, so matching more is safe; the built-in ones stay command words
        # ("rm " asks for rm, not for ``echo farm``).
        self.confirm_anywhere = [(p, " ".join(p.lower().split())) for p in patterns
                                 if not syntax_pattern(p) and p not in CONFIRM_PATTERNS]  # fmt: skip
        # What the verdicts depend on: two classifiers with the same key analyze every line alike, so one's
        # analysis can stand for the other's (the gates' parse is handed to the shell executor with it).
        self.key = repr((allow_network, tuple(blocked_commands), tuple(patterns), tuple(allowed_commands)))

    def classify(self, command: str) -> Verdict:
        return self.analyze(command).verdict

    def analyze(self, command: str) -> ShellAnalysis:
        if self.reload is not None and (values := self.reload()) is not None:
            self.configure(values)
        analysis = ShellAnalysis()
        if not command.strip():
            return analysis
        # Syntax patterns ($(, backticks, <<<) are looked for outside single quotes, where bash reads them.
        unquoted = re.sub(r"'[^']*'", "''", command).lower()
        for pattern in self.confirm_syntax:
            if pattern in unquoted:
                analysis.raise_to("confirm", f"matches confirm pattern {pattern!r}")
        # bashlex builds its LALR tables from the grammar on every import (its bundled yacc never reads the
        # parsetab.py it ships): ~0.1 s, paid by the first line analysed rather than by `import zeph_nb`, and
        # before that line's budget starts, so the first line gets the same verdict as any later one. The risky
        # environment names are compiled here too, for the same reason.
        import bashlex  # noqa: F401

        risky_env()

        outer, self._budget = self._budget, Budget.start()
        try:
            self._script(command, analysis, depth=0)
        except OverBudget as stop:
            # What was found stays (a block stays a block); what was not read cannot be vouched for by any rule,
            # and the names of the commands in it still meet the blocklist.
            analysis.parsed = False
            analysis.raise_to("confirm", stop.reason)
            self._lexical_fallback(decode_ansi_c(command), analysis)
        finally:
            self._budget = outer
        for simple in analysis.commands:
            for entry in self.confirm_commands:
                if entry.matches(simple):
                    analysis.raise_to("confirm", f"matches confirm pattern {entry.entry!r}")
        if self.confirm_anywhere:
            line = " ".join(command.lower().split())
            for pattern, wanted in self.confirm_anywhere:
                if fnmatchcase(line, f"*{wanted}*"):
                    analysis.raise_to("confirm", f"contains confirm pattern {pattern!r} (a pattern of yours matches "
                                      "anywhere in the line)")  # fmt: skip
        if self.allowed:
            for reason in not_allowed(analysis.commands, self.allowed, parsed=analysis.parsed):
                analysis.raise_to("block", reason)
        return analysis

    # -- parsing -------------------------------------------------------------------------------------------

    def _spend(self) -> None:
        """Stop the analysis (``OverBudget``) once its time is up."""
        if self._budget is not None:
            self._budget.check()

    def _script(self, script: str, analysis: ShellAnalysis, depth: int) -> None:
        self._spend()
        if depth > MAX_DEPTH:
            analysis.raise_to("confirm", "commands nested too deeply to inspect")
            return
        if "\x00" in script:
            analysis.raise_to("confirm", "the command contains a NUL byte")
            return
        script = decode_ansi_c(script)  # $'\x63url' is curl to bash; bashlex would read it as a variable
        for match in defined_names(script):
            self._spend()
            named = match.group(1) or match.group(2) or ""
            listed = [w for w in (match.group(3) or "").split() if not w.startswith("-")]
            analysis.defined.update(n for n in [named, *listed] if n)
            # for HOME in …; read PATH: a loop or read variable that the environment exports changes what runs.
            loop = [n for n in [match.group(2) or "", *listed] if n]
            analysis.ride(None, env_riders([f"{n}=" for n in loop]))
        if "read" in script:
            for match in READ_COMMAND.finditer(script):
                self._spend()
                names = read_names(match.group(1))
                analysis.defined.update(names)
                analysis.ride(None, env_riders([f"{n}=" for n in names]))  # read PATH changes what runs next
        if "$((" in script:  # bashlex cannot read arithmetic; a number stands in for it, and the line still asks
            analysis.raise_to("confirm", "uses arithmetic expansion $((…))")
            for match in ARITHMETIC.finditer(script):
                if re.search(r"[A-Za-z_]", match.group(0)[3:-2]):  # $((HOME)) expands HOME: a variable's value
                    why = "arithmetic that reads variables, whose values no rule can see"
                    analysis.ride(None, [Rider(match.group(0), (match.group(0),), why)])
            script = ARITHMETIC.sub("0", script)
        if self._budget is not None:
            self._budget.admit(script)  # bashlex cannot be stopped once it starts: refuse what it cannot parse in time
        import bashlex  # loaded by analyze(), before the budget started

        try:
            trees = bashlex.parse(script)
        except Exception as e:  # bashlex raises ParsingError, NotImplementedError and assorted internal errors
            analysis.parsed = False
            analysis.raise_to("confirm", f"could not parse the command ({type(e).__name__}: {e})")
            self._lexical_fallback(script, analysis)
            return
        outer, self._source = self._source, script  # node positions index the text being parsed
        try:
            for tree in trees:
                self._node(tree, analysis, depth)
        finally:
            self._source = outer

    def _lexical_fallback(self, script: str, analysis: ShellAnalysis) -> None:
        """A line not read in full still meets the blocklist, by the names of its commands."""
        for reason in names_blocked(script, allow_network=self.allow_network, legacy=self.legacy_blocked):
            analysis.raise_to("block", reason)

    def _node(self, node: Any, analysis: ShellAnalysis, depth: int, stage: int = 0) -> bool:
        """Examine a node; True when it is a shell or interpreter that runs its standard input as code."""
        self._spend()
        kind = node.kind
        fed = False
        if kind == "command":
            fed = self._command(node, analysis, depth, stage)
        elif kind == "pipeline":
            fed = payloads.read_pipeline(node, analysis, depth, read_node=self._node, read_script=self._script)
        elif kind == "function":
            payloads.read_function(node, analysis, depth, read_node=self._node)
        elif kind in ("commandsubstitution", "processsubstitution"):
            form = "$(…) or backticks" if kind == "commandsubstitution" else "<(…) or >(…)"
            analysis.raise_to("confirm", f"uses {form}, whose output the classifier cannot see")
            self._node(node.command, analysis, depth + 1)
        elif kind == "redirect":
            self._redirect(node, analysis, depth)
        elif kind == "parameter":
            self._parameter(node, analysis)
        elif kind in ("word", "assignment"):
            for part in getattr(node, "parts", []):
                self._node(part, analysis, depth)
        else:  # list, compound, if, for, while, until, reservedword, operator, parameter, tilde, heredoc
            if kind == "for":
                payloads.loop_values(node, analysis)
            # `{ …; } > f`, `while …; done < f`: a compound command's redirections are its own
            children = [*getattr(node, "parts", []), *getattr(node, "list", []), *getattr(node, "redirects", [])]
            for child in children:
                fed = self._node(child, analysis, depth, stage) or fed
        return fed

    def _parameter(self, node: Any, analysis: ShellAnalysis) -> None:
        name = parameter_name(str(getattr(node, "value", "")))
        if name and name not in HARMLESS_VARIABLES and name not in analysis.defined:
            analysis.raise_to("confirm", f"expands ${name}, a variable from the environment")

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
            use = redirect_use(kind, word)
            if use is not None:
                analysis.paths.extend(analysis.resolve(use))
                analysis.writes_by_redirect = analysis.writes_by_redirect or use.mode == "write"
            elif kind in (">", ">>", ">|", "<>", "&>") and word not in ("/dev/null", "/dev/stdout", "/dev/stderr"):
                analysis.writes_by_redirect = True

    def _command(self, node: Any, analysis: ShellAnalysis, depth: int, stage: int) -> bool:
        words: list[Any] = []
        assignments = [part.word for part in node.parts if part.kind == "assignment"]
        for part in node.parts:  # x=/etc/hosts; cat $x — the path check reads $x as /etc/hosts
            if part.kind == "assignment" and "=" in part.word:
                name, value = part.word.split("=", 1)
                known = not any(p.kind in DYNAMIC for p in parts(part)) and not name.endswith("+")
                analysis.set_value(name, [value] if known else None)
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
        for body, quoted in heredocs_of(node, self._source):
            if not quoted and re.search(r"\$[A-Za-z_{(]|`", body):  # an unquoted here-doc expands what it names
                why = "a here-document that expands variables or commands, whose values no rule can see"
                analysis.raise_to("confirm", why)
                analysis.ride(None, [Rider("<<", ("<<",), why)])
        if not words:
            analysis.ride(None, env_riders(assignments))  # PATH=/tmp/x:$PATH; git … changes what git is
            return False
        first = words[0]
        if any(p.kind in ("parameter", "commandsubstitution", "processsubstitution") for p in parts(first)):
            # Nothing can be checked about it, so no allow rule covers it either (not even "*").
            why = "the command name comes from an expansion, so no rule can tell what runs"
            analysis.ride(None, [Rider(first.word, (first.word,), why)])
        argv = [w.word for w in words]
        dynamic = {w.word for w in words[1:] if any(p.kind in DYNAMIC for p in parts(w))}
        dynamic |= {w.word for w in words[1:] if self._source[w.pos[0] : w.pos[0] + 1] in ("*", "?", "[")}
        name = self._argv(argv, analysis, depth, env=assignments, dynamic=dynamic)
        if name in SHELLS or (name and INTERPRETER.match(name)):
            inline = inline_script(argv[1:], "c") is not None or inline_script(argv[1:], "e") is not None
            has_script = any(not a.startswith("-") for a in argv[1:])
            if feeds_stdin and not inline and not has_script:
                analysis.raise_to("confirm", f"pipes or redirects input into {name}, which runs it as code")
                if name in SHELLS:
                    for body in heredocs:  # a heredoc fed to a shell is a script: look inside it too
                        self._script(body, analysis, depth + 1)
                return name in SHELLS  # what python reads on stdin is python, not a command line
        return False

    # -- one simple command ----------------------------------------------------------------------------------

    def _argv(
        self,
        argv: list[str],
        analysis: ShellAnalysis,
        depth: int,
        env: list[str] | None = None,
        dynamic: frozenset[str] | set[str] = frozenset(),
    ) -> str:
        """Examine one argv (``env``: the assignments in front of it; ``dynamic``: its words that come from an
        expansion or a glob); returns the effective command name (after brace expansion)."""
        self._spend()
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
        env_risks = env_riders(env or [])
        shown = {word for rider in env_risks for word in rider.evidence}
        prefix = tuple(word for word in env or [] if word in shown)
        command = SimpleCommand((command_name(argv[0]), *argv[1:]), prefix, program_path(argv[0]), argv[0])
        analysis.commands.append(command)
        name, args = command.name, list(command.argv[1:])
        self._risks(command, env_risks, dynamic, analysis)
        for reason in blocked_reasons(command, allow_network=self.allow_network, legacy=self.legacy_blocked):
            analysis.raise_to("block", reason)
        if any("{" in arg and "}" in arg for arg in args):  # rm -rf {/,x} and /{,} are rm -rf / to bash
            expanded = [word for arg in args for word in _braces(arg)]
            shadow = SimpleCommand((name, *expanded))
            for reason in blocked_reasons(shadow, allow_network=self.allow_network, legacy=self.legacy_blocked):
                analysis.raise_to("block", reason)
        destructive = destructive_reason(command)
        if destructive:
            analysis.raise_to("confirm", destructive)
        if name == "env":
            payloads.read_env(args, analysis, depth, dynamic, read_argv=self._argv, read_script=self._script)
        elif name in LINE_CHANGERS and (name == "alias" or short_flags(args) & {"-p", "-f"}):
            analysis.ride(None, [Rider(name, (name, *args[:2]), LINE_CHANGERS[name])])
            for value in args:  # alias ls='rm -rf ~': the alias's text runs later
                if name == "alias" and "=" in value:
                    self._script(value.split("=", 1)[1], analysis, depth + 1)
        elif name == "script" and wrapped_script(name, args) is not None:
            self._script(wrapped_script(name, args) or "", analysis, depth + 1)
        elif name == "trap" and args and not args[0].startswith("-"):
            self._script(args[0], analysis, depth + 1)
        elif name in ("export", "declare", "typeset", "readonly", "local"):
            analysis.ride(None, env_riders([a for a in args if "=" in a and not a.startswith("-")]))
        elif name in WRAPPERS:
            if name == "command" and short_flags(args[:1]) & {"-v", "-V"}:
                return name  # `command -v x` only looks x up
            script = wrapped_script(name, args)
            if script is not None:  # flock F -c 'cmd', script -qc 'cmd' /dev/null
                self._script(script, analysis, depth + 1)
                return name
            values, positional = WRAPPERS[name]
            rest = skip_options(args, values)[positional:]
            if name == "xargs" and rest:
                analysis.commands.append(SimpleCommand(("xargs-input",)))
            if name == "parallel":  # parallel 'rm -rf {}' ::: /  — the template is a command line
                payloads.read_parallel(rest, analysis, depth, read_script=self._script)
                return name
            self._argv(rest, analysis, depth + 1, dynamic=dynamic)
        elif name == "watch":
            rest = skip_options(args, frozenset({"-n", "--interval", "-d", "--differences"}))
            self._script(" ".join(rest), analysis, depth + 1)
        elif name == "eval":
            analysis.raise_to("confirm", "uses eval")
            self._script(" ".join(args), analysis, depth + 1)
        elif name in ("source", "."):
            pass  # runs a file; like running any script, the file itself is not ours to see
        elif name in SHELLS:
            script = inline_script(args, "c")
            if script is not None:
                self._script(script, analysis, depth + 1)
        elif INTERPRETER.match(name):
            payloads.read_interpreter(name, args, analysis, depth, read_script=self._script, spend=self._spend)
        elif name == "find":
            payloads.read_find(args, analysis, depth, read_argv=self._argv)
        return name

    def _risks(
        self, command: SimpleCommand, env: list[Rider], dynamic: frozenset[str] | set[str], analysis: ShellAnalysis
    ) -> None:
        """The risky options, environment and path arguments of one command."""
        name, args = command.name, command.argv[1:]
        found = [*env, *riders_of(name, args), *script_riders(name, args)]
        if family(name) in RISKS and any(arg in dynamic for arg in args):
            shown = next(arg for arg in args if arg in dynamic)
            # Its option is the word as a glob would escape it: only a rule (or a grant) with this very word covers it.
            why = "an argument comes from an expansion or a glob, so which option it becomes is not known"
            found.append(Rider(str(fnmatch.escape(shown)), (shown,), why))
        analysis.ride(command, found)
        uses = [resolved for use in path_uses(command) for resolved in analysis.resolve(use)]
        analysis.paths.extend(uses)
        if name in ("cd", "pushd"):  # later relative paths may start there
            analysis.cd_dirs.extend(use.word for use in uses if not use.unknown)


def _braces(word: str) -> list[str]:
    try:
        return list(bracex.expand(word, limit=1000)) or [word]
    except Exception:  # bracex refuses huge or malformed expansions; the word stays as it is
        return [word]
