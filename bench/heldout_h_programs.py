# ruff: noqa: E501, S608 - programs written out whole; the seed SQL is built from constants
"""The programs and projects ``bench/make_heldout_h.py`` runs to record the eighth held-apart corpus (H).

Each is a small, real program: what it prints is whatever Python, Flask, pylint, bandit, scikit-learn, matplotlib,
javac, java, maven, cmake, g++, ctest, gdb, perl, PostgreSQL, redis, openssl, node, tsc, shellcheck, yamllint, jq,
git and the coreutils print when it runs. ``random`` only varies sample data (seeded). Nothing is simulated.

The projects: ``dockside`` (a bike-share fleet's docks and rides, in Python, with a Flask API), ``kiln`` (a pottery
studio's kiln firing schedules, in Java), ``anemo`` (a weather station network's wind statistics, C++ with CMake),
``stationd`` (the stations' log reader, in C, with a plain Makefile), ``crumb`` (a bakery's orders in PostgreSQL,
a Perl tally script and a redis-backed pickup queue), ``pedal`` (the bike-share's Node sync script and a TypeScript
module) and ``tls`` (a self-made CA and server certificate for a loopback TLS server).
"""

from __future__ import annotations

import json
import random

# ------------------------------------------------------------------------------------------------ dockside (Python)
DOCK: dict[str, str] = {}

DOCK["pyproject.toml"] = """
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "dockside"
version = "0.4.1"
description = "Docks, bikes and rides of a city bike-share fleet"
requires-python = ">=3.10"
dependencies = ["flask>=3"]

[tool.setuptools.packages.find]
include = ["dockside*"]
"""

DOCK["dockside/__init__.py"] = '''
"""Docks, bikes and rides of a city bike-share fleet."""
__version__ = "0.4.1"
'''

DOCK["dockside/geo.py"] = '''
"""Distances between docks."""

from __future__ import annotations

import math

EARTH_KM = 6371.0


def haversine(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance in km."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp = p2 - p1
    dl = math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_KM * math.asin(math.sqrt(a))
'''

DOCK["dockside/fleet.py"] = '''
"""Stations, their docks, and the nightly rebalancing plan."""

import json
import os
import sys
from dataclasses import dataclass, field

from dockside.geo import haversine


@dataclass
class Station:
    sid: str
    name: str
    lat: float
    lon: float
    capacity: int
    bikes: list = field(default_factory=list)

    def free_docks(self):
        return self.capacity - len(self.bikes)


def load_stations(path):
    with open(path) as fh:
        raw = json.load(fh)
    stations = {}
    for row in raw:
        stations[row["sid"]] = Station(row["sid"], row["name"], row["lat"], row["lon"], row["capacity"],
                                       [f"B{n}" for n in range(row["bikes"])])
    return stations


def fill_ratio(station):
    return len(station.bikes) / station.capacity


def rebalance(stations, low=0.2, high=0.8, moves=[]):
    """Plan van trips from full stations to the nearest empty ones."""
    full = [s for s in stations.values() if fill_ratio(s) > high]
    empty = [s for s in stations.values() if fill_ratio(s) < low]
    for src in full:
        if not empty:
            break
        dst = min(empty, key=lambda s: haversine(src.lat, src.lon, s.lat, s.lon))
        surplus = len(src.bikes) - int(src.capacity * high)
        n = min(surplus, dst.free_docks())
        moves.append((src.sid, dst.sid, n))
        for _ in range(n):
            dst.bikes.append(src.bikes.pop())
        if fill_ratio(dst) >= low:
            empty.remove(dst)
    return moves


def status_line(station, verbose=False, unit="bikes", width=30, show_coords=False, show_free=True):
    text = f"{station.sid:6s} {station.name[:width]:{width}s} {len(station.bikes):3d} {unit}"
    if show_free:
        text += f" ({station.free_docks()} free)"
    if show_coords:
        text += f" @ {station.lat:.4f},{station.lon:.4f}"
    if verbose:
        if fill_ratio(station) > 0.9:
            text += " FULL"
        elif fill_ratio(station) < 0.1:
            text += " EMPTY"
        elif fill_ratio(station) < 0.3:
            text += " low"
        elif fill_ratio(station) > 0.7:
            text += " high"
        else:
            text += " ok"
    return text


def main():
    try:
        stations = load_stations(sys.argv[1])
    except Exception as exc:
        print("cannot load stations:", exc)
        return 1
    for sid, dst, n in rebalance(stations):
        print(f"move {n} bikes {sid} -> {dst}")
    return 0
'''

DOCK["dockside/ops.py"] = '''
"""Operator helpers: dock firmware, ride exports, the van queue."""

import pickle
import random
import sqlite3
import subprocess
import tempfile

import yaml


def flash_firmware(dock_ip, image):
    return subprocess.run(f"tftp {dock_ip} -c put {image}", shell=True, check=False)


def rides_for(db, member):
    return db.execute(f"SELECT * FROM rides WHERE member = '{member}'").fetchall()


def load_queue(blob):
    return pickle.loads(blob)


def van_route_seed():
    return random.randint(0, 9999)


def export_path(day):
    return f"/tmp/rides-{day}.csv"


def read_zones(path):
    with open(path) as fh:
        return yaml.load(fh, Loader=yaml.Loader)


def scratch_db():
    try:
        return sqlite3.connect(tempfile.mktemp(suffix=".db"))
    except Exception:
        pass
'''

DOCK["dockside/api.py"] = '''
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
'''

DOCK["dockside/export.py"] = '''
"""Monthly ride export for the city council, in the operator's locale."""

from __future__ import annotations

import csv
import locale
import sys


def decimal_comma() -> bool:
    lang, _enc = locale.getdefaultlocale()
    return bool(lang) and lang.split("_")[0] in {"de", "fr", "nl", "es", "it"}


def export(rows: list[dict[str, str]], out=sys.stdout) -> None:
    comma = decimal_comma()
    writer = csv.writer(out, delimiter=";" if comma else ",")
    writer.writerow(["ride", "km"])
    for row in rows:
        km = row["km"].replace(".", ",") if comma else row["km"]
        writer.writerow([row["ride"], km])


if __name__ == "__main__":
    export([{"ride": "R1", "km": "2.4"}, {"ride": "R2", "km": "5.1"}])
'''

DOCK["sim.py"] = '''
"""A week of rides through the fleet, to see where rebalancing time goes."""

import random

from dockside.fleet import Station, rebalance
from dockside.geo import haversine

rng = random.Random(4)
stations = {}
for i in range(120):
    sid = f"S{i:03d}"
    cap = rng.choice([12, 16, 20, 24])
    stations[sid] = Station(sid, f"Dock {i}", 51.40 + rng.random() / 10, -2.65 + rng.random() / 10, cap,
                            [f"{sid}-{n}" for n in range(rng.randint(0, cap))])


def nearest(lat, lon):
    return min(stations.values(), key=lambda s: haversine(lat, lon, s.lat, s.lon))


def ride(rng):
    src = rng.choice(list(stations.values()))
    if not src.bikes:
        return 0.0
    dst = nearest(51.40 + rng.random() / 10, -2.65 + rng.random() / 10)
    if dst.free_docks() <= 0:
        return 0.0
    dst.bikes.append(src.bikes.pop())
    return haversine(src.lat, src.lon, dst.lat, dst.lon)


km = 0.0
vans = 0
for day in range(7):
    for _ in range(1500):
        km += ride(rng)
    vans += len(rebalance(stations, moves=[]))
print(f"{km:.1f} km ridden, {vans} van trips")
'''

DOCK["plot_usage.py"] = '''
"""Hourly dock usage chart for the operations meeting."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

hours = np.arange(24)
rng = np.random.default_rng(2)
usage = {f"S{i:02d}": rng.poisson(6 + 5 * np.sin(hours / 24 * 2 * np.pi), 24) for i in range(1, 5)}

fig, axes = plt.subplots(2, 2, figsize=(8, 5), sharex=True)
for ax, (sid, counts) in zip(axes.flat, usage.items()):
    ax.bar(hours, counts, label=sid)
    ax.set_title(f"{sid} \\u2014 rides started per hour \\U0001F6B2")
    ax.set_yscale("log")
    ax.plot(hours, counts - counts.max(), color="k")
axes[0, 0].legend(loc="upper center")
fig.tight_layout()
plt.show()
fig.savefig("usage.png")
print("wrote usage.png")
'''

DOCK["demand_model.py"] = '''
"""Will a dock run empty in the next hour? A first model on last month's snapshots."""

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score

rng = np.random.default_rng(5)
n = 4000
hour = rng.integers(0, 24, n)
bikes = rng.integers(0, 25, n)
temp = rng.normal(14, 6, n)
rain = rng.random(n) < 0.2
X = np.column_stack([hour * 100.0, bikes, temp * 1000.0, rain])
y = (bikes < 4) & ((hour > 6) & (hour < 10)) | (rng.random(n) < 0.05)

model = LogisticRegression(max_iter=25)
scores = cross_val_score(model, X, y, cv=5)
print("cv accuracy:", scores.round(3))
model.fit(X, y)
print("coefficients:", model.coef_.round(4))
'''

DOCK["requirements-lock.txt"] = """
# pinned for the operators' kiosk image
flask==3.0.3
werkzeug==2.3.8
itsdangerous==2.2.0
"""

DOCK["config/prod.ini"] = """
[api]
host = 0.0.0.0
port = 8080
workers = 8
timeout = 30

[fleet]
low_water = 0.2
high_water = 0.8
van_capacity = 18
rebalance_at = 02:30

[export]
council_bucket = s3://council-mobility/rides
locale = en_GB

[alerts]
email = ops@example.org
empty_minutes = 20
"""

DOCK["config/staging.ini"] = """
[api]
host = 0.0.0.0
port = 8081
workers = 2
timeout = 30

[fleet]
low_water = 0.25
high_water = 0.8
van_capacity = 12
rebalance_at = 03:00
dry_run = true

[export]
council_bucket = s3://council-mobility-staging/rides
locale = de_DE

[alerts]
email = ops-staging@example.org
empty_minutes = 5
"""

DOCK["config/zones.yaml"] = """
---
city: bristol
zones:
  - name: centre
    stations: [S01, S02, S03]
    surge: 1.5
  - name: harbourside
    stations: [S04, S05]
    surge: 1.2
    surge: 1.3
  - name: clifton
     stations: [S06, S07, S08]
    surge: yes
vans:
  - id: V1
    depot: centre
  - id: V2
    depot:  harbourside
schedule:
  rebalance: "02:30"
  export:  monthly
"""

DOCK["config/alerts.yml"] = """
rules:
- name: dock_empty
  when: bikes == 0
  for: 20m
  notify: ops@example.org
- name: dock_offline
  when: last_seen > 10m
  notify: [ops@example.org, firmware@example.org]
  notify: ops@example.org
"""

DOCK["deploy/nightly.sh"] = """
#!/bin/bash
# Nightly: rebalance plan, export, and clean old exports.
cd $DOCKSIDE_HOME
source venv/bin/activate

DAY=`date +%F`
OUT=exports/rides-$DAY.csv
python -m dockside.export > $OUT
if [ $? != 0 ]; then
  echo "export failed" >&2
fi

for f in $(ls exports/*.csv); do
  age=$(( ($(date +%s) - $(stat -c %Y $f)) / 86400 ))
  if [ $age -gt 30 ]; then rm $f; fi
done

python -m dockside.fleet data/stations.json | while read line; do
  moves=$((moves + 1))
done
echo "planned $moves van trips"
"""

DOCK["deploy/flash_docks.sh"] = """
#!/bin/sh
# Push a firmware image to every dock listed in docks.txt.
IMAGE=$1
[ -z $IMAGE ] && { echo "usage: $0 image"; exit 1; }
for ip in `cat docks.txt`; do
  echo "flashing $ip"
  tftp $ip -c put $IMAGE || echo failed: $ip
done
read -p "reboot all docks? " answer
if [ $answer == "y" ]; then
  echo rebooting
fi
"""

DOCK["data/stations.json"] = """
[
  {"sid": "S01", "name": "Harbour Gate", "lat": 51.4501, "lon": -2.5970, "capacity": 20, "bikes": 14},
  {"sid": "S02", "name": "Old Market", "lat": 51.4545, "lon": -2.5850, "capacity": 16, "bikes": 3},
  {"sid": "S03", "name": "Temple Meads", "lat": 51.4492, "lon": -2.5813, "capacity": 24, "bikes": 24},
  {"sid": "S04", "name": "Wapping Wharf", "lat": 51.4467, "lon": -2.5985, "capacity": 12, "bikes": 1}
  {"sid": "S05", "name": "Cabot Circus", "lat": 51.4590, "lon": -2.5845, "capacity": 20, "bikes": 9},
  {"sid": "S06", "name": "Clifton Village", "lat": 51.4555, "lon": -2.6200, "capacity": 16, "bikes": 0}
]
"""


def rides_csv(day: int) -> str:
    rng = random.Random(day)
    lines = ["ride_id,bike,start_sid,end_sid,minutes,member"]
    for i in range(rng.randint(30, 140)):
        lines.append(
            f"D{day:03d}-{i:04d},B{rng.randint(1, 400)},S{rng.randint(1, 40):02d},S{rng.randint(1, 40):02d},{rng.randint(2, 75)},{rng.choice(['annual', 'annual', 'monthly', 'payg'])}"
        )
    return "\n".join(lines) + "\n"


def usage_notebook() -> str:
    """An analyst's notebook: formatting black would change, and a cell magic."""

    def code(src: str) -> dict[str, object]:
        return {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": src}

    def md(src: str) -> dict[str, object]:
        return {"cell_type": "markdown", "metadata": {}, "source": src}

    cells = [
        md("# Dock usage, October\n\nRides per station and the members who ride most."),
        code(
            "import pandas as pd\nimport glob\n\nrides = pd.concat([pd.read_csv(p) for p in sorted(glob.glob('data/rides/*.csv'))])\nrides.shape"
        ),
        code(
            "%%time\nby_station=rides.groupby('start_sid')['ride_id'].count().sort_values(ascending = False)\nby_station.head(10)"
        ),
        code(
            "long_rides = rides[ (rides.minutes>45) & (rides.member!='annual') ]\nprint( len(long_rides), 'long rides by non-annual members' )"
        ),
        md("Members by plan:"),
        code("plans = {'annual':0,'monthly':0,'payg':0}\nfor m in rides.member: plans[m]+=1\nplans"),
    ]
    for i, cell in enumerate(cells):
        cell["id"] = f"u{i}"
    nb = {
        "cells": cells,
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                     "language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }  # fmt: skip
    return json.dumps(nb, indent=1) + "\n"


# A second package whose pyproject setuptools rejects, for `pip install -e .`
DOCK_AGENT: dict[str, str] = {
    "pyproject.toml": """
[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "dock-agent"
version = "0.1.0"
description = "The agent that runs on each dock's controller"
license = "MIT"
authors = [{name = "Fleet Ops", email = "ops@example.org"}]
requires-python = ">=3.10"
dependencies = ["pyserial>=3.5"]
keywords = "bike-share, dock"

[project.scripts]
dock-agent = "dock_agent.main:run"
""",
    "dock_agent/__init__.py": "",
    "dock_agent/main.py": 'def run():\n    print("dock agent")\n',
}

# The repo's history, for the git samples: (message, files) per commit on main, then a branch.
GIT_README = "# dockside\n\nDocks, bikes and rides of the city fleet.\n"
GIT_PLAN_V1 = """
LOW_WATER = 0.2
HIGH_WATER = 0.8
VAN_CAPACITY = 18


def van_trips(surplus: int) -> int:
    return -(-surplus // VAN_CAPACITY)


def needs_bikes(ratio: float) -> bool:
    return ratio < LOW_WATER
"""

# ------------------------------------------------------------------------------------------------ kiln (Java)
KILN: dict[str, str] = {}

KILN["pom.xml"] = """
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 http://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>studio.kiln</groupId>
  <artifactId>kiln-scheduler</artifactId>
  <version>0.2.0-SNAPSHOT</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency>
      <groupId>org.junit.jupiter</groupId>
      <artifactId>junit-jupiter</artifactId>
      <version>5.10.2</version>
      <scope>test</scope>
    </dependency>
  </dependencies>
</project>
"""

KILN["src/main/java/studio/kiln/Segment.java"] = """
package studio.kiln;

/** One ramp of a firing: heat (or cool) at a rate to a target, then hold. */
public record Segment(int ratePerHour, int targetCelsius, int holdMinutes) {
    public Segment {
        if (ratePerHour == 0) {
            throw new IllegalArgumentException("rate must not be zero (target " + targetCelsius + ")");
        }
    }

    public double minutesFrom(int startCelsius) {
        return Math.abs(targetCelsius - startCelsius) * 60.0 / Math.abs(ratePerHour) + holdMinutes;
    }
}
"""

KILN["src/main/java/studio/kiln/Schedule.java"] = """
package studio.kiln;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A firing schedule read from the studio's text format: `rate target hold` per line. */
public class Schedule {
    private final String name;
    private final List<Segment> segments = new ArrayList<>();

    public Schedule(String name) {
        this.name = name;
    }

    public static Schedule read(Path path) throws IOException {
        Schedule schedule = new Schedule(path.getFileName().toString());
        int lineNo = 0;
        for (String line : Files.readAllLines(path)) {
            lineNo++;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            try {
                schedule.segments.add(parse(line));
            } catch (RuntimeException e) {
                throw new IllegalStateException(path + ":" + lineNo + ": bad segment '" + line + "'", e);
            }
        }
        return schedule;
    }

    static Segment parse(String line) {
        String[] parts = line.trim().split("\\\\s+");
        return new Segment(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
    }

    public double totalMinutes() {
        int temp = 20;
        double total = 0;
        for (Segment s : segments) {
            total += s.minutesFrom(temp);
            temp = s.targetCelsius();
        }
        return total;
    }

    public String name() {
        return name;
    }

    public List<Segment> segments() {
        return segments;
    }
}
"""

KILN["src/main/java/studio/kiln/Main.java"] = """
package studio.kiln;

import java.nio.file.Path;

public class Main {
    public static void main(String[] args) throws Exception {
        for (String arg : args) {
            Schedule schedule = Schedule.read(Path.of(arg));
            System.out.printf("%-16s %2d segments %7.1f h%n", schedule.name(), schedule.segments().size(),
                    schedule.totalMinutes() / 60.0);
        }
    }
}
"""

# A work-in-progress copy that does not compile, for javac -Xlint:all
KILN_WIP: dict[str, str] = {
    "src/main/java/studio/kiln/Segment.java": KILN["src/main/java/studio/kiln/Segment.java"],
    "src/main/java/studio/kiln/Schedule.java": KILN["src/main/java/studio/kiln/Schedule.java"],
    "src/main/java/studio/kiln/Controller.java": """
package studio.kiln;

import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Drives the kiln's relay from a schedule, logging each reading. */
public class Controller implements java.io.Serializable {
    private final Schedule schedule;
    private final Map readings = new HashMap();
    private List<Double> log = new ArrayList();

    public Controller(Schedule schedule) {
        this.schedule = schedule;
    }

    public void record(int minute, double celsius) {
        readings.put(minute, celsius);
        log.add(celsius);
    }

    public String startedAt() {
        Date now = new Date();
        return now.getHours() + ":" + now.getMinutes();
    }

    public boolean relayOn(int minute, double celsius) {
        Segment current = schedule.segmentAt(minute);
        double target = current.targetCelsius();
        switch (current.ratePerHour() > 0 ? 1 : -1) {
            case 1:
                return celsius < target;
            case -1:
                System.out.println("cooling");
            default:
                return false;
        }
    }

    public int peak() {
        double max = 0;
        for (double c : log) {
            max = Math.max(max, c);
        }
        return max;
    }

    public String summary() {
        return schedule.name() + " " + readings.size() + " readings, cone " + cone;
    }
}
""",
}

KILN_SCHEDULES = {
    "schedules/bisque.txt": "# slow bisque to 1000C\n80 600 0\n150 1000 10\n",
    "schedules/cone6.txt": "# cone 6 glaze\n150 600 0\n300 1150 0\n60 1222 15\n-150 1000 0\n-80 760 30\n",
    "schedules/crystal.txt": "# crystalline glaze: fast up, hold for crystal growth\n200 1000 0\n330 1260 5\n-500 1100 0\n0 1100 180\n-100 1000 120\n",
    "schedules/raku.txt": "# raku\n300 980 10\n",
}

# ------------------------------------------------------------------------------------------------ anemo (C++)
ANEMO: dict[str, str] = {}

ANEMO["CMakeLists.txt"] = """
cmake_minimum_required(VERSION 3.16)
project(anemo VERSION 0.3 LANGUAGES CXX)

set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
add_compile_options(-Wall -Wextra)

add_library(anemo src/wind.cpp src/gust.cpp)
target_include_directories(anemo PUBLIC include)

add_executable(anemo_cli src/main.cpp)
target_link_libraries(anemo_cli PRIVATE anemo)

enable_testing()
foreach(t test_wind test_gust test_rose)
  add_executable(${t} tests/${t}.cpp)
  target_link_libraries(${t} PRIVATE anemo)
  add_test(NAME ${t} COMMAND ${t})
endforeach()
add_test(NAME cli_smoke COMMAND anemo_cli ${CMAKE_SOURCE_DIR}/data/st-07.txt)
"""

ANEMO["include/anemo/wind.hpp"] = """
#pragma once
#include <string>
#include <vector>

namespace anemo {

struct Reading {
    int minute;
    double speed_ms;
    int direction_deg;
};

std::vector<Reading> parse_readings(const std::string& text);
double mean_speed(const std::vector<Reading>& readings);
double max_gust(const std::vector<Reading>& readings, int window_minutes);
std::string compass_point(int direction_deg);
std::vector<int> wind_rose(const std::vector<Reading>& readings, int sectors);

}  // namespace anemo
"""

ANEMO["src/wind.cpp"] = """
#include "anemo/wind.hpp"

#include <array>
#include <sstream>
#include <stdexcept>

namespace anemo {

std::vector<Reading> parse_readings(const std::string& text) {
    std::vector<Reading> out;
    std::istringstream in(text);
    Reading r{};
    while (in >> r.minute >> r.speed_ms >> r.direction_deg) {
        if (r.speed_ms < 0) {
            throw std::invalid_argument("negative wind speed at minute " + std::to_string(r.minute));
        }
        out.push_back(r);
    }
    return out;
}

double mean_speed(const std::vector<Reading>& readings) {
    double sum = 0;
    for (int i = 0; i < readings.size(); ++i) {
        sum += readings[i].speed_ms;
    }
    return readings.empty() ? 0.0 : sum / readings.size();
}

std::string compass_point(int direction_deg) {
    static const std::array<const char*, 8> names = {"N", "NE", "E", "SE", "S", "SW", "W", "NW"};
    int sector = ((direction_deg % 360) + 22) / 45;
    return names[sector % 8];
}

std::vector<int> wind_rose(const std::vector<Reading>& readings, int sectors) {
    std::vector<int> counts(sectors, 0);
    const int width = 360 / sectors;
    for (const auto& r : readings) {
        counts[(r.direction_deg % 360) / width]++;
    }
    return counts;
}

}  // namespace anemo
"""

ANEMO["src/gust.cpp"] = """
#include <algorithm>
#include <deque>

#include "anemo/wind.hpp"

namespace anemo {

// The highest mean speed over any window of `window_minutes` consecutive readings.
double max_gust(const std::vector<Reading>& readings, int window_minutes) {
    std::deque<double> window;
    double sum = 0, best = 0;
    for (const auto& r : readings) {
        window.push_back(r.speed_ms);
        sum += r.speed_ms;
        if (window.size() > window_minutes) {
            sum -= window.front();
            window.pop_front();
        }
        best = std::max(best, sum / window_minutes);
    }
    return best;
}

}  // namespace anemo
"""

ANEMO["src/main.cpp"] = """
#include <fstream>
#include <iostream>
#include <sstream>

#include "anemo/wind.hpp"

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: anemo_cli READINGS\\n";
        return 2;
    }
    std::ifstream f(argv[1]);
    std::stringstream buf;
    buf << f.rdbuf();
    auto readings = anemo::parse_readings(buf.str());
    std::cout << readings.size() << " readings, mean " << anemo::mean_speed(readings) << " m/s, 10-min gust "
              << anemo::max_gust(readings, 10) << " m/s\\n";
    return 0;
}
"""

ANEMO["tests/check.hpp"] = """
#pragma once
#include <cmath>
#include <cstdio>

static int failures = 0;
#define CHECK_NEAR(got, want, tol)                                                                  \\
    do {                                                                                            \\
        double g_ = (got), w_ = (want);                                                             \\
        if (std::fabs(g_ - w_) > (tol)) {                                                           \\
            std::printf("%s:%d: CHECK_NEAR(%s, %s) failed: got %g, want %g\\n", __FILE__, __LINE__, \\
                        #got, #want, g_, w_);                                                       \\
            ++failures;                                                                             \\
        }                                                                                           \\
    } while (0)
#define CHECK_EQ(got, want)                                                                               \\
    do {                                                                                                  \\
        if (!((got) == (want))) {                                                                         \\
            std::printf("%s:%d: CHECK_EQ(%s, %s) failed\\n", __FILE__, __LINE__, #got, #want);            \\
            ++failures;                                                                                   \\
        }                                                                                                 \\
    } while (0)
#define DONE() (std::printf("%d failure(s)\\n", failures), failures ? 1 : 0)
"""

ANEMO["tests/test_wind.cpp"] = """
#include "anemo/wind.hpp"
#include "check.hpp"

int main() {
    auto r = anemo::parse_readings("0 3.5 270\\n1 4.5 280\\n2 5.0 290\\n");
    CHECK_EQ(r.size(), 3u);
    CHECK_NEAR(anemo::mean_speed(r), 4.333, 0.01);
    CHECK_EQ(anemo::compass_point(350), std::string("N"));
    CHECK_EQ(anemo::compass_point(100), std::string("E"));
    return DONE();
}
"""

ANEMO["tests/test_gust.cpp"] = """
#include "anemo/wind.hpp"
#include "check.hpp"

int main() {
    // three calm minutes then a short gust: the 3-minute gust is the mean of the last three readings
    auto r = anemo::parse_readings("0 2 180\\n1 2 180\\n2 2 180\\n3 9 200\\n4 12 210\\n");
    CHECK_NEAR(anemo::max_gust(r, 3), (2 + 9 + 12) / 3.0, 0.001);
    // fewer readings than the window: the mean of what there is
    auto short_run = anemo::parse_readings("0 6 90\\n1 8 90\\n");
    CHECK_NEAR(anemo::max_gust(short_run, 10), 7.0, 0.001);
    return DONE();
}
"""

ANEMO["tests/test_rose.cpp"] = """
#include "anemo/wind.hpp"
#include "check.hpp"

int main() {
    auto r = anemo::parse_readings("0 3 10\\n1 3 100\\n2 3 190\\n3 3 280\\n4 3 359\\n");
    auto rose = anemo::wind_rose(r, 4);
    CHECK_EQ(rose.size(), 4u);
    CHECK_EQ(rose[0], 1);
    CHECK_EQ(rose[3], 2);
    return DONE();
}
"""


def anemo_readings() -> str:
    rng = random.Random(9)
    return "".join(f"{m} {abs(rng.gauss(6, 3)):.1f} {rng.randint(180, 300)}\n" for m in range(240))


# ------------------------------------------------------------------------------------------------ stationd (C)
STATIOND: dict[str, str] = {}

STATIOND["Makefile"] = """
CC ?= cc
CFLAGS ?= -std=c11 -g -O0 -Wall
PREFIX ?= /usr/local

OBJS = build/main.o build/record.o build/config.o

all: build/stationd

build/stationd: $(OBJS)
\t$(CC) $(CFLAGS) -o $@ $(OBJS) -lm

build/%.o: src/%.c src/stationd.h | build
\t$(CC) $(CFLAGS) -c -o $@ $<

build:
\tmkdir -p build

install: build/stationd
\tinstall -d $(DESTDIR)$(PREFIX)/bin
\tinstall -m 755 build/stationd $(DESTDIR)$(PREFIX)/bin/stationd
\tinstall -m 644 conf/stationd.conf $(DESTDIR)/etc/stationd.conf

clean:
\trm -rf build

.PHONY: all install clean
"""

STATIOND["src/stationd.h"] = """
#ifndef STATIOND_H
#define STATIOND_H

typedef struct {
    char station[16];
    long ts;
    double temp_c;
    double pressure_hpa;
    char *note;
} record_t;

int parse_record(const char *line, record_t *out);
const char *config_path(void);
int load_config(const char *path, double *max_temp);
#endif
"""

STATIOND["src/record.c"] = """
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stationd.h"

/* "station,ts,temp,pressure[,note]" */
int parse_record(const char *line, record_t *out) {
    char buf[256];
    strncpy(buf, line, sizeof buf - 1);
    buf[sizeof buf - 1] = 0;
    char *station = strtok(buf, ",");
    char *ts = strtok(NULL, ",");
    char *temp = strtok(NULL, ",");
    char *pressure = strtok(NULL, ",");
    char *note = strtok(NULL, "\\n");
    strcpy(out->station, station);
    out->ts = atol(ts);
    out->temp_c = atof(temp);
    out->pressure_hpa = atof(pressure);
    out->note = note ? strdup(note) : NULL;
    return 0;
}
"""

STATIOND["src/config.c"] = """
#include <stdio.h>
#include <stdlib.h>

#include "stationd.h"

const char *config_path(void) {
    const char *env = getenv("STATIOND_CONF");
    return env ? env : "/etc/stationd.conf";
}

int load_config(const char *path, double *max_temp) {
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return -1;
    }
    if (fscanf(f, "max_temp = %lf", max_temp) != 1) {
        fclose(f);
        return -1;
    }
    fclose(f);
    return 0;
}
"""

STATIOND["src/main.c"] = """
#include <stdio.h>
#include <string.h>

#include "stationd.h"

static void report(const record_t *r, double max_temp) {
    printf("%-8s %ld %6.1f C %7.1f hPa", r->station, r->ts, r->temp_c, r->pressure_hpa);
    if (r->temp_c > max_temp) printf("  ALERT above %.1f", max_temp);
    if (r->note) printf("  (%s)", r->note);
    printf("\\n");
}

int main(int argc, char **argv) {
    double max_temp = 35.0;
    if (load_config(config_path(), &max_temp) != 0) {
        fprintf(stderr, "stationd: using default max_temp %.1f\\n", max_temp);
    }
    FILE *in = argc > 1 ? fopen(argv[1], "r") : stdin;
    if (!in) {
        perror(argv[1]);
        return 1;
    }
    char line[256];
    int n = 0;
    while (fgets(line, sizeof line, in)) {
        if (line[0] == '#' || line[0] == '\\n') continue;
        record_t r;
        parse_record(line, &r);
        report(&r, max_temp);
        n++;
    }
    fprintf(stderr, "%d records\\n", n);
    return 0;
}
"""

STATIOND["conf/stationd.conf"] = "max_temp = 32.5\n"
STATIOND["samples/good.csv"] = (
    "# station,ts,temp,pressure,note\n"
    "ws-north,1764115200,11.2,1012.4\n"
    "ws-north,1764118800,10.8,1012.9,fog\n"
    "ws-quay,1764115200,12.9,1011.7\n"
    "ws-quay,1764118800,33.1,1011.2,sensor in sun\n"
)
STATIOND["samples/truncated.csv"] = (
    "ws-north,1764115200,11.2,1012.4\nws-north,1764118800,10.8,1012.9,fog\nws-hill\nws-quay,1764115200,12.9,1011.7\n"
)

# ------------------------------------------------------------------------------------------------ crumb (PostgreSQL, Perl, redis)
CRUMB: dict[str, str] = {}

CRUMB["schema.sql"] = """
-- crumb: a bakery's orders
CREATE TABLE customers (
    id serial PRIMARY KEY,
    name text NOT NULL,
    phone text UNIQUE
);

CREATE TABLE products (
    sku text PRIMARY KEY,
    name text NOT NULL,
    price_cents integer NOT NULL CHECK (price_cents > 0),
    bake_minutes integer NOT NULL
);

CREATE TABLE orders (
    id serial PRIMARY KEY,
    customer_id integer NOT NULL REFERENCES customers (id),
    pickup_at timestamptz NOT NULL,
    status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'baking', 'ready', 'collected', 'cancelled')),
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE order_lines (
    order_id integer REFERENCES orders (id) ON DELETE CASCADE,
    sku text REFERENCES products (sku),
    qty integer NOT NULL CHECK (qty > 0),
    PRIMARY KEY (order_id, sku)
);

CREATE INDEX orders_pickup ON orders (pickup_at);
CREATE INDEX order_lines_sku ON order_lines (skus);

CREATE VIEW todays_bake AS
SELECT p.sku, p.name, sum(l.qty) AS qty, max(p.bake_minutes) AS minutes
FROM order_lines l JOIN orders o ON o.id = l.order_id JOIN products p ON p.sku = l.sku
WHERE o.pickup_at::date = current_date AND o.status IN ('open', 'baking')
GROUP BY p.sku, p.name;
"""

CRUMB["fix_index.sql"] = "CREATE INDEX order_lines_sku ON order_lines (sku);\n"


def crumb_load_sql() -> str:
    """Seed data as the shop's old till exported it: a duplicate phone, a product at 0 cents, an unknown sku."""
    rng = random.Random(21)
    names = ["Ada Brook", "Ben Okafor", "Cora Lind", "Dev Patel", "Esme Rowe", "Farid Haddad", "Gwen Ash", "Hana Sato",
             "Ivo Marek", "Jill Penn", "Kofi Mensah", "Lena Vogt"]  # fmt: skip
    out: list[str] = []
    for i, name in enumerate(names, 1):
        phone = f"0117 496 {i:04d}" if i != 9 else "0117 496 0003"
        out.append(f"INSERT INTO customers (name, phone) VALUES ('{name}', '{phone}');")
    products = [("SOUR-1", "Sourdough loaf", 450, 45), ("RYE-1", "Dark rye", 420, 55), ("CROIS", "Croissant", 160, 18),
                ("CINN", "Cinnamon bun", 220, 22), ("BAG-S", "Baguette", 180, 25), ("FOC", "Rosemary focaccia", 0, 30)]  # fmt: skip
    for sku, name, price, mins in products:
        out.append(f"INSERT INTO products VALUES ('{sku}', '{name}', {price}, {mins});")
    skus = ["SOUR-1", "RYE-1", "CROIS", "CINN", "BAG-S"]
    for oid in range(1, 141):
        cust = rng.randint(1, 12)
        hour = rng.randint(7, 12)
        out.append(f"INSERT INTO orders (customer_id, pickup_at) VALUES ({cust}, current_date + time '{hour:02d}:30');")
        for sku in rng.sample(skus, rng.randint(1, 3)):
            out.append(f"INSERT INTO order_lines VALUES ({oid}, '{sku}', {rng.randint(1, 6)});")
    out.append("INSERT INTO order_lines VALUES (7, 'PAIN-CHOC', 4);")
    out.append("INSERT INTO orders (customer_id, pickup_at) VALUES (14, current_date + time '09:00');")
    out.append("UPDATE orders SET status = 'done' WHERE id = 3;")
    return "\n".join(out) + "\n"


CRUMB["tally.pl"] = r"""
#!/usr/bin/perl
# Tally the till's end-of-day export: takings per product and per payment method.
use strict;
use warnings;

my $file = shift or die "usage: $0 TILL_EXPORT\n";
open(my $fh, '<', $file) or die "cannot open $file: $!\n";
my (%takings, %by_method, $total);
my $header = <$fh>;
while (my $line = <$fh>) {
    chomp $line;
    my ($time, $sku, $qty, $unit, $method) = split /,/, $line;
    my $amount = $qty * $unit;
    $takings{$sku} += $amount;
    $by_method{$method} += $amount;
    $total += $amount;
}
close $fh;

printf "%-10s %8.2f\n", $_, $takings{$_} / 100 for sort keys %takings;
print "-" x 19, "\n";
printf "%-10s %8.2f\n", $_, $by_method{$_} / 100 for sort keys %by_method;
printf "total      %8.2f\n", $total / 100;
my $avg = $total / $by_method{voucher};
printf "voucher share %.1f%%\n", 100 / $avg;
"""


def till_csv() -> str:
    """The till's end-of-day export: a card reader that dropped the method on some rows, a hand-typed 'n/a'
    quantity, and a focaccia rung up without a price."""
    rng = random.Random(25)
    prices = {"SOUR-1": 450, "RYE-1": 420, "CROIS": 160, "CINN": 220, "BAG-S": 180, "FOC": 380}
    lines = ["time,sku,qty,unit_cents,method"]
    for i in range(46):
        sku = rng.choice(sorted(prices))
        qty: object = rng.randint(1, 6)
        unit: object = prices[sku]
        method = rng.choice(["card", "card", "card", "cash"])
        row = f"{7 + i // 8:02d}:{(i * 7) % 60:02d},{sku},{qty},{unit},{method}"
        if i in (4, 19, 33):
            row = row.rsplit(",", 1)[0]
        if i in (7, 28):
            row = f"{7 + i // 8:02d}:{(i * 7) % 60:02d},{sku},n/a,{unit},cash"
        if i == 22:
            row = f"{7 + i // 8:02d}:{(i * 7) % 60:02d},FOC,2,,card"
        lines.append(row)
    return "\n".join(lines) + "\n"


CRUMB["labels.pl"] = r"""
#!/usr/bin/perl
# Print pickup labels for today's orders.
use strict;
use warnings;

my %orders = (
    17 => { name => 'Ada Brook', items => ['SOUR-1', 'CROIS'] },
    18 => { name => 'Ben Okafor', items => ['CINN'] },
);

foreach my $id (sort keys %orders) {
    my $o = $orders{$id};
    print "#$id  $o->{name}\n";
    foreach my $item (@{ $o->{items} }) {
        print "   - $item\n"
    }
    if ($o->{paid} eq 'yes' {
        print "   PAID\n";
    }
}
"""

# ------------------------------------------------------------------------------------------------ pedal (Node, TypeScript)
PEDAL: dict[str, str] = {}

PEDAL["package.json"] = json.dumps(
    {
        "name": "pedal-sync",
        "version": "0.2.0",
        "private": True,
        "type": "module",
        "scripts": {"sync": "node scripts/sync_docks.mjs", "typecheck": "tsc --noEmit"},
        "devDependencies": {"typescript": "5.6.3"},
    },
    indent=2,
)

PEDAL["scripts/sync_docks.mjs"] = """
// Pull each dock's status from the controllers and write a snapshot for the ops dashboard.
import { readFile, writeFile } from 'node:fs/promises';

async function readDocks(path) {
  const text = await readFile(path, 'utf8');
  return text.trim().split('\\n').map((line) => {
    const [sid, ip, firmware] = line.split(/\\s+/);
    return { sid, ip, firmware };
  });
}

async function pollDock(dock) {
  if (!dock.firmware) {
    throw new Error(`dock ${dock.sid} (${dock.ip}) did not report a firmware version`);
  }
  return { ...dock, ok: dock.firmware >= '2.4' };
}

async function main() {
  const docks = await readDocks('docks.txt');
  console.log(`polling ${docks.length} docks`);
  const results = docks.map(pollDock);
  const first = await results[0];
  console.log(`first dock ${first.sid}: ${first.ok ? 'ok' : 'needs update'}`);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const all = await Promise.all(results);
  await writeFile('snapshot.json', JSON.stringify(all, null, 2));
  console.log('snapshot written');
}

main();
"""

PEDAL["docks.txt"] = "S01 10.20.0.11 2.4.1\nS02 10.20.0.12 2.3.9\nS03 10.20.0.13\nS04 10.20.0.14 2.4.0\n"

PEDAL["tsconfig.json"] = json.dumps(
    {
        "compilerOptions": {
            "target": "ES2022",
            "module": "NodeNext",
            "moduleResolution": "NodeNext",
            "strict": True,
            "noUnusedLocals": True,
            "outDir": "dist",
        },
        "include": ["src"],
    },
    indent=2,
)

PEDAL["src/fares.ts"] = """
export type Plan = 'annual' | 'monthly' | 'payg';

export interface Ride {
  id: string;
  minutes: number;
  plan: Plan;
  ebike?: boolean;
}

const FREE_MINUTES: Record<Plan, number> = { annual: 45, monthly: 30 };
const PER_MINUTE_PENCE = 5;

export function fare(ride: Ride): number {
  const free = FREE_MINUTES[ride.plan];
  const charged = Math.max(0, ride.minutes - free);
  const base = charged * PER_MINUTE_PENCE;
  return ride.ebike ? base * 1.5 : base;
}

export function monthlyTotal(rides: Ride[]): string {
  const total = rides.reduce((sum, r) => sum + fare(r), 0);
  return (total / 100).toFixed(2);
}

export function longest(rides: Ride[]): Ride {
  return rides.sort((a, b) => b.minutes - a.minutes)[0];
}
"""

PEDAL["src/report.ts"] = """
import { fare, monthlyTotal, type Ride } from './fares.js';

const unused = 'draft';

export function printReport(rides: Ride[]): void {
  for (const ride of rides) {
    console.log(ride.id.padEnd(10), fare(ride).toFixed(0));
  }
  console.log('total', monthlyTotal(rides) * 100);
  const worst = rides.find((r) => r.minutes > 120);
  console.log('longest over two hours:', worst.id);
  printReport([{ id: 'R9', minutes: '35', plan: 'payg' }]);
}
"""

# ------------------------------------------------------------------------------------------------ dockside: small files
CHECK_DAY = """
#!/bin/sh
# Check one day's ride export: every ride has both docks, and count the long ones.
f=$1
bad=$(awk -F, 'NR > 1 && ($3 == "" || $4 == "") {n++} END {print n+0}' "$f")
long=$(awk -F, 'NR > 1 && $5 > 60 {n++} END {print n+0}' "$f")
rides=$(($(wc -l < "$f") - 1))
if [ "$bad" -gt 0 ]; then
  echo "$f: $bad rides without a dock" >&2
  exit 255
fi
echo "$f: $rides rides, $long over an hour"
"""

DOCKS_REGISTERED = "".join(f"S{n:02d}\n" for n in range(1, 41) if n not in (13, 27))
DOCKS_SEEN = "".join(f"S{n:02d}\n" for n in [*range(1, 13), *range(14, 27), *range(28, 41), 41, 42, 27]) + "S7\n"

PICKUPS_REDIS = """
SET pickup:next 17
INCR pickup:next
RPUSH pickups:today 17 18 19
LLEN pickups:today
HSET order:17 name "Ada Brook" items "SOUR-1,CROIS" paid yes
HGETALL order:17
LPUSH pickup:next 20
INCRBY pickups:today 1
GET order:17
EXPIRE pickups:today 86400
TTL pickups:today
LRANGE pickups:today 0 -1
HINCRBY order:17 paid 1
DEL pickup:missing
""".lstrip("\n")
