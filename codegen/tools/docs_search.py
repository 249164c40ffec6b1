"""The docs site's search index, retitled so every hit says which protocol and which item.

Phase: output (after ``mkdocs build``, in ``docs_site.build``).
Inputs: ``search/search_index.json`` as mkdocs-material's search plugin writes it (a page
entry titled by its navigation label — "Methods", "Overview" — and a section entry per
heading, the first one repeating the page's ``h1``) and the title of each protocol by id.
Outputs: the same file, rewritten.
Guarantees: a page's hit is titled by its item and protocol ("Model Context Protocol:
methods", "InitializeResult · Model Context Protocol type"); the section that repeats a
page's ``h1`` is folded into the page (no two identical hits); each method is a hit of its
own, titled "initialize · <protocol> method", whose link opens the methods page at it:
Material's worker keys a hit with no parent by its location before ``#`` and drops a hit
whose location has one, so each method's location is the page with a query of its own,
``methods/?method=<anchor>`` (the same page for any static server), and the site's
``docs_assets/anchor.js`` scrolls to the anchor the query names;
entries outside a protocol (the home page) keep their titles; deterministic output.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

METHOD_BOOST = 10


def retitle(site: Path, titles: dict[str, str]) -> int:
    """Rewrite ``site``'s search index in place; return the number of entries."""
    path = site / "search" / "search_index.json"
    index = json.loads(path.read_text(encoding="utf-8"))
    index["docs"] = retitled(index["docs"], titles)
    path.write_text(json.dumps(index, ensure_ascii=False), encoding="utf-8")
    return len(index["docs"])


def retitled(
    docs: list[dict[str, Any]], titles: dict[str, str]
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    pages: dict[str, dict[str, Any]] = {}
    first_section: set[str] = set()
    for doc in docs:
        location: str = doc["location"]
        page, _, anchor = location.partition("#")
        protocol = page.split("/", 1)[0]
        if protocol not in titles:
            out.append(doc)
            continue
        name = titles[protocol]
        rest = page[len(protocol) + 1 :]
        if not anchor:
            doc = {**doc, "title": _page_title(rest, name, doc["title"])}
            pages[page] = doc
            out.append(doc)
            continue
        if page in pages and page not in first_section:
            # The page's own h1: its text belongs to the page's hit.
            first_section.add(page)
            parent = pages[page]
            parent["text"] = " ".join(t for t in (parent["text"], doc["text"]) if t)
            if rest.startswith("types/") and rest != "types/":
                parent["title"] = f"{doc['title']} · {name} type"
            continue
        if rest == "methods/":
            out.append(
                {
                    **doc,
                    "location": f"{page}?method={anchor}",
                    "title": f"{doc['title']} · {name} method",
                    # A method's name finds the method before the types named after it
                    # (``InitializeParams`` would rank level with ``initialize``).
                    "boost": METHOD_BOOST,
                }
            )
            continue
        out.append({**doc, "title": f"{doc['title']} · {name}"})
    return out


def _page_title(rest: str, protocol: str, label: str) -> str:
    if rest == "":
        return f"{protocol}: overview"
    if rest == "methods/":
        return f"{protocol}: methods"
    if rest == "types/":
        return f"{protocol}: types"
    if rest.startswith("types/"):
        return f"{label} · {protocol} type"
    return f"{label} · {protocol}"
