"""What a notebook user's browser does to a Jupyter server, minus the browser: list, save, open a kernel, run
cells (one fails), interrupt, restart, shut down; plus a stale tab with a wrong token and a missing file."""

import asyncio
import json
import sys
import uuid

from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest
from tornado.websocket import websocket_connect

PORT = sys.argv[1]
TOKEN = sys.argv[2]
BASE = f"http://127.0.0.1:{PORT}"
HEAD = {"Authorization": f"token {TOKEN}"}
http = AsyncHTTPClient()


async def call(method, path, body=None, token=True):
    req = HTTPRequest(BASE + path, method=method, headers=HEAD if token else {},
                      body=None if body is None else json.dumps(body), allow_nonstandard_methods=True)
    try:
        resp = await http.fetch(req)
    except HTTPClientError as exc:
        print(f"{method} {path} -> {exc.code}", file=sys.stderr)
        return None
    return json.loads(resp.body) if resp.body else None


async def execute(ws, session, code):
    msg_id = uuid.uuid4().hex
    await ws.write_message(json.dumps({
        "header": {"msg_id": msg_id, "msg_type": "execute_request", "session": session, "username": "",
                   "version": "5.3", "date": ""},
        "parent_header": {}, "metadata": {}, "channel": "shell",
        "content": {"code": code, "silent": False, "store_history": True, "user_expressions": {},
                    "allow_stdin": False, "stop_on_error": True},
    }))
    while True:
        reply = json.loads(await ws.read_message())
        if reply.get("msg_type") == "execute_reply" and reply["parent_header"].get("msg_id") == msg_id:
            return reply["content"]["status"]


async def main():
    for _ in range(120):  # the server takes a few seconds to start
        try:
            await http.fetch(BASE + "/api/status", headers=HEAD)
            break
        except (ConnectionError, OSError):
            await asyncio.sleep(0.5)
    await call("GET", "/api/status")
    await call("GET", "/api/kernelspecs")
    await call("GET", "/api/contents")
    await call("PUT", "/api/contents/intake.ipynb", {"type": "notebook", "content": {
        "cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}})
    await call("GET", "/api/contents/intake.ipynb")
    await call("GET", "/api/contents/rota.ipynb")  # 404
    await call("GET", "/api/contents", token=False)  # 403
    session = await call("POST", "/api/sessions", {"path": "intake.ipynb", "type": "notebook", "name": "",
                                                   "kernel": {"name": "python3"}})
    kid = session["kernel"]["id"]
    ws = await websocket_connect(HTTPRequest(f"ws://127.0.0.1:{PORT}/api/kernels/{kid}/channels", headers=HEAD))
    sid = uuid.uuid4().hex
    for code in ["import math\nstock = {'rice': 40, 'beans': 0}", "print(sum(stock.values()))",
                 "stock['lentils'] / len([])", "math.sqrt(-1)", "print('ok')"]:
        print("cell:", await execute(ws, sid, code), file=sys.stderr)
    ws.close()
    await call("POST", f"/api/kernels/{kid}/interrupt")
    await call("POST", f"/api/kernels/{kid}/restart")
    await asyncio.sleep(1)
    await call("GET", "/api/kernels")
    await call("DELETE", f"/api/sessions/{session['id']}")
    await call("DELETE", f"/api/kernels/{kid}")  # already gone: 404


asyncio.run(main())
