"""The Rust serde frontend: ``#[derive(Serialize, Deserialize)]`` items and ``acp_peer!`` → IR.

Phase: frontend.
Inputs: Rust sources (``SourceText``) and the spec config (roles, ``extra_keys``).
Outputs: a ``FrontendResult`` whose declarations say exactly what serde_json writes and reads:
- named structs → ``StructDecl`` (``rename_all``/``rename`` applied; ``tag = "t"`` on a struct →
  a synthesized first field ``t`` = the struct's name, written always, ignored on read);
- newtype and ``transparent`` structs → ``AliasDecl(NEWTYPE)`` of the inner type; unit structs →
  ``null`` (what serde_json writes for them); tuple structs → ``TupleOf``;
- unit-only enums → string ``EnumDecl``; other enums → ``UnionDecl`` (externally tagged by
  default, ``tag`` → internally, ``tag`` + ``content`` → adjacently, ``untagged``), struct
  variants lifted to ``<Enum><Variant>`` structs (internally tagged ones carry the tag field);
- field presence: ``Option`` + ``skip_serializing_if`` → may be absent; a bare ``Option`` →
  always written, ``null`` allowed, absent read as ``null``; ``default`` → written always, read
  optional with the type's ``Default`` as ``default_json``; ``flatten`` kept as ``Field.flatten``;
- ``deny_unknown_fields`` (or spec ``extra_keys = "forbid"``) → ``ExtraKeys.FORBID``;
- the method table from ``acp_peer!`` (see ``rust_macros``).
Guarantees: never raises on user input: syntax errors (SYN001), unknown attributes (SER001),
code-defined wire forms (SER003), unknown items and macros (SYN002), unknown types (SYN003),
duplicate names (REF003) and keys written twice through ``flatten`` (STR001) are diagnostics
with spans.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace

import tree_sitter_rust
from tree_sitter import Language, Node, Parser

from codegen import ir
from codegen.diagnostics import Diagnostics, Severity
from codegen.frontends.common.result import FrontendResult
from codegen.frontends.common.syntax import (
    node_text,
    report_duplicates,
    report_syntax_errors,
    span_of,
)
from codegen.frontends.rust.attrs import (
    Attrs,
    apply_rename_rule,
    attributed,
    check_rule,
    collect_attrs,
    rename_value,
)
from codegen.frontends.rust.macros import PEER_MACRO, build_methods, read_peer_macro
from codegen.frontends.rust.type_exprs import TypeConverter, default_json, is_option
from codegen.ir.index import Index
from codegen.spec.config import SpecConfig
from codegen.spec.source import SourceText

_LANGUAGE = Language(tree_sitter_rust.language())
_NULL = ir.Primitive(ir.PrimitiveKind.NULL)
_DEFAULT = (
    "\x00default"  # placeholder: the type's Default, resolved once all decls exist
)

_STRUCT_KEYS = {
    "rename",
    "rename_all",
    "tag",
    "transparent",
    "deny_unknown_fields",
    "default",
    "bound",
    "crate",
    "expecting",
}
_ENUM_KEYS = {
    "rename",
    "rename_all",
    "rename_all_fields",
    "tag",
    "content",
    "untagged",
    "deny_unknown_fields",
    "bound",
    "crate",
    "expecting",
}
_FIELD_KEYS = {
    "rename",
    "skip_serializing_if",
    "default",
    "flatten",
    "skip",
    "skip_serializing",
    "skip_deserializing",
    "borrow",
    "bound",
}
_VARIANT_KEYS = {"rename", "rename_all", "skip", "skip_serializing", "bound", "alias"}
_CODE_KEYS = {
    "from",
    "try_from",
    "into",
    "remote",
    "with",
    "serialize_with",
    "deserialize_with",
    "getter",
}
_SKIPPED_ITEMS = {
    "use_declaration",
    "impl_item",
    "trait_item",
    "function_item",
    "const_item",
    "static_item",
    "mod_item",
    "macro_definition",
    "extern_crate_declaration",
    "inner_attribute_item",
    "empty_statement",
}


def read_spec(
    sources: list[SourceText], config: SpecConfig, diags: Diagnostics
) -> FrontendResult:
    """The frontend entry point the pipeline calls for ``language = "rust"``."""
    forbid = config.extra_keys == "forbid"
    return read_rust(sources, config.roles, diags, forbid_extra_keys=forbid)


def parse_tree(source: SourceText) -> Node:
    return Parser(_LANGUAGE).parse(source.data).root_node


@dataclass
class _Item:
    node: Node
    attrs_nodes: list[Node]
    source: SourceText


def read_rust(
    sources: list[SourceText],
    roles: tuple[str, str],
    diags: Diagnostics,
    *,
    forbid_extra_keys: bool = False,
) -> FrontendResult:
    """Read Rust sources into IR declarations and methods."""
    items: list[_Item] = []
    imports: dict[str, str] = {}
    for source in sources:
        root = parse_tree(source)
        report_syntax_errors(root, source, diags)
        items.extend(_items(root, source, imports))
    declared = {
        node_text(item.node.child_by_field_name("name"))
        for item in items
        if item.node.type in ("struct_item", "enum_item", "type_item")
    }
    decls: list[ir.Decl] = []
    peers = []
    builders: dict[str, _Builder] = {}
    for item in items:
        macro = _macro_of(item.node)
        if macro is not None:
            name = node_text(macro.child_by_field_name("macro"))
            if name == PEER_MACRO:
                peers.extend(read_peer_macro(macro, item.source, diags))
            else:
                diags.report(
                    "SYN002",
                    f"macro {name}! is not understood; anything it declares is missing",
                    span_of(item.source, macro),
                )
            continue
        builder = builders.get(item.source.rel_path)
        if builder is None:
            types = TypeConverter(item.source, diags, declared, imports)
            builder = _Builder(item.source, diags, types, forbid_extra_keys)
            builders[item.source.rel_path] = builder
        decls.extend(builder.item(item))
    decls = _resolve_defaults(decls)
    report_duplicates(decls, diags)
    index = Index(
        ir.Protocol("", "", "", ir.Transport("", ()), roles, tuple(decls), ())
    )
    _report_flatten_clashes(decls, index, diags)
    methods = build_methods(peers, index.decls, roles, diags)
    return FrontendResult(decls=tuple(decls), methods=tuple(methods))


def _items(root: Node, source: SourceText, imports: dict[str, str]) -> list[_Item]:
    out: list[_Item] = []
    for node, attrs_nodes in attributed(root.named_children):
        if node.type == "use_declaration":
            _read_use(node.child_by_field_name("argument"), "", imports)
        out.append(_Item(node, attrs_nodes, source))
    return out


def _read_use(node: Node | None, prefix: str, imports: dict[str, str]) -> None:
    """Record ``use a::b::{C, d::E as F}`` as name → full path."""
    if node is None:
        return
    if node.type in ("scoped_identifier", "identifier"):
        path = prefix + node_text(node).replace(" ", "")
        imports[path.rsplit("::", 1)[-1]] = path
    elif node.type == "use_as_clause":
        path = prefix + node_text(node.child_by_field_name("path")).replace(" ", "")
        imports[node_text(node.child_by_field_name("alias"))] = path
    elif node.type == "scoped_use_list":
        inner = node_text(node.child_by_field_name("path")).replace(" ", "")
        _read_use(node.child_by_field_name("list"), f"{prefix}{inner}::", imports)
    elif node.type == "use_list":
        for child in node.named_children:
            _read_use(child, prefix, imports)


def _macro_of(node: Node) -> Node | None:
    if node.type == "macro_invocation":
        return node
    if node.type == "expression_statement" and node.named_children:
        first = node.named_children[0]
        if first.type == "macro_invocation":
            return first
    return None


@dataclass
class _Builder:
    source: SourceText
    diags: Diagnostics
    types: TypeConverter
    forbid_extra_keys: bool
    lifted: list[ir.Decl] = field(default_factory=list)

    def span(self, node: Node) -> ir.Span:
        return span_of(self.source, node)

    def item(self, item: _Item) -> list[ir.Decl]:
        node = item.node
        if node.type in _SKIPPED_ITEMS:
            if node.type == "impl_item":
                self._check_impl(node)
            return []
        if node.type not in ("struct_item", "enum_item", "type_item"):
            if node.type != "ERROR":
                self.diags.report(
                    "SYN002",
                    f"unsupported item {node.type!r} skipped",
                    self.span(node),
                )
            return []
        attrs = collect_attrs(item.attrs_nodes, self.source, self.diags)
        name = node_text(node.child_by_field_name("name"))
        if node.child_by_field_name("type_parameters") is not None:
            self.diags.report(
                "SYN002",
                f"generic declaration {name} is not modelled; skipped",
                self.span(node),
            )
            return []
        if node.type == "type_item":
            target = node.child_by_field_name("type")
            expr = self.types.convert(target) if target is not None else ir.AnyJson()
            return [
                ir.AliasDecl(
                    name, expr, ir.AliasKind.ALIAS, attrs.lifecycle(), self.span(node)
                )
            ]
        if not ({"Serialize", "Deserialize"} & attrs.derives):
            return []  # not a wire type: serde never sees it
        if node.type == "struct_item":
            decl = self._struct(node, name, attrs)
        else:
            decl = self._enum(node, name, attrs)
        out = [*self.lifted, decl]
        self.lifted = []
        return out

    def _check_impl(self, node: Node) -> None:
        trait = node_text(node.child_by_field_name("trait")).split("<", 1)[0]
        if trait.rsplit("::", 1)[-1] in ("Serialize", "Deserialize"):
            target = node_text(node.child_by_field_name("type"))
            self.diags.report(
                "SER003",
                f"a hand-written {trait} impl for {target}: its wire form is what that "
                "code does, which this frontend cannot read",
                self.span(node),
            )

    def _check_keys(self, attrs: Attrs, allowed: set[str], what: str) -> None:
        for arg in attrs.serde:
            if arg.key in _CODE_KEYS:
                self.diags.report(
                    "SER003",
                    f"serde({arg.key}) on a {what}: the wire form is set by code; the "
                    "declared type is assumed",
                    arg.span,
                )
            elif arg.key not in allowed:
                self.diags.report(
                    "SER001",
                    f"serde attribute {arg.key!r} on a {what} is not modelled; ignored",
                    arg.span,
                )

    def _renamed(self, attrs: Attrs) -> str | None:
        """The name ``rename`` gives, if any."""
        rename = attrs.get("rename")
        return rename_value(rename, self.diags) if rename is not None else None

    def _rule(self, attrs: Attrs, key: str) -> str | None:
        arg = attrs.get(key)
        return check_rule(arg, self.diags) if arg is not None else None

    def _extra(self, attrs: Attrs) -> ir.ExtraKeys:
        if self.forbid_extra_keys or attrs.has("deny_unknown_fields"):
            return ir.ExtraKeys.FORBID
        return ir.ExtraKeys.ALLOW

    # ------------------------------------------------------------------- structs

    def _struct(self, node: Node, name: str, attrs: Attrs) -> ir.Decl:
        self._check_keys(attrs, _STRUCT_KEYS, "struct")
        span = self.span(node)
        life = attrs.lifecycle()
        body = node.child_by_field_name("body")
        if body is None:
            # serde_json writes a unit struct as null (and reads only null).
            return ir.AliasDecl(name, _NULL, ir.AliasKind.NEWTYPE, life, span)
        if body.type == "ordered_field_declaration_list":
            items = [self.types.convert(t) for t in body.children_by_field_name("type")]
            if len(items) == 1:
                return ir.AliasDecl(name, items[0], ir.AliasKind.NEWTYPE, life, span)
            if attrs.has("transparent"):
                self.diags.report("SER002", "transparent needs exactly one field", span)
            return ir.AliasDecl(
                name, ir.TupleOf(tuple(items)), ir.AliasKind.NEWTYPE, life, span
            )
        rule = self._rule(attrs, "rename_all")
        fields = self._fields(body, rule, attrs.has("default"))
        if attrs.has("transparent"):
            if len(fields) != 1:
                self.diags.report("SER002", "transparent needs exactly one field", span)
            if fields:
                only = fields[0]
                target = only.type
                if only.nullable:
                    target = ir.InlineUnion((target, _NULL))
                return ir.AliasDecl(name, target, ir.AliasKind.NEWTYPE, life, span)
        tag = attrs.get("tag")
        if tag is not None and tag.value:
            written = self._renamed(attrs) or name
            fields.insert(
                0,
                ir.Field(
                    name=tag.value,
                    wire_name=tag.value,
                    type=ir.Literal(written),
                    # serde writes the struct's name under the tag; its reader ignores it.
                    presence=ir.Presence.WRITTEN_ALWAYS_READ_OPTIONAL,
                    default_json=json.dumps(written),
                    span=tag.span,
                    synthesized=True,
                ),
            )
        return ir.StructDecl(
            name=name,
            fields=tuple(fields),
            extra_keys=self._extra(attrs),
            lifecycle=life,
            span=span,
        )

    def _fields(
        self, body: Node, rule: str | None, container_default: bool
    ) -> list[ir.Field]:
        out: list[ir.Field] = []
        for child, attrs_nodes in attributed(body.named_children):
            if child.type != "field_declaration":
                continue
            attrs = collect_attrs(attrs_nodes, self.source, self.diags)
            fld = self._field(child, attrs, rule, container_default)
            if fld is not None:
                out.append(fld)
        return out

    def _field(
        self, node: Node, attrs: Attrs, rule: str | None, container_default: bool
    ) -> ir.Field | None:
        self._check_keys(attrs, _FIELD_KEYS, "field")
        name = node_text(node.child_by_field_name("name")).removeprefix("r#")
        type_node = node.child_by_field_name("type")
        if type_node is None or attrs.has("skip") or attrs.has("skip_serializing"):
            return None  # never written by serde (a reader ignores it as an extra key)
        wire = self._renamed(attrs) or apply_rename_rule(rule, name, variant=False)
        inner = is_option(type_node)
        span = self.span(node)
        base = ir.Field(
            name=name,
            wire_name=wire,
            type=self.types.convert(inner if inner is not None else type_node),
            lifecycle=attrs.lifecycle(),
            span=span,
        )
        default = attrs.get("default")
        has_default = default is not None or container_default
        default_value = (
            _DEFAULT if default is not None and default.value is None else None
        )
        if attrs.has("flatten"):
            presence = ir.Presence.OPTIONAL if inner else ir.Presence.REQUIRED
            return replace(base, flatten=True, presence=presence)
        if attrs.has("skip_serializing_if"):
            if inner is None and not has_default:
                self.diags.report(
                    "SER002",
                    f"{name} is skipped when empty but has no `default`: serde cannot "
                    "read back what it writes",
                    span,
                    Severity.WARNING,
                )
            return replace(
                base, presence=ir.Presence.OPTIONAL, default_json=default_value
            )
        if inner is not None:
            # A bare Option: always written (null for None); serde reads absent as None.
            return replace(
                base,
                presence=ir.Presence.WRITTEN_ALWAYS_READ_OPTIONAL,
                nullable=True,
                default_json="null",
            )
        if has_default or attrs.has("skip_deserializing"):
            return replace(
                base,
                presence=ir.Presence.WRITTEN_ALWAYS_READ_OPTIONAL,
                default_json=default_value,
            )
        return base

    # --------------------------------------------------------------------- enums

    def _enum(self, node: Node, name: str, attrs: Attrs) -> ir.Decl:
        self._check_keys(attrs, _ENUM_KEYS, "enum")
        span = self.span(node)
        life = attrs.lifecycle()
        rule = self._rule(attrs, "rename_all")
        fields_rule = self._rule(attrs, "rename_all_fields")
        tag = attrs.get("tag")
        content = attrs.get("content")
        untagged = attrs.has("untagged")
        if untagged and tag is not None:
            self.diags.report("SER002", "untagged and tag exclude each other", span)
        if content is not None and tag is None:
            self.diags.report("SER002", "content needs tag", content.span)
        body = node.child_by_field_name("body")
        variants = [
            (child, collect_attrs(attrs_nodes, self.source, self.diags))
            for child, attrs_nodes in attributed(
                body.named_children if body is not None else []
            )
            if child.type == "enum_variant"
        ]
        variants = [(v, a) for v, a in variants if not a.has("skip")]
        all_unit = all(v.child_by_field_name("body") is None for v, _ in variants)
        if all_unit and not untagged and tag is None:
            return self._string_enum(name, variants, rule, life, span)
        if untagged:
            repr_ = ir.UnionRepr.UNTAGGED
        elif tag is not None and content is not None:
            repr_ = ir.UnionRepr.ADJACENTLY_TAGGED
        elif tag is not None:
            repr_ = ir.UnionRepr.INTERNALLY_TAGGED
        else:
            repr_ = ir.UnionRepr.EXTERNALLY_TAGGED
        out = [
            self._variant(name, v, a, (rule, fields_rule), repr_, attrs)
            for v, a in variants
        ]
        return ir.UnionDecl(
            name=name,
            variants=tuple(out),
            repr=repr_,
            tag_key=tag.value if tag is not None else None,
            content_key=content.value if content is not None else None,
            # serde reads an untagged enum as its first variant that deserializes.
            first_fit=repr_ is ir.UnionRepr.UNTAGGED,
            lifecycle=life,
            span=span,
        )

    def _variant_wire(self, node: Node, attrs: Attrs, rule: str | None) -> str:
        ident = node_text(node.child_by_field_name("name")).removeprefix("r#")
        return self._renamed(attrs) or apply_rename_rule(rule, ident, variant=True)

    def _string_enum(
        self,
        name: str,
        variants: list[tuple[Node, Attrs]],
        rule: str | None,
        life: ir.Lifecycle,
        span: ir.Span,
    ) -> ir.EnumDecl:
        members = []
        for node, attrs in variants:
            self._check_keys(attrs, _VARIANT_KEYS - {"alias"}, "unit variant")
            members.append(
                ir.EnumMember(
                    name=node_text(node.child_by_field_name("name")),
                    value=self._variant_wire(node, attrs, rule),
                    lifecycle=attrs.lifecycle(),
                    span=self.span(node),
                )
            )
        return ir.EnumDecl(
            name, ir.EnumBase.STRING, tuple(members), lifecycle=life, span=span
        )

    def _variant(
        self,
        enum: str,
        node: Node,
        attrs: Attrs,
        rules: tuple[str | None, str | None],
        repr_: ir.UnionRepr,
        enum_attrs: Attrs,
    ) -> ir.Variant:
        rule, fields_rule = rules
        self._check_keys(attrs, _VARIANT_KEYS, "variant")
        ident = node_text(node.child_by_field_name("name")).removeprefix("r#")
        wire = self._variant_wire(node, attrs, rule)
        aliases = [a.value for a in attrs.serde if a.key == "alias" and a.value]
        tag_values: tuple[str, ...] = (wire, *[a for a in aliases if a != wire])
        body = node.child_by_field_name("body")
        span = self.span(node)
        life = attrs.lifecycle()
        expr: ir.TypeExpr | None = None
        if body is None:
            expr = _NULL if repr_ is ir.UnionRepr.UNTAGGED else None
        elif body.type == "ordered_field_declaration_list":
            items = [self.types.convert(t) for t in body.children_by_field_name("type")]
            if len(items) == 1:
                expr = items[0]
            else:
                if repr_ is ir.UnionRepr.INTERNALLY_TAGGED:
                    self.diags.report(
                        "SER002",
                        f"{enum}::{ident}: an internally tagged enum cannot hold a "
                        "tuple variant",
                        span,
                    )
                expr = ir.TupleOf(tuple(items))
        else:
            variant_rule = self._rule(attrs, "rename_all") or fields_rule
            fields = self._fields(body, variant_rule, False)
            key = enum_attrs.get("tag")
            if repr_ is ir.UnionRepr.INTERNALLY_TAGGED and key and key.value:
                tag_type: ir.TypeExpr = (
                    ir.Literal(wire)
                    if len(tag_values) == 1
                    else ir.InlineUnion(tuple(ir.Literal(v) for v in tag_values))
                )
                fields.insert(
                    0,
                    ir.Field(
                        key.value, key.value, tag_type, span=span, synthesized=True
                    ),
                )
            lifted = f"{enum}{ident}"
            self.lifted.append(
                ir.StructDecl(
                    name=lifted,
                    fields=tuple(fields),
                    extra_keys=self._extra(enum_attrs),
                    lifecycle=life,
                    span=span,
                    derived_from=f"{enum}::{ident}",
                )
            )
            expr = ir.Ref(lifted, span)
        if repr_ is ir.UnionRepr.UNTAGGED:
            tag_values = ()
        return ir.Variant(ident, expr, tag_values, life, span)


# ------------------------------------------------------------------------ checks


def _resolve_defaults(decls: list[ir.Decl]) -> list[ir.Decl]:
    """Replace the ``default`` placeholder by the JSON of the field type's Default."""
    index = {decl.name: decl for decl in decls}
    out: list[ir.Decl] = []
    for decl in decls:
        if isinstance(decl, ir.StructDecl) and any(
            f.default_json == _DEFAULT for f in decl.fields
        ):
            fields = tuple(
                (
                    replace(f, default_json=default_json(f.type, index))
                    if f.default_json == _DEFAULT
                    else f
                )
                for f in decl.fields
            )
            decl = replace(decl, fields=fields)
        out.append(decl)
    return out


def _report_flatten_clashes(
    decls: list[ir.Decl], index: Index, diags: Diagnostics
) -> None:
    """serde writes a key twice when two flattened members (or a member and a field) share
    it.  Clashes with different types are reported by the wire-name pass; the ones with the
    same type, which that pass lets through (TypeScript redeclaration), are reported here.
    """
    for decl in decls:
        if not isinstance(decl, ir.StructDecl) or not any(
            f.flatten for f in decl.fields
        ):
            continue
        seen: dict[str, ir.Field] = {}
        for fld in index.wire_fields(decl, keep_duplicates=True):
            earlier = seen.get(fld.wire_name)
            if earlier is not None and earlier.type == fld.type:
                diags.report(
                    "STR001",
                    f"{decl.name}: key {fld.wire_name!r} comes twice through flatten, at "
                    f"{earlier.span} and {fld.span}; serde would write it twice",
                    fld.span,
                )
            seen.setdefault(fld.wire_name, fld)
