"""The greenhouse's sensor API and its pages: the counterpart the proxy, the crawler and the load test talk to.

Quiet on purpose (its own log is not what is recorded): python backend.py PORT
"""

import json
import random
import sys
import time
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

HOUSES = ["north", "south", "east", "west", "orchid", "seedling", "cactus", "fern"]
PLANTS = {house: [f"{house}-{n:02d}" for n in range(1, 19)] for house in HOUSES}


class Quiet(WSGIRequestHandler):
    def log_message(self, *args):
        pass


class Threaded(ThreadingMixIn, WSGIServer):
    daemon_threads = True


def page(title, body, links=()):
    items = "".join(f'<li><a href="{href}">{text}</a></li>' for href, text in links)
    return (f"<html><head><title>{title}</title></head><body><h1>{title}</h1>{body}<ul>{items}</ul>"
            f"</body></html>").encode()


def reading(house):
    rng = random.Random(house)
    return {"house": house, "temp_c": round(18 + rng.random() * 10, 1), "humidity": rng.randint(40, 90),
            "soil": {p: rng.randint(10, 60) for p in PLANTS[house][:4]}}


def app(environ, start):
    path = environ["PATH_INFO"]
    html = [("Content-Type", "text/html; charset=utf-8")]
    js = [("Content-Type", "application/json")]
    if path == "/":
        start("200 OK", html)
        links = [(f"/houses/{h}", h) for h in HOUSES] + [("/houses/palm", "palm"), ("/about", "about"),
                                                          ("https://seeds.example.org/catalogue", "seeds")]
        return [page("Greenhouse", "<p>All houses</p>", links)]
    if path == "/about":
        start("301 Moved Permanently", [("Location", "/about/")])
        return [b""]
    if path == "/about/":
        start("200 OK", html)
        return [page("About", "<p>Run by volunteers.</p>", [("/", "home")])]
    if path.startswith("/houses/"):
        parts = path.strip("/").split("/")
        house = parts[1]
        if house not in PLANTS:
            start("404 Not Found", html)
            return [page("Not found", f"<p>no house {house}</p>")]
        if len(parts) == 2:
            start("200 OK", html)
            links = [(f"/houses/{house}/{p}", p) for p in PLANTS[house]] + [("/", "home")]
            if house == "fern":
                links.append((f"/houses/{house}/fern-19", "fern-19"))
            return [page(f"House {house}", f"<p class='temp'>{reading(house)['temp_c']}</p>", links)]
        plant = parts[2]
        if plant not in PLANTS[house]:
            start("404 Not Found", html)
            return [page("Not found", f"<p>no plant {plant}</p>")]
        if plant == "cactus-07":
            start("500 Internal Server Error", html)
            return [page("Server error", "<p>database is locked</p>")]
        rng = random.Random(plant)
        # orchid plants have no watering note: the crawler's parse assumes one
        note = "" if house == "orchid" and rng.random() < 0.3 else f"<p class='water'>every {rng.randint(1, 9)} days</p>"
        body = f"<p class='species'>{rng.choice(['basil', 'tomato', 'chili', 'mint', 'orchid'])}</p>{note}"
        start("200 OK", html)
        return [page(f"Plant {plant}", body, [(f"/houses/{house}", house)])]
    if path.startswith("/api/readings/"):
        house = path.rsplit("/", 1)[1]
        if house not in PLANTS:
            start("404 Not Found", js)
            return [json.dumps({"error": f"unknown house {house}"}).encode()]
        start("200 OK", js)
        return [json.dumps(reading(house)).encode()]
    if path == "/api/slow-report":
        time.sleep(2.5)
        start("200 OK", js)
        return [b'{"report": "late"}']
    if path == "/api/report":
        start("500 Internal Server Error", js)
        return [b'{"error": "report generator crashed"}']
    if path == "/api/water" and environ["REQUEST_METHOD"] == "POST":
        size = int(environ.get("CONTENT_LENGTH") or 0)
        body = json.loads(environ["wsgi.input"].read(size) or b"{}")
        if body.get("litres", 0) > 20:
            start("422 Unprocessable Entity", js)
            return [b'{"error": "more than 20 litres"}']
        start("201 Created", js)
        return [b'{"ok": true}']
    start("404 Not Found", js)
    return [b'{"error": "not found"}']


if __name__ == "__main__":
    server = make_server("127.0.0.1", int(sys.argv[1]), app, server_class=Threaded, handler_class=Quiet)
    server.serve_forever()
