"""Link check of a built docs site: every link and resource of every page must resolve.

Phase: output (after ``mkdocs build``, in ``docs_site.build``).
Inputs: the site folder.
Outputs: a ``Report``: pages read, links checked, and one line per problem
(``page: href: why``).
Guarantees: every ``href`` / ``src`` of every HTML page that is not an external URL
(http, https, mailto) is resolved as a browser would (relative to the page, ``/`` from the
site root, a folder means its ``index.html``) and must name a file of the site; its
fragment, if any, must be an ``id`` (or ``name``) of the target page.  Any other scheme
(``javascript:``, ``data:``, ``file:``) is a problem.  External URLs are counted, not
fetched (the site works offline).
"""

from __future__ import annotations

import html.parser
import posixpath
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

_EXTERNAL = ("http", "https", "mailto")
# Links the theme writes that are not pages of the site: the search box's form and
# the sitemap (checked as files like any other).
_ATTRIBUTES = {
    "a": "href",
    "link": "href",
    "script": "src",
    "img": "src",
    "iframe": "src",
}


class _Page(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for key in ("id", "name"):
            value = values.get(key)
            if value and (key == "id" or tag == "a"):
                self.ids.add(value)
        wanted = _ATTRIBUTES.get(tag)
        value = values.get(wanted) if wanted else None
        if value is not None:
            self.links.append(value)


@dataclass
class Report:
    pages: int = 0
    links: int = 0
    external: int = 0
    problems: list[str] = field(default_factory=list)


def check(site: Path) -> Report:
    report = Report()
    parsed: dict[str, _Page] = {}
    for path in sorted(site.rglob("*.html")):
        page = _Page()
        page.feed(path.read_text(encoding="utf-8", errors="replace"))
        parsed[path.relative_to(site).as_posix()] = page
    report.pages = len(parsed)
    for name, page in parsed.items():
        for href in page.links:
            report.links += 1
            problem = _judge(site, name, href, parsed)
            if problem == "external":
                report.external += 1
            elif problem:
                report.problems.append(f"{name}: {href}: {problem}")
    return report


def _judge(site: Path, page: str, href: str, parsed: dict[str, _Page]) -> str | None:
    parts = urlsplit(href.strip())
    if parts.scheme:
        return "external" if parts.scheme.lower() in _EXTERNAL else "scheme not allowed"
    if parts.netloc:
        return "external"  # //host/path
    if not parts.path:
        target = page
    else:
        path = unquote(parts.path)
        base = "" if path.startswith("/") else posixpath.dirname(page)
        target = posixpath.normpath(posixpath.join(base, path.lstrip("/")))
        if target == ".." or target.startswith("../"):
            return "outside the site"
        if target == ".":
            target = ""
        if not target or (site / target).is_dir():
            target = posixpath.join(target, "index.html")
        if not (site / target).is_file():
            return "no such file"
    if parts.fragment:
        page_of_target = parsed.get(target)
        if page_of_target is None:
            return None  # a fragment of a non-HTML file (a line of a text file)
        if unquote(parts.fragment) not in page_of_target.ids:
            return "no such anchor"
    return None
