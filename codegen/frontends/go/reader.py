"""The Go frontend: Go type listings (pkg.go.dev pages or ``.go`` files) → IR.

Phase: frontend.
Inputs: ``SourceText``s (a package documentation page, or plain ``.go`` files) and the
``SpecConfig`` (roles, ``extra_keys`` and the ``[methods.overrides]`` table).
Outputs: a ``FrontendResult``: declarations (structs, named types; a named string or integer
type with typed constants is an open enum, see ``go.consts``), the method table built from the
``Method*`` string constants (see ``go.methods``), and the other constants as ``ConstDecl``s.
Guarantees: never raises on user input.  Code blocks are found by ``go.page`` and parsed with
tree-sitter-go with their document positions kept, so every span points into the page.  Types
that are not wire messages of the protocol are excluded with a SYN005 note naming the reason,
never silently: handles whose fields are unexported (pkg.go.dev prints ``// contains filtered
or unexported fields``), function, channel and interface types, and configuration types that
carry ``yaml:`` tags but no ``json:`` tag.  Field semantics follow encoding/json
(``go.type_exprs``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace

import tree_sitter_go
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
from codegen.frontends.go.consts import ConstGroup, enum_base, evaluate, typed_enums
from codegen.frontends.go.marshalers import (
    FormReader,
    MarshalMethod,
    Methods,
    collect_file,
    collect_page,
)
from codegen.frontends.go.method_code import CodeReader
from codegen.frontends.go.methods import GoConst, build_methods
from codegen.frontends.go.page import GoPage, read_page
from codegen.frontends.go.type_exprs import (
    INTEGER_TYPES,
    JsonTag,
    TypeConverter,
    allowed_values,
    omitted_value,
    parse_tag,
    zero_of,
)
from codegen.ir.index import walk_expr
from codegen.methods.evidence import Evidence
from codegen.spec.config import SpecConfig
from codegen.spec.source import SourceText

_LANGUAGE = Language(tree_sitter_go.language())
# pkg.go.dev prints the first, ``go doc`` the second, where a struct has unexported fields.
_HIDDEN_MARKERS = ("contains filtered or unexported fields", "Has unexported fields.")
_SINCE = re.compile(r"\badded in (v[\w.+-]+)")


@dataclass
class GoRead:
    """Everything read from the sources before methods are paired."""

    decls: list[ir.Decl] = field(default_factory=list)
    consts: list[GoConst] = field(default_factory=list)
    excluded: dict[str, str] = field(default_factory=dict)
    pages: list[GoPage] = field(default_factory=list)
    named_zero: dict[str, str] = field(default_factory=dict)
    # named types whose underlying type is string / an integer kind: enum candidates
    enum_bases: dict[str, ir.EnumBase] = field(default_factory=dict)
    const_values: dict[str, str | int | float | bool] = field(default_factory=dict)
    # (struct, wire name) of ``omitempty`` struct values: omitempty has no effect on them.
    omitempty_values: set[tuple[str, str]] = field(default_factory=set)
    # named type → the JSON of the values ``omitempty`` / ``omitzero`` leave out (None:
    # only nil, which is absent anyway)
    named_omitted: dict[str, tuple[str | None, str | None]] = field(
        default_factory=dict
    )
    # (struct, wire name, named type, omitzero) of omitted-when-empty fields of a named type
    omitted_named: list[tuple[str, str, str, bool]] = field(default_factory=list)
    # marshaler methods of every source, and the struct types whose wire form they set
    # (still struct values for ``omitempty``: encoding/json never leaves one out)
    methods: Methods = field(default_factory=Methods)
    struct_values: set[str] = field(default_factory=set)
    declared: set[str] = field(default_factory=set)
    # named types encoding/json writes as a JSON object key: string and integer kinds,
    # and types with MarshalText
    string_keys: set[str] = field(default_factory=set)
    # types whose wire form marshaler methods or [go.wrappers] set
    custom: set[str] = field(default_factory=set)


def read_spec(
    sources: list[SourceText], config: SpecConfig, diags: Diagnostics
) -> FrontendResult:
    """The frontend entry point the pipeline calls for ``language = "go"``."""
    extra = ir.ExtraKeys.FORBID if config.extra_keys == "forbid" else ir.ExtraKeys.ALLOW
    read = read_go(sources, diags, extra, go_table(config, diags))
    provenance: dict[str, dict[str, str]] = {}
    methods, constants = build_methods(
        read.consts,
        read.decls,
        read.pages,
        config,
        diags,
        extra=_code_evidence(read, config.roles),
        provenance=provenance,
    )
    # The method rules need the [methods] table's facts to decide direction and kind,
    # so this frontend applies the table itself (methods.py).
    return FrontendResult(
        decls=tuple(read.decls),
        methods=tuple(methods),
        constants=tuple(constants),
        method_table_applied=True,
        provenance=provenance,
    )


@dataclass(frozen=True)
class GoTable:
    """``[go]`` of spec.toml: ``wrappers`` (type name → wire form) and where it is."""

    wrappers: dict[str, object] = field(default_factory=dict)
    spec_toml: str = "spec.toml"
    lines: dict[str, int] = field(default_factory=dict)

    def span(self, name: str) -> ir.Span:
        return ir.Span(self.spec_toml, self.lines.get(name, 1), 1)


def go_table(config: SpecConfig, diags: Diagnostics) -> GoTable:
    rel = config.rel(config.spec_dir / "spec.toml")
    table = config.raw.get("go", {})
    where = ir.Span(rel, 1, 1)
    if not isinstance(table, dict):
        diags.report("CFG002", "[go] must be a table", where)
        return GoTable(spec_toml=rel)
    for key in sorted(set(table) - {"wrappers"}):
        diags.report("CFG002", f"unknown key go.{key}", where)
    wrappers = table.get("wrappers", {})
    if not isinstance(wrappers, dict):
        diags.report("CFG002", "[go.wrappers] maps type names to a wire form", where)
        return GoTable(spec_toml=rel)
    lines: dict[str, int] = {}
    try:
        text = (config.spec_dir / "spec.toml").read_text(encoding="utf-8")
    except OSError:
        text = ""
    for number, line in enumerate(text.splitlines(), 1):
        key = line.split("=", 1)[0].strip().strip('"')
        if key in wrappers and key not in lines:
            lines[key] = number
    return GoTable(dict(wrappers), rel, lines)


def _code_evidence(read: GoRead, roles: tuple[str, str]) -> list[Evidence]:
    """Dispatch and sends in ``.go`` sources (``go.method_code``)."""
    strings = {k: v for k, v in read.const_values.items() if isinstance(v, str)}
    types = {decl.name for decl in read.decls}
    out: list[Evidence] = []
    for page in read.pages:
        if page.is_document:
            continue
        root = Parser(_LANGUAGE).parse(page.code).root_node
        out.extend(CodeReader(page.source, strings, types, roles).read(root))
    return out


def read_go(
    sources: list[SourceText],
    diags: Diagnostics,
    extra_keys: ir.ExtraKeys = ir.ExtraKeys.ALLOW,
    table: GoTable | None = None,
) -> GoRead:
    read = GoRead()
    table = table or GoTable()
    parsed: list[tuple[GoPage, Node]] = []
    basics: dict[str, str] = {}  # named type → the type it is declared with
    for source in sources:
        page = read_page(source, diags)
        read.pages.append(page)
        root = Parser(_LANGUAGE).parse(page.code).root_node
        report_syntax_errors(root, source, diags)
        parsed.append((page, root))
        # Methods and type names first: a type's methods may follow it, or live in
        # another file (gopls declares its Or_* types and their methods apart).
        collect_file(root, source, read.methods)
        collect_page(
            [(b.name, b.first_row) for b in page.funcs()], source, read.methods
        )
        read.declared.update(_declared_names(root))
        basics.update(_named_basics(root))
    read.string_keys = _key_kinds(basics, read.methods)
    for name in sorted(set(table.wrappers) - read.declared):
        diags.report(
            "CFG002",
            f"[go.wrappers] {name} names no type the sources declare",
            table.span(name),
        )
    for page, root in parsed:
        _FileReader(page, diags, read, extra_keys, table).walk(root)
    report_duplicates(read.decls, diags)
    # Unexported constants are never on the wire (their values were kept for the
    # constants declared after them).
    read.consts = [c for c in read.consts if _exported(c.name)]
    read.decls, read.consts = typed_enums(
        read.decls, read.consts, read.enum_bases, diags
    )
    read.decls = _resolve_zero_values(read)
    read.decls = _unexported_out(read, diags)
    return read


@dataclass
class _FileReader:
    page: GoPage
    diags: Diagnostics
    read: GoRead
    extra_keys: ir.ExtraKeys
    table: GoTable = field(default_factory=GoTable)

    @property
    def source(self) -> SourceText:
        return self.page.source

    def span(self, node: Node) -> ir.Span:
        return span_of(self.source, node)

    def walk(self, root: Node) -> None:
        children = root.named_children
        for index, node in enumerate(children):
            if node.type == "comment":
                continue
            leading = _leading_comments_of(children, index)
            if node.type == "type_declaration":
                for spec in node.named_children:
                    if spec.type in ("type_spec", "type_alias"):
                        self.type_spec(spec, node, leading)
            elif node.type == "const_declaration":
                self.const_declaration(node, leading)

    def lifecycle(self, decl_node: Node, leading: str) -> ir.Lifecycle:
        if not self.page.is_document:
            match = _SINCE.search(leading)
            return ir.Lifecycle(docs=leading, since=match.group(1) if match else None)
        block = self.page.block_at(decl_node.start_point[0])
        if block is None:
            return ir.NO_LIFECYCLE
        return ir.Lifecycle(docs=block.docs, since=block.since)

    def type_spec(self, spec: Node, decl_node: Node, leading: str) -> None:
        name = node_text(spec.child_by_field_name("name"))
        type_node = spec.child_by_field_name("type")
        lifecycle = self.lifecycle(
            decl_node if len(decl_node.named_children) == 1 else spec, leading
        )
        span = self.span(spec)
        if spec.child_by_field_name("type_parameters") is not None:
            self.exclude(name, "a generic type has no single wire form", span)
            return
        if type_node is None:
            return
        methods = self.read.methods.of(name)
        if methods or name in self.table.wrappers:
            self.custom_form(name, type_node, methods, lifecycle, span)
            return
        if type_node.type == "struct_type":
            reason = _not_a_message(type_node)
            if reason is not None:
                self.exclude(name, reason, span)
                return
            converter = self.converter(self.source)
            decl = self.struct(type_node, name, name, converter)
            decl = replace(
                decl, lifecycle=lifecycle, span=span, derived_from=None, exported=True
            )
            self.read.decls.extend(converter.lifted)
            self.read.decls.append(decl)
            return
        if type_node.type in ("function_type", "channel_type", "interface_type"):
            what = type_node.type.replace("_type", "")
            if type_node.type == "interface_type" and not type_node.named_children:
                pass  # ``type X interface{}``: any JSON, below
            else:
                self.exclude(
                    name, f"a {what} type is behaviour, not data on the wire", span
                )
                return
        converter = self.converter(self.source)
        converted = converter.convert(type_node, name, name)
        self.read.decls.extend(converter.lifted)
        self.read.named_zero[name] = converted.zero_json or "null"
        self.read.named_omitted[name] = (
            omitted_value(type_node, converted, omitzero=False),
            omitted_value(type_node, converted, omitzero=True),
        )
        kind = ir.AliasKind.ALIAS if spec.type == "type_alias" else ir.AliasKind.NEWTYPE
        base = enum_base(type_node, spec.type == "type_alias")
        if base is not None:
            self.read.enum_bases[name] = base
        self.read.decls.append(
            ir.AliasDecl(name, converted.expr, kind, lifecycle=lifecycle, span=span)
        )

    def converter(self, source: SourceText) -> TypeConverter:
        return TypeConverter(
            source,
            self.diags,
            self.lifted_struct,
            string_keys=self.read.string_keys,
        )

    def custom_pointer(self, type_node: Node) -> bool:
        """``*T`` where marshalers (or ``[go.wrappers]``) set ``T``'s wire form."""
        if type_node.type != "pointer_type" or not type_node.named_children:
            return False
        name = node_text(type_node.named_children[-1])
        return bool(self.read.methods.of(name)) or name in self.table.wrappers

    def custom_form(
        self,
        name: str,
        type_node: Node,
        methods: dict[str, MarshalMethod],
        lifecycle: ir.Lifecycle,
        span: ir.Span,
    ) -> None:
        """A type whose marshalers (or ``[go.wrappers]``) set its wire form."""

        def convert(node: Node, source: SourceText) -> ir.TypeExpr:
            converter = self.converter(source)
            expr = converter.convert(node, name + "Member", name).expr
            self.read.decls.extend(converter.lifted)
            return expr

        forms = FormReader(
            self.diags,
            self.table.wrappers,
            self.read.declared,
            convert,
            self.table.span,
        )
        form = forms.wire_form(
            name, type_node, methods, lifecycle.docs, span, lifecycle
        )
        decl: ir.Decl = (
            form.decl
            if form is not None
            else ir.AliasDecl(
                name, ir.AnyJson(), ir.AliasKind.NEWTYPE, lifecycle=lifecycle, span=span
            )
        )
        self.read.custom.add(name)
        if type_node.type == "struct_type":
            self.read.struct_values.add(name)
        string = isinstance(decl, ir.AliasDecl) and decl.target == ir.Primitive(
            ir.PrimitiveKind.STRING
        )
        self.read.named_zero[name] = '""' if string else "null"
        self.read.named_omitted[name] = ('""', '""') if string else ("null", "null")
        self.read.decls.append(decl)

    def exclude(self, name: str, reason: str, span: ir.Span) -> None:
        self.read.excluded[name] = reason
        self.diags.report(
            "SYN005",
            f"{name} is not part of the wire protocol: {reason}; excluded",
            span,
        )

    def lifted_struct(self, node: Node, name: str, path: str) -> ir.StructDecl:
        converter = self.converter(self.source)
        decl = self.struct(node, name, path, converter)
        self.read.decls.extend(converter.lifted)
        return decl

    def struct(
        self, node: Node, name: str, path: str, converter: TypeConverter
    ) -> ir.StructDecl:
        fields: list[ir.Field] = []
        body = next(
            (c for c in node.named_children if c.type == "field_declaration_list"), None
        )
        members = body.named_children if body is not None else []
        for index, member in enumerate(members):
            if member.type != "field_declaration":
                continue
            trailing = _trailing_comment(members, index)
            leading = _leading_comments_of(members, index)
            fields.extend(self.fields(member, name, path, converter, leading, trailing))
        return ir.StructDecl(
            name,
            tuple(fields),
            extra_keys=self.extra_keys,
            span=self.span(node),
            derived_from=path,
            exported=False,
        )

    def fields(
        self,
        member: Node,
        owner: str,
        path: str,
        converter: TypeConverter,
        leading: str,
        trailing: str,
    ) -> list[ir.Field]:
        type_node = member.child_by_field_name("type")
        if type_node is None:
            return []
        names = [node_text(c) for c in member.children_by_field_name("name")]
        tag_node = member.child_by_field_name("tag")
        tag = parse_tag(_tag_text(tag_node))
        span = self.span(member)
        if tag.skip:
            return []  # ``json:"-"``: never on the wire
        note = trailing if allowed_values(trailing) else None
        docs = "\n".join(part for part in (leading, "" if note else trailing) if part)
        lifecycle = ir.Lifecycle(docs=docs)
        if not names:
            return [
                self.embedded(member, type_node, tag, lifecycle, span, converter, path)
            ]
        out: list[ir.Field] = []
        for go_name in names:
            if not go_name[:1].isupper():
                continue  # unexported: encoding/json never writes it
            wire = tag.name or go_name
            converted = converter.convert(
                type_node, owner + _pascal(go_name), f"{path}.{go_name}"
            )
            expr = converted.expr
            if "string" in tag.options and isinstance(expr, ir.Primitive):
                expr = ir.Primitive(
                    ir.PrimitiveKind.STRING,
                    ir.Constraints(format=f"{expr.kind.value}-string"),
                )
            optional = bool({"omitempty", "omitzero"} & tag.options)
            omitzero = "omitzero" in tag.options and "omitempty" not in tag.options
            if optional and not omitzero and node_text(type_node) == "time.Time":
                optional = False  # a struct value: omitempty never leaves it out
            if optional:
                presence, nullable = ir.Presence.OPTIONAL, False
                # The writer leaves the key out when the value is empty (omitempty) or
                # zero (omitzero): that value is the default a reader assumes.
                default = omitted_value(type_node, converted, omitzero=omitzero)
                if default is None and self.custom_pointer(type_node):
                    # null into a pointer is nil, which omitempty leaves out: a form
                    # that reads null would otherwise keep it as a value.
                    default = "null"
                if type_node.type == "type_identifier" and isinstance(expr, ir.Ref):
                    self.read.omitted_named.append((owner, wire, expr.name, omitzero))
                if (
                    "omitzero" not in tag.options
                    and type_node.type == "type_identifier"
                    and isinstance(expr, ir.Ref)
                ):
                    self.read.omitempty_values.add((owner, wire))
            else:
                presence = ir.Presence.WRITTEN_ALWAYS_READ_OPTIONAL
                nullable = converted.nil_is_null and not isinstance(expr, ir.AnyJson)
                default = converted.zero_json or None
            out.append(
                ir.Field(
                    name=go_name,
                    wire_name=wire,
                    type=expr,
                    presence=presence,
                    nullable=nullable,
                    default_json=default,
                    lifecycle=lifecycle,
                    span=span,
                    allowed_values_note=note,
                )
            )
        return out

    def embedded(
        self,
        member: Node,
        type_node: Node,
        tag: JsonTag,
        lifecycle: ir.Lifecycle,
        span: ir.Span,
        converter: TypeConverter,
        path: str,
    ) -> ir.Field:
        """An anonymous field: its exported fields are promoted into this object."""
        base = node_text(type_node).rsplit(".", 1)[-1]
        pointer = any(child.type == "*" for child in member.children)
        converted = converter.convert(type_node, base, f"{path}.{base}")
        wire_name = tag.name or base
        if tag.name:
            # A tag name turns the embedded struct into an ordinary named field.
            return ir.Field(
                base,
                wire_name,
                converted.expr,
                presence=ir.Presence.WRITTEN_ALWAYS_READ_OPTIONAL,
                nullable=pointer,
                default_json="null" if pointer else None,
                lifecycle=lifecycle,
                span=span,
            )
        return ir.Field(
            base,
            base,
            converted.expr,
            flatten=True,
            presence=ir.Presence.OPTIONAL if pointer else ir.Presence.REQUIRED,
            lifecycle=lifecycle,
            span=span,
        )

    def const_declaration(self, node: Node, leading: str) -> None:
        lifecycle = self.lifecycle(node, leading)
        children = node.named_children
        specs = [(i, c) for i, c in enumerate(children) if c.type == "const_spec"]
        alone = len(specs) == 1 and len(specs[0][1].children_by_field_name("name")) == 1
        group = ConstGroup()
        for index, spec in specs:
            trailing = _trailing_comment(children, index)
            own = trailing or _leading_comments_of(children, index)
            names = [node_text(c) for c in spec.children_by_field_name("name")]
            span = self.span(spec)
            type_name, values = group.spec(spec)
            for position, name in enumerate(names):
                value = (
                    evaluate(values[position], group.iota, self.read.const_values)
                    if position < len(values)
                    else None
                )
                if value is None:
                    self.diags.report(
                        "SYN002",
                        f"constant {name} has no value the frontend evaluates (literals, "
                        "iota, earlier constants and arithmetic on them); skipped",
                        span,
                    )
                    continue
                self.read.const_values[name] = value
                self.read.consts.append(
                    GoConst(
                        name,
                        value,
                        trailing,
                        lifecycle.since,
                        span,
                        type_name,
                        own or (lifecycle.docs if alone else ""),
                        "" if alone else lifecycle.docs,
                    )
                )
            group.iota += 1


def _named_basics(root: Node) -> dict[str, str]:
    """``type K string`` / ``type K = other``: each named type's declared type name."""
    out: dict[str, str] = {}
    for node in root.named_children:
        if node.type != "type_declaration":
            continue
        for spec in node.named_children:
            kind = spec.child_by_field_name("type")
            if (
                spec.type in ("type_spec", "type_alias")
                and kind is not None
                and kind.type == "type_identifier"
            ):
                out[node_text(spec.child_by_field_name("name"))] = node_text(kind)
    return out


def _key_kinds(basics: dict[str, str], methods: Methods) -> set[str]:
    """Named types whose kind is string or an integer (through chains of named types),
    or that have MarshalText: encoding/json writes them as object keys."""
    out: set[str] = set()
    for name in basics:
        seen: set[str] = set()
        current = name
        while current in basics and current not in seen:
            seen.add(current)
            current = basics[current]
        if current == "string" or current in INTEGER_TYPES:
            out.add(name)
    out.update(n for n, found in methods.by_type.items() if "MarshalText" in found)
    return out


def _declared_names(root: Node) -> set[str]:
    names: set[str] = set()
    for node in root.named_children:
        if node.type == "type_declaration":
            for spec in node.named_children:
                if spec.type in ("type_spec", "type_alias"):
                    names.add(node_text(spec.child_by_field_name("name")))
    return names


def _not_a_message(struct: Node) -> str | None:
    body = next(
        (c for c in struct.named_children if c.type == "field_declaration_list"), None
    )
    if body is None:
        return None
    members = body.named_children
    declarations = [m for m in members if m.type == "field_declaration"]
    hidden = any(m.type == "comment" and _hidden(node_text(m)) for m in members)
    if hidden and not declarations:
        return "a handle whose fields are all unexported (it carries process state)"
    named = [m.children_by_field_name("name") for m in declarations]
    if declarations and all(
        names and not any(_exported(node_text(n)) for n in names) for names in named
    ):
        # encoding/json writes none of them: not a message but process state.
        return "a handle whose fields are all unexported (it carries process state)"
    tags = [parse_tag(_tag_text(m.child_by_field_name("tag"))) for m in declarations]
    if (
        tags
        and not any(t.present for t in tags)
        and any("yaml" in t.other_keys for t in tags)
    ):
        return "a configuration type read from YAML (yaml: tags, no json: tag)"
    return None


def _resolve_zero_values(read: GoRead) -> list[ir.Decl]:
    """Fill the zero value of always-written fields whose type is a named type, and undo
    ``omitempty`` on struct values (encoding/json never omits a struct value)."""
    structs = {d.name: d for d in read.decls if isinstance(d, ir.StructDecl)}
    omitted = {
        (owner, wire): read.named_omitted.get(name, (None, None))[1 if zero else 0]
        for owner, wire, name, zero in read.omitted_named
        if name not in structs
    }
    out: list[ir.Decl] = []
    for decl in read.decls:
        if not isinstance(decl, ir.StructDecl):
            out.append(decl)
            continue
        fields: list[ir.Field] = []
        for fld in decl.fields:
            if (
                decl.name,
                fld.wire_name,
            ) in omitted and fld.presence is ir.Presence.OPTIONAL:
                fld = replace(fld, default_json=omitted[(decl.name, fld.wire_name)])
            if (
                (decl.name, fld.wire_name) in read.omitempty_values
                and isinstance(fld.type, ir.Ref)
                and (fld.type.name in structs or fld.type.name in read.struct_values)
            ):
                fld = replace(fld, presence=ir.Presence.WRITTEN_ALWAYS_READ_OPTIONAL)
            if (
                fld.presence is ir.Presence.WRITTEN_ALWAYS_READ_OPTIONAL
                and fld.default_json is None
            ):
                zero = zero_of(fld.type, structs, read.named_zero)
                fld = replace(fld, default_json=zero)
            if _null_is_no_value(fld, read):
                fld = replace(fld, omitted_value="null")
            fields.append(fld)
        out.append(replace(decl, fields=tuple(fields)))
    return out


def _null_is_no_value(fld: ir.Field, read: GoRead) -> bool:
    """encoding/json reads ``null`` into a string, number, bool, struct or array as a
    no-op (the zero value stays), and into a pointer, slice or map that its writer leaves
    out (omitempty) as nil, which is left out: either way the writer never writes null
    there, and a reader takes it as an absent key.  Not where null is a value: a nullable
    field, any JSON, a named type whose zero is null (a slice, map or interface type, or
    a type whose UnmarshalJSON is called with the null)."""
    if fld.nullable or fld.flatten or isinstance(fld.type, ir.AnyJson):
        return False
    if isinstance(fld.type, ir.Ref):
        name = fld.type.name
        if read.named_zero.get(name) == "null" or name in read.custom:
            return False
    return not isinstance(fld.type, ir.InlineUnion)


def _tag_text(node: Node | None) -> str:
    raw = node_text(node)
    if raw.startswith("`") and raw.endswith("`") and len(raw) >= 2:
        return raw[1:-1]
    if raw.startswith('"'):
        try:
            value = json.loads(raw)
        except ValueError:
            return ""
        return value if isinstance(value, str) else ""
    return raw


def _comment_text(node: Node) -> str:
    raw = node_text(node)
    if raw.startswith("//"):
        return raw[2:].strip()
    if raw.startswith("/*"):
        return raw[2:-2].strip()
    return raw.strip()


def _trailing_comment(siblings: list[Node], index: int) -> str:
    """A comment on the same line right after ``siblings[index]``."""
    node = siblings[index]
    if index + 1 < len(siblings):
        after = siblings[index + 1]
        if after.type == "comment" and after.start_point[0] == node.end_point[0]:
            return _comment_text(after)
    return ""


def _leading_comments_of(siblings: list[Node], index: int) -> str:
    """Comments on the lines right above ``siblings[index]`` (not trailing another node)."""
    lines: list[str] = []
    row = siblings[index].start_point[0]
    position = index - 1
    while position >= 0:
        node = siblings[position]
        if node.type != "comment" or node.end_point[0] != row - 1:
            break
        if position > 0 and siblings[position - 1].end_point[0] == node.start_point[0]:
            break  # a trailing comment of the previous node
        if _hidden(node_text(node)):
            break
        lines.insert(0, _comment_text(node))
        row = node.start_point[0]
        position -= 1
    return "\n".join(lines)


def _hidden(comment: str) -> bool:
    return any(marker in comment for marker in _HIDDEN_MARKERS)


def _exported(name: str) -> bool:
    """Go's rule: an identifier is exported when its first letter is upper case."""
    return name[:1].isupper()


def _unexported_out(read: GoRead, diags: Diagnostics) -> list[ir.Decl]:
    """Unexported types never reach the IR, unless an exported type's wire form uses
    them (an embedded struct promotes its fields; a field's type): those stay, not
    exported from the bindings.  Roots are the exported and lifted declarations."""
    by_name = {d.name: d for d in read.decls}
    stack = [
        d.name for d in read.decls if _exported(d.name) and d.name not in read.excluded
    ]
    reached: set[str] = set()
    while stack:
        name = stack.pop()
        if name in reached or name not in by_name:
            continue
        reached.add(name)
        stack.extend(_refs(by_name[name]))
    out: list[ir.Decl] = []
    for decl in read.decls:
        if _exported(decl.name):
            out.append(decl)
        elif decl.name in reached:
            out.append(replace(decl, exported=False))
        else:
            diags.report(
                "SYN005",
                f"{decl.name} is not part of the wire protocol: an unexported type no "
                "exported type uses; excluded",
                decl.span,
            )
    return out


def _refs(decl: ir.Decl) -> list[str]:
    exprs: list[ir.TypeExpr] = []
    if isinstance(decl, ir.StructDecl):
        exprs.extend(f.type for f in decl.fields)
    elif isinstance(decl, ir.UnionDecl):
        exprs.extend(v.type for v in decl.variants if v.type is not None)
    elif isinstance(decl, ir.AliasDecl):
        exprs.append(decl.target)
    return [
        node.name
        for expr in exprs
        for node in walk_expr(expr)
        if isinstance(node, ir.Ref)
    ]


def _pascal(name: str) -> str:
    return name[:1].upper() + name[1:]
