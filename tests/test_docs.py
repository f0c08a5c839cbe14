"""The documentation site builds, strictly, and every link in it and in the README lands somewhere.

The site is built once for this module the way `make docs` builds it (Sphinx, ``-W``: any warning fails), into a
temporary folder. Then every ``href`` and ``src`` of every page is followed: a relative one must name a built file,
and its ``#fragment`` an element of that page. The README's links to ``docs/…`` pages must land on built pages too,
and the pages made from the code (settings, errors, API) must hold everything the code has.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from bs4 import BeautifulSoup

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="the docs' defaults table needs bubblewrap")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "ZEPH_HOME": str(tmp_path_factory.mktemp("zeph-home"))}
    build = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", str(DOCS), str(out)],
        capture_output=True, text=True, env=env, timeout=600,
    )  # fmt: skip
    assert build.returncode == 0 and not build.stderr.strip(), build.stderr
    return out


@cache
def _page(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(), "html.parser")


def _ids(path: Path) -> set[str]:
    return {str(tag["id"]) for tag in _page(path).find_all(id=True)}


def _links(path: Path) -> Iterator[str]:
    for tag in _page(path).find_all(["a", "img", "link", "script"]):
        for attribute in ("href", "src"):
            value = tag.get(attribute)
            if isinstance(value, str) and value:
                yield value


def _broken(site: Path, page: Path, link: str) -> str | None:
    parts = urlsplit(link)
    if parts.scheme or parts.netloc or link.startswith("mailto:"):
        return None  # an address outside the site: not followed here (no network)
    target = page if not parts.path else (page.parent / unquote(parts.path)).resolve()
    if target.is_dir():
        target = target / "index.html"
    if not target.is_file() or site.resolve() not in target.resolve().parents:
        return f"{link}: no such file in the site"
    if parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in _ids(target):
        return f"{link}: {target.relative_to(site)} has no #{parts.fragment}"
    return None


def test_every_link_of_every_page_lands_on_a_built_page_and_anchor(site: Path) -> None:
    # _static/ holds the theme's own template fragments, not pages.
    pages = sorted(page for page in site.rglob("*.html") if "_static" not in page.relative_to(site).parts)
    assert len(pages) > 30
    followed, broken = 0, []
    for page in pages:
        for link in _links(page):
            followed += 1
            problem = _broken(site, page, link)
            if problem:
                broken.append(f"{page.relative_to(site)}: {problem}")
    assert not broken, "\n".join(broken)
    assert followed > 1000  # the walk really followed the sidebars, tables of contents and cross-references


def _readme_links() -> list[str]:
    text = (ROOT / "README.md").read_text()
    return re.findall(r"\]\((?!https?:)([^)]+)\)", text)


def test_the_readmes_links_resolve_to_built_pages(site: Path) -> None:
    links = _readme_links()
    assert sum(link.startswith("docs/") for link in links) >= 15
    for link in links:
        path, _, fragment = link.partition("#")
        assert (ROOT / path).exists(), f"README links {link}: no such file in the repository"
        if not path.endswith(".md"):
            continue  # a picture: shown on the repository's page
        assert path.startswith("docs/"), f"README links {link}: not a docs page"
        built = site / Path(path).relative_to("docs").with_suffix(".html")
        assert built.is_file(), f"README links {link}: the site has no {built.relative_to(site)}"
        assert not fragment or fragment in _ids(built), f"README links {link}: the built page has no #{fragment}"


def test_every_tutorial_is_a_page_with_its_stored_outputs(site: Path) -> None:
    notebooks = sorted((ROOT / "notebooks").glob("*.ipynb"))
    assert notebooks
    listed = (DOCS / "tutorials" / "index.md").read_text()
    for notebook in notebooks:
        assert f"<notebooks/{notebook.stem}>" in listed, f"{notebook.name}: give it a row in docs/tutorials/index.md"
        built = site / "tutorials" / "notebooks" / f"{notebook.stem}.html"
        assert built.is_file(), f"{notebook.name} is not in the docs: add it to docs/tutorials/index.md"
        assert _page(built).select(".cell_output"), f"{notebook.name}: its page shows no stored output"


def _text(site: Path, page: str) -> str:
    return " ".join(_page(site / page).get_text(" ").split())  # code is split into spans: words, not markup


def test_the_generated_pages_hold_everything_the_code_has(site: Path) -> None:
    import zeph_nb
    from zeph_nb.config import _leaf_keys
    from zeph_nb.errors import ToolErrorCategory

    shown = set()
    for table in _page(site / "reference" / "settings.html").select("section section section"):
        heading = table.find("h3")
        if heading is None:
            continue
        section = heading.get_text().rstrip("#¶ \n").strip("[]")  # the theme adds a "#" permalink
        shown |= {f"{section}.{row.find('td').get_text().strip()}" for row in table.select("tbody tr")}
    missing = set(_leaf_keys().values()) - shown
    assert not missing, f"keys not on the settings page: {sorted(missing)}"
    from zeph_nb.config.reference import refused_keys

    settings_page = _text(site, "reference/settings.html")
    unlisted = [where for where, _ in refused_keys() if where not in settings_page]
    assert not unlisted, f"refused keys not on the settings page: {unlisted}"
    errors = _text(site, "reference/errors.html")
    assert all(category.label in errors for category in ToolErrorCategory)
    api = _text(site, "reference/api.html")
    assert all(f"zeph_nb.{name}" in api for name in zeph_nb.__all__ if not name.startswith("__"))
    defaults = _text(site, "getting-started.html")
    assert "pip install requests" in defaults and "Linux with bubblewrap" in defaults


def test_the_pictures_in_the_docs_come_from_the_browser_tests() -> None:
    # make screenshots copies these from tests/e2e/artifacts; a picture no page shows is stale weight.
    pictures = {path.name for path in (DOCS / "images").glob("*.png")}
    makefile = (ROOT / "Makefile").read_text()
    named = set(re.search(r"DOC_SCREENSHOTS := (.*)", makefile).group(1).split())  # type: ignore[union-attr]
    assert pictures == {f"{name}.png" for name in named}
    shown = "".join(path.read_text() for path in [ROOT / "README.md", *DOCS.rglob("*.md")])
    assert all(picture in shown for picture in pictures), "a picture in docs/images that no page shows"
