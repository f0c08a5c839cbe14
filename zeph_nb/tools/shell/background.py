"""A bash call with ``wait`` other than true: the command runs in a tmux pane (``panes.py``), in the same OS sandbox a
direct call gets, and the call returns at once (``wait=false``), when it ends, or after the time given — when the
command keeps running in its pane, to be read with capture-pane and answered with send-keys.

What differs from a direct call, and why: the terminal merges stdout and stderr (the person watching sees them as a
terminal shows them); there is no network (the proxy that grants it lives only as long as one call); there is no
snapshot to roll back to (the command outlives the call); the command is not killed when the call ends. What it
may not leave behind (a new repository's hooks and config, a ``zeph.toml``) is undone as it appears, by the pane
watcher's thread (``pane_watch.py``), and what it writes is told to provenance there.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
from typing import TYPE_CHECKING

from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.security.os_sandbox import wrap
from zeph_nb.tools.base import ToolCall, ToolOutput
from zeph_nb.tools.containment import sandbox_spec
from zeph_nb.tools.scope import CommandScope
from zeph_nb.tools.shell.host_guard import HostGuard
from zeph_nb.tools.shell.pane_watch import READY_SECS, pane_watcher
from zeph_nb.tools.shell.process import ERROR_TAIL_CHARS, raise_for_failure

if TYPE_CHECKING:
    from pathlib import Path

    from zeph_nb.config import Settings
    from zeph_nb.tools.shell.pane_model import Pane
    from zeph_nb.tools.shell.panes import TmuxPanes

__all__ = ["in_pane", "report_pane", "seconds_of", "tail_of"]

_UNITS = {"s": 1, "m": 60, "h": 3600}


def seconds_of(wait: bool | int | str) -> float | None:
    """``wait`` in seconds: 0 for false, None for true (no limit)."""
    if wait is True:
        return None
    if wait is False:
        return 0.0
    if isinstance(wait, int):
        return float(wait)
    return float(int(wait[:-1]) * _UNITS[wait[-1]])


def tail_of(text: str, limit: int) -> str:
    """The last ``limit`` characters, saying how many were cut from the start."""
    if len(text) <= limit:
        return text
    return f"[truncated {len(text) - limit} chars from start]\n" + text[-limit:]


_DEAD_LINE = re.compile(r"\n?Pane is dead \((?:status|signal) [^)\n]*\)\s*\Z")


def pane_text(captured: str, *, dead: bool = False) -> str:
    """What a pane printed: the screen's empty rows below the last output removed, and for a pane whose command
    ended, tmux's own "Pane is dead (status 3, <time>)" line under it."""
    text = captured.rstrip()
    return _DEAD_LINE.sub("", text).rstrip() if dead else text


async def in_pane(
    panes: TmuxPanes,
    settings: Settings,
    workdir: Path,
    command: str,
    wait: bool | int | str,
    scope: CommandScope,
    call: ToolCall,
) -> ToolOutput:
    """Start a bash call's ``command`` in a new pane of ``panes``, in the sandbox its ``scope`` gives, run from
    ``workdir``; then answer as ``report_pane`` does."""
    if scope.hosts:
        shown = "any host" if "*" in scope.hosts else ", ".join(scope.hosts)
        raise ToolError(
            ToolErrorCategory.INVALID_PARAMETERS,
            f"a command in a tmux pane gets no network, and this one needs {shown}; run it with wait=true (the "
            "default), which can be granted the network",
        )
    argv = ["bash", "-c", command]
    # A timeout asked for stops the command then (TERM, KILL 5 s later), whether or not anyone waits.
    timeout = call.params.get("timeout")  # validated by BashArgs: 1 to 3600 seconds, or absent
    if isinstance(timeout, int) and timeout > 0:
        argv = ["timeout", "--kill-after=5", str(timeout), *argv]
    env: dict[str, str] = {}
    spec = sandbox_spec(settings, workdir, environment=scope.environment, opened=call.opened_paths)
    # What the command may not leave behind (a zeph.toml, a git hook) is checked while it runs and when it ends,
    # as around a direct call; the guard's journal meanwhile keeps such files distrusted.
    guard = HostGuard(settings, spec)
    guard.__enter__()
    try:
        # Its trees are watched before the command starts, and what matters is undone as it appears: nobody may
        # look at the pane for hours (pane_watch.py).
        watch = pane_watcher().watch(guard, call_id=call.call_id)
        await asyncio.to_thread(watch.ready.wait, READY_SECS)
        if scope.sandboxed:
            # A tmpfs /tmp: a folder on disk would be removed when this call returns, under a command still
            # running.
            spec = dataclasses.replace(spec, trees=guard.trees, new_session=False, tmp_dir=None)
            argv = wrap(argv, spec, scope.status)
            env["XDG_CACHE_HOME"] = "/tmp/.cache"  # noqa: S108 - the sandbox's own /tmp
        # tmux tells a pane where its server is: unset before the sandbox starts (bwrap's own environment is
        # readable in /proc/1/environ inside it), and a tmux of the command's own would take itself for nested.
        argv = ["env", "-u", "TMUX", "-u", "TMUX_PANE", *argv]
        pane = await panes.open(argv, command, workdir=workdir, env=env, sandboxed=scope.sandboxed,
                                guard=guard)  # fmt: skip
        watch.pid = pane.pid  # when it is gone, the watcher closes the guard (no look needed)
    except BaseException:
        guard.__exit__(None, None, None)
        raise
    return await report_pane(panes, pane, wait, call, sandbox=scope.label)


async def report_pane(
    panes: TmuxPanes, pane: Pane, wait: bool | int | str, call: ToolCall, *, sandbox: str
) -> ToolOutput:
    """The answer to a bash call whose command was started in ``pane``: at once, when it ends, or after ``wait``
    (that it still runs, with its output so far). Shared by every place panes live (here, an SSH host, a
    container)."""
    where = f"tmux pane {pane.id}"
    raw: dict[str, object] = {"pane": pane.id, "session": panes.session, "sandbox": sandbox,
                              "attach": panes.attach_command}  # fmt: skip
    limit = seconds_of(wait)
    if limit == 0:
        summary = (f"command dispatched to {where}; read its output with capture-pane (target {pane.id}), answer "
                   f"it with send-keys. A person can watch it: {panes.attach_command}")  # fmt: skip
        return ToolOutput("bash", summary, raw={**raw, "running": True}, call_id=call.call_id)
    state = await panes.wait(pane, limit)
    text = pane_text(await panes.capture(pane, "-J"), dead=state.dead)
    if not state.dead:
        pane.check(ended=False)
        notes = "".join(f"\n[{note}]" for note in pane.take_notes())
        so_far = tail_of(text, ERROR_TAIL_CHARS) + notes
        # Not an error: the model asked to wait this long and go on, and the command runs on as it should. A
        # timeout error here drew a red "failed" card and a block saying both "not retried" and "retryable".
        summary = (f"the command is still running in {where} after {limit:g}s; it was not stopped. Read it with "
                   f"capture-pane (target {pane.id}), answer it with send-keys, stop it with send-keys keys=['C-c']"
                   + (f"; output so far:\n{so_far}" if so_far else "; it printed nothing yet"))  # fmt: skip
        return ToolOutput("bash", summary, raw={**raw, "running": True, "stdout": text}, call_id=call.call_id)
    pane.reported = True
    code = state.code if state.signal is None else 128 + state.signal  # as a shell reports a signalled command
    summary = text or "(no output)"
    if code != 0:
        summary = summary.rstrip("\n") + f"\n[{state.describe()}]"
    undone = pane.take_notes()
    summary += "".join(f"\n[{note}]" for note in undone)
    if pane.stopped:  # the pane watcher stopped it: why, whatever earlier look took the note
        summary += f"\n[{pane.stopped}]"
    envelope = {**raw, "stdout": text, "stderr": "", "streams": "merged by the terminal", "exit_code": code}
    if undone:
        envelope["undone"] = undone
    result = ToolOutput("bash", summary, raw=envelope, call_id=call.call_id, exit_code=code)
    raise_for_failure(result)
    return result
