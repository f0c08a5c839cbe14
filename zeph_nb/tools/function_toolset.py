"""FunctionToolset: the person's Python functions (``@zeph_nb.tool``) as one toolset the gates wrap.

How a call runs:

* an ``async def`` is awaited on the kernel's event loop, where it may touch widgets and the notebook's objects
  as a cell would; it must not block (a blocking one freezes the kernel, and its timeout cannot fire);
* a plain ``def`` runs in a thread of its own, so the loop stays free for the Stop button and the approval
  buttons while it works. It sees the same objects as the notebook (one process, one namespace) — a function that
  changes a DataFrame changes the person's. At its timeout, or on Stop, the call ends for the agent and the thread
  is asked to stop (an exception raised in it at its next Python instruction); one blocked inside C code (a
  ``time.sleep``, a socket read) stops only when that returns. Python cannot kill a thread.

The return value becomes the text the model reads: a str as it is, a pydantic model, dataclass, dict, list or number
as JSON, anything else as its ``repr``; the output gate then filters, redacts and overflows it like any tool's.
An exception becomes a ToolError the model reads (a category from ``errors.py`` and the traceback's last frames);
SystemExit and KeyboardInterrupt too: a tool does not end the kernel.
"""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import json
import threading
import traceback
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel

from zeph_nb.errors import ConfigError, ToolError, ToolErrorCategory, classify_io_error
from zeph_nb.tools.base import ToolCall, ToolDef, ToolOutput, checked_args
from zeph_nb.tools.functions import FunctionTool

__all__ = ["FunctionToolset", "result_text"]

FRAMES = 3  # the traceback's last frames the model reads
MESSAGE_CHARS = 4_000


class Abandoned(BaseException):
    """Raised in a function's thread when the agent stopped waiting for it (a BaseException, so that an
    ``except Exception`` in the person's code does not swallow it)."""


class FunctionToolset:
    """Python functions as tools. ``offer`` replaces the set (the ``%%zeph`` agent re-reads the registry before
    each run); two functions with one tool name are a ConfigError."""

    def __init__(self, tools: Iterable[FunctionTool] = (), *, timeout: float = 60.0, max_chars: int = 0) -> None:
        self.timeout = timeout
        self.max_chars = max_chars  # a result longer than this is cut (0: never); the overflow keeps no more
        self._tools: dict[str, FunctionTool] = {}
        self.offer(tools)

    def offer(self, tools: Iterable[FunctionTool]) -> None:
        found: dict[str, FunctionTool] = {}
        for made in tools:
            other = found.setdefault(made.name, made)
            if other is not made and other.fn is not made.fn:
                raise ConfigError(f"two functions are offered as the tool {made.name!r} ({other.origin} and "
                                  f"{made.origin}); give one another name with @zeph_nb.tool(name=...)")  # fmt: skip
        self._tools = found

    @property
    def tools(self) -> list[FunctionTool]:
        return list(self._tools.values())

    def origin_of(self, name: str) -> str:
        """Who defines ``name``, for a conflict message: the function it calls."""
        made = self._tools.get(name)
        return f"your function {made.origin} (@zeph_nb.tool)" if made is not None else "a function toolset"

    def tool_definitions(self) -> Sequence[ToolDef]:
        return [made.definition for made in self._tools.values()]

    def requires_confirmation(self, call: ToolCall) -> bool:
        made = self._tools.get(call.tool_id)
        return made is not None and made.definition.mutates  # a function that changes things asks unless allowed

    async def execute(self, call: ToolCall) -> ToolOutput | None:
        made = self._tools.get(call.tool_id)
        if made is None:
            return None
        args = checked_args(made.definition, call)
        values = {name: getattr(args, name) for name in type(args).model_fields}
        positional = [values.pop(name) for name in made.positional]
        timeout = made.timeout or self.timeout
        run = _awaited if made.is_async else _in_thread
        try:
            async with asyncio.timeout(timeout):
                ok, value = await run(made, positional, values, self.max_chars)
        except TimeoutError:  # ours: the function's own comes back as (False, error)
            raise ToolError(ToolErrorCategory.TIMEOUT,
                            f"{made.name} did not return in {timeout:g} s (@zeph_nb.tool(timeout=...) or [tools] "
                            "function_timeout_secs); the agent stopped waiting. Ask for less, or say it is too slow"
                            ) from None  # fmt: skip
        if not ok:
            raise failure(made, value)
        return ToolOutput(made.name, value, raw={"function": made.origin, "chars": len(value)}, call_id=call.call_id)


async def _awaited(made: FunctionTool, args: list[Any], kwargs: dict[str, Any], limit: int) -> tuple[bool, Any]:
    try:
        value = await made.fn(*args, **kwargs)
    except asyncio.CancelledError:
        task = asyncio.current_task()
        if task is not None and task.cancelling():
            raise  # ours: Stop, or the timeout
        return False, asyncio.CancelledError("the function cancelled itself")
    except BaseException as e:  # SystemExit and KeyboardInterrupt included: a tool does not end the kernel
        return False, e
    try:
        return True, result_text(value, limit)
    except BaseException as e:
        return False, e


async def _in_thread(made: FunctionTool, args: list[Any], kwargs: dict[str, Any], limit: int) -> tuple[bool, Any]:
    loop = asyncio.get_running_loop()
    done: asyncio.Future[tuple[bool, Any]] = loop.create_future()
    context = contextvars.copy_context()

    def settle(outcome: tuple[bool, Any]) -> None:
        if not done.done():
            done.set_result(outcome)

    finished = threading.Event()

    def work() -> None:
        try:
            try:
                value = context.run(made.fn, *args, **kwargs)
                if asyncio.iscoroutine(value):  # a plain def that hands back a coroutine: run it here, to its end
                    value = asyncio.run(value)
                outcome: tuple[bool, Any] = (True, result_text(value, limit))
            except Abandoned:
                raise
            except BaseException as e:  # SystemExit and KeyboardInterrupt included: a tool does not end the kernel
                outcome = (False, e)
            finished.set()
            loop.call_soon_threadsafe(settle, outcome)
        except Abandoned:  # the agent stopped waiting: nobody reads what the function would have returned
            pass
        except RuntimeError:  # the loop closed while the function ran (run_sync's private loop): nobody waits
            pass

    thread = threading.Thread(target=work, name=f"zeph-tool-{made.name}", daemon=True)
    thread.start()
    try:
        return await done
    finally:
        if not finished.is_set():
            _abandon(thread)


def _abandon(thread: threading.Thread) -> None:
    """Ask ``thread`` to stop: raise Abandoned in it at its next Python instruction (best effort)."""
    # ctypes costs ~4 ms to import and only a function that outlives its timeout needs it: not every new Agent.
    import ctypes

    if thread.ident is not None and thread.is_alive():
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident), ctypes.py_object(Abandoned))


def result_text(value: Any, limit: int = 0) -> str:
    """What the model reads of a return value: str as is, JSON for data, ``repr`` for anything else."""
    if isinstance(value, str):
        text = value
    elif value is None:
        text = "None (the function returned nothing)"
    else:
        try:
            if isinstance(value, BaseModel):
                data: Any = value.model_dump(mode="json")
            elif dataclasses.is_dataclass(value) and not isinstance(value, type):
                data = dataclasses.asdict(value)
            elif isinstance(value, dict | list | tuple | int | float | bool):
                data = value
            else:
                data = _REPR
            text = repr(value) if data is _REPR else json.dumps(data, ensure_ascii=False, default=str)
        except (TypeError, ValueError, RecursionError):  # keys JSON cannot carry, a cycle: the repr says enough
            text = repr(value)
    if limit and len(text) > limit:
        text = text[:limit] + f"\n[cut: the function returned {len(text):,} characters; the first {limit:,} are kept]"
    return text


_REPR: Any = object()


def failure(made: FunctionTool, error: BaseException) -> ToolError:
    """The ToolError the model reads for an exception ``made`` raised: its category, message and last frames."""
    category = _category(error)
    summary = traceback.TracebackException.from_exception(error, limit=None)
    own = [frame for frame in summary.stack if frame.filename != __file__]  # the thread's wrapper says nothing
    summary.stack = traceback.StackSummary.from_list(own[-FRAMES:])
    frames = "".join(summary.format()).rstrip()
    said = str(error) or "(no message)"
    if isinstance(error, SystemExit):
        said = f"exit code {error.code!r}; the kernel goes on, a tool cannot end it"
    message = f"{made.name} raised {type(error).__name__}: {said}\n{frames}"
    if len(message) > MESSAGE_CHARS:
        message = message[: MESSAGE_CHARS // 4] + "\n...\n" + message[-MESSAGE_CHARS * 3 // 4 :]
    return ToolError(category, message, details={"exception": type(error).__name__, "function": made.origin})


def _category(error: BaseException) -> ToolErrorCategory:
    if isinstance(error, ToolError):
        return error.category  # the function said which: its own ToolError keeps its category
    if isinstance(error, OSError):
        return classify_io_error(error)  # TimeoutError, a refused connection, a missing file
    if isinstance(error, ValueError):
        return ToolErrorCategory.INVALID_PARAMETERS  # the function refused the arguments it was given
    return ToolErrorCategory.PERMANENT_FAILURE
