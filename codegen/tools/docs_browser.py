"""What the docs checks in headless Chromium share: the local server, the browser, search.

Phase: output check (``make docs-check``: ``docs_check`` for this repository's site,
``docs_check_project`` for a user's project's site).
Inputs: a built site folder; Debian's ``chromium`` (``/usr/bin/chromium``) driven by
Playwright (never a browser of its own).
Outputs: ``serve`` (the site on 127.0.0.1, a port the OS chooses), ``local_browser`` (a
Chromium page whose requests outside the site are refused and recorded, its script errors
recorded), ``search`` (a search from the home page, judged), ``protocols`` (each
protocol's id, title and a method to search for), ``Results`` (counts and failures).
Guarantees: no request leaves the machine (each is aborted and listed in
``Browsing.outside``); the server logs nothing.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WIDE, NARROW = (1280, 900), (400, 860)


@dataclass
class Results:
    failures: list[str] = field(default_factory=list)
    pages: int = 0
    diagrams: int = 0
    tables: int = 0
    searches: int = 0
    narrow_pages: int = 0
    screenshots: list[tuple[str, str]] = field(default_factory=list)

    def check(self, ok: bool, message: str) -> None:
        if not ok:
            self.failures.append(message)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        del format, args


@contextlib.contextmanager
def serve(site: Path) -> Iterator[str]:
    """The site over HTTP on 127.0.0.1 (a free port), for the duration of the block."""
    handler = functools.partial(_Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@dataclass
class Browsing:
    """A Chromium context and page on a served site."""

    context: Any  # playwright's BrowserContext (imported lazily: make test has none)
    page: Any  # playwright's Page
    outside: list[str] = field(default_factory=list)  # requests refused: not the site
    errors: list[str] = field(default_factory=list)  # script errors in pages


@contextlib.contextmanager
def local_browser(base: str) -> Iterator[Browsing]:
    """Headless Chromium (a fresh profile) at 1280 px whose every request outside
    ``base`` is aborted and recorded."""
    from playwright.sync_api import Route, sync_playwright

    with (
        tempfile.TemporaryDirectory(prefix="docs-check-") as profile,
        sync_playwright() as pw,
    ):
        context = pw.chromium.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            headless=True,
            args=ARGS,
            viewport={"width": WIDE[0], "height": WIDE[1]},
        )
        browsing = Browsing(context, None)

        def local_only(route: Route) -> None:
            if route.request.url.startswith(base):
                route.continue_()
            else:
                browsing.outside.append(route.request.url)
                route.abort()

        context.route("**/*", local_only)
        browsing.page = context.new_page()
        browsing.page.on("pageerror", lambda error: browsing.errors.append(str(error)))
        try:
            yield browsing
        finally:
            context.close()


def search(
    page: object,
    base: str,
    method: str,
    title: str,
    results: Results,
    shot: Callable[[], None] | None = None,
) -> None:
    """Search from the home page for ``method``; its first hit must name it and ``title``
    and open the methods page at it (``shot`` is called while the hits show)."""
    from playwright.sync_api import Page
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    assert isinstance(page, Page)
    page.goto(base, wait_until="load")
    box = page.locator("input.md-search__input")
    box.click()  # at 1280 px the search box is in the header
    # Typed key by key as a reader does (the theme reads key events; ``fill`` alone is
    # sometimes not seen), again if no answer comes (the worker may still be indexing).
    for _ in range(4):
        box.fill("")
        box.press_sequentially(method, delay=20)
        try:
            page.wait_for_selector(".md-search-result__item", timeout=8_000)
            break
        except PlaywrightTimeout:
            continue
    time.sleep(0.3)  # the worker answers as the query settles
    hits = page.evaluate(
        """() => Array.from(document.querySelectorAll('.md-search-result__item')).slice(0, 5)
          .map((item) => ({
            title: (item.querySelector('h1, h2') || item).textContent.trim(),
            href: (item.querySelector('a') || {}).href || '',
            text: item.textContent,
          }))"""
    )
    results.searches += 1
    first = hits[0] if hits else {"title": "", "href": "", "text": ""}
    results.check(
        method in first["title"] and title in first["title"],
        f"search {method!r}: first hit is titled {first['title']!r}, "
        f"not by the method and {title!r}",
    )
    if shot is not None:
        shot()
    if first["href"]:
        # The hit opens the methods page scrolled to the method's own heading.
        page.goto(first["href"], wait_until="load")
        landed = page.evaluate("""() => {
              const id = new URLSearchParams(location.search).get('method');
              const h = id && document.getElementById(id);
              if (!h) return null;
              const top = h.getBoundingClientRect().top;
              const root = document.scrollingElement || document.documentElement;
              const bottom = root.scrollTop + window.innerHeight >= root.scrollHeight - 1;
              return {hash: location.hash, top: top, text: h.textContent,
                      bottom: bottom, height: window.innerHeight};
            }""")
        # At the top of the window; or, on a page too short to scroll it that far (the
        # last method of a small protocol), scrolled to the end with the heading shown.
        results.check(
            landed is not None
            and method in landed["text"]
            and (
                0 <= landed["top"] < 300
                or (landed["bottom"] and 0 <= landed["top"] < landed["height"] - 40)
            )
            and landed["hash"] != "",
            f"search {method!r}: its hit does not open at the method's heading ({landed})",
        )
    results.check(
        not any(
            "classDiagram" in hit["text"] or "sequenceDiagram" in hit["text"]
            for hit in hits
        ),
        f"search {method!r}: a hit shows diagram source",
    )


def protocols(docs: Iterable[Path]) -> list[dict[str, str]]:
    """Each protocol's id, title and a method to search for (``docs``: each spec's
    generated docs folder, with ``site.json`` and ``methods.md``): its first method
    whose name no other protocol has (``initialize`` is in several, and any of them
    may rank first)."""
    specs = []
    for folder in docs:
        data = json.loads((folder / "site.json").read_text(encoding="utf-8"))
        text = (folder / "methods.md").read_text(encoding="utf-8")
        names = [
            line[3:].replace("\\", "")
            for line in text.splitlines()
            if line.startswith("## ")
        ]
        specs.append((data, names))
    out = []
    for data, names in specs:
        others = {n for other, taken in specs if other is not data for n in taken}
        method = next((n for n in names if n not in others), "")
        out.append({"id": data["id"], "title": data["title"], "method": method})
    return out
