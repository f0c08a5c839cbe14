"""A small HTTPS site on this machine for the tutorials, with its own certificate authority (trustme).

The web tools refuse private addresses, so the tutorials reach this server through the opt-in allowlist:
``settings_for(server)`` returns ``[tools.scrape]`` settings that allow 127.0.0.1 and trust the demo CA.
"""

from __future__ import annotations

import json
import ssl
import tempfile
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

try:
    import trustme
except ImportError:  # the own-environment install has no [lab] extra: say what to install, not a bare traceback
    raise ImportError(
        "the tutorials' HTTPS site needs trustme for its test certificate authority: pip install trustme "
        "(or pip install 'zeph-nb[lab]')"
    ) from None

PAGES: dict[str, tuple[str, str]] = {
    "/": (
        "text/html",
        """<html><head><title>Tea shop</title><script>track()</script></head><body>
<nav><a href="/">Home</a> · <a href="/prices">Prices</a></nav>
<main><h1>Tea shop</h1><p>Loose-leaf tea, shipped <b>weekly</b>. See the <a href="/prices">price list</a>.</p>
<h2>Opening hours</h2><ul><li>Mon-Fri 9-18</li><li>Sat 10-14</li></ul></main>
<footer>© Tea shop</footer></body></html>""",
    ),
    "/prices": (
        "text/html",
        """<html><body><table class="prices">
<tr><td class="item">Sencha</td><td class="amount">6.50</td></tr>
<tr><td class="item">Assam</td><td class="amount">4.20</td></tr>
<tr><td class="item">Oolong</td><td class="amount">8.90</td></tr></table></body></html>""",
    ),
    "/api/stock.json": ("application/json", json.dumps({"sencha": 12, "assam": 0, "oolong": 3})),
    "/search": (
        "text/html",
        """<html><body>
<div class="result"><a class="result__a" href="https://en.wikipedia.org/wiki/Oolong">Oolong - Wikipedia</a>
<a class="result__snippet">Oolong is a traditional semi-oxidized Chinese tea.</a></div>
<div class="result"><a class="result__a" href="https://www.example.org/brewing">How to brew oolong</a>
<a class="result__snippet">Water at 90 °C, three minutes.</a></div></body></html>""",
    ),
}


@dataclass
class DemoServer:
    base: str  # https://127.0.0.1:<port>
    ca_file: Path
    httpd: ThreadingHTTPServer

    def url(self, path: str) -> str:
        return self.base + path

    def toml(self) -> str:
        """The [tools.scrape] table that lets the web tools reach this server, and only it, without asking."""
        return (
            "[tools.scrape]\n"
            'allow_private = ["127.0.0.1/32"]\n'
            'allowed_hosts = ["127.0.0.1"]\n'
            f'extra_ca_bundle = "{self.ca_file}"\n'
            f'search_url = "{self.base}/search?q={{query}}"\n'
        )

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


_FLAKY: dict[str, int] = {}


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_GET(self) -> None:
        path = self.path.split("?")[0]
        if path.startswith("/status/"):
            status = int(path.rsplit("/", 1)[1])
            self._send(status, "text/plain", f"status {status}", {"Retry-After": "1"} if status == 429 else {})
        elif path.startswith("/flaky/"):  # 503 until the n-th request for this path, then 200
            count = _FLAKY[path] = _FLAKY.get(path, 0) + 1
            if count < int(path.rsplit("/", 1)[1]):
                self._send(503, "text/plain", "try again")
            else:
                self._send(200, "text/plain", f"ok on request {count}")
        elif path == "/redirect-inside":  # a redirect to the machine's own cloud-metadata address
            self._send(302, "text/plain", "", {"Location": "https://169.254.169.254/latest/meta-data/"})
        elif path == "/big":
            self._send(200, "text/plain", "log line\n" * 200_000)
        elif path in PAGES:
            kind, body = PAGES[path]
            self._send(200, f"{kind}; charset=utf-8", body)
        else:
            self._send(404, "text/plain", "not found")

    def _send(self, status: int, kind: str, body: str, headers: dict[str, str] | None = None) -> None:
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)


def start() -> DemoServer:
    ca = trustme.CA()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1").configure_cert(context)
    ca_file = Path(tempfile.mkdtemp(prefix="zeph-demo-ca-")) / "ca.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return DemoServer(f"https://127.0.0.1:{httpd.server_address[1]}", ca_file, httpd)
