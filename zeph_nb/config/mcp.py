"""``[[mcp.servers]]``: MCP tool servers whose tools the agent is offered, each under the same gates."""

from __future__ import annotations

from pydantic import Field, model_validator

from zeph_nb.config.common import _Section, empty_list, require_unique

__all__ = ["McpServer", "McpSettings"]


# The reference agent's [[mcp.servers]] keys that mean nothing here or have another name, each with why.
SERVER_NOT_HERE: dict[str, str] = {
    "id": "it is called name here (its tools are offered as mcp_<name>_<tool>)",
    "timeout": "it is called timeout_secs here",
    "trust_level": "trusted = true here lets its calls run without asking (false, the default: every call asks), "
    "and a command server runs in the OS sandbox unless sandbox = false",
    "tool_allowlist": "every tool it lists is offered, as mcp_<name>_<tool>: name the ones not to offer in [tools] "
    "disabled, or deny them with [gates.permissions] rules",
    "oauth": 'zeph-nb runs no OAuth flow for a server: give its token in headers (Authorization = "Bearer ...")',
}
_ONE_LIST = "zeph-nb starts only the servers [[mcp.servers]] lists, which the person writes; nothing adds one later"
_TOOLS_SENT = (
    "the tools sent with a request are chosen by [agent.tool_filter] (enabled, provider, top_k, always_on), for MCP "
    "tools and the others alike"
)
_NO_ELICITATION = (
    "zeph-nb's MCP client offers no elicitation: a server cannot ask the person for input in the middle of a call"
)
# The reference agent's [mcp] keys that mean nothing here, each with why.
MCP_NOT_HERE: dict[str, str] = {
    "allowed_commands": _ONE_LIST,
    "max_dynamic_servers": _ONE_LIST,
    "pruning": _TOOLS_SENT,
    "tool_discovery": _TOOLS_SENT,
    **dict.fromkeys(("elicitation_enabled", "elicitation_timeout", "elicitation_queue_capacity",
                     "elicitation_warn_sensitive_fields"), _NO_ELICITATION),
}  # fmt: skip


class McpServer(_Section):
    """One MCP server: a command zeph-nb starts (stdio), or a streamable-HTTP URL."""

    not_here = SERVER_NOT_HERE

    name: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_]{0,31}$")
    """its tools are offered as mcp_<name>_<tool>"""
    command: str | None = None
    """the program that runs the server over stdio (e.g. "uvx", "python")"""
    args: list[str] = Field(default_factory=empty_list)
    """its arguments"""
    env: dict[str, str] = Field(default_factory=dict)
    """more environment for it (it gets only HOME, PATH, USER, SHELL, TERM, LOGNAME otherwise)"""
    url: str | None = None
    """a streamable-HTTP server instead of a command"""
    headers: dict[str, str] = Field(default_factory=dict)
    """HTTP headers for url (an Authorization header, say)"""
    trusted: bool = False
    """true: its tools run without asking unless a rule says otherwise (false: every call asks)"""
    sandbox: bool = True
    """run the command in the OS sandbox (no network; writes only to the working directory and paths)"""
    network: bool = False
    """the sandboxed server shares the host's network (every host and loopback's services, with no proxy)"""
    paths: list[str] = Field(default_factory=empty_list)
    """more folders the sandboxed server may write (a command's only: a url server has no sandbox)"""
    timeout_secs: float = Field(60.0, gt=0, le=3600)
    """how long one call (or the server's start) may take"""

    @model_validator(mode="after")
    def _one_transport(self) -> McpServer:
        # An empty command or url would pass as the transport chosen and fail only when the server is started.
        for key, value in (("command", self.command), ("url", self.url)):
            if value is not None and not value.strip():
                raise ValueError(f"server {self.name!r}: {key} is empty: give the program to run (command) or the "
                                 "server's address (url), or remove the entry")  # fmt: skip
        if (self.command is None) == (self.url is None):
            raise ValueError(f"server {self.name!r} needs either command (stdio) or url (streamable HTTP)")
        if self.url is not None and self.network:
            raise ValueError(f"server {self.name!r}: network = true grants a command's sandbox the network; a url "
                             "server is not started by zeph-nb, so it has no sandbox to grant it")  # fmt: skip
        if self.url is not None and self.paths:
            raise ValueError(f"server {self.name!r}: paths are folders a command's sandbox may write; a url server "
                             "is not started by zeph-nb, so nothing would open them: remove paths from its entry "
                             "(what it may write is up to wherever it runs)")  # fmt: skip
        # Each key below belongs to one transport or to the sandbox; on the other it would do nothing, and a
        # person reading the entry would believe it does.
        # sandbox set on a url server, either way, holds it to nothing: `sandbox = true` would read as a remote
        # server confined.
        if self.url is not None and "sandbox" in self.model_fields_set:
            raise ValueError(f"server {self.name!r}: sandbox is the OS sandbox of a command zeph-nb starts; a url "
                             "server is not started by zeph-nb, so nothing would hold it: remove sandbox from its "
                             "entry (what it may reach is up to wherever it runs)")  # fmt: skip
        if self.url is not None and (self.env or self.args):
            key = "env" if self.env else "args"
            raise ValueError(f"server {self.name!r}: {key} is for a command zeph-nb starts; a url server is "
                             f"not started by zeph-nb: remove {key} from its entry, or give it a command "
                             "instead")  # fmt: skip
        if self.command is not None and self.headers:
            raise ValueError(f"server {self.name!r}: headers are sent to a url server; a command server talks "
                             "over stdio and gets none: remove headers from its entry (pass what it needs in "
                             "env)")  # fmt: skip
        if self.command is not None and not self.sandbox and (self.paths or self.network):
            key = "paths" if self.paths else "network"
            raise ValueError(f"server {self.name!r}: {key} opens the server's sandbox, and sandbox = false runs it "
                             f"with none, able to write and reach everything you can: remove {key}, or remove "
                             "sandbox = false to hold it to them")  # fmt: skip
        return self


class McpSettings(_Section):
    """``[mcp]``."""

    not_here = MCP_NOT_HERE

    servers: list[McpServer] = Field(default_factory=empty_list)
    """the servers: [[mcp.servers]] name, command + args + env or url + headers, trusted, sandbox, network, paths"""

    @model_validator(mode="after")
    def _names_differ(self) -> McpSettings:
        require_unique([server.name for server in self.servers], "[[mcp.servers]]")
        return self
