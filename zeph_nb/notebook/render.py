"""The model's Markdown as HTML that cannot run anything in the person's page.

JupyterLab renders ``text/markdown`` outputs as trusted: raw HTML in a model's reply (``<img onerror=…>``,
``<script>``) ran with the page's authority, and so could drive the Jupyter REST API — and prompt injection puts
words in the model's mouth. So the Markdown is turned into HTML here, in the kernel, with raw HTML off
(markdown-it-py's CommonMark, which prints any HTML in the text as text), and the result passes nh3 (the Rust
``ammonia`` sanitizer) with a short allow-list: no scripts, event handlers, styles, iframes, forms or images, and
links only to http(s) and mailto, opened with ``rel="noopener noreferrer"``. Images are shown as links: an image
loads by itself, and its URL is where an injected model would put what it wants to send out.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

__all__ = ["markdown_html"]

_TAGS = {
    "p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "em", "strong", "del", "s", "code", "pre", "blockquote",
    "ul", "ol", "li", "a", "table", "thead", "tbody", "tr", "th", "td", "span", "sup", "sub",
}  # fmt: skip
_ATTRIBUTES = {"a": {"href", "title"}, "th": {"align"}, "td": {"align"}, "ol": {"start"}}
_SCHEMES = {"http", "https", "mailto"}


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    from markdown_it import MarkdownIt

    # "commonmark" with html=False: <script> in the text stays text. Tables and ~~strike~~ as GitHub writes them.
    parser = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable(["table", "strikethrough"])
    parser.disable("image")  # ![alt](url) stays text and a link: no request the person did not click
    return parser


def markdown_html(text: str) -> str:
    """Safe HTML for ``text`` (Markdown written by a model or shown from a tool)."""
    import nh3

    rendered = _parser().render(text)
    return nh3.clean(
        rendered,
        tags=_TAGS,
        attributes=_ATTRIBUTES,
        url_schemes=_SCHEMES,
        link_rel="noopener noreferrer",
        strip_comments=True,
        clean_content_tags={"script", "style", "iframe", "object", "embed", "template", "noscript", "svg", "math"},
    )
