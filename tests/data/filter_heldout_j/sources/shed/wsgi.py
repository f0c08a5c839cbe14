"""The tool shed's lending desk: a plain WSGI app gunicorn serves to the volunteers' tablets."""

import json
import logging
import time

log = logging.getLogger("shed.desk")

TOOLS = {str(i): {"id": i, "name": f"tool-{i}", "out": i % 3 == 0} for i in range(1, 120)}


def app(environ, start_response):
    path = environ.get("PATH_INFO", "/")
    if path == "/health":
        body = b"ok"
    elif path.startswith("/tools/"):
        tool = TOOLS.get(path.rsplit("/", 1)[1])
        if tool is None:
            start_response("404 Not Found", [("Content-Type", "text/plain")])
            return [b"no such tool"]
        body = json.dumps(tool).encode()
    elif path == "/report":
        # Loans per member: a member with no loans yet divides by zero (the bug the log shows).
        members = [{"loans": 3, "days": 12}, {"loans": 0, "days": 0}]
        body = json.dumps([m["days"] / m["loans"] for m in members]).encode()
    elif path == "/export":
        time.sleep(10)  # the spreadsheet export is slower than gunicorn's timeout
        body = b"done"
    else:
        start_response("404 Not Found", [("Content-Type", "text/plain")])
        return [b"not found"]
    start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
    return [body]
