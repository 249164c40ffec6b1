"""Pass: no object has two fields with one wire name after bases and flattening are expanded.

Phase: pass.
Inputs: a Protocol whose references resolve.
Outputs: the same Protocol; STR001 for each clash, naming both declarations:
- among a struct's own fields and the fields of what it flattens (serde), a key written twice
  with different types;
- an inherited key redeclared by the struct itself with a type, presence or nullability that
  the base's does not admit (TypeScript lets a sub-interface narrow an inherited field:
  ``method: string`` → ``method: "tools/call"``, ``params?: {...}`` → ``params: P``; it
  rejects anything else);
- a key inherited from two bases with different types that the struct does not redeclare.
Guarantees: pure; the same field declared twice with the same meaning is not a clash (IR
equality ignores spans and docs); where assignability cannot be decided the narrowing is
taken as TypeScript's checker let it through.
"""

from __future__ import annotations

from dataclasses import replace

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.ir.index import Index
from codegen.passes.assignable import assignable


def check_wire_names(protocol: ir.Protocol, diags: Diagnostics) -> ir.Protocol:
    index = Index(protocol)
    for decl in protocol.decls:
        if isinstance(decl, ir.StructDecl):
            _check_own(decl, index, diags)
            if decl.bases:
                _check_inherited(decl, index, diags)
    return protocol


def _check_own(struct: ir.StructDecl, index: Index, diags: Diagnostics) -> None:
    seen: dict[str, ir.Field] = {}
    own = replace(struct, bases=())
    for fld in index.wire_fields(own, keep_duplicates=True):
        earlier = seen.get(fld.wire_name)
        if earlier is not None and earlier.type != fld.type:
            diags.report(
                "STR001",
                f"{struct.name}: key {fld.wire_name!r} comes twice, at {earlier.span} and "
                f"{fld.span}, with different types",
                fld.span,
            )
        seen[fld.wire_name] = fld


def _check_inherited(struct: ir.StructDecl, index: Index, diags: Diagnostics) -> None:
    inherited: dict[str, list[tuple[str, ir.Field]]] = {}
    for base in struct.bases:
        base_struct = index.struct_of(base)
        if base_struct is None or base_struct.name == struct.name:
            continue
        for fld in index.wire_fields(base_struct):
            inherited.setdefault(fld.wire_name, []).append((base_struct.name, fld))
    own = {f.wire_name: f for f in struct.fields if not f.flatten}
    for key, entries in inherited.items():
        mine = own.get(key)
        if mine is not None:
            for base_name, fld in entries:
                if not _narrows(fld, mine, index):
                    diags.report(
                        "STR001",
                        f"{struct.name}: key {key!r} is redeclared at {mine.span} with a "
                        f"type {base_name}'s field at {fld.span} does not admit",
                        mine.span,
                    )
            continue
        first_base, first = entries[0]
        for base_name, fld in entries[1:]:
            if fld.type != first.type and not _same_values(fld.type, first.type, index):
                diags.report(
                    "STR001",
                    f"{struct.name}: key {key!r} comes from {first_base} ({first.span}) and "
                    f"{base_name} ({fld.span}) with different types",
                    struct.span,
                )


def _same_values(a: ir.TypeExpr, b: ir.TypeExpr, index: Index) -> bool:
    """Two inline ``{ [key: string]: unknown }`` types lifted under two names are one type."""
    return assignable(a, b, index) is True and assignable(b, a, index) is True


def _narrows(base: ir.Field, override: ir.Field, index: Index) -> bool:
    """Whether a redeclared field admits only values the inherited one admits."""
    if base.type == override.type and (
        base.presence,
        base.nullable,
    ) == (override.presence, override.nullable):
        return True
    if override.presence is not ir.Presence.REQUIRED and (
        base.presence is ir.Presence.REQUIRED
    ):
        return False
    if override.nullable and not base.nullable:
        return False
    return assignable(override.type, base.type, index) is not False
