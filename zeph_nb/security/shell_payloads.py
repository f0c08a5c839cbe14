"""The commands inside other commands: what ``env``, ``find -exec``, ``parallel`` and interpreters' code will run.

A mixin of ``ShellClassifier``: each reader finds the payload and hands it back to the classifier (``_argv`` for an
argv, ``_script`` for a command line), so a payload is judged exactly like a command typed on its own — and, where
``{}`` stands for a target (``find / -exec rm -rf {} +``), once more with the target filled in, so the blocklist
sees ``rm -rf /``.
"""

from __future__ import annotations

import shlex

from zeph_nb.security.shell_analysis import ShellAnalysis
from zeph_nb.security.shell_options import env_riders
from zeph_nb.security.shell_words import SHELL_CALL, STRING_LITERAL, inline_script

__all__ = ["Payloads"]


class Payloads:
    def _argv(
        self,
        argv: list[str],
        analysis: ShellAnalysis,
        depth: int,
        env: list[str] | None = None,
        dynamic: frozenset[str] | set[str] = frozenset(),
    ) -> str:
        raise NotImplementedError

    def _script(self, script: str, analysis: ShellAnalysis, depth: int) -> None:
        raise NotImplementedError

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
            if arg.startswith("-S") and len(arg) > 2:
                self._script(" ".join([arg[2:], *args[i + 1 :]]), analysis, depth + 1)
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
        for match in STRING_LITERAL.finditer(code):
            literal = match.group(1) if match.group(1) is not None else match.group(2)
            if literal and literal.strip():
                self._script(literal, analysis, depth + 1)

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
