"""TypeScript type expressions to IR type expressions.

Phase: frontend helper, used by ``typescript.py`` for fields, aliases and bases.
Inputs: tree-sitter-typescript type nodes, the naming context (``Parent.field``).
Outputs: ``ir.TypeExpr`` values, plus declarations lifted out of inline object types and
inline unions (given stable names from their context: ``FileEdit.before`` → ``FileEditBefore``).
Guarantees: never raises on user input; anything unsupported becomes a diagnostic and
``AnyJson`` so the rest of the spec still converts.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from tree_sitter import Node

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.common.syntax import node_text, span_of
from codegen.spec.source import SourceText

PREDEFINED: dict[str, ir.TypeExpr] = {
    "string": ir.Primitive(ir.PrimitiveKind.STRING),
    "number": ir.Primitive(ir.PrimitiveKind.NUMBER),
    "bigint": ir.Primitive(ir.PrimitiveKind.INTEGER),
    "boolean": ir.Primitive(ir.PrimitiveKind.BOOLEAN),
    "unknown": ir.AnyJson(),
    "any": ir.AnyJson(),
    "object": ir.AnyJson(structured=True),  # arrays are objects in TS
}
NULL = ir.Primitive(ir.PrimitiveKind.NULL)


def pascal(name: str) -> str:
    """``before`` → ``Before``, ``session/new`` → ``SessionNew``: names of lifted types."""
    parts = re.split(r"[^0-9A-Za-z]+", name)
    return "".join(part[:1].upper() + part[1:] for part in parts if part)


@dataclass
class TypeResult:
    """A converted type with the ``| undefined`` and ``| null`` members split off."""

    expr: ir.TypeExpr
    undefined: bool = False
    nullable: bool = False


# Builds a struct from an object type node: (node, name, derived_from) -> StructDecl.
ObjectBuilder = Callable[[Node, str, str], ir.StructDecl]


@dataclass
class TypeConverter:
    source: SourceText
    diags: Diagnostics
    build_object: ObjectBuilder
    lifted: list[ir.Decl] = field(default_factory=list)

    def span(self, node: Node) -> ir.Span:
        return span_of(self.source, node)

    def convert(self, node: Node, context: str, derived_from: str) -> TypeResult:
        """Convert a type node; ``context`` names lifted declarations (``FileEditBefore``)."""
        kind = node.type
        if kind == "type_annotation":
            inner = node.named_children
            if not inner:
                return self._unsupported(node, "an empty type annotation")
            return self.convert(inner[0], context, derived_from)
        if kind == "parenthesized_type":
            return self.convert(node.named_children[0], context, derived_from)
        if kind == "union_type":
            return self._union(node, context, derived_from)
        return TypeResult(self._single(node, context, derived_from))

    def _single(self, node: Node, context: str, derived_from: str) -> ir.TypeExpr:
        kind = node.type
        if kind == "predefined_type":
            name = node_text(node)
            if name in PREDEFINED:
                return PREDEFINED[name]
            return self._unsupported(node, f"the type {name!r} has no JSON form").expr
        if kind == "type_identifier":
            name = node_text(node)
            if name in PREDEFINED:  # tree-sitter reads ``bigint`` as an identifier
                return PREDEFINED[name]
            return ir.Ref(name, self.span(node))
        if kind == "nested_type_identifier":
            module = node.child_by_field_name("module")
            member = node.child_by_field_name("name")
            if module is None or member is None:
                return self._unsupported(node, "a malformed qualified type").expr
            return ir.EnumMemberRef(
                node_text(module), node_text(member), self.span(node)
            )
        if kind == "literal_type":
            return self._literal(node)
        if kind == "array_type":
            element = node.named_children[0]
            return ir.ArrayOf(
                self._element(element, context + "Item", derived_from + "[]")
            )
        if kind == "generic_type":
            return self._generic(node, context, derived_from)
        if kind == "tuple_type":
            items = tuple(
                self._element(child, f"{context}{index}", f"{derived_from}[{index}]")
                for index, child in enumerate(node.named_children)
            )
            return ir.TupleOf(items)
        if kind == "object_type":
            return self._object(node, context, derived_from)
        if kind == "parenthesized_type" or kind == "union_type":
            return self._element(node, context, derived_from)
        return self._unsupported(
            node, f"the type construct {kind!r} is not supported"
        ).expr

    def _element(self, node: Node, context: str, derived_from: str) -> ir.TypeExpr:
        """A type inside a container: nullability stays in the expression."""
        result = self.convert(node, context, derived_from)
        if result.undefined:
            self.diags.report(
                "SYN003",
                "'undefined' inside a container has no JSON form",
                self.span(node),
            )
        if result.nullable:
            return ir.InlineUnion((result.expr, NULL))
        return result.expr

    def _literal(self, node: Node) -> ir.TypeExpr:
        child = node.named_children[0] if node.named_children else node
        text = node_text(child)
        if child.type == "string":
            return ir.Literal(text[1:-1])
        if child.type == "number":
            return ir.Literal(_number(text))
        if child.type in ("true", "false"):
            return ir.Literal(child.type == "true")
        if child.type == "null":
            return NULL
        if child.type == "unary_expression" and text.startswith("-"):
            return ir.Literal(-_number(text[1:].strip()))
        return self._unsupported(
            node, f"the literal type {text!r} is not supported"
        ).expr

    def _generic(self, node: Node, context: str, derived_from: str) -> ir.TypeExpr:
        name_node = node.child_by_field_name("name")
        args_node = node.child_by_field_name("type_arguments")
        name = node_text(name_node) if name_node else ""
        args = args_node.named_children if args_node else []
        if name == "Record" and len(args) == 2:
            key = self._single(args[0], context + "Key", derived_from + "<key>")
            values = self._element(args[1], context + "Value", derived_from + "<value>")
            return ir.MapOf(values, key)
        if name in ("Array", "ReadonlyArray") and len(args) == 1:
            return ir.ArrayOf(
                self._element(args[0], context + "Item", derived_from + "[]")
            )
        return self._unsupported(
            node, f"the generic type {name!r} is not supported"
        ).expr

    def _object(self, node: Node, context: str, derived_from: str) -> ir.TypeExpr:
        struct = self.build_object(node, context, derived_from)
        self.lifted.append(struct)
        return ir.Ref(struct.name, struct.span)

    def _union(self, node: Node, context: str, derived_from: str) -> TypeResult:
        members: list[Node] = []
        _flatten_union(node, members)
        result = TypeResult(NULL)
        exprs: list[ir.TypeExpr] = []
        objects = 0
        for member in members:
            if _is_keyword_literal(member, "undefined"):
                result.undefined = True
                continue
            if _is_keyword_literal(member, "null"):
                result.nullable = True
                continue
            objects += member.type == "object_type"
            suffix = "Object" if objects <= 1 else f"Object{objects}"
            exprs.append(self._element(member, context + suffix, derived_from))
        if not exprs:
            result.nullable = False
            result.expr = NULL
        elif len(exprs) == 1:
            result.expr = exprs[0]
        else:
            result.expr = ir.InlineUnion(tuple(exprs))
        return result

    def _unsupported(self, node: Node, message: str) -> TypeResult:
        self.diags.report(
            "SYN003", message + "; it is read as any JSON value", self.span(node)
        )
        return TypeResult(ir.AnyJson())


def _flatten_union(node: Node, out: list[Node]) -> None:
    for child in node.named_children:
        if child.type == "union_type":
            _flatten_union(child, out)
        elif (
            child.type == "parenthesized_type"
            and child.named_children[0].type == "union_type"
        ):
            _flatten_union(child.named_children[0], out)
        else:
            out.append(child)


def _is_keyword_literal(node: Node, keyword: str) -> bool:
    if node.type == "literal_type" and node.named_children:
        return node.named_children[0].type == keyword
    if node.type == "predefined_type":
        return node_text(node) == keyword
    return False


def _number(text: str) -> int | float:
    cleaned = text.replace("_", "")
    try:
        return int(cleaned, 0)
    except ValueError:
        return float(cleaned)
