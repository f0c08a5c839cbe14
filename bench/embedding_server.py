"""An OpenAI-compatible ``/v1/embeddings`` server on loopback, for the tool filter's tests and its benchmark.

Nothing can be downloaded here, so no neural embedding model runs; this one embeds by feature hashing (each
word, lowercased, counted into one of ``dims`` buckets by CRC-32), a real lexical embedding: texts that share
words are near, texts that share none are orthogonal. The server answers the way real ones do (``data`` entries
with an ``index``, here deliberately in reverse order, which a client must put back) and can misbehave on
demand: an HTTP status, a delay, or a reply that is not an embeddings reply.
"""

from __future__ import annotations

import json
import re
import threading
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["EmbeddingServer", "hashed_embedding", "serve_embeddings"]

# Words every description has: counted, they make everything a little similar to everything.
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "for",
        "from",
        "in",
        "into",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "the",
        "this",
        "to",
        "with",
    ]
)


def hashed_embedding(text: str, dims: int = 512) -> list[float]:
    vector = [0.0] * dims
    for word in re.findall(r"[a-z0-9]+", text.lower()):
        if word not in STOPWORDS:
            vector[zlib.crc32(word.encode()) % dims] += 1.0
    return vector


class EmbeddingServer:
    def __init__(self, dims: int = 512) -> None:
        self.dims = dims
        self.status = 200  # anything else: answered with that status
        self.delay = 0.0  # seconds before answering
        self.garbage = False  # answer 200 with something that is not an embeddings reply
        self.trickle = False  # send the reply a byte every 50 ms: each read is quick, the whole never ends
        self.requests: list[dict[str, Any]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # quiet
                return

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"null")
                body["authorization"] = self.headers.get("authorization")
                server.requests.append(body)
                time.sleep(server.delay)
                if self.path.rstrip("/") != "/v1/embeddings":
                    status, reply = 404, {"error": f"no route {self.path}"}
                elif server.status != 200:
                    status, reply = server.status, {"error": "scripted failure"}
                elif server.garbage:
                    status, reply = 200, {"object": "list", "data": "not vectors"}
                else:
                    inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
                    data = [{"object": "embedding", "index": i, "embedding": hashed_embedding(text, server.dims)}
                            for i, text in enumerate(inputs)]  # fmt: skip
                    status, reply = 200, {"object": "list", "model": body.get("model"), "data": data[::-1]}
                payload = json.dumps(reply).encode()
                try:
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(payload)))
                    self.end_headers()
                    for start in range(0, len(payload), 1 if server.trickle else len(payload)):
                        self.wfile.write(payload[start : start + (1 if server.trickle else len(payload))])
                        self.wfile.flush()
                        time.sleep(0.05 if server.trickle else 0)
                except OSError:
                    return  # the client gave up waiting (a timeout test)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def inputs(self) -> list[str]:
        """Every text embedded so far, in the order asked."""
        return [text for body in self.requests for text in (body["input"] if isinstance(body["input"], list)
                                                             else [body["input"]])]  # fmt: skip


def provider_toml(url: str) -> str:
    """The ``[[llm.providers]]`` entry (name ``embed``) whose /embeddings a server at ``url`` answers: the start of a
    settings file in the tests and benches that embed."""
    return (
        '[[llm.providers]]\nname = "embed"\nkind = "openai"\nmodel = "chat-model"\nembedding_model = "hashing-512"\n'
        f'base_url = "{url}"\n'
    )


@contextmanager
def serve_embeddings(dims: int = 512) -> Iterator[EmbeddingServer]:
    server = EmbeddingServer(dims)
    thread = threading.Thread(target=server.httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.httpd.shutdown()
        server.httpd.server_close()
