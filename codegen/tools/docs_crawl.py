"""Every link of a served docs site, followed as a reader's clicks would: the judging half.

Phase: output check (``make docs-check``, through ``docs_check_project``).
Inputs: the site's base URL, the URLs to start from, and ``fetch``: a function giving,
for one URL, its HTTP status and, for an HTML page, the ``id``s and ``<a href>``s of
its DOM (each href as written and as the browser resolved it).  The browser supplies
``fetch`` in ``docs_check_project``; a test supplies a table, so this logic is tested
without a browser.
Outputs: a ``Crawl``: each URL fetched, links and anchors checked, external links
counted, and one line per problem (``page: href as written: why``).
Guarantees: every page of the site reached from the start URLs is fetched once (a URL
without its fragment); every ``<a href>`` of every HTML page is judged: a link into the
site must answer 200, its fragment (unless empty) must be an ``id`` or ``<a name>`` of
the target page's DOM; an http(s) or mailto link elsewhere is counted, not fetched (the
site works offline); any other scheme (``javascript:``, ``file:``, ``data:``) is a
problem.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from urllib.parse import unquote, urldefrag, urlsplit

_EXTERNAL = ("http", "https", "mailto")


@dataclass(frozen=True)
class Fetched:
    """One URL as the browser got it."""

    status: int
    html: bool
    ids: frozenset[str] = frozenset()
    links: tuple[tuple[str, str], ...] = ()  # (href as written, as resolved)


@dataclass
class Crawl:
    pages: dict[str, Fetched] = field(default_factory=dict)
    links: int = 0
    anchors: int = 0
    external: int = 0
    problems: list[str] = field(default_factory=list)


def crawl(base: str, start: Iterable[str], fetch: Callable[[str], Fetched]) -> Crawl:
    """Fetch ``start`` and every page of the site linked from a fetched page, then
    judge every link."""
    result = Crawl()
    queue = [urldefrag(url).url for url in start]
    while queue:
        url = queue.pop(0)
        if url in result.pages:
            continue
        fetched = result.pages[url] = fetch(url)
        for _written, resolved in fetched.links:
            target = urldefrag(resolved).url
            if target.startswith(base) and target not in result.pages:
                queue.append(target)
    for url, fetched in result.pages.items():
        for written, resolved in fetched.links:
            result.links += 1
            problem = _judge(base, resolved, result)
            if problem:
                result.problems.append(f"{_name(base, url)}: {written}: {problem}")
    return result


def _judge(base: str, resolved: str, result: Crawl) -> str | None:
    target, fragment = urldefrag(resolved)
    if not target.startswith(base):
        scheme = urlsplit(resolved).scheme.lower()
        if scheme in _EXTERNAL:
            result.external += 1
            return None
        return f"scheme {scheme or '(none)'!r} not allowed"
    page = result.pages[target]
    if page.status != 200:
        return f"status {page.status}"
    if fragment and page.html:
        result.anchors += 1
        if unquote(fragment) not in page.ids:
            return f"no anchor {unquote(fragment)!r} in {_name(base, target)}"
    return None


def _name(base: str, url: str) -> str:
    """A URL of the site as its path from the site's root ("/" for the home page)."""
    if not url.startswith(base):
        return url
    return url[len(base) :] or "/"
