"""The dashboard at <base_url>/zeph/ in Debian's Chromium: a headless run waits in the approval inbox, a person
answers from the page, the run goes on.

The headless run is a real one: nbclient executes a notebook whose ``%%zeph --approve inbox`` cell has a scripted
model ask for a command under an ``ask`` rule — the way papermill or a scheduled job would run it, in its own
kernel, with nobody looking at the cell. The Jupyter server (with the extension) and the run share only the zeph
home. Screenshots go to tests/e2e/artifacts/.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from e2e_support import ARTIFACTS, needs_chromium, write_notebook

pytestmark = needs_chromium


@dataclass
class Dashboard:
    url: str  # the dashboard page, with the token
    root: Path
    home: Path
    base: Path


@pytest.fixture(scope="module")
def dashboard(tmp_path_factory: pytest.TempPathFactory, running_jupyter: Any) -> Iterator[Dashboard]:
    base = tmp_path_factory.mktemp("dashboard")
    root, home = base / "work", base / "zeph-home"
    root.mkdir()
    (root / "zeph.toml").write_text('[gates.permissions]\nbash = [{pattern = "*", action = "ask"}]\n')
    with running_jupyter("server", base=base, zeph_home=home, cwd=root, args=[f"--ServerApp.root_dir={root}"]) as jp:
        yield Dashboard(f"{jp.url}/zeph/?token={jp.token}", root, home, base)


def headless_run(dashboard: Dashboard, name: str, turns: str, prompt: str) -> subprocess.Popen[str]:
    """Execute a notebook with nbclient in the background, as papermill would; the process ends with the run."""
    write_notebook(
        dashboard.root / f"{name}.ipynb",
        f"%load_ext zeph_nb\nimport zeph_nb\nmodel = zeph_nb.ScriptedProvider({turns})",
        f"%%zeph --provider model --approve inbox\n{prompt}",
        "result = await _\nprint('stop reason:', result.stop_reason)\nprint('text:', result.text)",
    )
    script = textwrap.dedent(f"""
        import nbclient, nbformat
        nb = nbformat.read({name + ".ipynb"!r}, as_version=4)
        nbclient.NotebookClient(nb, timeout=120, kernel_name="python3").execute()
        nbformat.write(nb, {name + ".out.ipynb"!r})
    """)
    env = {**{k: v for k, v in os.environ.items() if not k.startswith(("ZEPH_", "JUPYTER"))},
           "ZEPH_HOME": str(dashboard.home), "HOME": str(dashboard.base)}  # fmt: skip
    return subprocess.Popen([sys.executable, "-c", script], cwd=dashboard.root, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)  # fmt: skip


def finished(process: subprocess.Popen[str], dashboard: Dashboard, name: str) -> str:
    """The run's printed output, once nbclient is done (it fails the test with nbclient's log otherwise)."""
    output, _ = process.communicate(timeout=120)
    assert process.returncode == 0, output[-4000:]
    nb = json.loads((dashboard.root / f"{name}.out.ipynb").read_text())
    return "".join("".join(o.get("text", "")) for o in nb["cells"][2]["outputs"])  # text may be a list of lines


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def audit_rows(dashboard: Dashboard) -> Any:
    from zeph_nb import audit
    from zeph_nb.config import Settings

    return audit.frame(settings=Settings().model_copy(update={"home": dashboard.home}), limit=None)


def test_approving_in_the_dashboard_lets_a_headless_run_finish(dashboard: Dashboard, browser: Any) -> None:
    # The command carries markup: the page must show it as text, never as HTML.
    command = "echo '<b>not bold</b>' > from-inbox.txt"
    turns = json.dumps([[{"tool": "bash", "params": {"command": command}}], "Done: from-inbox.txt written."])
    run = headless_run(dashboard, "approve", turns, "Write from-inbox.txt")
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(dashboard.url)
    card = page.locator("#pending .card").first
    card.wait_for(timeout=90_000)  # the kernel starts, the model asks, the request lands in the inbox
    assert card.locator("pre").first.inner_text() == f"bash: {command}"
    assert card.locator("pre b").count() == 0
    assert page.locator("#pending-count").inner_text() == "1"
    assert run.poll() is None, "the run should be waiting for the answer"
    shot(page, "dashboard-pending")

    card.get_by_role("button", name="Approve").click()
    card.locator(".result", has_text="Approved by").wait_for(timeout=10_000)
    printed = finished(run, dashboard, "approve")
    assert "stop reason: completed" in printed and "Done: from-inbox.txt written." in printed, printed
    assert (dashboard.root / "from-inbox.txt").read_text() == "<b>not bold</b>\n"

    # The page catches up by itself: the call appears as ok, approved by the dashboard's user, and the request
    # moves from the inbox to "recently decided".
    row = page.locator("#calls tbody tr", has_text="from-inbox.txt").first
    row.wait_for(timeout=15_000)
    assert "ok" in row.inner_text() and "(Anonymous" in row.inner_text()
    page.locator("#inbox-empty").wait_for(state="visible", timeout=15_000)
    page.locator("#decided-box summary").click()
    assert "approved" in page.locator("#decided tbody tr").first.inner_text()
    page.locator("#by-tool .row", has_text="bash").wait_for()
    assert re.fullmatch(r"updated \d\d:\d\d:\d\d UTC", page.locator("#live").inner_text())  # as the rows' times are
    shot(page, "dashboard-approved")

    rows = audit_rows(dashboard)
    mine = rows[rows["params"].str.contains("from-inbox.txt")].iloc[0]
    assert (mine["status"], mine["decision"]) == ("ok", "ask")
    assert "(Anonymous" in mine["approved_by"] and mine["approved_by"].endswith(", token)")
    page.close()


def test_denying_with_a_note_tells_the_model_why(dashboard: Dashboard, browser: Any) -> None:
    told = 'lambda messages: "Told: " + messages[-1].content[0].content'
    turns = f'[[{{"tool": "bash", "params": {{"command": "rm -rf important"}}}}], {told}]'
    (dashboard.root / "important").mkdir()
    run = headless_run(dashboard, "deny", turns, "Clean up")
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(dashboard.url)
    card = page.locator("#pending .card", has_text="rm -rf important")
    card.wait_for(timeout=90_000)
    card.get_by_label("note").fill("keep that folder, it holds the results")
    card.get_by_role("button", name="Deny").click()
    card.locator(".result", has_text="Denied by").wait_for(timeout=10_000)
    shot(page, "dashboard-denied")
    printed = finished(run, dashboard, "deny")
    assert "category: confirmation_required" in printed and "keep that folder, it holds the results" in printed
    assert (dashboard.root / "important").is_dir()
    # Filters narrow the table: only denied calls, and the denied one is there.
    from playwright.sync_api import expect

    page.select_option("select[name=status]", "denied")
    # The table is redrawn when the filtered read comes back; until then it still shows every call.
    expect(page.locator("#calls tbody tr").filter(has_not_text="denied")).to_have_count(0, timeout=15_000)
    expect(page.locator("#calls tbody tr", has_text="rm -rf important")).to_have_count(1)
    assert "status=denied" in page.url  # the filters are in the page's address, to share or reload
    shot(page, "dashboard-filtered")
    page.close()


def test_the_inbox_card_shows_hidden_characters_and_the_whole_command(dashboard: Dashboard, browser: Any) -> None:
    # Padding that would push the tail out of the box, and a right-to-left override that would reverse it.
    command = "echo ok" + "\n" * 30 + "touch \u202etxt.exe"
    turns = json.dumps([[{"tool": "bash", "params": {"command": command}}], "Done."])
    run = headless_run(dashboard, "bidi", turns, "Touch a file")
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(dashboard.url)
    card = page.locator("#pending .card", has_text="txt.exe")
    card.wait_for(timeout=90_000)
    shown = card.locator("pre").first.inner_text()
    assert "[29 empty lines]" in shown and "touch <U+202E>txt.exe" in shown and "\u202e" not in shown
    assert "[31 lines, " in shown
    assert "<U+202E>" in card.locator("dt:has-text('touches') + dd").inner_text()
    shot(page, "dashboard-bidi")
    card.get_by_role("button", name="Deny").click()
    card.locator(".result", has_text="Denied by").wait_for(timeout=10_000)
    finished(run, dashboard, "bidi")
    page.close()


def test_a_server_whose_sandbox_is_refused_shows_why_and_the_fix(
    tmp_path: Path, running_jupyter: Any, browser: Any
) -> None:
    """The server runs in a container that refuses new namespaces (tests/security/container_jail.py): the page
    says in words, not only in a tooltip, that commands are not sandboxed, why, and what fixes it."""
    jail = [sys.executable, str(Path(__file__).parent.parent / "security" / "container_jail.py"), "--"]
    args = [f"--ServerApp.root_dir={tmp_path}"]
    with running_jupyter("server", base=tmp_path, zeph_home=tmp_path / "zeph-home", cwd=tmp_path, args=args,
                         inside=jail) as jp:  # fmt: skip
        page = browser.new_page()
        page.goto(f"{jp.url}/zeph/?token={jp.token}")
        why = page.locator("#sandbox-why")
        why.wait_for(state="visible", timeout=30_000)
        text = why.inner_text()
        badge = page.locator("#sandbox").inner_text()
        shot(page, "sandbox-refused")
        page.close()
    assert badge == "no shell sandbox on this machine"
    assert "not sandboxed" in text and "seccomp filter" in text and "asks first" in text
    assert "To fix: run the container with a seccomp profile" in text
