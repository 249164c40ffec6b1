"""Structural assignability over IR types: is every value of one type a value of another?

Phase: pass helper (used by ``check_wire_names`` to tell a legal TypeScript narrowing of an
inherited field from a clash).
Inputs: two IR type expressions and an ``Index`` of the protocol.
Outputs: True, False, or None when it cannot tell (an ``unknown`` source, a cycle is
assumed to fit, as TypeScript assumes).
Guarantees: pure; never raises; follows aliases, enum members and unions.
"""

from __future__ import annotations

from codegen import ir
from codegen.ir.index import Index
from codegen.ir.verdicts import SCALARS, all_of, any_of, scalar_assignable

_Key = tuple[ir.TypeExpr, ir.TypeExpr]


def assignable(source: ir.TypeExpr, target: ir.TypeExpr, index: Index) -> bool | None:
    return _assignable(source, target, index, frozenset())


def _assignable(
    source: ir.TypeExpr, target: ir.TypeExpr, index: Index, assuming: frozenset[_Key]
) -> bool | None:
    if (source, target) in assuming or source == target:
        return True
    assuming = assuming | {(source, target)}
    source, target = index.resolve(source), index.resolve(target)
    if source == target:
        return True
    if isinstance(target, ir.AnyJson) and not (target.object_only or target.structured):
        return True
    source_members = _members(source, index)
    if source_members is not None:
        return all_of(_assignable(m, target, index, assuming) for m in source_members)
    target_members = _members(target, index)
    if target_members is not None:
        return any_of(_assignable(source, m, index, assuming) for m in target_members)
    if isinstance(source, ir.AnyJson):
        return None
    source, target = _scalar(source, index), _scalar(target, index)
    if isinstance(source, SCALARS) and isinstance(target, SCALARS):
        return scalar_assignable(source, target)
    source_struct, target_struct = index.struct_of(source), index.struct_of(target)
    if target_struct is not None:
        if source_struct is None:
            return False if _is_scalar(source) else None
        return _struct(source_struct, target_struct, index, assuming)
    if isinstance(target, ir.AnyJson):  # object, or object-or-array
        return source_struct is not None or (
            target.structured and isinstance(source, (ir.ArrayOf, ir.TupleOf))
        )
    if isinstance(target, ir.ArrayOf):
        if isinstance(source, ir.ArrayOf):
            return _assignable(source.items, target.items, index, assuming)
        if isinstance(source, ir.TupleOf):
            items = (*source.items, *([source.rest] if source.rest else []))
            return all_of(_assignable(i, target.items, index, assuming) for i in items)
        return False if _is_scalar(source) or source_struct else None
    if isinstance(target, ir.MapOf) and isinstance(source, ir.MapOf):
        return _assignable(source.values, target.values, index, assuming)
    if _is_scalar(target) and (
        source_struct is not None or isinstance(source, ir.ArrayOf)
    ):
        return False
    return None


def _struct(
    source: ir.StructDecl,
    target: ir.StructDecl,
    index: Index,
    assuming: frozenset[_Key],
) -> bool | None:
    mine = {f.wire_name: f for f in index.wire_fields(source)}
    verdicts: list[bool | None] = []
    theirs = index.wire_fields(target)
    for fld in theirs:
        have = mine.get(fld.wire_name)
        if have is None:
            if fld.presence is ir.Presence.REQUIRED:
                return False
            continue
        if (
            fld.presence is ir.Presence.REQUIRED
            and have.presence is not ir.Presence.REQUIRED
        ):
            return False
        if have.nullable and not fld.nullable:
            return False
        verdicts.append(_assignable(have.type, fld.type, index, assuming))
    extra = index.index_value(target)
    if extra is not None:
        known = {f.wire_name for f in theirs}
        verdicts.extend(
            _assignable(f.type, extra, index, assuming)
            for f in mine.values()
            if f.wire_name not in known
        )
    elif target.extra_keys is ir.ExtraKeys.FORBID and set(mine) - {
        f.wire_name for f in theirs
    }:
        return False
    return all_of(iter(verdicts))


def _members(expr: ir.TypeExpr, index: Index) -> tuple[ir.TypeExpr, ...] | None:
    if isinstance(expr, ir.InlineUnion):
        return expr.members
    if isinstance(expr, ir.Ref):
        decl = index.get(expr.name)
        if isinstance(decl, ir.UnionDecl):
            return tuple(
                v.type if v.type is not None else ir.Primitive(ir.PrimitiveKind.NULL)
                for v in decl.variants
            )
        if isinstance(decl, ir.EnumDecl) and not decl.flags and not decl.open:
            return tuple(ir.Literal(m.value) for m in decl.members)
    return None


def _scalar(expr: ir.TypeExpr, index: Index) -> ir.TypeExpr:
    if isinstance(expr, ir.EnumMemberRef):
        decl = index.get(expr.enum)
        if isinstance(decl, ir.EnumDecl):
            for member in decl.members:
                if member.name == expr.member:
                    return ir.Literal(member.value)
    return expr


def _is_scalar(expr: ir.TypeExpr) -> bool:
    return isinstance(expr, (ir.Primitive, ir.Literal, ir.EnumMemberRef))
