"""The declarations of a set of TypeScript files, by name, before anything is evaluated.

Phase: frontend helper (first step of the TypeScript frontend).
Inputs: the parsed files (tree-sitter roots with their ``SourceText``).
Outputs: a ``SymbolTable``: type declarations (interfaces, type aliases, enums) and value
declarations (``const``s, enums as values) by name, in source order, each with its JSDoc,
type parameters and whether it is exported; the imports of each file; the JSDoc blocks that
declare methods, with the declaration each is attached to; declarations that are not wire
types (functions, classes, ``let``) as ``Skipped`` entries so they can be noted.
Guarantees: never raises on user input; nothing is evaluated here, so a declaration may
refer to one declared later or in another file (TypeScript's modules share one namespace in
a spec, as the published specs use them: re-exporting aggregators, per-channel files).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node

from codegen import ir
from codegen.frontends.common.syntax import node_text, span_of
from codegen.frontends.typescript.jsdoc import JsDoc, is_jsdoc, parse_jsdoc
from codegen.spec.source import SourceText

TYPE_KINDS = ("interface", "alias", "enum")


@dataclass(frozen=True, slots=True)
class TypeParam:
    name: str
    default: Node | None
    constraint: Node | None


@dataclass
class Symbol:
    """One top-level declaration.  ``kind``: interface, alias, enum, const."""

    name: str
    kind: str
    node: Node
    source: SourceText
    doc: JsDoc | None
    exported: bool
    params: tuple[TypeParam, ...] = ()
    order: int = 0

    @property
    def span(self) -> ir.Span:
        return span_of(self.source, self.node)


@dataclass(frozen=True, slots=True)
class Import:
    name: str  # the local name
    imported: str  # the name in the module it comes from
    module: str
    span: ir.Span


@dataclass(frozen=True, slots=True)
class MethodComment:
    """A JSDoc block with ``@method``; ``attached`` names the declaration right after it
    (no other comment or statement in between), if any."""

    doc: JsDoc
    source: SourceText
    attached: str | None


@dataclass(frozen=True, slots=True)
class Skipped:
    what: str  # "a function declaration", ...
    name: str
    span: ir.Span


@dataclass
class SymbolTable:
    types: dict[str, list[Symbol]] = field(default_factory=dict)
    values: dict[str, list[Symbol]] = field(default_factory=dict)
    order: list[Symbol] = field(default_factory=list)
    imports: list[Import] = field(default_factory=list)
    method_comments: list[MethodComment] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)

    def type(self, name: str) -> Symbol | None:
        found = self.types.get(name)
        return found[0] if found else None

    def value(self, name: str) -> Symbol | None:
        found = self.values.get(name)
        return found[0] if found else None

    def add(self, symbol: Symbol) -> None:
        symbol.order = len(self.order)
        self.order.append(symbol)
        table = self.values if symbol.kind == "const" else self.types
        table.setdefault(symbol.name, []).append(symbol)
        if symbol.kind == "enum":  # an enum is a value too (``typeof Kind``)
            self.values.setdefault(symbol.name, []).append(symbol)


def collect(files: list[tuple[SourceText, Node]]) -> SymbolTable:
    table = SymbolTable()
    for source, root in files:
        _collect_file(table, source, root)
    return table


def _collect_file(table: SymbolTable, source: SourceText, root: Node) -> None:
    pending: JsDoc | None = None
    method_doc: JsDoc | None = None
    for node in root.named_children:
        if node.type == "comment":
            text = node_text(node)
            if method_doc is not None:
                table.method_comments.append(MethodComment(method_doc, source, None))
                method_doc = None
            if is_jsdoc(text):
                doc = parse_jsdoc(text, node.start_point[0] + 1)
                if doc.first("method") is not None:
                    method_doc, pending = doc, None
                else:
                    pending = doc
            continue
        declared = _statement(table, source, node, pending)
        if method_doc is not None:
            table.method_comments.append(MethodComment(method_doc, source, declared))
            method_doc = None
        pending = None
    if method_doc is not None:
        table.method_comments.append(MethodComment(method_doc, source, None))


def _statement(
    table: SymbolTable, source: SourceText, node: Node, doc: JsDoc | None
) -> str | None:
    """Record one top-level statement; the name it declares, if any."""
    if node.type == "import_statement":
        table.imports.extend(_imports(node, source))
        return None
    exported = node.type == "export_statement"
    inner = node.child_by_field_name("declaration") if exported else node
    if inner is None:
        return (
            None  # ``export * from``, ``export { X } from``: re-exports declare nothing
        )
    if inner.type == "ambient_declaration":  # ``declare const x: T`` / ``declare enum``
        named = inner.named_children
        inner = named[0] if named else inner
    kind = {
        "interface_declaration": "interface",
        "type_alias_declaration": "alias",
        "enum_declaration": "enum",
    }.get(inner.type)
    if kind is not None:
        name = node_text(inner.child_by_field_name("name"))
        params = _type_params(inner.child_by_field_name("type_parameters"))
        table.add(Symbol(name, kind, inner, source, doc, exported, params))
        return name
    if inner.type == "lexical_declaration":
        return _consts(table, source, inner, doc, exported)
    what = inner.type.replace("_", " ")
    name = node_text(inner.child_by_field_name("name"))
    table.skipped.append(Skipped(f"a {what}", name, span_of(source, inner)))
    return None


def _consts(
    table: SymbolTable,
    source: SourceText,
    node: Node,
    doc: JsDoc | None,
    exported: bool,
) -> str | None:
    keyword = node.children[0].type if node.children else ""
    declared: str | None = None
    for declarator in node.named_children:
        if declarator.type != "variable_declarator":
            continue
        name = node_text(declarator.child_by_field_name("name"))
        if keyword != "const":
            table.skipped.append(
                Skipped(f"a {keyword} variable", name, span_of(source, declarator))
            )
            continue
        table.add(Symbol(name, "const", declarator, source, doc, exported))
        declared = declared or name
    return declared


def _type_params(node: Node | None) -> tuple[TypeParam, ...]:
    if node is None:
        return ()
    out: list[TypeParam] = []
    for child in node.named_children:
        if child.type != "type_parameter":
            continue
        default = child.child_by_field_name("value")
        if default is not None and default.type == "default_type":
            default = default.named_children[0] if default.named_children else None
        constraint = child.child_by_field_name("constraint")
        if constraint is not None and constraint.type == "constraint":
            constraint = (
                constraint.named_children[0] if constraint.named_children else None
            )
        out.append(
            TypeParam(node_text(child.child_by_field_name("name")), default, constraint)
        )
    return tuple(out)


def _imports(node: Node, source: SourceText) -> list[Import]:
    module_node = node.child_by_field_name("source")
    module = node_text(module_node)[1:-1] if module_node else ""
    out: list[Import] = []
    stack = list(node.named_children)
    while stack:
        child = stack.pop(0)
        if child.type == "import_specifier":
            name = child.child_by_field_name("name")
            alias = child.child_by_field_name("alias") or name
            if alias is not None:
                out.append(
                    Import(
                        node_text(alias),
                        node_text(name),
                        module,
                        span_of(source, alias),
                    )
                )
        else:
            stack.extend(child.named_children)
    return out
