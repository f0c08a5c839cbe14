# ruff: noqa: E501 - the commands recorded here are written out whole; random only makes sample data
"""Record the sixth HELD-APART filter corpus (F): real output of real tools, apart from every other corpus.

    python -m bench.make_heldout_f            # (re)records tests/data/filter_heldout_f/*.json, keeps the judgement
    python -m bench.make_heldout_f NAME...    # re-records only those samples
    python -m bench.make_heldout_f --apply    # copies JUDGED.json (must_keep, why) into the samples
    python -m bench.make_heldout_f --check    # checks that every judged must_keep line occurs in its output

Never tune an output filter on this corpus, nor read its losses while changing one: it exists to measure the filters
on outputs nobody tuned them on. It was recorded and judged by someone who had read neither the filters nor any
result, and who ran no filter. Each sample stores the command, its exit code, its combined stdout+stderr, and a
judgement made by reading the output: ``why`` and ``must_keep`` (lines verbatim from ``output.splitlines()``). The
judgement lives in ``JUDGED.json`` so that re-recording keeps it; judged lines a re-recording no longer prints
(pids, timings, hashes, dates) are dropped from the sample and reported, and must be judged again by reading.

Commands, flags and projects were chosen not to be in any other corpus (by their ``command`` fields).
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from bench import heldout_f_programs as P
from bench.recording import Corpus, write

CORPUS = Corpus.start(__file__, "filter_heldout_f", ("Oona Vetter", "oona@example.org"))
OUT, VENV, SCRATCH, ENV = CORPUS.out, CORPUS.venv, CORPUS.scratch, CORPUS.env
SITE_ABS = VENV / "lib" / "python3.11" / "site-packages"
SITE = ".venv/lib/python3.11/site-packages"
PORT = 18765  # the local `python -m http.server` that curl asks (loopback only)
record, run = CORPUS.record, CORPUS.run


# ------------------------------------------------------------------------------------------------------ builders
def weather(root: Path) -> None:
    """The weather-station pipeline: package, tests, logger exports, a sqlite db, a notebook, a scheduler log."""
    write(root, P.WX)
    data = root / "data"
    (data / "raw").mkdir(parents=True)
    (data / "stations.json").write_text(P.stations_json())
    for i, (sid, *_) in enumerate(P.STATIONS):
        (data / "raw" / f"{sid}.csv").write_text(P.station_csv(i))
    (data / "bad.json").write_text(
        '{\n  "station": "st-006",\n  "name": "Otter Sound",\n  "sensors": ["thermo", "baro"]\n  "active": true\n}\n'
    )
    (data / "notes.txt").write_text("st-003 offline since 2026-11-02 (mast damage), see ticket WX-214\n")
    (root / "logs").mkdir()
    (root / "explore.ipynb").write_text(P.explore_notebook())
    with open(root / "logs" / "run.out", "wb") as fh:  # the scheduler writes logs/scheduler.log for tail and grep
        subprocess.run([sys.executable, "-m", "wxpipe", "schedule", "--ticks", "90"], cwd=root, env=ENV, stdout=fh,
                       stderr=subprocess.STDOUT, check=False)  # fmt: skip
    make_wx_db(root / "wx.db", data / "raw")


def make_wx_db(path: Path, raw: Path) -> None:
    db = sqlite3.connect(path)
    db.executescript(
        """
        CREATE TABLE stations (id TEXT PRIMARY KEY, name TEXT NOT NULL, region TEXT, elevation_m INTEGER);
        CREATE TABLE readings (station TEXT NOT NULL REFERENCES stations(id), ts TEXT NOT NULL, temp_c REAL,
                               humidity INTEGER, wind_ms REAL, pressure_hpa REAL, UNIQUE (station, ts));
        CREATE INDEX idx_readings_ts ON readings(ts);
        """
    )
    for sid, name, region, elev, _, _ in P.STATIONS:
        db.execute("INSERT INTO stations VALUES (?, ?, ?, ?)", (sid, name, region, elev))
    for csv in sorted(raw.glob("*.csv")):
        for line in csv.read_text().splitlines()[1:]:
            ts, sid, temp_f, hum, wind, pres = line.split(",")[:6]
            db.execute("INSERT INTO readings VALUES (?, ?, ?, ?, ?, ?)",
                       (sid, ts, round((float(temp_f) - 32) * 5 / 9, 2), int(hum), round(float(wind) * 0.514444, 2), float(pres)))  # fmt: skip
    db.commit()
    db.close()


def tools_env(root: Path) -> None:
    """A throwaway venv; the recorded `pip install` fills it (flake8, tqdm, pytest) from the registry."""
    run(root, sys.executable, "-m", "venv", "venv")
    shutil.copytree(SITE_ABS / "jinja2", root / "jinja2copy", ignore=shutil.ignore_patterns("__pycache__"))


def web(root: Path) -> None:
    write(root, P.WEB)


def rust(root: Path) -> None:
    crate = root / "tidewatch"
    write(
        crate, {"Cargo.toml": '[package]\nname = "tidewatch"\nversion = "0.2.0"\nedition = "2021"\n\n[dependencies]\n'}
    )
    (crate / "src").mkdir()
    (crate / "src" / "lib.rs").write_text(P.RUST_LIB.lstrip("\n"))
    (crate / "src" / "main.rs").write_text(P.RUST_MAIN.lstrip("\n"))


def c_tool(root: Path) -> None:
    lumen = root / "lumen"
    write(lumen, P.C_PROJECT)
    samples = lumen / "samples"
    samples.mkdir()
    (samples / "dock.pgm").write_text(P.pgm(32, 24, 1))
    (samples / "pier.pgm").write_text(P.pgm(48, 32, 2))
    (samples / "crane.pgm").write_text(P.pgm(16, 16, 3) + "77\n")  # one value more than 16 x 16
    (samples / "buoy.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))


def harbor_repo(root: Path) -> None:
    """A repo with a history by four people, a merged feature branch, a hotfix branch, a branch that conflicts with
    main, a stash, a tag, and a regression for bisect to find; copies for the commands that change state."""
    repo = root / "harbor"
    repo.mkdir()
    people = [("Oona Vetter", "oona@example.org"), ("Rafael Quintero", "rafa@example.org"),
              ("Signe Aalto", "signe@example.org"), ("Duc Pham", "duc@example.org")]  # fmt: skip
    day = [0]

    def git(*args: str, who: int = 0) -> None:
        name, email = people[who]
        stamp = f"2026-10-{day[0]:02d}T09:{day[0]:02d}:00+02:00"
        env = {**ENV, "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email, "GIT_COMMITTER_NAME": name,
               "GIT_COMMITTER_EMAIL": email, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}  # fmt: skip
        run(repo, "git", *args, env=env)

    def commit(message: str, who: int, files: dict[str, str]) -> None:
        day[0] += 1
        write(repo, files)
        git("add", "-A", who=who)
        git("commit", "-q", "-m", message, who=who)

    tides = P.HARBOR_TIDES_V1
    git("init", "-q", "-b", "main")
    commit(
        "Start harbour notes: tide thresholds",
        0,
        {"tides.py": tides, "README.md": "# harbor-notes\n\nTide thresholds for the harbour office.\n"},
    )
    commit(
        "Add config for the pier sensors", 1, {"config.toml": '[pier]\nsensor = "BP-3"\nunits = "cm"\npoll_s = 60\n'}
    )
    git("tag", "v0.1")
    commit(
        "check.sh: smoke test for bisect",
        0,
        {"check.sh": "#!/bin/sh\npython3 -c 'import tides; assert tides.high_water([410, 120, 95]) == 410' \n"},
    )
    git("checkout", "-q", "-b", "feature/alerts")
    commit(
        "alerts: notify the harbour master above the warn level",
        2,
        {
            "alerts.py": 'from tides import level\n\n\ndef should_alert(height_cm):\n    return level(height_cm) != "normal"\n'
        },
    )
    commit(
        "alerts: include the level in the message",
        2,
        {
            "alerts.py": 'from tides import level\n\n\ndef should_alert(height_cm):\n    return level(height_cm) != "normal"\n\n\ndef message(height_cm):\n    return f"water at {height_cm} cm: {level(height_cm)}"\n'
        },
    )
    git("checkout", "-q", "main")
    tides = tides.replace("WARN_THRESHOLD_CM = 380", "WARN_THRESHOLD_CM = 390  # raised after the 2026 survey")
    commit("Raise the warn threshold after the survey", 3, {"tides.py": tides})
    day[0] += 1
    git("merge", "-q", "--no-ff", "-m", "Merge branch 'feature/alerts'", "feature/alerts", who=1)
    commit(
        "README: describe the alert levels",
        1,
        {
            "README.md": "# harbor-notes\n\nTide thresholds for the harbour office.\n\nLevels: normal, warn (>= 390 cm), flood (>= 420 cm).\n"
        },
    )
    tides = tides.replace(
        "    return max(heights)",
        "    # ignore the first reading: the gauge settles after a restart\n    return max(heights[1:2])",
    )
    commit("high_water: skip the settling reading", 3, {"tides.py": tides})
    commit("config: poll every 30 s", 2, {"config.toml": '[pier]\nsensor = "BP-3"\nunits = "cm"\npoll_s = 30\n'})
    git("checkout", "-q", "-b", "hotfix/rounding", "v0.1")
    commit(
        "Round heights to whole centimetres",
        1,
        {
            "tides.py": P.HARBOR_TIDES_V1.replace(
                "def high_water(heights):",
                "def rounded(height):\n    return int(round(height))\n\n\ndef high_water(heights):",
            )
        },
    )
    git("checkout", "-q", "main")
    git("checkout", "-q", "-b", "feature/units", "HEAD~1")
    commit(
        "config: report in metres",
        0,
        {"config.toml": '[pier]\nsensor = "BP-3"\nunits = "m"\npoll_s = 60\nscale = 0.01\n'},
    )
    git("checkout", "-q", "main")
    write(repo, {"alerts.py": (repo / "alerts.py").read_text() + "\n\ndef quiet_hours():\n    return range(0, 6)\n"})
    git("stash", "push", "-q", "-m", "wip: quiet hours for alerts")
    write(
        repo,
        {
            "config.toml": '[pier]\nsensor = "BP-3"\nunits = "cm"\npoll_s = 30\nretries = 3\n',
            "notes/storm-2026-11.md": "# storm log\n",
        },
    )
    for copy in ("harbor-merge", "harbor-pick", "harbor-bisect"):
        shutil.copytree(repo, root / copy)
        run(root / copy, "git", "checkout", "-q", "--", ".")
        run(root / copy, "git", "clean", "-q", "-fd")


BUILDERS: dict[str, Callable[[Path], None]] = {
    "wx": weather,
    "tools": tools_env,
    "web": web,
    "rs": rust,
    "c": c_tool,
    "git": harbor_repo,
}

# name, command, folder it runs in (relative to the temp root; absolute for a system folder)
SAMPLES: list[tuple[str, str, str]] = [
    # -- the weather pipeline: CLI, logs, pandas, tests, linters
    ("wx_help", "python -m wxpipe --help", "wx"),
    ("wx_ingest_ok", "python -m wxpipe ingest 'data/raw/st-00[125].csv' -o data/clean.csv", "wx"),
    ("wx_ingest_bad_row", "python -m wxpipe ingest 'data/raw/*.csv'; echo exit=$?", "wx"),
    ("wx_validate", "python -m wxpipe validate data/raw/st-003.csv data/raw/st-005.csv", "wx"),
    (
        "wx_report_month",
        "python -m wxpipe report --month 2026-10 data/raw/st-001.csv data/raw/st-002.csv data/raw/st-005.csv",
        "wx",
    ),
    ("wx_schedule_log", "python -m wxpipe schedule --ticks 90", "wx"),
    ("tail_scheduler_log", "tail -n 80 logs/scheduler.log", "wx"),
    ("grep_warn_error_log", "grep -n -E 'WARNING|ERROR' logs/scheduler.log", "wx"),
    (
        "pandas_info_oneliner",
        "python -c \"import pandas as pd; df = pd.read_csv('data/raw/st-002.csv', parse_dates=['ts']); df.info()\"",
        "wx",
    ),
    (
        "pandas_groupby_oneliner",
        "python -c \"from wxpipe.ingest import ingest; import glob; f = ingest(sorted(glob.glob('data/raw/st-00[1235].csv'))); print(f.groupby('station')[['temp_c', 'wind_ms']].agg(['min', 'mean', 'max']).round(2))\"",
        "wx",
    ),
    ("pytest_wx_quiet", "python -m pytest -p no:cacheprovider -q", "wx"),
    ("pytest_x_clean", "python -m pytest -p no:cacheprovider -x -q tests/test_clean.py", "wx"),
    ("pytest_durations_ingest", "python -m pytest -p no:cacheprovider --durations=3 tests/test_ingest.py", "wx"),
    ("pytest_v_units", "python -m pytest -p no:cacheprovider -v tests/test_units.py", "wx"),
    ("pytest_tb_long_cli", "python -m pytest -p no:cacheprovider --tb=long -q tests/test_cli.py", "wx"),
    ("unittest_discover_legacy", "python -m unittest discover -s legacy_tests", "wx"),
    ("mypy_strict_wx", "mypy --no-incremental --strict --ignore-missing-imports wxpipe tests", "wx"),
    ("ruff_wx", "ruff check --no-cache --line-length 100 --select E,F,B,SIM,PLC,RUF wxpipe tests", "wx"),
    ("ruff_format_diff_cli", "ruff format --no-cache --diff wxpipe/scheduler.py", "wx"),
    ("nbconvert_html_outdir", "jupyter nbconvert --execute --to html --output-dir out explore.ipynb", "wx"),
    (
        "sqlite_unique_violation",
        "sqlite3 wx.db \"INSERT INTO readings (station, ts, temp_c) VALUES ('st-001', '2026-10-01T00:00', 11.0)\"; echo exit=$?",
        "wx",
    ),
    (
        "sqlite_daily_st003",
        "sqlite3 -header -column wx.db \"SELECT date(ts) AS day, round(min(temp_c), 1) AS tmin, round(max(temp_c), 1) AS tmax, round(max(wind_ms), 1) AS gust FROM readings WHERE station = 'st-003' GROUP BY day ORDER BY day\"",
        "wx",
    ),
    ("curl_head_stations", f"curl -sS -i http://127.0.0.1:{PORT}/stations.json | head -n 80", "wx"),
    (
        "curl_status_missing",
        f"curl -sS -o /dev/null -w '%{{http_code}} %{{size_download}}\\n' http://127.0.0.1:{PORT}/raw/st-009.csv",
        "wx",
    ),
    ("compose_ps_simulated", "python compose_ps.py", "wx"),
    # -- the data folder
    (
        "jq_group_by_region",
        "jq 'map({id, region, active, models: [.sensors[] | .model]}) | group_by(.region)' data/stations.json",
        "wx",
    ),
    ("json_tool_bad", "python -m json.tool data/bad.json", "wx"),
    ("awk_hot_readings", "awk -F, 'NR > 1 && $3 > 63.5 {print FILENAME \": \" $0}' data/raw/*.csv", "wx"),
    ("head_raw_csvs", "head -n 15 data/raw/*.csv", "wx"),
    ("file_stat_data", "file data/* data/raw/st-001.csv && stat data/stations.json", "wx"),
    ("ls_laR_project", "ls -laR --time-style=long-iso wxpipe tests legacy_tests data", "wx"),
    ("du_ah_sort", "du -ah data logs | sort -h | tail -n 8", "wx"),
    # -- a throwaway venv: pip and flake8 from the registry, the training loop
    ("pip_install_flake8_tqdm", "venv/bin/pip install flake8 tqdm numpy 'pytest>=8'", "tools"),
    ("pip_install_no_such", "venv/bin/pip install wxpipe-station-drivers==2.1; echo exit=$?", "tools"),
    ("pip_show_files_head", "venv/bin/pip show -f numpy | head -n 120", "tools"),
    ("flake8_wx", "venv/bin/flake8 --max-line-length=100 --count ../wx/wxpipe ../wx/tests", "tools"),
    ("flake8_jinja2_statistics", "venv/bin/flake8 --statistics --count jinja2copy", "tools"),
    ("tqdm_fit_model", "cd ../wx && ../tools/venv/bin/python fit_model.py", "tools"),
    ("grep_site_warnings_warn", f"grep -rn --include='*.py' 'warnings.warn(' {SITE}/pandas/core", ""),
    ("grep_site_read_csv_sig", f"grep -n -A5 '^def read_csv' {SITE}/pandas/io/parsers/readers.py", ""),
    # -- node and TypeScript
    ("npm_install_audit", "npm install --no-fund", "web"),
    ("npx_tsc_noemit", "npx tsc --noEmit -p .", "web"),
    ("node_test_spec", "node --test --test-reporter=spec test/", "web"),
    ("npm_ls_depth0", "npm ls --depth=0", "web"),
    ("npm_outdated_exit", "npm outdated; echo exit=$?", "web"),
    ("npm_audit", "npm audit", "web"),
    ("node_server_selftest", "node server.mjs", "web"),
    ("grep_minimist_setkey", "grep -n -A14 'function setKey' node_modules/minimist/index.js", "web"),
    # -- Rust
    ("cargo_build_all_targets", "cd tidewatch && cargo build --all-targets", "rs"),
    ("cargo_test_threads1", "cd tidewatch && cargo test -- --test-threads=1", "rs"),
    ("cargo_clippy_all_targets", "cd tidewatch && cargo clippy --all-targets", "rs"),
    ("cargo_fmt_check", "cd tidewatch && cargo fmt --check", "rs"),
    ("cargo_run_missing_file", "cd tidewatch && cargo run -q -- tables/2026-11-26.tsv; echo exit=$?", "rs"),
    # -- C with a Makefile
    ("make_all_warnings", "make all", "c/lumen"),
    (
        "make_wconversion",
        "make clean all CFLAGS='-std=c11 -O2 -Wall -Wextra -Wconversion -Wsign-conversion'",
        "c/lumen",
    ),
    ("lumen_run_samples", "./build/lumen samples/*; echo exit=$?", "c/lumen"),
    ("make_asan_overflow", "make asan && ./build/lumen_asan samples/crane.pgm", "c/lumen"),
    # -- git: history by four people, a merge, a conflict, cherry-pick, bisect, stash, reflog
    ("git_log_graph_authors", "git --no-pager log --graph --all --stat --format='%h %<(16)%an %s'", "git/harbor"),
    ("git_show_merge_fuller", "git --no-pager show --stat --format=fuller ':/Merge branch'", "git/harbor"),
    ("git_status_sb", "git status -sb", "git/harbor"),
    ("git_stash_show_p", "git stash list && git --no-pager stash show -p stash@{0}", "git/harbor"),
    ("git_word_diff", "git --no-pager diff --word-diff v0.1 main -- README.md config.toml", "git/harbor"),
    ("git_reflog", "git --no-pager reflog", "git/harbor"),
    ("git_log_p_follow", "git --no-pager log -p --follow tides.py", "git/harbor"),
    ("git_grep_threshold", "git --no-pager grep -n -i threshold -- '*.py' '*.md'", "git/harbor"),
    ("git_merge_conflict", "git merge feature/units", "git/harbor-merge"),
    ("git_diff_during_conflict", "git --no-pager diff", "git/harbor-merge"),
    ("git_cherry_pick", "git cherry-pick hotfix/rounding", "git/harbor-pick"),
    ("git_bisect_run", "git bisect start main v0.1 && git bisect run sh check.sh; git bisect log", "git/harbor-bisect"),
]


def main() -> None:
    def prepare(root: Path, only: set[str]) -> list[subprocess.Popen[bytes]]:
        if only and "pip_install_flake8_tqdm" not in only:  # what that recorded install would have put in the venv
            run(root / "tools", "venv/bin/pip", "install", "flake8", "tqdm", "numpy", "pytest>=8")
        return [CORPUS.serve(root / "wx" / "data", PORT)]  # the data folder served on loopback for curl

    CORPUS.record_corpus("heldout-f-", BUILDERS, SAMPLES, prepare=prepare)


if __name__ == "__main__":
    main()
