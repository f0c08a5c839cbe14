"""The team's audit log in a real PostgreSQL (Debian's server, a throwaway cluster per module): rows from several
kernel processes arrive once each, row-level security decides who reads what, and a database killed in the middle
of a run loses and duplicates nothing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.pg_cluster import Cluster, bindir, cluster
from zeph_nb import audit
from zeph_nb.cli import main as cli
from zeph_nb.config import Settings
from zeph_nb.store import team
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
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied"):  # owner is not theirs
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
    # The database as an earlier version left it: without migrations 10 and later.
    pg.sql("ALTER TABLE tool_calls DROP COLUMN runs_on_use; ALTER TABLE overflow DROP COLUMN blob; "
           "DROP TABLE memories; DROP TABLE kept_tasks; ALTER TABLE tool_calls DROP COLUMN rollback; "
           "ALTER TABLE tool_calls DROP COLUMN trust_level, DROP COLUMN result_text, DROP COLUMN claim_source, "
           "DROP COLUMN phases; "
           "DELETE FROM schema_migrations WHERE version >= 10")  # fmt: skip
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


def test_kept_tasks_ship_and_each_user_reads_only_their_own(pg: Cluster, tmp_path: Path) -> None:
    # Keeping, resuming and forgetting a task are decisions that start runs later: the team's log has them too.
    from zeph_nb.store.kept_tasks import KeptTaskRow, KeptTasks

    store = Store(settings_for(tmp_path, pg.url_as("carol"), user="carol"), flusher=False)
    rows = KeptTasks(store)
    rows.add(KeptTaskRow(id="k1234567", event="kept", user_name="carol", project="/home/carol/p", prompt="poll <b>",
                         kind="periodic", interval_secs=600.0, task_id="t1"))  # fmt: skip
    rows.add(KeptTaskRow(id="k1234567", event="forgotten", user_name="carol", project="/home/carol/p"))
    assert store.team is not None and store.team.ship() == 2
    assert pg.sql("SELECT id, event, prompt, hub_user, mac IS NOT NULL FROM kept_tasks WHERE owner = 'carol' "
                  "ORDER BY seq") == [("k1234567", "kept", "poll <b>", "carol", True),
                                      ("k1234567", "forgotten", None, "carol", True)]  # fmt: skip
    assert team.team_query(pg.url_as("bob"), "SELECT count(*) AS n FROM kept_tasks")["n"][0] == 0
    store.close()


# -- what a review of the shipper found (each failed before its fix) -----------------------------------------------


def test_a_kernels_exit_is_bounded_when_the_database_stops_answering(pg: Cluster, tmp_path: Path) -> None:
    store = Store(settings_for(tmp_path, pg.url_as("carol"), user="carol"))
    store.append("tool_calls", {"tool": "bash", "call_id": "before"})
    assert store.team is not None
    wait_for(lambda: store.team is not None and store.team.shipped_rows >= 1)
    assert store.team._con is not None
    backend = store.team._con.info.backend_pid
    os.kill(backend, signal.SIGSTOP)  # a hung host: nothing is refused, nothing answers
    try:
        store.append("tool_calls", {"tool": "bash", "call_id": "during"})
        time.sleep(1.0)  # the shipper's next round is now stuck in its statement
        finished = threading.Event()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            threading.Thread(target=lambda: (store.close(), finished.set()), daemon=True).start()
            assert finished.wait(timeout=30), "the kernel's exit waited on the team's database"
    finally:
        os.kill(backend, signal.SIGCONT)
    (spool,) = (tmp_path / "spool").glob("*.jsonl")  # kept: the next kernel on this home ships the rest
    assert not fully_shipped(spool)


def test_a_backlog_is_read_a_step_at_a_time(pg: Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(team, "BATCH_ROWS", 100)
    parsed = []
    real = team.read_step

    def counting(path: Path, offset: int) -> tuple[list[object], int]:
        records, end = real(path, offset)
        parsed.append(len(records))
        return records, end  # type: ignore[return-value]

    monkeypatch.setattr(team, "read_step", counting)
    store = Store(settings_for(tmp_path, pg.url_as("bob"), user="bob", durable="false"), flusher=False)
    for i in range(3000):
        store.append("tool_calls", {"tool": "bash", "call_id": f"backlog-{i}"})
    assert store.team is not None and store.team.ship() == 3000
    assert sum(parsed) == 3000 and max(parsed) == 100  # each row parsed once, a step held at a time
    store.close()


@pytest.mark.parametrize(
    "url",
    [
        "host=db dbname=zeph password=hunter2 application_name=http://hub",  # a :// elsewhere in key=value form
        "host=db dbname=zeph sslkey=/k/key.pem sslpassword=hunter2",  # the client key's passphrase
        "postgresql://db/zeph?sslpassword=hunter2",
        "postgresql://db/zeph?pass%77ord=hunter2",
    ],
)
def test_a_password_in_audit_url_is_refused_in_every_spelling(url: str) -> None:
    with pytest.raises(Exception, match="must not carry a password") as refused:
        Settings.from_toml(f'[store]\naudit_url = "{url}"')
    assert "hunter2" not in str(refused.value)  # the refusal does not print the password it refuses


@pytest.mark.parametrize("kind", ["PGPASSFILE", "PGSERVICEFILE", "PGSSLKEY", "passfile", "sslkey"])
def test_libpq_credential_files_named_anywhere_are_hidden(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from zeph_nb.security.env import scrub_env
    from zeph_nb.tools.containment import protected_paths

    secret = tmp_path / "team" / "credential"
    secret.parent.mkdir()
    secret.write_text("db:5432:zeph:alice:hunter2\n")
    url = "host=db dbname=zeph"
    if kind.startswith("PG"):
        monkeypatch.setenv(kind, str(secret))
        assert kind not in scrub_env({kind: str(secret)})  # commands are not told where it is either
    else:
        url += f" {kind}={secret}"
    settings = Settings.from_toml(f'[store]\naudit_url = "{url}"').model_copy(update={"home": tmp_path / "zeph"})
    (tmp_path / "notebooks").mkdir()
    assert protected_paths(settings, tmp_path / "notebooks").hidden_by(secret.resolve()) is not None


def test_a_row_the_database_refuses_is_set_aside_and_the_rows_after_it_ship(pg: Cluster, tmp_path: Path) -> None:
    store = Store(settings_for(tmp_path, pg.url_as("bob"), user="bob"), flusher=False)
    store.append("tool_calls", {"tool": "bash", "call_id": "refused", "attempts": True})  # DuckDB takes a bool here
    store.append("tool_calls", {"tool": "bash", "call_id": "after-refused"})
    assert store.team is not None
    with pytest.warns(UserWarning, match="refused a tool_calls row"):
        store.team.ship()
    assert pg.sql("SELECT count(*) FROM tool_calls WHERE owner = 'bob' AND call_id = 'after-refused'") == [(1,)]
    (rejected,) = tmp_path.joinpath("spool").glob("*.rejected")
    assert '"call_id": "refused"' in rejected.read_text()
    store.flush()
    store.close()
    assert not list(tmp_path.joinpath("spool").glob("*.jsonl"))  # the spool is done with, not stuck


def test_audit_sql_only_reads(pg: Cluster, tmp_path: Path) -> None:
    settings = settings_for(tmp_path, pg.url_as("alice"))
    with pytest.raises(Exception, match=r"multiple commands|cannot insert multiple"):
        audit.sql("COMMIT; INSERT INTO tool_calls (tool, spool, seq) VALUES ('forged', 'f', 1)", settings=settings)
    with pytest.raises(Exception, match="read-only"):
        audit.sql("INSERT INTO tool_calls (tool, spool, seq) VALUES ('forged', 'f', 1)", settings=settings)
    assert pg.sql("SELECT count(*) FROM tool_calls WHERE tool = 'forged'") == [(0,)]


def test_rows_are_the_login_roles_and_their_arrival_the_databases(pg: Cluster) -> None:
    import psycopg

    with psycopg.connect(pg.url_as("alice"), autocommit=True) as con:
        con.execute("SET ROLE zeph_writer")  # the group role: its rows would be every writer's to read
        con.execute("INSERT INTO tool_calls (tool, spool, seq) VALUES ('alice-private', 'g', 1)")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            con.execute(
                "INSERT INTO tool_calls (tool, spool, seq, shipped_at) VALUES ('backdated', 'b', 1, '2001-01-01')"
            )
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            con.execute("INSERT INTO tool_calls (tool, spool, seq, owner) VALUES ('forged', 'o', 1, 'alice')")
    assert pg.sql("SELECT owner FROM tool_calls WHERE tool = 'alice-private'") == [("alice",)]
    with psycopg.connect(pg.url_as("bob"), autocommit=True) as con:
        con.execute("SET ROLE zeph_writer")
        assert con.execute("SELECT count(*) FROM tool_calls WHERE tool = 'alice-private'").fetchone() == (0,)


def test_a_password_in_an_approval_request_stays_out_of_the_teams_log(pg: Cluster, tmp_path: Path) -> None:
    from datetime import UTC, datetime, timedelta

    from zeph_nb.store.approvals import ApprovalRows, RequestRow

    store = Store(settings_for(tmp_path, pg.url_as("alice")), flusher=False)
    command = "mysql -u root -p'Tr0ub4dor&3x!' prod -e 'select 1'"
    ApprovalRows(store).request(RequestRow(
        id="inbox-pw", conversation_id="conv", call_id="call-pw", tool="bash", summary=f"bash: {command}",
        params={"command": command}, subjects=[command], rule="gates.permissions.bash[0]", reason="asks",
        requester="alice", expires_at=datetime.now(UTC) + timedelta(minutes=5),
    ))  # fmt: skip
    assert store.team is not None and store.team.ship() == 1
    (shipped,) = pg.sql("SELECT summary || params || subjects FROM approvals WHERE id = 'inbox-pw'")
    assert "Tr0ub4dor" not in str(shipped) and "mysql -u root" in str(shipped)
    store.close()


@pytest.mark.parametrize(
    ("role", "said"),
    [
        ("nobody_here", "there is no database role 'nobody_here': the administrator creates it"),
        ("ungranted", "may not write the team's tables: the administrator runs `zeph-nb team-db grant"),
    ],
)
def test_a_refused_login_says_what_to_do_not_to_wait(pg: Cluster, tmp_path: Path, role: str, said: str) -> None:
    from zeph_nb.store import AuditLog, AuditRecord

    if role == "ungranted":
        pg.sql("DROP ROLE IF EXISTS ungranted")
        pg.sql("CREATE ROLE ungranted LOGIN")
    store = Store(settings_for(tmp_path, pg.url_as(role), user=role))
    AuditLog(store).record(AuditRecord(tool="bash", params={"command": "ls"}, call_id="x", decision="allow"))
    assert store.team is not None
    with pytest.raises(TeamUnavailable, match="refuses this kernel") as refused, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the same line, said once as a warning
        store.team.ship()
    assert said in str(refused.value) and "shipped once it is done" in str(refused.value)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        store.close()
