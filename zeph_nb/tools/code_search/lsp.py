"""A language server for search_code: jedi-language-server, a real process speaking LSP over stdio through
``pygls``'s client, started on the first call that needs it and stopped with the kernel.

The client lives on an event loop of its own, in a daemon thread: a server started from one cell must serve the
next, whichever loop that cell's run is on (``run_sync`` makes a new one each time). A caller waits on its own loop
with a deadline (``[index] server_timeout_secs``); a server that does not answer by then is ended, one that died is
noticed, and either is a ``ServerTrouble`` with the category of the taxonomy (timeout, server_error) and the end of
its stderr: never a hung cell. The next call starts a fresh server.

The server runs in the OS sandbox as a command does, with nothing writable: it reads the project to answer, and
jedi may import compiled modules to inspect them. What it answers is filtered again by the file tools' rules
(``executor._visible``). Without a working sandbox it is not started and the call says why.
"""

from __future__ import annotations

import asyncio
import atexit
import collections
import concurrent.futures
import contextlib
import dataclasses
import os
import shutil
import sys
import tempfile
import threading
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import unquote, urlparse

from zeph_nb.config import Settings
from zeph_nb.errors import ToolErrorCategory
from zeph_nb.tools.code_search.structural import Hit

__all__ = ["LanguageServer", "ServerTrouble", "server_for", "stop_all"]

T = TypeVar("T")
_JEDI = "import sys; from jedi_language_server.cli import cli; sys.exit(cli())"
_SYMBOL_KINDS = {5: "class", 6: "method", 12: "function", 23: "type", 10: "type", 11: "type"}


class ServerTrouble(Exception):
    """The language server did not answer: hung (timeout), died or could not start (server_error)."""

    def __init__(
        self, message: str, category: ToolErrorCategory = ToolErrorCategory.SERVER_ERROR, *, alive: bool = False
    ) -> None:
        super().__init__(message)
        self.category = category
        self.alive = alive  # the server refused this one request and runs on (jedi fails on a file it may not read)


class LanguageServer:
    """One language server process for one working directory, started lazily, restarted after trouble."""

    def __init__(self, settings: Settings, workdir: Path, command: Sequence[str] | None = None) -> None:
        self.settings = settings
        self.workdir = workdir
        self.command = tuple(command) if command is not None else (sys.executable, "-c", _JEDI)
        self.timeout = settings.index.server_timeout_secs
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._client: Any = None
        self._tmp: str | None = None
        self._stderr: collections.deque[str] = collections.deque(maxlen=20)
        self._lock = threading.Lock()

    # -- what search_code asks ----------------------------------------------------------------------------------

    async def workspace_symbols(self, query: str) -> list[Hit]:
        from lsprotocol import types

        found = await self._ask(lambda c: c.workspace_symbol_async(types.WorkspaceSymbolParams(query=query)))
        hits = []
        for symbol in found or ():
            location = getattr(symbol, "location", None)
            if location is None or not hasattr(location, "range"):
                continue
            kind = _SYMBOL_KINDS.get(int(symbol.kind), "symbol")
            hits.append(_hit(location, kind, symbol.name, layer="lsp"))
        return hits

    async def references(self, path: Path, line: int, column: int) -> list[Hit]:
        from lsprotocol import types

        params = types.ReferenceParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
            position=types.Position(line=line, character=column),
            context=types.ReferenceContext(include_declaration=False),
        )
        found = await self._ask(lambda c: c.text_document_references_async(params))
        return [_hit(location, "reference", "", layer="lsp") for location in found or ()]

    async def definition(self, path: Path, line: int, column: int) -> list[Hit]:
        from lsprotocol import types

        params = types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
            position=types.Position(line=line, character=column),
        )
        found = await self._ask(lambda c: c.text_document_definition_async(params))
        if found is None:
            return []
        many = found if isinstance(found, list) else [found]
        return [_hit((getattr(item, "target_uri", None) and _link(item)) or item, "definition", "", layer="lsp")
                for item in many]  # fmt: skip

    # -- the process ----------------------------------------------------------------------------------------------

    async def _ask(self, request: Callable[[Any], Awaitable[T]]) -> T:
        loop = self._own_loop()
        future = asyncio.run_coroutine_threadsafe(self._on_own_loop(request), loop)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), self.timeout)
        except TimeoutError:
            future.cancel()
            self.stop()
            raise ServerTrouble(
                f"the language server did not answer within {self.timeout:g} s ([index] server_timeout_secs) and "
                f"was stopped{self._said()}",
                ToolErrorCategory.TIMEOUT,
            ) from None
        except ServerTrouble:
            self.stop()
            raise
        except Exception as e:  # pygls: the process exited with requests pending, or a JSON-RPC error answer
            if self.pid is not None:
                # Its message is not passed on: it may name a file the sandbox hides (a deny_read one), whose name
                # is as private as its text.
                raise ServerTrouble(f"the language server could not answer ({type(e).__name__})", alive=True) from None
            self.stop()
            raise ServerTrouble(f"the language server failed: {e}{self._said()}") from None

    def _said(self) -> str:
        tail = "".join(self._stderr).strip()[-400:]
        return f"; it said: {tail}" if tail else ""

    def _own_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                thread = threading.Thread(target=loop.run_forever, name="zeph-lsp", daemon=True)
                thread.start()
                self._loop, self._thread = loop, thread
            return self._loop

    async def _on_own_loop(self, request: Callable[[Any], Awaitable[T]]) -> T:
        client = self._client
        if client is None or client._server is None or client._server.returncode is not None:
            client = await self._start()
        return await request(client)

    async def _start(self) -> Any:
        from lsprotocol import types
        from pygls.lsp.client import LanguageClient

        await self._end_process()
        argv = self._argv()
        client = LanguageClient("zeph-nb", "1")
        try:
            await client.start_io(argv[0], *argv[1:], cwd=os.fspath(self.workdir), env=_environment())
        except OSError as e:
            raise ServerTrouble(f"the language server could not start: {e}") from None
        self._client = client
        self._stderr.clear()
        stderr = client._server.stderr if client._server is not None else None
        if stderr is not None:  # drained, or a chatty server would block on a full pipe
            asyncio.get_running_loop().create_task(self._drain(stderr))
        root = self.workdir.as_uri()
        options = {"workspace": {"symbols": {"maxSymbols": 500}}}
        await client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=root, initialization_options=options,
            workspace_folders=[types.WorkspaceFolder(uri=root, name=self.workdir.name)]))  # fmt: skip
        client.initialized(types.InitializedParams())
        return client

    async def _drain(self, stream: asyncio.StreamReader) -> None:
        while line := await stream.readline():
            self._stderr.append(line.decode("utf-8", errors="replace"))

    def _argv(self) -> list[str]:
        from zeph_nb.security.os_sandbox import wrap
        from zeph_nb.tools.containment import sandbox_spec, sandbox_status

        status = sandbox_status(self.settings)
        if not status.active:
            raise ServerTrouble(f"the language server runs only in the OS sandbox, and {status.reason}")
        if self._tmp is None:
            _sweep_left_behind()
            self._tmp = tempfile.mkdtemp(prefix=f"zeph-lsp-{os.getpid()}-")
        spec = dataclasses.replace(sandbox_spec(self.settings, self.workdir), writable=(), tmp_dir=Path(self._tmp))
        return wrap(list(self.command), spec, status)

    async def _end_process(self) -> None:
        client, self._client = self._client, None
        if client is None:
            return
        process = client._server
        if process is not None and process.returncode is None:
            # A polite end first: shutdown, exit; then the kill (bwrap's --die-with-parent ends the rest). A server
            # that cannot even say goodbye is killed all the same.
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.shutdown_async(None), 1.0)
                client.exit(None)
                await asyncio.wait_for(process.wait(), 1.0)
            if process.returncode is None:
                process.kill()
                await process.wait()
        with contextlib.suppress(Exception):  # the client's reader tasks; the process is gone already
            await asyncio.wait_for(client.stop(), 1.0)

    def stop(self) -> None:
        """End the server process (the next request starts another); safe from any thread, and twice."""
        loop = self._loop
        if loop is None or not loop.is_running():
            return
        try:
            asyncio.run_coroutine_threadsafe(self._end_process(), loop).result(5.0)
        except (concurrent.futures.TimeoutError, RuntimeError):
            process = self._client._server if self._client is not None else None
            if process is not None and process.returncode is None:
                process.kill()

    def close(self) -> None:
        """Stop the server and this instance's loop thread."""
        self.stop()
        loop, self._loop = self._loop, None
        if loop is not None:
            loop.call_soon_threadsafe(loop.stop)
            if self._thread is not None:
                self._thread.join(5.0)
            if not loop.is_running():
                loop.close()
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None

    @property
    def pid(self) -> int | None:
        """The server process's id while it runs (tests)."""
        process = self._client._server if self._client is not None else None
        return process.pid if process is not None and process.returncode is None else None


def _sweep_left_behind() -> None:
    """Remove the private /tmp folders of kernels that ended without their exit handlers (a kernel killed at
    shutdown): each folder is named after its kernel's process id."""
    for folder in Path(tempfile.gettempdir()).glob("zeph-lsp-*-*"):
        pid = folder.name.split("-")[2]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(folder, ignore_errors=True)
        except OSError:
            continue  # alive, someone else's


def _environment() -> dict[str, str]:
    """A few variables and none of the kernel's others (keys, tokens): jedi and parso keep their caches in the
    sandbox's private /tmp, since nothing else is writable there."""
    keep = {name: os.environ[name] for name in ("PATH", "HOME", "LANG", "LC_ALL") if name in os.environ}
    return {**keep, "XDG_CACHE_HOME": "/tmp/cache"}  # noqa: S108 (the sandbox's own /tmp, this server's alone)


def _path_of(uri: str) -> str:
    return unquote(urlparse(uri).path)


def _link(item: Any) -> Any:
    return type("Location", (), {"uri": item.target_uri, "range": item.target_selection_range})()


def _hit(location: Any, kind: str, name: str, *, layer: str) -> Hit:
    start = location.range.start
    return Hit(_path_of(location.uri), start.line + 1, kind, name, layer=layer, column=start.character)


_SERVERS: dict[tuple[str, tuple[str, ...] | None], LanguageServer] = {}
_SERVERS_LOCK = threading.Lock()


def server_for(settings: Settings, workdir: Path, command: Sequence[str] | None = None) -> LanguageServer:
    """The kernel's language server for ``workdir``: one process per project, shared by every agent."""
    key = (os.fspath(workdir), tuple(command) if command is not None else None)
    with _SERVERS_LOCK:
        server = _SERVERS.get(key)
        if server is None:
            server = _SERVERS[key] = LanguageServer(settings, workdir, command)
        # The latest agent's settings (a new cell's): its timeout now, its sandbox at the server's next start.
        server.settings, server.timeout = settings, settings.index.server_timeout_secs
        return server


@atexit.register
def stop_all() -> None:
    """End every language server (the kernel is shutting down)."""
    with _SERVERS_LOCK:
        servers = list(_SERVERS.values())
        _SERVERS.clear()
    for server in servers:
        server.close()
