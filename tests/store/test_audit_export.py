"""The CSV export opens in a spreadsheet as data: no text the model chose runs as a formula."""

from __future__ import annotations

import io

import pandas as pd

from zeph_nb.audit import csv_safe


def test_formula_leading_text_is_escaped_and_numbers_are_not() -> None:
    rows = pd.DataFrame(
        {
            "params": ['{"command": "ls"}', '=HYPERLINK("http://x","click")', "+cmd|'/c calc'!A0", "@SUM(1)",
                       "-2+3", "\tTAB", None],
            "exit_code": [0, -9, 1, 2, 3, 4, 5],
        }
    )  # fmt: skip
    back = pd.read_csv(io.StringIO(csv_safe(rows)), keep_default_na=False)
    assert list(back["params"]) == ['{"command": "ls"}', "'=HYPERLINK(\"http://x\",\"click\")", "'+cmd|'/c calc'!A0",
                                    "'@SUM(1)", "'-2+3", "'\tTAB", ""]  # fmt: skip
    assert list(back["exit_code"]) == [0, -9, 1, 2, 3, 4, 5]
