# ruff: noqa: E501, S608 - the commands recorded here are written out whole
"""Record the eighth HELD-APART filter corpus (H): real output of real tools, apart from every other corpus.

    python -m bench.make_heldout_h            # (re)records tests/data/filter_heldout_h/*.json, keeps the judgement
    python -m bench.make_heldout_h NAME...    # re-records only those samples
    python -m bench.make_heldout_h --apply    # copies JUDGED.json (must_keep, why) into the samples
    python -m bench.make_heldout_h --check    # checks that every judged must_keep line occurs in its output

Never tune an output filter on this corpus, nor read its losses while changing one: it exists to measure the filters
on outputs nobody tuned them on. It was recorded and judged by someone who had read neither the filters nor any
result, and who ran no filter. Each sample stores the command, its exit code, its combined stdout+stderr, and a
judgement made by reading the output: ``why`` and ``must_keep`` (lines verbatim from ``output.splitlines()``). The
judgement lives in ``JUDGED.json`` so that re-recording keeps it; judged lines a re-recording no longer prints
(pids, timings, addresses, dates, random key material) are dropped from the sample and reported, and must be judged
again by reading.

Commands, flags and projects were chosen not to be in any other corpus (by their ``command`` fields).

What the recording machine needs besides the project venv (run as root, offline but for the package registries):
``apt-get install openjdk-17-jdk maven cmake g++ gdb strace binutils perl postgresql redis-server redis-tools
shellcheck yamllint tree jq zip unzip wget curl openssl nodejs npm``, a ``postgres`` system user (the Debian package
makes it), and PyPI and the npm registry reachable: the builders install flask, pylint, bandit, black, nbqa, pyyaml
and scikit-learn into a throwaway venv, and typescript with npm.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bench import heldout_h_programs as P
from bench.recording import Corpus, write

CORPUS = Corpus.start(__file__, "filter_heldout_h", ("Ottilie Brandt", "ottilie@example.org"))
OUT, VENV, SCRATCH, ENV = CORPUS.out, CORPUS.venv, CORPUS.scratch, CORPUS.env
record, run = CORPUS.record, CORPUS.run

# loopback ports: the Flask API the curl sample asks, http.server for wget, PostgreSQL, redis, TLS
FLASK_PORT, API_PORT, HTTP_PORT, PG_PORT, REDIS_PORT, TLS_PORT, REDIS_LOG_PORT = (
    18940, 18941, 18942, 18943, 18944, 18945, 18946,
)  # fmt: skip
PSQL = f"psql -h 127.0.0.1 -p {PG_PORT} -U baker -d crumb"


def loose(root: Path, *cmd: str, env: dict[str, str] | None = None) -> None:
    """A setup step that may fail (a seed load whose errors a sample shows)."""
    subprocess.run(cmd, cwd=root, env=env or ENV, check=False, capture_output=True)


def as_postgres(*cmd: str) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *cmd]


# ------------------------------------------------------------------------------------------------------ builders
def dockside(root: Path) -> None:
    """The bike-share package, its configs, 365 days of ride exports, a notebook, archives, and a tool venv."""
    write(root, P.DOCK)
    write(root / "agent", P.DOCK_AGENT)
    (root / "notebooks").mkdir()
    (root / "notebooks" / "usage.ipynb").write_text(P.usage_notebook())
    rides = root / "data" / "rides"
    rides.mkdir(parents=True)
    for day in range(1, 366):
        (rides / f"day-{day:03d}.csv").write_text(P.rides_csv(day))
    (root / "data" / "rides" / "day-004.csv").write_text(P.rides_csv(4).replace(",S17,", ",,", 3))
    write(root, {"scripts/check_day.sh": P.CHECK_DAY, "docks_registered.txt": P.DOCKS_REGISTERED,
                 "docks_seen.txt": P.DOCKS_SEEN})  # fmt: skip
    # a backup interrupted half way, and a zip of exports with one member's bytes damaged
    (root / "backups").mkdir()
    run(root, "tar", "-czf", "backups/full.tgz", "data/rides")
    full = (root / "backups" / "full.tgz").read_bytes()
    (root / "backups" / "rides-2026-10.tgz").write_bytes(full[: len(full) // 2])
    (root / "backups" / "full.tgz").unlink()
    run(root, "zip", "-q", "exports.zip", *[f"data/rides/day-{d:03d}.csv" for d in range(300, 306)])
    blob = bytearray((root / "exports.zip").read_bytes())
    start = blob.find(b"day-303.csv") + 200
    blob[start : start + 40] = bytes(40)
    (root / "exports.zip").write_bytes(bytes(blob))
    # the tool venv: flask, pylint, bandit, black, nbqa, scikit-learn
    run(root, sys.executable, "-m", "venv", "venv")
    run(root, "venv/bin/pip", "install", "-q", "flask", "pylint", "bandit", "black", "nbqa", "pyyaml", "scikit-learn")


def fleet_repo(root: Path) -> None:
    """The fleet-ops repo: a plan module, a van branch with a cherry-picked fix, a stale patch, a dirty tree."""
    repo = root / "fleet-ops"
    repo.mkdir()
    tick = [0]

    def git(*args: str) -> None:
        stamp = f"2026-10-{1 + tick[0]:02d}T08:{tick[0]:02d}:00+00:00"
        run(repo, "git", *args, env={**ENV, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp})

    def commit(message: str, files: dict[str, str]) -> None:
        tick[0] += 1
        write(repo, files)
        git("add", "-A")
        git("commit", "-q", "-m", message)

    plan = P.GIT_PLAN_V1
    git("init", "-q", "-b", "main")
    commit("Fleet ops: README", {"README.md": P.GIT_README})
    commit("Rebalancing plan thresholds", {"plan.py": plan})
    commit("Stations list", {"stations.txt": "S01 Harbour Gate\nS02 Old Market\nS03 Temple Meads\n"})
    # a patch written against this plan, mailed in while main moved on
    git("checkout", "-q", "-b", "tmp/patch")
    commit(
        "plan: vans carry 20 since the new trailers",
        {"plan.py": plan.replace("VAN_CAPACITY = 18", "VAN_CAPACITY = 20")},
    )
    git("format-patch", "-q", "-1", "-o", "../patches")
    git("checkout", "-q", "main")
    git("branch", "-q", "-D", "tmp/patch")
    plan = plan.replace("VAN_CAPACITY = 18", "VAN_CAPACITY = 16  # two vans off the road")
    commit("Two vans in the workshop: capacity 16", {"plan.py": plan})
    git("checkout", "-q", "-b", "ops/vans")
    commit("Van routes for the night shift", {"routes.txt": "V1 S01 S03 S02\nV2 S04 S05\n"})
    fix = plan.replace("return ratio < LOW_WATER", "return ratio <= LOW_WATER")
    commit("needs_bikes: a dock at the low-water mark needs bikes", {"plan.py": fix})
    commit("Night shift starts at 02:00", {"routes.txt": "# night shift from 02:00\nV1 S01 S03 S02\nV2 S04 S05\n"})
    git("checkout", "-q", "main")
    commit(
        "Stations: Wapping Wharf",
        {"stations.txt": "S01 Harbour Gate\nS02 Old Market\nS03 Temple Meads\nS04 Wapping Wharf\n"},
    )
    commit("needs_bikes: a dock at the low-water mark needs bikes", {"plan.py": fix})
    commit("README: how the plan runs", {"README.md": P.GIT_README + "\nThe plan runs at 02:30 from cron.\n"})
    shutil.copytree(repo, root / "fleet-ops-am")  # a clean copy for git am
    # the working tree as someone left it: staged, unstaged, renamed, deleted, untracked
    write(repo, {"plan.py": fix.replace("HIGH_WATER = 0.8", "HIGH_WATER = 0.85")})
    write(repo, {"README.md": P.GIT_README + "\nThe plan runs at 02:30 from cron, 03:00 on Sundays.\n"})
    git("add", "README.md")
    git("mv", "stations.txt", "stations.tsv")
    write(repo, {"notes/van-V2.md": "V2 clutch slipping\n", "plan.py.orig": fix, "scratch.txt": "S06?\n"})


def kiln(root: Path) -> None:
    write(root / "kiln", {**P.KILN, **P.KILN_SCHEDULES})
    run(
        root / "kiln",
        "javac",
        "-d",
        "out",
        *sorted(str(p.relative_to(root / "kiln")) for p in (root / "kiln" / "src").rglob("*.java")),
    )
    write(root / "kiln-wip", P.KILN_WIP)


def anemo(root: Path) -> None:
    write(root, P.ANEMO)
    (root / "data").mkdir()
    (root / "data" / "st-07.txt").write_text(P.anemo_readings())


def stationd(root: Path) -> None:
    write(root, P.STATIOND)


def crumb(root: Path) -> None:
    write(root, P.CRUMB)
    (root / "load.sql").write_text(P.crumb_load_sql())
    (root / "till-2026-11-25.csv").write_text(P.till_csv())
    root.parent.chmod(0o755)  # PostgreSQL runs as its own user and reads here
    shutil.chown(root, "postgres", "postgres")


def pedal(root: Path) -> None:
    write(root, P.PEDAL)
    run(root, "npm", "install", "--no-audit", "--no-fund", "--silent")


def tls(root: Path) -> None:
    """A self-made CA and a server certificate it signs for pickup.crumb.test (not for the API's name)."""
    ssl = ("openssl",)
    run(
        root,
        *ssl,
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "365",
        "-subj",
        "/O=Crumb Bakery/CN=Crumb Dev CA",
    )
    run(
        root,
        *ssl,
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "server.key",
        "-out",
        "server.csr",
        "-subj",
        "/O=Crumb Bakery/CN=pickup.crumb.test",
    )
    (root / "san.ext").write_text("subjectAltName = DNS:pickup.crumb.test, DNS:localhost\n")
    run(
        root,
        *ssl,
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "server.pem",
        "-days",
        "90",
        "-extfile",
        "san.ext",
    )


BUILDERS: dict[str, Callable[[Path], None]] = {
    "dock": dockside,
    "git": fleet_repo,
    "java": kiln,
    "anemo": anemo,
    "stationd": stationd,
    "crumb": crumb,
    "pedal": pedal,
    "tls": tls,
}

# name, command, folder it runs in (relative to the temp root; absolute for a system folder)
SAMPLES: list[tuple[str, str, str]] = [
    # -- dockside: the Flask API, profiling, warnings turned errors, libraries' warnings
    (
        "flask_run_500_log",
        f"venv/bin/flask --app dockside.api run --port {FLASK_PORT} > flask.log 2>&1 & pid=$!; sleep 2; curl -s http://127.0.0.1:{FLASK_PORT}/health; curl -s -o /dev/null -w '%{{http_code}} /stations/s02/bikes\\n' http://127.0.0.1:{FLASK_PORT}/stations/s02/bikes; curl -s -o /dev/null -w '%{{http_code}} /stations/S9/bikes\\n' http://127.0.0.1:{FLASK_PORT}/stations/S9/bikes; curl -s -o /dev/null -w '%{{http_code}} POST /rides\\n' -H 'Content-Type: application/json' -d '{{\"station\": \"S02\", \"bike\": \"B21\"}}' http://127.0.0.1:{FLASK_PORT}/rides; kill $pid; wait $pid; cat flask.log",
        "dock",
    ),
    (
        "curl_v_post_json_500",
        f'curl -v -H \'Content-Type: application/json\' -d \'{{"station": "S01", "bike": "B3"}}\' http://127.0.0.1:{API_PORT}/rides',
        "dock",
    ),
    ("cprofile_cumtime_head40", "python -m cProfile -s cumtime sim.py | head -40", "dock"),
    ("time_sim", "time python sim.py", "dock"),
    ("W_error_deprecation_export", "python -W error::DeprecationWarning -m dockside.export", "dock"),
    ("matplotlib_glyph_warnings", "python plot_usage.py", "dock"),
    ("sklearn_convergence_warning", "venv/bin/python demand_model.py", "dock"),
    (
        "pylint_disable_docstrings",
        "venv/bin/pylint --disable=missing-function-docstring,missing-class-docstring dockside/fleet.py dockside/ops.py",
        "dock",
    ),
    ("pylint_reports_y", "venv/bin/pylint --reports=y dockside", "dock"),
    ("bandit_r", "venv/bin/bandit -r dockside", "dock"),
    ("nbqa_black_check_diff", "venv/bin/nbqa black --check --diff notebooks/usage.ipynb", "dock"),
    ("pip_install_r_lock_conflict", "venv/bin/pip install -r requirements-lock.txt", "dock"),
    ("venv_pip_install_e_bad_pyproject", "python -m venv .venv-agent && .venv-agent/bin/pip install -e agent", "dock"),
    # -- dockside: configs, scripts, data files
    ("bash_x_nightly", "DOCKSIDE_HOME=. bash -x deploy/nightly.sh", "dock"),
    ("shellcheck_deploy", "shellcheck deploy/nightly.sh deploy/flash_docks.sh", "dock"),
    ("yamllint_config", "yamllint config/", "dock"),
    ("jq_select_malformed", "jq -r '.[] | select(.bikes == 0) | .sid' data/stations.json", "dock"),
    ("diff_u_ini", "diff -u config/prod.ini config/staging.ini", "dock"),
    ("wc_l_rides", "wc -l data/rides/*.csv", "dock"),
    ("xargs_P4_check_days", "ls data/rides/day-00*.csv | xargs -P 4 -n 1 sh scripts/check_day.sh", "dock"),
    ("tree_L2_dirsfirst", "tree -L 2 --dirsfirst -I 'venv|rides|__pycache__'", "dock"),
    ("tar_xzf_truncated", "mkdir -p restore && tar -xzf backups/rides-2026-10.tgz -C restore; echo exit=$?", "dock"),
    ("unzip_t_bad_crc", "unzip -t exports.zip", "dock"),
    ("wget_404_loopback", f"wget http://127.0.0.1:{HTTP_PORT}/exports/rides-2026-11.csv", "dock"),
    (
        "retry_loop_curl_down",
        f'for i in 1 2 3 4; do curl -fsS -m 2 http://127.0.0.1:{REDIS_LOG_PORT + 3}/health && break; echo "attempt $i failed, retrying"; sleep 0.3; done',
        "dock",
    ),
    # -- fleet-ops: git
    ("git_status_porcelain_v2", "git status --porcelain=v2 --branch", "git/fleet-ops"),
    (
        "git_am_stale_patch",
        "git am ../patches/0001-plan-vans-carry-20-since-the-new-trailers.patch",
        "git/fleet-ops-am",
    ),
    (
        "git_log_left_right_cherry_pick",
        "git --no-pager log --left-right --cherry-pick --oneline main...ops/vans",
        "git/fleet-ops",
    ),
    # -- kiln: Java
    ("javac_xlint_all", "javac -Xlint:all -d out src/main/java/studio/kiln/*.java", "java/kiln-wip"),
    ("java_caused_by", "java -cp out studio.kiln.Main schedules/*.txt", "java/kiln"),
    ("mvn_offline_package", "mvn -o -B package", "java/kiln"),
    # -- anemo: CMake, make, ctest, binutils
    ("cmake_configure_debug", "cmake -S . -B build -DCMAKE_BUILD_TYPE=Debug", "anemo"),
    ("make_C_build", "make -C build", "anemo"),
    ("ctest_output_on_failure", "ctest --test-dir build --output-on-failure", "anemo"),
    ("ldd_anemo_cli", "ldd build/anemo_cli", "anemo"),
    ("nm_C_libanemo", "nm -C build/libanemo.a", "anemo"),
    (
        "objdump_dC_gust_head",
        "objdump -dC --no-show-raw-insn build/CMakeFiles/anemo.dir/src/gust.cpp.o | head -n 100",
        "anemo",
    ),
    ("readelf_d_anemo_cli", "readelf -d build/anemo_cli", "anemo"),
    # -- stationd: C with a plain Makefile, gdb, strace
    ("make_n_install", "make -n install DESTDIR=/tmp/pkgroot", "stationd"),
    (
        "gdb_batch_run_bt",
        "make -s && gdb -batch -ex run -ex bt --args build/stationd samples/truncated.csv",
        "stationd",
    ),
    (
        "strace_f_trace_file",
        "strace -f -e trace=file sh -c 'build/stationd samples/good.csv | sort -k3 -n'",
        "stationd",
    ),
    # -- crumb: PostgreSQL (a server the recorder started), Perl, redis
    (
        "initdb_trust_utf8",
        "runuser -u postgres -- initdb -D pgtry -U baker --auth=trust -E UTF8 --locale=C.UTF-8",
        "crumb",
    ),
    (
        "pg_ctl_start_port_taken",
        f"runuser -u postgres -- pg_ctl -D pgtry -l pgtry.log -o \"-p {PG_PORT} -c listen_addresses=127.0.0.1 -c unix_socket_directories=''\" start; echo exit=$?; cat pgtry.log",
        "crumb",
    ),
    ("psql_on_error_stop_schema", f"{PSQL} -v ON_ERROR_STOP=1 -f schema.sql", "crumb"),
    ("psql_f_load_errors", f"{PSQL} -f load.sql", "crumb"),
    ("psql_d_plus_orders", f"{PSQL} -c '\\d+ orders'", "crumb"),
    (
        "psql_explain_analyze",
        f"{PSQL} -c \"EXPLAIN ANALYZE SELECT p.name, sum(l.qty) FROM order_lines l JOIN products p ON p.sku = l.sku JOIN orders o ON o.id = l.order_id WHERE o.status = 'open' GROUP BY p.name ORDER BY 2 DESC\"",
        "crumb",
    ),
    ("pg_dump_schema_only", f"pg_dump -h 127.0.0.1 -p {PG_PORT} -U baker --schema-only crumb", "crumb"),
    ("pg_server_log_tail", "tail -n 40 pgdata/log.txt", "crumb"),
    ("perl_tally_warnings", "perl tally.pl till-2026-11-25.csv", "crumb"),
    ("redis_cli_no_raw_wrongtype", f"redis-cli -p {REDIS_PORT} --no-raw < pickups.redis", "crumb"),
    ("redis_cli_info", f"redis-cli -p {REDIS_PORT} info", "crumb"),
    (
        "redis_server_start_shutdown",
        f"redis-server --port {REDIS_LOG_PORT} --bind 127.0.0.1 --save '' --appendonly no & sleep 1; redis-cli -p {REDIS_LOG_PORT} shutdown nosave; wait",
        "crumb",
    ),
    # -- tls: openssl against a loopback s_server
    (
        "openssl_s_client_untrusted",
        f"openssl s_client -connect 127.0.0.1:{TLS_PORT} -servername pickup.crumb.test -no_ticket < /dev/null",
        "tls",
    ),
    ("openssl_req_text_csr", "openssl req -in server.csr -noout -text", "tls"),
    ("openssl_verify_hostname", "openssl verify -CAfile ca.pem -verify_hostname api.dockside.test server.pem", "tls"),
    # -- pedal: node and TypeScript
    ("node_unhandled_rejection", "node scripts/sync_docks.mjs", "pedal"),
    ("tsc_noemit_pretty_false", "npx tsc --noEmit --pretty false", "pedal"),
    # -- the machine, around the servers the recorder started
    ("ss_ltnp_ports", f"ss -ltnp '( sport = :{PG_PORT} or sport = :{REDIS_PORT} or sport = :{TLS_PORT} )'", ""),
]


def start(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        cmd, cwd=cwd, env=env or ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )


def main() -> None:
    def prepare(root: Path, only: set[str]) -> list[subprocess.Popen[bytes]]:
        crumb_dir = root / "crumb"
        loose(
            crumb_dir,
            *as_postgres("initdb", "-D", "pgdata", "-U", "baker", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"),
        )
        pg = start(as_postgres("postgres", "-D", "pgdata", "-p", str(PG_PORT), "-c", "listen_addresses=127.0.0.1",
                               "-c", "unix_socket_directories=", "-c", "logging_collector=on", "-c", "log_directory=.",
                               "-c", "log_filename=log.txt"), crumb_dir)  # fmt: skip
        (crumb_dir / "pickups.redis").write_text(P.PICKUPS_REDIS)
        background = [
            pg,
            start(
                ["redis-server", "--port", str(REDIS_PORT), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
                crumb_dir,
            ),
            start(
                [
                    str(root / "dock" / "venv" / "bin" / "flask"),
                    "--app",
                    "dockside.api",
                    "run",
                    "--port",
                    str(API_PORT),
                ],
                root / "dock",
            ),
            start(
                ["openssl", "s_server", "-accept", str(TLS_PORT), "-cert", "server.pem", "-key", "server.key", "-www"],
                root / "tls",
            ),
            CORPUS.serve(root / "dock", HTTP_PORT),
        ]
        time.sleep(2.0)
        if only and not {"cmake_configure_debug", "make_C_build"} & only:  # the build the binutils samples read
            loose(root / "anemo", "cmake", "-S", ".", "-B", "build", "-DCMAKE_BUILD_TYPE=Debug")
            loose(root / "anemo", "make", "-C", "build")
        if only and "gdb_batch_run_bt" not in only:  # its `make -s` builds what strace runs
            loose(root / "stationd", "make", "-s")
        if only:  # what the recorded schema and load would have put in the database
            psql = ["psql", "-h", "127.0.0.1", "-p", str(PG_PORT), "-U", "baker", "-d", "crumb"]
            loose(crumb_dir, "createdb", "-h", "127.0.0.1", "-p", str(PG_PORT), "-U", "baker", "crumb")
            for step in ("schema.sql", "load.sql"):
                if not {"psql_on_error_stop_schema", "psql_f_load_errors"} & only:
                    loose(crumb_dir, *psql, "-f", step)
        else:
            loose(crumb_dir, "createdb", "-h", "127.0.0.1", "-p", str(PG_PORT), "-U", "baker", "crumb")
        return background

    CORPUS.record_corpus("heldout-h-", BUILDERS, SAMPLES, prepare=prepare)


if __name__ == "__main__":
    os.umask(0o022)
    main()
