"""End to end with Claude's API as the kernel sees it: the real anthropic SDK in a JupyterLab kernel talking to a
local stand-in of the Messages API (tests/agent/fake_model_servers.py), a person running cells one by one.

What a person meets when the model fails: each failure kind followed by a request that must not carry the failed
one along, a key set in the middle of a session, a stream that stalls, the countdown of a retry — and a run that
waits on the approval inbox, answered by following the card's link to the dashboard.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from e2e_support import ARTIFACTS, Lab, needs_chromium, run_cell, wait_for_kernel, write_notebook

sys.path.insert(0, str(Path(__file__).parent.parent / "agent"))
from fake_model_servers import api_error, serve, stalled, stream, text

pytestmark = needs_chromium

KEY = "sk-ant-api03-e2e-stand-in-key"


def setup(url: str, *, key: bool = True, **settings: object) -> str:
    """The first cell: the extension, the stand-in's address, a key (or none) and ZEPH_* settings."""
    lines = ["%load_ext zeph_nb", "import os", f"os.environ['ANTHROPIC_BASE_URL'] = {url!r}"]
    lines.append(f"os.environ['ANTHROPIC_API_KEY'] = {KEY!r}" if key else "os.environ.pop('ANTHROPIC_API_KEY', None)")
    lines += [f"os.environ['ZEPH_{name.upper()}'] = {str(value)!r}" for name, value in settings.items()]
    return "\n".join(lines)


def open_notebook(lab: Lab, browser: Any, name: str, *cells: str, front_end: str = "lab") -> Any:
    write_notebook(lab.root / f"{name}.ipynb", *cells)
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    page.goto(f"{lab.url}/lab/tree/{name}.ipynb?reset&token={lab.token}" if front_end == "lab" else
              f"{lab.url}/notebooks/{name}.ipynb?token={lab.token}")  # fmt: skip
    wait_for_kernel(page)
    return page


def run(page: Any, index: int) -> Any:
    """Run cell ``index`` and return the transcript in its output."""
    run_cell(page, index)
    return page.locator(".jp-Notebook .jp-Cell").nth(index).locator(".zeph-run").first


def head(view: Any, says: str, timeout: float = 60_000) -> str:
    view.locator(".zeph-head", has_text=says).wait_for(timeout=timeout)
    return str(view.locator(".zeph-head").inner_text())


def shot(view: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    view.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def user_texts(body: Any) -> list[str]:
    """Every text the user side of a Messages request carries."""
    texts = []
    for message in body["messages"]:
        if message["role"] != "user":
            continue
        content = message["content"]
        blocks = [content] if isinstance(content, str) else content
        texts += [b if isinstance(b, str) else json.dumps(b) for b in blocks]
    return texts


@pytest.mark.parametrize("front_end", ["lab", "notebook7"])
def test_after_each_failure_the_next_request_carries_no_stale_prompt(lab: Lab, browser: Any, front_end: str) -> None:
    replies = [
        api_error(400, "invalid_request_error", "messages: text content blocks must be non-empty"),
        api_error(401, "authentication_error", "invalid x-api-key"),
        stalled(ping_secs=0.5),  # the person stops it before the model answers
        stream([text("data/ holds nothing yet.")]),
    ]
    with serve(replies) as server:
        asks = [f"%%zeph\nRemove the scratch directory ({n})." for n in ("one", "two", "three")]
        page = open_notebook(lab, browser, f"failures-{front_end}", setup(server.url), *asks,
                             "%%zeph\nJust tell me which files are in data/.", front_end=front_end)  # fmt: skip
        run_cell(page, 0)
        first = run(page, 1)
        assert "model error" in head(first, "model error")
        shot(first, f"failure-model-error-{front_end}")
        second = run(page, 2)
        said = head(second, "error")
        shot(second, f"failure-refused-key-{front_end}")
        third = run(page, 3)
        head(third, "running")
        page.wait_for_timeout(1_500)  # the stream has started and sends only pings
        third.get_by_role("button", name="Stop").click()
        head(third, "cancelled", 30_000)
        shot(third, f"failure-stopped-{front_end}")
        last = run(page, 4)
        last.get_by_text("data/ holds nothing yet.").wait_for(timeout=60_000)
        shot(last, f"failure-then-a-clean-request-{front_end}")
        final = server.bodies[-1]
    texts = user_texts(final)
    assert any("Just tell me which files are in data/." in t for t in texts), texts
    assert not any("scratch" in t for t in texts), (said, texts)  # no failed prompt rides along
    page.close()


def test_a_key_set_mid_session_is_used_by_the_next_cell(lab: Lab, browser: Any) -> None:
    with serve([stream([text("Hello from the Messages API.")])]) as server:
        page = open_notebook(lab, browser, "key-later", setup(server.url, key=False), "%%zeph\nSay hello.",
                             f"%env ANTHROPIC_API_KEY={KEY}", "%%zeph\nSay hello.")  # fmt: skip
        run_cell(page, 0)
        offline = run(page, 1)
        head(offline, "no model configured")
        shot(offline, "key-missing")
        run_cell(page, 2)
        online = run(page, 3)
        online.get_by_text("Hello from the Messages API.").wait_for(timeout=60_000)
        assert "completed" in head(online, "completed")
        shot(online, "key-set-mid-session")
        sent = [r.headers.get("x-api-key") or r.headers.get("authorization", "") for r in server.received]
        assert len(sent) == 1 and KEY in sent[0]  # the key set in the kernel, in the SDK's choice of header
        # The offline exchange is no history: Claude read "No model is configured…" as its own earlier answer.
        assert [m["role"] for m in server.bodies[-1]["messages"]] == ["user"], server.bodies[-1]["messages"]
    page.close()


def test_a_stalled_stream_ends_with_a_clear_error(lab: Lab, browser: Any) -> None:
    with serve([stalled(ping_secs=0.5)] * 6) as server:
        # The budget leaves room for a retry even on a loaded machine, where noticing the stall takes longer.
        first = setup(server.url, llm_idle_timeout_secs=2, llm_retry_budget_secs=10)
        page = open_notebook(lab, browser, "stalled", first, "%%zeph\nhi")
        run_cell(page, 0)
        view = run(page, 1)
        said = head(view, "model error", 60_000)
        assert "no reply for 2 s ([llm] idle_timeout_secs)" in said and "run again later" in said, said
        assert len(server.received) >= 2  # a stall is tried again within the budget
        shot(view, "stalled-stream")
    page.close()


def test_a_stream_that_stalls_midway_is_folded_away_and_the_retry_reads_on_its_own(lab: Lab, browser: Any) -> None:
    # The retry's text was glued to the cut-off words ("…will stall hRecovered…") and nothing said it was retried.
    cut = "Here is the start of an answer that will stall h"
    with serve([stalled(ping_secs=0.5, after_text=cut), stream([text("Recovered after the stall.")])]) as server:
        first = setup(server.url, llm_idle_timeout_secs=8, llm_retry_budget_secs=40)
        page = open_notebook(lab, browser, "stall-midway", first, "%%zeph\nhi")
        run_cell(page, 0)
        view = run(page, 1)
        view.get_by_text("will stall h").wait_for(timeout=60_000)
        said = head(view, "tried again in", 30_000)  # during the stall: how long until the idle timeout
        assert "no reply for" in said and "([llm] idle_timeout_secs)" in said, said
        shot(view, "stream-stalling")
        view.get_by_text("Recovered after the stall.").wait_for(timeout=60_000)
        folded = view.locator("details.zeph-abandoned")
        assert folded.count() == 1 and "no reply for 8 s: tried again" in folded.locator("summary").inner_text()
        assert not folded.locator("div").is_visible()  # folded: the cut-off words are not read as the answer
        answer = view.get_by_text("Recovered after the stall.")
        assert "will stall" not in answer.inner_text()  # a block of its own, not glued on
        assert len(server.received) == 2
        shot(view, "stream-retried")
    page.close()


def test_the_transcript_counts_down_while_it_retries(lab: Lab, browser: Any) -> None:
    overloaded = api_error(529, "overloaded_error", "Overloaded", {"retry-after": "5"})
    with serve([overloaded, stream([text("Back again after the overload.")])]) as server:
        page = open_notebook(lab, browser, "retry", setup(server.url), "%%zeph\nhi")
        run_cell(page, 0)
        view = run(page, 1)
        seen = [head(view, "retrying in", 30_000)]
        shot(view, "retry-countdown")
        while "Back again" not in view.inner_text() and len(seen) < 60:
            page.wait_for_timeout(250)
            seen.append(str(view.locator(".zeph-head").inner_text()))
        view.get_by_text("Back again after the overload.").wait_for(timeout=30_000)
        assert len(server.received) == 2
    counted = [s.split("retrying in ", 1)[1].split(" s", 1)[0] for s in seen if "retrying in" in s]
    assert "(overloaded)" in seen[0] and len(set(counted)) >= 2, seen  # the number moves: a countdown
    assert [int(n) for n in counted] == sorted((int(n) for n in counted), reverse=True), counted
    page.close()


def test_a_run_waiting_on_the_inbox_links_to_it(lab: Lab, browser: Any) -> None:
    turns = [[{"tool": "bash", "params": {"command": "echo inbox > via-inbox.txt"}}], "Written after the inbox."]
    cells = ["%load_ext zeph_nb\nimport zeph_nb\nmodel = zeph_nb.ScriptedProvider(" + json.dumps(turns) + ")",
             "%%zeph --provider model --approve inbox\nWrite via-inbox.txt"]  # fmt: skip
    page = open_notebook(lab, browser, "inbox-link", *cells)
    run_cell(page, 0)
    view = run(page, 1)
    link = view.get_by_role("link", name="in the approval inbox of the zeph dashboard")
    link.wait_for(timeout=60_000)
    assert link.get_attribute("href") == "/zeph/#inbox" and link.get_attribute("rel") == "noopener noreferrer"
    shot(view, "inbox-link")
    with page.context.expect_page() as opened:
        link.click()
    dashboard = opened.value
    card = dashboard.locator("#pending .card", has_text="via-inbox.txt").first
    card.wait_for(timeout=30_000)
    assert "`echo` " not in card.inner_text()
    card.get_by_role("button", name="Approve").click()
    view.get_by_text("Written after the inbox.").wait_for(timeout=60_000)
    assert (lab.root / "via-inbox.txt").read_text() == "inbox\n"
    dashboard.close()
    page.close()
