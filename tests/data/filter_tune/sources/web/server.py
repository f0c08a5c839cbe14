import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/api/boom":
            raise KeyError("tenant")
        if self.path == "/api/stats":
            body = json.dumps({"service": "catalog", "uptime_s": 8812, "routes": [{"path": f"/api/items/{i}", "hits": i * 37 % 1000, "p95_ms": i % 50 + 3} for i in range(40)]}).encode()
        elif self.path.startswith("/api/items/") or self.path == "/":
            body = b'{"ok": true}'
        else:
            self.send_error(404, "Not Found")
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
