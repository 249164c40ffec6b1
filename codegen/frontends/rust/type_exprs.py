"""Rust type expressions → IR type expressions, with serde_json's wire forms.

Phase: frontend helper (used by ``rust.reader``).
Inputs: a tree-sitter-rust type node, the names the spec declares, and the ``use`` imports.
Outputs: ``ir.TypeExpr``: integers keep their width as ``Constraints`` (``u64`` → minimum 0,
format "uint64"), ``PathBuf`` → string format "path", ``semver::Version`` → string format
"semver", ``serde_json::Value`` → any JSON, ``Vec``/sets → arrays, maps → ``MapOf``, tuples and
``[T; N]`` → ``TupleOf``, ``Option<T>`` (inside containers) → ``T | null``; ``Box``/``Arc``/
``Rc``/``Cow``/``&`` are transparent.
Guarantees: never raises; an unknown generic or a type form serde_json has no wire form for is
SYN003 with the span of the type, and becomes any JSON so the rest of the spec still loads.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.common.syntax import node_text, span_of
from codegen.spec.source import SourceText

_STRING = ir.Primitive(ir.PrimitiveKind.STRING)
_NULL = ir.Primitive(ir.PrimitiveKind.NULL)


def _int(bits: int, signed: bool) -> ir.Primitive:
    low = -(2 ** (bits - 1)) if signed else 0
    high = 2 ** (bits - 1) - 1 if signed else 2**bits - 1
    prefix = "int" if signed else "uint"
    return ir.Primitive(
        ir.PrimitiveKind.INTEGER, ir.Constraints(low, high, f"{prefix}{bits}")
    )


PRIMITIVES: dict[str, ir.TypeExpr] = {
    "bool": ir.Primitive(ir.PrimitiveKind.BOOLEAN),
    "str": _STRING,
    "String": _STRING,
    "char": _STRING,
    "f32": ir.Primitive(ir.PrimitiveKind.NUMBER, ir.Constraints(format="float")),
    "f64": ir.Primitive(ir.PrimitiveKind.NUMBER, ir.Constraints(format="double")),
    **{f"u{bits}": _int(bits, False) for bits in (8, 16, 32, 64, 128)},
    **{f"i{bits}": _int(bits, True) for bits in (8, 16, 32, 64, 128)},
    "usize": _int(64, False),
    "isize": _int(64, True),
}

# Full paths of library types with a fixed serde_json wire form.
KNOWN_PATHS: dict[str, ir.TypeExpr] = {
    "std::path::PathBuf": ir.Primitive(
        ir.PrimitiveKind.STRING, ir.Constraints(format="path")
    ),
    "std::path::Path": ir.Primitive(
        ir.PrimitiveKind.STRING, ir.Constraints(format="path")
    ),
    "semver::Version": ir.Primitive(
        ir.PrimitiveKind.STRING, ir.Constraints(format="semver")
    ),
    "url::Url": ir.Primitive(ir.PrimitiveKind.STRING, ir.Constraints(format="uri")),
    "uuid::Uuid": ir.Primitive(ir.PrimitiveKind.STRING, ir.Constraints(format="uuid")),
    "serde_json::Value": ir.AnyJson(),
    "serde_json::value::Value": ir.AnyJson(),
    "serde_json::value::RawValue": ir.AnyJson(),
    "serde_json::value::Map": ir.AnyJson(object_only=True),
    "serde_json::Map": ir.AnyJson(object_only=True),
    "std::string::String": _STRING,
}
# Bare names that mean the library type when the spec neither declares nor imports them.
_BARE = {
    "PathBuf": "std::path::PathBuf",
    "Path": "std::path::Path",
    "Value": "serde_json::Value",
    "RawValue": "serde_json::value::RawValue",
}
_SEQUENCES = {"Vec", "VecDeque", "HashSet", "BTreeSet", "IndexSet", "LinkedList"}
_MAPS = {"HashMap", "BTreeMap", "IndexMap"}
_WRAPPERS = {"Box", "Arc", "Rc", "Cow"}


def is_option(node: Node) -> Node | None:
    """The ``T`` of ``Option<T>`` (or ``std::option::Option<T>``), else None."""
    if node.type != "generic_type":
        return None
    base = node.child_by_field_name("type")
    if node_text(base).rsplit("::", 1)[-1] != "Option":
        return None
    args = _type_args(node)
    return args[0] if len(args) == 1 else None


def _type_args(node: Node) -> list[Node]:
    arguments = node.child_by_field_name("type_arguments")
    if arguments is None:
        return []
    return [
        child
        for child in arguments.named_children
        if child.type not in ("lifetime", "line_comment", "block_comment")
    ]


@dataclass
class TypeConverter:
    source: SourceText
    diags: Diagnostics
    declared: set[str]
    imports: dict[str, str] = field(default_factory=dict)

    def convert(self, node: Node) -> ir.TypeExpr:
        kind = node.type
        if kind == "primitive_type":
            return PRIMITIVES.get(node_text(node), _STRING)
        if kind in ("type_identifier", "scoped_type_identifier"):
            return self._named(node)
        if kind == "reference_type":
            inner = node.child_by_field_name("type")
            return self.convert(inner) if inner is not None else self._bad(node)
        if kind == "generic_type":
            return self._generic(node)
        if kind == "tuple_type":
            return ir.TupleOf(tuple(self.convert(c) for c in node.named_children))
        if kind == "unit_type":
            return _NULL
        if kind == "array_type":
            return self._array(node)
        return self._bad(node)

    def _named(self, node: Node) -> ir.TypeExpr:
        text = node_text(node).replace(" ", "")
        name = text.rsplit("::", 1)[-1]
        if "::" not in text:
            if name in self.declared:
                return ir.Ref(name, span_of(self.source, node))
            if name in PRIMITIVES:
                return PRIMITIVES[name]
            text = self.imports.get(name, _BARE.get(name, name))
        for prefix in ("crate::", "self::", "super::"):
            if text.startswith(prefix) and name in self.declared:
                return ir.Ref(name, span_of(self.source, node))
        known = KNOWN_PATHS.get(text)
        if known is not None:
            return known
        if "::" in text:
            self.diags.report(
                "SYN003",
                f"{text} is neither declared in this spec nor a library type with a "
                "known serde wire form; read as any JSON value",
                span_of(self.source, node),
            )
            return ir.AnyJson()
        # An undeclared bare name: the reference pass reports it (REF001).
        return ir.Ref(name, span_of(self.source, node))

    def _generic(self, node: Node) -> ir.TypeExpr:
        base = node_text(node.child_by_field_name("type")).rsplit("::", 1)[-1]
        args = _type_args(node)
        if base == "Option" and len(args) == 1:
            return ir.InlineUnion((self.convert(args[0]), _NULL))
        if base in _SEQUENCES and len(args) == 1:
            return ir.ArrayOf(self.convert(args[0]))
        if base in _MAPS and len(args) in (2, 3):
            return ir.MapOf(self.convert(args[1]), key=self.convert(args[0]))
        if base in _WRAPPERS and len(args) == 1:
            return self.convert(args[0])
        if base == "Map" and len(args) == 2:
            return ir.AnyJson(object_only=True)
        return self._bad(node)

    def _array(self, node: Node) -> ir.TypeExpr:
        element = node.child_by_field_name("element")
        length = node.child_by_field_name("length")
        if element is None:
            return self._bad(node)
        item = self.convert(element)
        text = node_text(length)
        if length is not None and text.isdigit() and int(text) <= 32:
            return ir.TupleOf(tuple(item for _ in range(int(text))))
        return ir.ArrayOf(item)

    def _bad(self, node: Node) -> ir.TypeExpr:
        self.diags.report(
            "SYN003",
            f"type {node_text(node)[:60]!r} has no serde wire form this frontend knows; "
            "read as any JSON value",
            span_of(self.source, node),
        )
        return ir.AnyJson()


def default_json(expr: ir.TypeExpr, index: dict[str, ir.Decl]) -> str | None:
    """The JSON of ``Default::default()`` for a type, when it is knowable from the spec."""
    if isinstance(expr, ir.Primitive):
        return {
            ir.PrimitiveKind.STRING: '""',
            ir.PrimitiveKind.INTEGER: "0",
            ir.PrimitiveKind.NUMBER: "0.0",
            ir.PrimitiveKind.BOOLEAN: "false",
            ir.PrimitiveKind.NULL: "null",
        }[expr.kind]
    if isinstance(expr, ir.ArrayOf):
        return "[]"
    if isinstance(expr, ir.MapOf):
        return "{}"
    if isinstance(expr, ir.InlineUnion) and _NULL in expr.members:
        return "null"
    if isinstance(expr, ir.Ref):
        decl = index.get(expr.name)
        if isinstance(decl, ir.AliasDecl):
            return default_json(decl.target, index)
    return None
