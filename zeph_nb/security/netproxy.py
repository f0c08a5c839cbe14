"""The sandbox's only way out: a per-call HTTP proxy in the kernel process that lets through the granted hosts only.

A command granted the network still runs in a network namespace of its own. Its proxy variables point at a relay
inside the sandbox (``relay.py``) that forwards to this proxy's Unix socket. The proxy speaks the two forms
clients use — ``CONNECT host:port`` (HTTPS, git, pip) and absolute-form ``GET http://host/…`` (plain HTTP) —
and for each request checks, outside the sandbox's reach:

* the host is one granted for this call (``pypi.org``, ``*.example.com``; ``*`` when the person approved any
  host);
* the address it resolves to is public, as for the web tools (no loopback, private ranges or cloud metadata
  unless ``[tools.scrape] allow_private`` names it); the connection goes to the address that was checked.

Every host reached and refused is recorded, for the audit row and the tool result.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from wcmatch import fnmatch

from zeph_nb.errors import ToolError
from zeph_nb.security.urls import Resolver, system_resolver, validate_url

__all__ = ["NetworkProxy", "ProxyLog", "host_allowed"]

MAX_HEAD_BYTES = 64 * 1024
HEAD_TIMEOUT_SECS = 30.0
CONNECT_TIMEOUT_SECS = 15.0
CHUNK = 65536


DEFAULT_PORTS = frozenset({80, 443})


def host_allowed(host: str, allowed: Iterable[str], port: int | None = None) -> bool:
    """Whether ``host`` (and ``port``, when given) matches one of ``allowed``: exact names, ``*.domain`` for its
    subdomains, ``*`` for any; a pattern without a port allows 80 and 443, ``host:8443`` that port."""
    host = host.lower().rstrip(".")
    for entry in allowed:
        pattern, _, port_text = entry.lower().rpartition(":") if _has_port(entry) else (entry.lower(), "", "")
        pattern = pattern.rstrip(".")
        ports = {int(port_text)} if port_text else DEFAULT_PORTS
        if port is not None and port not in ports:
            continue
        if pattern == "*" or pattern == host:
            return True
        if pattern.startswith("*.") and pattern.count(".") >= 2 and fnmatch.fnmatch(host, pattern):
            return True  # "*.example.org", never "*.com"
    return False


def _has_port(entry: str) -> bool:
    head, sep, tail = entry.rpartition(":")
    return bool(sep) and tail.isdigit() and "]" not in tail and not head.endswith(":")


@dataclass
class ProxyLog:
    """What one call's proxy let through and refused: ``host:port`` → why, in order of first use."""

    reached: list[str] = field(default_factory=list)
    refused: dict[str, str] = field(default_factory=dict)

    def reach(self, target: str) -> None:
        if target not in self.reached:
            self.reached.append(target)


class NetworkProxy:
    """One call's proxy: ``async with NetworkProxy(hosts) as proxy:`` binds ``proxy.socket_path``."""

    def __init__(
        self,
        hosts: Iterable[str],
        *,
        allow_private: Iterable[str] = (),
        resolve: Resolver | None = None,
    ) -> None:
        self.hosts = tuple(hosts)
        self.allow_private = tuple(allow_private)
        self.resolve: Resolver = resolve or system_resolver
        self.log = ProxyLog()
        self._dir: tempfile.TemporaryDirectory[str] | None = None
        self._server: asyncio.AbstractServer | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.socket_path = Path()

    async def __aenter__(self) -> NetworkProxy:
        # A directory only this user can enter; the sandbox sees the socket alone, bound at PROXY_SOCKET.
        self._dir = tempfile.TemporaryDirectory(prefix="zeph-proxy-")
        os.chmod(self._dir.name, 0o700)
        self.socket_path = Path(self._dir.name) / "proxy.sock"
        self._server = await asyncio.start_unix_server(self._handle, path=str(self.socket_path))
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        if self._dir is not None:
            self._dir.cleanup()

    # -- one connection -----------------------------------------------------------------------------------

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            await self._serve(reader, writer)
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError):
            pass
        finally:
            writer.close()
            if task is not None:
                self._tasks.discard(task)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HEAD_TIMEOUT_SECS)
        if len(head) > MAX_HEAD_BYTES:
            await _reply(writer, 431, "Request Header Fields Too Large")
            return
        request_line, _, rest = head.partition(b"\r\n")
        parts = request_line.decode("latin-1").split()
        if len(parts) != 3:
            await _reply(writer, 400, "Bad Request")
            return
        method, target, version = parts
        body = -1  # CONNECT: a tunnel, piped both ways; plain HTTP: exactly this many body bytes, then stop
        if method.upper() == "CONNECT":
            host, port = _split_host_port(target, 443)
            forward = b""
            if port == 80:  # a tunnel on the plain-HTTP port would carry requests the Host check never sees
                port = -1
        elif target.lower().startswith("http://"):
            without = target[len("http://") :]
            authority, slash, path = without.partition("/")
            host, port = _split_host_port(authority, 80)
            headers = _headers(rest)
            problem = _plain_request_problem(headers, host, port)
            if problem is not None:
                # One host asked for another (domain fronting on a shared CDN), or headers that cannot be read
                # one way only: refused rather than guessed.
                await _reply(writer, 403, "Forbidden", f"zeph-nb sandbox: {problem}\n")
                self.log.refused[f"{host}:{port}"] = problem
                return
            body = int(headers["content-length"][0]) if "content-length" in headers else 0
            # One request per connection, its body counted: nothing pipelined behind it reaches the server.
            kept = [line for line in rest.split(b"\r\n") if line and not line.lower().startswith(b"connection:")]
            forward = (
                f"{method} {slash}{path or ''} {version}\r\n".encode("latin-1")
                + b"".join(line + b"\r\n" for line in kept)
                + b"Connection: close\r\n\r\n"
            )
        else:
            await _reply(writer, 400, "Bad Request", "zeph-nb's sandbox proxy takes CONNECT or http:// URLs only\n")
            return
        where = f"{host}:{port}"
        address = await self._check(host, port, where)
        if address is None:
            why = self.log.refused.get(where, "refused")
            await _reply(writer, 403, "Forbidden", f"zeph-nb sandbox: {where} is not allowed for this command: {why}\n")
            return
        try:
            up_reader, up_writer = await asyncio.wait_for(asyncio.open_connection(address, port), CONNECT_TIMEOUT_SECS)
        except (OSError, TimeoutError) as e:
            await _reply(writer, 502, "Bad Gateway", f"cannot connect to {where}: {e}\n")
            return
        self.log.reach(where)
        try:
            if forward:
                up_writer.write(forward)
                if body > 0:
                    up_writer.write(await reader.readexactly(body))
                await up_writer.drain()
                await _pipe(up_reader, writer)
            else:
                writer.write(b"HTTP/1.1 200 Connection Established\r\n\r\n")
                await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))
        finally:
            up_writer.close()

    async def _check(self, host: str, port: int, where: str) -> str | None:
        """The address to connect to, or None (the reason recorded) when the request may not go out."""
        if not host or not 0 < port < 65536:
            self.log.refused[where] = "not a host and port"
            return None
        if not host_allowed(host, self.hosts, port):
            granted = ", ".join(self.hosts) or "none"
            self.log.refused[where] = f"not a host and port granted to this command (granted: {granted})"
            return None
        shown = f"[{host}]" if ":" in host else host
        try:
            validated = await asyncio.to_thread(
                validate_url, f"https://{shown}:{port}/", self.resolve, allow_private=self.allow_private
            )
        except ToolError as e:
            self.log.refused[where] = e.message
            return None
        return validated.address


_TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")


def _headers(block: bytes) -> dict[str, list[str]]:
    """Header name (lower case) -> every value; a name that is not a plain token is kept as ``"?"``."""
    headers: dict[str, list[str]] = {}
    for line in block.decode("latin-1").split("\r\n"):
        if not line:
            continue
        name, sep, value = line.partition(":")
        key = name.lower() if sep and _TOKEN.match(name) else "?"
        headers.setdefault(key, []).append(value.strip())
    return headers


def _plain_request_problem(headers: dict[str, list[str]], host: str, port: int) -> str | None:
    """Why a plain-HTTP request may not go out as it is, or None."""
    if "?" in headers:
        return "a malformed header line (folded, or a space before the colon)"
    if "transfer-encoding" in headers:
        return "chunked request bodies are not relayed; send a Content-Length"
    for name in ("host", "content-length"):
        if len(headers.get(name, [])) > 1:
            return f"more than one {name.title()} header"
    length = headers.get("content-length", ["0"])[0]
    if not length.isdigit():
        return f"a Content-Length that is not a number ({length!r})"
    claimed = headers.get("host", [None])[0]
    if claimed is not None and ("@" in claimed or _split_host_port(claimed, port) != (host, port)):
        return f"the Host header ({claimed}) is not the request's host"
    return None


def _split_host_port(authority: str, default: int) -> tuple[str, int]:
    authority = authority.rsplit("@", 1)[-1]
    if authority.startswith("["):
        host, _, rest = authority[1:].partition("]")
        port_text = rest.removeprefix(":")
    else:
        host, _, port_text = authority.partition(":")
    try:
        port = int(port_text) if port_text else default
    except ValueError:
        port = -1
    return host.lower(), port


async def _reply(writer: asyncio.StreamWriter, code: int, reason: str, body: str = "") -> None:
    data = body.encode("utf-8")
    writer.write(
        f"HTTP/1.1 {code} {reason}\r\nContent-Type: text/plain\r\nContent-Length: {len(data)}\r\n"
        f"Connection: close\r\n\r\n".encode("latin-1")
        + data
    )
    with contextlib.suppress(OSError):
        await writer.drain()


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(CHUNK):
            writer.write(data)
            await writer.drain()
    finally:
        with contextlib.suppress(OSError):
            if writer.can_write_eof():
                writer.write_eof()
