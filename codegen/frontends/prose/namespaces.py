"""Constant namespaces of a prose spec's TypeScript as enums (the LSP idiom)::

    export namespace ItemKind {
        /** A plain text item. */
        export const Text = 'text';
        export const Link = 'link';
    }
    export type ItemKind = 'text' | 'link';

Phase: frontend helper (``prose.reader``, on the declaration fences).
Inputs: the TypeScript views of the declaration fences (``SourceText``s).
Outputs: one ``ir.EnumDecl`` per namespace whose body is only ``export const`` members with
a string or integer literal value (members in order, with their JSDoc); spans in the view
(``prose.reader`` maps them into the document).  The reader puts each in place of the type
alias of the same name (closed: the alias lists the values) or adds it (closed: the
namespace is all the spec says).
Guarantees: never raises; a namespace with anything else (functions, types, a computed or
mixed-kind value) is not an enum and is left to the TypeScript frontend (which skips it as
code, with its note).
"""

from __future__ import annotations

import json
import re

import tree_sitter_typescript
from tree_sitter import Language, Node, Parser

from codegen import ir
from codegen.frontends.common.syntax import node_text, span_of
from codegen.spec.source import SourceText

_LANGUAGE = Language(tree_sitter_typescript.language_typescript())
_JSDOC_LINE = re.compile(r"^\s*\*? ?")


def namespace_enums(views: list[SourceText]) -> list[ir.EnumDecl]:
    out: list[ir.EnumDecl] = []
    for view in views:
        root = Parser(_LANGUAGE).parse(view.data).root_node
        children = root.named_children
        for index, node in enumerate(children):
            inner = node
            if inner.type == "export_statement" and inner.named_children:
                inner = next(
                    (c for c in inner.named_children if c.type != "comment"), inner
                )
            if inner.type == "expression_statement" and inner.named_children:
                inner = inner.named_children[0]
            if inner.type != "internal_module":
                continue
            enum = _enum(inner, view, _jsdoc(children, index))
            if enum is not None:
                out.append(enum)
    return out


def _enum(node: Node, view: SourceText, docs: str) -> ir.EnumDecl | None:
    name = node_text(node.child_by_field_name("name"))
    body = node.child_by_field_name("body")
    if not name or body is None:
        return None
    members: list[ir.EnumMember] = []
    statements = body.named_children
    for index, statement in enumerate(statements):
        if statement.type == "comment":
            continue
        member = _member(statement, view, _jsdoc(statements, index))
        if member is None:
            return None
        members.append(member)
    kinds = {type(m.value) for m in members}
    if not members or len(kinds) != 1:
        return None
    base = ir.EnumBase.STRING if kinds == {str} else ir.EnumBase.INTEGER
    return ir.EnumDecl(
        name,
        base,
        tuple(members),
        lifecycle=ir.Lifecycle(docs=docs),
        span=span_of(view, node),
    )


def _member(statement: Node, view: SourceText, docs: str) -> ir.EnumMember | None:
    if statement.type != "export_statement":
        return None
    declaration = statement.child_by_field_name("declaration")
    if declaration is None or declaration.type != "lexical_declaration":
        return None
    if not node_text(declaration).startswith("const"):
        return None
    declarators = [
        c for c in declaration.named_children if c.type == "variable_declarator"
    ]
    if len(declarators) != 1:
        return None
    value_node = declarators[0].child_by_field_name("value")
    value = _literal(value_node)
    if value is None:
        return None
    return ir.EnumMember(
        node_text(declarators[0].child_by_field_name("name")),
        value,
        ir.Lifecycle(docs=docs),
        span_of(view, declarators[0]),
    )


def _literal(node: Node | None) -> str | int | None:
    if node is None:
        return None
    text = node_text(node)
    if node.type == "string":
        try:
            value = json.loads('"' + text[1:-1].replace('"', '\\"') + '"')
        except ValueError:
            return None
        return value if isinstance(value, str) else None
    if node.type == "number" and re.fullmatch(r"\d+", text):
        return int(text)
    if node.type == "unary_expression" and re.fullmatch(r"-\s*\d+", text):
        return -int(text.lstrip("-").strip())
    return None


def _jsdoc(siblings: list[Node], index: int) -> str:
    """The ``/** ... */`` right before ``siblings[index]``, as text."""
    if index == 0 or siblings[index - 1].type != "comment":
        return ""
    raw = node_text(siblings[index - 1])
    if not raw.startswith("/**"):
        return ""
    lines = raw[3:-2].split("\n")
    return "\n".join(_JSDOC_LINE.sub("", line, count=1) for line in lines).strip()
