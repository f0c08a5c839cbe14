"""A table of rows for a notebook output (``%zeph audit``, ``%zeph memory``): fits the output area, folds long cells.

Everything in such a table came from a model or a tool, so every cell and tooltip is escaped here, in one place.
Styles sit on each cell: JupyterLab right-aligns output tables, and its sanitiser keeps no ``<style>`` block. The
layout is fixed: the column shares decide the widths, and a word longer than its column breaks.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

__all__ = ["folded_table_html"]

_CELL = "padding: 2px 4px; text-align: left; vertical-align: top; overflow-wrap: break-word"


def folded_table_html(
    frame: Any, *, kind: str, shares: Mapping[str, int], default_share: int, folds: Mapping[str, int], note: str
) -> str:
    """``frame`` (a pandas DataFrame of display text) as HTML in a ``<div class="zeph-{kind}">``: each column
    ``shares[column]`` per cent wide, a cell longer than ``folds[column]`` cut with the whole text on hover, and
    ``note`` (HTML, already safe) under the table."""
    columns = "".join(f'<col style="width: {shares.get(str(c), default_share)}%">' for c in frame.columns)
    head = "".join(f'<th style="{_CELL}">{html.escape(str(c))}</th>' for c in frame.columns)
    rows = []
    for record in frame.itertuples(index=False):
        cells = []
        for column, value in zip(frame.columns, record, strict=True):
            text, limit = str(value), folds.get(str(column))
            if limit is not None and len(text) > limit:
                cells.append(f'<td style="{_CELL}" title="{html.escape(text, quote=True)}">'
                             f"{html.escape(text[: limit - 1])}…</td>")  # fmt: skip
            else:
                cells.append(f'<td style="{_CELL}">{html.escape(text)}</td>')
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return (f'<div class="zeph-{kind}"><table style="font-size: 12px; border-collapse: collapse; table-layout: fixed;'
            f' width: 100%"><colgroup>{columns}</colgroup><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>'
            f'<div style="font-size: 11px; color: #6e7781">{note}</div></div>')  # fmt: skip
