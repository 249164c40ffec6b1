"""Python annotations of IR type expressions, for the Python bindings.

Phase: backend (Python bindings), used by the declaration, union and method builders.
Inputs: a normalized ``ir.Protocol`` (names come from ``names``).
Outputs: ``TypeAnnotator``: the protocol, its ``Index``, the class and enum member
names, and the annotation text of any ``ir.TypeExpr`` (``annotation``), literal
groups (``literals``), enum member references and union tag literals.
Guarantees: annotations are valid under ``from __future__ import annotations`` and
strict as the wire (``@minimum``/``@maximum`` become ``ge``/``le``, ``@pattern`` a
``pattern``; ``@format`` is an annotation of the JSON Schema only, as in JSON Schema): non-string literals carry an exact-type guard
(``_EXACT_INT`` / ``_EXACT_BOOL``), open enums also accept their wire type
(``_LEFT_TO_RIGHT``); a reference to an unknown declaration is any JSON
(``ANY_JSON``: ``JsonValue`` written as plain JSON, ``_ANY_JSON``).
"""

from __future__ import annotations

from codegen import ir
from codegen.backends.python.names import class_names, enum_member_names
from codegen.backends.python.text import json_kind, py_literal
from codegen.backends.wire_formats import pattern_of
from codegen.ecma_regex import PYTHON, Unspellable, for_pydantic
from codegen.ir.index import Index

__all__ = ["ANY_JSON", "ANY_JSON_OBJECT", "ANY_JSON_STRUCTURED", "TypeAnnotator"]

# Any JSON value, any JSON object, and any object or array: read as pydantic's ``JsonValue`` reads them,
# written by pydantic-core's own JSON writer (``_ANY_JSON``) rather than ``JsonValue``'s,
# which makes a Python call for every nested value.
# Handler and call signatures spell them bare (``markers=False``): their modules do
# not import the marker, and only the adapters write.
_VALUE, _OBJECT = "JsonValue", "dict[str, JsonValue]"
_STRUCTURED = "dict[str, JsonValue] | list[JsonValue]"
ANY_JSON = f"Annotated[{_VALUE}, _ANY_JSON]"
ANY_JSON_OBJECT = f"Annotated[{_OBJECT}, _ANY_JSON]"
ANY_JSON_STRUCTURED = f"Annotated[{_STRUCTURED}, _ANY_JSON]"


class TypeAnnotator:
    """The names of one protocol and the annotations of its type expressions."""

    def __init__(self, protocol: ir.Protocol) -> None:
        self.protocol = protocol
        self.index = Index(protocol)
        self.names = class_names(protocol, self.index)
        self.members = enum_member_names(protocol)

    def enum_member(
        self, enum: ir.EnumDecl, member: str | int | bool, *, by_name: bool = True
    ) -> str | None:
        """``Enum.MEMBER`` for a member name (or, failing that, a member value)."""
        table = self.members.get(enum.name, {})
        if by_name and isinstance(member, str) and member in table:
            return f"{self.names[enum.name]}.{table[member]}"
        for candidate in enum.members:
            if candidate.value == member and type(candidate.value) is type(member):
                return f"{self.names[enum.name]}.{table[candidate.name]}"
        return None

    def annotation(
        self, expr: ir.TypeExpr, *, strict: bool = False, markers: bool = True
    ) -> str:
        """The Python annotation of a type expression; ``strict``: scalars carry their
        own ``Strict()``, for annotations used outside a strict model (a module-level
        alias is validated by ``TypeAdapter(Alias)`` in pydantic's default lax mode, which
        reads ``true`` as ``1``); ``markers=False``: any JSON without its writer marker
        (``_ANY_JSON``), as signatures spell it."""
        if isinstance(expr, ir.Primitive):
            return _primitive(expr, strict)
        if isinstance(expr, ir.Ref):
            decl = self.index.get(expr.name)
            if decl is None:
                return ANY_JSON if markers else _VALUE
            if isinstance(decl, ir.EnumDecl):
                return self._enum_annotation(decl)
            return self.names[decl.name]
        if isinstance(expr, (ir.EnumMemberRef, ir.Literal)):
            return self.literals([expr])
        if isinstance(expr, ir.ArrayOf):
            items = self.annotation(expr.items, strict=strict, markers=markers)
            if expr.skip_invalid:
                # serde_with VecSkipError: items that do not read are dropped.
                return (
                    f"Annotated[list[Annotated[{items}, _SKIP_INVALID]], _DROP_SKIPPED]"
                )
            return f"list[{items}]"
        if isinstance(expr, ir.MapOf):
            key = self._key_annotation(expr.key)
            values = self.annotation(expr.values, strict=strict, markers=markers)
            mapping = f"dict[{key}, {values}]"
            # A BTreeMap writes its entries in key order: keep them so once read.
            return (
                f"Annotated[{mapping}, _SORTED_KEYS]" if expr.sorted_keys else mapping
            )
        if isinstance(expr, ir.TupleOf):
            each = [
                self.annotation(item, strict=strict, markers=markers)
                for item in expr.items
            ]
            if expr.rest is not None:
                # pydantic has no variadic tuple (``tuple[A, *tuple[B, ...]]``): the
                # items' union, positions checked by the JSON Schema only.
                each.append(self.annotation(expr.rest, strict=strict, markers=markers))
                return f"list[{' | '.join(dict.fromkeys(each))}]"
            least = expr.least
            # Lax at the tuple level only (items stay strict): ``json.loads`` gives
            # lists.  ``[a, b?]``: one tuple per length.
            return " | ".join(
                f"Annotated[tuple[{', '.join(each[:count]) or '()'}], Strict(False)]"
                for count in range(least, len(each) + 1)
            )
        if isinstance(expr, ir.AnyJson):
            if expr.structured:
                return ANY_JSON_STRUCTURED if markers else _STRUCTURED
            if expr.object_only:
                return ANY_JSON_OBJECT if markers else _OBJECT
            return ANY_JSON if markers else _VALUE
        return self._union_annotation(expr, strict, markers)

    def _enum_annotation(self, enum: ir.EnumDecl) -> str:
        name = self.names[enum.name]
        if not enum.open:
            return name
        wire = "str" if enum.base is ir.EnumBase.STRING else "int"
        return f"Annotated[{name} | {wire}, _LEFT_TO_RIGHT]"

    def _key_annotation(self, key: ir.TypeExpr) -> str:
        resolved = self.index.resolve(key)
        if isinstance(resolved, ir.Ref):
            decl = self.index.get(resolved.name)
            if isinstance(decl, ir.EnumDecl) and decl.base is ir.EnumBase.STRING:
                return self._enum_annotation(decl)
        return "str"

    def _union_annotation(
        self, expr: ir.InlineUnion, strict: bool = False, markers: bool = True
    ) -> str:
        flat: list[ir.TypeExpr] = []
        _flatten(expr, flat)
        literals = [m for m in flat if isinstance(m, (ir.Literal, ir.EnumMemberRef))]
        parts: list[str] = [self.literals(literals)] if literals else []
        has_null = False
        # ``bool`` before the numbers: pydantic serializes a union member by the first
        # type the value is an instance of, and ``True`` is an ``int`` (it would be
        # written as 1 inside a model read through an untagged union).
        flat.sort(
            key=lambda m: not (
                isinstance(m, ir.Primitive) and m.kind is ir.PrimitiveKind.BOOLEAN
            )
        )
        for member in flat:
            if isinstance(member, (ir.Literal, ir.EnumMemberRef)):
                continue
            if (
                isinstance(member, ir.Primitive)
                and member.kind is ir.PrimitiveKind.NULL
            ):
                has_null = True
                continue
            parts.append(self.annotation(member, strict=strict, markers=markers))
        if has_null:
            parts.append("None")
        return " | ".join(dict.fromkeys(parts)) or "None"

    def literals(self, items: list[ir.Literal | ir.EnumMemberRef]) -> str:
        """``Literal[...]`` grouped by JSON type; non-string literals get an exact-type
        guard (pydantic's ``Literal[1]`` accepts ``true`` and ``1.0`` even in strict
        mode).
        """
        groups: dict[str, list[str]] = {}
        for item in items:
            if isinstance(item, ir.EnumMemberRef):
                enum = self.index.get(item.enum)
                text = None
                kind = "string"
                if isinstance(enum, ir.EnumDecl):
                    text = self.enum_member(enum, item.member)
                    kind = "string" if enum.base is ir.EnumBase.STRING else "integer"
                if text is None:
                    text = py_literal(item.member)
                    kind = "string"
            else:
                text, kind = py_literal(item.value), json_kind(item.value)
            bucket = groups.setdefault(kind, [])
            if text not in bucket:
                bucket.append(text)
        parts: list[str] = []
        for kind, guard in (
            ("string", ""),
            ("integer", "_EXACT_INT"),
            ("boolean", "_EXACT_BOOL"),
        ):
            if kind in groups:
                literal = f"Literal[{', '.join(groups[kind])}]"
                parts.append(f"Annotated[{literal}, {guard}]" if guard else literal)
        if "float" in groups:
            # ``typing.Literal`` takes no floats: the type is kept, the value is not
            # pinned.
            parts.append("float")
        return " | ".join(parts)

    def tag_literal(self, fld: ir.Field, values: tuple[str | int | bool, ...]) -> str:
        """The tag field of a union variant: ``Literal`` of the union's tag values (enum
        members when the field is typed with the enum)."""
        resolved = self.index.resolve(fld.type)
        enum = self.index.get(resolved.name) if isinstance(resolved, ir.Ref) else None
        members = enum.members if isinstance(enum, ir.EnumDecl) else ()
        items: list[ir.Literal | ir.EnumMemberRef] = []
        for value in values:
            member = next(
                (
                    m
                    for m in members
                    if m.value == value and type(m.value) is type(value)
                ),
                None,
            )
            if member is not None and isinstance(enum, ir.EnumDecl):
                items.append(ir.EnumMemberRef(enum.name, member.name))
            else:
                items.append(ir.Literal(value))
        return self.literals(items)


def _primitive(expr: ir.Primitive, strict: bool = False) -> str:
    if expr.kind is ir.PrimitiveKind.NUMBER and expr.constraints.binary_float:
        # serde's f64: 5 reads as 5.0 (and is written so); inf is out of range.
        extra = "Strict(), " if strict else ""
        # serde's f32: read as the nearest f32, written in f32's shortest form.
        f32 = ", _F32_READ, _F32_WRITE" if expr.constraints.format == "float" else ""
        return f"Annotated[float, {extra}Field(allow_inf_nan=False){f32}]"
    base = {
        ir.PrimitiveKind.STRING: "str",
        ir.PrimitiveKind.INTEGER: "int",
        ir.PrimitiveKind.NUMBER: "int | float",
        ir.PrimitiveKind.BOOLEAN: "bool",
        ir.PrimitiveKind.NULL: "None",
    }[expr.kind]
    metadata = []
    if strict and expr.kind in (
        ir.PrimitiveKind.INTEGER,
        ir.PrimitiveKind.NUMBER,
        ir.PrimitiveKind.BOOLEAN,
    ):
        metadata.append("Strict()")
    bounds = []
    if expr.kind in (ir.PrimitiveKind.INTEGER, ir.PrimitiveKind.NUMBER):
        if expr.constraints.minimum is not None:
            bounds.append(f"ge={expr.constraints.minimum!r}")
        if expr.constraints.maximum is not None:
            bounds.append(f"le={expr.constraints.maximum!r}")
    pattern = (
        pattern_of(expr.constraints) if expr.kind is ir.PrimitiveKind.STRING else None
    )
    if pattern is not None:
        bounds.extend(_pattern_bound(pattern))
    if bounds:
        metadata.append(f"Field({', '.join(bounds)})")
    extra = ", ".join(metadata)
    text = (
        " | ".join(f"Annotated[{part}, {extra}]" for part in base.split(" | "))
        if metadata
        else base
    )
    # ``_NUMBER``: one error for a value that is no number, not one per member.
    return f"Annotated[{text}, _NUMBER]" if " | " in base else text


def _flatten(expr: ir.TypeExpr, out: list[ir.TypeExpr]) -> None:
    if isinstance(expr, ir.InlineUnion):
        for member in expr.members:
            _flatten(member, out)
    else:
        out.append(expr)


def _pattern_bound(pattern: str) -> list[str]:
    """The pattern as pydantic runs it with ECMA-262's meaning (the check pass has warned
    about one neither engine can say: the JSON Schema keeps it, the bindings cannot)."""
    try:
        dialect, text = for_pydantic(pattern)
    except Unspellable:
        return []
    if dialect is PYTHON:
        return [f"pattern=re.compile({text!r})"]
    return [f"pattern={text!r}"]
