"""The web tools: fetch, web_scrape and web_search, all through the SSRF-safe client.

``fetch`` returns a page as readable Markdown (headings, lists, links and code kept; scripts, styles, navigation
and other page furniture dropped); JSON and plain text come back as they are. ``web_scrape`` returns the
elements matching a CSS selector. ``web_search`` reads an HTML search results page (``[tools.scrape]
search_url``) and returns up to 8 results.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, quote_plus, urljoin, urlsplit

from pydantic import Field

from zeph_nb.config import Settings
from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.security.urls import Resolver
from zeph_nb.tools.base import BuiltinArgs, ToolCall, ToolDef, ToolOutput, checked_args
from zeph_nb.tools.untrusted import untrusted
from zeph_nb.tools.web.client import Fetched, SafeClient

if TYPE_CHECKING:
    from bs4 import BeautifulSoup

__all__ = ["WEB_TOOLS", "WebExecutor", "html_to_markdown"]

_URL = Field(min_length=1, max_length=8192, description="An https URL")
# Page furniture that is never the content a person asked for.
_NOISE = ["script", "style", "noscript", "template", "svg", "canvas", "iframe", "nav", "footer", "header", "aside",
          "form", "button", "input", "select"]  # fmt: skip
_TEXTUAL = ("text/", "application/json", "application/xml", "application/xhtml+xml", "application/javascript")


class FetchArgs(BuiltinArgs):
    url: str = _URL


class ScrapeArgs(BuiltinArgs):
    url: str = _URL
    select: str = Field(min_length=1, max_length=1000, description="CSS selector, e.g. 'table.prices td.amount'")
    extract: str = Field("text", description="'text', 'html', or 'attr:<name>' (e.g. 'attr:href')")
    limit: int = Field(10, ge=1, le=200, description="Most elements to return")


class SearchArgs(BuiltinArgs):
    query: str = Field(min_length=1, max_length=500, description="What to search the web for")


WEB_TOOLS: tuple[ToolDef, ...] = (
    ToolDef(
        "fetch",
        "Fetch a web page (https) and return its readable text as Markdown; JSON and plain text as they are.",
        FetchArgs,
        subject=("url",),
        subject_kind="url",
        cacheable=True,
        network=True,
        verb="This will fetch:",
        enabled_by="fetch_enabled",
    ),
    ToolDef(
        "web_scrape",
        "Fetch a page and return the elements matching a CSS selector (text, html or an attribute).",
        ScrapeArgs,
        subject=("url",),
        subject_kind="url",
        cacheable=True,
        network=True,
        verb="This will fetch:",
        enabled_by="web_scrape_enabled",
    ),
    ToolDef(
        "web_search",
        "Search the web; returns up to 8 results with title, URL and snippet.",
        SearchArgs,
        subject=("query",),
        cacheable=True,
        network=True,
        enabled_by="web_search_enabled",
    ),
)
_BY_NAME = {tool.name: tool for tool in WEB_TOOLS}


def _soup(html: str) -> BeautifulSoup:
    from bs4 import BeautifulSoup

    return BeautifulSoup(html, "html.parser")  # the stdlib parser: tolerant of broken HTML, no extra dependency


# Styles that hide an element's text from a reader: not displayed, invisible, transparent, zero-sized, clipped away or
# pushed far off the page (left:-9999px, text-indent:-9999px). Color tricks (white on white) are left: telling them
# apart from design would need the whole cascade.
_HIDDEN_STYLE = re.compile(
    r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse)|opacity\s*:\s*0*(?:\.0+)?\s*(?:;|$|!)|"
    r"font-size\s*:\s*0(?:\.0+)?(?:px|em|rem|pt|%)?\s*(?:;|$|!)|(?:max-)?(?:height|width)\s*:\s*0(?:px)?\s*(?:;|$|!)|"
    r"(?:left|top|text-indent|margin-left)\s*:\s*-\d{4,}(?:px)?|clip\s*:\s*rect\(\s*0[^)]*\)|"
    r"clip-path\s*:\s*inset\(\s*(?:50|100)%)",
    re.IGNORECASE,
)


def _drop_hidden(soup: BeautifulSoup) -> None:
    """Text a reader of the page never sees is where instructions for an agent hide: comments, ``hidden`` and
    ``aria-hidden`` elements, ``display:none``/``visibility:hidden`` styles, templates, hidden inputs."""
    from bs4 import Comment

    for comment in soup.find_all(string=lambda text: isinstance(text, Comment)):
        comment.extract()
    hidden = [
        tag for tag in soup.find_all(True)
        if tag.name == "template"
        or tag.has_attr("hidden")
        or str(tag.get("aria-hidden", "")).lower() == "true"
        or (tag.name == "input" and str(tag.get("type", "")).lower() == "hidden")
        or _HIDDEN_STYLE.search(str(tag.get("style", "")))
    ]  # fmt: skip
    for tag in hidden:
        if not tag.decomposed:
            tag.decompose()


def html_to_markdown(html: str, base_url: str = "") -> str:
    """Readable Markdown of a page: the main content when the page marks it, without scripts and furniture."""
    from markdownify import MarkdownConverter

    soup = _soup(html)
    for tag in soup(_NOISE):
        tag.decompose()
    _drop_hidden(soup)
    if base_url:  # links the model can follow: relative ones made absolute against the page's own URL
        for link in soup.find_all("a", href=True):
            link["href"] = urljoin(base_url, str(link["href"]))
    main = soup.find("main") or soup.find("article") or soup.select_one("[role=main]") or soup.body or soup
    title = soup.title.get_text(strip=True) if soup.title else ""
    text = MarkdownConverter(heading_style="ATX", bullets="-", code_language="", strip=["img"]).convert_soup(main)
    text = re.sub(r"\n{3,}", "\n\n", text).strip()
    if title and not text.startswith("# "):
        text = f"# {title}\n\n{text}"
    return text


class WebExecutor:
    """fetch, web_scrape and web_search. ``resolve`` replaces DNS (tests; never in production)."""

    def __init__(self, settings: Settings | None = None, *, resolve: Resolver | None = None) -> None:
        self.settings = settings or Settings()
        tools = self.settings.tools
        self.client = SafeClient(tools.scrape, resolve=resolve, hosts=tools.network_hosts,
                                 hosts_set_by=self.settings.set_by("tools.network_hosts"))  # fmt: skip

    def tool_definitions(self) -> Sequence[ToolDef]:
        return WEB_TOOLS

    def requires_confirmation(self, call: ToolCall) -> bool:
        return False

    async def execute(self, call: ToolCall) -> ToolOutput | None:
        tool = _BY_NAME.get(call.tool_id)
        if tool is None:
            return None
        args = checked_args(tool, call)
        if isinstance(args, FetchArgs):
            return await self.fetch(args, call)
        if isinstance(args, ScrapeArgs):
            return await self.scrape(args, call)
        assert isinstance(args, SearchArgs)
        return await self.search(args, call)

    async def fetch(self, args: FetchArgs, call: ToolCall) -> ToolOutput:
        page = await self.client.get(args.url, accept="text/html, application/json;q=0.9, text/*;q=0.8, */*;q=0.1")
        if page.content_type in ("text/html", "application/xhtml+xml") or (
            not page.content_type and page.body.lstrip()[:1] == b"<"
        ):
            text = html_to_markdown(page.text, page.url)
        elif page.content_type == "application/json" or page.content_type.endswith("+json"):
            text = _pretty_json(page.text)
        elif page.content_type.startswith(_TEXTUAL) or not page.content_type:
            text = page.text
        else:
            raise ToolError(
                ToolErrorCategory.PERMANENT_FAILURE,
                f"{page.url} is {page.content_type} ({len(page.body)} bytes), not text; fetch returns text only",
            )
        return self._output(call, page, text)

    async def scrape(self, args: ScrapeArgs, call: ToolCall) -> ToolOutput:
        import soupsieve

        extract = args.extract
        if extract not in ("text", "html") and not (extract.startswith("attr:") and len(extract) > 5):
            raise ToolError(ToolErrorCategory.INVALID_PARAMETERS,
                            f"extract must be 'text', 'html' or 'attr:<name>', got {extract!r}")  # fmt: skip
        try:
            selector = soupsieve.compile(args.select)
        except soupsieve.SelectorSyntaxError as e:
            raise ToolError(
                ToolErrorCategory.INVALID_PARAMETERS, f"invalid CSS selector {args.select!r}: {e}"
            ) from None
        page = await self.client.get(args.url, accept="text/html, application/xhtml+xml;q=0.9, */*;q=0.1")
        soup = _soup(page.text)
        found = selector.select(soup, limit=args.limit)
        values = []
        for element in found:
            if extract == "text":
                values.append(element.get_text(" ", strip=True))
            elif extract == "html":
                values.append(str(element))
            else:
                value = element.get(extract[5:])
                values.append(" ".join(value) if isinstance(value, list) else ("" if value is None else str(value)))
        if not values:
            text = f"no element of {page.url} matches {args.select!r}"
        else:
            text = "\n".join(f"{i}. {value}" for i, value in enumerate(values, 1))
        return self._output(call, page, text, matches=len(values))

    async def search(self, args: SearchArgs, call: ToolCall) -> ToolOutput:
        template = self.settings.tools.scrape.search_url
        page = await self.client.get(template.replace("{query}", quote_plus(args.query)), accept="text/html")
        results = parse_search_results(page.text)
        if not results:
            text = f"no results for {args.query!r}"
        else:
            text = "\n\n".join(f"{i}. {r['title']}\n   {r['url']}\n   {r['snippet']}" for i, r in enumerate(results, 1))
        return self._output(call, page, text, results=results)

    def _output(self, call: ToolCall, page: Fetched, text: str, **extra: Any) -> ToolOutput:
        if page.truncated:
            text += f"\n\n[the page was cut at {len(page.body)} bytes ([tools.scrape] max_body_bytes)]"
        text = untrusted(text, page.url)
        raw = {"url": page.url, "status": page.status, "content_type": page.content_type, "bytes": len(page.body),
               "truncated": page.truncated, "redirects": list(page.redirects), **extra}  # fmt: skip
        return ToolOutput(call.tool_id, text, raw, call.call_id, truncated=page.truncated)


def _pretty_json(text: str) -> str:
    try:
        return json.dumps(json.loads(text), indent=2, ensure_ascii=False)
    except ValueError:
        return text


def parse_search_results(html: str, limit: int = 8) -> list[dict[str, str]]:
    """Results of an HTML search page: DuckDuckGo's HTML layout, or any page whose results are links in
    ``.result`` blocks; redirect-wrapped URLs (``/l/?uddg=…``) are unwrapped."""
    soup = _soup(html)
    results: list[dict[str, str]] = []
    for block in soup.select(".result, .web-result, li.b_algo"):
        link = block.select_one("a.result__a, h2 a, a[href]")
        if link is None or not link.get("href"):
            continue
        href = str(link.get("href"))
        query = parse_qs(urlsplit(href).query)
        if "uddg" in query:
            href = query["uddg"][0]
        if href.startswith("//"):
            href = "https:" + href
        snippet = block.select_one(".result__snippet, .snippet, p")
        results.append({"title": link.get_text(" ", strip=True), "url": href,
                        "snippet": snippet.get_text(" ", strip=True) if snippet else ""})  # fmt: skip
        if len(results) >= limit:
            break
    return results
