"""A streamable-HTTP MCP server (the official SDK) that forgets its sessions, as one does when they expire: an ASGI
wrapper ends them with the spec's own DELETE, and from then on the SDK answers 404 to a request naming one.

Tools: ``add_note`` (appends a line to notes.txt), ``forget_sessions`` (once its answer is sent, every session so
far ends). With ``--end-before-calls`` every session ends as a ``tools/call`` reaches it, so no call ever runs
(each one refused so is a line in refused.txt).
Run as ``mcp_forgetful_server.py PORT [--end-before-calls]``; it serves ``/mcp`` on 127.0.0.1.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import MCPServer

app = MCPServer("forgetful")
NOTES = Path("notes.txt")
REFUSED = Path("refused.txt")  # a line for each call a session ended under (--end-before-calls)
_forget_all = False  # set by the tool; the wrapper ends the sessions once the tool's answer is out


@app.tool()
def add_note(text: str) -> str:
    """Append a line to notes.txt."""
    with NOTES.open("a") as notes:
        notes.write(text + "\n")
    return f"added: {text}"


@app.tool()
def forget_sessions() -> str:
    """Every session so far ends once this answer is sent."""
    global _forget_all
    _forget_all = True
    return "forgetting"


class Forgetful:
    def __init__(self, inner: Any, end_before_calls: bool) -> None:
        self.inner, self.end_before_calls = inner, end_before_calls
        self.sessions: set[bytes] = set()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        global _forget_all
        if scope["type"] != "http":
            await self.inner(scope, receive, send)
            return
        body, more = b"", True
        while more:
            message = await receive()
            body, more = body + message.get("body", b""), message.get("more_body", False)
        headers = dict(scope["headers"])
        session = headers.get(b"mcp-session-id")
        if self.end_before_calls and session is not None and b'"tools/call"' in body:
            await self._end(session, headers[b"host"])  # …so the SDK answers this call 404, before running it
            with REFUSED.open("a") as refused:
                refused.write(f"{json.loads(body)['params']['name']}\n")
        replayed = False

        async def replay() -> Any:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        async def note_session(message: Any) -> None:
            if message["type"] == "http.response.start":
                handed = dict(message.get("headers", [])).get(b"mcp-session-id")
                if handed is not None:
                    self.sessions.add(handed)
            await send(message)

        await self.inner(scope, replay, note_session)
        if _forget_all:
            _forget_all = False
            for ended in list(self.sessions):
                await self._end(ended, headers[b"host"])

    async def _end(self, session: bytes, host: bytes) -> None:
        """End ``session`` as a client would: DELETE with its id (the SDK's own session manager forgets it)."""
        self.sessions.discard(session)
        scope = {
            "type": "http", "method": "DELETE", "path": "/mcp", "raw_path": b"/mcp", "query_string": b"",
            "headers": [(b"host", host), (b"mcp-session-id", session)], "http_version": "1.1", "scheme": "http",
            "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 1), "root_path": "",
        }  # fmt: skip

        async def nothing() -> Any:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def discard(message: Any) -> None:
            return

        await self.inner(scope, nothing, discard)


if __name__ == "__main__":
    import uvicorn

    port, end_before_calls = int(sys.argv[1]), "--end-before-calls" in sys.argv
    served = Forgetful(app.streamable_http_app(host="127.0.0.1"), end_before_calls)
    uvicorn.run(served, host="127.0.0.1", port=port, log_level="warning")
