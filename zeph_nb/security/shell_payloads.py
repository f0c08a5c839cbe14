"""The commands inside other commands: what ``env``, ``find -exec``, ``parallel``, interpreters' code and a function's
body will run, and what a ``for`` loop's variable takes.

A mixin of ``ShellClassifier``: each reader finds the payload and hands it back to the classifier (``_argv`` for an
argv, ``_script`` for a command line), so a payload is judged exactly like a command typed on its own — and, where
``{}`` stands for a target (``find / -exec rm -rf {} +``), once more with the target filled in, so the blocklist
sees ``rm -rf /``.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from typing import Any

from zeph_nb.security.shell_analysis import ShellAnalysis
from zeph_nb.security.shell_options import env_riders
from zeph_nb.security.shell_words import DYNAMIC, SHELL_CALL, STRING_LITERAL, inline_script, parts

__all__ = ["Payloads"]


def _literals(text: str) -> list[str]:
    return [m.group(1) if m.group(1) is not None else m.group(2) for m in STRING_LITERAL.finditer(text)]


def _shell_calls(code: str) -> list[str]:
    """The command lines an interpreter's code hands to a shell or exec: the string literals in the arguments of
    each call (``os.system('…')``; ``subprocess.run(['sudo', 'id'])`` is read as ``sudo id``), and the text between
    backticks. Literals elsewhere (``print('sudo is needed')``) are text, not commands."""
    commands: list[str] = []
    for match in SHELL_CALL.finditer(code):
        if match.group(0) == "`":
            end = code.find("`", match.end())
            if end > match.end():
                commands.append(code[match.end() : end])
            continue
        start = match.end() - 1 if match.group(0).endswith("(") else code.find("(", match.end())
        if start < 0 or start - match.end() > 24:  # subprocess.check_output( is the farthest a name runs on
            continue
        depth, end = 0, len(code)
        for i in range(start, len(code)):
            depth += {"(": 1, ")": -1}.get(code[i], 0)
            if depth == 0:
                end = i
                break
        inside = code[start + 1 : end]
        literals = [text for text in _literals(inside) if text and text.strip()]
        if inside.lstrip().startswith(("[", "(")) and literals:  # an argv list: one command
            commands.append(" ".join(shlex.quote(text) for text in literals))
        else:
            commands.extend(literals)
    return commands


class Payloads:
    # The classifier's own readers, which every payload goes back to (declared here for the type checker).
    _argv: Callable[..., str]
    _script: Callable[[str, ShellAnalysis, int], None]
    _node: Callable[..., bool]

    def _blocked_with(self, analysis: ShellAnalysis, depth: int, *, argv: list[str] | None = None,
                      script: str | None = None) -> None:  # fmt: skip
        """Judge a payload with its target filled in; only a block counts (the payload itself was judged)."""
        shadow = ShellAnalysis()
        if argv is not None:
            self._argv(argv, shadow, depth + 1)
        else:
            self._script(script or "", shadow, depth + 1)
        for reason in shadow.block_reasons:
            analysis.raise_to("block", reason)

    def _parallel(self, rest: list[str], analysis: ShellAnalysis, depth: int) -> None:
        cut = next((i for i, a in enumerate(rest) if a.startswith(":::")), len(rest))
        template, inputs = " ".join(rest[:cut]), [a for a in rest[cut + 1 :] if not a.startswith(":::")]
        self._script(template, analysis, depth + 1)
        for value in inputs if "{}" in template else []:
            self._blocked_with(analysis, depth, script=template.replace("{}", shlex.quote(value)))

    def _env(self, args: list[str], analysis: ShellAnalysis, depth: int, dynamic: frozenset[str] | set[str]) -> None:
        rest: list[str] = []
        assignments: list[str] = []
        i = 0
        while i < len(args):
            arg = args[i]
            if arg in ("-u", "--unset", "-C", "--chdir"):
                i += 2
                continue
            if arg in ("-S", "--split-string") and i + 1 < len(args):
                self._script(" ".join(args[i + 1 :]), analysis, depth + 1)
                return
            if arg.startswith("--split-string="):
                self._script(" ".join([arg.split("=", 1)[1], *args[i + 1 :]]), analysis, depth + 1)
                return
            cluster = re.match(r"^-[A-Za-z0-9]*S", arg) if not arg.startswith("--") else None
            if cluster:  # -S'cmd', -vS'cmd', -iS 'cmd'
                inline = arg[cluster.end() :]
                self._script(" ".join([inline, *args[i + 1 :]] if inline else args[i + 1 :]), analysis, depth + 1)
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
        self._argv(rest, analysis, depth + 1, env=assignments, dynamic=dynamic)

    def _interpreter(self, name: str, args: list[str], analysis: ShellAnalysis, depth: int) -> None:
        code = inline_script(args, "e" if not name.startswith(("python", "pypy")) else "c")
        if code is None and name.startswith(("node", "ruby", "perl", "php")):
            code = inline_script(args, "e") or inline_script(args, "r")
        if code is None or not SHELL_CALL.search(code):
            return
        analysis.raise_to("confirm", f"{name} code that starts other programs")
        for command in _shell_calls(code):
            self._script(command, analysis, depth + 1)

    def _find(self, args: list[str], analysis: ShellAnalysis, depth: int) -> None:
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
                self._argv(payload, analysis, depth + 1)
                if "{}" in payload and args[i] in ("-exec", "-ok"):
                    for root in roots:
                        self._blocked_with(analysis, depth, argv=[root if word == "{}" else word for word in payload])
                i = end
            elif args[i] == "-delete":
                analysis.raise_to("confirm", "destructive: find -delete")
            i += 1

    def _function(self, node: Any, analysis: ShellAnalysis, depth: int) -> None:
        name = node.parts[0].word if node.parts and node.parts[0].kind == "word" else ""
        body = [part for part in node.parts[1:] if part.kind not in ("reservedword",)]
        inner = ShellAnalysis(defined=analysis.defined)
        for part in body:
            self._node(part, inner, depth + 1)
        # `/usr/bin/git` inside a function named git runs the program, not the function: no recursion.
        if name and any(c.written == name for c in inner.commands):
            analysis.raise_to("block", f"blocked: function {name!r} calls itself (fork bomb pattern)")
        for reason in inner.reasons:
            analysis.raise_to(inner.verdict if reason in inner.block_reasons else "confirm", reason)
        analysis.commands.extend(inner.commands)
        # What the body does is what calling the function does: its risky options, paths and line changes count.
        for text, found in inner.riders.items():
            analysis.riders.setdefault(text, []).extend(r for r in found if r not in analysis.riders.get(text, []))
        analysis.line_riders.extend(r for r in inner.line_riders if r not in analysis.line_riders)
        analysis.paths.extend(inner.paths)
        analysis.writes_by_redirect = analysis.writes_by_redirect or inner.writes_by_redirect

    def _loop_values(self, node: Any, analysis: ShellAnalysis) -> None:
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
        analysis.values[words[1].word] = values
