"""The team's audit log in a real PostgreSQL (Debian's server, a throwaway cluster per module): rows from several
kernel processes arrive once each, row-level security decides who reads what, and a database killed in the middle
of a run loses and duplicates nothing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.pg_cluster import Cluster, bindir, cluster
from zeph_nb import audit
from zeph_nb.cli import main as cli
from zeph_nb.config import Settings
from zeph_nb.store.store import Store
from zeph_nb.store.team import TeamUnavailable, fully_shipped

pytestmark = pytest.mark.skipif(
    bindir() is None and not os.environ.get("CI"), reason="PostgreSQL is not installed (.ci/run installs it)"
)
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def pg() -> Iterator[Cluster]:
    with cluster() as server:
        assert cli(["team-db", "setup", "--url", server.url]) == 0
        for role in ("alice", "bob", "carol", "rev"):
            server.sql(f"CREATE ROLE {role} LOGIN")
        for role in ("alice", "bob", "carol"):
            assert cli(["team-db", "grant", role, "--url", server.url]) == 0
        assert cli(["team-db", "grant", "rev", "--reviewer", "--url", server.url]) == 0
        yield server


def settings_for(home: Path, url: str, user: str = "alice", **store: object) -> Settings:
    lines = [f'audit_url = "{url}"', "ship_interval_ms = 50", *(f"{k} = {v}" for k, v in store.items())]
    base = Settings.from_toml("[store]\n" + "\n".join(lines))
    return base.model_copy(update={"home": home, "user": user, "server_name": "gpu"})


def count(pg: Cluster, where: str = "true") -> tuple[int, int]:
    (total, distinct), *_ = pg.sql(
        f"SELECT count(*), count(DISTINCT (owner, spool, seq)) FROM tool_calls WHERE {where}"  # noqa: S608
    )
    return int(total), int(distinct)  # type: ignore[call-overload]


def wait_for(condition: object, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.05)


WRITER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from zeph_nb.config import Settings
    from zeph_nb.store import AuditLog, AuditRecord, Store

    home, url, user, calls, pause = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
    settings = Settings.from_toml(f'[store]\\naudit_url = "{url}"\\nship_interval_ms = 50')
    store = Store(settings.model_copy(update={"home": Path(home), "user": user}))
    log = AuditLog(store)
    for i in range(calls):
        log.record(AuditRecord(tool="bash", params={"command": f"echo {i}"}, call_id=f"{user}-{i}", decision="allow"))
        if i == 0:
            print("started", flush=True)
        time.sleep(pause)
    store.close()
    print("done", flush=True)
    """
)


def writer(home: Path, url: str, user: str, calls: int, pause: float = 0.0) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, str(home), url, user, str(calls), str(pause)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def test_rows_from_two_kernels_arrive_once_each_and_each_role_reads_its_own(pg: Cluster, tmp_path: Path) -> None:
    kernels = [
        writer(tmp_path / "a", pg.url_as("alice"), "alice", 300),
        writer(tmp_path / "b", pg.url_as("bob"), "bob", 200),
    ]
    for kernel in kernels:
        _, err = kernel.communicate(timeout=120)
        assert kernel.returncode == 0, err
    assert count(pg, "owner = 'alice'") == (300, 300)
    assert count(pg, "owner = 'bob'") == (200, 200)
    # Each kernel's spool is gone once both the local cache and the team have every row.
    assert not list((tmp_path / "a" / "spool").glob("*.jsonl"))

    alice = settings_for(tmp_path / "a", pg.url_as("alice"))
    mine = audit.frame(limit=None, settings=alice)
    assert len(mine) == 300 and set(mine["owner"]) == {"alice"} and set(mine["hub_user"]) == {"alice"}
    assert audit.count(settings=alice, tool="bash") == 300
    review = audit.sql(
        "SELECT owner, count(*) AS n FROM tool_calls WHERE owner IN ('alice', 'bob') GROUP BY owner ORDER BY owner",
        settings=settings_for(tmp_path / "r", pg.url_as("rev"), user="rev"),
    )
    assert review.to_dict("records") == [{"owner": "alice", "n": 300}, {"owner": "bob", "n": 200}]
    # The local cache still answers, offline, for this kernel's own rows.
    assert len(audit.frame(limit=None, settings=alice, team=False)) == 300


def test_a_user_cannot_write_in_anothers_name_nor_change_the_log(pg: Cluster) -> None:
    import psycopg

    with psycopg.connect(pg.url_as("bob"), autocommit=True) as con:
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
            con.execute("INSERT INTO tool_calls (owner, tool, spool, seq) VALUES ('alice', 'bash', 'forged', 1)")
        for statement in ("UPDATE tool_calls SET tool = 'x'", "DELETE FROM tool_calls", "TRUNCATE tool_calls"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                con.execute(statement)
        assert con.execute("SELECT count(*) FROM tool_calls WHERE owner <> 'bob'").fetchone() == (0,)


def test_a_database_killed_mid_run_loses_nothing_and_duplicates_nothing(pg: Cluster, tmp_path: Path) -> None:
    calls = 1500
    kernel = writer(tmp_path / "k", pg.url_as("carol"), "carol", calls, pause=0.002)
    assert kernel.stdout is not None and kernel.stdout.readline().strip() == "started"
    wait_for(lambda: count(pg, "owner = 'carol'")[0] > 100)
    pg.kill()  # SIGKILL to the server and every backend, in the middle of shipping
    time.sleep(1.0)  # the kernel goes on recording; its rows wait in the spool
    pg.restart_after_kill()
    _, err = kernel.communicate(timeout=180)
    assert kernel.returncode == 0, err
    wait_for(lambda: count(pg, "owner = 'carol'")[0] >= calls, timeout=60)
    assert count(pg, "owner = 'carol'") == (calls, calls)
    assert "unavailable" in err  # the person was told, once, that rows were waiting


def test_a_kernel_killed_before_shipping_is_shipped_by_the_next(pg: Cluster, tmp_path: Path) -> None:
    home = tmp_path / "home"
    pg.sql("ALTER ROLE alice NOLOGIN")  # the database refuses this kernel for now
    try:
        kernel = writer(home, pg.url_as("alice"), "alice", 100_000, pause=0.001)
        assert kernel.stdout is not None and kernel.stdout.readline().strip() == "started"
        time.sleep(0.5)
        kernel.send_signal(signal.SIGKILL)
        kernel.wait(timeout=30)
    finally:
        pg.sql("ALTER ROLE alice LOGIN")
    (spool,) = (home / "spool").glob("*.jsonl")
    written = sum(1 for _ in spool.open("rb"))
    assert written > 0 and not fully_shipped(spool)
    before = count(pg, "owner = 'alice'")[0]
    # Another process on the same home, with no team configured, flushes into DuckDB and must keep the spool.
    Store(Settings().model_copy(update={"home": home})).flush()
    assert spool.exists()
    nxt = Store(settings_for(home, pg.url_as("alice")))
    assert nxt.team is not None and nxt.team.ship() == written
    assert count(pg, "owner = 'alice'") == (before + written, before + written)
    nxt.flush()
    assert not spool.exists()
    nxt.close()


def test_rows_wait_while_the_schema_is_older_and_hostile_text_ships(pg: Cluster, tmp_path: Path) -> None:
    # The database as the previous version left it: without migration 10.
    pg.sql("ALTER TABLE tool_calls DROP COLUMN runs_on_use; DELETE FROM schema_migrations WHERE version = 10")
    store = Store(settings_for(tmp_path, pg.url_as("bob")), flusher=False)
    store.append(
        "tool_calls", {"tool": "bash", "params": '{"command": "printf \'\\x00\'"}', "call_id": "nul\x00\ud800"}
    )
    try:
        with warnings.catch_warnings(), pytest.raises(TeamUnavailable, match="zeph-nb team-db setup"):
            warnings.simplefilter("ignore")
            assert store.team is not None
            store.team.ship()
    finally:
        assert cli(["team-db", "setup", "--url", pg.url]) == 0
    with pytest.warns(UserWarning, match="is back"):
        assert store.team.ship() == 1
    (call_id,), *_ = pg.sql("SELECT call_id FROM tool_calls WHERE owner = 'bob' AND call_id LIKE 'nul%'")
    assert call_id == "nul\\x00\\ud800"
    store.close()


def test_a_password_in_audit_url_is_refused() -> None:
    with pytest.raises(Exception, match=r"must not carry a password.*pgpass"):
        Settings.from_toml('[store]\naudit_url = "postgresql://alice:hunter2@db/zeph"')


def test_grants_and_approvals_ship_too_and_status_says_where_rows_go(pg: Cluster, tmp_path: Path) -> None:
    store = Store(settings_for(tmp_path, pg.url_as("carol"), user="carol"), flusher=False)
    store.append_signed("permission_rules", {"id": "g1", "tool": "bash", "pattern": "git *", "action": "allow",
                                             "granted_by": "carol"}, ["tool", "pattern", "action"])  # fmt: skip
    store.append("approvals", {"id": "a1", "event": "request", "tool": "bash", "summary": "git push"})
    assert store.team is not None
    assert "on their way" in store.team.describe()
    assert store.team.ship() == 2
    assert "2 rows shipped by this kernel, up to date" in store.team.describe()
    assert pg.sql("SELECT pattern, granted_by, mac IS NOT NULL FROM permission_rules WHERE owner = 'carol'") == [
        ("git *", "carol", True)
    ]
    assert pg.sql("SELECT summary, hub_user, server_name FROM approvals WHERE owner = 'carol'") == [
        ("git push", "carol", "gpu")
    ]
    store.close()
