"""The Rust serde frontend: a crate's ``#[derive(Serialize, Deserialize)]`` items and its
method tables → IR.

Phase: frontend.
Inputs: the spec's Rust sources (a whole crate: ``mod``/``use``/``pub use`` resolved, optionally
its ``Cargo.toml`` for features) and the spec config (roles, ``extra_keys``, the ``[rust]``
table: ``features``, ``default_features``, ``wrappers``).
Outputs: a ``FrontendResult``: the declarations of every compiled module (``rust.decls`` says
what serde writes and reads for each), each type named by its module path as rustc resolves
it and given a unique IR name (``rust.paths``: the same name in two modules is two types), flattened enums distributed over the structs that
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
import re
from dataclasses import dataclass, field, replace
from typing import Any

from tree_sitter import Node

from codegen import ir
from codegen.diagnostics import Diagnostics, Severity
from codegen.frontends.common.result import FrontendResult
from codegen.frontends.common.syntax import node_text, report_duplicates, span_of
from codegen.frontends.rust import bitflags, macros
from codegen.frontends.rust.crate import Crate, Item, read_crate
from codegen.frontends.rust.decls import (
    CONTAINER_DEFAULT,
    FN_DEFAULT,
    PLACEHOLDER,
    SERDE_REPR,
    TYPE_DEFAULT,
    DeclBuilder,
    DeclFacts,
    enum_discriminants,
)
from codegen.frontends.rust.defaults import UNKNOWN, DefaultResolver
from codegen.frontends.rust.flatten import distribute_flattened_unions
from codegen.frontends.rust.generics import Instantiator
from codegen.frontends.rust.method_impls import MethodImpls
from codegen.frontends.rust.methods import MethodFacts, build_methods, resolve_all
from codegen.frontends.rust.paths import output_names
from codegen.frontends.rust.scope import Range, scope_findings
from codegen.frontends.rust.type_exprs import PRIMITIVES, CrateNames, TypeConverter
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
    requested_types: tuple[str, ...] = ()  # [spec] types


def options_of(config: SpecConfig) -> RustOptions:
    return RustOptions(
        features=config.rust_features,
        default_features=config.rust_default_features,
        wrappers=config.rust_wrappers,
        requested_types=config.requested_types,
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
    mark = len(diags.items)
    crate = read_crate(sources, options.features, options.default_features, diags)
    wrappers = dict(options.wrappers)
    reading = _Reading(crate, diags, wrappers, forbid_extra_keys)
    reading.methods.resolver = crate.resolver
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
    provenance: dict[str, dict[str, str]] = {}
    methods = resolve_all(
        methods,
        reading.impls_of_methods.evidence(set(by_name), roles, diags),
        roles,
        diags,
        provenance,
    )
    decls = _drop_routing_enums(
        decls, methods, diags, frozenset(reading.methods.routes)
    )
    scope_findings(diags, mark, decls, methods, reading.ranges, options.requested_types)
    return FrontendResult(
        decls=tuple(decls),
        methods=tuple(methods),
        provenance=provenance,
        uncompiled=tuple(crate.uncompiled),
    )


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
    ranges: dict[str, Range] = field(default_factory=dict)  # decl → its item's lines
    # bitflags! types whose serde form the macro's own derive makes certain
    flags_forms: dict[str, bitflags.DerivedFlags] = field(default_factory=dict)

    def declarations(self) -> list[ir.Decl]:
        items = self.crate.items
        self.crate_names = self._crate_names()
        builders: dict[str, DeclBuilder] = {}
        decls: list[ir.Decl] = []
        self.impls: dict[str, Node] = {}
        self.assoc: dict[tuple[str, str], Node] = {}
        self.fns: dict[str, Node] = {}
        instances = Instantiator(
            {
                f"{i.module}::{node_text(i.node.child_by_field_name('name'))}": i
                for i in items
                if i.node.type in _DECL_ITEMS
            },
            self.crate_names,
            self.wrappers,
            self.diags,
            self._builder,
        )
        self.crate_names.instantiate = instances
        for item in items:
            # by module and file: a file no ``mod`` names is read as a crate root too
            key = f"{item.module} {item.source.rel_path}"
            builder = builders.get(key)
            if builder is None:
                types = TypeConverter(
                    item.source,
                    self.diags,
                    item.module,
                    self.crate_names,
                    self.wrappers,
                )
                builder = self._builder(item, types)
                builders[key] = builder
            built = self._item(item, builder)
            first, last = item.node.start_point[0] + 1, item.node.end_point[0] + 1
            for decl in built:
                self.ranges[decl.name] = (item.source.rel_path, first, last)
            decls.extend(built)
        return decls + instances.decls

    def _builder(self, item: Item, types: TypeConverter) -> DeclBuilder:
        return DeclBuilder(
            item.source,
            self.diags,
            types,
            self.crate.readers[item.source.rel_path],
            self.forbid_extra_keys,
            self.facts,
        )

    def _crate_names(self) -> CrateNames:
        """Every type item by its full path: the wire types with their IR names
        (``paths.output_names``), the generic ones, the others with where they are."""
        names = CrateNames(self.crate.resolver)
        wire: list[str] = []
        for item in self.crate.items:
            if item.node.type == "impl_item":
                self._handwritten(item, names)
                self._associated_types(item, names)
                continue
            if item.node.type == "function_item":
                fn_name = node_text(item.node.child_by_field_name("name"))
                names.functions[f"{item.module}::{fn_name}"] = (item.node, item.source)
                continue
            macro = _macro_of(item.node)
            if macro is not None and _is_bitflags(macro):
                self._bitflags(item, macro, names, wire)
                continue
            if item.node.type not in _DECL_ITEMS:
                continue
            name = node_text(item.node.child_by_field_name("name"))
            full = f"{item.module}::{name}"
            if item.node.type == "enum_item":
                values = [
                    v
                    for _, v, _ in enum_discriminants(
                        item.node,
                        self.crate.readers[item.source.rel_path],
                        item.source,
                    )
                ]
                if values and all(v is not None for v in values):
                    names.discriminants[full] = tuple(
                        v for v in values if v is not None
                    )
            if _type_parameters(item.node):
                names.generic.add(full)
            elif name in self.wrappers:
                continue
            elif item.node.type == "type_item" or (
                {"Serialize", "Deserialize", *SERDE_REPR} & item.attrs.derives
            ):
                wire.append(full)
            else:
                names.others[full] = str(span_of(item.source, item.node))
        names.names = output_names(wire, self.crate.resolver)
        return names

    def _associated_types(self, item: Item, names: CrateNames) -> None:
        """``impl Iterator for MyIterator { type Item = String; }``: what ``T::Item`` is
        where a generic is instantiated with ``T = MyIterator``."""
        if item.node.child_by_field_name("trait") is None:
            return
        target = node_text(item.node.child_by_field_name("type"))
        full = self.crate.resolver.resolve(item.module, target.split("<", 1)[0])
        body = item.node.child_by_field_name("body")
        if full is None or body is None:
            return
        for child in body.named_children:
            if child.type != "type_item":
                continue
            name = child.child_by_field_name("name")
            value = child.child_by_field_name("type")
            if name is not None and value is not None:
                key = (full, node_text(name))
                names.associated.setdefault(key, (value, item.source, item.module))

    def _handwritten(self, item: Item, names: CrateNames) -> None:
        """``impl Serialize for X``: X's wire form is that code's."""
        trait = node_text(item.node.child_by_field_name("trait")).split("<", 1)[0]
        trait_name = trait.replace(" ", "").rsplit("::", 1)[-1]
        if trait_name not in ("Serialize", "Deserialize"):
            return
        target = node_text(item.node.child_by_field_name("type"))
        full = self.crate.resolver.resolve(item.module, target.split("<", 1)[0])
        if full is not None and full not in names.handwritten:
            names.handwritten[full] = (
                f"a hand-written {trait_name} impl at {span_of(item.source, item.node)}"
            )

    def _bitflags(
        self, item: Item, macro: Node, names: CrateNames, wire: list[str]
    ) -> None:
        """``bitflags! { pub struct Flags: u32 { const A = 1; } }`` declares ``Flags``,
        a type whose serde form is not derived by the frontend's rules: bitflags 2 writes
        the flag names (``"A | B"``) for a derive inside the macro, bitflags 1 an object
        ``{"bits": n}``; crates often write the integer by hand.  It is a declared type
        the spec gives a form to (``[rust.wrappers] Flags = "bitflags"``: the integer of
        the declared width)."""
        found = re.search(
            r"struct\s+([A-Za-z_][A-Za-z0-9_]*)\s*:\s*([A-Za-z0-9_:]+)",
            node_text(macro),
        )
        if found is None:
            return
        name, width = found.group(1), found.group(2).rsplit("::", 1)[-1]
        full = f"{item.module}::{name}"
        public = re.search(rf"pub(\([^)]*\))?\s+struct\s+{name}\b", node_text(macro))
        self.crate.resolver.scope(item.module).items[name] = public is not None
        names.widths[full] = width
        form = bitflags.derived_form(node_text(macro), name)
        if form is not None and self.crate.bitflags_major in (None, 1):
            # serde's derive inside a bitflags 1 macro: a form the code makes certain
            self.flags_forms[full] = form
            wire.append(full)
            return
        names.others[full] = str(span_of(item.source, macro))
        names.handwritten.setdefault(full, "bitflags!")

    def _flags_decls(
        self, item: Item, macro: Node, builder: DeclBuilder
    ) -> list[ir.Decl]:
        """A bitflags! type with serde's derive inside (``bitflags.derived_form``);
        any other is a declared type (see _bitflags) given its form by spec.toml."""
        names = self.crate_names
        for full, form in self.flags_forms.items():
            module, _, name = full.rpartition("::")
            if module != item.module or not re.search(
                rf"\bstruct\s+{re.escape(name)}\s*:", node_text(macro)
            ):
                continue
            width = names.widths.get(full, "")
            bits = PRIMITIVES.get(width, ir.Primitive(ir.PrimitiveKind.INTEGER))
            span = span_of(item.source, macro)
            forbid = self.forbid_extra_keys
            return [bitflags.flags_decl(names.names[full], form, bits, span, forbid)]
        return []

    def _item(self, item: Item, builder: DeclBuilder) -> list[ir.Decl]:
        node = item.node
        macro = _macro_of(node)
        if macro is not None:
            name = node_text(macro.child_by_field_name("macro"))
            if _is_bitflags(macro):
                return self._flags_decls(item, macro, builder)
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
            self.methods.read_const(node, item.source, item.module)
            return []
        if node.type == "impl_item":
            self._impl(node, item)
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
        full = f"{item.module}::{name}"
        if full in self.crate_names.generic:
            return []  # instantiated at each use (rust.generics)
        if name in self.wrappers:
            return []
        return builder.item(item, self.crate_names.names.get(full, name))

    def _impl(self, node: Node, item: Item) -> None:
        source = item.source
        trait = node_text(node.child_by_field_name("trait")).split("<", 1)[0]
        target = node_text(node.child_by_field_name("type"))
        written = target.split("<", 1)[0].replace(" ", "")
        full = self.crate.resolver.resolve(item.module, written)
        owner = self.crate_names.names.get(full or "", written.rsplit("::", 1)[-1])
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
            self.methods.read_impl(node, source, owner, item.module)
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
    decls: list[ir.Decl],
    methods: list[ir.Method],
    diags: Diagnostics,
    routed: frozenset[str] = frozenset(),
) -> list[ir.Decl]:
    """Untagged enums whose variants wrap the params or results of methods (``enum
    ClientRequest { InitializeRequest(InitializeRequest), ... }``), or that map their
    variants to method names (``routed``: ``impl X { fn method(&self) }``, the table of an
    older protocol version too), are the method table, not messages: a reader picks a
    method's type by its name, never by trying them in order.  They are left out unless
    another declaration uses them."""
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
            and (
                decl.name in routed
                or any(
                    isinstance(v.type, ir.Ref) and v.type.name in payloads
                    for v in decl.variants
                )
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


def _type_parameters(node: Node) -> bool:
    """Whether a declaration has type parameters (lifetimes alone do not make it generic:
    they carry no wire form)."""
    params = node.child_by_field_name("type_parameters")
    return params is not None and any(
        p.type in ("type_parameter", "const_parameter") for p in params.named_children
    )


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


def _is_bitflags(macro: Node) -> bool:
    name = node_text(macro.child_by_field_name("macro")).replace(" ", "")
    return name.rsplit("::", 1)[-1] == "bitflags"


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
