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
