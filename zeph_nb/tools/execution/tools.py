"""The tools on a remote execution context: ``bash`` there, and ``read``, ``write``, ``edit`` there.

Same names and the same arguments as the local tools (minus what only the local sandbox can grant: network hosts,
``sandbox=false``), so permission rules, grants, filters and the audit log treat a command the same wherever it
runs; the audit row's ``sandbox`` column says where (``ssh``, ``container``). The other file tools are not offered
on a remote context: listing, finding and grepping are commands there (``ls``, ``find``, ``grep``), which ask like
any other remote command.
"""

from __future__ import annotations

import dataclasses
import difflib
import posixpath
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import Field
from wcmatch import glob

from zeph_nb.config import Settings
from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.tools.base import (
    BINARY_HINT,
    SingleToolExecutor,
    ToolArgs,
    ToolCall,
    ToolDef,
    ToolExecutor,
    ToolOutput,
    parsed,
)
from zeph_nb.tools.composite import CompositeExecutor
from zeph_nb.tools.containment import shell_classifier
from zeph_nb.tools.execution.backend import MAX_FILE_BYTES, CommandBackend
from zeph_nb.tools.files.args import FILE_TOOLS, EditArgs, ReadArgs, WriteArgs
from zeph_nb.tools.shell.background import report_pane
from zeph_nb.tools.shell.executor import BashArgs, BashTmuxArgs, Wait
from zeph_nb.tools.shell.pane_tools import PaneExecutor
from zeph_nb.tools.shell.panes import TmuxPanes
from zeph_nb.tools.shell.process import ERROR_TAIL_CHARS, raise_for_failure

__all__ = ["REMOTE_BASH", "RemoteFileExecutor", "RemoteShellExecutor", "remote_toolset"]

MAX_REMOTE_READ_BYTES = 256 * 1024  # what read returns of a remote file; more is paged with offset and limit


class RemoteBashArgs(ToolArgs):
    # Shorter than a local command line: it travels base64-encoded in one argument, which Linux caps at 128 KiB.
    command: str = Field(min_length=1, max_length=60_000, description="The bash command line to run")
    timeout: int | None = Field(None, ge=1, le=3600, description="Seconds before the command is stopped")
    wait: Wait = Field(True, description=BashArgs.model_fields["wait"].description)  # the seed's, as locally


REMOTE_BASH = ToolDef(
    "bash",
    "Run a bash command in the working directory on the remote machine or container the person chose, with the "
    "rights of its user there. Returns the combined stdout and stderr and the exit code.",
    RemoteBashArgs,
    subject=("command",),
    subject_kind="command",
    mutates=True,
    runs_commands=True,
    filtered=True,
    enabled_by="shell_enabled",
    aliases=("shell", "run_shell"),  # the reference agent's name and the seed's, as the local bash's
    utility=0.6,
    remote=True,
)


class RemoteBashTmuxArgs(RemoteBashArgs):
    wait: Wait = Field(True, description=BashTmuxArgs.model_fields["wait"].description)


# The same spec, bash taking ``wait`` (every trait kept: one name, one set of rules, filters and audit).
REMOTE_BASH_TMUX = dataclasses.replace(
    REMOTE_BASH,
    description=REMOTE_BASH.description + " With wait=false or a duration the command runs in a tmux pane there, in "
    "the background, for training runs, builds, servers and commands that ask questions.",
    args_model=RemoteBashTmuxArgs,
)

_NO_PANES = (
    "wait=false and wait durations run the command in the background in a tmux pane there, and tmux panes are not "
    "on (the person turns them on with [tools.execution] tmux = true). Run it with wait=true (the default) and a "
    "timeout, or ask the person to turn them on"
)

# $1 the working directory, $2 the command line: what a pane on the far side runs.
_PANE_SCRIPT = (
    'cd -- "$1" || exit 125; if command -v bash >/dev/null 2>&1; then exec bash -lc "$2"; fi; exec sh -lc "$2"'
)


class RemoteShellExecutor(SingleToolExecutor):
    tool = REMOTE_BASH

    def __init__(self, settings: Settings, backend: CommandBackend, panes: TmuxPanes | None = None) -> None:
        self.settings, self.backend, self.panes = settings, backend, panes
        if panes is not None:
            self.tool = REMOTE_BASH_TMUX
        self.classifier = shell_classifier(settings)

    def requires_confirmation(self, call: ToolCall) -> bool:
        return True  # nothing contains a remote command but the far side: see contain_remote in the policy

    async def run(self, args: RemoteBashArgs, call: ToolCall) -> ToolOutput:
        analysis = parsed(call, self.classifier, "command", args.command)
        if analysis.verdict == "block":  # the unconditional blocklist holds wherever a command runs
            raise ToolError(ToolErrorCategory.POLICY_BLOCKED, "; ".join(analysis.block_reasons))
        wait = args.wait
        if wait is not True and self.panes is None:
            raise ToolError(ToolErrorCategory.INVALID_PARAMETERS, _NO_PANES)
        if wait is not True and self.panes is not None:
            await self.backend.connect()
            argv = ["sh", "-c", _PANE_SCRIPT, "sh", self.backend.workdir, args.command]
            if args.timeout:
                argv = ["timeout", "--kill-after=5", str(args.timeout), *argv]
            pane = await self.panes.open(argv, args.command, workdir=Path(self.backend.workdir), env={},
                                         sandboxed=False)  # fmt: skip
            return await report_pane(self.panes, pane, wait, call, sandbox=self.backend.kind)
        timeout = args.timeout or self.settings.tools.shell.timeout
        result = await self.backend.run(args.command, timeout=timeout)
        text = result.interleaved
        summary = text if text else "(no output)"
        if result.exit_code != 0:
            summary = summary.rstrip("\n") + f"\n[exit code: {result.exit_code}]"
        raw = {"stdout": result.stdout, "stderr": result.stderr, "exit_code": result.exit_code,
               "truncated": result.truncated, "sandbox": self.backend.kind, "where": self.backend.where,
               "workdir": self.backend.workdir}  # fmt: skip
        output = ToolOutput("bash", summary, raw=raw, call_id=call.call_id, exit_code=result.exit_code,
                            truncated=result.truncated)  # fmt: skip
        raise_for_failure(output)
        return output


# The local definitions, but with the path as plain text to the gates: it names a file over there, so neither the
# local canonical form nor the local protected paths mean anything for it (the far side's rules apply, below).
# What changes things there is ``remote``: it asks unless a rule allows it (gates/policy/containment.py,
# contain_remote), and undo says it cannot follow it.
_REMOTE_FILE_TOOLS = {tool.name: dataclasses.replace(tool, subject_kind="text", cacheable=False, remote=tool.mutates,
                                                  becomes=None)
                      for tool in FILE_TOOLS if tool.name in ("read", "write", "edit")}  # fmt: skip
_GLOB_FLAGS = glob.GLOBSTAR | glob.DOTGLOB | glob.NEGATE | glob.BRACE | glob.IGNORECASE  # as the local file tools


class RemoteFileExecutor:
    """read, write and edit through the backend: ``cat`` to read, stdin to a temporary file and ``mv`` to write."""

    def __init__(self, backend: CommandBackend, settings: Settings | None = None) -> None:
        self.backend = backend
        files = (settings or Settings()).tools.file
        self.deny_read, self.allow_read = tuple(files.deny_read), tuple(files.allow_read)

    def tool_definitions(self) -> Sequence[ToolDef]:
        return list(_REMOTE_FILE_TOOLS.values())

    def requires_confirmation(self, call: ToolCall) -> bool:
        tool = _REMOTE_FILE_TOOLS.get(call.tool_id)
        return tool is not None and tool.mutates

    async def execute(self, call: ToolCall) -> ToolOutput | None:
        tool = _REMOTE_FILE_TOOLS.get(call.tool_id)
        if tool is None:
            return None
        args: Any = tool.args_model.model_validate(call.params)
        if isinstance(args, ReadArgs):
            output = await self._read(args)
        elif isinstance(args, WriteArgs):
            output = await self._write(args)
        else:
            output = await self._edit(args)
        return dataclasses.replace(output, call_id=call.call_id)

    def _check_read_rules(self, path: str) -> None:
        """``[tools.file] deny_read``, then ``allow_read`` as an allowlist, matched as the local file tools match
        them: absolute patterns against the absolute path there, relative ones against the path inside the working
        folder."""
        if not self.deny_read and not self.allow_read:
            return
        absolute = posixpath.normpath(posixpath.join(self.backend.workdir, path))
        names = [absolute, posixpath.relpath(absolute, self.backend.workdir)]

        def matches(patterns: Sequence[str]) -> bool:
            return any(glob.globmatch(name, pattern, flags=_GLOB_FLAGS) for name in names for pattern in patterns)

        if matches(self.deny_read):
            raise ToolError(ToolErrorCategory.POLICY_BLOCKED, f"reading {path!r} is denied by tools.file.deny_read")
        if self.allow_read and not matches(self.allow_read):
            why = f"reading {path!r} is not allowed: it matches no tools.file.allow_read pattern"
            raise ToolError(ToolErrorCategory.POLICY_BLOCKED, why)

    async def _text(self, path: str) -> str:
        await self.backend.connect()
        self._check_read_rules(path)
        data = await self.backend.read_file(path)
        if len(data) > MAX_FILE_BYTES:
            raise ToolError(ToolErrorCategory.PERMANENT_FAILURE,
                            f"{path} is larger than {MAX_FILE_BYTES // 2**20} MB; read parts of it with a command "
                            "(head, sed -n '100,200p')")  # fmt: skip
        if b"\x00" in data[:8192]:
            raise ToolError(
                ToolErrorCategory.PERMANENT_FAILURE, f"{path} is a binary file ({len(data)} bytes): {BINARY_HINT}"
            )
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ToolError(ToolErrorCategory.PERMANENT_FAILURE, f"{path}: not valid UTF-8 text ({e})") from None

    async def _read(self, args: ReadArgs) -> ToolOutput:
        text = await self._text(args.path)
        lines = text.splitlines(keepends=True)
        end = len(lines) if args.limit is None else args.offset + args.limit
        taken, size = [], 0
        for line in lines[args.offset : end]:
            if size + len(line) > MAX_REMOTE_READ_BYTES:
                break
            taken.append(line)
            size += len(line)
        content = "".join(taken)
        first, last = args.offset + 1, args.offset + len(taken)
        summary = content if content else ("(empty file)" if not lines else f"(no lines after line {args.offset})")
        if taken and (first > 1 or last < len(lines)):
            summary = (
                content.rstrip("\n") + f"\n[lines {first}-{last} of {len(lines)}; use offset and limit to see more]"
            )
        raw = {"path": args.path, "content": content, "first_line": first, "last_line": last,
               "total_lines": len(lines), "where": self.backend.where}  # fmt: skip
        return ToolOutput("read", summary, raw=raw, truncated=last < min(end, len(lines)))

    async def _write(self, args: WriteArgs) -> ToolOutput:
        data = args.content.encode("utf-8")
        await self.backend.write_file(args.path, data)
        lines = args.content.count("\n") + (0 if args.content.endswith("\n") or not args.content else 1)
        return ToolOutput("write", f"Wrote {args.path} on {self.backend.where} ({len(data)} bytes, {lines} lines)",
                          raw={"path": args.path, "bytes": len(data), "where": self.backend.where})  # fmt: skip

    async def _edit(self, args: EditArgs) -> ToolOutput:
        if args.old_string == args.new_string:
            raise ToolError(ToolErrorCategory.INVALID_PARAMETERS, "old_string and new_string are identical")
        text = await self._text(args.path)
        matches, found = 0, text.find(args.old_string)
        while found >= 0 and matches < 100:  # overlapping ones count: "aa" in "aaa" is ambiguous
            matches, found = matches + 1, text.find(args.old_string, found + 1)
        if matches != 1:
            why = ("was not found; read the file and copy the text exactly, whitespace included" if matches == 0
                   else f"matches {matches} places; include more surrounding lines so it matches once")  # fmt: skip
            raise ToolError(ToolErrorCategory.INVALID_PARAMETERS, f"old_string {why} ({args.path})")
        at = text.find(args.old_string)
        updated = text[:at] + args.new_string + text[at + len(args.old_string) :]
        await self.backend.write_file(args.path, updated.encode("utf-8"))
        diff = "".join(difflib.unified_diff(text.splitlines(keepends=True), updated.splitlines(keepends=True),
                                            f"a/{args.path}", f"b/{args.path}", n=2))  # fmt: skip
        line = text.count("\n", 0, at) + 1
        return ToolOutput(
            "edit",
            f"Edited {args.path} at line {line}\n{diff[:ERROR_TAIL_CHARS]}".rstrip("\n"),
            raw={"path": args.path, "line": line, "diff": diff, "where": self.backend.where},
        )


def remote_toolset(settings: Settings, backend: CommandBackend) -> ToolExecutor:
    """``bash``, ``read``, ``write`` and ``edit`` on ``backend``; with ``[tools.execution] tmux``, ``bash`` takes
    ``wait`` and ``capture-pane`` and ``send-keys`` are offered, over panes of a tmux server on the far side."""
    files = RemoteFileExecutor(backend, settings)
    if not settings.tools.execution.tmux:
        return CompositeExecutor([files, RemoteShellExecutor(settings, backend)])
    panes = TmuxPanes.for_toolset(backend.env, remote=backend)
    return CompositeExecutor([files, RemoteShellExecutor(settings, backend, panes),
                              PaneExecutor(settings, panes, remote=True)])  # fmt: skip
