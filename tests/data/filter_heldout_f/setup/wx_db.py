"""Builds wx.db in the current folder (the weather project) from its station exports in data/raw/: readings in
Celsius and m/s, as the pipeline would load them."""

import sqlite3
from pathlib import Path

STATIONS = [
    ("st-001", "Kestrel Point", "coast", 12),
    ("st-002", "Mossbank Farm", "inland", 148),
    ("st-003", "Harrow Ridge", "upland", 612),
    ("st-004", "Fenwick Lock", "inland", 31),
    ("st-005", "Gullhaven Pier", "coast", 4),
]
db = sqlite3.connect("wx.db")
db.executescript(
    """
        CREATE TABLE stations (id TEXT PRIMARY KEY, name TEXT NOT NULL, region TEXT, elevation_m INTEGER);
        CREATE TABLE readings (station TEXT NOT NULL REFERENCES stations(id), ts TEXT NOT NULL, temp_c REAL,
                               humidity INTEGER, wind_ms REAL, pressure_hpa REAL, UNIQUE (station, ts));
        CREATE INDEX idx_readings_ts ON readings(ts);
        """
)
for station in STATIONS:
    db.execute("INSERT INTO stations VALUES (?, ?, ?, ?)", station)
for csv in sorted(Path("data/raw").glob("*.csv")):
    for line in csv.read_text().splitlines()[1:]:
        ts, sid, temp_f, hum, wind, pres = line.split(",")[:6]
        db.execute(
            "INSERT INTO readings VALUES (?, ?, ?, ?, ?, ?)",
            (sid, ts, round((float(temp_f) - 32) * 5 / 9, 2), int(hum), round(float(wind) * 0.514444, 2), float(pres)),
        )
db.commit()
db.close()
