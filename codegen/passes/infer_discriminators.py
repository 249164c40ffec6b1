"""Pass: decide how a reader tells the variants of each untagged union apart.

Phase: pass (after reference checking).
Inputs: ``UnionDecl``s with ``UnionRepr.UNTAGGED`` (every TypeScript union starts so).
Outputs:
- a union whose object variants all have one common required key typed by literals with
  pairwise-disjoint values becomes ``INTERNALLY_TAGGED`` with ``tag_key`` and per-variant
  ``tag_values`` (several values per variant allowed: ``kind: Kind.Number | Kind.Integer``);
- otherwise, if each object variant has a required key that no other variant declares, the
  union stays untagged with a ``Discriminator(required_keys=...)`` (UNI003 note);
- otherwise UNI001 (ambiguous).  Primitive variants are told apart by their JSON type.
Guarantees: pure and deterministic (candidate keys are tried in the first variant's wire order);
tagged unions with a value used twice get UNI002.  ``select_variant`` reads a wire object
back the way these decisions say.
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
        decls.append(decl)
    return replace(protocol, decls=tuple(decls))


def _infer(union: ir.UnionDecl, index: Index, diags: Diagnostics) -> ir.UnionDecl:
    if union.repr is not ir.UnionRepr.UNTAGGED or union.discriminator is not None:
        return union
    objects = [
        (v, index.struct_of(v.type)) for v in union.variants if v.type is not None
    ]
    structs = [(v, s) for v, s in objects if s is not None]
    if len(structs) < 2:
        return union
    others = [v for v, s in objects if s is None]
    if not others:
        tagged = _by_tag_key(union, structs, index)
        if tagged is not None:
            return tagged
    return _by_required_keys(union, structs, index, diags)


def _by_tag_key(
    union: ir.UnionDecl,
    structs: list[tuple[ir.Variant, ir.StructDecl]],
    index: Index,
) -> ir.UnionDecl | None:
    field_maps = [{f.wire_name: f for f in index.wire_fields(s)} for _, s in structs]
    for key in field_maps[0]:
        values: list[tuple[Scalar, ...]] = []
        for fields in field_maps:
            fld = fields.get(key)
            if fld is None or fld.presence is not ir.Presence.REQUIRED or fld.nullable:
                break
            literal_values = literal_values_of(fld.type, index)
            if not literal_values:
                break
            values.append(literal_values)
        else:
            flat = [value for group in values for value in group]
            if len(flat) == len(set(flat)):
                variants = tuple(
                    replace(
                        variant,
                        tag_values=tuple(v for v in group if not isinstance(v, float)),
                    )
                    for (variant, _), group in zip(structs, values)
                )
                return replace(
                    union,
                    repr=ir.UnionRepr.INTERNALLY_TAGGED,
                    tag_key=key,
                    variants=variants,
                )
    return None


def _by_required_keys(
    union: ir.UnionDecl,
    structs: list[tuple[ir.Variant, ir.StructDecl]],
    index: Index,
    diags: Diagnostics,
) -> ir.UnionDecl:
    """Order the variants so that checking one required key each, in order, is exact.

    Variant V may be tested before W only if V's key is not a key W declares (else a valid W
    could be taken for V).  Greedily take any variant whose required key no remaining variant
    declares.  The last one needs no unique key: it keeps its first required key (so a
    message with none of the keys is still rejected), or an empty tuple when it has none,
    which makes it the fallback.
    """
    fields = {v.name: index.wire_fields(s) for v, s in structs}
    remaining = [variant for variant, _ in structs]
    picks: list[tuple[str, tuple[str, ...]]] = []
    while remaining:
        if len(remaining) == 1:
            last = remaining.pop()
            keys = [
                f.wire_name
                for f in fields[last.name]
                if f.presence is ir.Presence.REQUIRED
            ]
            picks.append((last.name, tuple(keys[:1])))
            break
        chosen = _next_identifiable(remaining, fields)
        if chosen is None:
            names = ", ".join(v.name for v in remaining)
            diags.report(
                "UNI001",
                f"union {union.name}: variants {names} share their keys and have no common "
                "literal tag; a reader cannot tell them apart",
                union.span,
            )
            return union
        variant, key = chosen
        remaining.remove(variant)
        picks.append((variant.name, (key,)))
    diags.report(
        "UNI003",
        f"union {union.name} has no tag; a reader checks keys in order: "
        + ", ".join(
            f"{name} if {keys[0]!r}" if keys else f"else {name}" for name, keys in picks
        ),
        union.span,
    )
    return replace(union, discriminator=ir.Discriminator(required_keys=tuple(picks)))


def _next_identifiable(
    remaining: list[ir.Variant], fields: dict[str, list[ir.Field]]
) -> tuple[ir.Variant, str] | None:
    for variant in remaining:
        others: set[str] = set()
        for other in remaining:
            if other is not variant:
                others.update(f.wire_name for f in fields[other.name])
        for fld in fields[variant.name]:
            if fld.presence is ir.Presence.REQUIRED and fld.wire_name not in others:
                return variant, fld.wire_name
    return None


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
    """The object variant a wire object belongs to, by the union's tag key or, untagged, by
    the discriminator's required keys in order (an empty key tuple is the fallback)."""
    if not isinstance(value, dict):
        return None
    objects = {
        v.name: v
        for v in union.variants
        if v.type is not None and index.struct_of(v.type) is not None
    }
    if union.tag_key is not None:
        tag = value.get(union.tag_key)
        return next(
            (v for v in objects.values() if tag in _tag_values(v)),
            None,
        )
    if union.discriminator is not None:
        for name, keys in union.discriminator.required_keys:
            if name in objects and all(key in value for key in keys):
                return objects[name]
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
