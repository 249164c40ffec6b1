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
from codegen.frontends.go.method_code import CodeReader
from codegen.frontends.go.methods import GoConst, build_methods
from codegen.frontends.go.page import GoPage, read_page
from codegen.frontends.go.type_exprs import (
    JsonTag,
    TypeConverter,
    allowed_values,
    omitted_value,
    parse_tag,
    zero_of,
)
from codegen.methods.evidence import Evidence
from codegen.spec.config import SpecConfig
from codegen.spec.source import SourceText

_LANGUAGE = Language(tree_sitter_go.language())
_HIDDEN_FIELDS = "contains filtered or unexported fields"
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


def read_spec(
    sources: list[SourceText], config: SpecConfig, diags: Diagnostics
) -> FrontendResult:
    """The frontend entry point the pipeline calls for ``language = "go"``."""
    extra = ir.ExtraKeys.FORBID if config.extra_keys == "forbid" else ir.ExtraKeys.ALLOW
    read = read_go(sources, diags, extra)
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
) -> GoRead:
    read = GoRead()
    for source in sources:
        page = read_page(source, diags)
        read.pages.append(page)
        root = Parser(_LANGUAGE).parse(page.code).root_node
        report_syntax_errors(root, source, diags)
        _FileReader(page, diags, read, extra_keys).walk(root)
    report_duplicates(read.decls, diags)
    read.decls, read.consts = typed_enums(
        read.decls, read.consts, read.enum_bases, diags
    )
    read.decls = _resolve_zero_values(read)
    return read


@dataclass
class _FileReader:
    page: GoPage
    diags: Diagnostics
    read: GoRead
    extra_keys: ir.ExtraKeys

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
        if type_node.type == "struct_type":
            reason = _not_a_message(type_node)
            if reason is not None:
                self.exclude(name, reason, span)
                return
            converter = TypeConverter(self.source, self.diags, self.lifted_struct)
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
        converter = TypeConverter(self.source, self.diags, self.lifted_struct)
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

    def exclude(self, name: str, reason: str, span: ir.Span) -> None:
        self.read.excluded[name] = reason
        self.diags.report(
            "SYN005",
            f"{name} is not part of the wire protocol: {reason}; excluded",
            span,
        )

    def lifted_struct(self, node: Node, name: str, path: str) -> ir.StructDecl:
        converter = TypeConverter(self.source, self.diags, self.lifted_struct)
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


def _not_a_message(struct: Node) -> str | None:
    body = next(
        (c for c in struct.named_children if c.type == "field_declaration_list"), None
    )
    if body is None:
        return None
    members = body.named_children
    declarations = [m for m in members if m.type == "field_declaration"]
    hidden = any(
        m.type == "comment" and _HIDDEN_FIELDS in node_text(m) for m in members
    )
    if hidden and not declarations:
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
                and fld.type.name in structs
            ):
                fld = replace(fld, presence=ir.Presence.WRITTEN_ALWAYS_READ_OPTIONAL)
            if (
                fld.presence is ir.Presence.WRITTEN_ALWAYS_READ_OPTIONAL
                and fld.default_json is None
            ):
                zero = zero_of(fld.type, structs, read.named_zero)
                fld = replace(fld, default_json=zero)
            fields.append(fld)
        out.append(replace(decl, fields=tuple(fields)))
    return out


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
        if _HIDDEN_FIELDS in node_text(node):
            break
        lines.insert(0, _comment_text(node))
        row = node.start_point[0]
        position -= 1
    return "\n".join(lines)


def _pascal(name: str) -> str:
    return name[:1].upper() + name[1:]
