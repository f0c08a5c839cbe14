"""The tools of the ``[[mcp.servers]]``, offered as ``mcp_<server>_<tool>`` and run through the gate chain.

Servers start lazily: ``prepare()`` (awaited by the agent before each run) starts the ones not running and lists
their tools; until then, and for a server that failed to start, no tools of it are offered (``%zeph mcp`` says
why). A tool's description is cut and a tool whose input schema is too large is not offered (``%zeph mcp`` says
so): both go into every request of the run. A call asks unless the server is ``trusted`` (a rule can still allow
or deny it by name and arguments); it is never cached or retried (``mutates``). The server's result content
becomes the text the model reads; an error result, an MCP error code, an HTTP refusal or a dead server maps onto
the error taxonomy (``category_of``).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import ConfigDict

from zeph_nb.config import Settings
from zeph_nb.errors import ToolError, ToolErrorCategory, classify_http_status
from zeph_nb.security.printable import one_line
from zeph_nb.tools.base import ToolArgs, ToolCall, ToolDef, ToolOutput
from zeph_nb.tools.mcp.connection import McpConnection

__all__ = [
    "DESCRIPTION_CHARS",
    "SCHEMA_BYTES",
    "McpToolDef",
    "McpToolset",
    "bounded_description",
    "category_of",
    "object_schema",
    "offered_name",
    "schema_bytes",
]

log = logging.getLogger("zeph_nb.tools")

# A server's tool descriptions and input schemas are sent with every request of the run, and a server is not
# bound to keep them short: one of a megabyte would stop every run at the context budget before the model said a
# word. A description is cut (the model needs what the tool is for, not a manual); a schema is not cut, since a
# cut schema would describe other arguments than the tool takes, so a tool whose schema is larger is not offered.
DESCRIPTION_CHARS = 2_000  # room for what a tool is for and how to call it; as a server's error message is cut
SCHEMA_BYTES = 16_384  # of compact JSON: dozens of documented parameters; about 6,000 tokens, every request


class McpArgs(ToolArgs):
    """Any JSON object: the server validates its own arguments (its schema is what the model is shown)."""

    model_config = ConfigDict(extra="allow", frozen=True)


class McpToolDef(ToolDef):
    """A ToolDef whose schema is the server's own."""

    def __init__(self, name: str, description: str, schema: dict[str, Any], origin: tuple[str, str]) -> None:
        super().__init__(name, description, McpArgs, mutates=True, origin=origin)
        object.__setattr__(self, "_schema", schema or {"type": "object", "properties": {}})

    @property
    def input_schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = self._schema  # type: ignore[attr-defined]
        return schema


# The seed's McpErrorCode onto the taxonomy. Transient, RateLimited and ServerError are retryable, InvalidInput,
# AuthFailure, NotFound and PolicyBlocked are not — what the model reads in the feedback's "retryable:" line. The
# retry gate itself never runs an MCP call again: its tools are mutates=True, and a second run could do twice
# what the first did before it failed.
_CODES = {
    -32700: ToolErrorCategory.SERVER_ERROR,  # parse error: zeph sends well-formed JSON; the SDK's for a bad reply
    -32600: ToolErrorCategory.INVALID_PARAMETERS,  # InvalidInput: invalid request
    -32601: ToolErrorCategory.TOOL_NOT_FOUND,  # NotFound: method not found
    -32602: ToolErrorCategory.INVALID_PARAMETERS,  # InvalidInput: invalid params (or an unknown tool)
    -32603: ToolErrorCategory.SERVER_ERROR,  # ServerError: internal error
    -32000: ToolErrorCategory.NETWORK_ERROR,  # Transient: the connection closed
    -32001: ToolErrorCategory.TIMEOUT,  # Transient: request timeout
    -32002: ToolErrorCategory.PERMANENT_FAILURE,  # NotFound: a resource, not the tool (as classify_io_error)
}


def category_of(error: BaseException) -> ToolErrorCategory:
    """The category of an MCP call's failure: the one place the SDK's errors meet the taxonomy.

    Over streamable HTTP a refused request's status decides, as for the web tools and the model providers
    (``classify_http_status``): 401/403 AuthFailure → policy_blocked, 429 RateLimited → rate_limited, 5xx →
    server_error, 400/422 → invalid_parameters, 404 and the rest → permanent_failure. Otherwise the JSON-RPC
    code (other server-defined codes, -32099…-32000: server_error; anything else: permanent_failure), then a
    timeout or a broken connection (Transient).
    """
    status = getattr(error, "http_status", None)
    if isinstance(status, int) and status >= 400:
        return classify_http_status(status)
    code = getattr(error, "code", None)
    if isinstance(code, int) and not isinstance(error, OSError):
        return _CODES.get(code, ToolErrorCategory.SERVER_ERROR if -32099 <= code <= -32000 else
                          ToolErrorCategory.PERMANENT_FAILURE)  # fmt: skip
    if isinstance(error, TimeoutError):
        return ToolErrorCategory.TIMEOUT
    if isinstance(error, ConnectionError | OSError | EOFError):
        return ToolErrorCategory.NETWORK_ERROR
    return ToolErrorCategory.SERVER_ERROR


_NAME_CHARS = 128  # the MCP specification's longest tool name


def recorded_name(tool: str, limit: int = _NAME_CHARS) -> str:
    """A server's own name for a tool as the audit row, ``%zeph mcp`` and error messages keep it: a hostile server's
    name may run to megabytes or hold escape sequences, so it is cut at 128 characters and written on one line
    (``security.printable``). ``limit``: another length (a description's)."""
    return one_line(tool, limit)


def offered_name(server: str, tool: str) -> str:
    """The name the model sees: ``mcp_<server>_<tool>`` in the letters model APIs accept (``[A-Za-z0-9_-]``, at most
    64). A server's names are its own: one with a space or a slash would make every request of the run fail."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", f"mcp_{server}_{tool}")[:64]


def _shared_across_servers(names: Iterable[tuple[str, str]]) -> frozenset[str]:
    """The offered names that tools of more than one server map to."""
    owners: dict[str, set[str]] = {}
    for server, name in names:
        owners.setdefault(name, set()).add(server)
    return frozenset(name for name, servers in owners.items() if len(servers) > 1)


def bounded_description(text: str, limit: int = DESCRIPTION_CHARS) -> str:
    """``text`` when it fits in ``limit`` characters, else cut there — at the end of a word when one ends in the
    second half — with a note saying how long it was."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    word_end = max(cut.rfind(space) for space in " \n\t")
    if word_end > limit // 2 and not text[limit].isspace():  # a cut between words needs no going back
        cut = cut[:word_end]
    return f"{cut.rstrip()} … (description cut at {limit:,} of {len(text):,} characters)"


def schema_bytes(schema: Any) -> int:
    """The size of ``schema`` as compact JSON, as a request carries it."""
    return len(json.dumps(schema, separators=(",", ":"), default=str).encode())


def object_schema(schema: Any) -> dict[str, Any]:
    """The server's schema when it describes an object (what a tool's arguments are), else an empty object."""
    if isinstance(schema, dict) and schema.get("type") == "object":
        return schema
    return {"type": "object", "properties": {}}


def _text_of(result: Any) -> str:
    parts = []
    for block in getattr(result, "content", None) or []:
        kind = getattr(block, "type", "")
        if kind == "text":
            parts.append(str(block.text))
        elif kind in ("image", "audio"):
            parts.append(f"[{kind} ({getattr(block, 'mime_type', '?')}) returned; not shown to the model]")
        else:
            parts.append(json.dumps(block.model_dump(mode="json", exclude_none=True), ensure_ascii=False)[:4000])
    structured = getattr(result, "structured_content", None)
    if not parts and structured is not None:
        parts.append(json.dumps(structured, ensure_ascii=False, default=str))
    return "\n".join(parts) if parts else "(no content)"


class McpToolset:
    """Every configured server's tools; ``prepare()`` starts them."""

    def __init__(self, settings: Settings, workdir: str) -> None:
        self.connections = {s.name: McpConnection(s, settings, workdir) for s in settings.mcp.servers}
        self._defs: dict[str, tuple[McpConnection, str, ToolDef]] = {}
        self.shadowed: frozenset[str] = frozenset()  # offered names two servers' tools share: offered for neither
        self.not_offered: dict[str, str] = {}  # the offered names of the tools not offered, and why (%zeph mcp)

    async def prepare(self) -> None:
        """Start the servers that are not running (one failing leaves the others), and list their tools."""
        for connection in self.connections.values():
            try:
                await connection.start()
            except Exception as e:  # %zeph mcp says it too (connection.error); its tools are not offered
                log.warning("zeph-nb: MCP server %r did not start: %s", connection.server.name, e)
        self._defs, self.not_offered = {}, {}
        self.shadowed = _shared_across_servers(
            (server, offered_name(server, tool.name))
            for server, connection in self.connections.items()
            if connection.error is None
            for tool in connection.tools
        )
        for server, connection in self.connections.items():
            if connection.error is not None:
                continue
            for tool in connection.tools:
                name = offered_name(server, tool.name)
                if name in self.shadowed:
                    # Server "a" with tool "b_c" and server "a_b" with tool "c" are both mcp_a_b_c: a rule or a
                    # grant written for one would reach the other, and the other's trust would decide. Neither
                    # is offered; %zeph mcp says why.
                    log.warning("zeph-nb: MCP tool name %s is another server's too; offered for neither", name)
                    self.not_offered[name] = ("another server's tool has this name too (rename a server to tell "
                                              "them apart)")  # fmt: skip
                    continue
                schema = object_schema(tool.schema)
                if (size := schema_bytes(schema)) > SCHEMA_BYTES:  # the run goes on without it; said once per run
                    log.warning("zeph-nb: MCP tool %s is not offered: its input schema is %s bytes (at most %s)",
                                name, f"{size:,}", f"{SCHEMA_BYTES:,}")  # fmt: skip
                    self.not_offered[name] = (f"its input schema is {size:,} bytes, more than the {SCHEMA_BYTES:,} "
                                              "a tool may send with every request")  # fmt: skip
                    continue
                if name in self._defs:  # two of its names that read alike once made valid: the first one stays
                    log.warning("zeph-nb: MCP server %r offers %r and another tool as %s; only the first is offered",
                                server, tool.name, name)  # fmt: skip
                    continue
                description = f"[MCP server {server}] {bounded_description(tool.description)}".strip()
                definition = McpToolDef(name, description, schema, (server, recorded_name(tool.name)))
                self._defs[name] = (connection, tool.name, definition)

    async def close(self) -> None:
        for connection in self.connections.values():
            await connection.close()

    def tool_definitions(self) -> Sequence[ToolDef]:
        return [definition for _, _, definition in self._defs.values()]

    def requires_confirmation(self, call: ToolCall) -> bool:
        found = self._defs.get(call.tool_id)
        return found is not None and not found[0].server.trusted

    async def execute(self, call: ToolCall) -> ToolOutput | None:
        found = self._defs.get(call.tool_id)
        if found is None:
            return None
        connection, tool, definition = found
        shown = definition.origin[1] if definition.origin is not None else recorded_name(tool)
        arguments = dict(call.params) if isinstance(call.params, dict) else {}
        server = connection.server.name
        try:
            result = await connection.call(tool, arguments)
        except Exception as e:  # the server's error, a dead server, a timeout: a category the model can act on
            error = ToolError(category_of(e), f"MCP server {server!r}, tool {shown!r}: {type(e).__name__}: {e}",
                              details={"server": server, "tool": shown})  # fmt: skip
            return ToolOutput.from_error(call, error)
        text = _text_of(result)
        raw = {"server": server, "tool": shown, "content": text}
        if getattr(result, "is_error", False):
            error = ToolError(ToolErrorCategory.PERMANENT_FAILURE, f"MCP server {server!r}, tool {shown!r}: {text}",
                              details=raw)  # fmt: skip
            return ToolOutput.from_error(call, error)
        return ToolOutput(call.tool_id, text, raw=raw, call_id=call.call_id)
