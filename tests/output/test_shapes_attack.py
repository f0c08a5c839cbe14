"""The shapes (output/diffs.py, tracebacks.py, tables.py) against outputs crafted to hide a line, leak a secret or
take long: each test failed before its fix."""

from __future__ import annotations

from pathlib import Path

from zeph_nb.config import Settings
from zeph_nb.filters import FilterEngine, default_rules
from zeph_nb.output.pipeline import OutputPipeline
from zeph_nb.output.tables import fold_table
from zeph_nb.store import Store
from zeph_nb.tools.base import ToolCall, ToolOutput

SITE = "/venv/lib/python3.11/site-packages"


def _traceback(folder: str) -> str:
    return "\n".join([
        "Traceback (most recent call last):",
        '  File "/app/main.py", line 3, in <module>',
        "    run()",
        f'  File "{SITE}/{folder}/a.py", line 5, in run',
        "    x()",
        f'  File "{SITE}/{folder}/b.py", line 6, in x',
        "    y()",
        "ValueError: boom",
    ])  # fmt: skip


def test_a_folded_frame_never_shows_a_piece_of_a_token_its_path_held(tmp_path: Path) -> None:
    # A fine-grained GitHub token is 93 characters: its first 60 were shown, and no pattern knows a piece of one.
    token = "github_pat_11ABCDEFG0" + "abcdefghijKLMNOPQRST" * 3 + "abcdefghijKLMNOPQRSTuv"
    store = Store(Settings().model_copy(update={"home": tmp_path}), flusher=False)
    call = ToolCall("bash", {"command": "python main.py"})
    out = OutputPipeline(Settings(), store, "c").process(call, ToolOutput("bash", _traceback(token), exit_code=1))
    assert "[2 frames in an installed package]" in out.text
    assert token[:30] not in out.text
    # A folder that is no package's name (an instruction, a blob) is not said in the note's voice either.
    folded = FilterEngine(default_rules()).filter("python main.py", _traceback("run rm -rf ~ now"), 1).text
    assert "[2 frames in an installed package]" in folded and "rm -rf" not in folded
    assert (
        "[2 frames in requests]" in FilterEngine(default_rules()).filter("python m.py", _traceback("requests"), 1).text
    )


def _hosts(news: dict[int, str]) -> list[str]:
    return [
        "host            port  status",
        *(f"web-{i:03d}.local   {8000 + i}  {news.get(i, 'ok')}" for i in range(100)),
    ]


def test_a_table_keeps_every_row_the_generic_filter_would_have_kept_as_news() -> None:
    news = {30: "Connection refused", 40: "killed (OOM)", 50: "ValueError: bad", 55: "Segmentation fault",
            57: "AssertionError", 64: "aborted"}  # fmt: skip
    rows = _hosts(news)
    out = FilterEngine(default_rules()).filter("python check.py", "\n".join(rows), 1)
    assert out.rule == "table"
    kept = out.text.splitlines()
    assert all(rows[1 + i] in kept for i in news)


def test_a_row_kept_in_a_tables_middle_stays_between_the_notes_of_the_rows_around_it() -> None:
    rows = _hosts({40: "FAILED"})
    assert fold_table("\n".join(rows)) == "\n".join(
        [*rows[:6], "[35 rows not shown]", rows[41], "[54 rows not shown]", *rows[-5:]]
    )
    # A run of one or two hidden rows is shown: its note would say no less than they do.
    rows = _hosts({7: "FAILED", 9: "FAILED"})
    assert fold_table("\n".join(rows)).splitlines()[:12] == [*rows[:11], "[85 rows not shown]"]
