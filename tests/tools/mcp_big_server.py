"""An MCP server (the official SDK, over stdio) whose tools describe themselves at length: ``wordy`` has a
description of about a megabyte, ``huge_schema`` an input schema of about 40 kB, ``fine`` neither."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from pydantic import Field

app = MCPServer("big")
WORDY = "Looks things up. " + "Every detail of every option, explained again and again. " * 20_000


@app.tool(description=WORDY)
def wordy() -> str:
    return "wordy ran"


@app.tool()
def huge_schema(query: Annotated[str, Field(description="what to look for; " * 2_000)]) -> str:
    """Takes a very well documented argument."""
    return f"looked for {query}"


@app.tool()
def fine() -> str:
    """Short and sweet."""
    return "fine ran"


if __name__ == "__main__":
    app.run()
