"""The transcript widget between events: elapsed times that move while a run or a wait goes on, the inbox link,
and the plain reason on the approval card."""

from __future__ import annotations

import asyncio
from datetime import datetime
from pathlib import Path

import pytest

import zeph_nb
from zeph_nb.agent import RunResult
from zeph_nb.config import Settings
from zeph_nb.gates import build_chain
from zeph_nb.gates.approval import ApprovalDecision, ApprovalRequest
from zeph_nb.notebook import cards
from zeph_nb.notebook.cards import ToolCard, elapsed
from zeph_nb.notebook.transcript import Transcript
from zeph_nb.store import Store
from zeph_nb.tools import ToolCall


class Clock:
    """The widgets' clock, moved by hand (the event loop keeps the real one)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(cards, "clock", fake)
    return fake


def request(command: str = "rm -rf scratch") -> ApprovalRequest:
    items = ("destructive: rm -r/-f", "matches confirm pattern 'rm '")  # as the classifier writes them
    reason = "the command classifier asks: " + "; ".join(items)
    return ApprovalRequest("c1", "bash", {"command": command}, (command,), "shell classifier", reason,
                           expires_at=datetime(2026, 1, 1, 12, 30), reasons=items)  # fmt: skip


def test_elapsed_reads_at_a_glance() -> None:
    assert [elapsed(s) for s in (0.4, 7, 125, 3725)] == ["0 s", "7 s", "2 min 05 s", "1 h 02 min"]


def test_the_header_and_a_waiting_card_count_the_seconds(clock: Clock) -> None:
    view = Transcript("go", on_stop=lambda: None, model="claude-x")
    assert "0 s" in view.status.value and "zeph-live" in view.status.value  # the dot pulses while it runs
    card = view.card("c1", "bash", {"command": "rm -rf scratch"})
    card.ask(request(), lambda choice: None)
    clock.now += 125
    view._draw()
    card.tick()
    assert "2 min 05 s" in view.status.value and "waiting 2 min 05 s" in card.title.value


def test_the_clock_stands_still_once_the_run_stopped(clock: Clock) -> None:
    view = Transcript("go", on_stop=lambda: None)
    clock.now += 12
    view.stopped(RunResult(text="done", stop_reason="completed", iterations=1))
    clock.now += 600
    view._draw()
    assert "12 s" in view.status.value and "zeph-live" not in view.status.value


async def test_the_clock_redraws_by_itself_until_the_run_stops(clock: Clock) -> None:
    view = Transcript("go", on_stop=lambda: None)
    view.start_clock(asyncio.get_running_loop())
    clock.now += 42
    for _ in range(30):  # redrawn within about a second of real time; waited for, not timed
        await asyncio.sleep(0.1)
        if "42 s" in view.status.value:
            break
    assert "42 s" in view.status.value
    view.stop_clock()
    await asyncio.sleep(0)
    assert view._clock is not None and view._clock.cancelled()


def test_the_card_leads_with_the_plain_reason_and_folds_the_rules_words_under_it() -> None:
    card = ToolCard("bash", {"command": "rm -rf scratch"})
    card.ask(request(), lambda choice: None)
    shown = card.ask_box.children[0].value
    assert "<b>Why it asks:</b> <code>rm -r</code>/<code>rm -f</code> deletes files and whole folders" in shown
    rule = '<details class="zeph-rule"><summary>the rule\'s words</summary>the command classifier asks: destructive:'
    assert rule in shown  # folded: the person reads the reason once, whoever tunes the rules opens it


def test_waiting_on_the_inbox_links_to_it_on_the_pages_own_server() -> None:
    card = ToolCard("bash", {"command": "make"})
    where = "in the approval inbox of the zeph dashboard (zeph/ on your Jupyter server)"
    card.waiting(request("make"), where, "/user/ann/zeph/#inbox")
    shown = card.ask_box.children[0].value
    assert '<a href="/user/ann/zeph/#inbox" target="_blank" rel="noopener noreferrer">in the approval inbox' in shown
    card.waiting(request("make"), where, None)  # no server known: the words, never a guessed link
    shown = card.ask_box.children[0].value
    assert "<a " not in shown and "(zeph/ on your Jupyter server)" in shown


def test_waiting_for_a_team_reviewer_says_someone_else_answers() -> None:
    card = ToolCard("bash", {"command": "make"})
    where = "by a team reviewer on the hub's review page (the zeph_nb_hub service)"
    card.waiting(request("make"), where, "/services/zeph_nb_hub/")
    shown = card.ask_box.children[0].value
    assert ('It waits to be answered <a href="/services/zeph_nb_hub/" target="_blank" rel="noopener noreferrer">by a '
            "team reviewer on the hub&#x27;s review page</a>.") in shown  # fmt: skip
    assert "waiting for a reviewer" in card.title.value and "waiting for you" not in card.title.value
    waiting = ToolCard("bash", {"command": "rm -rf build"})
    waiting.waiting(request("rm -rf build"), where, "/services/zeph_nb_hub/")
    assert "<code>rm -r</code>" in waiting.ask_box.children[0].value  # the reason's code spans, as on the buttons' card
    card.answered(True, "rita (reviewer, on the hub)")
    assert "Approved by <b>rita (reviewer, on the hub)</b>" in card.ask_box.children[0].value


def test_the_header_says_how_many_tools_the_filter_offered(clock: Clock) -> None:
    from zeph_nb.agent.events import ToolsOffered

    view = Transcript("go", on_stop=lambda: None)
    view.handle(ToolsOffered(("read", "grep"), 67))
    assert "2 of 67 tools offered" in view.status.value
    view.handle(ToolsOffered(tuple(f"t{i}" for i in range(67)), 67, "every tool offered: the prompt could not be "
                             "embedded (http://127.0.0.1:9/v1/embeddings: ConnectError)"))  # fmt: skip
    assert "every tool offered" in view.status.value and "ConnectError" in view.status.value


def test_the_console_transcript_names_the_offered_tools_once_per_change() -> None:
    import io

    from zeph_nb.agent.events import ToolsOffered
    from zeph_nb.notebook.plain import PlainTranscript

    out = io.StringIO()
    plain = PlainTranscript(out)
    for _ in range(3):  # three rounds with the same choice
        plain.handle(ToolsOffered(("read", "grep"), 67))
    plain.handle(ToolsOffered(("read", "grep", "bash"), 67))
    assert out.getvalue().splitlines() == [
        "  offered 2 of 67 tools: read, grep",
        "  offered 3 of 67 tools: read, grep, bash",
    ]


def test_a_completed_runs_warnings_are_shown_and_what_they_quote_of_the_reply_is_escaped(clock: Clock) -> None:
    view = Transcript("go", on_stop=lambda: None)
    # Hallucination detection quotes the reply, which the model wrote: hostile when rendered.
    quoted = "the reply says it ran `<img src=x onerror=alert(1)>`, but no tool call in this conversation did"
    view.stopped(RunResult(text="done", stop_reason="completed", iterations=1, warnings=[quoted]))
    saved = view.snapshot()
    assert "&lt;img src=x onerror=alert(1)&gt;" in saved and "<img src=x" not in saved  # shown, inert


def test_a_completed_runs_hallucination_warnings_show_under_its_reply(tmp_path: Path, store: Store) -> None:
    """They were added to the header's detail, which a completed run leaves out: after a normal answer, the
    one time a warning matters, the transcript (and the notebook saved from it) showed none."""
    settings = Settings.from_toml("[agent]\nhallucination_detection = true\n").model_copy(update={"home": store.home})
    claims = "I ran `pytest -q` and it passed; the log is overflow:0f3a9c2d11."
    agent = zeph_nb.Agent(settings, zeph_nb.ScriptedProvider([claims]), zeph_nb.AutoApprove(), tmp_path, store=store)
    view = Transcript("test it", on_stop=lambda: None)
    result = asyncio.run(agent.run("test it", on_event=view.handle))
    assert result.stop_reason == "completed" and len(result.warnings) == 2
    saved = view.snapshot()
    assert saved.count("possible hallucination") == 2
    assert "ran `pytest -q`" in saved and "overflow:0f3a9c2d11" in saved.split("possible hallucination", 1)[1]


@pytest.mark.parametrize(
    ("tool", "params", "says"),
    [
        ("bash", {"command": "rm -rf scratch"}, "This will run:"),
        ("write", {"path": "summary.md", "content": "x"}, "This will write:"),
        ("delete_path", {"path": "old"}, "This will delete:"),
        ("fetch", {"url": "https://a.example"}, "This will fetch:"),
    ],
)
async def test_the_card_says_what_the_call_will_do_to_its_subject(
    tool: str, params: dict[str, str], says: str, tmp_path: Path
) -> None:
    """A write's card read "This will run: /work/summary.md", as if the path were a program. The words are the
    tool spec's own (``verb``), carried by the request the approval gate makes."""
    asked: list[ApprovalRequest] = []

    class Refuse:
        async def decide(self, request: ApprovalRequest) -> ApprovalDecision:
            asked.append(request)
            return ApprovalDecision.deny("tester")

    settings = Settings().model_copy(update={"home": tmp_path / "home"})
    store = Store(settings, flusher=False)
    chain = build_chain(settings, workdir=tmp_path, store=store, approver=Refuse())
    await chain.execute(ToolCall(tool, params))
    store.close()
    (request,) = asked
    card = ToolCard(tool, params)
    card.ask(request, lambda choice: None)
    shown = card.ask_box.children[0].value
    assert f"<b>Needs your approval.</b> {says}<pre>" in shown


def test_the_console_transcript_ends_the_models_words_before_the_approver_asks() -> None:
    import io

    from zeph_nb.agent.events import ApprovalRequested, TextDelta
    from zeph_nb.notebook.plain import PlainTranscript

    out = io.StringIO()
    plain = PlainTranscript(out)
    plain.handle(TextDelta("I will clean up the "))
    plain.handle(TextDelta("scratch folder."))  # no newline yet: the console approver would print before it
    plain.handle(ApprovalRequested(request()))
    out.write("Approve? ")  # what the console approver prints next, on its own
    assert out.getvalue() == "I will clean up the scratch folder.\nApprove? "


def test_the_card_shows_the_end_of_what_the_model_read_and_the_raw_output_as_printed() -> None:
    # A 200,000-character line: the model read its head, the overflow note and its tail; the card cut it at 20,000
    # characters, before the note, and showed the raw output as one JSON string of \n escapes.
    from zeph_nb.gates.call import CallOutcome
    from zeph_nb.tools.base import ToolCall, ToolOutput

    note = "\n... [160006 characters not shown; the full output is stored as overflow:x] ...\n"
    seen = "A" * 20_000 + note + "Z" * 20_000
    raw = {"stdout": "line one\nline two\n" + "B" * 100_000 + "\nthe verdict\n", "exit_code": 0}
    outcome = CallOutcome(ToolCall("bash", {"command": "cat big.txt"}), ToolOutput("bash", seen, raw=raw), seen,
                          "ok", None, None, None, None, None, 0, 1.0, len(seen), len(seen))  # fmt: skip
    card = ToolCard("bash", {"command": "cat big.txt"})
    card.finished(outcome)
    model, printed = (child.value for child in card.details.children)
    assert "stored as overflow:x" in model and model.rstrip("</pre>").endswith("Z" * 100)
    assert "exit_code: 0\n── stdout ──\nline one\nline two\n" in printed and "\\n" not in printed
    assert "characters not shown here" in printed and "the verdict" in printed
