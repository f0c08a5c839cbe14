"""capture-pane and send-keys: read what a background command printed, and type into it.

Offered only when commands may run in tmux panes (``%%zeph --tmux``, ``[tools.execution] backend = "tmux"``), and
only over the panes this agent's commands opened. Text typed into a pane is a command line as far as the policy is
concerned: it passes the same blocklist and asks when a command would (``subject_kind="command"``).

A terminal line is built by everything typed into it, so what can change a line after it was checked asks too:

- ``keys`` are key names tmux knows — a name it does not know it *types*, letter by letter — so no modifier on a
  named key and at most one on a character. Only keys that end or clear a line run without asking (``C-c``,
  ``C-d``, ``C-z``, ``C-\\``, ``C-u``, ``Enter``); editing keys (``Home``, ``M-d``, ``Tab``, arrows) ask.
- ``literal_text`` holds no control characters (``\\r`` is Enter to a terminal, ``\\x01`` is ``C-a``): those are
  keys. Text sent without ``enter`` (or an ``Enter`` key after it) asks: what the line becomes depends on what is
  typed after it.
- Typing into a pane whose command runs outside the sandbox (an approved ``sandbox=false``) always asks.

What a program other than a shell does with a line (a Python prompt, say) no check of shell syntax can know; it
happens inside the sandbox the pane's command runs in.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import Sequence
from typing import Annotated, Any

from pydantic import AfterValidator, Field, StringConstraints

from zeph_nb.config import Settings
from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.tools.base import ToolArgs, ToolCall, ToolDef, ToolOutput, checked_args, parsed
from zeph_nb.tools.containment import shell_classifier
from zeph_nb.tools.shell.background import pane_text, tail_of
from zeph_nb.tools.shell.panes import MAX_CAPTURE_CHARS, TmuxPanes

__all__ = ["CAPTURE_PANE", "SEND_KEYS", "PaneExecutor"]

_TARGET = Annotated[str, StringConstraints(pattern=r"^(%\d{1,6}|user)$")]
_TARGET_HELP = (
    "The pane, e.g. '%3' (default: the latest command's pane); 'user' is the person's own tmux pane "
    "when the notebook runs inside tmux (always asks)"
)
_LINE = int | Annotated[str, StringConstraints(pattern=r"^-$")]
# Named keys, optionally with modifiers, or one character with at least one modifier (C-c, M-x): never plain text.
_NAMED = (
    r"Enter|Escape|Tab|BTab|BSpace|Space|Up|Down|Left|Right|Home|End|PageUp|PageDown|PPage|NPage|IC|DC"
    r"|F[1-9]|F1[0-2]"
)
KEY_PATTERN = rf"(?:{_NAMED})|[CM]-[A-Za-z0-9@^_?\[\]\\]"  # matched whole (fullmatch: no trailing newline)
SAFE_KEYS = frozenset({"C-c", "C-d", "C-z", "C-\\", "C-u", "Enter"})  # end or clear a line; the rest ask
_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")  # every C0 control but newline, and DEL


_DELAY = re.compile(r"(\d{1,6})(ms|s)")


def delay_seconds(text: str) -> float:
    """A duration the seed's way, "500ms" or "2s", in seconds."""
    found = _DELAY.fullmatch(text)
    if found is None:
        raise ValueError(f"delay {text[:40]!r} is not a duration such as '500ms' or '2s'")
    return int(found.group(1)) / (1000 if found.group(2) == "ms" else 1)


def _delay_within(limit_secs: float) -> Any:
    def check(text: str) -> str:
        if delay_seconds(text) > limit_secs:
            raise ValueError(f"delay {text!r} is over {limit_secs:g}s")
        return text

    return AfterValidator(check)


def _wait_secs(args: CapturePaneArgs | SendKeysArgs) -> float:
    """How long to wait: ``delay`` (the seed's duration string) when given, else ``delay_ms``."""
    return delay_seconds(args.delay) if args.delay is not None else args.delay_ms / 1000


def _named_key(key: str) -> str:
    if not re.fullmatch(KEY_PATTERN, key):
        raise ValueError(f"{key[:40]!r} is not a key name; keys are control keys by name (C-c, C-d, Enter, Escape, Up, "
                         "Tab, F1); type text with literal_text")  # fmt: skip
    return key


def _no_controls(text: str) -> str:
    found = _CONTROL.search(text)
    if found is not None:
        raise ValueError(f"literal_text holds the control character {found.group()!r}; send control keys with keys "
                         "(Enter, Tab, C-c …) and end lines with \\n or enter=true")  # fmt: skip
    return text


class CapturePaneArgs(ToolArgs):
    target: _TARGET | None = Field(None, description=_TARGET_HELP)
    start: _LINE | None = Field(None, description="First line: 0 is the top of the screen, negative lines are "
                                "history, '-' the start of history (default)")  # fmt: skip
    end: _LINE | None = Field(None, description="Last line, as start; '-' the end of the screen (default)")
    join_wrapped_lines: bool = Field(True, description="Join lines the terminal wrapped")
    preserve_trailing_spaces: bool = False
    include_escape_sequences: bool = Field(False, description="Keep colour and attribute escapes")
    escape_non_printable: bool = Field(False, description="Write non-printable characters as octal \\xxx")
    include_alternate_screen: bool = Field(False, description="Capture the alternate screen (full-screen programs "
                                           "such as less or vim); falls back to the normal one, saying so")  # fmt: skip
    delay_ms: int = Field(0, ge=0, le=60_000, description="Wait this long before capturing")
    delay: Annotated[str, _delay_within(60)] | None = Field(
        None, description="The same as a duration, '500ms' or '2s' (replaces delay_ms)"
    )


class SendKeysArgs(ToolArgs):
    target: _TARGET | None = Field(None, description=_TARGET_HELP)
    keys: list[Annotated[str, AfterValidator(_named_key)]] = Field(
        default_factory=list, max_length=50,
        description="Control keys pressed after literal_text, by name: C-c, C-d, Enter, Escape, Up, Tab, F1 …",
    )  # fmt: skip
    literal_text: Annotated[str, AfterValidator(_no_controls)] = Field(
        "", max_length=10_000, description="Text typed as it is, before the keys (lines end with \\n)"
    )
    enter: bool = Field(False, description="Press Enter last, after the text and the keys")
    delay_ms: int = Field(300, ge=0, le=10_000, description="Wait this long, then show the pane's last lines")
    delay: Annotated[str, _delay_within(10)] | None = Field(
        None, description="The same as a duration, '500ms' or '2s' (replaces delay_ms)"
    )


CAPTURE_PANE = ToolDef(
    "capture-pane",
    "Read a background command's tmux pane (started by bash with wait=false or a duration): whether it is still "
    f"running, and the last {MAX_CAPTURE_CHARS:,} characters it printed.",
    CapturePaneArgs,
    enabled_by="shell_enabled",
)
SEND_KEYS = ToolDef(
    "send-keys",
    "Type into a background command's tmux pane: literal text, then control keys by name (C-c stops it; "
    "literal_text='y', keys=['Enter'] answers a [y/N] prompt), then Enter. Returns the pane's last lines.",
    SendKeysArgs,
    subject=("literal_text",),
    subject_kind="command",
    mutates=True,
    own_confirmation=True,  # keys, a partial line, an unsandboxed pane: asked below, beyond the text's parse
    enabled_by="shell_enabled",
)


class PaneExecutor:
    """Runs capture-pane and send-keys over the panes of ``panes``."""

    def __init__(self, settings: Settings, panes: TmuxPanes, *, remote: bool = False) -> None:
        self.panes = panes
        # Panes on another machine: what send-keys types runs there (asks unless a rule allows it).
        self.tools = (CAPTURE_PANE, dataclasses.replace(SEND_KEYS, remote=True) if remote else SEND_KEYS)
        self.classifier = shell_classifier(settings)

    def tool_definitions(self) -> Sequence[ToolDef]:
        return self.tools

    def requires_confirmation(self, call: ToolCall) -> bool:
        params = call.params
        if params.get("target") == "user":
            return True  # the person's own terminal: outside every sandbox, and it may show anything
        if call.tool_id != SEND_KEYS.name:
            return False
        typed, keys = str(params.get("literal_text") or ""), params.get("keys") or []
        if not isinstance(keys, list) or any(key not in SAFE_KEYS for key in keys):
            return True  # editing keys can make a line checked earlier into another command
        if typed and params.get("enter") is not True and "Enter" not in keys:
            return True  # a partial line: what it becomes depends on what is typed next (keys come after the text)
        target = params.get("target")
        pane = self.panes.panes.get(target) if isinstance(target, str) else (
            list(self.panes.panes.values())[-1] if self.panes.panes else None)  # fmt: skip
        if pane is not None and not pane.sandboxed:
            return True  # nothing contains what that pane runs
        return bool(typed) and parsed(call, self.classifier, "literal_text", typed).verdict != "allow"

    async def execute(self, call: ToolCall) -> ToolOutput | None:
        if call.tool_id == CAPTURE_PANE.name:
            args: Any = checked_args(CAPTURE_PANE, call)
            return await self._capture(args, call)
        if call.tool_id == SEND_KEYS.name:
            args = checked_args(SEND_KEYS, call)
            return await self._send(args, call)
        return None

    async def _capture(self, args: CapturePaneArgs, call: ToolCall) -> ToolOutput:
        pane = self.panes.pane(args.target)
        if delay := _wait_secs(args):
            await asyncio.sleep(delay)
        flags = [flag for flag, on in (("-J", args.join_wrapped_lines), ("-N", args.preserve_trailing_spaces),
                                       ("-e", args.include_escape_sequences), ("-C", args.escape_non_printable))
                 if on]  # fmt: skip
        start = "-" if args.start is None else str(args.start)
        end = "-" if args.end is None else str(args.end)
        notes = []
        if args.include_alternate_screen:
            try:
                text = await self.panes.capture(pane, *flags, "-a", start=start, end=end)
            except ToolError:
                notes.append("[no alternate screen in this pane; the normal screen is shown]")
                text = await self.panes.capture(pane, *flags, start=start, end=end)
        else:
            text = await self.panes.capture(pane, *flags, start=start, end=end)
        state = await self.panes.state(pane)
        pane.check(ended=state.dead)  # a look is when what the command may not leave behind is undone
        body = tail_of(pane_text(text, dead=state.dead), MAX_CAPTURE_CHARS)
        status = pane.status(state)
        notes += [f"[{note}]" for note in pane.take_notes()]
        summary = "\n".join([status, *notes, body or "(nothing printed yet)"])
        return ToolOutput(CAPTURE_PANE.name, summary, raw={"pane": pane.id, "text": body}, call_id=call.call_id)

    async def _send(self, args: SendKeysArgs, call: ToolCall) -> ToolOutput:
        pane = self.panes.pane(args.target)
        if args.literal_text:
            analysis = parsed(call, self.classifier, "literal_text", args.literal_text)
            if analysis.verdict == "block":  # the gates refused it already; this executor may be used without them
                raise ToolError(ToolErrorCategory.POLICY_BLOCKED, "; ".join(analysis.block_reasons))
        if not (args.keys or args.literal_text or args.enter):
            raise ToolError(ToolErrorCategory.INVALID_PARAMETERS, "nothing to send: give keys, literal_text or enter")
        if (await self.panes.state(pane)).dead:
            why = f"pane {pane.id} has ended; nothing reads what is typed there. Start the command again"
            raise ToolError(ToolErrorCategory.INVALID_PARAMETERS, why)
        await self.panes.send(pane, keys=args.keys, literal=args.literal_text, enter=args.enter)
        if delay := _wait_secs(args):
            await asyncio.sleep(delay)
        state = await self.panes.state(pane)
        pane.check(ended=state.dead)
        last = pane_text(await self.panes.capture(pane, "-J", start="-20"), dead=state.dead)
        sent = " ".join([*([repr(args.literal_text)] if args.literal_text else []), *args.keys,
                         *(["Enter"] if args.enter else [])])  # fmt: skip
        status = pane.status(state)
        undone = "".join(f"\n[{note}]" for note in pane.take_notes())
        summary = f"sent {sent} to pane {pane.id}\n{status}{undone}\n{tail_of(last, 2000)}"
        return ToolOutput(SEND_KEYS.name, summary, raw={"pane": pane.id, "sent": sent}, call_id=call.call_id)
