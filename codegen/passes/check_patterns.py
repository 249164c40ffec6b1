"""Pass: a string pattern the generated Python cannot check is said, not dropped silently.

Phase: pass (after the reference check).
Inputs: a Protocol.
Outputs: the same Protocol; a PAT001 warning per pattern (JSDoc ``@pattern``, a schemars
``regex``, a ``json_schema!`` literal) that neither engine pydantic runs can say with its
ECMA-262 meaning (``codegen/ecma_regex.py``: a look-behind Python refuses, a negated class
escape inside a class that needs back-references too, ...), and an error-free pattern left
out of the bindings.  Before, such a pattern went into the bindings as written and the
generated package failed when imported, with exit 0.
Guarantees: pure; each pattern reported once, at the first place that states it.
"""

from __future__ import annotations

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.ecma_regex import Unspellable, for_pydantic
from codegen.ir.index import walk_expr
from codegen.passes.walk import type_exprs_of_decl


def check_patterns(protocol: ir.Protocol, diags: Diagnostics) -> ir.Protocol:
    said: set[str] = set()
    places = [
        (expr, span)
        for decl in protocol.decls
        for expr, span in type_exprs_of_decl(decl)
    ]
    places += [
        (part, method.span)
        for method in protocol.methods
        for part in (method.params, method.result)
        if part is not None
    ]
    for expr, span in places:
        for node in walk_expr(expr):
            if not isinstance(node, ir.Primitive) or node.constraints.pattern is None:
                continue
            pattern = node.constraints.pattern
            if pattern in said:
                continue
            try:
                for_pydantic(pattern)
            except Unspellable as why:
                said.add(pattern)
                diags.report(
                    "PAT001",
                    f"the pattern {pattern!r} cannot be checked by the Python bindings "
                    f"({why}): the JSON Schema keeps it; the bindings accept any string "
                    "here",
                    span,
                )
    return protocol
