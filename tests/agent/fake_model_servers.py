"""Local HTTP servers that speak the Anthropic Messages API (JSON and SSE) and OpenAI chat completions.

Each server replays a list of scripted replies, one per request, and keeps every request it received (path,
headers, JSON body) so tests can check what the real SDK or client sent over the wire.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    status: int = 200
    body: Any = None  # JSON body, or a list of (event, data) pairs for SSE
    headers: dict[str, str] = field(default_factory=dict)
    sse: bool = False
    # SSE only: after the events, send a ping every this many seconds and never finish (a stalled stream), until
    # the client hangs up or 60 s pass.
    stall_ping_secs: float | None = None


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: Any


class FakeServer:
    def __init__(self, replies: list[Reply]) -> None:
        self.replies = list(replies)
        self.received: list[Received] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # quiet
                return

            def _stall(self, reply: Reply) -> None:
                assert reply.stall_ping_secs is not None
                try:
                    for event, data in reply.body:
                        self.wfile.write(f"event: {event}\ndata: {json.dumps(data)}\n\n".encode())
                    self.wfile.flush()
                    for _ in range(int(60 / reply.stall_ping_secs)):
                        time.sleep(reply.stall_ping_secs)
                        self.wfile.write(b'event: ping\ndata: {"type": "ping"}\n\n')
                        self.wfile.flush()
                except OSError:
                    return  # the client gave up: what a stalled stream should make it do

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                raw = self.rfile.read(length)
                headers = {name.lower(): value for name, value in self.headers.items()}
                server.received.append(Received(self.path, headers, json.loads(raw or b"null")))
                reply = server.replies.pop(0) if server.replies else Reply(500, {"error": "no scripted reply left"})
                self.send_response(reply.status)
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                if reply.sse and reply.stall_ping_secs is not None:
                    self.send_header("content-type", "text/event-stream")
                    self.end_headers()
                    self._stall(reply)
                    return
                if reply.sse:
                    payload = "".join(f"event: {event}\ndata: {json.dumps(data)}\n\n" for event, data in reply.body)
                    data = payload.encode()
                    self.send_header("content-type", "text/event-stream")
                else:
                    data = json.dumps(reply.body).encode()
                    self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    @property
    def bodies(self) -> list[Any]:
        return [r.body for r in self.received]


@contextmanager
def serve(replies: list[Reply]) -> Iterator[FakeServer]:
    server = FakeServer(replies)
    thread = threading.Thread(target=server.httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.httpd.shutdown()
        server.httpd.server_close()


# -- Anthropic Messages API ------------------------------------------------------------------------------------


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def tool_use(call_id: str, name: str, tool_input: Any) -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": name, "input": tool_input}


USAGE = {"input_tokens": 120, "output_tokens": 30, "cache_read_input_tokens": 100, "cache_creation_input_tokens": 20}


def message(blocks: list[dict[str, Any]], stop_reason: str = "end_turn") -> Reply:
    return Reply(
        200,
        {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test", "content": blocks,
         "stop_reason": stop_reason, "stop_sequence": None, "usage": USAGE},
    )  # fmt: skip


def stream(
    blocks: list[dict[str, Any]], stop_reason: str = "end_turn", *, raw_inputs: dict[int, str] | None = None
) -> Reply:
    """A Messages SSE stream: text in several deltas, tool input as partial JSON in pieces.

    ``raw_inputs`` replaces the partial JSON of a block (by index) verbatim, to send malformed input.
    """
    start_usage = {**USAGE, "output_tokens": 1}
    events: list[tuple[str, Any]] = [
        ("message_start", {"type": "message_start", "message": {
            "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test", "content": [],
            "stop_reason": None, "stop_sequence": None, "usage": start_usage}}),
    ]  # fmt: skip
    for index, block in enumerate(blocks):
        if block["type"] == "text":
            events.append(("content_block_start", {"type": "content_block_start", "index": index,
                                                   "content_block": {"type": "text", "text": ""}}))  # fmt: skip
            words = block["text"].split(" ")
            for i, word in enumerate(words):
                piece = word if i == len(words) - 1 else word + " "
                events.append(("content_block_delta", {"type": "content_block_delta", "index": index,
                                                       "delta": {"type": "text_delta", "text": piece}}))  # fmt: skip
        else:
            events.append(("content_block_start", {"type": "content_block_start", "index": index, "content_block": {
                "type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}}))  # fmt: skip
            partial = (raw_inputs or {}).get(index, json.dumps(block["input"]))
            for i in range(0, len(partial), 7):
                events.append(("content_block_delta", {"type": "content_block_delta", "index": index,
                               "delta": {"type": "input_json_delta", "partial_json": partial[i : i + 7]}}))  # fmt: skip
        events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
    events.append(("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop_reason,
                   "stop_sequence": None}, "usage": {"output_tokens": 30}}))  # fmt: skip
    events.append(("message_stop", {"type": "message_stop"}))
    return Reply(200, events, sse=True)


def stalled(ping_secs: float = 0.2, after_text: str = "") -> Reply:
    """A stream that starts (message_start), sends ``after_text`` if any, and then only pings: no more content."""
    if not after_text:
        return Reply(200, stream([]).body[:1], sse=True, stall_ping_secs=ping_secs)
    events = stream([text(after_text)]).body
    head = [(event, data) for event, data in events if event in ("message_start", "content_block_start")
            or (event == "content_block_delta")]  # fmt: skip
    return Reply(200, head, sse=True, stall_ping_secs=ping_secs)


def api_error(status: int, kind: str, note: str, headers: dict[str, str] | None = None) -> Reply:
    return Reply(status, {"type": "error", "error": {"type": kind, "message": note}}, headers or {})


# -- OpenAI chat completions ----------------------------------------------------------------------------------


def completion(content: str | None = None, tool_calls: list[tuple[str, str, str]] | None = None) -> Reply:
    """``tool_calls``: (id, name, arguments as a JSON string, possibly malformed)."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = [
            {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}
            for call_id, name, arguments in tool_calls
        ]
    return Reply(
        200,
        {"id": "chatcmpl-1", "object": "chat.completion", "model": "local-model",
         "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if tool_calls else "stop"}],
         "usage": {"prompt_tokens": 50, "completion_tokens": 10, "total_tokens": 60}},
    )  # fmt: skip
