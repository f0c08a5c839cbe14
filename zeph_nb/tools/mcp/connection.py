"""One MCP server's connection, through the official ``mcp`` SDK.

The SDK's transports and session are async context managers built on anyio task groups, which must be entered
and left by one task. So each server has an owner task that opens them, lists the tools, and then serves the
calls put on its queue, one at a time; closing puts None on the queue and the task leaves the contexts. A server
that dies fails the calls waiting on it and the next call starts it again. A streamable-HTTP server that forgot
the session (it answers 404 to a request naming it: expired, or the server restarted) refused the call before
running it; as the MCP spec asks, the connection starts a new session and sends that call once more, once.

A stdio server runs in the OS sandbox like a command (``wrap``: no network, writes only to the working directory
and its ``paths``) unless its entry says ``sandbox = false``; ``network = true`` keeps it in the sandbox but in the
host's network namespace (a server lives longer than a call, and its clients need not speak to the per-call proxy
commands get). It gets only the SDK's minimal environment plus its ``env`` — never the kernel's keys.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import tempfile
from collections.abc import AsyncIterator
from typing import Any

from zeph_nb.config import McpServer, Settings

__all__ = ["McpCallError", "McpConnection", "McpTool"]

log = logging.getLogger("zeph_nb.tools")

_CONNECTION_CLOSED = -32000  # the SDK's MCPError code when the server went away (mcp_types.CONNECTION_CLOSED)
_MESSAGE_CHARS = 2000  # of a server's error message: a hostile one can send megabytes


class McpCallError(Exception):
    """A server's error answer, translated from the SDK's ``MCPError`` here and nowhere else: the JSON-RPC code,
    the message (cut), and the HTTP status when a streamable-HTTP server refused the request — the SDK turns a
    401, 403 or 429 into a generic internal error, so the status is read off the response as it arrives."""

    def __init__(self, code: int, message: str, http_status: int | None = None) -> None:
        message = message if len(message) <= _MESSAGE_CHARS else message[:_MESSAGE_CHARS] + "… (cut)"
        super().__init__(f"HTTP {http_status}: {message}" if http_status is not None else message)
        self.code, self.message, self.http_status = code, message, http_status


class _SessionGone(Exception):
    """The server forgot the session before it ran the call (or before the call was sent); ``refusal`` is what the
    call reports if a new session cannot run it either."""

    def __init__(self, refusal: Exception) -> None:
        super().__init__(str(refusal))
        self.refusal = refusal


@dataclasses.dataclass(frozen=True)
class McpTool:
    name: str
    description: str
    schema: dict[str, Any]


class McpConnection:
    def __init__(self, server: McpServer, settings: Settings, workdir: str) -> None:
        self.server, self.settings, self.workdir = server, settings, workdir
        self.tools: list[McpTool] = []
        self.error: str | None = None  # why the last start failed, for %zeph mcp
        self._owner: asyncio.Task[None] | None = None
        self._queue: asyncio.Queue[tuple[str, dict[str, Any], asyncio.Future[Any]] | None] = asyncio.Queue()
        self._ready: asyncio.Future[None] | None = None
        self._broken = False  # the connection went away; its task may still be cleaning up
        self._http_status: int | None = None  # a streamable-HTTP server's refusal of the request in flight
        self._session_refused = False  # …was a 404 to a request naming the session: the server forgot it

    @property
    def running(self) -> bool:
        return self._owner is not None and not self._owner.done() and not self._broken

    async def start(self) -> None:
        """Start the server (if it is not running) and list its tools; raises what went wrong."""
        if self.running and self._ready is not None and self._ready.done() and not self._ready.exception():
            return
        await self.close()  # what is left of a server that died: its task still cleaning up
        self._broken = False
        self._queue = asyncio.Queue()
        self._ready = asyncio.get_running_loop().create_future()
        self._owner = asyncio.create_task(self._own(self._ready), name=f"zeph-mcp-{self.server.name}")
        try:
            await asyncio.wait_for(asyncio.shield(self._ready), self.server.timeout_secs)
        except Exception as e:
            self.error = f"{type(e).__name__}: {e}" if str(e) else type(e).__name__
            await self.close()
            raise
        self.error = None

    async def call(self, tool: str, arguments: dict[str, Any]) -> Any:
        """The SDK's CallToolResult of ``tool`` (the server's own name) with ``arguments``; sent once more in a new
        session when the server had forgotten the session before running it (never after it may have run)."""
        try:
            return await self._call_once(tool, arguments)
        except _SessionGone:
            log.info("zeph-nb: MCP server %r forgot the session; calling %r again in a new one", self.server.name,
                     tool)  # fmt: skip
        try:
            return await self._call_once(tool, arguments)
        except _SessionGone as gone:
            raise gone.refusal from None

    async def _call_once(self, tool: str, arguments: dict[str, Any]) -> Any:
        await self.start()
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self._queue.put((tool, arguments, done))
        return await asyncio.wait_for(done, self.server.timeout_secs)

    async def close(self) -> None:
        if self._owner is None:
            return
        if not self._owner.done():
            await self._queue.put(None)
            try:
                await asyncio.wait_for(asyncio.shield(self._owner), 5)
            except (TimeoutError, Exception):
                self._owner.cancel()
                with contextlib.suppress(BaseException):
                    await self._owner
        self._owner = None

    async def _own(self, ready: asyncio.Future[None]) -> None:
        from mcp import ClientSession
        from mcp.shared.exceptions import MCPError

        self._http_status, self._session_refused = None, False
        try:
            async with self._transport() as streams, ClientSession(streams[0], streams[1]) as session:
                try:
                    await session.initialize()
                    listed = await session.list_tools()
                except MCPError as e:  # say why in its own words (a 401 is not "an internal error")
                    raise self._translated(e) from e
                self.tools = [McpTool(t.name, t.description or "", dict(t.input_schema or {})) for t in listed.tools]
                ready.set_result(None)
                while (job := await self._queue.get()) is not None:
                    name, arguments, done = job
                    self._http_status, self._session_refused = None, False
                    try:
                        result = await session.call_tool(name, arguments)
                    except MCPError as e:  # the server answered with an error: for that call alone
                        if e.code == _CONNECTION_CLOSED:  # …unless the connection itself is gone
                            self._broken = True
                            if not done.done():
                                done.set_exception(ConnectionError(f"MCP server {self.server.name!r} stopped"))
                            raise
                        if self._session_refused:  # the server forgot the session; this one is over
                            self._broken = True
                            if not done.done():
                                done.set_exception(_SessionGone(self._translated(e)))
                            break
                        if not done.done():
                            done.set_exception(self._translated(e))
                        continue
                    except Exception as e:  # the connection broke (the server died): end, start again next call
                        self._broken = True
                        if not done.done():
                            done.set_exception(ConnectionError(f"MCP server {self.server.name!r} stopped: {e}"))
                        raise
                    if not done.done():
                        done.set_result(result)
        except BaseException as e:
            if not ready.done():
                cause = _innermost(e)
                ready.set_exception(cause if isinstance(cause, Exception) else
                                    RuntimeError(f"stopped: {type(cause).__name__}"))  # fmt: skip
            while not self._queue.empty():  # a dead server fails what waits on it
                job = self._queue.get_nowait()
                if job is not None and not job[2].done():
                    job[2].set_exception(ConnectionError(f"MCP server {self.server.name!r} stopped"))
            if not isinstance(e, Exception):
                raise
        if self._session_refused:  # left for a new session: a call still waiting was never sent, so it may be there
            gone = ConnectionError(f"MCP server {self.server.name!r} forgot the session before this call was sent")
            while not self._queue.empty():
                job = self._queue.get_nowait()
                if job is not None and not job[2].done():
                    job[2].set_exception(_SessionGone(gone))

    def _translated(self, error: Any) -> McpCallError:
        return McpCallError(int(error.code), str(error.message), self._http_status)

    @contextlib.asynccontextmanager
    async def _transport(self) -> AsyncIterator[Any]:
        server = self.server
        if server.url is not None:
            import httpx2  # the SDK's own HTTP client package
            from mcp.client.streamable_http import streamable_http_client

            async def note_refusal(response: httpx2.Response) -> None:
                # Requests go one at a time (the owner task's queue), so a refused POST is the one in flight's.
                if response.request.method == "POST" and response.status_code >= 400:
                    self._http_status = response.status_code
                    # The spec's sign that the server forgot the session: 404 to a request that names it. The
                    # status comes before any of the call's answer, so the server turned it away unrun.
                    self._session_refused = response.status_code == 404 and "mcp-session-id" in response.request.headers

            async with httpx2.AsyncClient(headers=server.headers, event_hooks={"response": [note_refusal]}) as client, \
                    streamable_http_client(server.url, http_client=client) as streams:  # fmt: skip
                yield streams
            return
        from mcp import StdioServerParameters
        from mcp.client.stdio import stdio_client

        assert server.command is not None
        argv = [server.command, *server.args]
        with tempfile.TemporaryDirectory(prefix="zeph-mcp-") as tmp:
            if server.sandbox:
                argv = self._sandboxed(argv, tmp)
            params = StdioServerParameters(command=argv[0], args=argv[1:], env=dict(server.env) or None,
                                           cwd=self.workdir)  # fmt: skip
            with open(os.devnull, "w") as quiet:  # a server's log on stderr is not the person's to read
                async with stdio_client(params, errlog=quiet) as streams:
                    yield streams

    def _sandboxed(self, argv: list[str], tmp: str) -> list[str]:
        from pathlib import Path

        from zeph_nb.errors import ConfigError
        from zeph_nb.security.os_sandbox import linked_writable, wrap
        from zeph_nb.tools.containment import sandbox_spec, sandbox_status

        status = sandbox_status(self.settings)
        if not status.active:
            raise ConfigError(f"MCP server {self.server.name!r} is to run sandboxed, but {status.reason}; set "
                              "sandbox = false in its [[mcp.servers]] entry to run it without")  # fmt: skip
        spec = sandbox_spec(self.settings, self.workdir)
        # Relative paths are under the working directory, where the server runs (as [tools.shell] allowed_paths).
        # Never through a link in the working directory the model may have made (linked_writable says why).
        named = [Path(self.workdir, os.path.expanduser(p)) for p in self.server.paths]
        extra = tuple(linked_writable(Path(os.path.realpath(self.workdir)), named))
        spec = dataclasses.replace(spec, writable=(*spec.writable, *extra), tmp_dir=Path(tmp),
                                   share_network=self.server.network)  # fmt: skip
        return wrap(argv, spec, status, configured=self.server.args)


def _innermost(error: BaseException) -> BaseException:
    """What went wrong, out of the SDK's task groups ("unhandled errors in a TaskGroup" says nothing)."""
    while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
        error = error.exceptions[0]
    return error
