"""Generic traversal of IR type expressions, shared by the passes.

Phase: pass helper.
Inputs: IR declarations and type expressions.
Outputs: iterators over nested type expressions, and the expressions each declaration holds
(with the span to blame).
Guarantees: pure, depth-first, source order.
"""

from __future__ import annotations

from collections.abc import Iterator

from codegen import ir


def walk_expr(expr: ir.TypeExpr | None) -> Iterator[ir.TypeExpr]:
    if expr is None:
        return
    yield expr
    if isinstance(expr, ir.ArrayOf):
        yield from walk_expr(expr.items)
    elif isinstance(expr, ir.MapOf):
        yield from walk_expr(expr.key)
        yield from walk_expr(expr.values)
    elif isinstance(expr, ir.TupleOf):
        for item in expr.items:
            yield from walk_expr(item)
    elif isinstance(expr, ir.InlineUnion):
        for member in expr.members:
            yield from walk_expr(member)


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
