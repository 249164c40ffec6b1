"""serde's wire forms of Rust structs and enums → IR declarations.

Phase: frontend (used by ``rust.reader`` for every compiled struct, enum and type alias).
Inputs: an ``Item`` (node + attributes) and the file's ``TypeConverter``.
Outputs: IR declarations saying exactly what serde_json writes and reads:
- named structs → ``StructDecl`` (``rename_all``/``rename`` applied, escapes decoded, ``""``
  kept); ``tag = "t"`` on a struct → a synthesized first field ``t`` = the struct's name,
  written always, its value never read (``default_on_error``);
- newtype and ``transparent`` structs → ``AliasDecl(NEWTYPE)``; unit structs → ``null``;
  tuple structs → ``TupleOf``; ``from``/``try_from``/``into`` → the named type's wire form;
- unit-only enums → string ``EnumDecl`` (``#[serde(other)]`` → ``catch_all``; with one
  ``#[serde(untagged)] Other(String)`` → an open enum); other enums → ``UnionDecl``
  (externally tagged by default, ``tag`` → internally, ``tag`` + ``content`` → adjacently,
  ``untagged``), struct variants lifted to ``<Enum><Variant>`` structs (internally tagged
  ones carry the tag field), ``#[serde(untagged)]`` variants kept last as ``untagged``;
- fields: ``Option`` + ``skip_serializing_if`` (or the container's ``skip_serializing_none``)
  → may be absent, ``null`` read as absent (``omitted_value``); other ``skip_serializing_if``
  predicates → the value left out (``[]``, ``{}``, the type's default); a bare ``Option`` →
  always written, absent read as ``null``; ``default`` (on the field or the container) →
  read optional with the default's JSON; serde_with ``DefaultOnError`` → ``default_on_error``,
  ``VecSkipError`` → arrays that drop unreadable items; declared wrappers (tri-state:
  absent / null / value) take their form; ``flatten`` kept as ``Field.flatten``;
- ``deny_unknown_fields`` (or spec ``extra_keys = "forbid"``) → ``ExtraKeys.FORBID``.
Defaults that depend on other declarations are left as placeholders (``PLACEHOLDER``...)
for ``rust.reader`` to resolve once every declaration exists.
Guarantees: never raises on user input; unknown attributes (SER001), constructs serde itself
rejects (SER002), wire forms set by code (SER003) and unknown types (SYN003) are diagnostics.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from tree_sitter import Node

from codegen import ir
from codegen.diagnostics import Diagnostics, Severity
from codegen.frontends.common.syntax import node_text, span_of
from codegen.frontends.rust.attrs import (
    AttrReader,
    Attrs,
    Rules,
    apply_rename_rule,
    attributed,
    rename_pair,
    rename_value,
    rule_pair,
)
from codegen.frontends.rust.crate import Item
from codegen.frontends.rust.serde_as import AsType, parse_as
from codegen.frontends.rust.type_exprs import (
    TypeConverter,
    generic_base,
    is_option,
)
from codegen.spec.source import SourceText

NULL = ir.Primitive(ir.PrimitiveKind.NULL)
_STRING = ir.Primitive(ir.PrimitiveKind.STRING)
# Placeholders in ``default_json`` / ``omitted_value``, resolved by ``rust.reader``.
PLACEHOLDER = "\x00"
TYPE_DEFAULT = "\x00type"  # Default::default() of the field's type
FN_DEFAULT = "\x00fn:"  # + the path of a ``default = "path"`` function
CONTAINER_DEFAULT = "\x00container:"  # + the container whose Default fills the field

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
    "alias",
    "skip_serializing_if",
    "default",
    "flatten",
    "skip",
    "skip_serializing",
    "skip_deserializing",
    "borrow",
    "bound",
}
_VARIANT_KEYS = {
    "rename",
    "rename_all",
    "skip",
    "skip_serializing",
    "skip_deserializing",
    "bound",
    "alias",
    "untagged",
    "other",
}
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
_WITH_KEYS = ("with", "serialize_with", "deserialize_with")
_EMPTY_BY_TYPE = {"Vec": "[]", "VecDeque": "[]", "HashSet": "[]", "BTreeSet": "[]"}
_EMPTY_MAPS = {"HashMap", "BTreeMap", "IndexMap", "Map"}
_EMPTY_STRINGS = {"String", "str"}


def _top_level_split(text: str) -> list[str]:
    """``u8,Vec<(A,B)>`` → ``["u8", "Vec<(A,B)>"]``."""
    parts: list[str] = []
    depth, current = 0, ""
    for char in text:
        if char in "<([":
            depth += 1
        elif char in ">)]":
            depth -= 1
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
            continue
        current += char
    if current:
        parts.append(current)
    return parts


def _code_stated(attrs: Attrs, by_function: bool = False) -> bool:
    """Whether a member's wire form is code whose type ``schemars(with)`` states (or, with
    ``by_function``, a ``schemars(schema_with)`` function)."""
    stated = attrs.schemars_schema_with if by_function else attrs.schemars_with
    return stated is not None and any(attrs.has(k) for k in _WITH_KEYS)


_RAW_STRING = re.compile(r'r(#*)"(.*?)"\1', re.DOTALL)
_SCHEMA_KINDS = {
    "string": ir.PrimitiveKind.STRING,
    "integer": ir.PrimitiveKind.INTEGER,
    "number": ir.PrimitiveKind.NUMBER,
    "boolean": ir.PrimitiveKind.BOOLEAN,
    "null": ir.PrimitiveKind.NULL,
}


def schema_literal(function: Node) -> ir.TypeExpr | None:
    """The type a schemars ``schema_with`` function states when its body is one
    ``json_schema!({"type": .., "pattern": ..})`` literal of a scalar; None otherwise.
    """
    body = function.child_by_field_name("body")
    calls = [
        n
        for n in (body.named_children if body is not None else [])
        if n.type in ("macro_invocation", "expression_statement")
    ]
    if len(calls) != 1:
        return None
    call = calls[0]
    if call.type == "expression_statement" and call.named_children:
        call = call.named_children[0]
    macro = call.child_by_field_name("macro")
    if call.type != "macro_invocation" or macro is None:
        return None
    if node_text(macro).rsplit("::", 1)[-1] != "json_schema":
        return None
    tokens = next((c for c in call.named_children if c.type == "token_tree"), None)
    if tokens is None:
        return None
    text = _RAW_STRING.sub(lambda m: json.dumps(m.group(2)), node_text(tokens))
    try:
        schema = json.loads(text.strip()[1:-1])
    except ValueError:
        return None
    if not isinstance(schema, dict) or set(schema) - {"type", "pattern"}:
        return None
    kind = _SCHEMA_KINDS.get(str(schema.get("type")))
    pattern = schema.get("pattern")
    if kind is None or (pattern is not None and not isinstance(pattern, str)):
        return None
    if pattern is not None and kind is ir.PrimitiveKind.STRING:
        # Kept as written (ECMA-262, JSON Schema's dialect); the Python backend spells
        # it for pydantic's engines (codegen/ecma_regex.py).
        return ir.Primitive(kind, ir.Constraints(pattern=pattern))
    return ir.Primitive(kind) if pattern is None else None


SERDE_REPR = {"Serialize_repr", "Deserialize_repr"}


def enum_discriminants(
    node: Node, reader: AttrReader, source: SourceText
) -> list[tuple[str, int | None, ir.Span]]:
    """The compiled variants of a fieldless enum with their discriminants as rustc assigns
    them: an explicit ``= n``, else the previous one plus one (the first: 0); None for a
    discriminant that is not an integer literal (and every implicit one after it)."""
    out: list[tuple[str, int | None, ir.Span]] = []
    body = node.child_by_field_name("body")
    following: int | None = 0
    for child, attr_nodes in attributed(body.named_children if body else []):
        if child.type != "enum_variant" or not reader.collect(attr_nodes).enabled:
            continue
        value_node = child.child_by_field_name("value")
        value = following
        if value_node is not None:
            text = node_text(value_node).replace("_", "").replace(" ", "")
            value = _int_literal(text)
        out.append(
            (
                node_text(child.child_by_field_name("name")),
                value,
                span_of(source, child),
            )
        )
        following = value + 1 if value is not None else None
    return out


def _int_literal(text: str) -> int | None:
    negative = text.startswith("-")
    digits = text.lstrip("-")
    for suffix in (
        "u8",
        "u16",
        "u32",
        "u64",
        "i8",
        "i16",
        "i32",
        "i64",
        "usize",
        "isize",
    ):
        digits = digits.removesuffix(suffix)
    try:
        value = int(digits, 0)
    except ValueError:
        if not digits.isdigit():
            return None
        value = int(digits)  # ``010`` is ten in Rust
    return -value if negative else value


@dataclass
class DeclFacts:
    """What the declarations of a crate tell the default resolver and the method finder."""

    derived_default: set[str] = field(default_factory=set)
    variant_default: dict[str, str] = field(default_factory=dict)
    docs: dict[str, ir.Lifecycle] = field(
        default_factory=dict
    )  # "Enum::Variant" → docs
    variant_types: dict[str, list[tuple[str, str | None]]] = field(
        default_factory=dict
    )  # enum → [(variant, payload type name)]
    extends: dict[str, dict[str, tuple[str, bool, ir.Span]]] = field(
        default_factory=dict
    )  # type → schemars extend pairs
    modules: dict[str, str] = field(default_factory=dict)  # type → its module path
    simple: dict[str, str] = field(default_factory=dict)  # type → its Rust name


@dataclass
class DeclBuilder:
    source: SourceText
    diags: Diagnostics
    types: TypeConverter
    reader: AttrReader
    forbid_extra_keys: bool
    facts: DeclFacts
    lifted: list[ir.Decl] = field(default_factory=list)
    array_form: tuple[tuple[str, bool], ...] | None = None  # of the last ``_fields``

    def span(self, node: Node) -> ir.Span:
        return span_of(self.source, node)

    def item(self, item: Item, name: str) -> list[ir.Decl]:
        """The declarations of one item, named ``name`` in the IR (``paths.output_names``)."""
        node, attrs = item.node, item.attrs
        self.facts.modules[name] = item.module
        self.facts.simple[name] = node_text(node.child_by_field_name("name"))
        if attrs.schemars_extend:
            self.facts.extends[name] = attrs.schemars_extend
        if node.type == "type_item":
            target = node.child_by_field_name("type")
            expr = self.types.convert(target) if target is not None else ir.AnyJson()
            return [
                ir.AliasDecl(
                    name, expr, ir.AliasKind.ALIAS, attrs.lifecycle(), self.span(node)
                )
            ]
        if "Default" in attrs.derives:
            self.facts.derived_default.add(name)
        if node.type == "enum_item" and SERDE_REPR & attrs.derives:
            return [self._repr_enum(node, name, attrs)]
        if not ({"Serialize", "Deserialize"} & attrs.derives):
            return []  # not a wire type: serde never sees it
        if node.type == "struct_item":
            decl = self._struct(node, name, attrs)
        else:
            decl = self._enum(node, name, attrs)
        out = [*self.lifted, decl]
        self.lifted = []
        return out

    def _check_keys(self, attrs: Attrs, allowed: set[str], what: str) -> None:
        for arg in attrs.serde:
            if arg.key in _CODE_KEYS:
                if what in ("struct", "enum") and arg.key in (
                    "from",
                    "into",
                    "try_from",
                ):
                    continue  # modelled: the named type's wire form
                if arg.key == "remote" and what in ("struct", "enum"):
                    continue  # the derive is the remote type's wire form: modelled
                if arg.key == "with" and self._remote_target(attrs) is not None:
                    continue  # a remote definition's form: modelled
                if arg.key in _WITH_KEYS and attrs.schemars_with is not None:
                    self.diags.report(
                        "SER003",
                        f"serde({arg.key}) on a {what}: the wire form is set by code; "
                        f"the type #[schemars(with = {attrs.schemars_with[0]!r})] states "
                        "is taken as its wire form",
                        arg.span,
                        Severity.NOTE,
                    )
                    continue
                function = attrs.schemars_schema_with
                if (
                    arg.key in _WITH_KEYS
                    and function is not None
                    and self._schema_function(*function) is not None
                ):
                    self.diags.report(
                        "SER003",
                        f"serde({arg.key}) on a {what}: the wire form is set by code; "
                        f"the schema {function[0]} states is taken as its wire form",
                        arg.span,
                        Severity.NOTE,
                    )
                    continue
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
        """The name ``rename`` gives, if any (``""`` is a name)."""
        rename = attrs.get("rename")
        return rename_value(rename, self.diags) if rename is not None else None

    def _rule(self, attrs: Attrs, key: str) -> Rules:
        return rule_pair(attrs.get(key), self.diags)

    @staticmethod
    def _names(
        attrs: Attrs, rule: Rules, ident: str, *, variant: bool
    ) -> tuple[str, str]:
        """The (written, read) names of a field or variant: its ``rename`` for each
        direction, else the direction's rule applied to its Rust name."""
        write, read = rename_pair(attrs.get("rename"))
        return (
            (
                write
                if write is not None
                else apply_rename_rule(rule.write, ident, variant=variant)
            ),
            (
                read
                if read is not None
                else apply_rename_rule(rule.read, ident, variant=variant)
            ),
        )

    def _extra(self, attrs: Attrs) -> ir.ExtraKeys:
        if self.forbid_extra_keys or attrs.has("deny_unknown_fields"):
            return ir.ExtraKeys.FORBID
        return ir.ExtraKeys.ALLOW

    def _conversion(self, attrs: Attrs, name: str, node: Node) -> ir.Decl | None:
        """``#[serde(from = "T", into = "U")]``: the wire form is T's (read) and U's
        (written); modelled when they agree."""
        read = attrs.get("from") or attrs.get("try_from")
        write = attrs.get("into")
        if read is None and write is None:
            return None
        chosen = read if read is not None else write
        text = chosen.value if chosen is not None else None
        if read is not None and write is not None and read.value != write.value:
            self.diags.report(
                "SER003",
                f"{name} reads as {read.value} but writes as {write.value}; the read "
                "form is modelled",
                read.span,
            )
        if read is not None and read.key == "try_from":
            self.diags.report(
                "SER003",
                f"{name} reads through TryFrom<{read.value}>, which may reject values; "
                f"every {read.value} is assumed to read",
                read.span,
                Severity.NOTE,
            )
        target = self.types.convert_text(
            text or "", chosen.span if chosen else self.span(node)
        )
        return ir.AliasDecl(
            name, target, ir.AliasKind.NEWTYPE, attrs.lifecycle(), self.span(node)
        )

    # ------------------------------------------------------------------- structs

    def _struct(self, node: Node, name: str, attrs: Attrs) -> ir.Decl:
        self._check_keys(attrs, _STRUCT_KEYS, "struct")
        span = self.span(node)
        life = attrs.lifecycle()
        converted = self._conversion(attrs, name, node)
        if converted is not None:
            return converted
        body = node.child_by_field_name("body")
        if body is None:
            # serde_json writes a unit struct as null (and reads only null).
            return ir.AliasDecl(name, NULL, ir.AliasKind.NEWTYPE, life, span)
        if body.type == "ordered_field_declaration_list":
            members = list(self._tuple_members(body))
            items = [self.types.convert(child) for child, _ in members]
            forms = [
                (not a.has("skip_deserializing"), not a.has("skip_serializing"))
                for _, a in members
            ]
            reads = tuple(t for t, (r, _) in zip(items, forms) if r)
            writes = tuple(t for t, (_, w) in zip(items, forms) if w)
            if any(r != w for r, w in forms) and len(items) > 1:
                # serde reads some fields it never writes, or the other way round
                self.diags.report(
                    "SER003",
                    f"{name} is read otherwise than it is written (skip_serializing or "
                    "skip_deserializing on a field): the JSON Schema has both forms "
                    "(x-written-form); the Python bindings read it as serde does and "
                    "write back the items they read",
                    span,
                    Severity.NOTE,
                )
                tuple_ = ir.TupleOf(reads, written_items=writes)
                return ir.AliasDecl(name, tuple_, ir.AliasKind.NEWTYPE, life, span)
            if len(items) == 1:
                return ir.AliasDecl(name, items[0], ir.AliasKind.NEWTYPE, life, span)
            if attrs.has("transparent"):
                self.diags.report("SER002", "transparent needs exactly one field", span)
            return ir.AliasDecl(
                name, ir.TupleOf(tuple(items)), ir.AliasKind.NEWTYPE, life, span
            )
        rule = self._rule(attrs, "rename_all")
        container_default = name if attrs.has("default") else None
        fields = self._fields(body, rule, container_default, attrs)
        array_form = self.array_form
        if attrs.has("transparent"):
            if len(fields) != 1:
                self.diags.report("SER002", "transparent needs exactly one field", span)
            if fields:
                only = fields[0]
                target = only.type
                if only.nullable or only.omitted_value == "null":
                    target = ir.InlineUnion((target, NULL))
                return ir.AliasDecl(name, target, ir.AliasKind.NEWTYPE, life, span)
        tag = attrs.get("tag")
        if tag is not None and tag.value is not None:
            written = self._renamed(attrs)
            written = name if written is None else written
            if attrs.has("deny_unknown_fields"):
                self.diags.report(
                    "SER002",
                    f"{name}: serde writes the tag {tag.value!r} but, with "
                    "deny_unknown_fields, rejects it on read",
                    tag.span,
                    Severity.WARNING,
                )
            fields.insert(
                0,
                ir.Field(
                    name=tag.value,
                    wire_name=tag.value,
                    type=ir.Literal(written),
                    # serde writes the struct's name under the tag; its reader never
                    # reads that key's value.
                    presence=ir.Presence.WRITTEN_ALWAYS_READ_OPTIONAL,
                    default_json=json.dumps(written),
                    default_on_error=True,
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
            array_form=array_form,
        )

    def _tuple_items(self, body: Node) -> list[ir.TypeExpr]:
        return [self.types.convert(child) for child, _ in self._tuple_members(body)]

    def _tuple_members(self, body: Node) -> Iterator[tuple[Node, Attrs]]:
        """The items of a tuple body serde knows: compiled in, not ``skip``ped, each
        with its attributes (read once: a finding in them is reported once)."""
        before_pub: list[Node] = []
        for child, attr_nodes in attributed(body.named_children):
            if child.type == "visibility_modifier":
                # ``#[serde(skip)] pub u8``: the attributes stand before ``pub``
                before_pub = attr_nodes
                continue
            attrs = self.reader.collect(before_pub + attr_nodes)
            before_pub = []
            if attrs.enabled and not attrs.has("skip"):
                yield child, attrs

    def _fields(
        self,
        body: Node,
        rule: Rules,
        container_default: str | None,
        container: Attrs,
    ) -> list[ir.Field]:
        out: list[ir.Field] = []
        skip_none = "skip_serializing_none" in container.markers
        array: list[tuple[str, bool]] | None = []
        for child, attrs_nodes in attributed(body.named_children):
            if child.type != "field_declaration":
                continue
            attrs = self.reader.collect(attrs_nodes)
            if not attrs.enabled or attrs.has("skip"):
                continue
            fld = self._field(child, attrs, rule, container_default, skip_none)
            if fld is not None:
                fld = self._directions(fld, child, attrs, rule)
                out.append(fld)
            if fld is None or fld.flatten:
                array = None  # flatten: maps only
            elif array is not None and fld.read:
                array.append((fld.read_keys()[0], attrs.has("default")))
        self.array_form = tuple(array) if array is not None else None
        return out

    def _serde_as(self, attrs: Attrs) -> AsType | None:
        arg = next(
            (a for a in attrs.serde_as if a.key in ("deserialize_as", "as")), None
        )
        if arg is None or arg.value is None:
            return None
        parsed = parse_as(arg.value)
        if parsed is None:
            self.diags.report(
                "SER001",
                f"serde_as type {arg.value!r} is not readable; the field's own wire form "
                "is assumed",
                arg.span,
            )
        return parsed

    def _directions(
        self, fld: ir.Field, node: Node, attrs: Attrs, rule: Rules
    ) -> ir.Field:
        """What a reader reads where it differs from what serde writes (``rename`` per
        direction, ``alias``, ``skip_serializing``, ``skip_deserializing``)."""
        name = node_text(node.child_by_field_name("name")).removeprefix("r#")
        _, read = self._names(attrs, rule, name, variant=False)
        aliases = [a.value for a in attrs.serde if a.key == "alias" and a.value]
        keys = tuple(dict.fromkeys([read, *aliases]))
        return replace(
            fld,
            read_names=() if keys == (fld.wire_name,) else keys,
            written=not attrs.has("skip_serializing"),
            read=not attrs.has("skip_deserializing"),
        )

    def _field(
        self,
        node: Node,
        attrs: Attrs,
        rule: Rules,
        container_default: str | None,
        skip_none: bool,
    ) -> ir.Field | None:
        """A field as serde writes it (``_directions`` adds what a reader reads)."""
        self._check_keys(attrs, _FIELD_KEYS, "field")
        name = node_text(node.child_by_field_name("name")).removeprefix("r#")
        wire = self._names(attrs, rule, name, variant=False)[0]
        type_node = node.child_by_field_name("type")
        if type_node is None or attrs.has("skip"):
            return None  # never written nor read by serde (a reader ignores the key)
        span = self.span(node)
        as_type = self._serde_as(attrs)
        on_error = False
        if as_type is not None and as_type.name == "DefaultOnError":
            on_error, as_type = True, as_type.arg()
        self._check_as(as_type, attrs)
        option = is_option(type_node)
        tri = self.types.wrapper_arg(type_node, "tri-state")
        inner_as = (
            as_type.arg() if as_type is not None and not as_type.is_same else None
        )
        stated = self._stated_type(attrs)
        if stated is not None:
            # the module's code writes the type the crate's author states: an Option
            # field's own None handling is the module's too
            value, option, tri = stated, None, None
        elif option is not None:
            value = self.types.convert(option, inner_as)
        elif tri is not None:
            value = self.types.convert(tri, inner_as)
        else:
            value = self.types.convert(type_node, as_type)
        base = ir.Field(
            name=name,
            wire_name=wire,
            type=value,
            lifecycle=attrs.lifecycle(),
            span=span,
            default_on_error=on_error,
        )
        default = attrs.get("default")
        if default is not None:
            default_value: str | None = (
                FN_DEFAULT + default.value
                if default.value is not None
                else TYPE_DEFAULT
            )
        elif container_default is not None:
            default_value = CONTAINER_DEFAULT + container_default
        else:
            default_value = None
        if attrs.has("flatten"):
            presence = (
                ir.Presence.OPTIONAL if option is not None else ir.Presence.REQUIRED
            )
            return replace(
                base, flatten=True, presence=presence, default_on_error=False
            )
        skip_if = attrs.get("skip_serializing_if")
        predicate = skip_if.value if skip_if is not None else None
        if (
            predicate is None
            and skip_none
            and option is not None
            and "serialize_always" not in attrs.markers
        ):
            predicate = "Option::is_none"
        if predicate is not None:
            omitted = self._omitted(predicate, type_node, option, tri, span)
            # no default: serde's reader still requires the key it may leave out
            required = option is None and tri is None and default_value is None
            if required:
                self.diags.report(
                    "SER002",
                    f"{name} is skipped when empty but has no `default`: serde cannot "
                    "read back what it writes",
                    span,
                    Severity.WARNING,
                )
            return replace(
                base,
                read_required=required,
                presence=ir.Presence.OPTIONAL,
                nullable=tri is not None,
                omitted_value=omitted,
                default_json=(
                    None if option is not None or tri is not None else default_value
                ),
            )
        if option is not None or tri is not None:
            # A bare Option (or tri-state): always written (null for None/undefined);
            # serde reads a missing key as None.
            return replace(
                base,
                presence=ir.Presence.WRITTEN_ALWAYS_READ_OPTIONAL,
                nullable=True,
                default_json="null",
            )
        if default_value is not None or attrs.has("skip_deserializing"):
            return replace(
                base,
                presence=ir.Presence.WRITTEN_ALWAYS_READ_OPTIONAL,
                default_json=default_value or TYPE_DEFAULT,
            )
        if on_error:
            # Required, but a value that does not read becomes Default::default().
            return replace(base, default_json=TYPE_DEFAULT)
        return base

    def _remote_target(self, attrs: Attrs) -> ir.TypeExpr | None:
        """``#[serde(with = "DurationDef")]`` where ``DurationDef`` is a type of the crate
        with a serde derive (serde's ``remote`` definitions: the derive makes the
        ``serialize``/``deserialize`` functions ``with`` calls): that type's wire form,
        with its type arguments (``OrDef::<u8, bool>``); None for a module or function.
        """
        arg = attrs.get("with")
        if arg is None or arg.value is None:
            return None
        text = arg.value.replace(" ", "").replace("::<", "<")
        full = self.types.resolve(text.split("<", 1)[0])
        if full is None or not (
            full in self.types.crate.names or full in self.types.crate.generic
        ):
            return None
        return self._type_text(text, arg.span)

    def _type_text(self, text: str, span: ir.Span) -> ir.TypeExpr:
        """A type written in an attribute string, generic arguments included."""
        if text == "()":
            return NULL
        if "<" not in text or not text.endswith(">"):
            return self.types.convert_text(text, span)
        base, _, rest = text.partition("<")
        texts = _top_level_split(rest[:-1])
        args = [self._type_text(t, span) for t in texts]
        full = self.types.resolve(base)
        instantiate = self.types.crate.instantiate
        if full is None or full not in self.types.crate.generic or instantiate is None:
            return self.types.convert_text(base, span)
        instance = instantiate(full, args, texts, span)
        return ir.Ref(instance, span) if instance is not None else ir.AnyJson()

    def _schema_function(self, path: str, span: ir.Span) -> ir.TypeExpr | None:
        """The type ``#[schemars(schema_with = "m::json_schema")]`` states for a member
        whose serde form is code: the crate author's statement, as a schema literal."""
        full = self.types.resolve(path)
        found = self.types.crate.functions.get(full) if full is not None else None
        if found is None:
            candidates = [
                v
                for k, v in self.types.crate.functions.items()
                if k.endswith(f"::{path}")
            ]
            found = candidates[0] if len(candidates) == 1 else None
        return schema_literal(found[0]) if found is not None else None

    def _stated_type(self, attrs: Attrs) -> ir.TypeExpr | None:
        """The wire type of a member whose serde form is code (``with``,
        ``serialize_with``, ``deserialize_with``) when ``#[schemars(with = "T")]`` states
        it: the crate's own declaration of what that code reads and writes (the same
        statement a spec makes with ``[rust.wrappers]``).  None otherwise."""
        remote = self._remote_target(attrs)
        if remote is not None:
            return remote
        if attrs.schemars_schema_with is not None and _code_stated(attrs, True):
            return self._schema_function(*attrs.schemars_schema_with)
        if attrs.schemars_with is None or not _code_stated(attrs):
            return None
        text, span = attrs.schemars_with
        return self.types.convert_text(text, span)

    def _check_as(self, as_type: AsType | None, attrs: Attrs) -> None:
        known = {
            "_",
            "Same",
            "Option",
            "VecSkipError",
            "DisplayFromStr",
            *self.types.wrappers,
        }
        stack = [as_type] if as_type is not None else []
        while stack:
            current = stack.pop()
            if current is None:
                continue
            if current.name not in known and current.name != "DefaultOnError":
                arg = next((a for a in attrs.serde_as), None)
                self.diags.report(
                    "SER001",
                    f"serde_as adapter {current.name} is not modelled; the field's own "
                    "wire form is assumed there",
                    arg.span if arg is not None else ir.NO_SPAN,
                )
                return
            # VecSkipError's second argument is an error listener, not a type.
            args = current.args[:1] if current.name == "VecSkipError" else current.args
            stack.extend(args)

    def _omitted(
        self,
        predicate: str,
        type_node: Node,
        option: Node | None,
        tri: Node | None,
        span: ir.Span,
    ) -> str | None:
        """The JSON of the value ``skip_serializing_if = predicate`` leaves out."""
        function = predicate.rsplit("::", 1)[-1]
        if option is not None and function == "is_none":
            return "null"
        if tri is not None:
            return None  # undefined: no JSON value; null is kept
        base = generic_base(type_node) or node_text(type_node).rsplit("::", 1)[-1]
        if function == "is_empty":
            if base in _EMPTY_BY_TYPE:
                return _EMPTY_BY_TYPE[base]
            if base in _EMPTY_MAPS:
                return "{}"
            if base in _EMPTY_STRINGS:
                return '""'
        if function in ("is_default", "is_zero", "is_false") or predicate.endswith(
            "::is_default"
        ):
            return TYPE_DEFAULT
        self.diags.report(
            "SER003",
            f"skip_serializing_if = {predicate!r}: when the key is left out is decided by "
            "code; it is modelled as may be absent",
            span,
            Severity.NOTE,
        )
        return None

    # --------------------------------------------------------------------- enums

    def _enum(self, node: Node, name: str, attrs: Attrs) -> ir.Decl:
        self._check_keys(attrs, _ENUM_KEYS, "enum")
        span = self.span(node)
        life = attrs.lifecycle()
        converted = self._conversion(attrs, name, node)
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
        variants: list[tuple[Node, Attrs]] = []
        for child, attrs_nodes in attributed(
            body.named_children if body is not None else []
        ):
            if child.type != "enum_variant":
                continue
            variant_attrs = self.reader.collect(attrs_nodes)
            if not variant_attrs.enabled:
                continue
            ident = node_text(child.child_by_field_name("name"))
            self.facts.docs[f"{name}::{ident}"] = variant_attrs.lifecycle()
            if "default" in variant_attrs.markers:
                self.facts.variant_default[name] = ident
            payload = child.child_by_field_name("body")
            payload_type = None
            if payload is not None and payload.type == "ordered_field_declaration_list":
                kinds = payload.children_by_field_name("type")
                if len(kinds) == 1:
                    payload_type = self.types.ref_name(kinds[0])
            self.facts.variant_types.setdefault(name, []).append((ident, payload_type))
            if variant_attrs.has("skip"):
                continue
            variants.append((child, variant_attrs))
        if converted is not None:
            return converted
        self._check_untagged_order(name, variants, untagged)
        tagged = [(v, a) for v, a in variants if not a.has("untagged")]
        loose = [(v, a) for v, a in variants if a.has("untagged")]
        all_unit = all(
            v.child_by_field_name("body") is None
            and not _code_stated(a)
            and not _code_stated(a, True)
            and not self._asymmetric(v, a, rule)
            for v, a in tagged
        )
        if all_unit and not untagged and tag is None:
            open_enum = self._open_string(loose)
            if not loose or open_enum:
                return self._string_enum(name, tagged, rule, life, span, open_enum)
        if untagged:
            repr_ = ir.UnionRepr.UNTAGGED
        elif tag is not None and content is not None:
            repr_ = ir.UnionRepr.ADJACENTLY_TAGGED
        elif tag is not None:
            repr_ = ir.UnionRepr.INTERNALLY_TAGGED
        else:
            repr_ = ir.UnionRepr.EXTERNALLY_TAGGED
        skip_none = "skip_serializing_none" in attrs.markers
        out = [
            self._variant(name, v, a, (rule, fields_rule), repr_, attrs, skip_none)
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
            # the keys besides tag and content: serde's adjacently tagged reader steps
            # over them (TagContentOtherField) unless deny_unknown_fields
            extra_keys=(
                self._extra(attrs)
                if repr_ is ir.UnionRepr.ADJACENTLY_TAGGED
                else ir.ExtraKeys.ALLOW
            ),
        )

    def _check_untagged_order(
        self, name: str, variants: list[tuple[Node, Attrs]], untagged: bool
    ) -> None:
        seen_untagged = False
        for node, attrs in variants:
            if attrs.has("untagged") and untagged:
                continue
            if attrs.has("untagged"):
                seen_untagged = True
            elif seen_untagged:
                self.diags.report(
                    "SER002",
                    f"{name}: serde requires #[serde(untagged)] variants to come after "
                    "the tagged ones",
                    self.span(node),
                )
                return

    def _open_string(self, loose: list[tuple[Node, Attrs]]) -> bool:
        """One untagged ``Other(String)`` after unit variants: any other string reads as
        it and is written back as it was (an open string enum)."""
        if len(loose) != 1:
            return False
        body = loose[0][0].child_by_field_name("body")
        if body is None or body.type != "ordered_field_declaration_list":
            return False
        kinds = body.children_by_field_name("type")
        return len(kinds) == 1 and self.types.convert(kinds[0]) == _STRING

    def _variant_wire(self, node: Node, attrs: Attrs, rule: Rules) -> str:
        ident = node_text(node.child_by_field_name("name")).removeprefix("r#")
        return self._names(attrs, rule, ident, variant=True)[0]

    def _asymmetric(self, node: Node, attrs: Attrs, rule: Rules) -> bool:
        """Whether serde reads the variant otherwise than it writes it."""
        ident = node_text(node.child_by_field_name("name")).removeprefix("r#")
        write, read = self._names(attrs, rule, ident, variant=True)
        return (
            write != read
            or attrs.has("skip_serializing")
            or attrs.has("skip_deserializing")
        )

    def _repr_enum(self, node: Node, name: str, attrs: Attrs) -> ir.Decl:
        """serde_repr: a fieldless enum written and read as its discriminant (an integer
        of the ``#[repr]`` type); any other integer is rejected on read."""
        members: list[ir.EnumMember] = []
        for ident, value, span in enum_discriminants(node, self.reader, self.source):
            if value is None:
                self.diags.report(
                    "SER003",
                    f"{name}::{ident}: the discriminant is not a constant this frontend "
                    "evaluates; the enum is read as any integer",
                    span,
                )
                return ir.AliasDecl(
                    name,
                    ir.Primitive(ir.PrimitiveKind.INTEGER),
                    ir.AliasKind.NEWTYPE,
                    attrs.lifecycle(),
                    self.span(node),
                )
            members.append(ir.EnumMember(ident, value, span=span))
        return ir.EnumDecl(
            name,
            ir.EnumBase.INTEGER,
            tuple(members),
            lifecycle=attrs.lifecycle(),
            span=self.span(node),
        )

    def _string_enum(
        self,
        name: str,
        variants: list[tuple[Node, Attrs]],
        rule: Rules,
        life: ir.Lifecycle,
        span: ir.Span,
        open_enum: bool,
    ) -> ir.EnumDecl:
        members = []
        catch_all = None
        for node, attrs in variants:
            self._check_keys(
                attrs, _VARIANT_KEYS - {"alias", "untagged"}, "unit variant"
            )
            ident = node_text(node.child_by_field_name("name"))
            if attrs.has("other"):
                catch_all = ident
            members.append(
                ir.EnumMember(
                    name=ident,
                    value=self._variant_wire(node, attrs, rule),
                    lifecycle=attrs.lifecycle(),
                    span=self.span(node),
                )
            )
        return ir.EnumDecl(
            name,
            ir.EnumBase.STRING,
            tuple(members),
            open=open_enum,
            catch_all=catch_all,
            map_form=True,
            lifecycle=life,
            span=span,
        )

    def _variant(
        self,
        enum: str,
        node: Node,
        attrs: Attrs,
        rules: tuple[Rules, Rules],
        repr_: ir.UnionRepr,
        enum_attrs: Attrs,
        skip_none: bool,
    ) -> ir.Variant:
        rule, fields_rule = rules
        self._check_keys(attrs, _VARIANT_KEYS, "variant")
        ident = node_text(node.child_by_field_name("name")).removeprefix("r#")
        wire, read = self._names(attrs, rule, ident, variant=True)
        aliases = [a.value for a in attrs.serde if a.key == "alias" and a.value]
        tag_values: tuple[str, ...] = (wire, *[a for a in aliases if a != wire])
        read_tags: tuple[str, ...] | None = None
        if read != wire:
            read_tags = tuple(dict.fromkeys([read, *aliases]))
            tag_values = (wire,)
        asymmetric = read_tags is not None or self._asymmetric(node, attrs, rule)
        if asymmetric:
            self.diags.report(
                "SER003",
                f"{enum}::{ident} is read otherwise than it is written (rename per "
                "direction, skip_serializing or skip_deserializing): the JSON Schema has "
                "both forms (x-written-form); the Python bindings read it as serde does "
                "and write it back with the tag it was read with",
                self.span(node),
                Severity.NOTE,
            )
        loose = attrs.has("untagged") and repr_ is not ir.UnionRepr.UNTAGGED
        body = node.child_by_field_name("body")
        span = self.span(node)
        life = attrs.lifecycle()
        expr: ir.TypeExpr | None = None
        stated = self._stated_type(attrs)
        if stated is not None:
            # serde writes a unit or tuple variant whose form is code as a newtype
            # variant holding what the code writes
            expr = stated
        elif body is None:
            expr = NULL if repr_ is ir.UnionRepr.UNTAGGED or loose else None
        elif body.type == "ordered_field_declaration_list":
            items = self._tuple_items(body)
            if len(items) == 1:
                expr = items[0]
            else:
                if repr_ is ir.UnionRepr.INTERNALLY_TAGGED and not loose:
                    self.diags.report(
                        "SER002",
                        f"{enum}::{ident}: an internally tagged enum cannot hold a "
                        "tuple variant",
                        span,
                    )
                expr = ir.TupleOf(tuple(items))
        else:
            variant_rule = self._rule(attrs, "rename_all").over(fields_rule)
            variant_attrs = Attrs(
                markers={"skip_serializing_none"} if skip_none else set()
            )
            fields = self._fields(body, variant_rule, None, variant_attrs)
            key = enum_attrs.get("tag")
            if (
                repr_ is ir.UnionRepr.INTERNALLY_TAGGED
                and not loose
                and key
                and key.value is not None
                # the tag a reader takes is not the one a writer writes: the union
                # says which (the struct holds no tag of its own)
                and not asymmetric
            ):
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
        if repr_ is ir.UnionRepr.UNTAGGED or loose:
            tag_values, read_tags = (), None
        return ir.Variant(
            ident,
            expr,
            tag_values,
            life,
            span,
            untagged=loose,
            catch_all=attrs.has("other"),
            read_tags=read_tags,
            written=not attrs.has("skip_serializing"),
            read=not attrs.has("skip_deserializing"),
        )
