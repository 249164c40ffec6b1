"""Generic traversal of IR declarations, shared by the passes.

Phase: pass helper.
Inputs: IR declarations.
Outputs: the type expressions each declaration holds (with the span to blame); nested
expressions are walked with ``ir_index.walk_expr``.
Guarantees: pure, depth-first, source order.
"""

from __future__ import annotations

from collections.abc import Iterator

from codegen import ir


def type_exprs_of_decl(decl: ir.Decl) -> Iterator[tuple[ir.TypeExpr, ir.Span]]:
    if isinstance(decl, ir.StructDecl):
        for fld in decl.fields:
            yield fld.type, fld.span
        if decl.index_value is not None:
            yield decl.index_value, decl.span
    elif isinstance(decl, ir.UnionDecl):
        for variant in decl.variants:
            if variant.type is not None:
                yield variant.type, (
                    variant.span if variant.span != ir.NO_SPAN else decl.span
                )
    elif isinstance(decl, ir.AliasDecl):
        yield decl.target, decl.span
