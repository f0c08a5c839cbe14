"""End to end in a real JupyterLab and Debian's Chromium, driven by Playwright: a person clicks the buttons.

A JupyterLab server runs on loopback with a token and a zeph home of its own; each test opens a notebook whose
``%%zeph`` cell uses a scripted model that wants to run a command under an ``ask`` rule, clicks, and checks what
happened on disk and in the audit log. Screenshots of the transcript go to tests/e2e/artifacts/.
"""

from __future__ import annotations

import json
import os
import shutil
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from e2e_support import (
    ARTIFACTS,
    SETUP,
    Lab,
    audit_rows,
    needs_chromium,
    notebook,
    open_and_run,
    run_all,
    run_cell,
    shot,
    transcript,
    write_notebook,
)

pytestmark = needs_chromium


def test_approve_runs_the_command_and_the_audit_row_says_who(lab: Lab, browser: Any) -> None:
    turns = [[{"tool": "bash", "params": {"command": "echo approved > approved.txt"}}], "Done: approved.txt written."]
    page = open_and_run(browser, notebook(lab, "approve", SETUP.format(turns=turns), "%%zeph --provider model\n"
                                          "Write approved.txt"))  # fmt: skip
    approve = transcript(page).get_by_role("button", name="Approve")
    approve.wait_for(timeout=60_000)
    transcript(page).get_by_text("Needs your approval").wait_for()
    shot(page, "approval-card")
    # The %%zeph cell with its card under it: the README's and the docs' picture of a run that asks.
    page.locator(".jp-Notebook .jp-Cell").nth(1).screenshot(path=str(ARTIFACTS / "zeph-cell-approval.png"))
    approve.click()
    transcript(page).get_by_text("Done: approved.txt written.").wait_for(timeout=30_000)
    transcript(page).get_by_text("Approved by").wait_for()
    shot(page, "approved-transcript")
    assert (lab.root / "approved.txt").read_text() == "approved\n"
    rows = audit_rows(lab)
    row = rows[rows["params"].str.contains("approved.txt")].iloc[0]
    assert (row["status"], row["decision"]) == ("ok", "ask") and row["approved_by"]
    page.close()


def test_deny_runs_nothing_and_the_model_is_told(lab: Lab, browser: Any) -> None:
    # The model's second turn repeats the category line of the tool result it was sent.
    told = 'lambda messages: "Told: " + messages[-1].content[0].content.splitlines()[1]'
    setup = SETUP.format(turns=f'[[{{"tool": "bash", "params": {{"command": "touch denied.txt"}}}}], {told}]')
    page = open_and_run(browser, notebook(lab, "deny", setup, "%%zeph --provider model\nCreate denied.txt"))
    deny = transcript(page).get_by_role("button", name="Deny")
    deny.wait_for(timeout=60_000)
    deny.click()
    transcript(page).get_by_text("Told: category: confirmation_required").wait_for(timeout=30_000)
    shot(page, "denied-transcript")
    assert not (lab.root / "denied.txt").exists()
    page.close()


def test_always_allow_lets_the_next_call_run_without_asking(lab: Lab, browser: Any) -> None:
    call = {"tool": "bash", "params": {"command": "echo again >> always.txt"}}
    page = open_and_run(browser, notebook(lab, "always", SETUP.format(turns=[[call], [call], "Both ran."]),
                                          "%%zeph --provider model\nAppend twice"))  # fmt: skip
    always = transcript(page).get_by_role("button", name="Always allow")
    always.wait_for(timeout=60_000)
    always.click()
    transcript(page).get_by_text("Both ran.").wait_for(timeout=30_000)
    # Two cards; the first says who allowed it for good, the second never asked.
    assert transcript(page).locator(".zeph-card").count() == 2
    assert transcript(page).get_by_text("Always allowed by").count() == 1
    assert transcript(page).get_by_text("Needs your approval").count() == 0
    shot(page, "always-allowed-transcript")
    assert (lab.root / "always.txt").read_text() == "again\nagain\n"
    rows = audit_rows(lab)
    mine = rows[rows["params"].str.contains("always.txt")].sort_values("ts")
    assert list(mine["decision"]) == ["ask", "allow"]


def test_stop_during_a_long_command_kills_it(lab: Lab, browser: Any, processes: Any) -> None:
    # A pid written inside the OS sandbox is its own namespace's: look for the command by a unique argument.
    marker = f"121.{os.getpid()}"
    turns = [[{"tool": "bash", "params": {"command": f"echo started > sleeper.pid; exec sleep {marker}"}}], "unreached"]
    page = open_and_run(browser, notebook(lab, "stop", SETUP.format(turns=turns),
                                          "%%zeph --provider model --approve auto\nSleep a while"))  # fmt: skip
    pid_file = lab.root / "sleeper.pid"
    deadline = time.monotonic() + 60
    while not (pid_file.exists() and pid_file.read_text().strip()):
        assert time.monotonic() < deadline, "the command never started"
        time.sleep(0.1)
    assert processes.running(marker)
    transcript(page).get_by_role("button", name="Stop").click()
    transcript(page).locator(".zeph-head", has_text="cancelled").wait_for(timeout=30_000)
    shot(page, "stopped-transcript")
    deadline = time.monotonic() + 5  # Playwright's own loop runs here: wait without asyncio
    while processes.running(marker):
        assert time.monotonic() < deadline, "the command is still running after Stop"
        time.sleep(0.05)
    page.close()


def teardown_module() -> None:
    shutil.rmtree(ARTIFACTS / "tmp", ignore_errors=True)


def test_the_transcript_works_in_notebook_7_too(lab: Lab, browser: Any) -> None:
    turns = [[{"tool": "bash", "params": {"command": "echo nb7 > nb7.txt"}}], "Written from Notebook 7."]
    notebook(lab, "nb7", SETUP.format(turns=turns), "%%zeph --provider model\nWrite nb7.txt")
    page = open_and_run(browser, f"{lab.url}/notebooks/nb7.ipynb?token={lab.token}")
    approve = transcript(page).get_by_role("button", name="Approve")
    try:
        approve.wait_for(timeout=60_000)
    except Exception:
        # Seen twice in full CI runs only (never alone or with the e2e folder): keep what the page showed.
        page.screenshot(path=str(ARTIFACTS / "notebook7-no-approve-failure.png"), full_page=True)
        outputs = page.locator(".jp-OutputArea").all_inner_texts()
        raise AssertionError(f"no Approve button in Notebook 7 after 60 s; the cells' outputs: {outputs!r}") from None
    shot(page, "notebook7-approval-card")
    approve.click()
    transcript(page).get_by_text("Written from Notebook 7.").wait_for(timeout=30_000)
    assert (lab.root / "nb7.txt").read_text() == "nb7\n"
    page.close()


def test_a_stale_approval_after_a_kernel_restart_does_nothing(lab: Lab, browser: Any) -> None:
    turns = [[{"tool": "bash", "params": {"command": "echo stale > stale.txt"}}], "unreached"]
    page = open_and_run(browser, notebook(lab, "restart", SETUP.format(turns=turns), "%%zeph --provider model\nGo"))
    approve = transcript(page).get_by_role("button", name="Approve")
    approve.wait_for(timeout=60_000)
    sessions = json.load(urllib.request.urlopen(f"{lab.url}/api/sessions?token={lab.token}"))  # noqa: S310
    kernel = next(s["kernel"]["id"] for s in sessions if s["path"].endswith("restart.ipynb"))
    restart = f"{lab.url}/api/kernels/{kernel}/restart?token={lab.token}"
    request = urllib.request.Request(restart, method="POST", headers={"Content-Type": "application/json"}, data=b"{}")  # noqa: S310
    urllib.request.urlopen(request, timeout=60)  # noqa: S310 - loopback
    page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").first.wait_for(timeout=60_000)
    approve.click()  # the run died with the old kernel: nothing may happen now
    page.wait_for_timeout(1_500)
    assert not (lab.root / "stale.txt").exists()
    assert page.locator(".jp-Dialog").count() == 0  # and no error pops up
    page.close()


def _xss_payloads() -> list[str]:
    import importlib.util

    path = Path(__file__).parent.parent / "notebook" / "test_render.py"
    spec = importlib.util.spec_from_file_location("zeph_render_payloads", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.XSS)


@pytest.mark.parametrize("front_end", ["lab", "notebook7"])
def test_the_models_reply_runs_no_script_in_the_page(lab: Lab, browser: Any, front_end: str) -> None:
    # The model's text, written by whoever injected it: every payload would set window.__zeph_xss or open a dialog.
    reply = "Here is the summary.\n\n" + "\n\n".join(_xss_payloads()) + "\n\nEnd of the summary."
    name = f"xss-{front_end}"
    notebook(lab, name, SETUP.format(turns=[reply]), "%%zeph --provider model\nSummarize")
    url = f"{lab.url}/lab/tree/{name}.ipynb?reset&token={lab.token}" if front_end == "lab" else (
        f"{lab.url}/notebooks/{name}.ipynb?token={lab.token}")  # fmt: skip
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(url)
    run_all(page)
    transcript(page).get_by_text("End of the summary.").wait_for(timeout=60_000)
    for link in transcript(page).get_by_text("click me").all():  # the javascript: links, if any survived as links
        link.click()
    page.wait_for_timeout(1_000)
    shot(page, f"xss-{front_end}")
    assert page.evaluate("window.__zeph_xss") is None and page.evaluate("window.parent.__zeph_xss") is None
    assert dialogs == []
    assert transcript(page).locator("img, iframe, script, svg, form, object").count() == 0
    page.close()


def test_after_a_kernel_restart_the_saved_notebook_shows_what_the_agent_did(lab: Lab, browser: Any) -> None:
    turns = [[{"tool": "bash", "params": {"command": "echo kept > kept.txt"}}], "Wrote kept.txt for you."]
    url = notebook(lab, "snapshot", SETUP.format(turns=turns), "%%zeph --provider model\nWrite kept.txt")
    page = open_and_run(browser, url)
    approve = transcript(page).get_by_role("button", name="Approve")
    approve.wait_for(timeout=60_000)
    approve.click()
    page.locator(".zeph-snapshot").first.wait_for(timeout=60_000)  # the run ended: the output froze
    page.keyboard.press("Control+s")
    saved = lab.root / "snapshot.ipynb"
    deadline = time.monotonic() + 30
    while "Wrote kept.txt for you." not in saved.read_text():
        assert time.monotonic() < deadline, "the notebook was not saved with the transcript"
        page.wait_for_timeout(250)
    sessions = json.load(urllib.request.urlopen(f"{lab.url}/api/sessions?token={lab.token}"))  # noqa: S310
    kernel = next(s["kernel"]["id"] for s in sessions if s["path"].endswith("snapshot.ipynb"))
    restart = f"{lab.url}/api/kernels/{kernel}/restart?token={lab.token}"
    request = urllib.request.Request(restart, method="POST", headers={"Content-Type": "application/json"}, data=b"{}")  # noqa: S310
    urllib.request.urlopen(request, timeout=60)  # noqa: S310 - loopback
    page.reload()
    page.locator(".jp-NotebookPanel").first.wait_for(timeout=60_000)
    frozen = page.locator(".zeph-snapshot").first
    frozen.get_by_text("Wrote kept.txt for you.").wait_for(timeout=30_000)
    frozen.get_by_text("echo kept > kept.txt").first.wait_for()
    assert page.get_by_text("Error displaying widget").count() == 0
    frozen.screenshot(path=str(ARTIFACTS / "snapshot-after-restart.png"))
    page.close()


def test_a_run_that_ends_while_another_cell_runs_freezes_in_its_own_cell(lab: Lab, browser: Any) -> None:
    # The snapshot is sent as a child of the cell running when the run ends (so nbclient keeps it too): the page
    # must still put it in the %%zeph cell's output, by display id, and nowhere else.
    turns = [[{"tool": "bash", "params": {"command": "sleep 2"}}], "Slept for you."]
    # The second cell runs until the test has seen the snapshot and lets it end (60 s at most, if it never does).
    release = lab.root / "later.release"
    second_cell = (f"import asyncio, pathlib\nfor _ in range(600):\n    if pathlib.Path({str(release)!r}).exists():\n"
                   "        break\n    await asyncio.sleep(0.1)\nprint('second cell done')")  # fmt: skip
    write_notebook(lab.root / "later.ipynb", SETUP.format(turns=turns), "%%zeph --provider model\nSleep a little",
                   second_cell)  # fmt: skip
    page = open_and_run(browser, f"{lab.url}/lab/tree/later.ipynb?reset&token={lab.token}")
    cells = page.locator(".jp-Notebook .jp-Cell")
    approve = transcript(page).get_by_role("button", name="Approve")  # the lab's zeph.toml asks for every bash
    approve.wait_for(timeout=60_000)
    approve.click()
    cells.nth(1).locator(".zeph-snapshot").get_by_text("Slept for you.").wait_for(timeout=60_000)
    second = cells.nth(2).locator(".jp-OutputArea")
    assert second.get_by_text("second cell done").count() == 0  # it froze while the second cell ran
    release.touch()
    second.get_by_text("second cell done").wait_for(timeout=60_000)
    assert second.locator(".zeph-snapshot, .zeph-run").count() == 0
    page.close()


@pytest.mark.parametrize("front_end", ["lab", "notebook7"])
def test_a_proposed_cell_appears_below_the_zeph_cell_unrun(lab: Lab, browser: Any, front_end: str) -> None:
    code = "answer = 6 * 7\nprint(answer)"
    turns = [[{"tool": "propose_cell", "params": {"code": code}}], "I put the cell below for you."]
    name = f"propose-{front_end}"
    notebook(lab, name, SETUP.format(turns=turns), "%%zeph --provider model\nShow me how to compute it")
    url = f"{lab.url}/lab/tree/{name}.ipynb?reset&token={lab.token}" if front_end == "lab" else (
        f"{lab.url}/notebooks/{name}.ipynb?token={lab.token}")  # fmt: skip
    page = open_and_run(browser, url)
    transcript(page).get_by_text("I put the cell below for you.").wait_for(timeout=60_000)
    cells = page.locator(".jp-Notebook .jp-Cell")
    assert cells.count() == 3  # setup, the %%zeph cell, and the proposal right below it
    proposed = cells.nth(2)
    assert proposed.locator(".jp-InputArea-editor").inner_text().strip().splitlines() == code.splitlines()
    assert proposed.locator(".jp-InputPrompt").inner_text().strip() == "[ ]:"  # never run for the person
    assert "inserted below the %%zeph cell" in transcript(page).inner_text()
    shot(page, f"propose-cell-{front_end}")
    page.close()


def test_run_python_asks_with_the_code_and_the_next_cell_sees_its_change(lab: Lab, browser: Any) -> None:
    # As a person writes it in a notebook: the inline backend shows the figure at the end (here: on the card).
    code = "import matplotlib.pyplot as plt\ndata['double'] = data.x * 2\nplt.figure(figsize=(2, 1))\nplt.plot(data.x)"
    turns = [[{"tool": "run_python", "params": {"code": code}}], "Added double and drew x."]
    setup = SETUP.format(turns=turns) + "\nimport pandas as pd\ndata = pd.DataFrame({'x': [1, 2, 3]})"
    name = "run-python"
    write_notebook(
        lab.root / f"{name}.ipynb", setup, "%%zeph --provider model\nAdd a column", "print(list(data.columns))"
    )
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{lab.url}/lab/tree/{name}.ipynb?reset&token={lab.token}")
    run_cell(page, 0)
    run_cell(page, 1)
    approve = transcript(page).get_by_role("button", name="Approve")
    approve.wait_for(timeout=60_000)
    card = transcript(page).locator(".zeph-ask").first
    assert "outside the OS sandbox" in card.inner_text() and card.locator(".zeph-code").count() == 1
    assert transcript(page).get_by_role("button", name="Always allow").count() == 0
    shot(page, "run-python-approval")
    approve.click()
    transcript(page).get_by_text("Added double and drew x.").wait_for(timeout=30_000)
    assert transcript(page).locator("img").count() == 1  # the figure, on the card
    shot(page, "run-python-done")
    run_cell(page, 2)
    page.locator(".jp-Cell").nth(2).get_by_text("['x', 'double']").wait_for(timeout=30_000)
    page.close()


def test_zeph_audit_fits_the_notebook_at_1280_px(lab: Lab, browser: Any) -> None:
    # A long command, a grant's allow, a denial and a failure: the rows whose cells ran past the page before.
    long = "echo " + "a-rather-long-argument " * 12
    turns = [[{"tool": "bash", "params": {"command": long}}], [{"tool": "bash", "params": {"command": long}}],
             [{"tool": "read", "params": {"path": "missing.txt"}}], "Done."]  # fmt: skip
    setup = SETUP.format(turns=turns) + "\napprover = zeph_nb.ScriptedApprover(['always'])"
    name = "audit-view"
    write_notebook(lab.root / f"{name}.ipynb", setup,
                   '%%zeph --provider model --approve approver\nEcho twice, read a file', "%zeph audit")  # fmt: skip
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{lab.url}/lab/tree/{name}.ipynb?reset&token={lab.token}")
    run_cell(page, 0)
    run_cell(page, 1)
    transcript(page).get_by_text("Done.").wait_for(timeout=60_000)
    run_cell(page, 2)
    table = page.locator(".jp-Cell").nth(2).locator(".zeph-audit table")
    table.wait_for(timeout=30_000)
    text = table.inner_text()
    assert "Always allow" in text and "…" in text and "<NA>" not in text and "NaN" not in text
    area = page.locator(".jp-Cell").nth(2).locator(".jp-OutputArea-output").first
    # Nothing cut: the table is no wider than the output area it sits in (no horizontal scroll bar).
    widths = area.evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert widths[0] <= widths[1], widths
    folded = table.locator("td[title]").first
    assert (folded.get_attribute("title") or "").startswith("echo a-rather-long-argument")
    ARTIFACTS.mkdir(exist_ok=True)
    area.screenshot(path=str(ARTIFACTS / "zeph-audit.png"))  # the table, not the run's transcript
    page.close()


def test_a_grant_shows_as_given_and_a_job_left_running_is_not_failed(lab: Lab, browser: Any) -> None:
    # Issue 47, items 3 and 7, where a person sees them: the card of a call an Always allow let through says so
    # (with the command as given, not glob-escaped), and a wait that ends before its job is a grey "still running".
    turns = [[{"tool": "bash", "params": {"command": "rm -f scratch-b.txt"}}],
             [{"tool": "bash", "params": {"command": "rm -f scratch-b.txt"}}],
             [{"tool": "bash", "params": {"command": "echo begun; sleep 30", "wait": "2s"}}], "Done."]  # fmt: skip
    page = open_and_run(browser, notebook(lab, "grant-and-job", SETUP.format(turns=turns),
                                          "%%zeph --provider model --tmux\nTidy up, then start the job"))  # fmt: skip
    always = transcript(page).get_by_role("button", name="Always allow")
    always.wait_for(timeout=60_000)
    always.click()
    approve = transcript(page).locator(".zeph-card").nth(2).get_by_role("button", name="Approve")
    approve.wait_for(timeout=60_000)
    granted = transcript(page).locator(".zeph-card").nth(1)
    assert 'allowed by an earlier Always allow "rm -f scratch-b.txt"' in granted.inner_text()
    assert "\\-f" not in granted.inner_text()
    approve.click()
    transcript(page).get_by_text("Done.").wait_for(timeout=60_000)
    job = transcript(page).locator(".zeph-card").nth(2)
    badge = job.locator(".zeph-badge")
    assert badge.inner_text() == "still running" and "failed" not in job.inner_text()
    assert "rgb(110, 119, 129)" in (badge.get_attribute("style") or "") or "#6e7781" in (
        badge.get_attribute("style") or ""
    )
    assert "in pane %" in job.locator(".zeph-meta").inner_text()
    shot(page, "grant-and-job-left-running")
    page.close()
