"""Docs backend: a normalized ``ir.Protocol`` → Markdown reference pages with Mermaid
diagrams.

Public entry: ``render(protocol) -> {path: text}`` (``markdown``); class diagrams are laid
out by ``diagrams``.  The static site is built from these pages by ``codegen.tools.docs_site``.
"""

from codegen.backends.docs.markdown import render

__all__ = ["render"]
