"""The ``time`` tool: the current time in the format the model asks for (models do not know what time it is)."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from email.utils import format_datetime
from typing import Literal

from pydantic import Field

from zeph_nb.tools.base import BuiltinArgs, SingleToolExecutor, ToolCall, ToolDef, ToolOutput

__all__ = ["TIME", "TimeExecutor", "format_time"]

TimeFormat = Literal["epoch", "epoch_ms", "epoch_ns", "iso", "rfc2822", "date", "time"]


class TimeArgs(BuiltinArgs):
    format: TimeFormat = Field(
        "epoch",
        description="epoch (seconds, the default), epoch_ms, epoch_ns, iso (UTC with milliseconds, "
        "2026-11-25T06:40:12.345Z), rfc2822, date or time",
    )
    utc: bool = Field(False, description="rfc2822, date and time in UTC instead of the machine's local time zone")


TIME = ToolDef("time", "Get the current date and time.", TimeArgs, enabled_by="time_enabled")


def format_time(fmt: TimeFormat, *, utc: bool = False, now_ns: int | None = None) -> str:
    """Format the instant ``now_ns`` (nanoseconds since the epoch; default: now)."""
    ns = time.time_ns() if now_ns is None else now_ns
    moment = datetime.fromtimestamp(ns / 1e9, tz=UTC)
    if not utc:
        moment = moment.astimezone()
    formats: dict[str, Callable[[], str]] = {
        "epoch": lambda: str(ns // 1_000_000_000),
        "epoch_ms": lambda: str(ns // 1_000_000),
        "epoch_ns": lambda: str(ns),
        # One unambiguous instant whatever the machine's zone: what logs and APIs compare against.
        "iso": lambda: _iso_utc_ms(ns),
        "rfc2822": lambda: format_datetime(moment),
        "date": lambda: moment.date().isoformat(),
        "time": lambda: moment.time().isoformat(timespec="seconds"),
    }
    return formats[fmt]()


def _iso_utc_ms(ns: int) -> str:
    """``2026-11-25T06:40:12.345Z``: exact (integer arithmetic, no float rounding of the milliseconds)."""
    seconds, rest = divmod(ns, 1_000_000_000)
    return datetime.fromtimestamp(seconds, tz=UTC).strftime("%Y-%m-%dT%H:%M:%S") + f".{rest // 1_000_000:03d}Z"


class TimeExecutor(SingleToolExecutor):
    tool = TIME

    async def run(self, args: TimeArgs, call: ToolCall) -> ToolOutput:
        ns = time.time_ns()
        text = format_time(args.format, utc=args.utc, now_ns=ns)
        return ToolOutput(
            TIME.name, text, raw={"format": args.format, "value": text, "epoch_ns": ns}, call_id=call.call_id
        )
