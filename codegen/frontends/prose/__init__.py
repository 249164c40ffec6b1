"""Prose frontend: a Markdown spec with inline TypeScript → IR.

Public entry: ``read_spec(sources, config, diags) -> FrontendResult``.  The modules behind
it: ``reader`` (the document and its TypeScript blocks, read by the TypeScript frontend),
``markdown_blocks`` (headings, paragraphs, code blocks, also from the raw seed text) and
``methods`` (the ``Request:``/``Response:`` method table).
"""

from codegen.frontends.prose.reader import read_spec

__all__ = ["read_spec"]
