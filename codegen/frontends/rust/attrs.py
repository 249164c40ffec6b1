"""Rust attributes and doc comments for the serde frontend: ``#[serde(...)]``,
``#[serde_as(...)]``, ``#[skip_serializing_none]``, ``#[derive]``, ``#[cfg]``/``#[cfg_attr]``,
``schemars(extend(...))``, ``///`` docs, ``#[deprecated]``, and serde's ``rename_all`` rules.

Phase: frontend helper (used by ``rust.crate`` and ``rust.decls``).
Inputs: the ``attribute_item`` and ``line_comment``/``block_comment`` nodes that precede an
item, a field or a variant (tree-sitter-rust), and the crate's ``CfgEvaluator``.
Outputs: an ``Attrs`` record: whether the node is compiled (every ``cfg`` true), doc text,
derived traits, serde and serde_as arguments with spans, the ``schemars`` ``extend`` pairs,
markers (``skip_serializing_none``, ``serialize_always``, ``default``, ``path``), deprecation.
``cfg_attr(pred, a, b)`` contributes ``a`` and ``b`` when ``pred`` holds.  String values are
decoded as rustc does (``"a\\"b"`` is ``a"b``; ``rename = ""`` is the empty name).
``apply_rename_rule`` reproduces serde's ``RenameRule::apply_to_field`` / ``apply_to_variant``.
Guarantees: never raises on user input; malformed serde arguments and unknown rename rules are
reported (SER001) with spans, and the offending argument is dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from tree_sitter import Node

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.common.syntax import MAX_TYPE_NESTING, node_text, span_of
from codegen.frontends.rust.cfg import CfgEvaluator, split_groups
from codegen.frontends.rust.literals import string_literal_value
from codegen.spec.source import SourceText

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
RENAME_RULES = (
    "lowercase",
    "UPPERCASE",
    "PascalCase",
    "camelCase",
    "snake_case",
    "SCREAMING_SNAKE_CASE",
    "kebab-case",
    "SCREAMING-KEBAB-CASE",
)
_STRING_NODES = ("string_literal", "raw_string_literal")


@dataclass(frozen=True, slots=True)
class SerdeArg:
    """One argument of ``#[serde(...)]``: ``flatten``, ``rename = "x"``, ``rename(serialize
    = "x")``."""

    key: str
    value: str | None
    span: ir.Span
    nested: tuple[SerdeArg, ...] = ()


@dataclass
class Attrs:
    enabled: bool = True  # every ``#[cfg]`` on the node holds
    docs: list[str] = field(default_factory=list)
    derives: set[str] = field(default_factory=set)
    serde: list[SerdeArg] = field(default_factory=list)
    serde_as: list[SerdeArg] = field(default_factory=list)
    # schemars ``extend("key" = value)``: key → the value's source text (a string
    # literal's value, or an identifier/expression as written), with its span.
    schemars_extend: dict[str, tuple[str, bool, ir.Span]] = field(default_factory=dict)
    # schemars ``with = "T"``: the type whose wire form the member has, as the crate's
    # author states it for a member whose serde form is code (``serde(with = module)``)
    schemars_with: tuple[str, ir.Span] | None = None
    # schemars ``schema_with = "m::json_schema"``: the function that states it as a schema
    schemars_schema_with: tuple[str, ir.Span] | None = None
    markers: set[str] = field(default_factory=set)  # skip_serializing_none, default...
    path: str | None = None  # ``#[path = "x.rs"]`` on a ``mod``
    deprecated: str | None = None
    span: ir.Span | None = None

    def get(self, key: str) -> SerdeArg | None:
        return next((arg for arg in self.serde if arg.key == key), None)

    def has(self, key: str) -> bool:
        return self.get(key) is not None

    def lifecycle(self) -> ir.Lifecycle:
        return ir.Lifecycle(docs=doc_text(self.docs), deprecated=self.deprecated)


def doc_text(lines: list[str]) -> str:
    stripped = [line.removeprefix(" ") for line in lines]
    return "\n".join(stripped).strip()


def is_doc_comment(node: Node) -> bool:
    return node.type in ("line_comment", "block_comment") and any(
        child.type == "outer_doc_comment_marker" for child in node.children
    )


def attributed(children: list[Node]) -> Iterator[tuple[Node, list[Node]]]:
    """Each child that is not an attribute or a comment, with the attribute and doc-comment
    nodes right before it (for ``AttrReader.collect``)."""
    pending: list[Node] = []
    for node in children:
        if node.type == "attribute_item" or is_doc_comment(node):
            pending.append(node)
        elif node.type not in ("line_comment", "block_comment"):
            yield node, pending
            pending = []


@dataclass(frozen=True)
class _Raw:
    """One attribute, whether written directly or produced by ``cfg_attr``."""

    name: str
    args: Node | None  # the parenthesized token tree
    value: Node | None  # ``= value``
    span: ir.Span


@dataclass
class AttrReader:
    source: SourceText
    diags: Diagnostics
    cfg: CfgEvaluator

    def collect(self, nodes: list[Node]) -> Attrs:
        """Fold the attribute and doc-comment nodes in front of a declaration into ``Attrs``."""
        attrs = Attrs()
        for node in nodes:
            if node.type in ("line_comment", "block_comment"):
                if is_doc_comment(node):
                    doc = next(
                        (c for c in node.children if c.type == "doc_comment"), None
                    )
                    attrs.docs.extend(_doc_lines(node_text(doc), node.type))
                continue
            attrs.span = attrs.span or span_of(self.source, node)
            attribute = next(
                (c for c in node.named_children if c.type == "attribute"), None
            )
            if attribute is None:
                continue
            for raw in self._raw(attribute):
                self._read(raw, attrs)
        return attrs

    def _raw(self, attribute: Node) -> list[_Raw]:
        path = attribute.named_children[0] if attribute.named_children else None
        name = node_text(path).replace(" ", "")
        args = next(
            (c for c in attribute.named_children if c.type == "token_tree"), None
        )
        value = attribute.child_by_field_name("value")
        span = span_of(self.source, attribute)
        if name != "cfg_attr":
            return [_Raw(name, args, value, span)]
        if args is None:
            return []
        groups = split_groups(args)
        if not groups:
            return []
        holds = self._holds(groups[0], span)
        if not holds:
            return []
        out: list[_Raw] = []
        for group in groups[1:]:
            inner_args: Node | None = None
            inner_value: Node | None = None
            head = group
            if group[-1].type == "token_tree":
                head, inner_args = group[:-1], group[-1]
            elif len(group) >= 3 and group[-2].type == "=":
                head, inner_value = group[:-2], group[-1]
            name = "".join(node_text(t) for t in head)
            out.append(_Raw(name, inner_args, inner_value, span))
        return out

    def _holds(self, tokens: list[Node], span: ir.Span) -> bool:
        return self.cfg.predicate(tokens, span)

    def _read(self, raw: _Raw, attrs: Attrs) -> None:
        name = raw.name.rsplit("::", 1)[-1]
        args = raw.args
        if name == "cfg":
            if not self.cfg.evaluate(args, raw.span):
                attrs.enabled = False
        elif (
            name == "test" and args is None
        ):  # #[test], #[tokio::test]: test builds only
            attrs.enabled = False
        elif name == "derive" and args is not None:
            for child in args.named_children:
                attrs.derives.add(node_text(child).rsplit("::", 1)[-1])
        elif name == "serde" and args is not None:
            attrs.serde.extend(parse_args(args, self.source, self.diags))
        elif name == "serde_as":
            attrs.markers.add("serde_as")
            if args is not None:
                attrs.serde_as.extend(parse_args(args, self.source, self.diags))
        elif name in ("skip_serializing_none", "serialize_always", "default"):
            attrs.markers.add(name)
        elif name == "schemars" and args is not None:
            self._schemars(args, attrs)
        elif name == "doc" and raw.value is not None:
            attrs.docs.append(string_literal_value(raw.value) or "")
        elif name == "path" and raw.value is not None:
            attrs.path = string_literal_value(raw.value)
        elif name == "deprecated":
            note = None
            if raw.value is not None:
                note = string_literal_value(raw.value)
            elif args is not None:
                note = next(
                    (
                        a.value
                        for a in parse_args(args, self.source, self.diags)
                        if a.key == "note"
                    ),
                    None,
                )
            attrs.deprecated = note or ""

    def _schemars(self, args: Node, attrs: Attrs) -> None:
        """``schemars(extend("x-method" = NAME, "x-side" = "agent"), ...)``: keep the pairs;
        ``schemars(with = "T")``: keep the type."""
        for group in split_groups(args):
            if (
                len(group) == 3
                and node_text(group[0]) in ("with", "schema_with")
                and group[1].type == "="
            ):
                stated = string_literal_value(group[2])
                where = span_of(self.source, group[2])
                if stated is not None and node_text(group[0]) == "with":
                    attrs.schemars_with = (stated, where)
                elif stated is not None:
                    attrs.schemars_schema_with = (stated, where)
                continue
            if (
                len(group) != 2
                or node_text(group[0]) != "extend"
                or group[1].type != "token_tree"
            ):
                continue
            for pair in split_groups(group[1]):
                if len(pair) < 3 or pair[1].type != "=":
                    continue
                key = string_literal_value(pair[0])
                if key is None:
                    continue
                value_node = pair[2]
                literal = string_literal_value(value_node)
                text = literal if literal is not None else node_text(value_node)
                attrs.schemars_extend[key] = (
                    text,
                    literal is not None,
                    span_of(self.source, value_node),
                )


def _doc_lines(text: str, kind: str) -> list[str]:
    if kind == "line_comment":
        return [text.rstrip("\n").rstrip("\r")]
    lines = text.splitlines()
    return [line.strip().removeprefix("* ").removeprefix("*") for line in lines]


def parse_args(
    tree: Node, source: SourceText, diags: Diagnostics, depth: int = 0
) -> list[SerdeArg]:
    """Split a token tree ``(a, b = "x", c(d = "y"))`` into arguments."""
    out: list[SerdeArg] = []
    if depth >= MAX_TYPE_NESTING:
        diags.report(
            "SYN008",
            f"attribute arguments nested more than {MAX_TYPE_NESTING} levels deep; "
            "ignored",
            span_of(source, tree),
        )
        return out
    for group in split_groups(tree):
        head = group[0]
        span = span_of(source, head)
        if not _IDENT.fullmatch(node_text(head)):  # ``default`` is a keyword token
            diags.report(
                "SER001",
                f"cannot read serde argument {node_text(head)[:40]!r}; ignored",
                span,
            )
            continue
        key = node_text(head)
        if len(group) == 1:
            out.append(SerdeArg(key, None, span))
        elif len(group) == 3 and group[1].type == "=":
            text = string_literal_value(group[2])
            if text is None:
                diags.report(
                    "SER001",
                    f"serde argument {key} expects a string literal; ignored",
                    span_of(source, group[2]),
                )
                continue
            out.append(SerdeArg(key, text, span))
        elif len(group) == 2 and group[1].type == "token_tree":
            nested = tuple(parse_args(group[1], source, diags, depth + 1))
            out.append(SerdeArg(key, None, span, nested))
        else:
            diags.report("SER001", f"cannot read serde argument {key!r}; ignored", span)
    return out


@dataclass(frozen=True)
class Rules:
    """A ``rename_all``-like rule for each direction (serde's ``rename_all(serialize =
    .., deserialize = ..)``); None: names as written."""

    write: str | None = None
    read: str | None = None

    def over(self, fallback: Rules) -> Rules:
        """These rules, each direction falling back to ``fallback``'s (serde's
        ``RenameAllRules::or``)."""
        return Rules(self.write or fallback.write, self.read or fallback.read)


def rule_pair(arg: SerdeArg | None, diags: Diagnostics) -> Rules:
    """The rules of a ``rename_all``-like argument, per direction (each one checked)."""
    if arg is None:
        return Rules()
    if not arg.nested:
        rule = _known_rule(arg, arg.value, diags)
        return Rules(rule, rule)
    out: list[str | None] = []
    for key in ("serialize", "deserialize"):
        value = next((a.value for a in arg.nested if a.key == key), None)
        out.append(_known_rule(arg, value, diags) if value is not None else None)
    return Rules(out[0], out[1])


def _known_rule(arg: SerdeArg, value: str | None, diags: Diagnostics) -> str | None:
    if value not in RENAME_RULES:
        diags.report(
            "SER001",
            f"unknown {arg.key} rule {value!r} (serde knows {', '.join(RENAME_RULES)})",
            arg.span,
        )
        return None
    return value


def rename_pair(arg: SerdeArg | None) -> tuple[str | None, str | None]:
    """The (serialize, deserialize) names of ``rename = "x"`` (both ``x``) or
    ``rename(serialize = "a", deserialize = "b")`` (either may be None: that direction
    keeps the name its rule gives)."""
    if arg is None:
        return None, None
    if not arg.nested:
        return arg.value, arg.value
    serialize = next((a.value for a in arg.nested if a.key == "serialize"), None)
    deserialize = next((a.value for a in arg.nested if a.key == "deserialize"), None)
    return serialize, deserialize


def rename_value(arg: SerdeArg, diags: Diagnostics) -> str | None:
    """The wire name of ``rename = "x"`` or ``rename(serialize = "x", ...)``."""
    if not arg.nested:
        return arg.value
    serialize = next((a.value for a in arg.nested if a.key == "serialize"), None)
    deserialize = next((a.value for a in arg.nested if a.key == "deserialize"), None)
    if deserialize is not None and serialize != deserialize:
        diags.report(
            "SER001",
            "rename with different serialize and deserialize names is not modelled; "
            "the serialize name is used",
            arg.span,
        )
    return serialize if serialize is not None else deserialize


def apply_rename_rule(rule: str | None, name: str, *, variant: bool) -> str:
    """serde's ``RenameRule::apply_to_variant`` (PascalCase input) and ``apply_to_field``
    (snake_case input)."""
    if rule is None:
        return name
    if variant:
        return _variant_rule(rule, name)
    return _field_rule(rule, name)


def _variant_rule(rule: str, name: str) -> str:
    if rule == "PascalCase":
        return name
    if rule == "lowercase":
        return name.lower()
    if rule == "UPPERCASE":
        return name.upper()
    if rule == "camelCase":
        return name[:1].lower() + name[1:]
    snake = "".join(
        ("_" if index > 0 and char.isupper() else "") + char.lower()
        for index, char in enumerate(name)
    )
    if rule == "snake_case":
        return snake
    if rule == "SCREAMING_SNAKE_CASE":
        return snake.upper()
    if rule == "kebab-case":
        return snake.replace("_", "-")
    return snake.upper().replace("_", "-")  # SCREAMING-KEBAB-CASE


def _field_rule(rule: str, name: str) -> str:
    if rule in ("lowercase", "snake_case"):
        return name
    if rule in ("UPPERCASE", "SCREAMING_SNAKE_CASE"):
        return name.upper()
    if rule in ("PascalCase", "camelCase"):
        pascal = []
        capitalize = True
        for char in name:
            if char == "_":
                capitalize = True
            elif capitalize:
                pascal.append(char.upper())
                capitalize = False
            else:
                pascal.append(char)
        text = "".join(pascal)
        return text if rule == "PascalCase" else text[:1].lower() + text[1:]
    if rule == "kebab-case":
        return name.replace("_", "-")
    return name.upper().replace("_", "-")  # SCREAMING-KEBAB-CASE
