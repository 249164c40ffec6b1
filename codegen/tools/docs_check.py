"""``make docs-check``: the docs site as a reader meets it, in headless Chromium.

Phase: output check (its own Make target; not part of ``make test``).
Inputs: the repository's generated docs (built with ``docs_site.build``, Mermaid
included) and Debian's ``chromium`` (``/usr/bin/chromium``) driven by Playwright (never a
browser of its own).
Outputs: screenshots under ``build/docs-check/`` (1280 px and 400 px wide), a summary on
stdout, one line per failed assertion on stderr; exit 1 if any.
Guarantees (each a failure when broken): the site builds and its link check passes;
every page visited loads from 127.0.0.1 with no request leaving the machine and no script
error; every Mermaid diagram rendered to an SVG with no error and text of at least 10 px;
at 1280 px no table is wider than its container, no name in a table's first column wraps
and no last column is off-screen; at 400 px no table cell is off-screen; search for a
method's name lists it first, titled by the method and its protocol, and the hit opens
the methods page at the method's heading.  Before the site, each measurement is run on a
page built to fail it (``_BROKEN_PAGE``) and must fail there.
"""

from __future__ import annotations

import argparse
import functools
import shutil
import sys
import tempfile
import time
from pathlib import Path

from codegen.tools import docs_site
from codegen.tools.docs_browser import (
    ARGS,
    CHROMIUM,
    NARROW,
    WIDE,
    Results,
    local_browser,
    protocols,
    search,
    serve,
)

REPO = Path(__file__).resolve().parent.parent.parent
TYPE_PAGES_PER_PROTOCOL = 4  # the largest ones: the tables and diagrams most at risk


# ------------------------------------------------------------------ in-page measurements

_DIAGRAMS_DONE = """() => {
  const root = document.documentElement;
  return !document.querySelector('div.diagram') || root.dataset.diagrams === 'done';
}"""

_DIAGRAMS = """() => Array.from(document.querySelectorAll('div.diagram')).map((d) => {
  const svg = d.querySelector('svg');
  const box = svg ? svg.getBoundingClientRect() : null;
  const text = svg ? svg.querySelector('text, foreignObject') : null;
  const style = text ? getComputedStyle(text) : null;
  return {
    svg: !!svg,
    error: d.classList.contains('diagram-error')
      || !!(svg && svg.getAttribute('aria-roledescription') === 'error')
      || /Syntax error|Parse error/.test(d.textContent),
    width: box ? box.width : 0,
    fontPx: style ? parseFloat(style.fontSize) : 0,
  };
})"""

_TABLES = """() => {
  const out = [];
  for (const table of document.querySelectorAll('article table')) {
    const wrap = table.closest('.md-typeset__scrollwrap') || table.parentElement;
    const article = table.closest('article');
    const names = Array.from(table.querySelectorAll('tbody td:first-child code'));
    const wrapped = names.filter((c) => c.getClientRects().length > 1)
      .map((c) => c.textContent);
    const rows = Array.from(table.querySelectorAll('tbody tr'));
    const lastHidden = rows.some((r) => {
      const last = r.lastElementChild;
      if (!last) return false;
      const b = last.getBoundingClientRect();
      return b.right > wrap.getBoundingClientRect().right + 1 || b.width < 40;
    });
    out.push({
      head: Array.from(table.querySelectorAll('thead th')).map((h) => h.textContent).join('|'),
      tableWidth: table.scrollWidth,
      wrapWidth: wrap.clientWidth,
      wrapScroll: wrap.scrollWidth,
      articleRight: article.getBoundingClientRect().right,
      tableRight: table.getBoundingClientRect().right,
      wrapped: wrapped,
      lastHidden: lastHidden,
    });
  }
  return out;
}"""


_NARROW = """() => {
  const width = window.innerWidth;
  const cut = [];
  for (const cell of document.querySelectorAll('article table td')) {
    const box = cell.getBoundingClientRect();
    if (box.width > 0 && box.right > width + 1) cut.push(cell.textContent.slice(0, 40));
  }
  return {cut: cut, pageWidth: document.documentElement.scrollWidth, width: width};
}"""


def _visit(page: object, url: str, results: Results, wide: bool = True) -> None:
    """Load ``url``, wait for its diagrams, and check diagrams (and tables when wide)."""
    from playwright.sync_api import Page

    assert isinstance(page, Page)
    page.goto(url, wait_until="load")
    page.wait_for_function(_DIAGRAMS_DONE, timeout=30_000)
    results.pages += 1
    name = url.split("/", 3)[-1] or "home"
    for number, diagram in enumerate(page.evaluate(_DIAGRAMS), start=1):
        results.diagrams += 1
        results.check(diagram["svg"], f"{name}: diagram {number} did not render")
        results.check(not diagram["error"], f"{name}: diagram {number} shows an error")
        results.check(
            diagram["fontPx"] >= 10,
            f"{name}: diagram {number} text is {diagram['fontPx']} px",
        )
    if not wide:
        # On a phone every cell, the descriptions included, is on screen: no sideways
        # scrolling to read a table.
        narrow = page.evaluate(_NARROW)
        results.narrow_pages += 1
        results.check(
            not narrow["cut"],
            f"{name}: at {narrow['width']} px table cells are off-screen: {narrow['cut'][:3]}",
        )
        return
    for table in page.evaluate(_TABLES):
        results.tables += 1
        what = f"{name}: table [{table['head']}]"
        results.check(
            table["wrapScroll"] <= table["wrapWidth"] + 1
            and table["tableRight"] <= table["articleRight"] + 1,
            f"{what} overflows its container "
            f"({table['tableWidth']} px in {table['wrapWidth']} px)",
        )
        results.check(
            not table["wrapped"], f"{what}: names broken over lines: {table['wrapped']}"
        )
        results.check(not table["lastHidden"], f"{what}: its last column is off-screen")


def _shot(page: object, results: Results, out: Path, name: str, what: str) -> None:
    from playwright.sync_api import Page

    assert isinstance(page, Page)
    path = out / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    results.screenshots.append((str(path.relative_to(REPO)), what))


def _chosen_type_pages(site: Path, protocol: str) -> list[str]:
    """The largest type pages of a protocol (most rows and diagram), by HTML size."""
    pages = [
        p
        for p in (site / protocol / "types").glob("*/index.html")
        if p.parent.name != "types"
    ]
    pages.sort(key=lambda p: (-p.stat().st_size, p.as_posix()))
    return [
        p.parent.relative_to(site).as_posix() + "/"
        for p in pages[:TYPE_PAGES_PER_PROTOCOL]
    ]


def check_site(base: str, site: Path, out: Path, results: Results) -> None:
    specs = protocols(
        sorted(p.parent for p in (REPO / "generated").glob("*/docs/site.json"))
    )
    with local_browser(base) as browsing:
        page = browsing.page
        _visit(page, base, results)
        _shot(
            page,
            results,
            out,
            "home-1280",
            "the home page: each protocol, its summary and links",
        )
        first = True
        for spec in specs:
            for sub in ("", "methods/", "types/"):
                _visit(page, f"{base}{spec['id']}/{sub}", results)
                if first and sub == "":
                    page.locator("h2#a-typical-exchange").scroll_into_view_if_needed()
                    _shot(
                        page,
                        results,
                        out,
                        f"{spec['id']}-exchange-1280",
                        "a protocol's typical exchange (sequence diagram from its examples)",
                    )
                    page.goto(f"{base}{spec['id']}/", wait_until="load")
                    page.wait_for_function(_DIAGRAMS_DONE, timeout=30_000)
                    _shot(
                        page,
                        results,
                        out,
                        f"{spec['id']}-overview-1280",
                        "a protocol's overview: what it is, its methods at a glance",
                    )
            for sub in _chosen_type_pages(site, spec["id"]):
                _visit(page, base + sub, results)
            first = False
        # A type page with a table and a diagram, then the same at phone width.
        sample = _sample_type(site, specs[0]["id"] if specs else "")
        if sample:
            _visit(page, base + sample, results)
            _shot(page, results, out, "type-1280", "a type page: facts, field table")
            page.locator("div.diagram").first.scroll_into_view_if_needed()
            _shot(page, results, out, "type-diagram-1280", "a type page's own diagram")
        for spec in specs:
            method = spec["method"]
            if method:
                shot = None
                if spec is specs[0]:
                    shot = functools.partial(
                        _shot,
                        page,
                        results,
                        out,
                        "search-1280",
                        f"search for {method!r}: hits titled by method and protocol",
                    )
                search(page, base, method, spec["title"], results, shot)
        page.set_viewport_size({"width": NARROW[0], "height": NARROW[1]})
        _visit(page, base, results, wide=False)
        _shot(page, results, out, "home-400", "the home page on a phone")
        for spec in specs:
            _visit(page, f"{base}{spec['id']}/methods/", results, wide=False)
        if specs:
            _visit(page, f"{base}{specs[0]['id']}/", results, wide=False)
            _shot(
                page, results, out, "overview-400", "a protocol's overview on a phone"
            )
        if sample:
            _visit(page, base + sample, results, wide=False)
            _shot(page, results, out, "type-400", "a type page on a phone")
            page.locator("div.diagram").first.scroll_into_view_if_needed()
            _shot(
                page,
                results,
                out,
                "type-diagram-400",
                "a type's diagram on a phone (scrolls)",
            )
        errors, outside = browsing.errors, browsing.outside
        results.check(not errors, f"script errors in pages: {errors[:3]}")
        results.check(not outside, f"requests left 127.0.0.1: {outside[:3]}")


def _sample_type(site: Path, protocol: str) -> str:
    """A type page with a diagram and a table with descriptions, the most rows up to a
    screenful, fields before enum members (what most needs to read well)."""
    best: tuple[bool, int] = (False, -1)
    chosen = ""
    for page in sorted((site / protocol / "types").glob("*/index.html")):
        text = page.read_text(encoding="utf-8")
        count = text.count("<tr>")
        if "<th>Description</th>" not in text or 'class="diagram"' not in text:
            continue
        rank = ("<th>Field</th>" in text, count)
        if 4 <= count <= 14 and rank > best:
            best, chosen = rank, page.parent.relative_to(site).as_posix() + "/"
    return chosen


# The rejecting twin of every measurement: a page built to fail each one.  If a check
# stops firing on it (a theme update renames a class, a script changes), docs-check fails
# instead of passing on a site it no longer measures.
_BROKEN_PAGE = """<!doctype html>
<html lang="en" data-diagrams="done"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><article style="width: 600px">
<div class="md-typeset__scrollwrap" style="overflow-x: auto"><table>
<thead><tr><th>Field</th><th>Description</th></tr></thead>
<tbody><tr><td style="width: 1px"><code>a name that wraps</code></td>
<td style="white-space: nowrap">%s</td></tr></tbody></table></div>
<div class="diagram diagram-error">classDiagram oops</div>
</article></body></html>
""" % ("a description far too long for its column " * 6)
_BROKEN_EXPECTED = (
    "did not render",
    "shows an error",
    "overflows its container",
    "names broken over lines",
    "last column is off-screen",
    "table cells are off-screen",
)


def self_test() -> list[str]:
    """Each measurement run on ``_BROKEN_PAGE``: the ones that did not fire."""
    from playwright.sync_api import sync_playwright

    results = Results()
    with tempfile.TemporaryDirectory(prefix="docs-check-broken-") as folder:
        (Path(folder) / "index.html").write_text(_BROKEN_PAGE, encoding="utf-8")
        with serve(Path(folder)) as base, sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=ARGS
            )
            page = browser.new_page(viewport={"width": WIDE[0], "height": WIDE[1]})
            _visit(page, base, results)
            page.set_viewport_size({"width": NARROW[0], "height": NARROW[1]})
            _visit(page, base, results, wide=False)
            browser.close()
    found = " | ".join(results.failures)
    return [expected for expected in _BROKEN_EXPECTED if expected not in found]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=REPO / "build" / "docs-check")
    args = parser.parse_args(argv)
    results = Results()
    out: Path = args.out
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    started = time.monotonic()
    silent = self_test()
    if silent:
        sys.stderr.write(
            f"docs-check: FAIL its checks do not fire on a broken page: {silent}\n"
        )
        return 1
    built = docs_site.build(REPO, REPO / "build" / "docs")
    if built.returncode != 0 or built.links is None:
        sys.stderr.write(built.stderr)
        sys.stderr.write("docs-check: the site did not build\n")
        return 1
    with serve(built.site) as base:
        check_site(base, built.site, out, results)
    print(
        f"docs-check: {built.links.pages} pages built, {built.links.links} links checked "
        f"({built.links.external} external, not fetched); in Chromium: {results.pages} "
        f"page loads, {results.diagrams} diagrams, {results.tables} tables measured at "
        f"{WIDE[0]} px, {results.narrow_pages} pages measured at {NARROW[0]} px, "
        f"{results.searches} searches; {time.monotonic() - started:.0f} s"
    )
    for path, what in results.screenshots:
        print(f"  {path}: {what}")
    for failure in results.failures:
        sys.stderr.write(f"docs-check: FAIL {failure}\n")
    return 1 if results.failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
