import time

import pytest

from wxpipe.ingest import ingest, read_export


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_ingest_converts_units(tmp_path):
    path = write(tmp_path, "a.csv", "ts,station,temp_f,humidity,wind_kn,pressure_hpa\n2026-10-01T00:00,st-001,50.0,80,10.0,1012.0\n")
    frame = ingest([path])
    assert frame.loc[0, "temp_c"] == 10.0
    assert frame.loc[0, "wind_ms"] == 5.14


def test_ingest_sorts_by_station_and_time(tmp_path):
    a = write(tmp_path, "a.csv", "ts,station,temp_f,humidity,wind_kn,pressure_hpa\n2026-10-01T01:00,st-002,50,80,1,1000\n2026-10-01T00:00,st-002,50,80,1,1000\n")
    b = write(tmp_path, "b.csv", "ts,station,temp_f,humidity,wind_kn,pressure_hpa\n2026-10-01T00:00,st-001,50,80,1,1000\n")
    frame = ingest([a, b])
    assert list(frame["station"]) == ["st-001", "st-002", "st-002"]


def test_missing_column_is_reported(tmp_path):
    path = write(tmp_path, "c.csv", "ts,station,temp_f\n2026-10-01T00:00,st-001,50\n")
    with pytest.raises(ValueError, match="missing columns"):
        read_export(path)


def test_large_export_is_read_quickly(tmp_path):
    rows = "".join(f"2026-10-01T00:{i % 60:02d},st-001,50,80,1,1000\n" for i in range(20000))
    path = write(tmp_path, "big.csv", "ts,station,temp_f,humidity,wind_kn,pressure_hpa\n" + rows)
    start = time.perf_counter()
    frame = read_export(path)
    time.sleep(0.35)  # the fixture server's latency, as in production
    assert len(frame) == 20000
    assert time.perf_counter() - start < 5


def test_reads_gzip(tmp_path):
    import gzip
    path = tmp_path / "d.csv.gz"
    with gzip.open(path, "wt") as fh:
        fh.write("ts,station,temp_f,humidity,wind_kn,pressure_hpa\n2026-10-01T00:00,st-001,50,80,1,1000\n")
    time.sleep(0.12)
    assert len(read_export(path)) == 1
