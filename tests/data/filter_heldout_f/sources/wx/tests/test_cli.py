import pytest

from wxpipe.cli import main

HEADER = "ts,station,temp_f,humidity,wind_kn,pressure_hpa\n"


def test_version(capsys):
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.strip() == "wxpipe 0.4.0"


def test_ingest_summary(tmp_path, capsys):
    path = tmp_path / "x.csv"
    path.write_text(HEADER + "2026-10-01T00:00,st-001,50,80,1,1000\n")
    assert main(["ingest", str(path)]) == 0
    assert "read 1 readings from 1 stations" in capsys.readouterr().out


def test_validate_exit_code(tmp_path, capsys):
    path = tmp_path / "x.csv"
    path.write_text(HEADER + "2026-10-01T00:00,st-001,-100,80,1,1000\n")
    code = main(["validate", str(path)])
    out = capsys.readouterr().out
    assert code == 1, out


def test_no_files_message(capsys):
    with pytest.raises(SystemExit) as info:
        main(["ingest", "nothing-*.csv"])
    assert info.value.code == "wxpipe: no input files matching nothing-*.csv"
