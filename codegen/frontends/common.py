"""Checks every tree-sitter frontend shares: syntax errors and names declared twice.

Phase: frontend helper.
Inputs: a tree-sitter root node with its ``SourceText``; the declarations a frontend built.
Outputs: SYN001 diagnostics (at most ``MAX_SYNTAX_ERRORS`` per file, so a badly broken file
does not drown the report) and REF003 diagnostics naming the first declaration.
Guarantees: never raises; source order.
"""

from __future__ import annotations

from tree_sitter import Node

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.source import SourceText

MAX_SYNTAX_ERRORS = 20


def report_syntax_errors(root: Node, source: SourceText, diags: Diagnostics) -> None:
    if not root.has_error:
        return
    stack = [root]
    reported = 0
    while stack and reported < MAX_SYNTAX_ERRORS:
        node = stack.pop()
        if node.is_error or node.is_missing:
            what = f"missing {node.type!r}" if node.is_missing else "unexpected text"
            snippet = (
                (node.text or b"").decode("utf-8", "replace")[:40].replace("\n", " ")
            )
            diags.report(
                "SYN001",
                f"syntax error: {what}" + (f" near {snippet!r}" if snippet else ""),
                source.span_at_point(node.start_point[0], node.start_point[1]),
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
