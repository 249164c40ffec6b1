"""TypeScript types while they are being evaluated: the values the evaluator computes with.

Phase: frontend helper (between the syntax and the IR).
Inputs: built by ``evaluator`` from tree-sitter type nodes.
Outputs: immutable values: ``Leaf`` (an IR type expression that needs no more work: a
primitive, a reference to a declaration, a literal), ``Obj`` (an object type not yet named:
an inline ``{...}``, the result of ``Partial<X>``, ``A & B``, a mapped type), ``Union``,
``Arr``, ``Tup``, ``Dict`` (``Record<string, V>``, index signatures) and the two types with no
JSON value, ``NEVER`` and ``UNDEFINED``.
Guarantees: frozen and hashable (generic instantiations are memoized by their arguments);
spans and docs take no part in equality, as in the IR.  ``materialize`` turns these into IR,
naming anonymous objects from their context.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeAlias

from codegen import ir
from codegen.frontends.typescript.jsdoc import JsDoc


@dataclass(frozen=True, slots=True)
class Leaf:
    """A finished IR expression: ``Primitive``, ``Ref``, ``EnumMemberRef``, ``Literal``,
    ``AnyJson``."""

    expr: ir.TypeExpr


@dataclass(frozen=True, slots=True)
class Prop:
    name: str  # the decoded key (``'a\\'b'`` → ``a'b``; numeric keys as their text)
    type: TsType
    optional: bool = False
    numeric_key: bool = False  # ``[Codes.X]: T`` with a number: ``keyof`` gives numbers
    readonly: bool = False
    doc: JsDoc | None = field(default=None, compare=False)
    span: ir.Span = field(default=ir.NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Obj:
    """An object type without a name yet.  ``bases`` are named object types it extends
    (kept as references so the IR keeps ``extends``); ``index`` is the value type of an
    index signature ``[key: string]: T``; ``closed``: no key is allowed beyond ``props``
    (``Record<string, never>``)."""

    props: tuple[Prop, ...] = ()
    index: TsType | None = None
    bases: tuple[ir.Ref, ...] = ()
    closed: bool = False
    span: ir.Span = field(default=ir.NO_SPAN, compare=False)
    numeric_index: bool = False  # ``[k: number]: T``: only numeric names are keys


@dataclass(frozen=True, slots=True)
class Union:
    members: tuple[TsType, ...]


@dataclass(frozen=True, slots=True)
class Arr:
    items: TsType


@dataclass(frozen=True, slots=True)
class Tup:
    """``[A, B?, ...C[]]``: ``required`` leading items must be present (None: all),
    ``rest`` is the type of every item after ``items`` (None: no more)."""

    items: tuple[TsType, ...]
    required: int | None = None
    rest: TsType | None = None

    @property
    def least(self) -> int:
        return len(self.items) if self.required is None else self.required


@dataclass(frozen=True, slots=True)
class Dict:
    """``Record<K, V>`` with a non-literal key type (``string``, an enum): a map."""

    values: TsType
    key: ir.TypeExpr = field(
        default_factory=lambda: ir.Primitive(ir.PrimitiveKind.STRING)
    )


@dataclass(frozen=True, slots=True)
class _Special:
    name: str


NEVER = _Special("never")
UNDEFINED = _Special("undefined")

TsType: TypeAlias = Leaf | Obj | Union | Arr | Tup | Dict | _Special

# TypeScript's predefined types that have a JSON form, as IR (also read by the prose frontend).
PREDEFINED: dict[str, ir.TypeExpr] = {
    "string": ir.Primitive(ir.PrimitiveKind.STRING),
    "number": ir.Primitive(ir.PrimitiveKind.NUMBER),
    "bigint": ir.Primitive(ir.PrimitiveKind.INTEGER),
    "boolean": ir.Primitive(ir.PrimitiveKind.BOOLEAN),
    "unknown": ir.AnyJson(),
    "any": ir.AnyJson(),
    "object": ir.AnyJson(structured=True),  # arrays are objects in TS
}

NULL = Leaf(ir.Primitive(ir.PrimitiveKind.NULL))
NUMBER_KEY = ir.Primitive(ir.PrimitiveKind.NUMBER)  # a map's key: a numeric name
STRING = Leaf(ir.Primitive(ir.PrimitiveKind.STRING))
NUMBER = Leaf(ir.Primitive(ir.PrimitiveKind.NUMBER))
BOOLEAN = Leaf(ir.Primitive(ir.PrimitiveKind.BOOLEAN))
ANY = Leaf(ir.AnyJson())


def literal(value: str | float | bool) -> Leaf:
    return Leaf(ir.Literal(value))


def union_of(members: list[TsType] | tuple[TsType, ...]) -> TsType:
    """A union, flattened (unions of unions), without ``never`` and duplicates; one
    member is that member, none is ``never``."""
    flat: dict[TsType, None] = {}  # ordered, and linear in the members
    for member in members:
        items = member.members if isinstance(member, Union) else (member,)
        for item in items:
            if item is not NEVER:
                flat[item] = None
    if ANY in flat:
        return ANY
    if not flat:
        return NEVER
    if len(flat) == 1:
        return next(iter(flat))
    return Union(tuple(flat))


def members_of(value: TsType) -> tuple[TsType, ...]:
    if isinstance(value, Union):
        return value.members
    if value is NEVER:
        return ()
    return (value,)


def literal_value(value: TsType) -> str | int | float | bool | None:
    if isinstance(value, Leaf) and isinstance(value.expr, ir.Literal):
        return value.expr.value
    return None


def describe(value: TsType) -> str:
    """A short name for a type, used to name generic instantiations (``Box<Foo>`` →
    ``BoxFoo``)."""
    if isinstance(value, Leaf):
        expr = value.expr
        if isinstance(expr, ir.Ref):
            return expr.name
        if isinstance(expr, ir.EnumMemberRef):
            return expr.member
        if isinstance(expr, ir.Literal):
            return _pascal(str(expr.value)) or "Literal"
        if isinstance(expr, ir.Primitive):
            return expr.kind.value.capitalize()
        return "Any"
    if isinstance(value, Union):
        return "Or".join(describe(m) for m in value.members[:3])
    if isinstance(value, Arr):
        return describe(value.items) + "List"
    if isinstance(value, Dict):
        return describe(value.values) + "Map"
    if isinstance(value, Tup):
        return "Tuple"
    if isinstance(value, Obj):
        return "Object"
    return value.name.capitalize() if isinstance(value, _Special) else "Type"


def _pascal(text: str) -> str:
    out = []
    word = ""
    for char in text:
        if char.isalnum():
            word += char
        else:
            if word:
                out.append(word[:1].upper() + word[1:])
            word = ""
    if word:
        out.append(word[:1].upper() + word[1:])
    return "".join(out)
