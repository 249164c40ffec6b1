"""Go type expressions and struct fields → IR, with encoding/json's wire semantics.

Phase: frontend (called by ``go.py`` for each ``type_spec`` node).
Inputs: tree-sitter-go nodes of one source, the ``SourceText`` for spans.
Outputs: ``ir.TypeExpr``s and ``ir.Field``s; anonymous struct types are lifted to named,
non-exported ``StructDecl``s (``Owner`` + ``Field``, ``derived_from = "Owner.field"``).
Guarantees: never raises on user input; what encoding/json cannot write (channels, functions,
complex numbers, non-string map keys) is a SYN003 diagnostic and reads as any JSON.

encoding/json, as this module applies it (each rule has a test in tests/frontends):

- the key is the tag's name, else the Go field name; ``json:"-"`` drops the field; unexported
  fields are never written; an embedded struct without a tag name is flattened in place;
- ``omitempty`` / ``omitzero``: ``Presence.OPTIONAL``; the writer leaves out the zero value, so
  a nil pointer, slice or map is left out and never written as ``null`` (not nullable).  On a
  struct *value* ``omitempty`` has no effect (a struct is never "empty"); that is kept;
- no option: the writer always writes the key and the reader accepts it missing (zero value):
  ``Presence.WRITTEN_ALWAYS_READ_OPTIONAL`` with ``default_json`` = the zero value (``""``,
  ``0``, ``false``, ``null`` for pointers, slices, maps and interfaces, the zero object for a
  struct); a nil pointer, slice or map is written as ``null``, so those are nullable;
- ``*T`` nullable (see above); ``json.RawMessage``, ``any``, ``interface{}`` any JSON;
  ``map[K]V`` an object (K of string or integer kind, named or not, or a type with
  ``MarshalText``: keys are strings on the wire); ``[]T`` an
  array; ``[]byte`` a base64 string; ``int*``/``uint*`` integers with their range;
  ``float32``/``float64`` numbers; ``time.Time`` an RFC 3339 string.

Where Go's reader is more lenient than its writer (``null`` into a string is a no-op, keys are
matched case-insensitively) the IR describes what a Go peer writes: that is what must round-trip.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from tree_sitter import Node

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.common.syntax import MAX_TYPE_NESTING, node_text, span_of
from codegen.spec.source import SourceText

_TAG_PAIR = re.compile(r'(\w+):"((?:[^"\\]|\\.)*)"')
_ALLOWED_VALUES = re.compile(
    r'^"[^"]*"(?:\s*\([^)]*\))?\s*(?:(?:,|or|and|,\s*or)\s*"|$)'
)
_INT_RANGES: dict[str, tuple[int, int]] = {
    "int8": (-(2**7), 2**7 - 1),
    "int16": (-(2**15), 2**15 - 1),
    "int32": (-(2**31), 2**31 - 1),
    "rune": (-(2**31), 2**31 - 1),
    "int": (-(2**63), 2**63 - 1),
    "int64": (-(2**63), 2**63 - 1),
    "uint8": (0, 2**8 - 1),
    "byte": (0, 2**8 - 1),
    "uint16": (0, 2**16 - 1),
    "uint32": (0, 2**32 - 1),
    "uint": (0, 2**64 - 1),
    "uint64": (0, 2**64 - 1),
    "uintptr": (0, 2**64 - 1),
}
INTEGER_TYPES = frozenset(_INT_RANGES)
# Go's predeclared scalar types (what encoding/json reads as a bare JSON value).
SCALAR_TYPES = INTEGER_TYPES | {"bool", "string", "float32", "float64"}
_STRING = ir.Primitive(ir.PrimitiveKind.STRING)
# Go's ``int``/``uint`` are 64 bits on every platform piglet ships for; formats use the
# OpenAPI names where one exists.
_FORMATS = {"int": "int64", "uint": "uint64", "rune": "int32", "byte": "uint8"}


@dataclass(frozen=True, slots=True)
class GoType:
    """A converted Go type: the IR expression plus the facts encoding/json cares about."""

    expr: ir.TypeExpr
    zero_json: str  # what the writer emits for the zero value
    nil_is_null: bool = (
        False  # pointer, slice, map, interface: the zero value is ``null``
    )


@dataclass(frozen=True, slots=True)
class JsonTag:
    present: bool
    name: str
    options: frozenset[str]
    other_keys: frozenset[str]
    skip: bool = False  # exactly ``json:"-"`` (``json:"-,"`` is the key "-")


def parse_tag(raw: str) -> JsonTag:
    """A struct tag (the text between backquotes) → its ``json`` part."""
    pairs = dict(_TAG_PAIR.findall(raw))
    others = frozenset(key for key in pairs if key != "json")
    if "json" not in pairs:
        return JsonTag(False, "", frozenset(), others)
    name, *options = pairs["json"].split(",")
    skip = pairs["json"] == "-"
    return JsonTag(True, name, frozenset(o for o in options if o), others, skip)


def allowed_values(comment: str) -> bool:
    """A trailing comment that lists quoted values: ``// "user" or "assistant"``."""
    return bool(_ALLOWED_VALUES.match(comment))


@dataclass
class TypeConverter:
    source: SourceText
    diags: Diagnostics
    struct_builder: Callable[[Node, str, str], ir.StructDecl]
    lifted: list[ir.Decl] = field(default_factory=list)
    depth: int = 0
    # named types encoding/json writes as object keys (string or integer kind, or with
    # MarshalText): see ``go.reader``
    string_keys: set[str] = field(default_factory=set)

    def span(self, node: Node) -> ir.Span:
        return span_of(self.source, node)

    def convert(self, node: Node, lifted_name: str, path: str) -> GoType:
        # A bound, not Python's stack: every later phase walks type expressions
        # recursively too, so a chain of `[]map[string]...` thousands deep must stop here
        # as a diagnostic rather than as a RecursionError somewhere downstream.
        if self.depth >= MAX_TYPE_NESTING:
            return self._unsupported(
                node,
                f"a type nested more than {MAX_TYPE_NESTING} levels deep; "
                "read as any JSON",
            )
        self.depth += 1
        try:
            return self._convert(node, lifted_name, path)
        finally:
            self.depth -= 1

    def _convert(self, node: Node, lifted_name: str, path: str) -> GoType:
        kind = node.type
        if kind == "parenthesized_type" and node.named_children:
            return self.convert(node.named_children[0], lifted_name, path)
        if kind == "type_identifier":
            return self._named(node_text(node), node)
        if kind == "qualified_type":
            return self._qualified(node_text(node), node)
        if kind == "pointer_type":
            inner = self.convert(node.named_children[-1], lifted_name, path)
            return GoType(inner.expr, "null", nil_is_null=True)
        if kind == "slice_type":
            element = node.child_by_field_name("element")
            if element is not None and node_text(element) in ("byte", "uint8"):
                bytes_type = ir.Primitive(
                    ir.PrimitiveKind.STRING, ir.Constraints(format="byte")
                )
                return GoType(bytes_type, "null", nil_is_null=True)
            items = self._child(element, lifted_name + "Item", path + "[]")
            return GoType(ir.ArrayOf(_nil_able(items)), "null", nil_is_null=True)
        if kind == "array_type":
            element = node.child_by_field_name("element")
            items = self._child(element, lifted_name + "Item", path + "[]")
            return GoType(ir.ArrayOf(_nil_able(items)), "[]")
        if kind == "map_type":
            return self._map(node, lifted_name, path)
        if kind == "interface_type":
            return GoType(ir.AnyJson(), "null", nil_is_null=True)
        if kind == "struct_type":
            decl = self.struct_builder(node, lifted_name, path)
            self.lifted.append(decl)
            return GoType(ir.Ref(decl.name, decl.span), "{}")
        return self._unsupported(
            node, f"the Go type {node_text(node)!r} has no JSON form"
        )

    def _child(self, node: Node | None, lifted_name: str, path: str) -> GoType:
        if node is None:
            return GoType(ir.AnyJson(), "null", nil_is_null=True)
        return self.convert(node, lifted_name, path)

    def _named(self, name: str, node: Node) -> GoType:
        if name == "string":
            return GoType(_STRING, '""')
        if name == "bool":
            return GoType(ir.Primitive(ir.PrimitiveKind.BOOLEAN), "false")
        if name in ("float32", "float64"):
            constraints = ir.Constraints(format="float" if name == "float32" else None)
            return GoType(ir.Primitive(ir.PrimitiveKind.NUMBER, constraints), "0")
        if name in _INT_RANGES:
            low, high = _INT_RANGES[name]
            return GoType(
                ir.Primitive(
                    ir.PrimitiveKind.INTEGER,
                    ir.Constraints(
                        minimum=low, maximum=high, format=_FORMATS.get(name, name)
                    ),
                ),
                "0",
            )
        if name in ("any",):
            return GoType(ir.AnyJson(), "null", nil_is_null=True)
        if name in ("complex64", "complex128", "error"):
            return self._unsupported(node, f"encoding/json cannot write a Go {name}")
        return GoType(ir.Ref(name, self.span(node)), "")  # zero filled in by go.py

    def _qualified(self, name: str, node: Node) -> GoType:
        if name == "json.RawMessage":
            return GoType(ir.AnyJson(), "null", nil_is_null=True)
        if name == "json.Number":
            return GoType(ir.Primitive(ir.PrimitiveKind.NUMBER), "0")
        if name == "time.Time":
            return GoType(
                ir.Primitive(
                    ir.PrimitiveKind.STRING, ir.Constraints(format="date-time")
                ),
                '"0001-01-01T00:00:00Z"',
            )
        if name == "time.Duration":
            return self._named("int64", node)
        return self._unsupported(
            node, f"{name} is defined in another package; read as any JSON"
        )

    def _map(self, node: Node, lifted_name: str, path: str) -> GoType:
        key = node.child_by_field_name("key")
        key_name = node_text(key)
        if (
            key_name != "string"
            and key_name not in _INT_RANGES
            and key_name not in self.string_keys
        ):
            self.diags.report(
                "SYN003",
                f"map key type {key_name!r} is not written as a JSON string by "
                "encoding/json unless it implements encoding.TextMarshaler; "
                "keys read as strings",
                self.span(node),
            )
        values = self._child(
            node.child_by_field_name("value"), lifted_name + "Value", path + "[key]"
        )
        return GoType(ir.MapOf(_nil_able(values)), "null", nil_is_null=True)

    def _unsupported(self, node: Node, message: str) -> GoType:
        self.diags.report("SYN003", message, self.span(node))
        return GoType(ir.AnyJson(), "null", nil_is_null=True)


def _nil_able(converted: GoType) -> ir.TypeExpr:
    """An item or map value whose nil is written as null (a pointer, slice, map):
    null is one of its values."""
    expr = converted.expr
    if converted.nil_is_null and not isinstance(expr, ir.AnyJson):
        return ir.InlineUnion((expr, ir.Primitive(ir.PrimitiveKind.NULL)))
    return expr


def omitted_value(node: Node, converted: GoType, *, omitzero: bool) -> str | None:
    """The JSON of the values an ``omitempty`` (or ``omitzero``) key is left out for,
    which is also what a reader assumes when the key is absent; None when only a nil
    pointer, slice or map is left out (absent, never written as a value).

    omitempty leaves out false, 0, "", a nil pointer or interface, and an empty slice,
    map or string; omitzero leaves out the zero value (an empty but non-nil slice is
    written).  A JSON null read into an interface is nil, so ``null`` is left out too; a
    ``json.RawMessage`` keeps the bytes ``null`` and writes them.
    """
    while node.type == "parenthesized_type" and node.named_children:
        node = node.named_children[0]
    kind = node.type
    text = node_text(node)
    if kind == "pointer_type" or text == "json.RawMessage":
        return None
    if kind == "interface_type" or text == "any":
        return "null"
    if kind == "slice_type":
        element = node.child_by_field_name("element")
        if omitzero:
            return None
        return (
            '""'
            if element is not None and node_text(element) in ("byte", "uint8")
            else "[]"
        )
    if kind == "map_type":
        return None if omitzero else "{}"
    if kind in ("array_type", "struct_type"):
        return None
    if kind == "type_identifier" and isinstance(converted.expr, ir.Ref):
        return None  # a named type: filled in from its declaration by go.py
    if text == "time.Time":
        return converted.zero_json if omitzero else None
    return converted.zero_json or None


def zero_of(
    expr: ir.TypeExpr,
    structs: dict[str, ir.StructDecl],
    named_zero: dict[str, str],
    seen: frozenset[str] = frozenset(),
) -> str:
    """The JSON encoding/json writes for the zero value of a named type."""
    if not isinstance(expr, ir.Ref):
        return "null"
    decl = structs.get(expr.name)
    if decl is None or expr.name in seen:
        return named_zero.get(expr.name, "null")
    return "{" + ",".join(_zero_members(decl, structs, named_zero, seen)) + "}"


def _zero_members(
    decl: ir.StructDecl,
    structs: dict[str, ir.StructDecl],
    named_zero: dict[str, str],
    seen: frozenset[str],
) -> list[str]:
    parts: list[str] = []
    inner_seen = seen | {decl.name}
    for fld in decl.fields:
        if fld.flatten and isinstance(fld.type, ir.Ref) and fld.type.name in structs:
            if fld.type.name not in inner_seen:
                inner = structs[fld.type.name]
                parts.extend(_zero_members(inner, structs, named_zero, inner_seen))
            continue
        if fld.presence is ir.Presence.OPTIONAL:
            continue
        value = fld.default_json or zero_of(fld.type, structs, named_zero, inner_seen)
        parts.append(f"{json.dumps(fld.wire_name)}:{value}")
    return parts
