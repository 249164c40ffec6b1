"""Pass: decide how a reader tells the variants of each untagged union apart.

Phase: pass (after reference checking).
Inputs: ``UnionDecl``s with ``UnionRepr.UNTAGGED`` (every TypeScript union starts so; serde's
``untagged`` enums come with ``first_fit``).
Outputs:
- a union whose object variants all have one common required key typed by literals with
  pairwise-disjoint values becomes ``INTERNALLY_TAGGED`` with ``tag_key`` and per-variant
  ``tag_values`` (several values per variant allowed: ``kind: Kind.Number | Kind.Integer``):
  exact, since only the variant whose literal matches can read the value; a variant that
  names a union of objects counts with the tag values of all its objects (AHP's
  ``StateAction`` holds ``ChatToolCallConfirmedAction``, itself approved | denied);
- otherwise the union stays untagged and a reader tries the variants (UNI003 note): the
  first that reads the value with ``first_fit`` (serde), else any, preferring the best fit
  (TypeScript).  No key-based guess: it would reject values the source language accepts
  (``{"text": 5, "path": "p"}`` is serde's ``Path`` variant although it has ``text``).
  A first-fit variant that can never be chosen, because every value it reads is read by an
  earlier variant, gets UNI004.
Guarantees: pure and deterministic (candidate keys are tried in the first variant's wire
order); tagged unions with a value used twice get UNI002.  ``select_variant`` says which
object variant a wire object most likely meant, for pointing at declarations in messages.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.ir.index import Index

Scalar = str | int | float | bool


def infer_discriminators(protocol: ir.Protocol, diags: Diagnostics) -> ir.Protocol:
    index = Index(protocol)
    decls: list[ir.Decl] = []
    for decl in protocol.decls:
        if isinstance(decl, ir.UnionDecl):
            decl = _infer(decl, index, diags)
            _check_unique_tags(decl, diags)
            if decl.open and decl.repr is not ir.UnionRepr.INTERNALLY_TAGGED:
                diags.report(
                    "UNI005",
                    f"union {decl.name} is declared open, but only a union tagged inside "
                    "its objects can tell an unknown variant by its tag; it stays closed",
                    decl.span,
                )
                decl = replace(decl, open=False)
        decls.append(decl)
    return replace(protocol, decls=tuple(decls))


def _infer(union: ir.UnionDecl, index: Index, diags: Diagnostics) -> ir.UnionDecl:
    if union.repr is not ir.UnionRepr.UNTAGGED:
        return union
    objects = [
        (v, index.struct_of(v.type)) for v in union.variants if v.type is not None
    ]
    structs = [(v, s) for v, s in objects if s is not None]
    if len(objects) < 2:
        return union
    # A variant that is itself a union of objects (``A | (B | C)`` written through a
    # name) takes part with the objects of that union.
    entries: list[tuple[ir.Variant, list[ir.StructDecl]]] = []
    for variant, struct in objects:
        found = [struct] if struct is not None else _nested_structs(variant, index)
        if found is None:
            entries = []
            break
        entries.append((variant, found))
    if len(entries) == len(union.variants) and len(entries) >= 2:
        tagged = _by_tag_key(union, entries, index)
        if tagged is not None:
            return tagged
    if len(structs) < 2:
        return union
    _report_untagged(union, structs, index, diags)
    return union


def _nested_structs(
    variant: ir.Variant, index: Index, seen: frozenset[str] = frozenset()
) -> list[ir.StructDecl] | None:
    """The object types of a variant that names a union of objects, or None."""
    resolved = index.resolve(variant.type) if variant.type is not None else None
    if not isinstance(resolved, ir.Ref) or resolved.name in seen:
        return None
    decl = index.get(resolved.name)
    if not isinstance(decl, ir.UnionDecl):
        return None
    out: list[ir.StructDecl] = []
    for inner in decl.variants:
        struct = index.struct_of(inner.type) if inner.type is not None else None
        found = (
            [struct]
            if struct is not None
            else _nested_structs(inner, index, seen | {resolved.name})
        )
        if not found:
            return None
        out.extend(found)
    return out


def _by_tag_key(
    union: ir.UnionDecl,
    entries: list[tuple[ir.Variant, list[ir.StructDecl]]],
    index: Index,
) -> ir.UnionDecl | None:
    field_maps = [
        [{f.wire_name: f for f in index.wire_fields(s)} for s in structs]
        for _, structs in entries
    ]
    for key in field_maps[0][0]:
        values: list[tuple[Scalar, ...]] = []
        for maps in field_maps:
            group: list[Scalar] = []
            for fields in maps:
                fld = fields.get(key)
                if (
                    fld is None
                    or fld.presence is not ir.Presence.REQUIRED
                    or fld.nullable
                ):
                    break
                literal_values = literal_values_of(fld.type, index)
                if not literal_values:
                    break
                group.extend(v for v in literal_values if v not in group)
            else:
                values.append(tuple(group))
                continue
            break
        else:
            flat = [value for group in values for value in group]
            if len(flat) == len(set(flat)):
                variants = tuple(
                    replace(
                        variant,
                        tag_values=tuple(v for v in group if not isinstance(v, float)),
                    )
                    for (variant, _), group in zip(entries, values)
                )
                return replace(
                    union,
                    repr=ir.UnionRepr.INTERNALLY_TAGGED,
                    tag_key=key,
                    variants=variants,
                )
    return None


def _report_untagged(
    union: ir.UnionDecl,
    structs: list[tuple[ir.Variant, ir.StructDecl]],
    index: Index,
    diags: Diagnostics,
) -> None:
    rule = (
        "the first variant, in declaration order, that reads the value"
        if union.first_fit
        else "a variant that reads the value, the one matching the most fields"
    )
    names = ", ".join(v.name for v in union.variants)
    diags.report(
        "UNI003",
        f"union {union.name} has no tag; a reader takes {rule} ({names})",
        union.span,
    )
    if not union.first_fit:
        return
    for later, (variant, struct) in enumerate(structs):
        for earlier, earlier_struct in structs[:later]:
            if _reads_all_of(earlier_struct, struct, index):
                diags.report(
                    "UNI004",
                    f"union {union.name}: variant {variant.name} is never chosen; every "
                    f"value it reads is read first by {earlier.name}",
                    variant.span if variant.span != ir.NO_SPAN else union.span,
                )
                break


def _reads_all_of(first: ir.StructDecl, second: ir.StructDecl, index: Index) -> bool:
    """True when every object ``second`` reads is read by ``first`` too: ``first`` keeps
    unknown keys (or declares nothing ``second`` lacks), and each of its fields is in
    ``second`` with the same type and no stricter presence or nullability."""
    mine = {f.wire_name: f for f in index.wire_fields(first)}
    theirs = {f.wire_name: f for f in index.wire_fields(second)}
    if first.extra_keys is ir.ExtraKeys.FORBID and set(theirs) - set(mine):
        return False
    for key, fld in mine.items():
        other = theirs.get(key)
        if other is None:
            if fld.presence is ir.Presence.REQUIRED:
                return False
            continue
        if other.type != fld.type or (other.nullable and not fld.nullable):
            return False
        if fld.presence is ir.Presence.REQUIRED and other.presence is not (
            ir.Presence.REQUIRED
        ):
            return False
    return True


def literal_values_of(expr: ir.TypeExpr, index: Index) -> tuple[Scalar, ...]:
    """The JSON values a literal-like type admits, or () if it is not literal-like."""
    expr = index.resolve(expr)
    if isinstance(expr, ir.Literal):
        return (expr.value,)
    if isinstance(expr, ir.EnumMemberRef):
        enum = index.get(expr.enum)
        if isinstance(enum, ir.EnumDecl):
            for member in enum.members:
                if member.name == expr.member:
                    return (member.value,)
        return ()
    if isinstance(expr, ir.InlineUnion):
        out: list[Scalar] = []
        for option in expr.members:
            values = literal_values_of(option, index)
            if not values:
                return ()
            out.extend(values)
        return tuple(out)
    return ()


def select_variant(union: ir.UnionDecl, value: Any, index: Index) -> ir.Variant | None:
    """The object variant a wire object most likely meant: by the union's tag key or,
    untagged, the first object variant whose required keys are all present (only to point
    at declarations in messages; reading a value is the bindings' job)."""
    if not isinstance(value, dict):
        return None
    objects = [
        (v, s)
        for v in union.variants
        if v.type is not None and (s := index.struct_of(v.type)) is not None
    ]
    if union.tag_key is not None:
        tag = value.get(union.tag_key)
        return next((v for v, _ in objects if tag in _tag_values(v)), None)
    for variant, struct in objects:
        required = [
            f.wire_name
            for f in index.wire_fields(struct)
            if f.presence is ir.Presence.REQUIRED
        ]
        if all(key in value for key in required):
            return variant
    return None


def _tag_values(variant: ir.Variant) -> tuple[str | int | bool, ...]:
    """The tag values that select a variant (serde writes the variant name by default)."""
    return variant.tag_values or (variant.name,)


def _check_unique_tags(union: ir.UnionDecl, diags: Diagnostics) -> None:
    if union.repr is ir.UnionRepr.UNTAGGED:
        return
    owner: dict[object, str] = {}
    for variant in union.variants:
        for value in _tag_values(variant):
            key = (type(value).__name__, value)
            if key in owner:
                diags.report(
                    "UNI002",
                    f"union {union.name}: tag value {value!r} is used by {owner[key]} and "
                    f"{variant.name}",
                    variant.span if variant.span != ir.NO_SPAN else union.span,
                )
            owner[key] = variant.name
