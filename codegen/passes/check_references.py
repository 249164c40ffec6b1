"""Pass: every reference names a declaration, every enum-member reference names a member.

Phase: pass (first in the pipeline).
Inputs: a Protocol straight from a frontend.
Outputs: the same Protocol; REF001/REF004 diagnostics for dangling references, STR002 for a
base that is not an object type.
Guarantees: pure; later passes and backends may assume every ``Ref`` resolves once this pass
reported no errors.
"""

from __future__ import annotations

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.ir.index import walk_expr
from codegen.passes.walk import type_exprs_of_decl


def check_references(protocol: ir.Protocol, diags: Diagnostics) -> ir.Protocol:
    decls = {decl.name: decl for decl in protocol.decls}
    for decl in protocol.decls:
        for expr, span in type_exprs_of_decl(decl):
            for node in walk_expr(expr):
                _check(node, span, decls, diags)
        if isinstance(decl, ir.StructDecl):
            for base in decl.bases:
                target = decls.get(base.name)
                if target is None:
                    diags.report(
                        "REF001",
                        f"base {base.name} of {decl.name} is not defined",
                        base.span,
                    )
                elif not isinstance(target, (ir.StructDecl, ir.AliasDecl)):
                    diags.report(
                        "STR002",
                        f"base {base.name} of {decl.name} is not an object type",
                        base.span,
                    )
    for method in protocol.methods:
        for part in (method.params, method.result):
            for node in walk_expr(part):
                _check(node, method.span, decls, diags)
    return protocol


def _check(
    node: ir.TypeExpr, span: ir.Span, decls: dict[str, ir.Decl], diags: Diagnostics
) -> None:
    if isinstance(node, ir.Ref) and node.name not in decls:
        diags.report("REF001", f"{node.name} is not defined", _best(node.span, span))
    elif isinstance(node, ir.EnumMemberRef):
        target = decls.get(node.enum)
        if not isinstance(target, ir.EnumDecl):
            diags.report(
                "REF001", f"{node.enum} is not an enum", _best(node.span, span)
            )
        elif node.member not in {member.name for member in target.members}:
            diags.report(
                "REF004",
                f"{node.enum} has no member {node.member}",
                _best(node.span, span),
            )


def _best(own: ir.Span, fallback: ir.Span) -> ir.Span:
    return own if own != ir.NO_SPAN else fallback
