"""A real HTTPS server on loopback with a test CA (trustme), serving the pages the web tool tests need."""

from __future__ import annotations

import functools
import gzip
import json
import ssl
import threading
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import trustme


@functools.cache
def bomb(mib: int, layers: int = 1) -> bytes:
    """``mib`` MiB of zeros, gzipped ``layers`` times (made on first use: a 256 MiB one takes a second)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    zeros = b"\0" * (1024 * 1024)
    body = b"".join(packer.compress(zeros) for _ in range(mib)) + packer.flush()
    for _ in range(layers - 1):
        body = gzip.compress(body, 9)
    return body


PAGE = """<!doctype html><html><head><title>Release notes</title><style>body{color:red}</style>
<script>window.tracker = 'do not show';</script></head><body>
<nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<header>Site banner</header>
<main><h1>Release 2.0</h1><p>Faster <b>builds</b> and a <a href="https://example.org/docs">new guide</a>.</p>
<p>Read <a href="/notes/2.0">the notes</a>.</p>
<h2>Changes</h2><ul><li>grep is 3x faster</li><li>new <code>--json</code> flag</li></ul>
<pre><code>pip install tool==2.0</code></pre></main>
<footer>Copyright footer</footer></body></html>"""

SCRAPE = """<html><body><table class="prices"><tr><td class="item">tea</td><td class="amount">3.10</td></tr>
<tr><td class="item">coffee</td><td class="amount">2.40</td></tr></table>
<a class="more" href="/next?page=2">more</a></body></html>"""

SEARCH = """<html><body><div class="results">
<div class="result"><h2><a class="result__a" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fdocs.python.org%2F3%2F&rut=x">
Python 3 documentation</a></h2><a class="result__snippet">The official Python documentation.</a></div>
<div class="result"><h2><a class="result__a" href="https://peps.python.org/">PEP index</a></h2>
<a class="result__snippet">Python Enhancement Proposals.</a></div>
</div></body></html>"""


@dataclass
class Server:
    port: int
    ca_file: Path
    hits: list[tuple[str, str]]  # (Host header, path) of every request

    def url(self, path: str, host: str = "web.test") -> str:
        return f"https://{host}:{self.port}{path}"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: Any

    def log_message(self, format: str, *args: Any) -> None:
        return

    def send(self, status: int, body: bytes, content_type: str = "text/html; charset=utf-8",
             headers: dict[str, str] | None = None) -> None:  # fmt: skip
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        self.server.hits.append((self.headers.get("Host", ""), self.path))
        path = self.path.split("?")[0]
        port = self.server.server_address[1]
        if path == "/page.html":
            self.send(200, PAGE.encode())
        elif path == "/scrape.html":
            self.send(200, SCRAPE.encode())
        elif path == "/search":
            self.send(200, SEARCH.encode())
        elif path == "/data.json":
            self.send(200, json.dumps({"name": "zeph", "tags": ["a", "b"]}).encode(), "application/json")
        elif path == "/plain.txt":
            self.send(200, b"just text\nline two\n", "text/plain")
        elif path == "/image.png":
            self.send(200, b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, "image/png")
        elif path == "/broken.html":
            self.send(200, b"<html><body><h1>Unclosed <p>para <div><b>bold <i>both</b> text</div><ul><li>one<li>two")
        elif path.startswith("/redirect/"):
            left = int(path.rsplit("/", 1)[1])
            target = "/page.html" if left == 0 else f"/redirect/{left - 1}"
            self.send(302, b"", headers={"Location": target})
        elif path == "/to-private":
            self.send(302, b"", headers={"Location": f"https://10.0.0.1:{port}/page.html"})
        elif path == "/to-metadata":
            self.send(302, b"", headers={"Location": f"https://metadata.test:{port}/latest/meta-data"})
        elif path == "/to-http":
            self.send(302, b"", headers={"Location": f"http://web.test:{port}/page.html"})
        elif path == "/big":
            self.send(200, b"x" * (3 * 1024 * 1024), "text/plain")
        elif path == "/claims-huge":  # says 500 MiB, sends 2 MiB and closes
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(500 * 1024 * 1024))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(b"y" * (2 * 1024 * 1024))
            self.close_connection = True
        elif path == "/endless":  # chunked, never ends on its own
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk = b"z" * 65536
            try:
                for _ in range(200):
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            except OSError:
                pass
            self.close_connection = True
        elif path == "/trickle":
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            try:
                for _ in range(1000):
                    self.wfile.write(b".")
                    self.wfile.flush()
                    time.sleep(0.2)
            except OSError:
                pass
            self.close_connection = True
        elif path in ("/gzip.txt", "/deflate.txt"):
            encoding = path[1:].split(".")[0]
            packer = zlib.compressobj(wbits=(16 if encoding == "gzip" else 0) + zlib.MAX_WBITS)
            body = packer.compress(b"compressed line\n" * 2000) + packer.flush()
            self.send(200, body, "text/plain", {"Content-Encoding": encoding})
        elif path == "/bomb":  # 200 MiB of zeros in about 200 KB of gzip
            self.send(200, bomb(200), "text/plain", {"Content-Encoding": "gzip"})
        elif path == "/stacked-bomb":  # 256 MiB of zeros in a few KB: gzip of gzip, the shape that blew up
            self.send(200, bomb(256, layers=2), "text/plain", {"Content-Encoding": "gzip, gzip"})
        elif path == "/stacked":  # gzip of gzip: refused before anything is inflated
            inner = gzip.compress(b"x" * 1000)
            self.send(200, gzip.compress(inner), "text/plain", {"Content-Encoding": "gzip, gzip"})
        elif path == "/corrupt-gzip":
            self.send(200, b"\x1f\x8b\x08\x00garbage, not deflate data" * 4, "text/plain", {"Content-Encoding": "gzip"})
        elif path == "/brotli":
            self.send(200, b"\x0b\x02\x80hello\x03", "text/plain", {"Content-Encoding": "br"})
        elif path.startswith("/status/"):
            status = int(path.rsplit("/", 1)[1])
            headers = {"Retry-After": "7"} if status == 429 else {}
            self.send(status, f"status {status}".encode(), "text/plain", headers)
        else:
            self.send(404, b"not found", "text/plain")


@contextmanager
def https_server(tmp: Path) -> Iterator[Server]:
    ca = trustme.CA()
    cert = ca.issue_cert("web.test", "rebind.test", "metadata.test", "127.0.0.1")
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    cert.configure_cert(context)
    ca_file = tmp / "test-ca.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
    httpd.hits = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield Server(httpd.server_address[1], ca_file, httpd.hits)  # type: ignore[attr-defined]
    finally:
        httpd.shutdown()
        httpd.server_close()
