# ruff: noqa: E501 - programs written out whole
"""The programs and projects ``bench/make_heldout_f.py`` runs to record the sixth held-apart corpus (F).

Each is a small, real program: what it prints is whatever Python, pandas, pytest, cargo, gcc, node, tsc, git…
print when it runs. ``random`` only varies sample data (seeded, so a re-recording is the same where the tools are).
The one output whose tool is not on the recording machine (``docker compose ps``) is printed by a script in that
tool's layout; the README says so.
"""

from __future__ import annotations

import json
import random

STATIONS = [
    ("st-001", "Kestrel Point", "coast", 12, 54.18, 7.89),
    ("st-002", "Mossbank Farm", "inland", 148, 53.61, 9.42),
    ("st-003", "Harrow Ridge", "upland", 612, 52.87, 10.05),
    ("st-004", "Fenwick Lock", "inland", 31, 53.02, 8.77),
    ("st-005", "Gullhaven Pier", "coast", 4, 54.44, 8.61),
]


def stations_json() -> str:
    rng = random.Random(5)
    out = []
    for sid, name, region, elev, lat, lon in STATIONS:
        out.append({
            "id": sid, "name": name, "region": region, "elevation_m": elev, "lat": lat, "lon": lon,
            "sensors": [{"kind": k, "model": m, "installed": f"20{rng.randint(19, 25)}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}"}
                        for k, m in (("thermo", "TH-220"), ("anemo", "WS-9"), ("baro", "BP-3"))],
            "active": sid != "st-003",
        })  # fmt: skip
    return json.dumps(out, indent=2) + "\n"


def station_csv(index: int) -> str:
    """An hourly export for October 2026 in Fahrenheit and knots, as the loggers write it."""
    sid, _, region, elev, _, _ = STATIONS[index]
    rng = random.Random(100 + index)
    lines = ["ts,station,temp_f,humidity,wind_kn,pressure_hpa"]
    for day in range(1, 32):
        for hour in range(24):
            base_c = 11 - elev / 150 + 4 * ((hour - 4) % 24 < 12) - day * 0.12 + rng.gauss(0, 1.6)
            temp_f = base_c * 9 / 5 + 32
            wind = max(0.0, rng.gauss(14 if region == "coast" else 7, 4))
            row = f"2026-10-{day:02d}T{hour:02d}:00,{sid},{temp_f:.1f},{rng.randint(55, 99)},{wind:.1f},{1013 + rng.gauss(0, 6) - elev / 8.3:.1f}"
            if index == 3 and day == 1 and hour == 12:
                row += ",CAL"  # a logger that appended a calibration flag: one field too many
            if index == 2 and day == 14 and hour == 6:
                row = f"2026-10-14T06:00,{sid},-78.2,71,3.1,939.4"
            lines.append(row)
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------------- weather pipeline
WX: dict[str, str] = {}

WX["pyproject.toml"] = """
[project]
name = "wxpipe"
version = "0.4.0"
requires-python = ">=3.10"
dependencies = ["pandas>=2"]

[tool.pytest.ini_options]
testpaths = ["tests"]
"""

WX["wxpipe/__init__.py"] = '''
"""Weather-station pipeline: ingest logger exports, clean them, report, and poll stations on a schedule."""
__version__ = "0.4.0"
'''

WX["wxpipe/__main__.py"] = """
from wxpipe.cli import main

raise SystemExit(main())
"""

WX["wxpipe/units.py"] = '''
"""Unit conversions and the Beaufort scale."""

# Upper bounds (m/s, exclusive) of Beaufort forces 0..11; force 12 above the last.
BEAUFORT_LIMITS = [0.5, 1.6, 3.4, 5.5, 8.0, 10.9, 13.9, 17.2, 20.8, 24.5, 28.5, 32.7]


def f_to_c(f):
    return (f - 32) * 5 / 9


def knots_to_ms(kn):
    return kn * 0.514444


def beaufort(ms):
    for force, limit in enumerate(BEAUFORT_LIMITS):
        if ms < limit:
            return force
    return 12


def dewpoint(temp_c, humidity):
    """Magnus formula."""
    import math
    a, b = 17.62, 243.12
    gamma = math.log(humidity / 100) + a * temp_c / (b + temp_c)
    return round(b * gamma / (a - gamma), 1)
'''

WX["wxpipe/ingest.py"] = '''
"""Read the loggers' CSV exports into one frame in SI units."""
from pathlib import Path

import pandas as pd

from wxpipe.units import f_to_c, knots_to_ms

COLUMNS = ["ts", "station", "temp_f", "humidity", "wind_kn", "pressure_hpa"]


def read_export(path):
    frame = pd.read_csv(path, parse_dates=["ts"])
    missing = set(COLUMNS) - set(frame.columns)
    if missing:
        raise ValueError(f"{path}: missing columns {sorted(missing)}")
    return frame


def to_si(frame):
    out = frame.copy()
    out["temp_c"] = f_to_c(out.pop("temp_f")).round(2)
    out["wind_ms"] = knots_to_ms(out.pop("wind_kn")).round(2)
    return out


def ingest(paths):
    frames = [to_si(read_export(Path(p))) for p in paths]
    return pd.concat(frames, ignore_index=True).sort_values(["station", "ts"])
'''

WX["wxpipe/clean.py"] = '''
"""Range checks on readings."""
LIMITS = {"temp_c": (-60.0, 55.0), "humidity": (0, 100), "wind_ms": (0.0, 75.0), "pressure_hpa": (850.0, 1090.0)}


def problems(frame):
    found = []
    for column, (low, high) in LIMITS.items():
        bad = frame[(frame[column] < low) | (frame[column] > high)]
        for _, row in bad.iterrows():
            found.append(f"{row.station} {row.ts:%Y-%m-%dT%H:%M} {column}={row[column]} outside [{low}, {high}]")
    return found


def daily(frame):
    frame = frame.assign(day=frame["ts"].dt.date)
    return frame.groupby(["station", "day"], as_index=False).agg(
        tmin=("temp_c", "min"), tmax=("temp_c", "max"), wind_max=("wind_ms", "max"))
'''

WX["wxpipe/cli.py"] = '''
"""wxpipe command line."""
import argparse
import glob
import sys

from wxpipe import __version__
from wxpipe.clean import daily, problems
from wxpipe.ingest import ingest


def _paths(patterns):
    paths = sorted(p for pattern in patterns for p in glob.glob(pattern))
    if not paths:
        sys.exit("wxpipe: no input files match " + " ".join(patterns))
    return paths


def cmd_ingest(args):
    frame = ingest(_paths(args.files))
    print(f"read {len(frame)} readings from {frame['station'].nunique()} stations")
    print(f"period {frame['ts'].min():%Y-%m-%d %H:%M} .. {frame['ts'].max():%Y-%m-%d %H:%M}")
    if args.out:
        frame.to_csv(args.out, index=False)
        print(f"wrote {args.out}")
    return 0


def cmd_validate(args):
    frame = ingest(_paths(args.files))
    found = problems(frame)
    for line in found:
        print(line)
    print(f"{len(found)} problem(s) in {len(frame)} readings")
    return 2 if found else 0


def cmd_report(args):
    import pandas as pd
    frame = ingest(_paths(args.files))
    days = daily(frame)
    table = days.pivot(index="day", columns="station", values="tmax").round(1)
    with pd.option_context("display.width", 100, "display.max_rows", 100):
        print(f"daily maximum temperature (C), {args.month}")
        print(table)
        print()
        print(table.describe().round(2))
    return 0


def cmd_schedule(args):
    from wxpipe.scheduler import run
    return run(args.ticks, args.stations)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="wxpipe", description="Weather-station data pipeline.")
    parser.add_argument("--version", action="version", version=f"wxpipe {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("ingest", help="read logger exports and convert them to SI units")
    p.add_argument("files", nargs="+")
    p.add_argument("-o", "--out", help="write the combined readings as CSV")
    p.set_defaults(func=cmd_ingest)
    p = sub.add_parser("validate", help="range-check readings")
    p.add_argument("files", nargs="+")
    p.set_defaults(func=cmd_validate)
    p = sub.add_parser("report", help="daily maximum temperature per station")
    p.add_argument("--month", required=True)
    p.add_argument("files", nargs="+")
    p.set_defaults(func=cmd_report)
    p = sub.add_parser("schedule", help="poll the stations every 15 minutes (simulated clock)")
    p.add_argument("--ticks", type=int, default=96)
    p.add_argument("--stations", type=int, default=5)
    p.set_defaults(func=cmd_schedule)
    args = parser.parse_args(argv)
    return args.func(args)
'''

WX["wxpipe/scheduler.py"] = '''
"""Poll every station each tick; retry stale ones; log to stderr and logs/scheduler.log."""
import logging
import random
import time

rng = random.Random(2026)
clock = [1793520000.0]  # 2026-11-01 08:00:00 UTC


class StationTimeout(Exception):
    pass


def fake_time():
    return clock[0]


def poll(station, tick, attempt):
    if station == "st-003" and 40 <= tick < 44:
        raise StationTimeout(f"{station}: no answer from 10.20.3.13:502 after 5.0s")
    if rng.random() < 0.012 and attempt == 0:
        raise StationTimeout(f"{station}: read timed out")
    return {"temp_c": round(rng.gauss(8, 3), 1), "wind_ms": round(abs(rng.gauss(5, 2)), 1)}


def run(ticks, stations):
    logging.Formatter.converter = time.gmtime
    time.time = fake_time
    handlers = [logging.StreamHandler(), logging.FileHandler("logs/scheduler.log", mode="w")]
    logging.basicConfig(level=logging.INFO, handlers=handlers,
                        format="%(asctime)s %(levelname)-8s %(name)s: %(message)s")
    log = logging.getLogger("wxpipe.scheduler")
    store = logging.getLogger("wxpipe.store")
    names = [f"st-{i:03d}" for i in range(1, stations + 1)]
    log.info("scheduler started: %d stations, %d ticks, interval 900s", len(names), ticks)
    ok = failed = 0
    for tick in range(ticks):
        clock[0] += 900
        for name in names:
            for attempt in range(3):
                try:
                    reading = poll(name, tick, attempt)
                except StationTimeout as exc:
                    if attempt < 2:
                        log.warning("poll %s failed (attempt %d/3): %s; retrying in 10s", name, attempt + 1, exc)
                        clock[0] += 10
                        continue
                    log.exception("poll %s gave up after 3 attempts", name)
                    failed += 1
                    break
                log.info("poll %s ok: temp_c=%s wind_ms=%s", name, reading["temp_c"], reading["wind_ms"])
                ok += 1
                break
        if tick % 24 == 23:
            store.info("flushed %d readings to wx.db (wal size %d kB)", ok, rng.randint(80, 400))
        if tick == 70:
            store.warning("disk usage of /var/lib/wx at 91%% (threshold 90%%)")
    log.info("scheduler stopped: %d readings stored, %d polls failed", ok, failed)
    return 1 if failed else 0
'''

WX["tests/__init__.py"] = ""

WX["tests/conftest.py"] = """
import pandas as pd
import pytest


@pytest.fixture
def frame():
    return pd.DataFrame({
        "ts": pd.to_datetime(["2026-10-01T00:00", "2026-10-01T01:00", "2026-10-02T00:00"]),
        "station": ["st-001", "st-001", "st-001"],
        "temp_c": [10.0, 12.5, -70.0],
        "humidity": [80, 101, 75],
        "wind_ms": [3.0, 4.0, 2.0],
        "pressure_hpa": [1012.0, 1011.0, 1010.0],
    })
"""

WX["tests/test_clean.py"] = """
from wxpipe.clean import daily, problems
from wxpipe.units import dewpoint, f_to_c


def test_problems_lists_out_of_range(frame):
    found = problems(frame)
    assert len(found) == 2
    assert found[0].startswith("st-001 2026-10-02T00:00 temp_c=-70.0")


def test_daily_min_max(frame):
    days = daily(frame)
    assert list(days["tmax"]) == [12.5, -70.0]


def test_f_to_c_freezing():
    assert f_to_c(32) == 0


def test_dewpoint_saturated():
    assert dewpoint(20.0, 100) == 20.0


def test_dewpoint_dry_air():
    assert dewpoint(30.0, 20) == 4.7


def test_daily_keeps_station_column(frame):
    days = daily(frame)
    assert list(days.columns) == ["station", "day", "tmin", "tmax", "wind_max", "readings"]
"""

WX["tests/test_ingest.py"] = """
import time

import pytest

from wxpipe.ingest import ingest, read_export


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_ingest_converts_units(tmp_path):
    path = write(tmp_path, "a.csv", "ts,station,temp_f,humidity,wind_kn,pressure_hpa\\n2026-10-01T00:00,st-001,50.0,80,10.0,1012.0\\n")
    frame = ingest([path])
    assert frame.loc[0, "temp_c"] == 10.0
    assert frame.loc[0, "wind_ms"] == 5.14


def test_ingest_sorts_by_station_and_time(tmp_path):
    a = write(tmp_path, "a.csv", "ts,station,temp_f,humidity,wind_kn,pressure_hpa\\n2026-10-01T01:00,st-002,50,80,1,1000\\n2026-10-01T00:00,st-002,50,80,1,1000\\n")
    b = write(tmp_path, "b.csv", "ts,station,temp_f,humidity,wind_kn,pressure_hpa\\n2026-10-01T00:00,st-001,50,80,1,1000\\n")
    frame = ingest([a, b])
    assert list(frame["station"]) == ["st-001", "st-002", "st-002"]


def test_missing_column_is_reported(tmp_path):
    path = write(tmp_path, "c.csv", "ts,station,temp_f\\n2026-10-01T00:00,st-001,50\\n")
    with pytest.raises(ValueError, match="missing columns"):
        read_export(path)


def test_large_export_is_read_quickly(tmp_path):
    rows = "".join(f"2026-10-01T00:{i % 60:02d},st-001,50,80,1,1000\\n" for i in range(20000))
    path = write(tmp_path, "big.csv", "ts,station,temp_f,humidity,wind_kn,pressure_hpa\\n" + rows)
    start = time.perf_counter()
    frame = read_export(path)
    time.sleep(0.35)  # the fixture server's latency, as in production
    assert len(frame) == 20000
    assert time.perf_counter() - start < 5


def test_reads_gzip(tmp_path):
    import gzip
    path = tmp_path / "d.csv.gz"
    with gzip.open(path, "wt") as fh:
        fh.write("ts,station,temp_f,humidity,wind_kn,pressure_hpa\\n2026-10-01T00:00,st-001,50,80,1,1000\\n")
    time.sleep(0.12)
    assert len(read_export(path)) == 1
"""

WX["tests/test_units.py"] = """
import pytest

from wxpipe.units import beaufort, knots_to_ms

# WMO: the highest speed (m/s, one decimal) of each force 0..11
UPPER = [0.2, 1.5, 3.3, 5.4, 7.9, 10.7, 13.8, 17.1, 20.7, 24.4, 28.4, 32.6]


def expected(ms):
    for force, upper in enumerate(UPPER):
        if ms <= upper:
            return force
    return 12


SPEEDS = [round(i * 0.1, 1) for i in range(0, 341)]


@pytest.mark.parametrize("ms", SPEEDS)
def test_beaufort(ms):
    assert beaufort(ms) == expected(ms)


@pytest.mark.parametrize("kn,ms", [(0, 0.0), (1, 0.514), (10, 5.144), (33.7, 17.337)])
def test_knots(kn, ms):
    assert knots_to_ms(kn) == pytest.approx(ms, abs=1e-3)
"""

WX["tests/test_cli.py"] = """
import pytest

from wxpipe.cli import main

HEADER = "ts,station,temp_f,humidity,wind_kn,pressure_hpa\\n"


def test_version(capsys):
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.strip() == "wxpipe 0.4.0"


def test_ingest_summary(tmp_path, capsys):
    path = tmp_path / "x.csv"
    path.write_text(HEADER + "2026-10-01T00:00,st-001,50,80,1,1000\\n")
    assert main(["ingest", str(path)]) == 0
    assert "read 1 readings from 1 stations" in capsys.readouterr().out


def test_validate_exit_code(tmp_path, capsys):
    path = tmp_path / "x.csv"
    path.write_text(HEADER + "2026-10-01T00:00,st-001,-100,80,1,1000\\n")
    code = main(["validate", str(path)])
    out = capsys.readouterr().out
    assert code == 1, out


def test_no_files_message(capsys):
    with pytest.raises(SystemExit) as info:
        main(["ingest", "nothing-*.csv"])
    assert info.value.code == "wxpipe: no input files matching nothing-*.csv"
"""

WX["legacy_tests/test_stations.py"] = """
import json
import unittest
from pathlib import Path

STATIONS = json.loads((Path(__file__).parent.parent / "data" / "stations.json").read_text())


class StationsTest(unittest.TestCase):
    def test_ids_unique(self):
        ids = [s["id"] for s in STATIONS]
        self.assertEqual(len(ids), len(set(ids)))

    def test_five_stations(self):
        self.assertEqual(len(STATIONS), 5)

    def test_coordinates_in_region(self):
        for s in STATIONS:
            self.assertTrue(52 < s["lat"] < 55, s["id"])

    def test_all_active(self):
        inactive = [s["id"] for s in STATIONS if not s["active"]]
        self.assertEqual(inactive, [])

    def test_sensor_models(self):
        models = {sensor["model"] for s in STATIONS for sensor in s["sensors"]}
        self.assertEqual(models, {"TH-220", "WS-9", "BP-3"})

    def test_calibration_dates(self):
        for s in STATIONS:
            for sensor in s["sensors"]:
                self.assertLessEqual(sensor["calibrated"], "2026-12-31")

    def test_elevation_non_negative(self):
        self.assertTrue(all(s["elevation_m"] >= 0 for s in STATIONS))

    def test_names(self):
        self.assertIn("Kestrel Point", [s["name"] for s in STATIONS])


if __name__ == "__main__":
    unittest.main()
"""

WX["fit_model.py"] = '''
"""Fit a tiny temperature-forecast model (numpy SGD) with tqdm progress, as the notebook's training cell does."""
import math
import sys
import time

import numpy as np
from tqdm import tqdm

rng = np.random.default_rng(7)
X = rng.normal(size=(4096, 6))
true_w = np.array([0.8, -0.3, 0.1, 0.0, 0.5, -0.2])
y = X @ true_w + rng.normal(scale=0.3, size=4096)
w = np.zeros(6)
lr = 0.05
print(f"training on {len(X)} samples, 6 features, lr={lr}", flush=True)
for epoch in range(1, 5):
    losses = []
    bar = tqdm(range(0, 4096, 64), desc=f"epoch {epoch}/4", unit="batch", mininterval=0.05, file=sys.stderr, ncols=90)
    for start in bar:
        xb, yb = X[start:start + 64], y[start:start + 64]
        grad = 2 * xb.T @ (xb @ w - yb) / len(xb)
        w -= lr * grad
        losses.append(float(np.mean((xb @ w - yb) ** 2)))
        bar.set_postfix(loss=f"{losses[-1]:.4f}")
        time.sleep(0.006)
    val = float(np.mean((X[:512] @ w - y[:512]) ** 2))
    print(f"epoch {epoch}: train_loss={np.mean(losses):.4f} val_loss={val:.4f}", flush=True)
    if epoch == 3:
        lr *= 40
        print(f"lr schedule: lr -> {lr}", flush=True)
print("weights:", np.round(w, 3).tolist(), flush=True)
if not math.isfinite(val) or val > 1:
    print(f"WARNING: validation loss {val:.3g} diverged after the lr step; keeping epoch 3 checkpoint", file=sys.stderr)
'''

WX["compose_ps.py"] = '''
"""Prints what `docker compose ps` prints for the pipeline's stack (docker is not on this machine)."""
rows = [
    ("wx-db-1", "postgres:16-alpine", "\\"docker-entrypoint.s...\\"", "db", "3 days ago", "Up 3 days (healthy)", "0.0.0.0:5432->5432/tcp"),
    ("wx-ingest-1", "ghcr.io/example/wxpipe:0.4.0", "\\"python -m wxpipe sc...\\"", "ingest", "3 days ago", "Restarting (1) 12 seconds ago", ""),
    ("wx-grafana-1", "grafana/grafana:11.3.0", "\\"/run.sh\\"", "grafana", "3 days ago", "Up 3 days", "0.0.0.0:3000->3000/tcp"),
    ("wx-mqtt-1", "eclipse-mosquitto:2", "\\"/docker-entrypoint...\\"", "mqtt", "3 days ago", "Up 3 days", "0.0.0.0:1883->1883/tcp"),
]
head = ("NAME", "IMAGE", "COMMAND", "SERVICE", "CREATED", "STATUS", "PORTS")
widths = [max(len(r[i]) for r in rows + [head]) for i in range(7)]
for r in [head] + rows:
    print("   ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
'''


def explore_notebook() -> str:
    def code(src: str) -> dict[str, object]:
        return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": src}

    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": "# October readings"},
        code(
            "import pandas as pd\nfrom wxpipe.ingest import ingest\nframe = ingest(['data/raw/st-001.csv', 'data/raw/st-002.csv'])"
        ),
        code("frame.groupby('station')['temp_c'].describe()"),
        code("frame.resample('D', on='ts')['wind_ms'].max().tail()"),
    ]
    nb = {"cells": cells, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
          "nbformat": 4, "nbformat_minor": 5}  # fmt: skip
    return json.dumps(nb, indent=1) + "\n"


# ------------------------------------------------------------------------------------------------------- node
WEB: dict[str, str] = {
    "package.json": json.dumps(
        {
            "name": "tidepool-dash",
            "version": "0.3.0",
            "private": True,
            "type": "module",
            "scripts": {"check": "tsc --noEmit -p .", "start": "node server.mjs"},
            "dependencies": {"minimist": "1.2.5"},
            "devDependencies": {"typescript": "5.3.3"},
        },
        indent=2,
    )
    + "\n",
    "tsconfig.json": json.dumps(
        {
            "compilerOptions": {
                "target": "ES2022",
                "module": "NodeNext",
                "strict": True,
                "noEmit": True,
                "noUnusedLocals": True,
                "noImplicitReturns": True,
            },
            "include": ["src"],
        },
        indent=2,
    )
    + "\n",
    "src/readings.ts": """
        export interface Reading {
          station: string;
          ts: string;
          tempC: number;
          windMs?: number;
        }

        export function maxBy(readings: Reading[], key: keyof Reading): Reading | undefined {
          let best: Reading | undefined;
          for (const r of readings) {
            if (best === undefined || r[key] > best[key]) best = r;
          }
          return best;
        }

        export function gustLabel(r: Reading): string {
          if (r.windMs > 17.2) return "gale";
          if (r.windMs > 10.8) return "strong";
        }
    """,
    "src/api.ts": """
        import { Reading, maxBy } from "./readings.js";

        const unusedLimit = 100;

        export async function latest(station: string): Promise<Reading> {
          const res = await fetch(`/api/stations/${station}/latest`);
          const body = await res.json();
          return { station, ts: body.ts, tempC: body.temp_c };
        }

        export function hottest(rs: Reading[]): string {
          const r = maxBy(rs, "tempc");
          return r.station;
        }

        export const refreshMs: number = "30000";
    """,
    "lib/format.mjs": """
        export function formatTemp(c) {
          return `${c.toFixed(1)} °C`;
        }

        export function formatWind(ms) {
          const kn = ms / 0.514444;
          return `${ms.toFixed(1)} m/s (${Math.round(kn)} kn)`;
        }

        export function trend(values) {
          if (values.length < 2) return "flat";
          const d = values[values.length - 1] - values[0];
          return d > 0.5 ? "rising" : d < 0.5 ? "falling" : "flat";
        }
    """,
    "test/format.test.mjs": """
        import { test, describe } from "node:test";
        import assert from "node:assert/strict";
        import { formatTemp, formatWind, trend } from "../lib/format.mjs";

        describe("formatTemp", () => {
          test("one decimal", () => assert.equal(formatTemp(3.14159), "3.1 °C"));
          test("negative", () => assert.equal(formatTemp(-0.04), "-0.0 °C"));
        });

        describe("formatWind", () => {
          test("knots rounded", () => assert.equal(formatWind(5.14444), "5.1 m/s (10 kn)"));
          test("calm", () => assert.equal(formatWind(0), "0.0 m/s (0 kn)"));
        });

        describe("trend", () => {
          test("rising", () => assert.equal(trend([1, 2, 3]), "rising"));
          test("flat for one value", () => assert.equal(trend([4]), "flat"));
          test("flat for small change", () => assert.equal(trend([4, 4.2]), "flat"));
          test("falling", () => assert.equal(trend([9, 3]), "falling"));
        });
    """,
    "test/api.test.mjs": """
        import { test } from "node:test";
        import assert from "node:assert/strict";

        test("station ids are zero-padded", () => {
          const ids = [1, 2, 15].map((n) => `st-${String(n).padStart(3, "0")}`);
          assert.deepEqual(ids, ["st-001", "st-002", "st-015"]);
        });

        test("payload shape", () => {
          const payload = { station: "st-001", readings: [{ t: 1 }, { t: 2 }] };
          assert.deepEqual(payload, { station: "st-001", readings: [{ t: 1 }, { t: 3 }] });
        });

        test.skip("websocket push (needs broker)", () => {});
    """,
    "server.mjs": """
        import http from "node:http";
        import { formatTemp } from "./lib/format.mjs";

        const latest = { "st-001": { tempC: 9.4 }, "st-002": { tempC: 7.1 }, "st-003": null };
        const log = (...parts) => console.log(new Date(Date.UTC(2026, 10, 26, 9, 0, counter++)).toISOString(), ...parts);
        let counter = 0;

        const server = http.createServer((req, res) => {
          const started = process.hrtime.bigint();
          const done = (status, body) => {
            res.writeHead(status, { "content-type": "application/json" });
            res.end(JSON.stringify(body));
            log(req.method, req.url, status, `${Number(process.hrtime.bigint() - started) > 5e6 ? "slow" : "ok"}`);
          };
          try {
            const m = req.url.match(/^\\/api\\/stations\\/([\\w-]+)\\/latest$/);
            if (req.url === "/health") return done(200, { ok: true });
            if (!m) return done(404, { error: "not found" });
            if (!(m[1] in latest)) return done(404, { error: `unknown station ${m[1]}` });
            const r = latest[m[1]];
            done(200, { station: m[1], temp: formatTemp(r.tempC) });
          } catch (err) {
            console.error(err);
            done(500, { error: "internal" });
          }
        });

        server.listen(0, "127.0.0.1", async () => {
          const { port } = server.address();
          log(`tidepool-dash listening on http://127.0.0.1:${port}`);
          for (const path of ["/health", "/api/stations/st-001/latest", "/api/stations/st-002/latest",
                              "/api/stations/st-003/latest", "/api/stations/st-009/latest", "/favicon.ico"]) {
            await fetch(`http://127.0.0.1:${port}${path}`).then((r) => r.text());
          }
          log("selftest done, shutting down");
          server.close();
        });
    """,
}

# ------------------------------------------------------------------------------------------------------- rust
RUST_LIB = """
//! Tide table parsing and high-water prediction for the harbour dashboard.
use std::collections::HashMap;
use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub struct Tide {
    pub minutes: u32,
    pub height_cm: i32,
}

#[derive(Debug)]
pub enum ParseError {
    BadLine(usize, String),
    BadTime(usize),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ParseError::BadLine(n, l) => write!(f, "line {}: cannot parse {:?}", n, l),
            ParseError::BadTime(n) => write!(f, "line {}: bad time", n),
        }
    }
}

impl std::error::Error for ParseError {}

pub fn parse_time(s: &str) -> Option<u32> {
    let (h, m) = s.split_once(':')?;
    let h: u32 = h.parse().ok()?;
    let m: u32 = m.parse().ok()?;
    if h > 23 || m > 59 { return None; }
    Some(h * 60 + m)
}

pub fn parse(text: &str) -> Result<Vec<Tide>, ParseError> {
    let mut out = Vec::new();
    let cache: HashMap<String, u32> = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') { continue; }
        let mut parts = line.split('\\t');
        let (Some(t), Some(h)) = (parts.next(), parts.next()) else {
            return Err(ParseError::BadLine(i + 1, line.to_string()));
        };
        let minutes = parse_time(t).ok_or(ParseError::BadTime(i + 1))?;
        let height_cm = h.trim().parse().map_err(|_| ParseError::BadLine(i + 1, line.to_string()))?;
        out.push(Tide { minutes, height_cm });
    }
    Ok(out)
}

pub fn high_waters(tides: &[Tide]) -> Vec<&Tide> {
    let mut highs = Vec::new();
    for w in tides.windows(3) {
        if w[1].height_cm > w[0].height_cm && w[1].height_cm > w[2].height_cm {
            highs.push(&w[1]);
        }
    }
    highs
}

pub fn mean_height(tides: &[Tide]) -> i32 {
    let sum: i32 = tides.iter().map(|t| t.height_cm).sum();
    sum / tides.len() as i32
}

fn unused_helper(x: i32) -> i32 { x * 2 }

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &str = "# time\\theight\\n00:10\\t120\\n06:25\\t410\\n12:40\\t95\\n18:55\\t402\\n23:50\\t140\\n";

    #[test]
    fn parses_table() { assert_eq!(parse(TABLE).unwrap().len(), 5); }

    #[test]
    fn parse_time_rejects_25h() { assert_eq!(parse_time("25:00"), None); }

    #[test]
    fn finds_high_waters() {
        let t = parse(TABLE).unwrap();
        let highs: Vec<u32> = high_waters(&t).iter().map(|t| t.minutes).collect();
        assert_eq!(highs, vec![385, 1135]);
    }

    #[test]
    fn mean_rounds_to_nearest() {
        let t = parse(TABLE).unwrap();
        assert_eq!(mean_height(&t), 234, "mean of {:?}", t.iter().map(|t| t.height_cm).collect::<Vec<_>>());
    }

    #[test]
    fn high_water_at_end_of_day() {
        let t = parse("20:00\\t100\\n22:00\\t300\\n23:59\\t310\\n").unwrap();
        assert_eq!(high_waters(&t).len(), 1, "last reading is the day's high water");
    }

    #[test]
    fn bad_line_reports_number() {
        let e = parse("00:10\\t120\\noops\\n").unwrap_err();
        assert_eq!(e.to_string(), "line 2: cannot parse \\"oops\\"");
    }
}
"""

RUST_MAIN = """
use std::env;
use std::fs;
use std::process;
use std::io::Write;

use tidewatch::{high_waters, parse};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = env::args().nth(1).unwrap_or_else(|| { eprintln!("usage: tidewatch <table.tsv>"); process::exit(2) });
    let verbose = false;
    let text = fs::read_to_string(&path)?;
    let tides = parse(&text)?;
    for t in high_waters(&tides) {
        println!("high water {:02}:{:02} {} cm", t.minutes / 60, t.minutes % 60, t.height_cm);
    }
    Ok(())
}
"""

# ------------------------------------------------------------------------------------------------------- C
C_PROJECT: dict[str, str] = {
    "Makefile": """
        CC ?= gcc
        CFLAGS ?= -std=c11 -Wall -Wextra -O2
        PREFIX ?= /usr/local
        SRC := src/main.c src/pgm.c src/stats.c
        OBJ := $(SRC:src/%.c=build/%.o)

        all: build/lumen

        build/%.o: src/%.c src/lumen.h | build
        \t$(CC) $(CFLAGS) -c $< -o $@

        build/lumen: $(OBJ)
        \t$(CC) $(CFLAGS) $^ -o $@ -lm

        build:
        \tmkdir -p build

        asan: $(SRC)
        \t$(CC) -std=c11 -g -O0 -fsanitize=address -fno-omit-frame-pointer $(SRC) -o build/lumen_asan -lm

        install: build/lumen
        \tinstall -d $(DESTDIR)$(PREFIX)/bin
        \tinstall -m 755 build/lumen $(DESTDIR)$(PREFIX)/bin/lumen

        clean:
        \trm -rf build

        .PHONY: all asan install clean
    """,
    "src/lumen.h": """
        #ifndef LUMEN_H
        #define LUMEN_H
        #include <stddef.h>

        typedef struct {
            int width, height, maxval;
            unsigned char *pixels;
        } image;

        int pgm_read(const char *path, image *img);
        void image_free(image *img);
        double mean(const image *img);
        double stddev(const image *img, double m);
        int histogram_peak(const image *img);
        #endif
    """,
    "src/pgm.c": """
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include "lumen.h"

        int pgm_read(const char *path, image *img) {
            FILE *f = fopen(path, "r");
            char magic[3];
            if (!f) return -1;
            if (fscanf(f, "%2s %d %d %d", magic, &img->width, &img->height, &img->maxval) != 4 || strcmp(magic, "P2")) {
                fclose(f);
                return -2;
            }
            size_t n = img->width * img->height;
            img->pixels = malloc(n);
            for (size_t i = 0; i <= n; i++) {
                int v;
                if (fscanf(f, "%d", &v) != 1) break;
                img->pixels[i] = (unsigned char)v;
            }
            fclose(f);
            return 0;
        }

        void image_free(image *img) { free(img->pixels); }
    """,
    "src/stats.c": """
        #include <math.h>
        #include "lumen.h"

        double mean(const image *img) {
            long sum = 0;
            int n = img->width * img->height;
            for (int i = 0; i < n; i++) sum += img->pixels[i];
            return (double)sum / n;
        }

        double stddev(const image *img, double m) {
            double acc = 0;
            int n = img->width * img->height;
            for (int i = 0; i < n; i++) acc += (img->pixels[i] - m) * (img->pixels[i] - m);
            return sqrt(acc / n);
        }

        int histogram_peak(const image *img) {
            int hist[256] = {0};
            int n = img->width * img->height, best = 0, unused;
            for (int i = 0; i < n; i++) hist[img->pixels[i]]++;
            for (int v = 1; v < 256; v++) if (hist[v] > hist[best]) best = v;
            return best;
        }
    """,
    "src/main.c": """
        #include <stdio.h>
        #include "lumen.h"

        int main(int argc, char **argv) {
            int failed = 0;
            printf("%-24s %6s %6s %8s %8s %5s\\n", "file", "width", "height", "mean", "stddev", "peak");
            for (int i = 1; i < argc; i++) {
                image img = {0};
                int rc = pgm_read(argv[i], &img);
                if (rc) {
                    fprintf(stderr, "lumen: %s: %s\\n", argv[i], rc == -1 ? "cannot open" : "not a plain PGM (P2) file");
                    failed++;
                    continue;
                }
                double m = mean(&img);
                printf("%-24s %6d %6d %8.2f %8.2f %5d\\n", argv[i], img.width, img.height, m, stddev(&img, m), histogram_peak(&img));
                image_free(&img);
            }
            return failed ? 1 : 0;
        }
    """,
}


def pgm(width: int, height: int, seed: int) -> str:
    rng = random.Random(seed)
    rows = [" ".join(str(min(255, max(0, int(rng.gauss(120, 40))))) for _ in range(width)) for _ in range(height)]
    return f"P2\n{width} {height}\n255\n" + "\n".join(rows) + "\n"


# ------------------------------------------------------------------------------------------------------- git
HARBOR_TIDES_V1 = '''
"""Harbour tide notes: thresholds and helpers."""

FLOOD_THRESHOLD_CM = 420
WARN_THRESHOLD_CM = 380


def level(height_cm):
    if height_cm >= FLOOD_THRESHOLD_CM:
        return "flood"
    if height_cm >= WARN_THRESHOLD_CM:
        return "warn"
    return "normal"


def high_water(heights):
    return max(heights)
'''
