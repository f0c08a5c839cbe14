"""The REST API and dashboard page in a real `jupyter server` process: authentication, filters, paging, exports,
overflow, and the approval inbox."""

from __future__ import annotations

import io
import json
import os
import re
import secrets
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from zeph_nb.config import Settings
from zeph_nb.store import AuditLog, AuditRecord, Store


@dataclass
class Server:
    url: str
    token: str
    overflow_id: str
    home: Path


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, running_jupyter: Any) -> Iterator[Server]:
    base = tmp_path_factory.mktemp("server")
    home = base / "zeph-home"
    store = Store(Settings().model_copy(update={"home": home}), flusher=False)
    log = AuditLog(store)
    for i in range(25):
        log.record(AuditRecord(tool="bash" if i % 2 else "read", params={"i": i}, call_id=f"c{i}",
                               conversation_id="conv-a" if i < 20 else "conv-b",
                               status="error" if i % 5 == 0 else "ok",
                               error_category="permanent_failure" if i % 5 == 0 else None, duration_ms=10.0 * i,
                               tokens_saved=i))  # fmt: skip
    overflow_id = store.put_overflow("conv-a", "the full, long output", tool="bash", call_id="c1")
    store.flush()
    store.spool.close(remove=True)
    with running_jupyter("server", base=base, zeph_home=home, cwd=base, args=[f"--ServerApp.root_dir={base}"]) as jp:
        yield Server(jp.url, jp.token, overflow_id, home)


def get(
    server: Server,
    path: str,
    *,
    token: bool = True,
    method: str = "GET",
    body: bytes | None = None,
    prefix: str = "api/",
) -> tuple[int, bytes, dict[str, str]]:
    headers = {"Authorization": f"token {server.token}"} if token else {}
    url = f"{server.url}/zeph/{prefix}{path}"
    request = urllib.request.Request(url, headers=headers, method=method, data=body)  # noqa: S310 - loopback
    try:
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 - loopback
            return response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read(), dict(error.headers)


def get_json(server: Server, path: str) -> Any:
    status, body, _ = get(server, path)
    assert status == 200, body
    return json.loads(body)


def test_requests_without_the_token_are_refused(server: Server) -> None:
    for path in ["audit", "audit/aggregates", "audit.csv", f"overflow/{server.overflow_id}?conversation=conv-a",
                 "dashboard"]:  # fmt: skip
        status, _, _ = get(server, path, token=False)
        assert status in (401, 403), path


def test_rows_filters_and_paging(server: Server) -> None:
    page = get_json(server, "audit?limit=10")
    assert (page["total"], len(page["rows"]), page["rows"][0]["call_id"]) == (25, 10, "c24")  # newest first
    second = get_json(server, "audit?limit=10&offset=10")
    assert second["rows"][0]["call_id"] == "c14"
    errors = get_json(server, "audit?status=error&tool=read&conversation=conv-a")
    assert {row["call_id"] for row in errors["rows"]} == {"c0", "c10"} and errors["total"] == 2
    assert get_json(server, "audit?since=2099-01-01T00:00")["total"] == 0
    # Each row says what it was about, summarized the way the notebook's cards title it.
    assert [row["what"] for row in get_json(server, "audit?limit=1&offset=24")["rows"]] == ['{"i": 0}']
    newest = get_json(server, "audit?limit=1")["rows"][0]
    assert newest["what"] == '{"i": 24}'


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("audit?limit=lots", "limit='lots' must be a whole number"),
        ("audit?limit=0", "limit must be between 1"),
        ("audit?since=yesterday", "is not an ISO 8601 time"),
        ("audit?colour=red", "unknown parameter(s) colour"),
        (f"overflow/overflow:{'0' * 8}-0000-0000-0000-{'0' * 12}", "conversation=<id> is required"),
    ],
)
def test_bad_parameters_are_clear_400s(server: Server, path: str, message: str) -> None:
    status, body, _ = get(server, path)
    assert status == 400 and message in json.loads(body)["message"]


def test_aggregates(server: Server) -> None:
    data = get_json(server, "audit/aggregates")
    tools = {row["tool"]: row for row in data["by_tool"]}
    assert (tools["read"]["calls"], tools["read"]["errors"], tools["bash"]["errors"]) == (13, 3, 2)
    assert tools["read"]["cancelled"] == 0  # stopped calls have a count (and a colour) of their own
    assert {row["category"]: row["calls"] for row in data["by_category"]} == {"none": 20, "permanent_failure": 5}


def test_the_dashboards_read_is_the_other_endpoints_in_one(server: Server, inbox: Any) -> None:
    inbox_id = post_request(inbox, "make all")
    data = get_json(server, "dashboard?tool=bash&limit=5&offset=5")
    assert data["audit"] == get_json(server, "audit?tool=bash&limit=5&offset=5")
    assert data["aggregates"] == get_json(server, "audit/aggregates?tool=bash")
    assert inbox_id in {item["id"] for item in data["approvals"]["pending"]}
    assert inbox_id in {item["id"] for item in data["approvals"]["recent"]}
    from zeph_nb.security.os_sandbox import probe

    here = probe("auto")
    assert data["sandbox"] == {"active": here.active, "kind": here.kind, "description": here.describe(),
                               "cause": here.cause, "reason": here.reason, "fix": here.fix}  # fmt: skip
    status, body, _ = get(server, "dashboard?limit=0")
    assert status == 400 and "limit must be between" in json.loads(body)["message"]


def test_csv_and_parquet_exports(server: Server) -> None:
    import pandas as pd

    status, body, headers = get(server, "audit.csv?tool=bash")
    assert status == 200 and headers["Content-Type"].startswith("text/csv")
    frame = pd.read_csv(io.BytesIO(body))
    assert len(frame) == 12 and set(frame["tool"]) == {"bash"}
    status, body, _ = get(server, "audit.parquet")
    assert status == 200 and body[:4] == b"PAR1"
    import duckdb

    path = Path(os.environ.get("TMPDIR", "/tmp")) / f"zeph-{secrets.token_hex(4)}.parquet"
    path.write_bytes(body)
    try:
        assert duckdb.sql(f"SELECT count(*) FROM '{path}'").fetchall()[0][0] == 25  # noqa: S608 - our temp file
    finally:
        path.unlink()


def test_overflow_only_within_its_conversation(server: Server) -> None:
    uuid = server.overflow_id.removeprefix("overflow:")
    status, body, _ = get(server, f"overflow/overflow:{uuid}?conversation=conv-a")
    assert (status, body) == (200, b"the full, long output")
    status, _, _ = get(server, f"overflow/overflow:{uuid}?conversation=conv-b")
    assert status == 404


def test_an_overflow_whose_file_was_changed_on_disk_is_refused_with_why(server: Server) -> None:
    store = Store(Settings().model_copy(update={"home": server.home}))
    try:
        overflow_id = store.put_overflow("conv-a", "what the command printed", tool="bash", call_id="c2")
        store.flush()
        blob = store.blobs_dir / overflow_id.removeprefix("overflow:")
    finally:
        store.close()
    blob.write_text("something else entirely")
    status, body, _ = get(server, f"overflow/{overflow_id}?conversation=conv-a")
    assert status == 410 and b"changed after it was stored" in body and b"something else" not in body
    blob.unlink()
    status, body, _ = get(server, f"overflow/{overflow_id}?conversation=conv-a")
    assert status == 410 and b"is missing" in body


# -- the approval inbox -------------------------------------------------------------------------------------------


@pytest.fixture
def inbox(server: Server) -> Iterator[Any]:
    """The run's side of the inbox (this process plays the waiting kernel: its pid is alive)."""
    from zeph_nb.gates.approval.inbox import Inbox

    store = Store(Settings().model_copy(update={"home": server.home}))
    yield Inbox(store)
    store.close()


def post_request(inbox: Any, command: str) -> str:
    from datetime import timedelta

    from zeph_nb.gates.approval import ApprovalRequest
    from zeph_nb.store.store import utc_now

    request = ApprovalRequest("call-x", "bash", {"command": command}, (command,), "rule", "why", conversation_id="c")
    return str(inbox.post(request, requester="nightly-job", expires_at=utc_now() + timedelta(minutes=5)))


def answer(server: Server, inbox_id: str, body: object, *, token: bool = True) -> tuple[int, Any]:
    status, data, _ = get(server, f"approvals/{inbox_id}", method="POST", body=json.dumps(body).encode(), token=token)
    return status, json.loads(data) if data.startswith(b"{") else data


def test_pending_requests_are_listed_and_an_answer_names_who_gave_it(server: Server, inbox: Any) -> None:
    inbox_id = post_request(inbox, "make deploy")
    pending = get_json(server, "approvals")["items"]
    mine = next(item for item in pending if item["id"] == inbox_id)
    assert (mine["state"], mine["summary"], mine["requester"]) == ("pending", "bash: make deploy", "nightly-job")
    assert mine["expires_at"].endswith("Z") and mine["params"] == {"command": "make deploy"}
    status, item = answer(server, inbox_id, {"answer": "deny", "note": "not on a Friday"})
    assert status == 200 and (item["state"], item["answer"], item["note"]) == ("answered", "deny", "not on a Friday")
    # A token-only server has no user names: the record names whoever runs the server, and the browser's alias.
    assert item["answered_by"].startswith(f"{Settings().user} (Anonymous ") and item["answered_by"].endswith(", token)")
    assert inbox.first_answer(inbox_id) == ("deny", item["answered_by"], "not on a Friday")
    assert inbox_id not in {item["id"] for item in get_json(server, "approvals")["items"]}
    assert inbox_id in {item["id"] for item in get_json(server, "approvals?state=all")["items"]}
    assert get_json(server, f"approvals/{inbox_id}")["state"] == "answered"


def test_a_second_answer_is_a_409_and_an_unknown_id_a_404(server: Server, inbox: Any) -> None:
    inbox_id = post_request(inbox, "make release")
    assert answer(server, inbox_id, {"answer": "approve"})[0] == 200
    status, body = answer(server, inbox_id, {"answer": "deny"})
    assert status == 409 and "is answered by" in body["message"]
    assert answer(server, "0" * 32, {"answer": "approve"})[0] == 404
    assert get(server, f"approvals/{'0' * 32}")[0] == 404


@pytest.mark.parametrize(
    "body",
    [
        {"answer": "yes"},
        {},
        ["approve"],
        {"answer": "approve", "colour": "red"},
        {"answer": "deny", "note": 3},
        {"answer": "deny", "note": "x" * 2001},
    ],
)
def test_a_bad_answer_is_a_400_that_says_what_to_send(server: Server, inbox: Any, body: object) -> None:
    inbox_id = post_request(inbox, "make bad")
    status, data = answer(server, inbox_id, body)
    assert status == 400 and ('"answer"' in data["message"] or '"note"' in data["message"])
    assert get_json(server, f"approvals/{inbox_id}")["state"] == "pending"  # nothing was recorded


def test_the_inbox_and_the_page_need_the_token(server: Server, inbox: Any) -> None:
    inbox_id = post_request(inbox, "make secret")
    assert get(server, "approvals", token=False)[0] in (401, 403)
    assert answer(server, inbox_id, {"answer": "approve"}, token=False)[0] in (401, 403)
    assert get_json(server, f"approvals/{inbox_id}")["state"] == "pending"
    status, body, _ = get(server, "approvals?state=some")
    assert status == 400 and "use pending" in json.loads(body)["message"]
    # The page: without the token, Jupyter's login page instead of the dashboard.
    status, page, _ = get(server, "", prefix="", token=False)
    assert b"zeph-xsrf" not in page
    status, page, headers = get(server, "", prefix="")
    assert status == 200 and b'<meta name="zeph-xsrf" content="' in page and b"{{" not in page
    assert headers["Content-Type"].startswith("text/html")
    # The script is an ES module among the extension's static files, not text pasted into the page.
    script = re.search(rb'<script type="module" src="([^"]+)"', page)
    assert script is not None and script.group(1).startswith(b"/static/zeph_nb_server/dashboard.js")
    request = urllib.request.Request(server.url + script.group(1).decode())  # noqa: S310 - loopback
    with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 - loopback
        assert b"const BASE = " in response.read() and "javascript" in response.headers["Content-Type"]


def test_the_extension_is_configured_with_traitlets_once(
    tmp_path_factory: pytest.TempPathFactory, running_jupyter: Any
) -> None:
    # ZEPH_HOME points at an empty home; --ZephExtension.zeph_home at one with a row. The traitlet wins.
    base = tmp_path_factory.mktemp("traitlets")
    home = base / "configured-home"
    store = Store(Settings().model_copy(update={"home": home}), flusher=False)
    AuditLog(store).record(AuditRecord(tool="read", params={"path": "configured.txt"}, call_id="t1",
                                       conversation_id="conv-t", status="ok", duration_ms=1.0))  # fmt: skip
    store.flush()
    store.spool.close(remove=True)
    args = [f"--ServerApp.root_dir={base}", f"--ZephExtension.zeph_home={home}"]
    with running_jupyter("server", base=base, zeph_home=base / "empty-home", cwd=base, args=args) as jp:
        configured = Server(jp.url, jp.token, "", home)
        rows = get_json(configured, "audit")["rows"]
        assert [row["call_id"] for row in rows] == ["t1"]
