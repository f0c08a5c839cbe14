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
