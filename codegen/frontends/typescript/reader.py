"""The TypeScript frontend: interfaces, type aliases, enums, JSDoc methods and examples → IR.

Phase: frontend.
Inputs: TypeScript sources (``SourceText``), the spec's role names and declared external types.
Outputs: a ``FrontendResult`` (declarations, methods, examples) and diagnostics.
Guarantees: never raises on user input: parse errors, unsupported constructs, unknown imports
and malformed tags are diagnostics with spans; inline object types and inline unions of
declarations are lifted to named declarations recording where they came from.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import tree_sitter_typescript
from tree_sitter import Language, Node, Parser

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.common.result import FrontendResult
from codegen.frontends.common.syntax import (
    node_text,
    report_duplicates,
    report_syntax_errors,
    span_of,
)
from codegen.frontends.typescript.enums import convert_enum
from codegen.frontends.typescript.jsdoc import (
    JsDoc,
    is_jsdoc,
    lifecycle_of,
    parse_jsdoc,
)
from codegen.frontends.typescript.methods import (
    MethodDoc,
    method_from_jsdoc,
    pair_methods,
)
from codegen.frontends.typescript.type_exprs import TypeConverter, pascal
from codegen.spec.config import SpecConfig
from codegen.spec.source import SourceText

_LANGUAGE = Language(tree_sitter_typescript.language_typescript())
_FORMAT_TAG = re.compile(r"^\s*(\S+)")


@dataclass(frozen=True, slots=True)
class Import:
    name: str
    module: str
    span: ir.Span


@dataclass
class _FileState:
    source: SourceText
    decls: list[ir.Decl] = field(default_factory=list)
    imports: list[Import] = field(default_factory=list)
    method_docs: list[MethodDoc] = field(default_factory=list)


# (sources, roles, external type name → reason, diagnostics) → result
Reader = Callable[
    [list[SourceText], tuple[str, str], dict[str, str], Diagnostics], FrontendResult
]


def read_spec(
    sources: list[SourceText], config: SpecConfig, diags: Diagnostics
) -> FrontendResult:
    """The frontend entry point the pipeline calls for ``language = "typescript"``."""
    return read_with_externals(read_typescript, sources, config, diags)


def read_with_externals(
    reader: Reader, sources: list[SourceText], config: SpecConfig, diags: Diagnostics
) -> FrontendResult:
    """Run a TypeScript-based reader with the spec's roles and externals; warn (CFG004)
    about an external type that no source imports."""
    externals = {ext.name: ext.reason for ext in config.externals}
    result = reader(sources, config.roles, externals, diags)
    imported = {d.name for d in result.decls if isinstance(d, ir.AliasDecl)}
    for external in config.externals:
        if external.name not in imported:
            diags.report(
                "CFG004",
                f"external type {external.name} is declared in spec.toml but never imported",
                ir.Span(config.rel(config.spec_dir / "spec.toml"), 1, 1),
            )
    return result


def parse_tree(source: SourceText) -> Node:
    return Parser(_LANGUAGE).parse(source.data).root_node


def read_typescript(
    sources: list[SourceText],
    roles: tuple[str, str],
    externals: dict[str, str],
    diags: Diagnostics,
) -> FrontendResult:
    """Read TypeScript sources into IR declarations, methods and examples.

    ``externals`` maps a type name imported from a module we do not have to the reason given
    in spec.toml; such names become ``AliasKind.EXTERNAL`` declarations (any JSON value).
    """
    states = [_read_file(source, diags) for source in sources]
    decls = [decl for state in states for decl in state.decls]
    report_duplicates(decls, diags)
    local_modules = {_module_stem(s.source.rel_path) for s in states}
    decls.extend(_external_decls(states, local_modules, externals, diags))
    method_docs = [doc for state in states for doc in state.method_docs]
    methods, examples = pair_methods(method_docs, decls, roles, diags)
    return FrontendResult(
        decls=tuple(decls), methods=tuple(methods), examples=tuple(examples)
    )


def _read_file(source: SourceText, diags: Diagnostics) -> _FileState:
    state = _FileState(source)
    root = parse_tree(source)
    report_syntax_errors(root, source, diags)
    pending_doc: JsDoc | None = None
    for node in root.named_children:
        if node.type == "comment":
            text = node_text(node)
            if is_jsdoc(text):
                doc = parse_jsdoc(text, node.start_point[0] + 1)
                method = method_from_jsdoc(doc, source, diags)
                if method is not None:
                    state.method_docs.append(method)
                    pending_doc = None
                else:
                    pending_doc = doc
            continue
        _read_statement(node, pending_doc, state, diags)
        pending_doc = None
    return state


def _read_statement(
    node: Node, doc: JsDoc | None, state: _FileState, diags: Diagnostics
) -> None:
    if node.type == "import_statement":
        state.imports.extend(_imports(node, state.source))
        return
    exported = node.type == "export_statement"
    declaration = node.child_by_field_name("declaration") if exported else node
    if declaration is None:
        return  # ``export type { X } from './state.js'``: a re-export, no new declaration
    builder = _DeclBuilder(state.source, diags, exported)
    decl = builder.declaration(declaration, doc)
    if decl is None:
        return
    state.decls.extend(builder.types.lifted)
    state.decls.append(decl)


@dataclass
class _DeclBuilder:
    source: SourceText
    diags: Diagnostics
    exported: bool
    types: TypeConverter = field(init=False)

    def __post_init__(self) -> None:
        self.types = TypeConverter(self.source, self.diags, self.object_struct)

    def span(self, node: Node) -> ir.Span:
        return span_of(self.source, node)

    def declaration(self, node: Node, doc: JsDoc | None) -> ir.Decl | None:
        lifecycle = lifecycle_of(doc)
        if node.type == "interface_declaration":
            return self.interface(node, lifecycle)
        if node.type == "type_alias_declaration":
            return self.alias(node, lifecycle)
        if node.type == "enum_declaration":
            return convert_enum(node, self.source, self.diags, lifecycle, self.exported)
        if node.type in (
            "lexical_declaration",
            "function_declaration",
            "class_declaration",
        ):
            self.diags.report(
                "SYN002",
                f"a {node.type.replace('_', ' ')} is not part of a wire protocol; skipped",
                self.span(node),
            )
            return None
        self.diags.report(
            "SYN002", f"unsupported statement {node.type!r} skipped", self.span(node)
        )
        return None

    def interface(self, node: Node, lifecycle: ir.Lifecycle) -> ir.StructDecl:
        name = node_text(node.child_by_field_name("name"))
        bases: list[ir.Ref] = []
        for child in node.children:
            if child.type == "extends_type_clause":
                bases.extend(self._bases(child))
        body = node.child_by_field_name("body")
        fields, index_value = self._members(body, name) if body else ((), None)
        return ir.StructDecl(
            name=name,
            fields=fields,
            bases=tuple(bases),
            index_value=index_value,
            lifecycle=lifecycle,
            span=self.span(node),
            exported=self.exported,
        )

    def object_struct(self, node: Node, name: str, derived_from: str) -> ir.StructDecl:
        fields, index_value = self._members(node, name, derived_from)
        return ir.StructDecl(
            name=name,
            fields=fields,
            index_value=index_value,
            span=self.span(node),
            derived_from=derived_from,
            exported=False,
        )

    def alias(self, node: Node, lifecycle: ir.Lifecycle) -> ir.Decl:
        name = node_text(node.child_by_field_name("name"))
        value = node.child_by_field_name("value")
        span = self.span(node)
        if value is None:
            self.diags.report("SYN001", f"type alias {name} has no value", span)
            return ir.AliasDecl(name, ir.AnyJson(), lifecycle=lifecycle, span=span)
        if value.type == "object_type":
            fields, index_value = self._members(value, name)
            return ir.StructDecl(
                name,
                fields,
                index_value=index_value,
                lifecycle=lifecycle,
                span=span,
                exported=self.exported,
            )
        result = self.types.convert(value, name, name)
        if result.undefined:
            self.diags.report(
                "SYN003", "'undefined' in a type alias has no JSON form", span
            )
        target = result.expr
        if isinstance(target, ir.InlineUnion) and _is_declaration_union(target):
            variants = _variants(target, result.nullable)
            return ir.UnionDecl(
                name,
                variants,
                ir.UnionRepr.UNTAGGED,
                lifecycle=lifecycle,
                span=span,
                exported=self.exported,
            )
        if result.nullable:
            target = ir.InlineUnion((target, ir.Primitive(ir.PrimitiveKind.NULL)))
        return ir.AliasDecl(
            name, target, lifecycle=lifecycle, span=span, exported=self.exported
        )

    def _bases(self, clause: Node) -> list[ir.Ref]:
        refs: list[ir.Ref] = []
        for child in clause.named_children:
            if child.type == "type_identifier":
                refs.append(ir.Ref(node_text(child), self.span(child)))
            else:
                self.diags.report(
                    "SYN003",
                    f"unsupported base type {node_text(child)!r}; ignored",
                    self.span(child),
                )
        return refs

    def _members(
        self, body: Node, owner: str, path: str | None = None
    ) -> tuple[tuple[ir.Field, ...], ir.TypeExpr | None]:
        """Fields of an object body; ``path`` is the dotted origin used for lifted names."""
        fields: list[ir.Field] = []
        index_value: ir.TypeExpr | None = None
        doc: JsDoc | None = None
        for member in body.named_children:
            if member.type == "comment":
                text = node_text(member)
                doc = (
                    parse_jsdoc(text, member.start_point[0] + 1)
                    if is_jsdoc(text)
                    else doc
                )
                continue
            if member.type == "property_signature":
                built = self._field(member, owner, path or owner, doc)
                if built is not None:
                    fields.append(built)
            elif member.type == "index_signature":
                index_value = self._index_signature(member, owner, path or owner)
            else:
                self.diags.report(
                    "SYN002",
                    f"member {member.type.replace('_', ' ')} of {owner} is not data; skipped",
                    self.span(member),
                )
            doc = None
        return tuple(fields), index_value

    def _field(
        self, member: Node, owner: str, path: str, doc: JsDoc | None
    ) -> ir.Field | None:
        name_node = member.child_by_field_name("name")
        type_node = member.child_by_field_name("type")
        if name_node is None:
            return None
        name = _property_name(name_node)
        if type_node is None:
            self.diags.report(
                "SYN003",
                f"{owner}.{name} has no type; read as any JSON",
                self.span(member),
            )
            expr: ir.TypeExpr = ir.AnyJson()
            undefined = nullable = False
        else:
            result = self.types.convert(
                type_node, owner + pascal(name), f"{path}.{name}"
            )
            expr, undefined, nullable = result.expr, result.undefined, result.nullable
            expr = self._lift_union(expr, owner, path, name, member)
        question = any(child.type == "?" for child in member.children)
        optional = question or undefined
        return ir.Field(
            name=name,
            wire_name=name,
            type=_with_format(expr, doc),
            presence=ir.Presence.OPTIONAL if optional else ir.Presence.REQUIRED,
            nullable=nullable,
            lifecycle=lifecycle_of(doc),
            span=self.span(member),
        )

    def _lift_union(
        self, expr: ir.TypeExpr, owner: str, path: str, name: str, node: Node
    ) -> ir.TypeExpr:
        """A field typed ``A | B`` gets a named union ``OwnerName`` so it can be analysed."""
        if not isinstance(expr, ir.InlineUnion) or not _is_declaration_union(expr):
            return expr
        union = ir.UnionDecl(
            owner + pascal(name),
            _variants(expr, False),
            ir.UnionRepr.UNTAGGED,
            span=self.span(node),
            derived_from=f"{path}.{name}",
            exported=False,
        )
        self.types.lifted.append(union)
        return ir.Ref(union.name, union.span)

    def _index_signature(self, member: Node, owner: str, path: str) -> ir.TypeExpr:
        type_node = member.child_by_field_name("type")
        if type_node is None:
            return ir.AnyJson()
        result = self.types.convert(type_node, owner + "Value", f"{path}[key]")
        # ``unknown | undefined`` values: a key may be present with any value, or absent.
        if result.nullable:
            return ir.InlineUnion((result.expr, ir.Primitive(ir.PrimitiveKind.NULL)))
        return result.expr


def _is_declaration_union(expr: ir.InlineUnion) -> bool:
    """Unions of declarations (or mixed shapes) are lifted; literal-only unions stay inline."""
    literal_like = (ir.Literal, ir.EnumMemberRef)
    return not all(isinstance(member, literal_like) for member in expr.members)


def _variants(expr: ir.InlineUnion, nullable: bool) -> tuple[ir.Variant, ...]:
    variants: list[ir.Variant] = []
    used: set[str] = set()
    members = list(expr.members)
    if nullable:
        members.append(ir.Primitive(ir.PrimitiveKind.NULL))
    for member in members:
        name = _variant_name(member)
        while name in used:
            name += "_"
        used.add(name)
        span = (
            member.span
            if isinstance(member, (ir.Ref, ir.EnumMemberRef))
            else ir.NO_SPAN
        )
        variants.append(ir.Variant(name, member, span=span))
    return tuple(variants)


def _variant_name(member: ir.TypeExpr) -> str:
    if isinstance(member, ir.Ref):
        return member.name
    if isinstance(member, ir.Primitive):
        return member.kind.value.capitalize()
    if isinstance(member, ir.ArrayOf):
        return _variant_name(member.items) + "List"
    if isinstance(member, ir.MapOf):
        return _variant_name(member.values) + "Map"
    if isinstance(member, ir.Literal):
        return pascal(str(member.value)) or "Literal"
    if isinstance(member, ir.EnumMemberRef):
        return member.member
    return type(member).__name__


def _with_format(expr: ir.TypeExpr, doc: JsDoc | None) -> ir.TypeExpr:
    """``@format float`` on a number documents its value space; keep it as a constraint."""
    tag = doc.first("format") if doc else None
    if tag is None or not isinstance(expr, ir.Primitive):
        return expr
    match = _FORMAT_TAG.match(tag.text)
    if not match:
        return expr
    return replace(expr, constraints=replace(expr.constraints, format=match.group(1)))


def _imports(node: Node, source: SourceText) -> list[Import]:
    module_node = node.child_by_field_name("source")
    module = node_text(module_node)[1:-1] if module_node else ""
    out: list[Import] = []
    stack = list(node.named_children)
    while stack:
        child = stack.pop(0)
        if child.type == "import_specifier":
            alias = child.child_by_field_name("alias") or child.child_by_field_name(
                "name"
            )
            if alias is not None:
                out.append(Import(node_text(alias), module, span_of(source, alias)))
        else:
            stack.extend(child.named_children)
    return out


def _external_decls(
    states: list[_FileState],
    local_modules: set[str],
    externals: dict[str, str],
    diags: Diagnostics,
) -> list[ir.Decl]:
    out: list[ir.Decl] = []
    seen: set[str] = set()
    for state in states:
        for imported in state.imports:
            if _module_stem(imported.module) in local_modules or imported.name in seen:
                continue
            seen.add(imported.name)
            where = (
                f"{imported.name} is imported from {imported.module!r}, "
                "which is not part of this spec"
            )
            if imported.name in externals:
                diags.report(
                    "REF002",
                    f"{where}; declared external in spec.toml, it is read as any JSON value",
                    imported.span,
                )
                docs = externals[imported.name] or f"Defined in {imported.module}."
                lifecycle = ir.Lifecycle(docs=docs)
            else:
                diags.report(
                    "REF001",
                    f"{where}; declare it under [external] in spec.toml",
                    imported.span,
                )
                # A placeholder keeps every use of the name from being reported again.
                lifecycle = ir.NO_LIFECYCLE
            out.append(
                ir.AliasDecl(
                    imported.name,
                    ir.AnyJson(),
                    ir.AliasKind.EXTERNAL,
                    lifecycle,
                    imported.span,
                )
            )
    return out


def _module_stem(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    for suffix in (".d.ts", ".js", ".ts", ".mjs"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def _property_name(node: Node) -> str:
    text = node_text(node)
    if node.type == "string" and len(text) >= 2:
        return text[1:-1]
    return text
