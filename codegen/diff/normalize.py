"""A structural, name-independent view of what a type expression looks like on the wire.

Phase: spec diff, between loading both sides and comparing them.
Inputs: an ``ir.TypeExpr`` and the ``Index`` of its protocol.
Outputs: one ``Node`` per call: the wire shape of the expression one level deep (a scalar, a
set of allowed values, an array / map / tuple of further expressions, any JSON, an object of a
named struct with its effective wire fields, or a union with its variants), plus whether
``null`` is allowed.  Nested types stay ``TypeExpr``s so the comparison follows them lazily.
Guarantees: pure; plain aliases are followed (so inlining an alias changes nothing), newtypes
show their wire form, externals are any JSON; literal unions, enum members used as types,
string enums and serde unit-variant enums all become the same ``Values`` node; tag fields of
internally tagged unions are left to the union (TypeScript writes them on the variant struct,
serde on the enum), so both spellings compare equal.  Names are kept beside the shape
(``decl``) for pairing declarations and for the Python-API level, never for wire equality.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from codegen import ir
from codegen.ir.index import Index

Scalar = str | int | float | bool


@dataclass(frozen=True, slots=True)
class ScalarNode:
    kind: ir.PrimitiveKind


@dataclass(frozen=True, slots=True)
class ValuesNode:
    """A closed (or open) set of JSON scalars: enums, literals, literal unions."""

    values: tuple[Scalar, ...]  # in declaration order
    open: bool = False
    flags: bool = False
    decl: ir.EnumDecl | None = None

    @property
    def base(self) -> str:
        kinds = {_scalar_kind(v) for v in self.values}
        return kinds.pop() if len(kinds) == 1 else "mixed"

    def member(self, value: Scalar) -> ir.EnumMember | None:
        if self.decl is None:
            return None
        for member in self.decl.members:
            if member.value == value:
                return member
        return None


@dataclass(frozen=True, slots=True)
class ArrayNode:
    items: ir.TypeExpr


@dataclass(frozen=True, slots=True)
class MapNode:
    values: ir.TypeExpr


@dataclass(frozen=True, slots=True)
class TupleNode:
    items: tuple[ir.TypeExpr, ...]


@dataclass(frozen=True, slots=True)
class AnyNode:
    object_only: bool = False
    structured: bool = False

    def breadth(self) -> int:
        """How much it admits: a JSON object < an object or array < any JSON."""
        return 0 if self.object_only else 1 if self.structured else 2


@dataclass(frozen=True, slots=True)
class ObjectNode:
    decl: ir.StructDecl


@dataclass(frozen=True, slots=True)
class VariantView:
    key: str  # a name for matching and messages: the tag values, else the variant name
    name: str
    type: ir.TypeExpr | None
    tag_values: tuple[str | int | bool, ...]
    lifecycle: ir.Lifecycle = ir.NO_LIFECYCLE
    span: ir.Span = ir.NO_SPAN


@dataclass(frozen=True, slots=True)
class UnionNode:
    repr: ir.UnionRepr
    tag_key: str | None
    content_key: str | None
    variants: tuple[VariantView, ...]
    decl: ir.UnionDecl | None = None


Node = (
    ScalarNode
    | ValuesNode
    | ArrayNode
    | MapNode
    | TupleNode
    | AnyNode
    | ObjectNode
    | UnionNode
)


@dataclass(frozen=True, slots=True)
class Shape:
    node: Node
    nullable: bool = False


@dataclass
class View:
    """Wire shapes of one protocol's type expressions."""

    index: Index
    _tag_keys: dict[str, set[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for decl in self.index.protocol.decls:
            if not isinstance(decl, ir.UnionDecl):
                continue
            key = _effective_tag_key(decl)
            if key is None:
                continue
            for variant in decl.variants:
                struct = self.index.struct_of(variant.type) if variant.type else None
                if struct is not None:
                    self._tag_keys.setdefault(struct.name, set()).add(key)

    # ------------------------------------------------------------------ shapes

    def shape(self, expr: ir.TypeExpr) -> Shape:
        return self._shape(expr, frozenset())

    def _shape(self, expr: ir.TypeExpr, seen: frozenset[str]) -> Shape:
        expr = self.index.resolve(expr)
        if isinstance(expr, ir.Primitive):
            return Shape(ScalarNode(expr.kind))
        if isinstance(expr, ir.Literal):
            return Shape(ValuesNode((expr.value,)))
        if isinstance(expr, ir.EnumMemberRef):
            return Shape(ValuesNode(self._member_values(expr)))
        if isinstance(expr, ir.ArrayOf):
            return Shape(ArrayNode(expr.items))
        if isinstance(expr, ir.MapOf):
            return Shape(MapNode(expr.values))
        if isinstance(expr, ir.TupleOf):
            return Shape(TupleNode(expr.items))
        if isinstance(expr, ir.AnyJson):
            return Shape(AnyNode(expr.object_only, expr.structured))
        if isinstance(expr, ir.InlineUnion):
            return self._inline_union(expr, seen)
        return self._named(expr, seen)

    def _named(self, ref: ir.Ref, seen: frozenset[str]) -> Shape:
        decl = self.index.get(ref.name)
        if decl is None or ref.name in seen:
            return Shape(AnyNode())
        if isinstance(decl, ir.AliasDecl):
            if decl.kind is ir.AliasKind.EXTERNAL:
                return Shape(AnyNode())
            return self._shape(decl.target, seen | {ref.name})
        if isinstance(decl, ir.StructDecl):
            return Shape(ObjectNode(decl))
        if isinstance(decl, ir.EnumDecl):
            return Shape(
                ValuesNode(
                    tuple(m.value for m in decl.members),
                    open=decl.open,
                    flags=decl.flags,
                    decl=decl,
                )
            )
        return self._union(decl)

    def _union(self, decl: ir.UnionDecl) -> Shape:
        if decl.repr is ir.UnionRepr.EXTERNALLY_TAGGED and all(
            v.type is None for v in decl.variants
        ):
            # serde's unit-variant enum: the wire form is one of the strings.
            values: list[Scalar] = []
            for variant in decl.variants:
                values.extend(variant.tag_values or (variant.name,))
            return Shape(ValuesNode(tuple(values)))
        repr_ = decl.repr
        tag_key = decl.tag_key
        variants = tuple(
            VariantView(
                key=_variant_key(v.tag_values, v.name),
                name=v.name,
                type=v.type,
                tag_values=v.tag_values,
                lifecycle=v.lifecycle,
                span=v.span,
            )
            for v in decl.variants
        )
        return Shape(UnionNode(repr_, tag_key, decl.content_key, variants, decl))

    def _inline_union(self, expr: ir.InlineUnion, seen: frozenset[str]) -> Shape:
        nullable = False
        rest: list[ir.TypeExpr] = []
        for member in expr.members:
            resolved = self.index.resolve(member)
            if (
                isinstance(resolved, ir.Primitive)
                and resolved.kind is ir.PrimitiveKind.NULL
            ):
                nullable = True
            else:
                rest.append(member)
        if not rest:
            return Shape(ScalarNode(ir.PrimitiveKind.NULL))
        if len(rest) == 1:
            inner = self._shape(rest[0], seen)
            return Shape(inner.node, inner.nullable or nullable)
        shapes = [self._shape(m, seen) for m in rest]
        if all(isinstance(s.node, ValuesNode) and s.node.decl is None for s in shapes):
            values: list[Scalar] = []
            for s in shapes:
                assert isinstance(s.node, ValuesNode)
                values.extend(v for v in s.node.values if v not in values)
            nullable = nullable or any(s.nullable for s in shapes)
            return Shape(ValuesNode(tuple(values)), nullable)
        variants = tuple(
            VariantView(
                key=label(s.node), name=label(s.node), type=member, tag_values=()
            )
            for member, s in zip(rest, shapes, strict=True)
        )
        return Shape(
            UnionNode(ir.UnionRepr.UNTAGGED, None, None, variants),
            nullable or any(s.nullable for s in shapes),
        )

    def _member_values(self, ref: ir.EnumMemberRef) -> tuple[Scalar, ...]:
        decl = self.index.get(ref.enum)
        if isinstance(decl, ir.EnumDecl):
            for member in decl.members:
                if member.name == ref.member:
                    return (member.value,)
        return (ref.member,)

    # ------------------------------------------------------------------ objects

    def fields(self, struct: ir.StructDecl) -> list[ir.Field]:
        """The struct's wire fields, without the tag keys its unions write for it."""
        tags = self._tag_keys.get(struct.name, set())
        out = []
        for fld in self.index.wire_fields(struct):
            if fld.wire_name in tags and self._is_tag_field(fld):
                continue
            out.append(fld)
        return out

    def _is_tag_field(self, fld: ir.Field) -> bool:
        if fld.synthesized:
            return True
        node = self.shape(fld.type).node
        return isinstance(node, ValuesNode) and len(node.values) >= 1


def _effective_tag_key(decl: ir.UnionDecl) -> str | None:
    if decl.repr is ir.UnionRepr.INTERNALLY_TAGGED:
        return decl.tag_key or "type"
    return None


def _variant_key(tag_values: tuple[str | int | bool, ...], name: str) -> str:
    if tag_values:
        return " | ".join(json_scalar(v) for v in tag_values)
    return name


def json_scalar(value: Scalar | None) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(value)


def _scalar_kind(value: Scalar) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return "string"


def label(node: Node) -> str:
    """A short, name-free description of a wire shape, for messages."""
    if isinstance(node, ScalarNode):
        return node.kind.value
    if isinstance(node, ValuesNode):
        if node.decl is not None:
            kind = "flags" if node.flags else "enum"
            return f"{kind} {node.decl.name}"
        if len(node.values) == 1:
            return f"literal {json_scalar(node.values[0])}"
        return " | ".join(json_scalar(v) for v in node.values)
    if isinstance(node, ArrayNode):
        return "array"
    if isinstance(node, MapNode):
        return "map"
    if isinstance(node, TupleNode):
        return f"tuple of {len(node.items)}"
    if isinstance(node, AnyNode):
        if node.structured:
            return "any object or array"
        return "any object" if node.object_only else "any JSON"
    if isinstance(node, ObjectNode):
        return f"object {node.decl.name}"
    if node.decl is not None:
        return f"union {node.decl.name}"
    return "union"
