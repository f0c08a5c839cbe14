"""What the browser tests share: Debian's Chromium for Playwright on a closed network (where it is, the flags it
needs, where screenshots go) and the notebooks they run."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).parent / "artifacts"
# Flags for a closed network: without the background ones Chromium keeps dialling Google and being refused.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed (.ci/run installs it with apt-get)"
)


def write_notebook(path: Path, *cells: str) -> None:
    """A notebook of code cells on the python3 kernel, unrun."""
    kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells],
                                        metadata={"kernelspec": kernelspec})  # fmt: skip
    nbformat.write(notebook, path)


@dataclass
class Lab:
    url: str
    token: str
    root: Path
    home: Path


def notebook(lab: Lab, name: str, setup: str, cell: str) -> str:
    write_notebook(lab.root / f"{name}.ipynb", setup, cell)
    # ?reset: a fresh workspace, so notebooks of earlier tests are not reopened behind this one.
    return f"{lab.url}/lab/tree/{name}.ipynb?reset&token={lab.token}"


def open_and_run(browser: Any, url: str) -> Any:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(url)
    run_all(page)
    return page


def run_all(page: Any) -> None:
    """Run every cell from the Run menu (JupyterLab and Notebook 7 share it), once the kernel answers.

    A click that arrives while the kernel is still connecting is dropped; the first cell's prompt turning into
    [1] is the proof it ran, and the menu is used again if it did not.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    wait_for_kernel(page)
    for _ in range(4):
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
        try:
            page.locator(".jp-InputPrompt", has_text="[1]").first.wait_for(timeout=10_000)
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError("the notebook's cells never ran")


def wait_for_kernel(page: Any) -> None:
    """Until the notebook's kernel is connected and idle (a cell run before that is dropped)."""
    page.locator(".jp-NotebookPanel").first.wait_for(timeout=60_000)
    page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").first.wait_for(timeout=60_000)
    if "/lab/" in page.url:  # JupyterLab's status bar names the kernel once its connection is up
        page.locator(".jp-StatusBar-TextItem", has_text="| Idle").first.wait_for(timeout=60_000)


def run_cell(page: Any, index: int) -> None:
    """Run one cell as a person does (click into it, Shift+Enter) and wait until its prompt is numbered.

    A keystroke that reaches the page before the editor has focus is dropped (seen on a busy 2-core machine):
    while the prompt still reads "[ ]" — never queued ("[*]"), so never run — the click and the key are given
    again; a queued cell is never sent twice.
    """
    import re

    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import expect

    cell = page.locator(".jp-Notebook .jp-Cell").nth(index)
    prompt = cell.locator(".jp-InputPrompt").first
    for _ in range(4):
        cell.locator(".jp-InputArea-editor").click()
        page.keyboard.press("Shift+Enter")
        try:
            expect(prompt).to_have_text(re.compile(r"\[(\d+|\*)\]"), timeout=10_000)
            break
        except (AssertionError, PlaywrightTimeout):
            continue
    expect(prompt).to_have_text(re.compile(r"\[\d+\]"), timeout=60_000)


def transcript(page: Any) -> Any:
    """The %%zeph output: every locator is scoped to it (the file browser has an "approve.ipynb" button too)."""
    return page.locator(".zeph-run").first


def shot(page: Any, name: str) -> None:
    from playwright.sync_api import Error as PlaywrightError

    ARTIFACTS.mkdir(exist_ok=True)
    # The transcript re-renders as events arrive (the audit row's line lands after the final text): the element
    # located can be replaced while it is being captured (seen under load), so locate it again and retry.
    for attempt in range(5):
        try:
            page.locator(".zeph-run").first.screenshot(path=str(ARTIFACTS / f"{name}.png"))
            return
        except PlaywrightError as error:
            if "not attached" not in str(error) or attempt == 4:
                raise
            page.wait_for_timeout(200)


def audit_rows(lab: Lab) -> Any:
    from zeph_nb import audit
    from zeph_nb.config import Settings

    return audit.frame(settings=Settings().model_copy(update={"home": lab.home}), limit=None)


SETUP = """%load_ext zeph_nb
import zeph_nb
model = zeph_nb.ScriptedProvider({turns})"""
