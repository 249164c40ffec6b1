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
from codegen.ir_index import Index


def check_wire_names(protocol: ir.Protocol, diags: Diagnostics) -> ir.Protocol:
    index = Index(protocol)
    for decl in protocol.decls:
        if isinstance(decl, ir.StructDecl):
            _check_struct(decl, index, diags)
    return protocol


def _check_struct(struct: ir.StructDecl, index: Index, diags: Diagnostics) -> None:
    seen: dict[str, ir.Field] = {}
    for fld in _raw_fields(struct, index, frozenset()):
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


def _raw_fields(
    struct: ir.StructDecl, index: Index, visiting: frozenset[str]
) -> list[ir.Field]:
    if struct.name in visiting:
        return []
    visiting = visiting | {struct.name}
    out: list[ir.Field] = []
    for base in struct.bases:
        base_struct = index.struct_of(base)
        if base_struct is not None:
            out.extend(_raw_fields(base_struct, index, visiting))
    for fld in struct.fields:
        inner = index.struct_of(fld.type) if fld.flatten else None
        out.extend(_raw_fields(inner, index, visiting) if inner else [fld])
    return out
