"""``Default::default()`` of Rust types as the JSON serde writes for it.

Phase: frontend helper (the last step of ``rust.reader``, once every declaration exists).
Inputs: the crate's declarations (IR), which types ``#[derive(Default)]``, the bodies of
hand-written ``impl Default`` blocks, no-argument associated functions (``Self::new()``),
free functions named by ``#[serde(default = "path")]``, and each enum's ``#[default]``
variant.
Outputs: ``DefaultResolver.of_type`` / ``of_call`` / ``field_of_container``: the JSON value
(Python data, key order as serde writes it) of a type's default, of a default function's
result, or of one field of a container's default; ``UNKNOWN`` when it cannot be known from
the source.  Hand-written bodies are evaluated for the forms that occur in practice: struct
literals (``Self { a: None, b: Vec::new(), ..Default::default() }``), ``Self::new()``,
enum variants, literals, ``"x".into()``, ``String::from``, ``vec![]``, ``Default::default()``
and calls of other such functions.
Guarantees: pure apart from memoization; never raises; recursion through cycles ends in
``UNKNOWN``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from tree_sitter import Node

from codegen import ir
from codegen.frontends.common.syntax import MAX_TYPE_NESTING, node_text
from codegen.frontends.rust.literals import string_literal_value


class _Unknown:
    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Any = _Unknown()
_ABSENT: Any = object()  # a field serde leaves out (skip_serializing_if)
_EMPTY_CALLS = {"new", "default", "new_in", "empty"}


@dataclass
class DefaultResolver:
    decls: dict[str, ir.Decl]
    derived: set[str] = field(default_factory=set)  # #[derive(Default)]
    impls: dict[str, Node] = field(default_factory=dict)  # type → fn default body
    assoc: dict[tuple[str, str], Node] = field(
        default_factory=dict
    )  # (type, fn) → body
    fns: dict[str, Node] = field(default_factory=dict)  # free fn → body
    variant_default: dict[str, str] = field(default_factory=dict)  # enum → variant
    _busy: set[str] = field(default_factory=set)
    _depth: int = 0  # how deep the expression being evaluated is (calls included)

    # ------------------------------------------------------------------ types

    def of_type(self, expr: ir.TypeExpr) -> Any:
        if isinstance(expr, ir.Primitive):
            return {
                ir.PrimitiveKind.STRING: (
                    "\0" if expr.constraints.format == "char" else ""
                ),
                ir.PrimitiveKind.INTEGER: 0,
                ir.PrimitiveKind.NUMBER: 0.0,
                ir.PrimitiveKind.BOOLEAN: False,
                ir.PrimitiveKind.NULL: None,
            }[expr.kind]
        if isinstance(expr, ir.InlineUnion):
            if ir.Primitive(ir.PrimitiveKind.NULL) in expr.members:
                return None
            return UNKNOWN
        if isinstance(expr, ir.ArrayOf):
            return []
        if isinstance(expr, ir.MapOf):
            return {}
        if isinstance(expr, ir.TupleOf):
            items = [self.of_type(item) for item in expr.items]
            return UNKNOWN if any(i is UNKNOWN for i in items) else items
        if isinstance(expr, ir.AnyJson):
            return {} if expr.object_only else None
        if isinstance(expr, ir.Literal):
            return expr.value
        if isinstance(expr, ir.Ref):
            return self._of_decl(expr.name)
        return UNKNOWN

    def _of_decl(self, name: str) -> Any:
        if name in self._busy:
            return UNKNOWN
        self._busy.add(name)
        try:
            decl = self.decls.get(name)
            if name in self.impls:
                return self.evaluate(self.impls[name], ir.Ref(name), name)
            if isinstance(decl, ir.AliasDecl):
                return self.of_type(decl.target)
            if isinstance(decl, ir.StructDecl) and name in self.derived:
                return self.struct_json(decl, {})
            if isinstance(decl, (ir.EnumDecl, ir.UnionDecl)):
                variant = self.variant_default.get(name)
                return self.variant_json(decl, variant) if variant else UNKNOWN
            return UNKNOWN
        finally:
            self._busy.discard(name)

    def variant_json(self, decl: ir.Decl, variant: str) -> Any:
        if isinstance(decl, ir.EnumDecl):
            member = next((m for m in decl.members if m.name == variant), None)
            return member.value if member is not None else UNKNOWN
        if isinstance(decl, ir.UnionDecl):
            found = next((v for v in decl.variants if v.name == variant), None)
            if found is None or found.type is not None:
                return UNKNOWN
            tag = found.tag_values[0] if found.tag_values else found.name
            if decl.repr is ir.UnionRepr.INTERNALLY_TAGGED and decl.tag_key:
                return {decl.tag_key: tag}
            if decl.repr is ir.UnionRepr.ADJACENTLY_TAGGED and decl.tag_key:
                return {decl.tag_key: tag}
            return tag
        return UNKNOWN

    def struct_json(self, struct: ir.StructDecl, values: dict[str, Any]) -> Any:
        """The object serde writes for a struct whose fields (by Rust name) hold ``values``;
        fields not given hold their own type's default (``derive(Default)``)."""
        out: dict[str, Any] = {}
        for fld in struct.fields:
            value = values.get(fld.name, _ABSENT)
            if value is _ABSENT:
                value = self._field_default(fld)
            if value is UNKNOWN:
                return UNKNOWN
            if fld.flatten:
                if isinstance(value, dict):
                    out.update(value)
                    continue
                return UNKNOWN
            if value is _ABSENT:
                continue
            omitted = fld.omitted_value
            if omitted is not None and omitted.startswith("\x00"):
                if self.of_type(fld.type) == value:
                    continue  # skip_serializing_if = "T::is_default"
            elif omitted is not None and json.loads(omitted) == value:
                continue
            out[fld.wire_name] = value
        return out

    def _field_default(self, fld: ir.Field) -> Any:
        """``Default::default()`` of the field's Rust type."""
        if fld.omitted_value == "null" or fld.default_json == "null" and fld.nullable:
            return None  # an Option
        if fld.presence is ir.Presence.OPTIONAL and fld.nullable:
            return _ABSENT  # a tri-state wrapper: undefined
        if fld.synthesized and isinstance(fld.type, ir.Literal):
            return fld.type.value  # serde's struct tag
        return self.of_type(fld.type)

    # ------------------------------------------------------------- expressions

    def of_call(self, path: str, expected: ir.TypeExpr) -> Any:
        """The result of the function a ``default = "path"`` attribute names."""
        name = path.rsplit("::", 1)[-1]
        owner = path.rsplit("::", 2)[-2] if "::" in path else None
        body = self.assoc.get((owner, name)) if owner else self.fns.get(name)
        if body is None and owner is None:
            body = self.fns.get(name)
        if body is None:
            if name == "default":
                return self.of_type(expected)
            return UNKNOWN
        return self.evaluate(body, expected, owner)

    def field_of_container(self, container: str, fld: ir.Field) -> Any:
        """The value a field takes from its container's ``Default`` (``#[serde(default)]``
        on the container), as serde writes it."""
        whole = self._of_decl(container)
        if not isinstance(whole, dict):
            return UNKNOWN
        return whole.get(fld.wire_name, _ABSENT)

    def evaluate(self, node: Node, expected: ir.TypeExpr, owner: str | None) -> Any:
        # A bound, not Python's stack: an expression (or a chain of calls) deeper than
        # this cannot be evaluated, which the caller reports (SER003) like other code.
        if self._depth >= MAX_TYPE_NESTING:
            return UNKNOWN
        self._depth += 1
        try:
            return self._evaluate(node, expected, owner)
        finally:
            self._depth -= 1

    def _evaluate(self, node: Node, expected: ir.TypeExpr, owner: str | None) -> Any:
        kind = node.type
        if kind == "block":
            inner = [c for c in node.named_children if c.type not in _COMMENTS]
            if len(inner) == 1 and inner[0].type != "let_declaration":
                return self.evaluate(inner[0], expected, owner)
            return UNKNOWN
        if kind in ("parenthesized_expression", "expression_statement"):
            inner = node.named_children
            return self.evaluate(inner[0], expected, owner) if inner else UNKNOWN
        if kind == "boolean_literal":
            return node_text(node) == "true"
        if kind == "integer_literal":
            return _integer(node_text(node))
        if kind == "float_literal":
            return _float(node_text(node))
        if kind in ("string_literal", "raw_string_literal"):
            value = string_literal_value(node)
            return UNKNOWN if value is None else value
        if kind == "unary_expression" and node_text(node).startswith("-"):
            operand = self.evaluate(node.named_children[-1], expected, owner)
            return -operand if isinstance(operand, (int, float)) else UNKNOWN
        if kind == "identifier" and node_text(node) == "None":
            return None
        if kind in ("scoped_identifier", "identifier"):
            return self._path_value(node_text(node), expected, owner)
        if kind == "struct_expression":
            return self._struct_literal(node, expected, owner)
        if kind == "call_expression":
            return self._call(node, expected, owner)
        if kind == "macro_invocation":
            name = node_text(node.child_by_field_name("macro"))
            tree = next(
                (c for c in node.named_children if c.type == "token_tree"), None
            )
            if name == "vec" and tree is not None and len(tree.children) == 2:
                return []
        return UNKNOWN

    def _path_value(self, path: str, expected: ir.TypeExpr, owner: str | None) -> Any:
        """``Enum::Variant`` / ``Self::Variant`` as the expected enum's wire value."""
        if "::" not in path:
            return UNKNOWN
        type_name, variant = path.rsplit("::", 1)
        type_name = type_name.rsplit("::", 1)[-1]
        if type_name == "Self" and owner is not None:
            type_name = owner
        decl = self.decls.get(type_name)
        if decl is None:
            return UNKNOWN
        return self.variant_json(decl, variant)

    def _struct_literal(
        self, node: Node, expected: ir.TypeExpr, owner: str | None
    ) -> Any:
        name = node_text(node.child_by_field_name("name")).rsplit("::", 1)[-1]
        if name == "Self" and owner is not None:
            name = owner
        struct = self.decls.get(name)
        if not isinstance(struct, ir.StructDecl):
            return UNKNOWN
        by_name = {f.name: f for f in struct.fields}
        values: dict[str, Any] = {}
        body = node.child_by_field_name("body")
        for item in body.named_children if body is not None else []:
            if item.type == "field_initializer":
                field_name = node_text(item.child_by_field_name("field"))
                target = by_name.get(field_name)
                value_node = item.child_by_field_name("value")
                if target is None or value_node is None:
                    continue  # a field serde skips, or not a wire field
                values[field_name] = self._field_value(target, value_node, name)
            elif item.type == "shorthand_field_initializer":
                return UNKNOWN
        return self.struct_json(struct, values)

    def _field_value(self, fld: ir.Field, node: Node, owner: str) -> Any:
        if node_text(node) == "None":
            return _ABSENT if fld.presence is ir.Presence.OPTIONAL else None
        expected: ir.TypeExpr = fld.type
        if node.type == "call_expression" and node_text(
            node.child_by_field_name("function")
        ) in ("Some",):
            args = node.child_by_field_name("arguments")
            inner = args.named_children if args is not None else []
            return (
                self.evaluate(inner[0], expected, owner) if len(inner) == 1 else UNKNOWN
            )
        return self.evaluate(node, expected, owner)

    def _call(self, node: Node, expected: ir.TypeExpr, owner: str | None) -> Any:
        function = node.child_by_field_name("function")
        args = node.child_by_field_name("arguments")
        arguments = [
            c for c in (args.named_children if args else []) if c.type not in _COMMENTS
        ]
        text = node_text(function).replace(" ", "")
        if function is not None and function.type == "field_expression":
            receiver = function.child_by_field_name("value")
            method = node_text(function.child_by_field_name("field"))
            if receiver is not None and method in ("into", "to_string", "to_owned"):
                return self.evaluate(receiver, expected, owner)
            return UNKNOWN
        name = text.rsplit("::", 1)[-1]
        type_name = text.rsplit("::", 2)[-2] if "::" in text else None
        if type_name == "Self":
            type_name = owner
        if text == "Some" and len(arguments) == 1:
            return self.evaluate(arguments[0], expected, owner)
        if (
            name == "from"
            and type_name in ("String", "PathBuf")
            and len(arguments) == 1
        ):
            return self.evaluate(arguments[0], expected, owner)
        if not arguments and type_name is not None:
            body = self.assoc.get((type_name, name))
            if body is not None:
                return self.evaluate(body, ir.Ref(type_name), type_name)
            if name == "default" and type_name in self.decls:
                return self._of_decl(type_name)
            if name in _EMPTY_CALLS:
                return self.of_type(expected)
        if not arguments and type_name is None:
            body = self.fns.get(name)
            if body is not None:
                return self.evaluate(body, expected, owner)
        return UNKNOWN


_COMMENTS = ("line_comment", "block_comment")


def _integer(text: str) -> Any:
    digits = text.replace("_", "")
    for suffix in (
        "u128",
        "i128",
        "usize",
        "isize",
        "u64",
        "i64",
        "u32",
        "i32",
        "u16",
        "i16",
        "u8",
        "i8",
    ):
        if digits.endswith(suffix):
            digits = digits[: -len(suffix)]
            break
    try:
        return int(digits, 0)
    except ValueError:
        return UNKNOWN


def _float(text: str) -> Any:
    digits = text.replace("_", "").removesuffix("f64").removesuffix("f32")
    try:
        return float(digits)
    except ValueError:
        return UNKNOWN
