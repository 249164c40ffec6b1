"""The declarations of a set of TypeScript files, in their scopes, before anything is
evaluated.

Phase: frontend helper (first step of the TypeScript frontend).
Inputs: the parsed files (tree-sitter roots with their ``SourceText``).
Outputs: a ``SymbolTable``: one ``Scope`` per file and per ``namespace`` block; type
declarations (interfaces, type aliases, enums) and value declarations (``const``s, enums
as values) as ``Symbol``s, each with its JSDoc, type parameters, whether it is exported
and its unique IR name (``Symbol.name``; ``Symbol.local`` is the name it is declared
with); the imports of each file; the JSDoc blocks that declare methods; declarations that
are not wire types (functions, classes, ``let``) as ``Skipped`` entries.
Guarantees: never raises on user input; nothing is evaluated here.  Scoping is the
checker's (see ``scopes``): a file with a top-level ``import``/``export`` is a module whose
declarations are private unless exported; names are bound by imports (``import type
{ X as Y }``, ``import * as NS``), re-exports (``export { A as B } from``, ``export * from``,
``export * as NS from``) and ``namespace`` blocks; declarations of one name in one scope
merge as TypeScript merges them (interface + interface, namespace + type alias, enum +
namespace).  Declarations of one name in different scopes are different types, named by
the rule of ``scopes.assign_names``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node

from codegen import ir
from codegen.frontends.common.syntax import node_text, span_of
from codegen.frontends.typescript.jsdoc import JsDoc, is_jsdoc, parse_jsdoc
from codegen.frontends.typescript.scopes import Import, Scope, assign_names, module_key
from codegen.spec.source import SourceText

TYPE_KINDS = ("interface", "alias", "enum")


@dataclass(frozen=True, slots=True)
class TypeParam:
    name: str
    default: Node | None
    constraint: Node | None


@dataclass(eq=False)
class Symbol:
    """One declaration.  ``kind``: interface, alias, enum, const.  ``name`` is the unique
    IR name (the declared ``local`` name unless another scope declares it too);
    ``parts`` are the later declarations merged into this one (``interface`` twice)."""

    name: str
    kind: str
    node: Node
    source: SourceText
    doc: JsDoc | None
    exported: bool
    params: tuple[TypeParam, ...] = ()
    order: int = 0
    local: str = ""
    scope: Scope | None = None
    parts: list[Symbol] = field(default_factory=list)

    @property
    def span(self) -> ir.Span:
        return span_of(self.source, self.node)


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
    types: dict[str, list[Symbol]] = field(default_factory=dict)  # by IR name
    values: dict[str, list[Symbol]] = field(default_factory=dict)  # by IR name
    order: list[Symbol] = field(default_factory=list)
    imports: list[Import] = field(default_factory=list)
    method_comments: list[MethodComment] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    files: dict[str, Scope] = field(default_factory=dict)  # module key → file scope
    by_source: dict[str, Scope] = field(default_factory=dict)  # rel_path → scope

    def type(self, name: str) -> Symbol | None:
        """The type declaration whose IR name is ``name``."""
        found = self.types.get(name)
        return found[0] if found else None

    def value(self, name: str) -> Symbol | None:
        found = self.values.get(name)
        return found[0] if found else None

    # ------------------------------------------------------------------ scoped lookup

    def scope_at(self, source: SourceText, node: Node | None) -> Scope | None:
        """The innermost scope around ``node`` in ``source``."""
        scope = self.by_source.get(source.rel_path)
        if scope is None or node is None:
            return scope
        position = node.start_byte
        while True:
            inner = next(
                (
                    s
                    for s in scope.blocks
                    if s.ranges_contain(source.rel_path, position)
                ),
                None,
            )
            if inner is None:
                return scope
            scope = inner

    def lookup_type(self, name: str, scope: Scope | None) -> Symbol | None:
        found = scope.lookup(name, "type", self.files) if scope is not None else None
        if isinstance(found, Symbol):
            return found
        return self._global(name, "type")

    def lookup_value(self, name: str, scope: Scope | None) -> Symbol | Scope | None:
        if scope is not None:
            found = scope.lookup(name, "value", self.files)
            if found is not None:
                return found  # type: ignore[no-any-return]
            space = scope.lookup(name, "namespace", self.files)
            if space is not None:
                return space  # type: ignore[no-any-return]
        return self._global(name, "value")

    def lookup_namespace(self, name: str, scope: Scope | None) -> Scope | None:
        found = (
            scope.lookup(name, "namespace", self.files) if scope is not None else None
        )
        return found if isinstance(found, Scope) else None

    def imported_from_outside(self, name: str, scope: Scope | None) -> bool:
        """``name`` is bound by an import from a module that is not one of the sources."""
        while scope is not None:
            imported = scope.imports.get(name)
            if imported is not None:
                return scope.resolve_module(imported.module, self.files) is None
            scope = scope.parent
        return False

    def _global(self, name: str, space: str) -> Symbol | None:
        """Scripts share the global scope; a name no scope binds is looked up among all
        declarations, as the published specs use them (per-channel files without
        imports): the one named ``name`` by ``assign_names`` first."""
        table = self.types if space == "type" else self.values
        found = table.get(name)
        if found:
            return found[0]
        for symbol in self.order:
            if symbol.local == name and (symbol.kind == "const") == (space == "value"):
                return symbol
        if space == "value":
            for symbol in self.order:
                if symbol.local == name and symbol.kind == "enum":
                    return symbol
        return None


def collect(files: list[tuple[SourceText, Node]]) -> SymbolTable:
    table = SymbolTable()
    declared: list[Symbol] = []
    for source, root in files:
        is_module = any(
            child.type in ("import_statement", "export_statement")
            for child in root.named_children
        )
        scope = Scope(
            "module" if is_module else "script",
            source.rel_path,
            (),
            None,
            ambient=source.rel_path.endswith(".d.ts"),
        )
        table.files.setdefault(module_key(source.rel_path), scope)
        table.by_source[source.rel_path] = scope
        _collect_block(table, declared, scope, source, root)
    for symbol, name in assign_names(declared).items():
        symbol.name = name
    for symbol in declared:
        table.order.append(symbol)
        symbol.order = len(table.order) - 1
        target = table.values if symbol.kind == "const" else table.types
        target.setdefault(symbol.name, []).append(symbol)
        if symbol.kind == "enum":  # an enum is a value too (``typeof Kind``)
            table.values.setdefault(symbol.name, []).append(symbol)
    return table


def _collect_block(
    table: SymbolTable,
    declared: list[Symbol],
    scope: Scope,
    source: SourceText,
    block: Node,
) -> None:
    pending: JsDoc | None = None
    method_doc: JsDoc | None = None
    for node in block.named_children:
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
        symbol = _statement(table, declared, scope, source, node, pending)
        if method_doc is not None:
            attached = symbol.name if symbol is not None else None
            table.method_comments.append(MethodComment(method_doc, source, attached))
            method_doc = None
        pending = None
    if method_doc is not None:
        table.method_comments.append(MethodComment(method_doc, source, None))


def _statement(
    table: SymbolTable,
    declared: list[Symbol],
    scope: Scope,
    source: SourceText,
    node: Node,
    doc: JsDoc | None,
) -> Symbol | None:
    """Record one statement of a file or namespace; the symbol it declares, if any."""
    if node.type == "import_statement":
        found = _imports(node, source)
        table.imports.extend(found)
        for imported in found:
            scope.imports[imported.name] = imported
        return None
    if node.type == "import_alias":  # ``import A = B.C;`` (inside a namespace)
        named = [c for c in node.named_children if c.type != "comment"]
        if len(named) == 2:
            scope.aliases[node_text(named[0])] = node_text(named[1]).replace(" ", "")
        return None
    if node.type == "expression_statement" and any(
        c.type == "internal_module" for c in node.named_children
    ):  # tree-sitter reads a bare ``namespace X {}`` as an expression
        node = next(c for c in node.named_children if c.type == "internal_module")
    exported = node.type == "export_statement"
    inner = node.child_by_field_name("declaration") if exported else node
    if inner is None:
        if exported:
            _export_clause(scope, node)
        return None
    if inner.type == "ambient_declaration":  # ``declare const x: T`` / ``declare enum``
        named = inner.named_children
        inner = named[0] if named else inner
    if inner.type in ("internal_module", "module"):
        _namespace(table, declared, scope, source, inner, exported)
        return None
    kind = {
        "interface_declaration": "interface",
        "type_alias_declaration": "alias",
        "enum_declaration": "enum",
    }.get(inner.type)
    if kind is not None:
        name = node_text(inner.child_by_field_name("name"))
        params = _type_params(inner.child_by_field_name("type_parameters"))
        symbol = Symbol(name, kind, inner, source, doc, exported, params, local=name)
        return _declare(declared, scope, symbol)
    if inner.type == "lexical_declaration":
        return _consts(declared, scope, table, source, inner, doc, exported)
    what = inner.type.replace("_", " ")
    name = node_text(inner.child_by_field_name("name"))
    table.skipped.append(Skipped(f"a {what}", name, span_of(source, inner)))
    return None


def _declare(declared: list[Symbol], scope: Scope, symbol: Symbol) -> Symbol:
    """Add ``symbol`` to ``scope``, merging it into an interface of the same name."""
    symbol.scope = scope
    space = scope.values if symbol.kind == "const" else scope.types
    earlier: Symbol | None = space.get(symbol.local)
    if earlier is not None and earlier.kind == symbol.kind == "interface":
        earlier.parts.append(symbol)
        earlier.exported = earlier.exported or symbol.exported
        if symbol.exported:
            scope.exported.add(symbol.local)
        return earlier
    if earlier is not None:
        return earlier  # a second declaration: the checker's duplicate-identifier error
    space[symbol.local] = symbol
    if symbol.kind == "enum":
        scope.values.setdefault(symbol.local, symbol)
    if symbol.exported or scope.ambient:
        scope.exported.add(symbol.local)
    declared.append(symbol)
    return symbol


def _namespace(
    table: SymbolTable,
    declared: list[Symbol],
    scope: Scope,
    source: SourceText,
    node: Node,
    exported: bool,
) -> None:
    """``namespace A.B { ... }``: a scope of its own, merged with the other blocks of
    the same name in ``scope``; ``declare module "x"`` blocks are read as namespaces."""
    name_node = node.child_by_field_name("name")
    body = node.child_by_field_name("body")
    if name_node is None or body is None:
        return
    if name_node.type == "string":
        names = [node_text(name_node)[1:-1]]
    else:
        names = [
            node_text(c)
            for c in name_node.named_children
            if c.type in ("identifier", "property_identifier")
        ] or [node_text(name_node)]
    ambient = (
        scope.ambient
        or node.parent is not None
        and (node.parent.type == "ambient_declaration")
    )
    current = scope
    for position, name in enumerate(names):
        inner = current.namespaces.get(name)
        if inner is None:
            inner = Scope(
                "namespace",
                source.rel_path,
                (*current.path, name),
                current,
                ambient=ambient,
            )
            current.namespaces[name] = inner
            current.blocks.append(inner)
        if exported or ambient or position > 0:
            current.exported.add(name)
        current = inner
    current.add_range(source.rel_path, body.start_byte, body.end_byte)
    current.doc_nodes.append(node)
    _collect_block(table, declared, current, source, body)


def _consts(
    declared: list[Symbol],
    scope: Scope,
    table: SymbolTable,
    source: SourceText,
    node: Node,
    doc: JsDoc | None,
    exported: bool,
) -> Symbol | None:
    keyword = node.children[0].type if node.children else ""
    first: Symbol | None = None
    for declarator in node.named_children:
        if declarator.type != "variable_declarator":
            continue
        name = node_text(declarator.child_by_field_name("name"))
        if keyword != "const" and not scope.ambient:
            table.skipped.append(
                Skipped(f"a {keyword} variable", name, span_of(source, declarator))
            )
            continue
        symbol = Symbol(name, "const", declarator, source, doc, exported, local=name)
        symbol = _declare(declared, scope, symbol)
        first = first or symbol
    return first


def _export_clause(scope: Scope, node: Node) -> None:
    """``export { A as B }``, ``export * from``, ``export * as NS from`` (a re-export
    binds nothing in the file itself)."""
    kinds = [c.type for c in node.children]
    if kinds[:2] == ["export", "="]:  # ``export = NS;``: the module is the namespace
        named = [c for c in node.named_children if c.type == "identifier"]
        if named:
            scope.assigned = node_text(named[0])
        return
    module_node = node.child_by_field_name("source")
    module = node_text(module_node)[1:-1] if module_node is not None else None
    has_star = any(c.type == "*" for c in node.children)
    spaced = next(
        (c for c in node.named_children if c.type == "namespace_export"), None
    )
    if spaced is not None and module is not None:
        names = [c for c in spaced.named_children if c.type in ("identifier", "string")]
        if names:
            scope.reexports[node_text(names[0]).strip("'\"")] = (module, "*")
        return
    if has_star and module is not None:
        scope.stars.append(module)
        return
    for clause in node.named_children:
        if clause.type != "export_clause":
            continue
        for spec in clause.named_children:
            if spec.type != "export_specifier":
                continue
            name = node_text(spec.child_by_field_name("name"))
            alias = node_text(spec.child_by_field_name("alias")) or name
            scope.reexports[alias] = (module, name)


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
                        source.rel_path,
                    )
                )
        elif child.type == "namespace_import":
            names = [c for c in child.named_children if c.type == "identifier"]
            if names:
                out.append(
                    Import(
                        node_text(names[0]),
                        "*",
                        module,
                        span_of(source, names[0]),
                        source.rel_path,
                    )
                )
        elif child.type == "import_clause":
            for part in child.named_children:
                if part.type == "identifier":  # ``import X from``: the default export
                    out.append(
                        Import(
                            node_text(part),
                            "default",
                            module,
                            span_of(source, part),
                            source.rel_path,
                        )
                    )
                else:
                    stack.append(part)
        else:
            stack.extend(child.named_children)
    return out
