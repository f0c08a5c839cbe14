"""The team on a real JupyterHub: deploy/jupyterhub_config.py loaded into JupyterHub with configurable-http-proxy,
two users (ann, ben) and a reviewer (rita) on DummyAuthenticator and SimpleLocalProcessSpawner, a real PostgreSQL,
and Chromium for the reviewer.

ann's agent runs in her own server's kernel under the managed file, whose policy says reviewers decide; her run
names AutoApprove, which answers nothing here. rita logs in, sees ann's request on the service page and approves
it; ann's run goes on and says who approved. ben cannot open ann's request (403), cannot answer his own, neither on
the service nor on his own server's dashboard; rita denies it. Both users' calls are in PostgreSQL and on rita's
page.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.e2e_support import ARTIFACTS, CHROMIUM
from tests.hub_harness import Hub, free_port, hub_available
from tests.pg_cluster import Cluster, bindir, cluster
from zeph_nb.cli import main as cli
from zeph_nb.hub.desk import ReviewDesk
from zeph_nb.security.review_signature import ReviewSigner, generate_key

ROOT = Path(__file__).resolve().parents[2]
IN_CI = bool(os.environ.get("CI"))
pytestmark = [
    pytest.mark.skipif(not IN_CI and (bindir() is None or not CHROMIUM.exists() or not hub_available()),
                       reason="needs PostgreSQL, Chromium and configurable-http-proxy (make test, .ci/run)"),
    # Users' servers run as the test's own user here (SimpleLocalProcessSpawner), and zeph-nb rightly refuses a
    # managed file its user owns: making it another user's takes root. (Run as an ordinary user, the managed file
    # stopped every kernel's settings from loading, as it should; tests/hub's other tests pass as one.)
    pytest.mark.skipif(os.geteuid() != 0, reason="the managed file must belong to another user than the servers' "
                       "(root gives it away; CI runs as root)"),
]  # fmt: skip

# ann's run: one shell command, which the managed file makes ask; AutoApprove is what a user might try.
RUN = """
import zeph_nb
model = zeph_nb.ScriptedProvider([[{{"tool": "bash", "params": {{"command": "echo {marker}"}}}}], "Done."])
agent = zeph_nb.Agent(provider=model, approver=zeph_nb.AutoApprove())
result = await agent.run("run it")
for call in result.tool_calls:
    print("CALL", call.status, "|", call.approved_by, "|", call.text.strip()[:200])
"""


@dataclass
class Team:
    hub: Hub
    pg: Cluster
    desk: ReviewDesk
    service: str  # the service's page, under the hub's public URL


def managed_file(path: Path, pg: Cluster, public_key: str) -> Path:
    # audit_url names no user: each kernel logs in as PGUSER, which the deploy config sets to the hub user.
    path.write_text(
        "[store]\n"
        f'audit_url = "host={pg.socket_dir} dbname=zeph"\n'
        "ship_interval_ms = 200\n"
        "[gates.approval]\n"
        'decided_by = "reviewers"\n'
        f'review_key = "{public_key}"\n'
        "timeout_secs = 240\n"
        "shell_confirm = true\n"
    )
    path.chmod(0o644)
    return path


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Team]:
    base = tmp_path_factory.mktemp("team-hub")
    with cluster() as pg:
        assert cli(["team-db", "setup", "--url", pg.url]) == 0
        for role in ("ann", "ben", "rita", "zeph_hub_service"):
            pg.sql(f"CREATE ROLE {role} LOGIN")
        for role in ("ann", "ben", "rita"):
            assert cli(["team-db", "grant", role, "--url", pg.url]) == 0
        assert cli(["team-db", "grant", "zeph_hub_service", "--hub", "--url", pg.url]) == 0
        key = base / "hub-secrets" / "review.key"
        public = generate_key(key)
        managed = managed_file(base / "managed.toml", pg, public)
        env = {
            "ZEPH_HUB_DB_URL": pg.url_as("zeph_hub_service"),
            "ZEPH_HUB_SIGNING_KEY": str(key),
            "ZEPH_MANAGED_SETTINGS": str(managed),
            "ZEPH_REVIEWERS": "rita",
            "ZEPH_HUB_SERVICE_URL": f"http://127.0.0.1:{free_port()}",
        }
        config = f"load_subconfig({str(ROOT / 'deploy' / 'jupyterhub_config.py')!r})\n"
        with Hub(base, extra_config=config, env=env) as hub:
            desk = ReviewDesk(pg.url_as("zeph_hub_service"), ReviewSigner(key))
            yield Team(hub, pg, desk, hub.url.rstrip("/") + "/services/zeph_nb_hub/")


def waiting_request(team: Team, owner: str, timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        found = team.desk.requests(owner=owner)
        if found:
            return found[0]
        assert time.monotonic() < deadline, f"no request of {owner} reached the team database"
        time.sleep(0.2)


def test_a_reviewer_approves_a_users_request_from_the_service_page(team: Team, browser: Any) -> None:
    hub = team.hub
    hub.spawn("ann")
    run = hub.start_in_kernel("ann", RUN.format(marker="ran-after-rita-said-yes"))
    request = waiting_request(team, "ann")
    assert request.tool == "bash" and "ran-after-rita-said-yes" in request.summary

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    hub.login(page, "rita")
    page.goto(team.service)  # the hub's OAuth: no authorize page (oauth_no_confirm), straight to the service
    row = page.locator(f'tr[data-request="ann/{request.id}"]')
    row.wait_for(timeout=30_000)
    assert "rita" in page.locator("header .who").inner_text() and "reviewer" in page.locator("header").inner_text()
    page.screenshot(path=str(ARTIFACTS / "hub-team-page.png"), full_page=True)
    # Nothing is cut at 1280 px: the page is no wider than the window.
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280

    row.get_by_role("link", name="Review").click()
    page.get_by_role("button", name="Approve").wait_for()
    assert "ran-after-rita-said-yes" in page.locator("dl.request").inner_text()
    page.screenshot(path=str(ARTIFACTS / "hub-request-page.png"), full_page=True)
    page.get_by_role("button", name="Approve").click()
    page.locator(".notice").wait_for()

    reply = run.wait(timeout=120)
    assert reply.status == "ok", reply.error
    assert "CALL ok | rita (reviewer, on the hub) | ran-after-rita-said-yes" in reply.stdout

    # The run's closing row reaches the database and the page: approved, by rita.
    deadline = time.monotonic() + 30
    while team.desk.request("ann", request.id).state != "approved":  # type: ignore[union-attr]
        assert time.monotonic() < deadline, "the run's outcome did not reach the team database"
        time.sleep(0.2)
    page.reload()
    assert page.locator("#state").inner_text() == "approved"
    page.screenshot(path=str(ARTIFACTS / "hub-request-approved.png"), full_page=True)
    page.close()


def test_a_user_cannot_open_anothers_request_nor_answer_their_own(team: Team, browser: Any) -> None:
    hub = team.hub
    ann = waiting_or_done(team, "ann")
    hub.spawn("ben")
    # What a model writes is hostile on the reviewer's page too: this one would run script if it were not escaped.
    run = hub.start_in_kernel("ben", RUN.format(marker="ben-waits '<img src=x onerror=window.__pwned=1>'"))
    mine = waiting_request(team, "ben")
    ben = hub.token_for("ben")
    api = team.service + "api/requests/"

    import httpx

    with httpx.Client(headers={"Authorization": f"token {ben}"}, timeout=30) as client:
        assert client.get(f"{api}ann/{ann}").status_code == 403
        assert client.post(f"{api}ann/{ann}", json={"answer": "approve"}).status_code == 403
        own = client.get(f"{api}ben/{mine.id}")
        assert own.status_code == 200 and own.json()["may_answer"] is False
        refused = client.post(f"{api}ben/{mine.id}", json={"answer": "approve"})
        assert refused.status_code == 403 and "reviewers" in refused.json()["error"]
        listed = client.get(api.rstrip("/")).json()["items"]
        assert {item["owner"] for item in listed} == {"ben"}
        # ben's own server's dashboard: the managed policy says reviewers decide, so it refuses too.
        local = client.post(f"{hub.url.rstrip('/')}/user/ben/zeph/api/approvals/{mine.id}", json={"answer": "approve"})
        assert local.status_code == 403, local.text

    rita = hub.token_for("rita")
    with httpx.Client(headers={"Authorization": f"token {rita}"}, timeout=30) as client:
        answered = client.post(f"{api}ben/{mine.id}", json={"answer": "deny", "note": "not on a Friday"})
        assert answered.status_code == 200, answered.text
        again = client.post(f"{api}ben/{mine.id}", json={"answer": "approve"})
        assert again.status_code == 409

    reply = run.wait(timeout=120)
    assert reply.status == "ok", reply.error
    assert "CALL denied | rita (reviewer, on the hub)" in reply.stdout

    # Both users' calls are in PostgreSQL, under their own roles, and on the reviewer's page.
    deadline = time.monotonic() + 30  # ben's row is shipped within ship_interval_ms of the call
    while not {"ann", "ben"} <= {row[0] for row in team.pg.sql("SELECT DISTINCT owner FROM tool_calls")}:
        assert time.monotonic() < deadline, "a user's calls did not reach the team database"
        time.sleep(0.2)
    # ben's own server's dashboard works on the hub (a JupyterHub single-user server wants the XSRF token on every
    # fetch, GETs included), and shows his own calls.
    mine_page = browser.new_page(viewport={"width": 1280, "height": 900})
    hub.login(mine_page, "ben", next_url="/hub/home")
    mine_page.goto(f"{hub.url}user/ben/zeph/")
    mine_page.wait_for_function("document.getElementById('live').textContent.startsWith('updated')", timeout=30_000)
    assert mine_page.locator("#error").is_hidden()
    mine_page.close()

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    hub.login(page, "rita")
    page.goto(team.service + "?attention=1")
    calls = page.locator("table.calls tbody")
    calls.wait_for()
    text = calls.inner_text()
    assert "ann" in text and "ben" in text
    assert "<img src=x onerror=window.__pwned=1>" in page.locator("main").inner_text()  # shown as text
    assert page.evaluate("window.__pwned") is None
    page.screenshot(path=str(ARTIFACTS / "hub-team-calls.png"), full_page=True)
    page.close()


def waiting_or_done(team: Team, owner: str) -> str:
    found = team.desk.requests(owner=owner, waiting=False)
    assert found, f"{owner} has no request"
    return found[0].id


def test_a_reviewer_does_not_answer_their_own_request(team: Team) -> None:
    import httpx

    hub = team.hub
    hub.spawn("rita")
    run = hub.start_in_kernel("rita", RUN.format(marker="rita-asks-too"))
    mine = waiting_request(team, "rita")
    rita = hub.token_for("rita")
    url = f"{team.service}api/requests/rita/{mine.id}"
    with httpx.Client(headers={"Authorization": f"token {rita}"}, timeout=30) as client:
        assert client.get(url).json()["may_answer"] is False
        refused = client.post(url, json={"answer": "approve"})
        assert refused.status_code == 403 and "their own" in refused.json()["error"]
        # A token without the review scope is a plain user's, whoever holds it: their own requests only.
        narrow = hub.token_for("rita", scopes=["access:services!service=zeph_nb_hub"])
        listed = client.get(f"{team.service}api/requests", headers={"Authorization": f"token {narrow}"})
        assert {item["owner"] for item in listed.json()["items"]} == {"rita"}
    team.desk.answer(mine, "deny", reviewer="dan", note="no")  # another reviewer, through the desk
    reply = run.wait(timeout=120)
    assert reply.status == "ok" and "CALL denied | dan (reviewer, on the hub)" in reply.stdout, reply


def test_the_service_says_when_the_database_is_down_and_recovers(team: Team) -> None:
    import httpx

    rita = team.hub.token_for("rita")
    url = f"{team.service}api/requests"
    with httpx.Client(headers={"Authorization": f"token {rita}"}, timeout=30) as client:
        assert client.get(url).status_code == 200
        team.pg.kill()
        try:
            down = client.get(url)
            assert down.status_code == 503 and "unreachable" in down.json()["error"], down.text
            page = client.get(team.service)
            assert page.status_code == 503 and "Traceback" not in page.text and "reload in a moment" in page.text
        finally:
            team.pg.restart_after_kill()
        assert client.get(url).status_code == 200
