"""Canned results of the stub servers: the spec's own examples first, then a minimal
valid value built from the IR.

Phase: backend helper (used by ``codegen/backends/server.py``).
Inputs: the ``Index`` of a normalized ``ir.Protocol``.
Outputs: per request method, an ordered tuple of ``(origin, JSON text)`` candidates:
accepted MESSAGE examples carrying a ``result`` (for a result that is a union chosen by
the params, those of its first member first), then accepted ``part: result`` samples,
then the minimal value (required fields only, first enum member, first union variant,
``null`` for a request without a declared result; a string field the spec names a
constant for, ``protocolVersion`` ↔ ``LATEST_PROTOCOL_VERSION``, takes that value).
Guarantees: deterministic (spec order); never raises on odd IR (a cycle or an unknown
reference yields ``null``).  The generated ``stub_data.result()`` validates the
candidates in order at run time and uses the first that passes, so a candidate that
turns out invalid (a pattern the minimal builder cannot satisfy) is skipped, not served.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from codegen import ir
from codegen.ir.index import Index

__all__ = ["candidates", "examples_by_method", "minimal_value"]

_MAX_DEPTH = 24
# Smallest valid strings of the formats that come with a pattern.
_STRINGS = {
    "semver": "0.0.0",
    "date-time": "1970-01-01T00:00:00Z",
    "naive-date-time": "1970-01-01T00:00:00",
    "date": "1970-01-01",
    "time": "00:00:00",
    "char": " ",
}


def candidates(
    index: Index, method: ir.Method, mine: list[ir.Example]
) -> list[tuple[str, str]]:
    """The stub result candidates of one request method of ``index.protocol``, best
    first; ``mine``: the method's examples in spec order (``examples_by_method``: one
    pass over the examples for all methods)."""
    out: list[tuple[str, str]] = []
    seen: set[str] = set()

    def add(origin: str, value: Any) -> None:
        text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
        if text not in seen:
            seen.add(text)
            out.append((origin, text))

    examples: list[tuple[str, Any]] = []
    for example in mine:
        if example.expect is not ir.Expectation.ACCEPT or example.skipped_reason:
            continue
        if example.part is ir.ExamplePart.MESSAGE:
            message = _load(example.json_text)
            if isinstance(message, dict) and "result" in message:
                examples.append((f"example {example.name}", message["result"]))
    # A result that is a union chosen by the params (``CallToolResult | CreateTaskResult``):
    # plain calls get the first member, so its examples come first.
    first = _first_member(index, method.result)
    examples.sort(key=lambda item: not _fits(index, first, item[1]))
    for origin, value in examples:
        add(origin, value)
    for example in mine:
        if example.expect is not ir.Expectation.ACCEPT or example.skipped_reason:
            continue
        if example.part is ir.ExamplePart.RESULT:
            value = _load(example.json_text)
            if value is not _INVALID:
                add(f"sample {example.name}", value)
    if method.result is None:
        add("null result", None)
    else:
        for number, value in enumerate(_top_values(index, method.result)):
            add("minimal" if number == 0 else f"minimal variant {number + 1}", value)
    return out


def examples_by_method(protocol: ir.Protocol) -> dict[str, list[ir.Example]]:
    """The examples of each method, in spec order."""
    grouped: dict[str, list[ir.Example]] = {}
    for example in protocol.examples:
        if example.method is not None:
            grouped.setdefault(example.method, []).append(example)
    return grouped


_INVALID = object()


def _first_member(index: Index, expr: ir.TypeExpr | None) -> ir.StructDecl | None:
    if isinstance(expr, ir.InlineUnion) and expr.members:
        return index.struct_of(expr.members[0])
    return None


def _fits(index: Index, struct: ir.StructDecl | None, value: Any) -> bool:
    """Whether a JSON value has every key ``struct`` requires (True without a struct)."""
    if struct is None:
        return True
    required = [
        f.read_keys()
        for f in index.wire_fields(struct)
        if f.read and (f.presence is ir.Presence.REQUIRED or f.read_required)
    ]
    return isinstance(value, dict) and all(
        any(key in value for key in keys) for keys in required
    )


def _load(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return _INVALID


def _top_values(index: Index, expr: ir.TypeExpr) -> list[Any]:
    """The minimal value, and for a union one per variant (tried in order)."""
    resolved = index.resolve(expr)
    decl = index.get(resolved.name) if isinstance(resolved, ir.Ref) else None
    if isinstance(decl, ir.UnionDecl):
        return [_variant_value(index, decl, v, 0) for v in decl.variants]
    return [minimal_value(index, expr)]


def minimal_value(index: Index, expr: ir.TypeExpr, depth: int = 0) -> Any:
    """A small JSON value of ``expr``: required fields only, first members."""
    if depth > _MAX_DEPTH:
        return None
    if isinstance(expr, ir.Primitive):
        return _primitive(expr)
    if isinstance(expr, ir.Literal):
        return expr.value
    if isinstance(expr, ir.EnumMemberRef):
        enum = index.get(expr.enum)
        if isinstance(enum, ir.EnumDecl):
            for member in enum.members:
                if member.name == expr.member:
                    return member.value
        return expr.member
    if isinstance(expr, ir.ArrayOf):
        return []
    if isinstance(expr, ir.MapOf):
        return {}
    if isinstance(expr, ir.TupleOf):
        least = expr.least
        return [minimal_value(index, item, depth + 1) for item in expr.items[:least]]
    if isinstance(expr, ir.AnyJson):
        return {} if expr.object_only or expr.structured else None
    if isinstance(expr, ir.InlineUnion):
        return (
            minimal_value(index, expr.members[0], depth + 1) if expr.members else None
        )
    return _declared(index, expr, depth)


def _declared(index: Index, ref: ir.Ref, depth: int) -> Any:
    decl = index.get(ref.name)
    if isinstance(decl, ir.StructDecl):
        return _struct(index, decl, depth)
    if isinstance(decl, ir.EnumDecl):
        return decl.members[0].value if decl.members else (0 if decl.flags else "")
    if isinstance(decl, ir.UnionDecl):
        if not decl.variants:
            return None
        return _variant_value(index, decl, decl.variants[0], depth)
    if isinstance(decl, ir.AliasDecl):
        if decl.kind is ir.AliasKind.EXTERNAL:
            return None
        return minimal_value(index, decl.target, depth + 1)
    return None


def _struct(index: Index, struct: ir.StructDecl, depth: int) -> dict[str, Any]:
    # The value is read by the bindings before it is served, so it is built as a reader
    # sees the struct: under the first key a reader takes, the keys a reader requires
    # (serde's skip_serializing_if without a default too), none a reader never reads.
    out: dict[str, Any] = {}
    for fld in index.wire_fields(struct):
        if not fld.read or fld.flatten:
            continue
        if fld.presence is ir.Presence.OPTIONAL and not fld.read_required:
            continue
        fld = dataclasses.replace(fld, wire_name=fld.read_keys()[0])
        if fld.presence is ir.Presence.WRITTEN_ALWAYS_READ_OPTIONAL and fld.nullable:
            out[fld.wire_name] = None
            continue
        default = _load(fld.default_json) if fld.default_json is not None else _INVALID
        if fld.presence is not ir.Presence.REQUIRED and default is not _INVALID:
            out[fld.wire_name] = default  # what a writer writes for an absent key
            continue
        constant = _constant_for(index, fld)
        if constant is not None:
            out[fld.wire_name] = constant
            continue
        out[fld.wire_name] = minimal_value(index, fld.type, depth + 1)
    return out


def _constant_for(index: Index, fld: ir.Field) -> str | None:
    """A string field the spec names a constant for (``protocolVersion`` and MCP's
    ``LATEST_PROTOCOL_VERSION``): its value, which a real peer checks, rather than ``""``.
    """
    resolved = index.resolve(fld.type)
    if not (
        isinstance(resolved, ir.Primitive) and resolved.kind is ir.PrimitiveKind.STRING
    ):
        return None
    wanted = _constant_case(fld.wire_name)
    for constant in index.protocol.constants:
        if isinstance(constant.value, str) and (
            constant.name == wanted or constant.name.endswith("_" + wanted)
        ):
            return constant.value
    return None


def _constant_case(name: str) -> str:
    out = []
    for position, char in enumerate(name):
        if char.isupper() and position and not name[position - 1].isupper():
            out.append("_")
        out.append(char.upper() if char.isalnum() else "_")
    return "".join(out)


def _variant_value(
    index: Index, union: ir.UnionDecl, variant: ir.Variant, depth: int
) -> Any:
    payload = (
        minimal_value(index, variant.type, depth + 1)
        if variant.type is not None
        else None
    )
    tag: Any = variant.tag_values[0] if variant.tag_values else variant.name
    if variant.untagged:
        return payload  # written as its bare payload
    if union.repr is ir.UnionRepr.INTERNALLY_TAGGED:
        body = payload if isinstance(payload, dict) else {}
        return {union.tag_key or "type": tag, **body}
    if union.repr is ir.UnionRepr.ADJACENTLY_TAGGED:
        out: dict[str, Any] = {union.tag_key or "type": tag}
        if variant.type is not None:
            out[union.content_key or "content"] = payload
        return out
    if union.repr is ir.UnionRepr.EXTERNALLY_TAGGED:
        return tag if variant.type is None else {str(tag): payload}
    return payload


def _primitive(expr: ir.Primitive) -> Any:
    kind = expr.kind
    low = expr.constraints.minimum
    if kind is ir.PrimitiveKind.STRING:
        return _STRINGS.get(expr.constraints.format or "", "")
    if kind is ir.PrimitiveKind.INTEGER:
        return int(low) if low is not None and low > 0 else 0
    if kind is ir.PrimitiveKind.NUMBER:
        number = low if low is not None and low > 0 else 0
        # A binary float (serde's f64) is written with a fraction: 0.0, not 0.
        return float(number) if expr.constraints.binary_float else number
    if kind is ir.PrimitiveKind.BOOLEAN:
        return False
    return None
