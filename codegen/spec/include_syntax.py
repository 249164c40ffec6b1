"""The include directives the frontends follow, in one place.

Phase: spec layer (imported by the TypeScript and prose frontends, which follow the
directives, and by ``codegen.cache``, which keys a spec by the files they name: a no-op run
must not import a frontend to know them).
Inputs: none. Outputs: ``TS_INCLUDE`` (``{@includeCode path}`` in TSDoc), ``PROSE_INCLUDE``
(``{% include file %}`` / ``{% include_relative file %}``), ``PROSE_INCLUDE_FOLDER`` (a
site's ``_includes``), ``PROSE_DOCUMENTS`` (the suffixes a prose include may name: documents,
never code or data), ``MAX_INCLUDED_DOCUMENTS``.
Guarantees: only ``re``; the patterns match the same text for the readers and the cache.
"""

from __future__ import annotations

import re

TS_INCLUDE = re.compile(r"\{@includeCode\s+([^}\s#:]+)[^}]*\}")
PROSE_INCLUDE = re.compile(
    r"\{%-?\s*include(?P<relative>_relative)?\s+(?P<q>[\"']?)(?P<file>[^\s\"'%]+)(?P=q)"
    r"[^%]*-?%\}"
)
PROSE_INCLUDE_FOLDER = "_includes"
PROSE_DOCUMENTS = (".md", ".markdown", ".mdx", ".txt", ".html")
MAX_INCLUDED_DOCUMENTS = 200
