"""A structural, name-independent view of what a type expression looks like on the wire.

Phase: spec diff, between loading both sides and comparing them.
Inputs: an ``ir.TypeExpr`` and the ``Index`` of its protocol.
Outputs: one ``Shape`` per call: the wire shape of the expression one level deep (a scalar, a
set of allowed values, an array / map / tuple of further expressions, any JSON, an object of a
named struct, or a union of ``VariantView``s), plus whether ``null`` is allowed.  Nested types
stay ``TypeExpr``s so the comparison follows them lazily.  ``View.object_fields`` lists the
keys of an object with the declaration each key comes from (``WireField.origin``), so a
change can be reported where a reader finds it (the base or flattened struct that declares
the key) instead of once per struct that inherits it.
Guarantees: pure.  Every spelling with the same wire form gets the same shape:
- plain aliases and newtypes are followed (inlining an alias changes nothing); externals are
  any JSON;
- literal unions, enum members used as types, string enums and serde unit-variant enums are
  one ``ValuesNode``;
- a JSON object with no declared keys is a ``MapNode`` of its extra-key values, whether it is
  written ``Record<string, T>``, ``{[k: string]: T}``, an empty open interface or serde's
  ``Map<String, Value>``; an open struct without an index signature takes any extra key, as
  one with ``[k: string]: unknown`` does;
- the tag key of a union is left to the union whether the union writes it (serde's
  ``tag = "type"``) or the variant declares it as a literal field (TypeScript), tagged by a
  pass or not: each variant says which key (if any) tells it apart (``VariantView.style``);
- a type that is ``null`` and nothing else (a serde unit struct) is the unit payload that
  ``Method.params`` / ``Method.result`` of ``None`` also mean (``is_unit``).
Names are kept beside the shape (``decl``) for pairing declarations, for messages and for the
Python-API level, never for wire equality.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

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
        kinds = {scalar_kind(v) for v in self.values}
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
    """A JSON object used as a dictionary (no declared keys)."""

    values: ir.TypeExpr
    decl: ir.StructDecl | None = None  # the key-less struct it was written as, if any


@dataclass(frozen=True, slots=True)
class TupleNode:
    items: tuple[ir.TypeExpr, ...]
    required: int | None = None  # ``ir.TupleOf``'s: leading items that must be there
    rest: ir.TypeExpr | None = None


@dataclass(frozen=True, slots=True)
class AnyNode:
    """Any JSON value."""


@dataclass(frozen=True, slots=True)
class ObjectNode:
    decl: ir.StructDecl


@dataclass(frozen=True, slots=True)
class VariantView:
    """One alternative of a union as a reader tells it apart.

    ``style``: ``("key", K)`` the variant is an object whose key ``K`` holds one of
    ``tag_values`` (serde's internal tag, or a TypeScript literal field); ``("external",)``
    ``{"name": payload}`` or the bare name for a unit variant; ``("adjacent", t, c)``;
    ``("untagged",)`` the payload alone, told apart by its shape.
    """

    name: str
    payload: ir.TypeExpr | None
    style: tuple[str, ...]
    tag_values: tuple[str | int | bool, ...] = ()
    lifecycle: ir.Lifecycle = ir.NO_LIFECYCLE
    span: ir.Span = ir.NO_SPAN
    within: tuple[
        str, ...
    ] = ()  # nested unions it was flattened out of, outermost first
    # Where a reader and a writer see the variant differently (``ir.Variant``): the tags
    # a reader takes (None: ``tag_values``), whether a writer can write it, whether a
    # reader reads it.
    read_tags: tuple[str | int | bool, ...] | None = None
    written: bool = True
    read: bool = True

    @property
    def key(self) -> str:
        """How the report names the variant: its tag values, else its name."""
        if self.tag_values:
            return " | ".join(json_scalar(v) for v in self.tag_values)
        return self.name


@dataclass(frozen=True, slots=True)
class UnionNode:
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


@dataclass(frozen=True, slots=True)
class WireField:
    """A key of an object on the wire and the struct that declares it."""

    field: ir.Field  # presence adjusted when it sits in an optional flattened member
    origin: str  # the declaring struct's name
    adjusted: bool = False  # the presence above differs from the declaring struct's


ANY = ir.AnyJson()
NULL = ScalarNode(ir.PrimitiveKind.NULL)


@dataclass
class View:
    """Wire shapes of one protocol's type expressions."""

    index: Index
    tag_keys: dict[str, set[str]] = field(default_factory=dict)
    payload_names: set[str] = field(default_factory=set)  # methods' params/result types
    _union_styles: dict[str, tuple[VariantView, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for method in self.index.protocol.methods:
            for expr in (method.params, method.result):
                resolved = self.index.resolve(expr) if expr is not None else None
                if isinstance(resolved, ir.Ref):
                    self.payload_names.add(resolved.name)
        for decl in self.index.protocol.decls:
            if isinstance(decl, ir.UnionDecl):
                for variant in self.variants(decl):
                    if variant.style[0] == "key" and variant.payload is not None:
                        struct = self.index.struct_of(variant.payload)
                        if struct is not None:
                            self.tag_keys.setdefault(struct.name, set()).add(
                                variant.style[1]
                            )

    @property
    def protocol(self) -> ir.Protocol:
        return self.index.protocol

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
            return Shape(TupleNode(expr.items, expr.required, expr.rest))
        if isinstance(expr, ir.AnyJson):
            if expr.object_only or expr.structured:
                # TypeScript's ``object`` admits arrays too, but specs use it for JSON
                # objects (capability flags) and the JSON Schemas generated from them say
                # ``type: object``: compared as one, spelling it out as an interface or
                # ``{[k: string]: unknown}`` reads as what it is.
                return Shape(MapNode(ANY))
            return Shape(AnyNode())
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
            if not self.object_fields(decl):
                extra = self.extra(decl)
                if extra is not None:
                    return Shape(MapNode(extra, decl))
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
        if decl.repr is ir.UnionRepr.EXTERNALLY_TAGGED and all(
            v.type is None for v in decl.variants
        ):
            # serde's unit-variant enum: the wire form is one of the strings.
            values: list[Scalar] = []
            for variant in decl.variants:
                values.extend(variant.tag_values or (variant.name,))
            return Shape(ValuesNode(tuple(values)))
        if decl.repr is ir.UnionRepr.UNTAGGED and all(
            v.type is not None for v in decl.variants
        ):
            members = [
                self._shape(v.type, seen | {ref.name}) for v in decl.variants if v.type
            ]
            as_values = _as_values([m.node for m in members])
            if as_values is not None:
                return Shape(as_values, any(m.nullable for m in members))
        return Shape(UnionNode(self.variants(decl), decl))

    def _inline_union(self, expr: ir.InlineUnion, seen: frozenset[str]) -> Shape:
        nullable = False
        rest: list[ir.TypeExpr] = []
        for member in expr.members:
            if self._is_null(member):
                nullable = True
            else:
                rest.append(member)
        if not rest:
            return Shape(NULL)
        if len(rest) == 1:
            inner = self._shape(rest[0], seen)
            return Shape(inner.node, inner.nullable or nullable)
        shapes = [self._shape(m, seen) for m in rest]
        nullable = nullable or any(s.nullable for s in shapes)
        as_values = _as_values([s.node for s in shapes])
        if as_values is not None:
            return Shape(as_values, nullable)
        variants = tuple(
            VariantView(label_of(self, member, s.node), member, ("untagged",))
            for member, s in zip(rest, shapes, strict=True)
        )
        return Shape(UnionNode(self._key_styles(self._flatten(variants))), nullable)

    def _is_null(self, expr: ir.TypeExpr) -> bool:
        resolved = self.index.resolve(expr)
        return (
            isinstance(resolved, ir.Primitive)
            and resolved.kind is ir.PrimitiveKind.NULL
        )

    def _member_values(self, ref: ir.EnumMemberRef) -> tuple[Scalar, ...]:
        decl = self.index.get(ref.enum)
        if isinstance(decl, ir.EnumDecl):
            for member in decl.members:
                if member.name == ref.member:
                    return (member.value,)
        return (ref.member,)

    def is_unit(self, expr: ir.TypeExpr | None) -> bool:
        """No payload: ``None``, or a type whose only value is ``null`` (serde's unit
        struct).  serde writes such a payload as ``null`` and reads a missing one as
        ``null``; JSON-RPC leaves ``params`` out; either way no information travels."""
        if expr is None:
            return True
        shape = self.shape(expr)
        return shape.node == NULL

    # ------------------------------------------------------------------ unions

    def variants(self, decl: ir.UnionDecl) -> tuple[VariantView, ...]:
        cached = self._union_styles.get(decl.name)
        if cached is not None:
            return cached
        self._union_styles[decl.name] = ()  # a union nested in itself: no recursion
        views: list[VariantView] = []
        for v in decl.variants:
            if decl.repr is ir.UnionRepr.INTERNALLY_TAGGED:
                style: tuple[str, ...] = ("key", decl.tag_key or "type")
            elif decl.repr is ir.UnionRepr.ADJACENTLY_TAGGED:
                style = ("adjacent", decl.tag_key or "t", decl.content_key or "c")
            elif decl.repr is ir.UnionRepr.EXTERNALLY_TAGGED:
                style = ("external",)
            else:
                style = ("untagged",)
            tags = v.tag_values
            if style[0] in ("external", "adjacent") and not tags:
                tags = (v.name,)
            views.append(
                VariantView(
                    v.name,
                    v.type,
                    style,
                    tags,
                    v.lifecycle,
                    v.span,
                    read_tags=v.read_tags,
                    written=v.written,
                    read=v.read,
                )
            )
        out = tuple(views)
        if decl.repr is ir.UnionRepr.UNTAGGED:
            out = self._key_styles(self._flatten(out))
        self._union_styles[decl.name] = out
        return out

    def _flatten(self, variants: tuple[VariantView, ...]) -> tuple[VariantView, ...]:
        """An untagged union's variant that is itself a union contributes its variants:
        on the wire ``A | (B | C)`` is ``A | B | C``.  ``within`` keeps the unions a
        variant came through, to report it where it was declared."""
        out: list[VariantView] = []
        for variant in variants:
            inner = self._union_decl(variant.payload)
            if inner is None:
                out.append(variant)
                continue
            for leaf in self.variants(inner):
                out.append(
                    replace(
                        leaf,
                        style=("untagged",),
                        tag_values=(),
                        within=(inner.name, *leaf.within),
                    )
                )
        return tuple(out)

    def _union_decl(self, expr: ir.TypeExpr | None) -> ir.UnionDecl | None:
        if expr is None:
            return None
        resolved = self.index.resolve(expr)
        while isinstance(resolved, ir.Ref):
            decl = self.index.get(resolved.name)
            if isinstance(decl, ir.AliasDecl) and decl.kind is ir.AliasKind.NEWTYPE:
                resolved = self.index.resolve(decl.target)
                continue
            if isinstance(decl, ir.UnionDecl) and isinstance(
                self.shape(resolved).node, UnionNode
            ):
                return decl
            return None
        return None

    def _key_styles(self, variants: tuple[VariantView, ...]) -> tuple[VariantView, ...]:
        """Untagged object variants that carry a literal key: tell them apart by it, as the
        discriminator pass does when every variant has one (TypeScript writes the tag
        on the variant, so ``{type: "a"} | {type: "b"} | string`` is still keyed)."""
        literal_keys: list[dict[str, tuple[Scalar, ...]]] = []
        for variant in variants:
            literal_keys.append(self.literal_keys(variant.payload))
        counts: dict[str, int] = {}
        for keys in literal_keys:
            for key in keys:
                counts[key] = counts.get(key, 0) + 1
        if not counts:
            return variants
        best = max(counts.values())
        if best < 2 and len(variants) > 1:
            return variants
        preferred = ("type", "kind", "method")
        key = min(
            (k for k, n in counts.items() if n == best),
            key=lambda k: (preferred.index(k) if k in preferred else len(preferred), k),
        )
        out = []
        for variant, keys in zip(variants, literal_keys, strict=True):
            if key in keys:
                values = tuple(v for v in keys[key] if not isinstance(v, float))
                variant = replace(variant, style=("key", key), tag_values=values)
            out.append(variant)
        return tuple(out)

    def literal_keys(self, expr: ir.TypeExpr | None) -> dict[str, tuple[Scalar, ...]]:
        """Required, non-null keys of an object type whose type is a literal set."""
        struct = self.index.struct_of(expr) if expr is not None else None
        if struct is None:
            return {}
        out: dict[str, tuple[Scalar, ...]] = {}
        for wf in self._all_fields(struct):
            fld = wf.field
            if fld.presence is not ir.Presence.REQUIRED or fld.nullable:
                continue
            node = self.shape(fld.type)
            if (
                isinstance(node.node, ValuesNode)
                and not node.nullable
                and node.node.decl is None
            ):
                out[fld.wire_name] = node.node.values
        return out

    # ------------------------------------------------------------------ objects

    def object_fields(self, struct: ir.StructDecl) -> list[WireField]:
        """The struct's wire keys, without the tag keys its unions write for it."""
        tags = self.tag_keys.get(struct.name, set())
        return [
            wf
            for wf in self._all_fields(struct)
            if not (wf.field.wire_name in tags and self._is_tag_field(wf.field))
        ]

    def _all_fields(self, struct: ir.StructDecl) -> list[WireField]:
        out = self._expand(struct, frozenset())
        last: dict[str, int] = {}
        for position, wf in enumerate(out):
            last[wf.field.wire_name] = position
        # Later declarations override earlier ones with the same wire name (TS
        # redeclaration in a sub-interface).
        return [
            wf
            for position, wf in enumerate(out)
            if last[wf.field.wire_name] == position
        ]

    def _expand(
        self, struct: ir.StructDecl, visiting: frozenset[str]
    ) -> list[WireField]:
        if struct.name in visiting:
            return []
        visiting = visiting | {struct.name}
        out: list[WireField] = []
        for base in struct.bases:
            base_struct = self.index.struct_of(base)
            if base_struct is not None:
                out.extend(self._expand(base_struct, visiting))
        for fld in struct.fields:
            inner = self.index.struct_of(fld.type) if fld.flatten else None
            if inner is None:
                out.append(WireField(fld, struct.name))
                continue
            for flat in self._expand(inner, visiting):
                if (
                    fld.presence is not ir.Presence.REQUIRED
                    and flat.field.presence is ir.Presence.REQUIRED
                ):
                    # A flattened Option<Struct> makes every inner key optional.
                    flat = WireField(
                        replace(flat.field, presence=fld.presence), flat.origin, True
                    )
                out.append(flat)
        return out

    def extra(self, struct: ir.StructDecl) -> ir.TypeExpr | None:
        """The type of keys the struct does not declare: None when they are rejected."""
        value = self.index.index_value(struct)
        if value is not None:
            return value
        if struct.extra_keys is ir.ExtraKeys.FORBID:
            return None
        return ANY

    def _is_tag_field(self, fld: ir.Field) -> bool:
        if fld.synthesized:
            return True
        node = self.shape(fld.type).node
        return isinstance(node, ValuesNode) and len(node.values) >= 1

    # ------------------------------------------------------------------ names

    def display(self, decl: ir.Decl) -> str:
        """A declaration as a reader finds it in the source: a synthesized name by the
        place it was written (``CallToolRequest.params``), else its own name."""
        if decl.derived_from:
            return decl.derived_from
        return decl.name

    def envelope_of(self, struct: ir.StructDecl) -> str | None:
        """The method a JSON-RPC message type stands for: a struct whose ``method`` key
        is a literal naming a method of the protocol (MCP's ``CallToolRequest``).  Its
        payload is that method's params, compared with the method."""
        keys = self.literal_keys(ir.Ref(struct.name))
        values = keys.get("method", ())
        if len(values) != 1 or not isinstance(values[0], str):
            return None
        return values[0] if values[0] in self.index.methods else None

    def envelope_parts(self) -> set[str]:
        """The JSON-RPC message types of methods and the bases they are built from
        (``PaginatedRequest``, ``Request``): the method comparison covers them."""
        out: set[str] = set()
        todo = [
            d
            for d in self.protocol.decls
            if isinstance(d, ir.StructDecl) and self.envelope_of(d) is not None
        ]
        while todo:
            struct = todo.pop()
            if struct.name in out:
                continue
            out.add(struct.name)
            for base in struct.bases:
                base_struct = self.index.struct_of(base)
                if base_struct is not None:
                    todo.append(base_struct)
        return out


def _as_values(nodes: list[Node]) -> ValuesNode | None:
    """Alternatives that are all literals are one set of values; with the primitive
    they belong to (``"endTurn" | "maxTokens" | string``), an open one: any string, some
    of them named."""
    literal = [n for n in nodes if isinstance(n, ValuesNode) and n.decl is None]
    scalars = [n for n in nodes if isinstance(n, ScalarNode)]
    values = _merged(literal)
    if len(literal) == len(nodes):
        return ValuesNode(values)
    if (
        literal
        and len(scalars) == 1
        and len(literal) + 1 == len(nodes)
        and {scalar_kind(v) for v in values} == {scalars[0].kind.value}
    ):
        return ValuesNode(values, open=True)
    return None


def _merged(nodes: list[ValuesNode]) -> tuple[Scalar, ...]:
    values: list[Scalar] = []
    for node in nodes:
        values.extend(v for v in node.values if v not in values)
    return tuple(values)


def label_of(view: View, expr: ir.TypeExpr, node: Node) -> str:
    """A variant name for an inline union member: its declaration's name, else its shape."""
    resolved = view.index.resolve(expr)
    if isinstance(resolved, ir.Ref):
        return resolved.name
    return label(node)


def json_scalar(value: Scalar | None) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(value)


def scalar_kind(value: Scalar) -> str:
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
        return "any JSON"
    if isinstance(node, ObjectNode):
        return f"object {node.decl.name}"
    if node.decl is not None:
        return f"union {node.decl.name}"
    return "union"
