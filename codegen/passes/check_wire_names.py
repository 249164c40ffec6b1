"""Pass: no object has two fields with one wire name after bases and flattening are expanded.

Phase: pass.
Inputs: a Protocol whose references resolve.
Outputs: the same Protocol; STR001 for each clash (a flattened struct or a base redeclaring a
key with a different type), naming both declarations.
Guarantees: pure; a redeclaration with the identical type (TypeScript narrowing a base field
to the same type) is not a clash.
"""

from __future__ import annotations

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.ir.index import Index


def check_wire_names(protocol: ir.Protocol, diags: Diagnostics) -> ir.Protocol:
    index = Index(protocol)
    for decl in protocol.decls:
        if isinstance(decl, ir.StructDecl):
            _check_struct(decl, index, diags)
    return protocol


def _check_struct(struct: ir.StructDecl, index: Index, diags: Diagnostics) -> None:
    seen: dict[str, ir.Field] = {}
    for fld in index.wire_fields(struct, keep_duplicates=True):
        earlier = seen.get(fld.wire_name)
        if (
            earlier is not None
            and earlier.type != fld.type
            and not _narrows(earlier, fld)
        ):
            diags.report(
                "STR001",
                f"{struct.name}: key {fld.wire_name!r} comes twice, at {earlier.span} and "
                f"{fld.span}, with different types",
                fld.span,
            )
        seen[fld.wire_name] = fld


def _narrows(base: ir.Field, override: ir.Field) -> bool:
    # TypeScript lets an interface narrow an inherited field (``type: string`` → a literal).
    return isinstance(base.type, ir.Primitive) and isinstance(
        override.type, (ir.Literal, ir.EnumMemberRef)
    )
