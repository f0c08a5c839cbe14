"""The MCP server tutorial 11 connects: a notes store written with the official SDK (``mcp``), run over stdio.
Its tools: add_note, read_notes, broken (always fails), crash (the process dies), where (what it can reach)."""

from __future__ import annotations

import os
import socket
from pathlib import Path

from mcp.server.mcpserver import MCPServer

app = MCPServer("notes")
NOTES = Path("notes.txt")


@app.tool()
def add_note(text: str) -> str:
    """Append a line to notes.txt in the working directory."""
    with NOTES.open("a") as notes:
        notes.write(text + "\n")
    return f"added: {text}"


@app.tool()
def read_notes() -> str:
    """The notes so far."""
    return NOTES.read_text() if NOTES.exists() else "(no notes)"


@app.tool()
def broken() -> str:
    """Always fails."""
    raise ValueError("the notes store is broken")


@app.tool()
def crash() -> str:
    """The server process dies."""
    os._exit(3)


@app.tool()
def where() -> str:
    """What the server can reach: an outside write and the network."""
    outside = Path(os.environ.get("OUTSIDE", "/nonexistent")) / "escaped.txt"
    try:
        outside.write_text("escaped")
        wrote = "wrote outside"
    except OSError:
        wrote = "could not write outside"
    try:
        socket.create_connection(("127.0.0.1", int(os.environ.get("PORT", "9"))), timeout=1).close()
        net = "network reachable"
    except OSError:
        net = "no network"
    return f"{wrote}; {net}; key={os.environ.get('ANTHROPIC_API_KEY', 'none')}"


if __name__ == "__main__":
    import sys

    if len(sys.argv) > 2 and sys.argv[1] == "--http":  # streamable HTTP on loopback, at /mcp
        app.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        app.run()
