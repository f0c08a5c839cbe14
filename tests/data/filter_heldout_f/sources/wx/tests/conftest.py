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
