"""The README's "What it may do without asking" is what the default policy decides, call by call."""

from __future__ import annotations

from pathlib import Path

import pytest

from zeph_nb.config import Settings
from zeph_nb.gates.defaults_table import BEGIN, CALLS, END, decide_all, defaults_table
from zeph_nb.safety import sandbox_status

README = Path(__file__).parent.parent.parent / "README.md"

pytestmark = pytest.mark.skipif(
    not sandbox_status(Settings()).active, reason="the table describes a machine where bubblewrap works"
)


def test_the_readme_holds_the_table_the_default_policy_makes() -> None:
    rows = decide_all()
    readme = README.read_text()
    kept = readme[readme.index(BEGIN) : readme.index(END) + len(END)]
    hint = "run `python -m zeph_nb.gates.defaults_table` and paste its table into the README"
    assert kept == defaults_table(rows), hint
    # Each row was decided by the gates (a call refused before them, say with a wrong parameter, would raise), and
    # the table shows each kind of answer: a table of one answer would say nothing.
    assert len(rows) == len(CALLS)
    assert {row.sandboxed for row in rows} == {"allow", "ask", "deny"}
    assert any(row.sandboxed == "allow" and row.unsandboxed == "ask" for row in rows)  # what the sandbox buys


def test_making_the_table_runs_nothing(tmp_path: Path) -> None:
    # The rehearsal executor ends the chain: the allowed command that writes (echo done > notes.txt) reached it and
    # was recorded as allowed, yet no notes.txt exists, and README.md is as the table's world made it.
    rows = decide_all(tmp_path)
    assert next(row for row in rows if row.call == "`echo done > notes.txt`").sandboxed == "allow"
    for work in tmp_path.glob("work-*"):
        assert sorted(p.name for p in work.iterdir()) == ["README.md"]
        assert (work / "README.md").read_text() == "# a project\n"
