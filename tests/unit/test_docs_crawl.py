"""The link judging of ``make docs-check``'s crawl (``docs_crawl``), without a browser.

``docs_check_project`` gives ``crawl`` a fetch backed by Chromium; here a table of pages
stands in for it, so each rule is checked in ``make test``: a clean site passes with
every link counted, and each kind of broken link (a missing page, a missing anchor, a
page that is not 200, a forbidden scheme) planted alone in the same site is reported,
alone, at its page.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from codegen.tools.docs_check_project import start_urls
from codegen.tools.docs_crawl import Fetched, crawl

BASE = "http://127.0.0.1:8000/"


def _page(ids: set[str], *hrefs: tuple[str, str]) -> Fetched:
    return Fetched(200, True, frozenset(ids), tuple(hrefs))


def _site() -> dict[str, Fetched]:
    """A small site as the browser sees it: (href as written, as resolved)."""
    return {
        BASE: _page(
            {"home"},
            ("chat/", BASE + "chat/"),
            ("chat/methods/#initialize", BASE + "chat/methods/#initialize"),
            ("#home", BASE + "#home"),
            ("https://squidfunk.github.io/", "https://squidfunk.github.io/"),
            ("mailto:a@b.c", "mailto:a@b.c"),
        ),
        BASE
        + "chat/": _page(
            {"chat"},
            ("../", BASE),
            ("source/protocol.ts.html#L12", BASE + "chat/source/protocol.ts.html#L12"),
            ("methods/#", BASE + "chat/methods/#"),
        ),
        BASE + "chat/methods/": _page({"initialize", "log"}, ("../", BASE + "chat/")),
        BASE
        + "chat/source/protocol.ts.html": _page(
            {f"L{n}" for n in range(1, 40)}, ("../", BASE + "chat/")
        ),
        BASE + "sitemap.xml": Fetched(200, False),
    }


def _crawl(site: dict[str, Fetched]) -> tuple[list[str], list[str]]:
    """(problems, URLs fetched in order) of a crawl from the home page."""
    fetched: list[str] = []

    def fetch(url: str) -> Fetched:
        fetched.append(url)
        return site.get(url, Fetched(404, False))

    return crawl(BASE, [BASE], fetch).problems, fetched


def test_a_clean_site_passes_with_every_link_counted() -> None:
    fetched: list[str] = []

    def fetch(url: str) -> Fetched:
        fetched.append(url)
        return _site()[url]

    result = crawl(BASE, [BASE], fetch)
    assert result.problems == []
    assert result.links == 10 and result.external == 2 and result.anchors == 3
    # each page once, found by following links (only the home page was given)
    assert sorted(fetched) == sorted(
        u for u in _site() if u.endswith("/") or "html" in u
    )
    assert len(fetched) == len(set(fetched))


@pytest.mark.parametrize(
    ("page", "href", "resolved", "why"),
    [
        ("chat/", "methods/nope/", BASE + "chat/methods/nope/", "status 404"),
        (
            "chat/",
            "methods/#sendMessage",
            BASE + "chat/methods/#sendMessage",
            "no anchor 'sendMessage' in chat/methods/",
        ),
        (
            "chat/methods/",
            "../source/protocol.ts.html#L99",
            BASE + "chat/source/protocol.ts.html#L99",
            "no anchor 'L99' in chat/source/protocol.ts.html",
        ),
        ("chat/", "#chat%20x", BASE + "chat/#chat%20x", "no anchor 'chat x' in chat/"),
        (
            "/",
            "javascript:void(0)",
            "javascript:void(0)",
            "scheme 'javascript' not allowed",
        ),
        ("/", "file:///etc/passwd", "file:///etc/passwd", "scheme 'file' not allowed"),
    ],
)
def test_one_broken_link_planted_is_reported_alone(
    page: str, href: str, resolved: str, why: str
) -> None:
    site = _site()
    url = BASE if page == "/" else BASE + page
    planted = site[url]
    site[url] = Fetched(200, True, planted.ids, planted.links + ((href, resolved),))
    problems, _ = _crawl(site)
    assert problems == [f"{page}: {href}: {why}"]


def test_a_page_that_is_not_200_is_reported_at_each_link_to_it() -> None:
    site = _site()
    site[BASE + "chat/methods/"] = Fetched(500, False)
    problems, _ = _crawl(site)
    assert problems == [
        "/: chat/methods/#initialize: status 500",
        "chat/: methods/#: status 500",
    ]


def test_start_urls_name_every_html_file_as_links_do(tmp_path: Path) -> None:
    for name in ("index.html", "404.html", "chat/index.html", "chat/source/a.ts.html"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("<html></html>")
    (tmp_path / "sitemap.xml").write_text("")
    assert start_urls(BASE, tmp_path) == [
        BASE + "404.html",
        BASE + "chat/",
        BASE + "chat/source/a.ts.html",
        BASE,
    ]
