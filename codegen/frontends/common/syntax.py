"""What every tree-sitter frontend shares: node text and spans, syntax errors, names
declared twice.

Phase: frontend helper.
Inputs: tree-sitter nodes with their ``SourceText``; the declarations a frontend built.
Outputs: a node's text and span; SYN001 diagnostics (at most ``MAX_SYNTAX_ERRORS`` per file,
so a badly broken file does not drown the report) and REF003 diagnostics naming the first
declaration.
Guarantees: never raises; source order.
"""

from __future__ import annotations

from tree_sitter import Node

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.spec.source import SourceText

MAX_SYNTAX_ERRORS = 20
# How deep a frontend follows one type expression (`Vec<Vec<...>>`, `[]map[string]...`).
# Real protocols stay under ten; every phase after the frontend walks type expressions
# recursively, so deeper chains are cut here, as a diagnostic, far below Python's stack.
MAX_TYPE_NESTING = 64


def node_text(node: Node | None) -> str:
    """The source text of a node ("" for a missing node)."""
    if node is None or node.text is None:
        return ""
    return node.text.decode("utf-8", errors="replace")


def span_of(source: SourceText, node: Node) -> ir.Span:
    """The span of a node's first character."""
    return source.span_at_point(node.start_point[0], node.start_point[1])


def report_syntax_errors(root: Node, source: SourceText, diags: Diagnostics) -> None:
    if not root.has_error:
        return
    stack = [root]
    reported = 0
    while stack and reported < MAX_SYNTAX_ERRORS:
        node = stack.pop()
        if node.is_error or node.is_missing:
            what = f"missing {node.type!r}" if node.is_missing else "unexpected text"
            snippet = node_text(node)[:40].replace("\n", " ")
            diags.report(
                "SYN001",
                f"syntax error: {what}" + (f" near {snippet!r}" if snippet else ""),
                span_of(source, node),
            )
            reported += 1
            continue
        if node.has_error:
            stack.extend(reversed(node.children))


def report_duplicates(decls: list[ir.Decl], diags: Diagnostics) -> None:
    first: dict[str, ir.Decl] = {}
    for decl in decls:
        if decl.name in first:
            diags.report(
                "REF003",
                f"{decl.name} is declared twice (first at {first[decl.name].span})",
                decl.span,
            )
        else:
            first[decl.name] = decl
