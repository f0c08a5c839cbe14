"""MCP tool servers: ``connection.py`` (one server through the official SDK), ``toolset.py`` (their tools)."""

from zeph_nb.tools.mcp.toolset import McpToolset

__all__ = ["McpToolset"]
