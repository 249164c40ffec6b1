"""The Rust serde frontend: a crate's ``#[derive(Serialize, Deserialize)]`` items and its
method tables → IR.

Phase: frontend.
Inputs: the spec's Rust sources (a whole crate: ``mod``/``use``/``pub use`` resolved, optionally
its ``Cargo.toml`` for features) and the spec config (roles, ``extra_keys``, the ``[rust]``
table: ``features``, ``default_features``, ``wrappers``).
Outputs: a ``FrontendResult``: the declarations of every compiled module (``rust.decls`` says
what serde writes and reads for each), flattened enums distributed over the structs that
flatten them (``rust.flatten``), defaults resolved to JSON (``rust.defaults``), and the
methods (``acp_peer!`` via ``rust.macros``; constants, method-name tables, schemars
annotations and routing enums via ``rust.methods``).
Anything that is not a type declaration or a method table (functions, ``impl`` blocks,
tests, macros the frontend does not know, ``#[cfg]``'d-out items) is skipped and never
blocks generation.
Guarantees: never raises on user input: syntax errors (SYN001), unknown attributes (SER001),
code-defined wire forms (SER003), unknown items and macros (SYN002), unknown types (SYN003),
duplicate names (REF003), keys written twice through ``flatten`` (STR001) and a crate with
no methods (MTH008, from the pipeline) are diagnostics with spans.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

from tree_sitter import Node

from codegen import ir
from codegen.diagnostics import Diagnostics, Severity
from codegen.frontends.common.result import FrontendResult
from codegen.frontends.common.syntax import node_text, report_duplicates, span_of
from codegen.frontends.rust import macros
from codegen.frontends.rust.crate import Crate, Item, read_crate
from codegen.frontends.rust.decls import (
    CONTAINER_DEFAULT,
    FN_DEFAULT,
    PLACEHOLDER,
    TYPE_DEFAULT,
    DeclBuilder,
    DeclFacts,
)
from codegen.frontends.rust.defaults import UNKNOWN, DefaultResolver
from codegen.frontends.rust.flatten import distribute_flattened_unions
from codegen.frontends.rust.method_impls import MethodImpls
from codegen.frontends.rust.methods import MethodFacts, build_methods, resolve_all
from codegen.frontends.rust.type_exprs import WRAPPER_FORMS, TypeConverter
from codegen.ir.index import Index
from codegen.spec.config import SpecConfig
from codegen.spec.source import SourceText

_DECL_ITEMS = ("struct_item", "enum_item", "type_item")
_SKIPPED_ITEMS = {
    "use_declaration",
    "trait_item",
    "function_item",
    "static_item",
    "macro_definition",
    "extern_crate_declaration",
    "inner_attribute_item",
    "empty_statement",
    "union_item",
    "foreign_mod_item",
    "function_signature_item",
}


@dataclass(frozen=True)
class RustOptions:
    features: tuple[str, ...] = ()
    default_features: bool = True
    wrappers: tuple[tuple[str, str], ...] = ()  # (type name, form)


def options_of(config: SpecConfig) -> RustOptions:
    return RustOptions(
        features=config.rust_features,
        default_features=config.rust_default_features,
        wrappers=config.rust_wrappers,
    )


def read_spec(
    sources: list[SourceText], config: SpecConfig, diags: Diagnostics
) -> FrontendResult:
    """The frontend entry point the pipeline calls for ``language = "rust"``."""
    forbid = config.extra_keys == "forbid"
    return read_rust(
        sources,
        config.roles,
        diags,
        forbid_extra_keys=forbid,
        options=options_of(config),
    )


def read_rust(
    sources: list[SourceText],
    roles: tuple[str, str],
    diags: Diagnostics,
    *,
    forbid_extra_keys: bool = False,
    options: RustOptions = RustOptions(),
) -> FrontendResult:
    """Read a Rust crate into IR declarations and methods."""
    crate = read_crate(sources, options.features, options.default_features, diags)
    wrappers = dict(options.wrappers)
    for name, form in wrappers.items():
        if form not in WRAPPER_FORMS:
            diags.report(
                "CFG002",
                f"[rust.wrappers] {name} = {form!r}: the form must be one of "
                f"{', '.join(WRAPPER_FORMS)}",
                ir.Span("spec.toml", 1, 1),
            )
    reading = _Reading(crate, diags, wrappers, forbid_extra_keys)
    decls = reading.declarations()
    decls = distribute_flattened_unions(decls, diags)
    decls = reading.resolve_defaults(decls)
    report_duplicates(decls, diags)
    index = Index(
        ir.Protocol("", "", "", ir.Transport("", ()), roles, tuple(decls), ())
    )
    _report_flatten_clashes(decls, index, diags)
    by_name = index.decls
    methods = macros.build_methods(reading.peers, by_name, roles, diags)
    methods += build_methods(reading.methods, reading.facts, by_name, roles, diags)
    methods = resolve_all(
        methods,
        reading.impls_of_methods.evidence(set(by_name), roles, diags),
        roles,
        diags,
    )
    decls = _drop_routing_enums(decls, methods, diags)
    return FrontendResult(decls=tuple(decls), methods=tuple(methods))


@dataclass
class _Reading:
    crate: Crate
    diags: Diagnostics
    wrappers: dict[str, str]
    forbid_extra_keys: bool
    facts: DeclFacts = field(default_factory=DeclFacts)
    methods: MethodFacts = field(default_factory=MethodFacts)
    peers: list[macros.MethodEntry] = field(default_factory=list)
    impls_of_methods: MethodImpls = field(default_factory=MethodImpls)
    defaults: dict[str, Any] = field(default_factory=dict)
    resolver_parts: dict[str, Any] = field(default_factory=dict)

    def declarations(self) -> list[ir.Decl]:
        items = self.crate.items
        generic = {
            node_text(i.node.child_by_field_name("name"))
            for i in items
            if i.node.type in _DECL_ITEMS
            and i.node.child_by_field_name("type_parameters") is not None
        }
        declared = {
            node_text(i.node.child_by_field_name("name"))
            for i in items
            if i.node.type in _DECL_ITEMS
        } - generic
        builders: dict[str, DeclBuilder] = {}
        decls: list[ir.Decl] = []
        self.impls: dict[str, Node] = {}
        self.assoc: dict[tuple[str, str], Node] = {}
        self.fns: dict[str, Node] = {}
        for item in items:
            path = item.source.rel_path
            builder = builders.get(path)
            if builder is None:
                types = TypeConverter(
                    item.source,
                    self.diags,
                    declared,
                    self.crate.imports.get(path, {}),
                    self.wrappers,
                    generic,
                )
                builder = DeclBuilder(
                    item.source,
                    self.diags,
                    types,
                    self.crate.readers[path],
                    self.forbid_extra_keys,
                    self.facts,
                )
                builders[path] = builder
            decls.extend(self._item(item, builder, generic))
        return decls

    def _item(
        self, item: Item, builder: DeclBuilder, generic: set[str]
    ) -> list[ir.Decl]:
        node = item.node
        macro = _macro_of(node)
        if macro is not None:
            name = node_text(macro.child_by_field_name("macro"))
            if name == macros.PEER_MACRO:
                self.peers.extend(
                    macros.read_peer_macro(macro, item.source, self.diags)
                )
            elif self.impls_of_methods.invoke(macro, item.source):
                pass  # a macro_rules! table of methods the crate defines
            else:
                self.diags.report(
                    "SYN002",
                    f"macro {name}! is not understood; anything it declares is missing",
                    span_of(item.source, macro),
                )
            return []
        if node.type == "const_item":
            self.methods.read_const(node, item.source)
            return []
        if node.type == "impl_item":
            self._impl(node, item.source)
            return []
        if node.type == "function_item":
            body = node.child_by_field_name("body")
            params = node.child_by_field_name("parameters")
            if body is not None and params is not None and not params.named_children:
                self.fns[node_text(node.child_by_field_name("name"))] = body
            return []
        if node.type == "macro_definition":
            self.impls_of_methods.define(node)
        if node.type in _SKIPPED_ITEMS:
            return []
        if node.type not in _DECL_ITEMS:
            if node.type != "ERROR":
                self.diags.report(
                    "SYN002",
                    f"unsupported item {node.type!r} skipped",
                    span_of(item.source, node),
                )
            return []
        name = node_text(node.child_by_field_name("name"))
        if name in generic:
            if name not in self.wrappers:
                self.diags.report(
                    "SYN002",
                    f"generic declaration {name} is not modelled; skipped (declare it in "
                    "[rust.wrappers] if its wire form is a wrapper's)",
                    span_of(item.source, node),
                )
            return []
        if name in self.wrappers:
            return []
        return builder.item(item)

    def _impl(self, node: Node, source: SourceText) -> None:
        trait = node_text(node.child_by_field_name("trait")).split("<", 1)[0]
        target = node_text(node.child_by_field_name("type"))
        owner = target.split("<", 1)[0].rsplit("::", 1)[-1]
        trait_name = trait.rsplit("::", 1)[-1]
        if trait_name in ("Serialize", "Deserialize"):
            if owner not in self.wrappers:
                self.diags.report(
                    "SER003",
                    f"a hand-written {trait_name} impl for {target}: its wire form is what "
                    "that code does, which this frontend cannot read; the derived form "
                    "(if any) is assumed",
                    span_of(source, node),
                )
            return
        body = node.child_by_field_name("body")
        for function in body.named_children if body is not None else []:
            if function.type != "function_item":
                continue
            name = node_text(function.child_by_field_name("name"))
            params = function.child_by_field_name("parameters")
            block = function.child_by_field_name("body")
            if block is None or params is None or params.named_children:
                continue
            if trait_name == "Default" and name == "default":
                self.impls[owner] = block
            elif not trait:
                self.assoc[(owner, name)] = block
        if not trait:
            self.methods.read_impl(node, source)
        else:
            self.impls_of_methods.read_trait_impl(node, source)

    def resolve_defaults(self, decls: list[ir.Decl]) -> list[ir.Decl]:
        """Replace the placeholders in ``default_json``/``omitted_value`` by JSON."""
        resolver = DefaultResolver(
            {d.name: d for d in decls},
            derived=self.facts.derived_default,
            impls=self.impls,
            assoc=self.assoc,
            fns=self.fns,
            variant_default=self.facts.variant_default,
        )
        out: list[ir.Decl] = []
        for decl in decls:
            if isinstance(decl, ir.StructDecl) and any(
                _pending(f.default_json) or _pending(f.omitted_value)
                for f in decl.fields
            ):
                fields = tuple(
                    self._resolve_field(f, resolver, decl) for f in decl.fields
                )
                decl = replace(decl, fields=fields)
                resolver.decls[decl.name] = decl
            out.append(decl)
        return out

    def _resolve_field(
        self, fld: ir.Field, resolver: DefaultResolver, decl: ir.StructDecl
    ) -> ir.Field:
        if not (_pending(fld.default_json) or _pending(fld.omitted_value)):
            return fld
        default = self._value(fld.default_json, fld, resolver)
        omitted = self._value(fld.omitted_value, fld, resolver)
        for label, text, value in (
            ("default", fld.default_json, default),
            ("left-out value", fld.omitted_value, omitted),
        ):
            if _pending(text) and value is UNKNOWN:
                self.diags.report(
                    "SER003",
                    f"{decl.name}.{fld.name}: the {label} comes from code this frontend "
                    "cannot evaluate; a reader keeps the key absent",
                    fld.span,
                    Severity.WARNING,
                )
        return replace(
            fld,
            default_json=(
                _json_or_none(default)
                if _pending(fld.default_json)
                else fld.default_json
            ),
            omitted_value=(
                _json_or_none(omitted)
                if _pending(fld.omitted_value)
                else fld.omitted_value
            ),
        )

    def _value(self, text: str | None, fld: ir.Field, resolver: DefaultResolver) -> Any:
        if not _pending(text):
            return None
        assert text is not None
        if text == TYPE_DEFAULT:
            return resolver.of_type(fld.type)
        if text.startswith(FN_DEFAULT):
            return resolver.of_call(text[len(FN_DEFAULT) :], fld.type)
        if text.startswith(CONTAINER_DEFAULT):
            value = resolver.field_of_container(text[len(CONTAINER_DEFAULT) :], fld)
            return resolver.of_type(fld.type) if value is UNKNOWN else value
        return UNKNOWN


def _drop_routing_enums(
    decls: list[ir.Decl], methods: list[ir.Method], diags: Diagnostics
) -> list[ir.Decl]:
    """Untagged enums whose variants wrap the params or results of methods (``enum
    ClientRequest { InitializeRequest(InitializeRequest), ... }``) are the method table,
    not messages: a reader picks a method's type by its name, never by trying them in
    order.  They are left out unless another declaration uses them."""
    payloads = {
        expr.name
        for method in methods
        for expr in (method.params, method.result)
        if isinstance(expr, ir.Ref)
    }
    index = Index(
        ir.Protocol("", "", "", ir.Transport("", ()), ("a", "b"), tuple(decls), ())
    )
    used: set[str] = set()
    for decl in decls:
        if isinstance(decl, ir.StructDecl):
            for fld in decl.fields:
                used.update(index.references(fld.type))
        elif isinstance(decl, ir.UnionDecl):
            for variant in decl.variants:
                used.update(index.references(variant.type))
        elif isinstance(decl, ir.AliasDecl):
            used.update(index.references(decl.target))
    out: list[ir.Decl] = []
    for decl in decls:
        if (
            isinstance(decl, ir.UnionDecl)
            and decl.repr is ir.UnionRepr.UNTAGGED
            and decl.name not in used
            and decl.variants
            and all(isinstance(v.type, ir.Ref) for v in decl.variants)
            and any(
                isinstance(v.type, ir.Ref) and v.type.name in payloads
                for v in decl.variants
            )
        ):
            diags.report(
                "SYN005",
                f"{decl.name} routes messages to methods (its variants are method params "
                "or results); it is part of the method table, not a message type",
                decl.span,
            )
            continue
        out.append(decl)
    return out


def _pending(text: str | None) -> bool:
    return text is not None and text.startswith(PLACEHOLDER)


def _json_or_none(value: Any) -> str | None:
    if value is UNKNOWN or not _is_json(value):
        return None
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _is_json(value: Any) -> bool:
    if value is None or isinstance(value, (str, int, float, bool)):
        return True
    if isinstance(value, list):
        return all(_is_json(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _is_json(v) for k, v in value.items())
    return False


def _macro_of(node: Node) -> Node | None:
    if node.type == "macro_invocation":
        return node
    if node.type == "expression_statement" and node.named_children:
        first = node.named_children[0]
        if first.type == "macro_invocation":
            return first
    return None


def _report_flatten_clashes(
    decls: list[ir.Decl], index: Index, diags: Diagnostics
) -> None:
    """A key that comes twice through ``flatten``: serde's reader gives it to the struct's
    own field if there is one, else to the first flattened member that declares it; the
    other declarations never read it.  Harmless when those are optional (a note), an error
    when one is required (that struct can never be read)."""
    for decl in decls:
        if not isinstance(decl, ir.StructDecl) or not any(
            f.flatten for f in decl.fields
        ):
            continue
        occurrences: dict[str, list[tuple[int, ir.Field]]] = {}
        for member, fld in enumerate(decl.fields):
            inner = index.struct_of(fld.type) if fld.flatten else None
            found = index.wire_fields(inner) if inner is not None else [fld]
            for item in found:
                occurrences.setdefault(item.wire_name, []).append(
                    (0 if inner is None else member + 1, item)
                )
        for key, items in occurrences.items():
            if len(items) < 2:
                continue
            own = [item for item in items if item[0] == 0]
            taker = own[0] if own else min(items, key=lambda item: item[0])
            others = [item for item in items if item is not taker]
            required = [f for _, f in others if f.presence is ir.Presence.REQUIRED]
            where = ", ".join(str(f.span) for _, f in others)
            if len(own) > 1:
                continue  # a struct's own duplicate keys are the wire-name pass's
            if required:
                diags.report(
                    "STR001",
                    f"{decl.name}: key {key!r} is read by {taker[1].span}, so the required "
                    f"field at {where} can never be read; serde rejects every message",
                    required[0].span,
                )
            elif items[-1] is not taker:
                diags.report(
                    "STR001",
                    f"{decl.name}: key {key!r} comes twice through flatten; serde reads it "
                    f"at {taker[1].span}, which is not the last declaration",
                    taker[1].span,
                    Severity.WARNING,
                )
