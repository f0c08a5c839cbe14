"""A cell the agent proposes, put below the ``%%zeph`` cell by the page itself.

The run goes on after its cell has returned, so IPython's ``set_next_input`` (a payload of the cell's execute
reply) cannot place it. This widget's view does, in JupyterLab and Notebook 7: the widget manager of
``@jupyter-widgets/jupyterlab-manager`` holds the notebook's document context, whose model is the shared notebook.
The view finds the cell whose outputs show the run's transcript (``anchor``, its widget model id) and inserts a code
cell after it (after the proposals already made in this run: ``offset``), then marks the proposal as inserted, so
a second view of the same output (a reload, another tab) never inserts it twice. The code is text in a cell: it is
shown with ``textContent`` and never run.

Front ends without that manager (VS Code, the classic Notebook, nbclient) show the code in the transcript and
say it was not inserted.
"""

from __future__ import annotations

import asyncio
import html
from typing import Any

import anywidget
import traitlets

from zeph_nb.output.sanitize import visible
from zeph_nb.security.secrets import redact

__all__ = ["CellProposal"]

_ESM = """
function findCell(notebook, anchor) {
  for (let i = 0; i < notebook.cells.length; i++) {
    const outputs = notebook.cells.get(i).outputs;
    if (!outputs) continue;
    for (let j = 0; j < outputs.length; j++) {
      const view = (outputs.get(j).data || {})["application/vnd.jupyter.widget-view+json"];
      if (view && view.model_id === anchor) return i;
    }
  }
  return -1;
}

function render({ model, el }) {
  const pre = document.createElement("pre");
  pre.className = "zeph-pre";
  pre.textContent = model.get("preview");  // invisible and bidi characters written out; the cell gets the code
  const note = document.createElement("div");
  note.className = "zeph-who";
  const show = () => { note.textContent = model.get("status"); };
  model.on("change:status", show);
  show();
  el.append(pre, note);
  if (model.get("inserted")) return;
  const manager = model.widget_manager;
  const notebook = manager && manager.context && manager.context.model;
  let status;
  if (!notebook || !notebook.sharedModel || !notebook.cells) {
    status = "not inserted: this front end gives widgets no access to the notebook; copy the code into a cell";
  } else {
    const at = findCell(notebook, model.get("anchor"));
    if (at < 0) {
      status = "not inserted: the %%zeph cell was not found in this notebook; copy the code into a cell";
    } else {
      const index = Math.min(at + 1 + model.get("offset"), notebook.cells.length);
      notebook.sharedModel.insertCell(index, { cell_type: "code", source: model.get("code"), metadata: {} });
      model.set("inserted", true);
      status = `inserted below the %%zeph cell, as cell ${index + 1}: review it, then run it yourself`;
    }
  }
  model.set("status", status);
  model.save_changes();
}

export default { render };
"""


class CellProposal(anywidget.AnyWidget):
    """The code of one proposed cell, inserted by its first view (see the module's docstring)."""

    _esm = traitlets.Unicode(_ESM).tag(sync=True)
    code = traitlets.Unicode("").tag(sync=True)
    preview = traitlets.Unicode("").tag(sync=True)  # the code as the card shows it (``visible``, data secrets hidden)
    anchor = traitlets.Unicode("").tag(sync=True)
    offset = traitlets.Int(0).tag(sync=True)
    inserted = traitlets.Bool(False).tag(sync=True)
    status = traitlets.Unicode("waiting for the page to insert it…").tag(sync=True)

    def __init__(self, code: str, anchor: str, offset: int, **kwargs: Any) -> None:
        preview = visible(redact(code, review=True))
        super().__init__(code=code, preview=preview, anchor=anchor, offset=offset, **kwargs)

    def static_html(self) -> str:
        """What the saved notebook keeps of it (the transcript's snapshot): the code and what became of it."""
        return (f'<pre class="zeph-pre">{html.escape(self.preview)}</pre>'
                f'<div class="zeph-who">{html.escape(self.status)}</div>')  # fmt: skip

    async def placed(self, within: float) -> str:
        """What the page said within ``within`` seconds (its status), or "" when no page answered."""
        answered = asyncio.Event()

        def seen(_change: Any) -> None:
            answered.set()

        self.observe(seen, names="status")
        try:
            await asyncio.wait_for(answered.wait(), within)
        except TimeoutError:
            return ""
        finally:
            self.unobserve(seen, names="status")
        return str(self.status)
