"""The fleet API the operators' app talks to."""

from __future__ import annotations

from flask import Flask, jsonify, request

from dockside.fleet import Station

app = Flask(__name__)

STATIONS = {
    "S01": Station("S01", "Harbour Gate", 51.4501, -2.5970, 20, [f"B{n}" for n in range(14)]),
    "S02": Station("S02", "Old Market", 51.4545, -2.5850, 16, [f"B{n}" for n in range(20, 23)]),
    "S03": Station("S03", "Temple Meads", 51.4492, -2.5813, 24, [f"B{n}" for n in range(30, 54)]),
}


@app.get("/health")
def health():
    return {"ok": True, "stations": len(STATIONS)}


@app.get("/stations/<sid>/bikes")
def bikes(sid: str):
    station = STATIONS[sid.upper()]
    return jsonify(station=station.sid, bikes=station.bikes, free=station.free_docks())


@app.post("/rides")
def start_ride():
    body = request.get_json()
    station = STATIONS[body["station"]]
    bike = station.bikes.remove(body["bike"])
    return jsonify(started=bike["id"], station=station.sid), 201
