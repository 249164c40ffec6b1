"""The docs site's fence for Mermaid diagrams (a pymdownx.superfences custom format).

Phase: output (called by mkdocs while it builds the site).
Inputs: the text of a ```` ```mermaid ```` fence of the generated docs (built by
``backends/docs/diagrams``, whose labels are already restricted to inert characters).
Outputs: ``<div class="diagram" data-search-exclude>`` holding the source, HTML-escaped.
Guarantees: the source is text in the page (every ``<``, ``&``, quote escaped), Mermaid
(``docs_assets/diagrams.js``) renders it in the page itself, unscaled, not in Material's
closed shadow root (so wide diagrams scroll instead of shrinking, and a browser test can
see the SVG); the search index leaves it out (no raw diagram source in search hits).
"""

from __future__ import annotations

import html
from typing import Any


def diagram(
    source: str,
    language: str,
    class_name: str,
    options: dict[str, Any],
    md: Any,
    **kwargs: Any,
) -> str:
    del language, options, md, kwargs  # the signature superfences calls with
    return (
        f'<div class="{html.escape(class_name)}" data-search-exclude>'
        f"{html.escape(source)}</div>"
    )
