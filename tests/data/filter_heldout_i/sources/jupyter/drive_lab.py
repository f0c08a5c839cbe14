"""What JupyterLab's page asks its server for when a volunteer opens it, then a terminal, then a tab left open
with an old workspace and a missing extension asset."""

import asyncio
import json
import sys

from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest

PORT, TOKEN = sys.argv[1], sys.argv[2]
BASE = f"http://127.0.0.1:{PORT}"
HEAD = {"Authorization": f"token {TOKEN}"}
http = AsyncHTTPClient()


async def call(method, path, body=None):
    req = HTTPRequest(BASE + path, method=method, headers=HEAD, body=None if body is None else json.dumps(body),
                      allow_nonstandard_methods=True, follow_redirects=False)
    try:
        resp = await http.fetch(req)
    except HTTPClientError as exc:
        print(f"{method} {path} -> {exc.code}", file=sys.stderr)
        return None
    return json.loads(resp.body) if resp.body and resp.headers.get("Content-Type", "").startswith("application/json") else None


async def main():
    for _ in range(120):
        try:
            await http.fetch(BASE + "/api/status", headers=HEAD)
            break
        except (ConnectionError, OSError):
            await asyncio.sleep(0.5)
    for path in ["/lab", "/lab/api/settings", "/lab/api/translations", "/lab/api/workspaces/default", "/api/me",
                 "/api/kernelspecs", "/api/sessions", "/api/terminals", "/lab/api/listings/@jupyterlab/extensionmanager-extension/listings.json",
                 "/lab/extensions/@larder/labels/static/remoteEntry.js", "/lab/api/workspaces/auto-q", "/api/contents?content=1",
                 "/lab/api/settings/@jupyterlab/apputils-extension:themes", "/lsp/status"]:
        await call("GET", path)
    await call("PUT", "/lab/api/settings/@jupyterlab/notebook-extension:tracker", {"raw": "{\"codeCellConfig\": {\"lineNumbers\": tru}}"})
    term = await call("POST", "/api/terminals")
    if term:
        await call("GET", f"/api/terminals/{term['name']}")
        await call("DELETE", f"/api/terminals/{term['name']}")
    for _ in range(3):
        await call("GET", "/api/kernels")
        await call("GET", "/api/sessions")
        await asyncio.sleep(0.2)


asyncio.run(main())
