"""``make docs-check``, second half: a user's project's docs site, every link clicked.

Phase: output check (its own Make target; not part of ``make test``).
Inputs: a fresh project made as a user makes one, in a temporary folder:
``pyproject.toml`` with ``[tool.codegen] output = "src/myapp/wire"`` (the README's
nested output), ``codegen init`` of a TypeScript and a Rust spec, a method of its own added to each
starter (as a user's first edit; so each spec has a method to search for that the
other does not), ``codegen generate``,
``codegen docs --site out/site`` (each the installed command, run as a subprocess);
Debian's ``chromium`` driven by Playwright (``docs_browser``).
Outputs: a summary on stdout, one line per failure on stderr; exit 1 if any.
Guarantees (each a failure when broken): every command succeeds; in Chromium, with the
site served on 127.0.0.1, every page of the site (each HTML file, and each page linked
from one) answers 200 and every ``<a href>`` of every page resolves (``docs_crawl``: the
target answers 200, its fragment is an ``id`` of the target's DOM; relative links,
links to the spec's source pages and their line anchors, in-page anchors); search for a
method of each spec lists it first and opens it; no request leaves the machine and no
page has a script error.  Before that, the rejecting twin: a copy of the same site with
a link to a missing page and a link to a missing anchor planted in one page must be
reported with exactly those two problems, else the check is not checking.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from codegen.tools.docs_browser import (
    Browsing,
    Results,
    local_browser,
    protocols,
    search,
    serve,
)
from codegen.tools.docs_crawl import Crawl, Fetched, crawl

OUTPUT = "src/myapp/wire"  # the README's example: three folders deep
SPECS = (("chat", "typescript"), ("events", "rust"))
SITE = "out/site"

# A user's first edit of each starter: a method only this spec has.
ADDED_TS = """
/**
 * Sends a message to the room.
 *
 * @method sendMessage
 * @direction Client → Server
 * @messageType Request
 */
export interface SendMessageParams {
\t/** The message. */
\ttext: string;
}

/** The answer to `sendMessage`. */
export interface SendMessageResult {
\t/** The message's id in the room. */
\tid: string;
}
"""
RUST_TABLE = (
    '    (initialize, "initialize", InitializeParams, true, InitializeResponse, true)\n'
)
ADDED_RUST_ENTRY = (
    '    (subscribe, "subscribe", SubscribeParams, true, SubscribeResponse, true)\n'
)
ADDED_RUST = """
/// Asks for the events of one topic.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SubscribeParams {
    /// The topic.
    pub topic: String,
}

/// The answer to `subscribe`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SubscribeResponse {
    /// How many events are waiting.
    pub pending: u32,
}
"""

_FACTS = """() => ({
  ids: Array.from(document.querySelectorAll('[id]'), (e) => e.id)
    .concat(Array.from(document.querySelectorAll('a[name]'), (a) => a.name)),
  links: Array.from(document.querySelectorAll('a[href]'),
    (a) => [a.getAttribute('href'), a.href]),
})"""

# The planted twin: one link to a page that does not exist, one to an anchor that does
# not, in one page of a copy of the site.
PLANTED_PAGE = "chat/methods/index.html"
PLANTED = '<a href="../no-such-page/">gone</a> <a href="#no-such-anchor">nowhere</a>'
PLANTED_EXPECTED = (
    "chat/methods/: ../no-such-page/: status 404",
    "chat/methods/: #no-such-anchor: no anchor 'no-such-anchor' in chat/methods/",
)


def make_project(root: Path) -> tuple[Path, list[Path]]:
    """The user's project, built with the commands a user runs: (its site, each spec's
    generated docs folder).  Raises ``RuntimeError`` naming a command that failed."""
    (root / "pyproject.toml").write_text(
        f'[project]\nname = "myapp"\nversion = "0"\n\n[tool.codegen]\noutput = "{OUTPUT}"\n',
        encoding="utf-8",
    )
    for spec, language in SPECS:
        _codegen(root, "init", spec, "--language", language)
    ts = root / "specs" / "chat" / "protocol.ts"
    ts.write_text(ts.read_text(encoding="utf-8") + ADDED_TS, encoding="utf-8")
    rust = root / "specs" / "events" / "schema.rs"
    text = rust.read_text(encoding="utf-8")
    if RUST_TABLE not in text:
        raise RuntimeError(f"the Rust starter has no line {RUST_TABLE.strip()!r}")
    table = RUST_TABLE.rstrip("\n") + ",\n" + ADDED_RUST_ENTRY
    rust.write_text(text.replace(RUST_TABLE, table) + ADDED_RUST, encoding="utf-8")
    _codegen(root, "generate")
    _codegen(root, "docs", "--site", SITE)
    return root / SITE, [root / OUTPUT / spec / "docs" for spec, _ in SPECS]


def _codegen(root: Path, *command: str) -> None:
    """``codegen COMMAND`` in the project, as the user runs it; ``RuntimeError`` if it
    fails."""
    done = subprocess.run(
        [sys.executable, "-m", "codegen", *command],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(
            f"codegen {' '.join(command)}: exit {done.returncode}\n{done.stderr}"
        )


def start_urls(base: str, site: Path) -> list[str]:
    """Every HTML file of the site, as the URL a link names it by (a folder for its
    ``index.html``): pages no link reaches are checked too."""
    urls = []
    for path in sorted(site.rglob("*.html")):
        name = path.relative_to(site).as_posix()
        if name == "index.html" or name.endswith("/index.html"):
            name = name[: -len("index.html")]
        urls.append(base + name)
    return urls


def browser_fetch(browsing: Browsing) -> Callable[[str], Fetched]:
    """``docs_crawl``'s fetch in Chromium: the status as served, and for an HTML page
    its DOM once loaded (ids and links as the browser resolves them)."""

    def fetch(url: str) -> Fetched:
        answer = browsing.context.request.get(url)  # redirects followed, as a click
        status = answer.status
        html = "text/html" in answer.headers.get("content-type", "")
        answer.dispose()
        if status != 200 or not html:
            return Fetched(status, False)
        browsing.page.goto(url, wait_until="load")
        facts = browsing.page.evaluate(_FACTS)
        links = tuple((str(w), str(r)) for w, r in facts["links"])
        return Fetched(status, True, frozenset(facts["ids"]), links)

    return fetch


def crawl_site(browsing: Browsing, base: str, site: Path) -> Crawl:
    """Every link of ``site`` (served at ``base``), crawled in Chromium."""
    return crawl(base, start_urls(base, site), browser_fetch(browsing))


def planted_twin(site: Path, scratch: Path) -> list[str]:
    """The check on a copy of ``site`` with two broken links planted: the expected
    problems it did not report, and any it reported besides."""
    copy = scratch / "planted"
    shutil.copytree(site, copy)
    page = copy / PLANTED_PAGE
    text = page.read_text(encoding="utf-8")
    if "</article>" not in text:
        return [f"{PLANTED_PAGE} has no <article> to plant links in"]
    page.write_text(text.replace("</article>", PLANTED + "</article>", 1), "utf-8")
    with serve(copy) as base, local_browser(base) as browsing:
        result = crawl_site(browsing, base, copy)
    missing = [e for e in PLANTED_EXPECTED if e not in result.problems]
    extra = [p for p in result.problems if p not in PLANTED_EXPECTED]
    return [f"not reported: {m}" for m in missing] + [f"reported: {e}" for e in extra]


def check(root: Path, results: Results) -> Crawl | None:
    """Build the project in ``root`` and check its site; failures go to ``results``."""
    try:
        site, docs = make_project(root)
    except RuntimeError as error:
        results.failures.append(str(error))
        return None
    wrong = planted_twin(site, root)
    results.check(
        not wrong, f"the link check on a site with planted broken links: {wrong}"
    )
    with serve(site) as base, local_browser(base) as browsing:
        result = crawl_site(browsing, base, site)
        for spec in protocols(docs):
            results.check(bool(spec["method"]), f"{spec['id']}: no method to search")
            if spec["method"]:
                search(browsing.page, base, spec["method"], spec["title"], results)
        errors, outside = browsing.errors, browsing.outside
    results.pages = len(result.pages)
    results.failures.extend(result.problems)
    results.check(len(result.pages) >= 10, f"only {len(result.pages)} pages reached")
    results.check(not errors, f"script errors in pages: {errors[:3]}")
    results.check(not outside, f"requests left 127.0.0.1: {outside[:3]}")
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.parse_args(argv)
    started = time.monotonic()
    results = Results()
    with tempfile.TemporaryDirectory(prefix="docs-check-project-") as folder:
        result = check(Path(folder), results)
    if result is not None:
        print(
            f"docs-check (a user's project, output = {OUTPUT!r}): "
            f"{len(result.pages)} pages fetched in Chromium, {result.links} links "
            f"followed ({result.anchors} anchors, {result.external} external, not "
            f"fetched), {results.searches} searches, planted broken links reported; "
            f"{time.monotonic() - started:.0f} s"
        )
    for failure in results.failures:
        sys.stderr.write(f"docs-check: FAIL {failure}\n")
    return 1 if results.failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
