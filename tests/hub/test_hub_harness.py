"""The harness itself (tests/hub_harness.py): a real JupyterHub with two users' servers, code run in their kernels
over the websocket (a result, an error, a run in the background), the caller's config applied (a per-user
environment from a callable), nothing of the test run's ZEPH_* environment in a user's server, and a login in
Chromium."""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.e2e_support import CHROMIUM
from tests.hub_harness import Hub, hub_available, processes_under

IN_CI = bool(os.environ.get("CI"))
# In CI a missing part fails the tests (.ci/run installs them all); on a developer's machine it skips them.
pytestmark = pytest.mark.skipif(
    not IN_CI and not hub_available(),
    reason="needs configurable-http-proxy in .venv/node and node (make test installs it; apt-get install nodejs npm)",
)

# What the caller adds: a per-user variable from a callable, and a constant one.
EXTRA = """
c.Spawner.environment = {"PGUSER": lambda spawner: spawner.user.name, "E2E_CONSTANT": "from-config"}
"""

SHOW_ENV = "import json, os; print(json.dumps({k: os.environ.get(k) for k in %r}))"
NAMES = ["JUPYTERHUB_USER", "PGUSER", "E2E_CONSTANT", "ZEPH_LEAK_CHECK", "HOME"]


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hub]:
    folder = tmp_path_factory.mktemp("hub-harness")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ZEPH_LEAK_CHECK", "must-not-reach-a-users-server")  # as `make unit` sets ZEPH_HOME
        started = time.monotonic()
        with Hub(folder, extra_config=EXTRA) as running:
            print(f"hub up in {time.monotonic() - started:.1f}s")
            yield running
    # Stopped: no process of the hub's (hub, proxy, users' servers, kernels) is left.
    assert _commands(processes_under(folder)) == []


def _commands(pids: list[int]) -> list[str]:
    found = []
    for pid in pids:
        with contextlib.suppress(OSError):
            found.append(Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode())
    return found


def test_two_users_each_see_their_own_server_and_environment(hub: Hub) -> None:
    started = time.monotonic()
    hub.spawn("ann", "ben")
    print(f"ann's and ben's servers up in {time.monotonic() - started:.1f}s")
    for user in ("ann", "ben"):
        started = time.monotonic()
        reply = hub.run_in_kernel(user, SHOW_ENV % NAMES, timeout=60)
        print(f"{user}: a kernel started and ran in {time.monotonic() - started:.1f}s")
        assert reply.status == "ok", reply
        seen = json.loads(reply.stdout)
        assert seen["JUPYTERHUB_USER"] == user and seen["PGUSER"] == user
        assert seen["E2E_CONSTANT"] == "from-config"
        assert seen["ZEPH_LEAK_CHECK"] is None
        assert seen["HOME"] == str(hub.folder / "home" / user)
    assert {u["name"] for u in hub.api("GET", "users").json() if u["servers"]} >= {"ann", "ben"}


def test_an_error_in_the_kernel_comes_back_as_error(hub: Hub) -> None:
    hub.spawn("ann")
    code = "import sys\nprint('before')\nprint('to stderr', file=sys.stderr)\n1 / 0"
    reply = hub.run_in_kernel("ann", code, timeout=60)
    assert reply.status == "error"
    assert "ZeroDivisionError" in reply.error
    assert reply.stdout == "before\n" and reply.stderr == "to stderr\n"


def test_a_background_run_is_waited_on_while_something_else_happens(hub: Hub) -> None:
    hub.spawn("ann", "ben")
    run = hub.start_in_kernel("ann", "import time\ntime.sleep(1)\nprint('ann done')", timeout=60)
    assert run.wait(0.1).status == "timeout"  # still running
    meanwhile = hub.run_in_kernel("ben", "print('ben meanwhile')", timeout=60)
    assert meanwhile.status == "ok" and meanwhile.stdout == "ben meanwhile\n"
    reply = run.wait(60)
    assert reply.status == "ok" and reply.stdout == "ann done\n", reply


def test_a_users_token_is_theirs(hub: Hub) -> None:
    token = hub.token_for("ann")
    assert hub.api("GET", "user", token=token).json()["name"] == "ann"
    narrow = hub.token_for("ann", scopes=["read:users:name!user=ann"])
    assert hub.api("GET", "users/ben", token=narrow).status_code == 404  # ben is not even visible


def test_stop_server(hub: Hub) -> None:
    hub.spawn("ben")
    hub.stop_server("ben")
    assert hub.api("GET", "users/ben").json()["servers"] == {}


@pytest.mark.skipif(not IN_CI and not CHROMIUM.exists(), reason="Debian's chromium is not installed (.ci/run does)")
def test_a_user_logs_in_with_chromium(hub: Hub, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    hub.login(page, "cleo", next_url="/hub/home")
    assert page.url == f"{hub.url}hub/home"
    assert page.locator("#start").is_visible()  # the home page's "Start My Server": cleo has none yet
    assert "cleo" in page.locator("body").inner_text()
    page.close()
