"""ShellExecutor: the ``bash`` tool.

A command runs in ``bash -c`` in the working directory, inside the OS sandbox (``security/os_sandbox.py``) when one
works here, in a session (and so a process group) of its own, with credential-looking variables removed from its
environment and stdin closed. Its output is read from both pipes as it arrives: the model reads the two streams
interleaved, the raw envelope keeps them apart (``{stdout, stderr, exit_code, truncated, sandbox, network}``). On
timeout or cancellation the whole process group is killed; in the sandbox its PID namespace goes with it, so
``setsid`` and ``nohup`` children die too, and background processes never outlive the call.

What a call gets beyond the sandbox's default (the network to some hosts, the kernel's environment for an
installer, no sandbox at all) is its ``CommandScope``; the policy asks the person for it before the call gets here.
The command classifier runs first: a blocked command never starts, whatever else says yes. With ``[tools.shell]
transactional`` a command that may write runs inside a ``undo/transaction.Transaction``: its scope captured before,
what it changed put back on a failing exit, by the same mechanism ``%zeph undo`` uses.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import AfterValidator, Field, StringConstraints

from zeph_nb.config import Settings
from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.security import relay
from zeph_nb.security.env import scrub_env
from zeph_nb.security.netproxy import NetworkProxy
from zeph_nb.security.os_sandbox import PROXY_SOCKET, SandboxSpec, bash_runs_first, private_tmp, wrap
from zeph_nb.security.urls import Resolver
from zeph_nb.shell import ShellAnalysis
from zeph_nb.shell.escalations import ANY_HOST, merge
from zeph_nb.tools.base import SingleToolExecutor, ToolArgs, ToolCall, ToolDef, ToolOutput, parsed
from zeph_nb.tools.containment import (
    command_scope,
    sandbox_hints,
    sandbox_spec,
    scope_key,
    scope_of,
    shell_classifier,
)
from zeph_nb.tools.scope import CommandScope
from zeph_nb.tools.shell.host_guard import HostGuard
from zeph_nb.tools.shell.process import (
    ERROR_TAIL_CHARS,
    PIPE_GRACE_SECS,
    Capture,
    Started,
    close_pipes,
    exited,
    finish,
    kill_group,
    pump,
    raise_for_failure,
    spawn,
)
from zeph_nb.tools.skills.command_env import env_for_command
from zeph_nb.tools.skills.env import mask_output, skills_with_env

if TYPE_CHECKING:
    # Imported by the first call that needs them (a pane, a command that may write), not by a new Agent: the
    # tmux and undo machinery is ~10 ms of the first Agent's imports (bench/cold_start_bench.py).
    from zeph_nb.tools.shell.panes import TmuxPanes
    from zeph_nb.undo.transaction import Transaction

__all__ = ["BASH", "BASH_TMUX", "ShellExecutor"]

log = logging.getLogger("zeph_nb.tools")

# A host name (or *.domain, or * for any host) with an optional port: what the network proxy can match. A URL or a
# path here is a mistake the model should hear about, not a grant the proxy silently never matches.
_LABEL = r"[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?"
HOST_PATTERN = rf"^(\*|(\*\.)?{_LABEL}(\.{_LABEL})*\.?)(:\d{{1,5}})?$"


# How long a call waits for a command in a tmux pane: true (until it ends), false (not at all), seconds, or 30s/10m/1h.
def _at_most_a_day(text: str) -> str:
    if int(text[:-1]) * {"s": 1, "m": 60, "h": 3600}[text[-1]] > 86_400:
        raise ValueError(f"wait {text!r} is more than a day; use false and look with capture-pane instead")
    return text


Wait = (
    bool
    | Annotated[int, Field(ge=1, le=86_400)]
    | Annotated[str, StringConstraints(pattern=r"^\d{1,5}[smh]$"), AfterValidator(_at_most_a_day)]
)


class BashArgs(ToolArgs):
    command: str = Field(min_length=1, max_length=100_000, description="The bash command line to run")
    timeout: int | None = Field(None, ge=1, le=3600, description="Seconds before the command is killed")
    network: bool = Field(
        False, description="The command needs the internet (the person is asked; known clients such as pip are seen)"
    )
    hosts: list[Annotated[str, StringConstraints(pattern=HOST_PATTERN, max_length=260)]] | None = Field(
        None,
        max_length=20,
        description="Hosts the command needs, e.g. ['pypi.org', 'mirror.corp:8443', '*.example.org']; implies network",
    )
    sandbox: bool = Field(
        True, description="false runs it outside the OS sandbox: always asks the person; only after a sandbox failure"
    )
    # The seed's parameter, accepted on every backend (its default, true, is what a call does anyway); without
    # tmux panes there is nowhere for a command to go on running after the call, so false or a duration is refused
    # with how to turn them on (BashTmuxArgs below, offered with panes, says what they do there).
    wait: Wait = Field(
        True,
        description="true: run it and return its output (the only choice here: running in the background needs "
        "tmux panes, which the person turns on with %%zeph --tmux)",
    )


class BashTmuxArgs(BashArgs):
    wait: Wait = Field(
        True,
        description="true: run it and return its output (default). false: start it in a tmux pane and return at "
        "once; follow it with capture-pane and answer it with send-keys. A duration ('30s', '10m', '1h' or "
        "seconds): start it in a pane and wait up to that long; if it is still running, it keeps running there.",
    )


BASH = ToolDef(
    "bash",
    "Run a bash command in the working directory, inside an OS sandbox: only the working directory is writable, "
    "credentials are hidden, there is no network unless the call asks for it (network=true or hosts=[...]), and "
    "background processes end with the call. Returns the combined stdout and stderr and the exit code.",
    BashArgs,
    subject=("command",),
    subject_kind="command",
    mutates=True,
    runs_commands=True,
    filtered=True,
    enabled_by="shell_enabled",
    # The reference agent's name and the seed's: a rule written for "shell" must not miss bash, and a call to
    # "run_shell" runs bash (recorded as bash: the audit says which tool really ran).
    aliases=("shell", "run_shell"),
    utility=0.6,
)

# The same tool when commands may run in tmux panes: one name, so the rules, grants, filters and audit of bash
# apply to a command whichever way it runs.
BASH_TMUX = dataclasses.replace(
    BASH,
    description=BASH.description + " With wait=false or a duration the command runs in a tmux pane in the "
    "background (same sandbox, no network), for builds, training runs, servers and commands that ask questions.",
    args_model=BashTmuxArgs,
)


_NO_PANES = (
    "wait=false and wait durations run the command in the background in a tmux pane, and tmux panes are not on in "
    'this notebook (the person turns them on with %%zeph --tmux or [tools.execution] backend = "tmux"). Run it '
    "with wait=true (the default) and a timeout, or ask the person to turn them on"
)


class ShellExecutor(SingleToolExecutor):
    """Runs ``bash`` tool calls. ``env`` is the environment children start from (before scrubbing)."""

    tool = BASH

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        workdir: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        resolve: Resolver | None = None,
        panes: TmuxPanes | None = None,
    ) -> None:
        self.settings = settings or Settings()
        self.panes = panes  # commands may run in tmux panes: bash gains ``wait``
        if panes is not None:
            self.tool = BASH_TMUX
        self.resolve = resolve  # DNS for the network proxy (tests inject one)
        self.shell = self.settings.tools.shell
        self.workdir = Path(workdir) if workdir is not None else Path.cwd()
        self.classifier = shell_classifier(self.settings)
        self.scope_key = scope_key(self.settings, self.workdir)
        base_env = dict(os.environ) if env is None else dict(env)
        self.env = scrub_env(base_env, scrub=self.shell.scrub_env, keep=self.shell.keep_env)

    def requires_confirmation(self, call: ToolCall) -> bool:
        command = call.params.get("command")
        return not isinstance(command, str) or parsed(call, self.classifier, "command", command).verdict != "allow"

    def scope(self, args: BashArgs, analysis: ShellAnalysis) -> CommandScope:
        """What this call gets: sandboxed or not, the network to which hosts, a writable environment."""
        return scope_of(self.settings, args, analysis, self.workdir, key=self.scope_key)

    async def run(self, args: BashArgs, call: ToolCall) -> ToolOutput:
        # The gates' parse and scope of this very line: worked out here only when this executor runs without them.
        analysis = parsed(call, self.classifier, "command", args.command)
        if analysis.verdict == "block":
            raise ToolError(ToolErrorCategory.POLICY_BLOCKED, "; ".join(analysis.block_reasons))
        given = call.analysis is not None and call.analysis[1] is analysis
        scope = self._scope(args, analysis, call.scope if given else None)
        if scope.refused is not None:  # the gates refused it already; this executor may be used without them
            raise ToolError(ToolErrorCategory.POLICY_BLOCKED, scope.refused)
        wait = args.wait
        if wait is not True and self.panes is None:
            raise ToolError(ToolErrorCategory.INVALID_PARAMETERS, _NO_PANES)
        if wait is not True and self.panes is not None:
            from zeph_nb.tools.shell.background import in_pane

            return await in_pane(self.panes, self.settings, self.workdir, args.command, wait, scope, call)
        # Each hop to a worker thread costs 0.05-0.3 ms a command (more while other threads hold the GIL): taken
        # only when there is disk work to do there (a snapshot; a skill's folders to look through).
        transaction, snapshot_note = (
            await asyncio.to_thread(self._begin, analysis) if self._snapshots(analysis) else (None, None)
        )
        # A skill's script run alone gets the variables the person set for that skill, masked in what it prints.
        skill = (
            await asyncio.to_thread(env_for_command, analysis, self.settings, self.workdir)
            if self.settings.skills.enabled and skills_with_env(self.settings)
            else None
        )
        output = await self.run_command(
            args.command, timeout=args.timeout or self.shell.timeout, scope=scope, opened=call.opened_paths,
            extra_env=skill[1] if skill else None,
        )  # fmt: skip
        if skill is not None:
            output = mask_output(output, *skill)
        raw = dict(output.raw)
        notes = [snapshot_note] if snapshot_note else []
        exit_code = output.exit_code
        if transaction is not None and exit_code is not None and self._should_roll_back(exit_code):
            rollback = await asyncio.to_thread(transaction.roll_back)
            raw["rollback"] = rollback.raw()
            notes.append(rollback.describe())
        summary = output.summary + "".join(f"\n[{note}]" for note in notes)
        result = ToolOutput(BASH.name, summary, raw=raw, call_id=call.call_id, exit_code=exit_code,
                            truncated=output.truncated)  # fmt: skip
        raise_for_failure(result)
        return result

    def _scope(self, args: BashArgs, analysis: ShellAnalysis, prepared: CommandScope | None) -> CommandScope:
        """The gates' scope of this call when it was worked out from this executor's own settings and working
        directory (the same ``key``), else this executor's own: it never runs with looser containment than its
        settings allow. Its own may not give more than the one the person approved either (with a chain configured
        stricter than this executor, say): then the call is refused, naming what it would have got."""
        if prepared is not None and prepared.key == self.scope_key:
            return prepared
        own = self.scope(args, analysis)
        if prepared is None or own.refused is not None:
            return own
        more = _beyond(own, prepared)
        if more:
            raise ToolError(ToolErrorCategory.POLICY_BLOCKED,
                            f"this shell's settings differ from the ones the call was approved under: here it would "
                            f"{more}, which was not approved; run it with one configuration")  # fmt: skip
        return own

    async def run_command(
        self,
        command: str,
        *,
        timeout: float,
        scope: CommandScope | None = None,
        opened: tuple[str, ...] = (),
        extra_env: Mapping[str, str] | None = None,
    ) -> ToolOutput:
        """Run one command line within ``scope`` (default: the sandbox's default, when one works here), with the
        ``opened`` folders writable too; the structured envelope is ``raw``. Raises ToolError(TIMEOUT) on
        timeout."""
        if scope is None:
            scope = command_scope(self.settings, merge(()), network=False, hosts=(), sandbox=True)
        proxy: NetworkProxy | None = None
        spec = sandbox_spec(self.settings, self.workdir, environment=scope.environment, opened=opened)
        with HostGuard(self.settings, spec, journal_at_enter=False) as guard:  # _spawn writes the journal
            spec = dataclasses.replace(spec, trees=guard.trees)
            if not scope.sandboxed:
                output = await self._spawn(command, timeout, scope, None, None, guard, extra_env)
            else:
                with private_tmp() as tmp:
                    spec = dataclasses.replace(spec, tmp_dir=tmp)
                    if scope.hosts:
                        allow_private = self.settings.tools.scrape.allow_private
                        async with NetworkProxy(
                            scope.hosts, allow_private=allow_private, resolve=self.resolve
                        ) as proxy:
                            spec = dataclasses.replace(spec, network_socket=proxy.socket_path)
                            output = await self._spawn(command, timeout, scope, spec, proxy, guard, extra_env)
                    else:
                        output = await self._spawn(command, timeout, scope, spec, None, guard, extra_env)
        notes = sandbox_hints(output, scope, proxy)
        raw = dict(output.raw)
        raw["sandbox"] = scope.label
        if proxy is not None:
            raw["network"] = {
                "granted": list(scope.hosts),
                "reached": list(proxy.log.reached),
                "refused": dict(proxy.log.refused),
            }
        if guard.notes:
            raw["undone"] = list(guard.notes)
            notes += guard.notes
        summary = output.summary.rstrip("\n") + "".join(f"\n[{note}]" for note in notes) if notes else output.summary
        return dataclasses.replace(output, summary=summary, raw=raw)

    async def _spawn(
        self,
        command: str,
        timeout: float,
        scope: CommandScope,
        spec: SandboxSpec | None,
        proxy: NetworkProxy | None,
        guard: HostGuard,
        extra_env: Mapping[str, str] | None = None,
    ) -> ToolOutput:
        argv = ["bash", "-c", command]
        env = {**self.env, **extra_env} if extra_env else self.env
        gate: tuple[int, int] | None = None
        if spec is not None:
            # Home is read-only in the sandbox; caches (pip, uv, matplotlib) go to the sandbox's private /tmp.
            env = {**env, "XDG_CACHE_HOME": "/tmp/.cache"}  # noqa: S108 - the sandbox's own /tmp
            if proxy is not None:
                argv = [sys.executable, "-I", relay.__file__, PROXY_SOCKET, "--", *argv]
            elif not bash_runs_first(env):
                gate = os.pipe()  # the command waits on it for the guard's journal (os_sandbox.wrap)
            try:
                argv = wrap(argv, spec, scope.status, gate_fd=gate[0] if gate else None, env=env)
            except BaseException:  # refused before anything started (too many mounts): no descriptor left open
                if gate is not None:
                    os.close(gate[0])
                    os.close(gate[1])
                raise
        if gate is None:
            guard.write_journal()
        # In a session of its own, so a kill reaches every child; stdin closed, both pipes read.
        try:
            process = await spawn(argv, cwd=self.workdir, env=env, pass_fds=gate[:1] if gate else ())
        except BaseException:
            if gate is not None:
                os.close(gate[0])
                os.close(gate[1])
            raise
        if gate is not None:
            await self._open_gate(process, gate, guard)
        capture = Capture()
        pumps = [
            asyncio.create_task(pump(process.stdout, "stdout", capture)),
            asyncio.create_task(pump(process.stderr, "stderr", capture)),
        ]
        try:
            exit_code = await asyncio.wait_for(exited(process), timeout)
        except TimeoutError:
            await kill_group(process)
            await finish(pumps)
            close_pipes(process)
            envelope = _envelope(capture, None)
            tail = capture.interleaved()[-ERROR_TAIL_CHARS:]
            raise ToolError(
                ToolErrorCategory.TIMEOUT,
                f"the command did not finish within {timeout:g}s and was killed"
                + (f"; output so far:\n{tail}" if tail else "; it printed nothing"),
                details=envelope,
            ) from None
        except BaseException:  # cancelled (Stop, kernel shutdown): leave nothing running behind us
            await asyncio.shield(kill_group(process))
            await finish(pumps)
            close_pipes(process)
            raise
        held_open = not await finish(pumps, grace=PIPE_GRACE_SECS, cancel=False)
        if held_open:
            # Background children still hold our pipes: their output would never end. Stop the group.
            await kill_group(process)
            await finish(pumps)
            close_pipes(process)
        envelope = _envelope(capture, exit_code)
        text = capture.interleaved()
        summary = text if text else "(no output)"
        if exit_code != 0:
            summary = summary.rstrip("\n") + f"\n[exit code: {exit_code}]"
        if capture.truncated:  # seed 003: the model must see that it did not get everything
            kept = f"{capture.cap // 2**20} MB" if capture.cap >= 2**20 else f"{capture.cap:,} bytes"
            summary = summary.rstrip("\n") + (
                f"\n[output truncated: only the first {kept} of each stream were captured; the rest was "
                "dropped. Narrow the command (grep, head, a log file) to see what you need]"
            )
        if held_open:
            envelope["background_stopped"] = True
            summary = summary.rstrip("\n") + (
                "\n[background processes still writing to this output were stopped; redirect their output "
                "(cmd > log 2>&1 &) to keep them running]"
            )
        return ToolOutput(BASH.name, summary, raw=envelope, exit_code=exit_code, truncated=capture.truncated)

    async def _open_gate(self, process: Started, gate: tuple[int, int], guard: HostGuard) -> None:
        """The guard's journal, written (fsync'd: 0.3-3 ms) while bwrap builds the sandbox, then the command let
        through. If the journal cannot be written the command never runs: its group is stopped before the gate
        closes (a gate closed without a ``y`` stops it too, so a kernel that dies here leaves nothing running)."""
        os.close(gate[0])
        try:
            guard.write_journal()
            with contextlib.suppress(BrokenPipeError):  # bwrap already gone (it failed): its output says why
                os.write(gate[1], b"y")
        except BaseException:
            await asyncio.shield(kill_group(process))
            close_pipes(process)
            raise
        finally:
            os.close(gate[1])

    # -- transactions (undo/transaction.py: the snapshot mechanism %zeph undo uses, contents in memory) ------

    def _snapshots(self, analysis: ShellAnalysis) -> bool:
        """Whether the scope is captured before this command (``[tools.shell] transactional``, a command that may
        write)."""
        return self.shell.transactional and analysis.may_write

    def _begin(self, analysis: ShellAnalysis) -> tuple[Transaction | None, str | None]:
        """The scope captured before a command that may write, or why there is none (None, None: not asked for)."""
        if not self._snapshots(analysis):
            return None, None
        from zeph_nb.undo.transaction import SnapshotFailed, Transaction

        try:
            transaction = Transaction.begin(self.workdir, self.shell.transaction_scope, self.shell.max_snapshot_bytes)
        except SnapshotFailed as e:
            if self.shell.snapshot_required:
                raise ToolError(e.category, f"{e.message}; the command was not run (snapshot_required)") from None
            return None, f"no snapshot taken, changes cannot be rolled back: {e.message}"
        return transaction, None

    def _should_roll_back(self, exit_code: int) -> bool:
        if not self.shell.auto_rollback:
            return False
        codes = self.shell.auto_rollback_exit_codes
        return exit_code in codes if codes else exit_code != 0


def _beyond(own: CommandScope, approved: CommandScope) -> str:
    """What ``own`` gives a command that ``approved`` did not (empty: nothing)."""
    if approved.sandboxed and not own.sandboxed:
        return "run outside the OS sandbox"
    if ANY_HOST not in approved.hosts and (hosts := [h for h in own.hosts if h not in approved.hosts]):
        return "reach " + ("any host" if ANY_HOST in hosts else ", ".join(hosts))
    if own.environment is not None and own.environment != approved.environment:
        return f"write {own.environment}"
    return ""


def _envelope(capture: Capture, exit_code: int | None) -> dict[str, Any]:
    return {
        "stdout": capture.text("stdout"),
        "stderr": capture.text("stderr"),
        "exit_code": exit_code,
        "truncated": capture.truncated,
    }
