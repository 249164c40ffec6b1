"""Python names of a protocol's declarations, for the Python bindings.

Phase: backend (Python bindings), before any view is built.
Inputs: a normalized ``ir.Protocol`` and its ``Index``.
Outputs: the class name of every declaration and of every synthesized wrapper model
(``class_names``), the member constants of every enum (``enum_member_names``), and
the tag values that narrow the tag fields of variant structs (``tag_overrides``).
Guarantees: deterministic and unique within their scope (``naming.assign_names``);
class names never take a name in ``RESERVED_GLOBALS``.
"""

from __future__ import annotations

from codegen import ir, naming
from codegen.backends.python.imports import RESERVED_GLOBALS
from codegen.ir.index import Index

__all__ = [
    "class_names",
    "enum_member_names",
    "has_untagged_fallback",
    "needs_wrapper",
    "tag_overrides",
    "tagged_part_key",
    "wrapper_key",
]


def wrapper_key(union: ir.UnionDecl, variant: ir.Variant) -> str:
    """The key of a wrapper model in ``class_names`` (NUL never occurs in a spec
    name, so it cannot collide with a declaration).
    """
    return f"{union.name}\x00{variant.name}"


def tagged_part_key(union: ir.UnionDecl) -> str:
    """The key, in ``class_names``, of the tagged part of a union that also has
    untagged variants (tried after it)."""
    return f"{union.name}\x00"


def has_untagged_fallback(union: ir.UnionDecl) -> bool:
    return union.repr is not ir.UnionRepr.UNTAGGED and any(
        v.untagged for v in union.variants
    )


def needs_wrapper(index: Index, union: ir.UnionDecl, variant: ir.Variant) -> bool:
    """Whether a variant is emitted as a synthesized wrapper model: adjacently /
    externally tagged variants, and internally tagged unit variants or variant structs
    without the tag field.
    """
    if variant.untagged:
        return False  # written as its bare payload
    if union.repr is ir.UnionRepr.ADJACENTLY_TAGGED:
        return True
    if union.repr is ir.UnionRepr.EXTERNALLY_TAGGED:
        return variant.type is not None
    if union.repr is ir.UnionRepr.INTERNALLY_TAGGED:
        if variant.type is None:
            return True
        struct = index.struct_of(variant.type)
        tag = union.tag_key or "type"
        return struct is not None and all(
            f.wire_name != tag for f in index.wire_fields(struct)
        )
    return False


def class_names(protocol: ir.Protocol, index: Index) -> dict[str, str]:
    """Declaration name (or ``wrapper_key``) → its Python class name."""
    preferred = {d.name: naming.class_name(d.name) for d in protocol.decls}
    for decl in protocol.decls:
        if not isinstance(decl, ir.UnionDecl):
            continue
        for variant in decl.variants:
            if needs_wrapper(index, decl, variant):
                name = naming.class_name(decl.name) + naming.pascal_case(variant.name)
                preferred[wrapper_key(decl, variant)] = name
        if has_untagged_fallback(decl):
            preferred[tagged_part_key(decl)] = naming.class_name(decl.name) + "Tagged"
    return naming.assign_names(preferred, lambda key: preferred[key], RESERVED_GLOBALS)


def enum_member_names(protocol: ir.Protocol) -> dict[str, dict[str, str]]:
    """Enum name → member name → its Python constant."""
    return {
        decl.name: naming.assign_names(
            [m.name for m in decl.members], naming.constant_case
        )
        for decl in protocol.decls
        if isinstance(decl, ir.EnumDecl)
    }


def tag_overrides(
    protocol: ir.Protocol, index: Index
) -> dict[tuple[str, str], tuple[str | int | bool, ...]]:
    """(struct name, tag wire name) → the union tag values its tag field takes: the
    tag fields of variant structs become ``Literal`` of those values.
    """
    tags: dict[tuple[str, str], tuple[str | int | bool, ...]] = {}
    for decl in protocol.decls:
        if not isinstance(decl, ir.UnionDecl):
            continue
        if decl.repr is ir.UnionRepr.INTERNALLY_TAGGED:
            key = decl.tag_key or "type"
        else:
            continue
        for variant in decl.variants:
            struct = index.struct_of(variant.type) if variant.type else None
            if struct is None or not variant.tag_values:
                continue
            previous = tags.get((struct.name, key), ())
            merged = previous + tuple(
                v for v in variant.tag_values if v not in previous
            )
            tags[(struct.name, key)] = merged
    return tags
