"""The kernel tools on a real InteractiveShell, through the magics and the whole gate chain: the agent lists and
inspects the person's variables, runs approved code in their namespace, proposes a cell."""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from IPython.core.interactiveshell import InteractiveShell

import zeph_nb
from zeph_nb.notebook.magics import Run, ZephMagics


@pytest.fixture
def shell(isolated_env: Path) -> Iterator[tuple[InteractiveShell, ZephMagics]]:
    ip = InteractiveShell.instance()
    magics = ZephMagics(ip)
    ip.register_magics(magics)
    ip.user_ns["df"] = pd.DataFrame({"a": [1, 2, 3, None], "b": ["x", "y", "z", "w"]})
    ip.user_ns["weights"] = np.arange(12, dtype=float).reshape(3, 4)
    ip.user_ns["_private"] = 1
    yield ip, magics
    for name in ("df", "weights", "_private", "model", "total"):
        ip.user_ns.pop(name, None)
    if magics.agent is not None:
        magics.agent.chain.store.close()


def model(ip: InteractiveShell, *turns: Any) -> str:
    ip.user_ns["model"] = zeph_nb.ScriptedProvider(list(turns))
    return "--provider model"


def call(tool: str, **params: Any) -> list[dict[str, Any]]:
    return [{"tool": tool, "params": params}]


def seen(ip: InteractiveShell, request: int) -> str:
    """What the model read back after its ``request``-th answer (the tool result)."""
    block = ip.user_ns["model"].requests[request].messages[-1].content[0]
    return str(block.content)


async def waiting_card(run: Run) -> Any:
    for _ in range(500):
        cards = [c for c in run.transcript.cards.values() if c.buttons and not c.buttons["approve"].disabled]
        if cards:
            return cards[0]
        await asyncio.sleep(0.01)
    raise AssertionError("no approval prompt appeared")


async def test_the_agent_lists_and_inspects_variables_without_asking(
    shell: tuple[InteractiveShell, ZephMagics],
) -> None:
    ip, _ = shell
    turns = (call("list_variables"), call("inspect_variable", name="df", rows=2), "ok")
    result = await ip.run_cell_magic("zeph", model(ip, *turns), "what is df?")
    listing, described = seen(ip, 1), seen(ip, 2)
    assert "df" in listing and "pandas.DataFrame" in listing and "4 x 2" in listing
    assert "weights" in listing and "3 x 4" in listing and "96 B" in listing
    assert "_private" not in listing and "model" not in listing.split()  # underscore names and zeph's own objects
    assert "shape: 4 rows, 2 columns" in described and "a: float64" in described and "a: 1" in described  # nulls
    assert "head(2):" in described and "describe() of the numeric columns:" in described
    assert [c.approved_by for c in result.tool_calls] == [None, None]  # read-only: nobody was asked


async def test_run_python_asks_shows_the_code_and_changes_the_namespace(
    shell: tuple[InteractiveShell, ZephMagics],
) -> None:
    ip, magics = shell
    code = 'df["c"] = df["a"] * 2\nprint("added c")\ndf["c"].sum()'
    run = ip.run_cell_magic("zeph", model(ip, call("run_python", code=code), "done"), "add c = 2a")
    card = await waiting_card(run)
    prompt = card.ask_box.children[0].value
    assert "outside the OS sandbox" in prompt and "zeph-code" in prompt  # said plainly, code highlighted
    assert "<code>run_python</code>" in prompt and "`" not in prompt.split("Why it asks")[1]  # quoted, not `…`
    assert "Always allow" not in [b.description for b in card.buttons.values()]  # never kept as a grant
    card.buttons["approve"].click()
    result = await run
    assert list(ip.user_ns["df"].columns) == ["a", "b", "c"]  # the person's next cell sees it
    told = seen(ip, 1)
    assert told == "stdout:\nadded c\nvalue:\nnp.float64(12.0)"  # as the cell would show it
    assert result.tool_calls[0].status == "ok" and magics.agent is not None


async def test_a_rule_for_the_code_text_lets_run_python_run_unasked(
    shell: tuple[InteractiveShell, ZephMagics],
) -> None:
    ip, _ = shell
    rule = '[gates.permissions]\nrun_python = [{pattern = "len(*)", action = "allow"}]\n'
    (Path.cwd() / "zeph.toml").write_text(rule)
    result = await ip.run_cell_magic("zeph", model(ip, call("run_python", code="len(df)"), "4"), "how long?")
    assert result.tool_calls[0].status == "ok" and result.tool_calls[0].approved_by is None
    assert "value:\n4" in seen(ip, 1)


@pytest.mark.parametrize(
    ("code", "category", "said"),
    [
        ("1/0", "permanent_failure", "ZeroDivisionError: division by zero"),
        ("def f(:\n  pass", "invalid_parameters", "SyntaxError"),
        ("import time\nwhile True:\n    time.sleep(0.05)", "timeout", "interrupted after 0.5 s"),
    ],
)
async def test_run_python_failures_map_to_the_error_taxonomy(
    shell: tuple[InteractiveShell, ZephMagics], code: str, category: str, said: str
) -> None:
    ip, _ = shell
    (Path.cwd() / "zeph.toml").write_text('[gates.permissions]\nrun_python = [{pattern = "*", action = "allow"}]\n')
    turns = (call("run_python", code=code, timeout=0.5), "ok")
    result = await ip.run_cell_magic("zeph", model(ip, *turns), "try it")
    told = seen(ip, 1)
    assert result.tool_calls[0].category is not None and result.tool_calls[0].category.label == category
    assert said in told


async def test_run_python_shows_figures_on_the_card_and_only_images(
    shell: tuple[InteractiveShell, ZephMagics],
) -> None:
    ip, _ = shell
    (Path.cwd() / "zeph.toml").write_text('[gates.permissions]\nrun_python = [{pattern = "*", action = "allow"}]\n')
    png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
    code = (
        "from IPython.display import display, HTML, Image\nimport base64\n"
        f"display(Image(data=base64.b64decode('{png}')))\n"
        "display(HTML('<script>window.__zeph_xss = 1</script><b>bold</b>'))"
    )
    run = ip.run_cell_magic("zeph", model(ip, call("run_python", code=code), "done"), "draw")
    result = await run
    told = seen(ip, 1)
    assert "[1 image shown to the person in the transcript]" in told and "<IPython.core.display.HTML" in told
    card = run.transcript.cards[result.tool_calls[0].call.call_id]
    snapshot = run.transcript.snapshot()
    assert "data:image/png;base64," in snapshot and "<b>bold</b>" not in snapshot  # the code is text, escaped
    assert "<script>window" not in snapshot and "&lt;script&gt;window" in snapshot
    assert len(card.widget.children) == 5  # title, ask box, stats, details, and the images


async def test_propose_cell_outside_a_widget_front_end_rides_on_the_cells_reply(
    shell: tuple[InteractiveShell, ZephMagics], monkeypatch: pytest.MonkeyPatch
) -> None:
    ip, magics = shell
    magics.widgets = False
    proposed: list[tuple[str, bool]] = []
    monkeypatch.setattr(ip, "set_next_input", lambda text, replace=False: proposed.append((text, replace)))
    turns = (call("propose_cell", code="df.plot()"), call("propose_cell", code="df.describe()"), "ok")
    ip.run_cell_magic("zeph", model(ip, *turns), "propose two")
    assert proposed[-1] == ("df.plot()\n\ndf.describe()", False)  # one cell, both, in order
    assert "when the run ends" in seen(ip, 1)


async def test_propose_cell_in_widget_mode_shows_the_code_and_says_when_no_page_inserted_it(
    shell: tuple[InteractiveShell, ZephMagics], monkeypatch: pytest.MonkeyPatch
) -> None:
    from zeph_nb.notebook import kernel

    monkeypatch.setattr(kernel, "PLACED_WITHIN", 0.2)
    ip, _ = shell
    run = ip.run_cell_magic("zeph", model(ip, call("propose_cell", code="total = df.a.sum()"), "ok"), "propose")
    await run
    assert "no page confirmed inserting it" in seen(ip, 1)
    assert "total = df.a.sum()" in run.transcript.snapshot()  # the code stays in the saved notebook
    assert "total" not in ip.user_ns  # proposed, never run


async def test_run_python_cannot_ask_for_input_and_its_output_is_redacted(
    shell: tuple[InteractiveShell, ZephMagics], monkeypatch: pytest.MonkeyPatch
) -> None:
    from types import SimpleNamespace

    ip, _ = shell
    kernel = SimpleNamespace(_allow_stdin=True)  # ipykernel's flag: a JupyterLab cell may ask for input
    monkeypatch.setattr(ip, "kernel", kernel, raising=False)
    (Path.cwd() / "zeph.toml").write_text('[gates.permissions]\nrun_python = [{pattern = "*", action = "allow"}]\n')
    key = "sk-ant-api03-" + "Zx9" * 30
    ip.user_ns["settings_dict"] = {"ANTHROPIC_API_KEY": key}
    turns = (call("run_python", code="get_ipython().kernel._allow_stdin"),
             call("inspect_variable", name="settings_dict"), "ok")  # fmt: skip
    await ip.run_cell_magic("zeph", model(ip, *turns), "look")
    assert seen(ip, 1) == "value:\nFalse" and kernel._allow_stdin is True  # refused while it ran, restored after
    assert "ANTHROPIC_API_KEY" in seen(ip, 2) and key not in seen(ip, 2)
    ip.user_ns.pop("settings_dict")


# -- what an attack on them found (an injected model's calls) ------------------------------------------------------


async def test_code_dressed_as_a_secret_is_shown_on_the_approval_card(
    shell: tuple[InteractiveShell, ZephMagics],
) -> None:
    ip, _ = shell
    code = "x = 'password = \"'; pwned = __import__('os').getpid(); y = '\"'"
    run = ip.run_cell_magic("zeph", model(ip, call("run_python", code=code), "done"), "go")
    card = await waiting_card(run)
    prompt = card.ask_box.children[0].value
    assert "pwned" in prompt and "getpid" in prompt  # what runs is what the person reads
    card.buttons["deny"].click()
    await run


async def test_long_code_says_the_box_scrolls_and_hidden_characters_are_written_out(
    shell: tuple[InteractiveShell, ZephMagics],
) -> None:
    ip, _ = shell
    code = "\n".join(f"step_{i} = {i}" for i in range(80)) + '\nx\ufe00 = "/tmp/scratch"'
    run = ip.run_cell_magic("zeph", model(ip, call("run_python", code=code), "done"), "go")
    card = await waiting_card(run)
    prompt = card.ask_box.children[0].value
    assert "81 lines" in prompt and "scroll to read every one" in prompt
    shown = html.unescape(re.sub(r"<[^>]+>", "", prompt))  # the text the page shows, across pygments' spans
    assert "x<U+FE00> = " in shown and "\ufe00" not in prompt
    card.buttons["deny"].click()
    await run


@pytest.mark.parametrize(
    ("pattern", "code", "unasked"),
    [
        ("*.describe()", "sales.describe()", True),
        ("*.describe()", 'pwned = 1\n"x".describe()', False),
        ("*.describe()", "SALES.describe()", True),
        ("len(*)", "len(df)", True),
        ("len(*)", "len(df) or __import__('os').getpid()", False),
        ("len(*)", "LEN(df)", False),
    ],
)
async def test_a_rule_for_code_matches_the_whole_code_and_a_star_is_only_a_name(
    shell: tuple[InteractiveShell, ZephMagics], pattern: str, code: str, unasked: bool
) -> None:
    ip, _ = shell
    (Path.cwd() / "zeph.toml").write_text(f'[gates.permissions]\nrun_python = [{{pattern = "{pattern}", '
                                          'action = "allow"}]\n')  # fmt: skip
    ip.user_ns["zeph_approve_nothing"] = zeph_nb.ScriptedApprover(["deny"])
    turns = (call("run_python", code=code), "done")
    result = await ip.run_cell_magic("zeph", model(ip, *turns) + " --approve zeph_approve_nothing", "go")
    ip.user_ns.pop("zeph_approve_nothing")
    assert (result.tool_calls[0].decision == "allow") is unasked, result.tool_calls[0].reason
    assert "pwned" not in ip.user_ns


async def test_an_authorization_rule_for_every_tool_never_allows_kernel_code(
    shell: tuple[InteractiveShell, ZephMagics],
) -> None:
    ip, _ = shell
    (Path.cwd() / "zeph.toml").write_text(
        '[gates.authorization]\nenabled = true\nrules = [{tool = "*", effect = "allow", args_match = "data/.*csv"}]\n'
    )
    ip.user_ns["zeph_approve_nothing"] = zeph_nb.ScriptedApprover(["deny"])
    turns = (call("run_python", code="pwned = 1  # data/x.csv"), "done")
    result = await ip.run_cell_magic("zeph", model(ip, *turns) + " --approve zeph_approve_nothing", "go")
    ip.user_ns.pop("zeph_approve_nothing")
    assert result.tool_calls[0].decision == "ask" and "pwned" not in ip.user_ns


async def test_top_level_await_is_refused_and_a_slow_repr_counts_in_the_timeout(
    shell: tuple[InteractiveShell, ZephMagics],
) -> None:
    ip, _ = shell
    (Path.cwd() / "zeph.toml").write_text('[gates.permissions]\nrun_python = [{pattern = "*", action = "allow"}]\n')
    slow = "import time\nclass Slow:\n    def __repr__(self):\n        time.sleep(30)\n        return 'slow'\nSlow()"
    turns = (call("run_python", code="import asyncio\nawait asyncio.sleep(0)"),
             call("run_python", code=slow, timeout=0.5), "ok")  # fmt: skip
    result = await ip.run_cell_magic("zeph", model(ip, *turns), "go")
    labels = [c.category.label if c.category else None for c in result.tool_calls]
    assert labels == ["invalid_parameters", "timeout"]
    assert "top-level await is not supported" in seen(ip, 1)


async def test_inspect_hides_values_named_like_credentials_and_runs_no_property(
    shell: tuple[InteractiveShell, ZephMagics],
) -> None:
    ip, _ = shell

    class Lazy:
        ran = False

        @property
        def shape(self) -> tuple[int, ...]:
            Lazy.ran = True
            return (1,)

    ip.user_ns.update(conn={"host": "db", "pw": "Sup3rS3cret!2024"}, api_key="correct horse battery",
                      users=pd.DataFrame({"name": ["ann"], "password": ["hunter2hunter2"]}), proxy=Lazy())  # fmt: skip
    turns = (call("inspect_variable", name="conn"), call("inspect_variable", name="api_key"),
             call("inspect_variable", name="users"), call("list_variables"), "ok")  # fmt: skip
    await ip.run_cell_magic("zeph", model(ip, *turns), "look")
    told = [seen(ip, i) for i in range(1, 5)]
    for name in ("conn", "api_key", "users", "proxy"):
        ip.user_ns.pop(name)
    assert "'host': 'db'" in told[0] and "Sup3rS3cret" not in told[0]
    assert "correct horse" not in told[1] and "its name says it is a credential" in told[1]
    assert "hunter2" not in told[2] and "ann" in told[2]
    assert "proxy" in told[3] and not Lazy.ran


def test_a_proposed_cells_preview_writes_out_what_would_reorder_it() -> None:
    from zeph_nb.notebook.proposal import CellProposal

    proposal = CellProposal("x = 1  # \u202egnp.txt", anchor="a", offset=0)
    assert "<U+202E>" in proposal.preview and "<U+202E>" in proposal.static_html().replace("&lt;", "<").replace(
        "&gt;", ">"
    )
    assert proposal.code == "x = 1  # \u202egnp.txt"  # the cell gets the code itself


async def test_undo_says_that_code_run_in_the_kernel_is_not_undone(
    shell: tuple[InteractiveShell, ZephMagics], capsys: pytest.CaptureFixture[str]
) -> None:
    ip, _ = shell
    (Path.cwd() / "zeph.toml").write_text('[gates.permissions]\nrun_python = [{pattern = "*", action = "allow"}]\n')
    await ip.run_cell_magic("zeph", model(ip, call("run_python", code="total = 1"), "ok"), "set total")
    capsys.readouterr()
    ip.run_line_magic("zeph", "undo")
    said = capsys.readouterr().out
    assert "no run in this kernel has changed files" in said
    assert "ran code in this kernel 1 time (run_python)" in said and "undo covers files only" in said
    ip.user_ns.pop("total", None)


async def test_under_a_managed_bwrap_kernel_code_is_the_organisations_ask(
    shell: tuple[InteractiveShell, ZephMagics], managed_file: Any
) -> None:
    # The managed file says nothing runs outside the OS sandbox; the kernel is outside it. A user's allow rule and
    # AutoApprove answered run_python before; now a person must, each time.
    ip, _ = shell
    managed_file('[tools.shell]\nsandbox = "bwrap"\n')
    (Path.cwd() / "zeph.toml").write_text('[gates.permissions]\nrun_python = [{pattern = "*", action = "allow"}]\n')
    ip.user_ns.pop("total", None)
    result = await ip.run_cell_magic("zeph", "--approve auto " + model(ip, call("run_python", code="total = 1"), "ok"),
                                     "set it")  # fmt: skip
    outcome = result.tool_calls[0]
    assert outcome.status == "denied" and "AutoApprove may not" in outcome.text, outcome.text
    assert "total" not in ip.user_ns
