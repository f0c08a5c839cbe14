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
